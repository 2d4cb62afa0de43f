/** `codecite read <path>`: the `read_evidence` tool from the command line. */
import type { Command } from "commander";
import { parseInteger, runAction, UsageError } from "../output.js";
import { outputScopeOf, withOutputOptions, type OutputFlags } from "../evidence-options.js";

interface ReadFlags extends OutputFlags {
  startLine?: number;
  endLine?: number;
  root?: string;
  json?: boolean;
}

/** Lines shown before and after `N` for a location `file:N`. */
const AROUND_LINES = 10;

/** Registers `codecite read` on `program` (README "CLI reference"). */
export function register(program: Command): void {
  withOutputOptions(program.command("read"))
    .description("print exact lines of a file (1-based, inclusive)")
    .argument("<path>", "file path (repository- or current-folder-relative, or absolute), or a location file:line or file:start-end")
    .option("--start-line <n>", "first line, 1-based (default 1)", parseInteger)
    .option("--end-line <n>", "last line, inclusive (default: a capped window)", parseInteger)
    .option("--root <dir>", "repository root (default: the enclosing git work tree, else the current folder)")
    .option("--json", "print the tool result envelope as JSON")
    .action((path: string, flags: ReadFlags) =>
      runAction(flags.json === true, async () => {
        const [{ runEvidenceCommand }, { parseLocation }, { MAX_LINE_NUMBER }] = await Promise.all([
          import("../evidence-command.js"),
          import("../locations.js"),
          import("../../evidence/read.js"),
        ]);
        // `file.py:40` reads around line 40; `file.py:40-52` exactly those lines (flags win).
        const loc = parseLocation(path);
        // The location's own numbers are checked here, so the error names what the user pasted (not a flag).
        if (loc.startLine !== undefined && flags.startLine === undefined && flags.endLine === undefined) {
          if (loc.startLine < 1) throw new UsageError(`${path}: there is no line ${loc.startLine}; lines are 1-based`, "Write file:N with N of 1 or more, or file:start-end.");
          if (loc.endLine !== undefined && loc.endLine < loc.startLine) {
            throw new UsageError(`${path}: the range ends (line ${loc.endLine}) before it starts (line ${loc.startLine})`, "Write file:start-end with start ≤ end.");
          }
        }
        const around = loc.startLine !== undefined && loc.endLine === undefined;
        // A location's lines past the last the tool takes (or past 2^53) are that last line, so a
        // pasted `file:100000000` is "the file has N lines", never a range error of a flag not typed.
        const within = (n: number | undefined) => (n === undefined ? n : Math.min(n, MAX_LINE_NUMBER));
        const start = flags.startLine ?? within(around ? Math.max(1, (loc.startLine as number) - AROUND_LINES) : loc.startLine);
        const end = flags.endLine ?? within(around ? (loc.startLine as number) + AROUND_LINES : loc.endLine);
        await runEvidenceCommand({
          command: "read",
          args: { path: loc.path, start_line: start, end_line: end },
          root: flags.root,
          json: flags.json === true,
          output: outputScopeOf(flags),
          ...(loc.startLine !== undefined && flags.startLine === undefined && flags.endLine === undefined
            ? { pasted: { text: path, line: loc.endLine ?? loc.startLine, windowEnd: end as number } }
            : {}),
        });
      }),
    );
}
