/** `codecite refs <name>`: the `find_references` tool from the command line. */
import type { Command } from "commander";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT } from "../../evidence/budget.js";
import { parseInteger, runAction } from "../output.js";
import { outputScopeOf, withOutputOptions, type OutputFlags } from "../evidence-options.js";

interface RefsFlags extends OutputFlags {
  path?: string;
  kind?: string;
  maxResults?: number;
  root?: string;
  json?: boolean;
}

/** Registers `codecite refs` on `program` (see README.md "CLI reference"). */
export function register(program: Command): void {
  withOutputOptions(program.command("refs"))
    .description("list the places that call or use a definition (resolved through imports, not by text)")
    .argument("<name>", "the definition: func, Class.method, module.func, Type::method, pkg.Func")
    .option("--path <p>", "the file or folder holding the definition")
    .option("--kind <k>", "only uses of this kind (call, import, type, inherit, value)")
    .option("--max-results <n>", `maximum records, 1-${MAX_RESULTS_LIMIT} (default ${DEFAULT_MAX_RESULTS})`, parseInteger)
    .option("--root <dir>", "repository root (default: the enclosing git work tree, else the current folder)")
    .option("--json", "print the tool result envelope as JSON")
    .action((name: string, flags: RefsFlags) =>
      runAction(flags.json === true, async () => {
        const { runEvidenceCommand } = await import("../evidence-command.js");
        await runEvidenceCommand({
          command: "refs",
          args: { name, path: flags.path, kind: flags.kind, max_results: flags.maxResults },
          root: flags.root,
          json: flags.json === true,
          output: outputScopeOf(flags),
        });
      }),
    );
}
