/** Loader for the vendored tool-call corpus (`test/fixtures/toolcalls.jsonl`; README in `/work/shared/corpus`). */
import { readFileSync } from "node:fs";
import type { OfferedTool } from "../../src/toolshim/types.js";

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

/** Every case, in file order. */
export function loadCorpus(): CorpusCase[] {
  const url = new URL("../fixtures/toolcalls.jsonl", import.meta.url);
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as CorpusCase);
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
