/**
 * The tool-call corpora as test data: the vendored corpus `test/fixtures/toolcalls.jsonl` (copied
 * as is from a corpus whose cases each cite their public source in `source`) and
 * codecite's own `toolcalls-extra.jsonl`, one JSON case per line.
 */
import { readFileSync } from "node:fs";
import type { OfferedTool } from "../../src/toolshim/types.js";

/** One corpus line (fields as the corpus README defines them). */
export interface CorpusCase {
  id: string;
  family: string;
  raw: string;
  tools: string[];
  tool_schemas?: Record<string, Record<string, unknown>>;
  expected: { name: string; arguments: Record<string, unknown> }[];
  content_after: string;
  notes?: string;
  source?: unknown;
}

/**
 * Every case of the JSON-lines file `test/fixtures/<file>`, in file order; blank lines are skipped.
 * @throws when the file is missing or a line is not JSON.
 */
export function readCases<T extends CorpusCase = CorpusCase>(file: string): T[] {
  const url = new URL(`../fixtures/${file}`, import.meta.url);
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as T);
}

let vendored: CorpusCase[] | undefined;

/** Every case of the vendored corpus, in file order (read once per test file; do not mutate). */
export function loadCorpus(): CorpusCase[] {
  vendored ??= readCases("toolcalls.jsonl");
  return vendored;
}

/** The vendored cases of one dialect `family`. */
export function casesOf(family: string): CorpusCase[] {
  return loadCorpus().filter((c) => c.family === family);
}

/** The offered tools of a case, with their schema when the case gives one. */
export function toolsOf(c: CorpusCase): OfferedTool[] {
  return c.tools.map((name) => {
    const parameters = c.tool_schemas?.[name];
    return parameters ? { name, parameters } : { name };
  });
}

/** The corpus comparison of visible text: trimmed, whitespace runs collapsed to one space. */
export const collapse = (s: string): string => s.trim().replace(/\s+/g, " ");
