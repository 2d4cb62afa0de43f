/**
 * `TextFocus.covers` of `lang/c-focus.ts` reads the text once per question: the resolver asks it of
 * every focused file for each name a lookup may need, the query's own name thousands of times on a
 * C/C++ tree, and each answer is a scan of the whole text (`word-hits.ts`).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

/** The names `wordHits` was asked to find, one entry per call. */
const scans: string[][] = [];

vi.mock("../../src/evidence/analysis/lang/word-hits.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/evidence/analysis/lang/word-hits.js")>();
  return {
    ...real,
    wordHits: (text: string, names: readonly string[]) => {
      scans.push([...names]);
      return real.wordHits(text, names);
    },
  };
});

const { cFocus } = await import("../../src/evidence/analysis/lang/c-focus.js");

beforeEach(() => {
  scans.length = 0;
});

describe("cFocus covers: one scan of the text per name and kind of question", () => {
  const text = ["namespace shop {", "struct Box { int n; };", "int Use() { return alloc(Box{}.n); }", "int Helper() { return 1; }", "}", ""].join("\n");

  it("answers a name asked again from the first answer, for both kinds of question", () => {
    const focus = cFocus(text, ["alloc"]);
    scans.length = 0;
    const answers = [focus?.covers("alloc"), focus?.covers("Helper"), focus?.covers("alloc"), focus?.covers("Helper"), focus?.covers("Box", true), focus?.covers("Box", true), focus?.covers("Box")];
    expect(answers).toEqual([true, false, true, false, false, false, false]);
    expect(scans).toEqual([["alloc"], ["Helper"], ["Box"], ["Box"]]);
  });

  it("does so for a text that does not write the names (no ranges)", () => {
    const focus = cFocus(text, ["absent"]);
    expect(focus?.ranges).toEqual([]);
    scans.length = 0;
    expect([focus?.covers("Helper"), focus?.covers("Helper"), focus?.covers("other"), focus?.covers("other")]).toEqual([false, false, true, true]);
    expect(scans).toEqual([["Helper"], ["other"]]);
  });
});
