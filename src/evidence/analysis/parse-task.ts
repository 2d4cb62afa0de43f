/**
 * One file's facts from its text: the work the fact cache does for a file it has to parse, in the
 * process or in a parse-pool worker thread (`src/fact-cache/parse-pool.ts`). This module is the
 * workers' task module, so it imports only what parsing needs (the language table and, on first
 * use, tree-sitter): a worker starts by loading it, and every module more is start-up time of the
 * first query on a repository.
 */
import { languageFor } from "./lang/index.js";
import type { FileFacts, TextFocus } from "./lang/language.js";

/** One file to parse: its path (the language comes from its ending), its text, and whether to extract its references. */
export interface ParseInput {
  path: string;
  source: string;
  references: boolean;
}

/**
 * Parses one file's text and extracts its facts with the language chosen by the path's ending
 * (references only when `references` is true). Lines of the facts are 1-based and match
 * `TextFile.lines` when `source` is those lines joined with `\n` (as `loadFacts` of `facts.ts`
 * does); each import carries its statement's lines (`ImportRef.lines`). tree-sitter is loaded on
 * first use.
 * @returns `undefined` when no language handles the path.
 * @throws Error when the grammar cannot be loaded or the parser gives up; `SyntaxTooDeepError`
 *   (`tree-sitter.ts`) for a tree nested too deeply.
 */
export async function factsFromSource(path: string, source: string, references: boolean): Promise<FileFacts | undefined> {
  const lang = languageFor(path);
  if (lang === undefined) return undefined;
  const { extractFacts } = await import("./tree-sitter.js");
  return withImportLines(await extractFacts(lang, source, { references }), source);
}

/** `facts` with each import's statement lines (`ImportRef.lines`) taken from `source`. */
function withImportLines(facts: FileFacts, source: string): FileFacts {
  if (facts.imports.length > 0) {
    const lines = source.split("\n");
    for (const ref of facts.imports) ref.lines = lines.slice(ref.start_line - 1, ref.end_line);
  }
  return facts;
}

/**
 * Facts of one file's text that are whole only for `names` and the names `focus.covers`
 * (`tree-sitter.ts` `extractFocusedFacts`: the imports whole, the definitions and uses written with
 * one of the names), with import lines as {@link factsFromSource} gives them; `undefined` when the
 * file must be parsed whole (no language, no focus rules, ranges not sure, an error in their parse).
 */
export async function focusedFactsFromSource(path: string, source: string, names: readonly string[]): Promise<{ facts: FileFacts; focus: TextFocus } | undefined> {
  const lang = languageFor(path);
  if (lang?.references?.focus === undefined) return undefined;
  const { extractFocusedFacts } = await import("./tree-sitter.js");
  const got = await extractFocusedFacts(lang, source, names);
  if (got !== undefined) withImportLines(got.facts, source);
  return got;
}

/**
 * The worker-thread task of the parse pool: {@link ParseInput} → facts (see {@link factsFromSource}).
 * Loaded by name (`exportName` in `facts.ts`), so no import names it.
 * @throws Error when no language handles the path, and the errors of {@link factsFromSource}.
 * @public
 */
export async function parseFactsTask(input: ParseInput): Promise<FileFacts> {
  const facts = await factsFromSource(input.path, input.source, input.references);
  if (facts === undefined) throw new Error(`no parser for ${input.path}`);
  return facts;
}
