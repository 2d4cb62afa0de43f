/** `codecite importers <module>`: the `find_importers` tool from the command line. */
import type { Command } from "commander";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT } from "../../evidence/budget.js";
import { parseInteger, runAction } from "../output.js";
import { outputScopeOf, withOutputOptions, type OutputFlags } from "../evidence-options.js";

interface ImportersFlags extends OutputFlags {
  includeSubmodules?: boolean;
  maxResults?: number;
  root?: string;
  json?: boolean;
}

/** Registers `codecite importers` on `program` (README "CLI reference"). */
export function register(program: Command): void {
  withOutputOptions(program.command("importers"))
    .description("list the files that import a module, with the import statements")
    .argument("<module>", "dotted Python module (or a unique last part), JS/TS specifier, or file path (repository- or current-folder-relative)")
    .option("--include-submodules", "also the modules under it (pkg.sub, pkg/sub, a::b::c); default: the exact module only")
    .option("--max-results <n>", `maximum records, 1-${MAX_RESULTS_LIMIT} (default ${DEFAULT_MAX_RESULTS})`, parseInteger)
    .option("--root <dir>", "repository root (default: the enclosing git work tree, else the current folder)")
    .option("--json", "print the tool result envelope as JSON")
    .action((moduleName: string, flags: ImportersFlags) =>
      runAction(flags.json === true, async () => {
        const { runEvidenceCommand } = await import("../evidence-command.js");
        await runEvidenceCommand({
          command: "importers",
          args: { module_name: moduleName, include_submodules: flags.includeSubmodules === true, max_results: flags.maxResults },
          root: flags.root,
          json: flags.json === true,
          output: outputScopeOf(flags),
        });
      }),
    );
}
