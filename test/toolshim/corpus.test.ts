/**
 * The tool-call corpus (`test/fixtures/toolcalls.jsonl`, vendored from the shared corpus; each
 * case cites its public source in `source`): every case must give the same calls (name and
 * arguments deep-equal, in order) and the same visible content (trimmed, whitespace collapsed).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { recoverDeterministic } from "../../src/toolshim/index.js";
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
}

export function loadCorpus(): CorpusCase[] {
  const url = new URL("../fixtures/toolcalls.jsonl", import.meta.url);
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as CorpusCase);
}

export function toolsOf(c: CorpusCase): OfferedTool[] {
  return c.tools.map((name) => {
    const parameters = c.tool_schemas?.[name];
    return parameters ? { name, parameters } : { name };
  });
}

export const collapse = (s: string): string => s.trim().replace(/\s+/g, " ");

const cases = loadCorpus();

describe("tool-call corpus", () => {
  it("has the vendored cases", () => {
    expect(cases.length).toBe(88);
  });
  for (const c of cases) {
    it(`${c.id} (${c.family})`, () => {
      const r = recoverDeterministic({ content: c.raw }, toolsOf(c));
      expect(r.tool_calls.map((t) => ({ name: t.name, arguments: t.arguments }))).toEqual(c.expected);
      expect(collapse(r.content)).toBe(collapse(c.content_after));
    });
  }
});
