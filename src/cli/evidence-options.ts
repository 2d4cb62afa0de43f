/**
 * Options every evidence command shares for output sized for people: `--all` (every record,
 * whole snippets, no output budget; the JSON envelope is complete too) and `--max-lines <n>`
 * (with `--all`, snippet lines per record). Without `--all` the output keeps the budget meant for
 * a model, and the command says how to see everything.
 */
import type { Command } from "commander";
import type { OutputScope } from "../evidence/budget.js";
import { parseInteger, UsageError } from "./output.js";

/** The flags {@link withOutputOptions} adds, as commander parses them. */
export interface OutputFlags {
  all?: boolean;
  maxLines?: number;
}

/** Adds `--all` and `--max-lines <n>` to `command`. */
export function withOutputOptions(command: Command): Command {
  return command
    .option("--all", "show every record with whole snippets (no output budget); JSON is complete too")
    .option("--max-lines <n>", "with --all: snippet lines shown per record", parseInteger);
}

/**
 * The output scope the flags ask for: `undefined` (the model's budget) without `--all`.
 * @throws UsageError for `--max-lines` without `--all`, or below 1.
 */
export function outputScopeOf(flags: OutputFlags): OutputScope | undefined {
  if (flags.maxLines !== undefined) {
    if (flags.all !== true) throw new UsageError("--max-lines applies only with --all", "Add --all, or leave --max-lines out.");
    if (flags.maxLines < 1) throw new UsageError("--max-lines must be 1 or more");
  }
  if (flags.all !== true) return undefined;
  return flags.maxLines === undefined ? { all: true } : { all: true, maxSnippetLines: flags.maxLines };
}
