import { describe, expect, it } from "vitest";
import { FencePairing, findFences } from "../../../src/toolshim/dialects/fence.js";

describe("findFences", () => {
  it("closes a fence at the first run of as many backticks, inside a line too, and reads openers after it", () => {
    // The second line's ``` closes the ```tool fence; the third line opens a fence that runs to the end.
    const text = '```tool\n```m\n```\n{"name": "f"}';
    expect(findFences(text)).toEqual([
      { start: 0, end: 11, lang: "tool", bodyStart: 8, bodyEnd: 8, closed: true },
      { start: 13, end: 30, lang: "", bodyStart: 17, bodyEnd: 30, closed: false },
    ]);
    // A longer run closes too, and the fence ends after all of it.
    expect(findFences('```json\n{"a": 1}`````\nx')).toEqual([{ start: 0, end: 21, lang: "json", bodyStart: 8, bodyEnd: 16, closed: true }]);
    // An opener needs its line to itself: an info string of two words, or text before the run, opens nothing.
    expect(findFences("``` a b\nx\n```")).toEqual([{ start: 10, end: 13, lang: "", bodyStart: 13, bodyEnd: 13, closed: false }]);
    expect(findFences("  ```py\r\nx\r\n```\r\n")).toEqual([{ start: 0, end: 15, lang: "py", bodyStart: 9, bodyEnd: 12, closed: true }]);
  });
});

describe("FencePairing", () => {
  const texts = [
    '```tool\n```m\n```\n{"name": "f"}',
    "```\n```a\n```\n```s\n[TOOL_CALLS]a",
    "text\n````ts\n```\n````\n  ```json\r\n{}``` x\n```",
    "~~~\n```x\n``",
  ];
  it("pairs a text read piece by piece as findFences pairs it whole, at every split", () => {
    for (const text of texts) {
      for (let k = 0; k <= text.length; k++) {
        const p = new FencePairing();
        p.note(text.slice(0, k), 0);
        p.note(text.slice(k), k);
        expect(p.finish(), `${JSON.stringify(text)} split at ${k}`).toEqual(findFences(text));
      }
    }
  });

  it("tells an opener from a line that may still become one and from a closing run", () => {
    const p = new FencePairing();
    p.note("```json\n{}\n``", 0);
    const opened = p.openedAt(0);
    expect(opened).toMatchObject({ lang: "json", bodyStart: 8, closed: false });
    // The run `` may still grow to ```.
    p.note("`", 13);
    expect(p.openedAt(0)).toMatchObject({ closed: true, bodyEnd: 11, final: false });
    p.note("\n  ``", 14);
    expect(p.openedAt(0)).toMatchObject({ closed: true, end: 14, final: true });
    // The line that began after the closing line may still open a fence.
    expect(p.openedAt(17)).toBe("pending");
    p.note("`x\n", 19);
    expect(p.openedAt(17)).toMatchObject({ start: 15, lang: "x", bodyStart: 22 });
    // A closing run opens nothing.
    expect(p.openedAt(11)).toBeUndefined();
  });
});
