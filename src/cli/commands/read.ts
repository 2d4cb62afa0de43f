/** `codecite read <path>`: the `read_evidence` tool from the command line. */
import type { Command } from "commander";
import { parseInteger, runAction } from "../output.js";
import { outputScopeOf, withOutputOptions, type OutputFlags } from "../evidence-options.js";

interface ReadFlags extends OutputFlags {
  startLine?: number;
  endLine?: number;
  root: string;
  json?: boolean;
}

/** Registers `codecite read` on `program` (README "CLI reference"). */
export function register(program: Command): void {
  withOutputOptions(program.command("read"))
    .description("print exact lines of a file (1-based, inclusive)")
    .argument("<path>", "repository-relative file path")
    .option("--start-line <n>", "first line, 1-based (default 1)", parseInteger)
    .option("--end-line <n>", "last line, inclusive (default: a capped window)", parseInteger)
    .option("--root <dir>", "repository root", ".")
    .option("--json", "print the tool result envelope as JSON")
    .action((path: string, flags: ReadFlags) =>
      runAction(flags.json === true, async () => {
        const { runEvidenceCommand } = await import("../evidence-command.js");
        await runEvidenceCommand({
          command: "read",
          args: { path, start_line: flags.startLine, end_line: flags.endLine },
          root: flags.root,
          json: flags.json === true,
          output: outputScopeOf(flags),
        });
      }),
    );
}
