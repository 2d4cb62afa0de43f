/**
 * Every command of the CLI, in help order. Each lives in `<name>.ts` and exports
 * `register(program)`; heavy modules load inside its action. To add a command: one entry here
 * (its name and its module; `main.ts` and the README test read this list).
 *
 * Modules are imported on demand ({@link loadCommands}): a process that runs one command loads
 * only that command's module.
 */
import type { Command } from "commander";

/** What a command module exports. */
export interface CommandModule {
  register(program: Command): void;
}

/** Command name → its module. */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<CommandModule>]> = [
  ["ask", () => import("./ask.js")],
  ["chat", () => import("./chat.js")],
  ["search", () => import("./search.js")],
  ["symbol", () => import("./symbol.js")],
  ["importers", () => import("./importers.js")],
  ["refs", () => import("./refs.js")],
  ["read", () => import("./read.js")],
  ["diff", () => import("./diff.js")],
  ["tools", () => import("./tools.js")],
  ["mcp", () => import("./mcp.js")],
  ["toolshim", () => import("./toolshim.js")],
  ["doctor", () => import("./doctor.js")],
  ["config", () => import("./config.js")],
  ["eval", () => import("./eval.js")],
  ["serve", () => import("./serve.js")],
];

/**
 * The modules to register for a command line whose first word is `first`: only that command's
 * when it names one, else all of them (top-level help, `help`, `--version`, an unknown or a
 * missing command: commander then lists and checks every command as usual). In help order.
 */
export async function loadCommands(first?: string): Promise<CommandModule[]> {
  const only = COMMANDS.find(([name]) => name === first);
  return Promise.all((only ? [only] : COMMANDS).map(([, load]) => load()));
}
