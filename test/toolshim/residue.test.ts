/** Residue cleanup (`src/toolshim/residue.ts`): exact span removal, stray markers, whitespace. */
import { describe, expect, it } from "vitest";
import {
  cleanContent,
  findCodeRegions,
  growOverWrappers,
  removeSpans,
  stripStrayMarkers,
  tidy,
} from "../../src/toolshim/residue.js";

describe("removeSpans", () => {
  it("removes exactly the spans and keeps the prose on both sides", () => {
    const text = "Before the call. CALL After it.";
    expect(removeSpans(text, [{ start: 17, end: 21 }])).toBe("Before the call. After it.");
  });
  it("keeps paragraph breaks at the junction and glued text glued", () => {
    expect(removeSpans("Para one.\n\nCALL\n\nPara two.", [{ start: 11, end: 15 }])).toBe("Para one.\n\nPara two.");
    expect(removeSpans("hiCALLthere", [{ start: 2, end: 6 }])).toBe("hithere");
  });
  it("merges overlapping spans and ignores empty ones", () => {
    expect(removeSpans("abcdefgh", [{ start: 1, end: 4 }, { start: 3, end: 6 }, { start: 7, end: 7 }])).toBe("agh");
  });
});

describe("stray markers", () => {
  it("removes special tokens and orphan call closers outside code", () => {
    expect(stripStrayMarkers("Done.<|im_end|>")).toBe("Done.");
    expect(stripStrayMarkers("Answer<｜end▁of▁sentence｜>")).toBe("Answer");
    expect(stripStrayMarkers("I'll check.\n</tool_call>")).toBe("I'll check.\n");
    expect(stripStrayMarkers("x[/TOOL_CALLS] y <end_of_turn>")).toBe("x y ");
  });
  it("keeps tokens quoted in inline code and code blocks", () => {
    const text = "Qwen ends turns with `<|im_end|>`:\n```\n<|im_start|>assistant\n</tool_call>\n```";
    expect(stripStrayMarkers(text)).toBe(text);
  });
  it("never wipes text because it mentions \"name\" and \"arguments\" (goose sanitiser false positive)", () => {
    const text = 'A call has a "name" and "arguments", e.g. {"name": "x", "arguments": {}}.';
    expect(cleanContent(text, [])).toBe(text);
  });
});

describe("growOverWrappers", () => {
  it("grows a span over a tag pair and a fence that wrap nothing else", () => {
    const text = "Intro\n```json\n<function_call> CALL </function_call>\n```\nOutro";
    const call = text.indexOf("CALL");
    const grown = growOverWrappers(text, [{ start: call, end: call + 4 }]);
    expect(removeSpans(text, grown)).toBe("Intro\n\nOutro");
  });
  it("leaves a fence that still holds other text", () => {
    const text = "```\nconst a = 1;\nCALL\n```";
    const call = text.indexOf("CALL");
    expect(growOverWrappers(text, [{ start: call, end: call + 4 }])).toEqual([{ start: call, end: call + 4 }]);
  });
});

describe("findCodeRegions", () => {
  it("finds fenced blocks with their info string and inline code spans", () => {
    const text = "See `x` and\n```json\n{}\n```\nend";
    expect(findCodeRegions(text)).toEqual([
      { start: 4, end: 7, fenced: false, info: "", bodyStart: 5, bodyEnd: 6 },
      { start: 12, end: 26, fenced: true, info: "json", bodyStart: 20, bodyEnd: 22 },
    ]);
  });
});

describe("tidy", () => {
  it("trims, drops trailing spaces and keeps at most one blank line", () => {
    expect(tidy("  a  \n\n\n\nb \n")).toBe("a\n\nb");
  });
});
