/**
 * Formats and drift added for issue 12 (`test/fixtures/toolcalls-new.jsonl`): MiniCPM XML,
 * MiniMax-M3, LM Studio `[TOOL_REQUEST]`, MiniMax-M1 `<tool_calls>` lines, GigaChat
 * `function call`, LongCat, Granite's unclosed list and the Gemma 4 variants. Every case's raw text
 * is taken from the public source its `source` names (a parser test of vLLM, LM Studio's docs, a
 * user's issue); `expected` and `content_after` are this shim's rules where they differ from that
 * source (`notes` says so).
 *
 * Session 25 added real outputs quoted in public issues and pull requests (vLLM, Ollama, LM
 * Studio, Rapid-MLX, llama.cpp …: bare `<function=…>` without its opener, Harmony with stripped
 * special tokens, pythonic calls to hyphenated tool names, GLM parallel and zero-argument calls,
 * Qwen2.5-Coder bare JSON …), each with the URL it was taken from.
 *
 * Same comparison as the vendored corpus (`corpus.test.ts`); where a case has `rejected`, the
 * refused calls must be exactly those tools (`[]`: nothing refused). A case recovered by a stage
 * other than its family's dialect names that stage in `recovered_by` (bare JSON has no dialect:
 * the inline-JSON stage reads it).
 */
import { describe, expect, it } from "vitest";
import { dialectFor } from "../../src/toolshim/dialects/index.js";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import { collapse, readCases, toolsOf, type CorpusCase } from "./corpus-cases.js";

interface NewCase extends CorpusCase {
  rejected?: string[];
  /** The stage that recovers the calls when it is not `dialect:<family>`. */
  recovered_by?: string;
}

/** Corpus families that no dialect parses, with the stage that reads them. */
const STAGE_OF_FAMILY: Readonly<Record<string, string>> = {
  bare_json: "inline_json",
  // PLaMo 3's `<|plamo:begin_tool_request:plamo|>` tokens around a name tag and a JSON arguments tag.
  plamo3_tool_requests: "structural",
};

/** The `recovered_by` a case with calls must report. */
const stageOf = (c: NewCase): string => c.recovered_by ?? STAGE_OF_FAMILY[c.family] ?? `dialect:${c.family}`;

const cases = readCases<NewCase>("toolcalls-new.jsonl");

describe("new formats (issue 12)", () => {
  it("has unique ids, a public source URL and a registered dialect for every case", () => {
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) {
      expect(String(c.source), c.id).toMatch(/^https:\/\//);
      if (STAGE_OF_FAMILY[c.family] === undefined) expect(dialectFor(c.family), c.family).toBeDefined();
    }
  });

  for (const c of cases) {
    it(`${c.id} (${c.family})`, () => {
      const r = recoverDeterministic({ content: c.raw }, toolsOf(c));
      expect(r.tool_calls.map((t) => ({ name: t.name, arguments: t.arguments }))).toEqual(c.expected);
      expect(collapse(r.content)).toBe(collapse(c.content_after));
      if (c.expected.length === 0) expect(r.recovered_by).toBe("none");
      else expect(r.recovered_by).toBe(stageOf(c));
      if (c.rejected !== undefined) expect(r.rejected.map((x) => x.name)).toEqual(c.rejected);
    });
  }
});
