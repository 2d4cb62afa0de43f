/** `codecite diff`: the `read_git_diff` tool from the command line. */
import type { Command } from "commander";
import { parseInteger, runAction } from "../output.js";
import { outputScopeOf, withOutputOptions, type OutputFlags } from "../evidence-options.js";

interface DiffFlags extends OutputFlags {
  base?: string;
  head?: string;
  path?: string;
  contextLines?: number;
  stat?: boolean;
  root?: string;
  json?: boolean;
}

/** Registers `codecite diff` on `program` (README "CLI reference"). */
export function register(program: Command): void {
  withOutputOptions(program.command("diff"))
    .description("show git changes as hunks (working tree against HEAD by default)")
    .option("--base <ref>", "base commit or ref (default HEAD)")
    .option("--head <ref>", "head commit or ref (default: the working tree)")
    .option("--path <p>", "limit to this repository-relative file or folder")
    .option("--context-lines <n>", "context lines around each change, 0-20 (default 3)", parseInteger)
    .option("--stat", "list the changed files with added/removed line counts instead of the hunks")
    .option("--root <dir>", "repository root (default: the enclosing git work tree, else the current folder)")
    .option("--json", "print the tool result envelope as JSON")
    .action((flags: DiffFlags) =>
      runAction(flags.json === true, async () => {
        const { runEvidenceCommand } = await import("../evidence-command.js");
        await runEvidenceCommand({
          command: "diff",
          args: { base: flags.base, head: flags.head, path: flags.path, context_lines: flags.contextLines },
          root: flags.root,
          json: flags.json === true,
          // --stat counts every hunk, so it reads the whole diff.
          output: flags.stat === true ? { all: true } : outputScopeOf(flags),
          stat: flags.stat === true,
        });
      }),
    );
}
