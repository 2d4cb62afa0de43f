/** `codecite search <query>`: the `search_code` tool from the command line. */
import type { Command } from "commander";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT } from "../../evidence/budget.js";
import { parseInteger, runAction } from "../output.js";
import { outputScopeOf, withOutputOptions, type OutputFlags } from "../evidence-options.js";

interface SearchFlags extends OutputFlags {
  regex?: boolean;
  path?: string;
  glob?: string;
  caseSensitive?: boolean;
  maxResults?: number;
  root?: string;
  json?: boolean;
}

/** Registers `codecite search` on `program` (README "CLI reference"). */
export function register(program: Command): void {
  withOutputOptions(program.command("search"))
    .description("search file contents with ripgrep (literal text unless --regex)")
    .argument("<query>", "text (or regular expression) to find")
    .option("--regex", "treat the query as a regular expression")
    .option("--path <p>", "limit to this repository-relative file or folder")
    .option("--glob <g>", "limit to files matching this glob, e.g. '*.py'")
    .option("--case-sensitive", "match case exactly (default: smart case)")
    .option("--max-results <n>", `maximum records, 1-${MAX_RESULTS_LIMIT} (default ${DEFAULT_MAX_RESULTS})`, parseInteger)
    .option("--root <dir>", "repository root (default: the enclosing git work tree, else the current folder)")
    .option("--json", "print the tool result envelope as JSON")
    .action((query: string, flags: SearchFlags) =>
      runAction(flags.json === true, async () => {
        const { runEvidenceCommand } = await import("../evidence-command.js");
        await runEvidenceCommand({
          command: "search",
          args: {
            query,
            regex: flags.regex,
            path: flags.path,
            glob: flags.glob,
            case_sensitive: flags.caseSensitive,
            max_results: flags.maxResults,
          },
          root: flags.root,
          json: flags.json === true,
          output: outputScopeOf(flags),
        });
      }),
    );
}
