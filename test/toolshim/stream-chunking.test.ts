/**
 * Streamed parity under arbitrary chunkings, for every case of the three tool-call corpora
 * (`toolcalls.jsonl`, `toolcalls-extra.jsonl`, `toolcalls-new.jsonl`): fast-check draws where the
 * raw text is cut into deltas — anywhere, inside marker-like tokens (`<|…|>`, `<tool_call>`,
 * `[TOOL_CALLS]`, fences …), and between the two halves of a surrogate pair (a delta cut inside
 * an emoji, which a server's per-token detokenizer can send) — and every chunking must show the
 * non-streamed visible text and end with the non-streamed recovery. One more chunking is one UTF-16
 * code unit per delta.
 *
 * `stream-filter.test.ts` covers split points and code-point-by-code-point runs; this file adds
 * random multi-cut chunkings, cuts inside surrogate pairs and markers, and the two other corpus
 * files. Pieces the filter returns must never end with the first half of a surrogate pair or
 * start with the second half (`StreamFilter.push`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recoverDeterministic, StreamFilter } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";
import { cutAt, surrogateCuts } from "../helpers/chunk-cuts.js";
import { thorough } from "../helpers/thoroughness.js";
import { collapse, readCases, toolsOf, type CorpusCase } from "./corpus-cases.js";

const FILES = ["toolcalls.jsonl", "toolcalls-extra.jsonl", "toolcalls-new.jsonl"] as const;

/** Marker-like tokens a cut may fall inside: special tokens, tags, bracket tokens, fences. */
const MARKER = /<[|｜][^<>|｜\n]{0,60}[|｜]>|<\/?[A-Za-z_][\w.:=-]{0,40}[^<>\n]{0,60}>|\[\/?[A-Z][A-Z0-9_]{1,40}\]|`{3,}|\]<\]minimax\[>\[/g;

/** Cut positions strictly inside a marker-like token of `raw`. */
function markerCuts(raw: string): number[] {
  const cuts = new Set<number>();
  for (const m of raw.matchAll(MARKER)) for (let k = 1; k < m[0].length; k++) cuts.add(m.index + k);
  return [...cuts].sort((a, b) => a - b);
}

/** A chunking of `raw`: random cuts anywhere, plus random subsets of the marker and surrogate cuts. */
function chunkings(raw: string): fc.Arbitrary<string[]> {
  const anywhere = raw.length < 2 ? fc.constant<number[]>([]) : fc.array(fc.integer({ min: 1, max: raw.length - 1 }), { maxLength: 40 });
  return fc
    .tuple(anywhere, fc.subarray(markerCuts(raw)), fc.subarray(surrogateCuts(raw)))
    .map(([a, b, c]) => cutAt(raw, [...a, ...b, ...c]));
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Streams `chunks` through a filter; the pieces it returned, joined, and the filter. */
function stream(chunks: readonly string[], tools: readonly OfferedTool[], prefilled: boolean): { pieces: string[]; filter: StreamFilter } {
  const filter = new StreamFilter(tools, { prefilledReasoning: prefilled });
  const pieces = chunks.map((c) => filter.push(c));
  pieces.push(filter.end());
  return { pieces, filter };
}

/** Asserts the streamed run of `chunks` against the non-streamed recovery of the case. */
function expectParity(c: CorpusCase, chunks: readonly string[], label: string): void {
  const tools = toolsOf(c);
  const whole = recoverDeterministic({ content: c.raw }, tools);
  const { pieces, filter } = stream(chunks, tools, whole.prefilledReasoning === true);
  expect(collapse(pieces.join("")), `${label}: visible text`).toBe(collapse(whole.content));
  expect(filter.text, label).toBe(c.raw);
  expect(filter.result, `${label}: recovery`).toEqual(whole);
  for (const p of pieces) {
    if (p === "") continue;
    expect(isHigh(p.charCodeAt(p.length - 1)), `${label}: a piece ends inside a surrogate pair`).toBe(false);
    expect(isLow(p.charCodeAt(0)), `${label}: a piece starts inside a surrogate pair`).toBe(false);
  }
}

for (const file of FILES) {
  const cases = readCases(file);
  describe(`stream filter parity under fast-check chunkings: ${file} (${cases.length} cases)`, () => {
    it("holds the cases", () => {
      expect(cases.length).toBeGreaterThan(40);
    });
    for (const c of cases) {
      it(c.id, () => {
        // One UTF-16 code unit per delta: every marker and every surrogate pair is cut.
        expectParity(c, c.raw.split(""), "one code unit per delta");
        fc.assert(
          fc.property(chunkings(c.raw), (chunks) => {
            expectParity(c, chunks, `chunks ${JSON.stringify(chunks.slice(0, 12))}`);
          }),
          // A fixed seed per case: a failure replays the same chunking.
          { numRuns: thorough(4, 40), seed: [...c.id].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 7) },
        );
      });
    }
  });
}

describe("pieces never split a surrogate pair", () => {
  it("holds the first half back until its second half arrives, at the end too", () => {
    const filter = new StreamFilter([{ name: "search_code" }]);
    const text = "Done 😀 and 𝄞 too. ";
    const pieces = text.split("").map((ch) => filter.push(ch));
    pieces.push(filter.end());
    expect(pieces.join("")).toBe("Done 😀 and 𝄞 too.");
    expect(pieces).toContain("😀");
    expect(pieces.some((p) => p.length > 0 && isHigh(p.charCodeAt(p.length - 1)))).toBe(false);
  });

  it("passes on a lone half that the text ends with (nothing is lost)", () => {
    const filter = new StreamFilter([]);
    expect(filter.push("a\ud83d")).toBe("a");
    expect(filter.end()).toBe("\ud83d");
  });
});
