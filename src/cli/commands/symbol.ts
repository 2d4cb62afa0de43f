/** `codecite symbol <name>`: the `find_symbol` tool from the command line. */
import type { Command } from "commander";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT } from "../../evidence/budget.js";
import { parseInteger, runAction } from "../output.js";
import { outputScopeOf, withOutputOptions, type OutputFlags } from "../evidence-options.js";

interface SymbolFlags extends OutputFlags {
  kind?: string;
  path?: string;
  maxResults?: number;
  root?: string;
  json?: boolean;
}

/** Registers `codecite symbol` on `program` (README "CLI reference"). */
export function register(program: Command): void {
  withOutputOptions(program.command("symbol"))
    .description("find where a function, class, method, type or constant is defined")
    .argument("<name>", "symbol name; Class.method allowed")
    .option("--kind <k>", "only definitions of this kind (function, class, method, interface, type, enum, variable, constant, struct, trait, module)")
    .option("--path <p>", "limit to this repository-relative file or folder")
    .option("--max-results <n>", `maximum records, 1-${MAX_RESULTS_LIMIT} (default ${DEFAULT_MAX_RESULTS})`, parseInteger)
    .option("--root <dir>", "repository root (default: the enclosing git work tree, else the current folder)")
    .option("--json", "print the tool result envelope as JSON")
    .action((name: string, flags: SymbolFlags) =>
      runAction(flags.json === true, async () => {
        const { runEvidenceCommand } = await import("../evidence-command.js");
        await runEvidenceCommand({
          command: "symbol",
          args: { name, kind: flags.kind, path: flags.path, max_results: flags.maxResults },
          root: flags.root,
          json: flags.json === true,
          output: outputScopeOf(flags),
        });
      }),
    );
}
