/** Residue cleanup (`src/toolshim/residue.ts`): exact span removal, stray markers, whitespace. */
import { describe, expect, it } from "vitest";
import {
  CALL_DIRECTIVE_LINE,
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
  it("keeps paragraph breaks at the junction; text glued on both sides gets one space", () => {
    expect(removeSpans("Para one.\n\nCALL\n\nPara two.", [{ start: 11, end: 15 }])).toBe("Para one.\n\nPara two.");
    expect(removeSpans("I'll look.CALLThen I explain.", [{ start: 10, end: 14 }])).toBe("I'll look. Then I explain.");
    expect(removeSpans("hiCALL", [{ start: 2, end: 6 }])).toBe("hi");
  });
  it("merges overlapping spans and ignores empty ones", () => {
    expect(removeSpans("abcdefgh", [{ start: 1, end: 4 }, { start: 3, end: 6 }, { start: 7, end: 7 }])).toBe("a gh");
  });
});

describe("stray markers", () => {
  it("removes special tokens wherever they stand outside code", () => {
    expect(stripStrayMarkers("Done.<|im_end|>")).toBe("Done.");
    expect(stripStrayMarkers("Answer<｜end▁of▁sentence｜>")).toBe("Answer");
    expect(stripStrayMarkers("a<|eot_id|>b")).toBe("a b");
  });
  it("removes orphan closers where markup stands: alone on a line, at the end, next to removed markup", () => {
    expect(stripStrayMarkers("I'll check.\n</tool_call>\nMore.")).toBe("I'll check.\nMore.");
    expect(stripStrayMarkers("Done. [/TOOL_CALLS]")).toBe("Done. ");
    expect(cleanContent("Hi CALL</tool_call> there", [{ start: 3, end: 7 }])).toBe("Hi there");
  });
  it("removes a run of wrapper openers around prose where markup stands, and keeps one named in a sentence", () => {
    expect(stripStrayMarkers("<tool_call><tool_call>\nNow I'll create the file.\n</tool_call>")).toBe("\nNow I'll create the file.\n");
    expect(stripStrayMarkers("Wrap calls in <tool_call> tags.")).toBe("Wrap calls in <tool_call> tags.");
  });

  it("keeps special tokens named between spaces inside a line (a table of formats)", () => {
    const table = "| Kimi | <|tool_calls_section_begin|> |\n| Qwen | <|im_end|> |";
    expect(stripStrayMarkers(table)).toBe(table);
  });
  it("keeps closers that prose names (x-hermes-prose-mentions-tags)", () => {
    const text = "Calls go between <tool_call> and </tool_call> tags, one per block.";
    expect(stripStrayMarkers(text)).toBe(text);
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
    expect(removeSpans(text, grown)).toBe("Intro\nOutro");
  });
  it("leaves a fence that still holds other text", () => {
    const text = "```\nconst a = 1;\nCALL\n```";
    const call = text.indexOf("CALL");
    expect(growOverWrappers(text, [{ start: call, end: call + 4 }])).toEqual([{ start: call, end: call + 4 }]);
  });
});

describe("CALL_DIRECTIVE_LINE", () => {
  it("finds a directive after a long run of blanks, and none where the run ends in text, in one pass", () => {
    // Tried from every blank of the run, the header's leading blanks were read again each time:
    // 80,000 blanks took 3.3 s, a million does not finish in the test's time.
    const blanks = " \t".repeat(500_000);
    expect(CALL_DIRECTIVE_LINE.exec(`${blanks}x`)).toBeNull();
    const text = `Answer${blanks}-> tool/function_call\n`;
    expect(CALL_DIRECTIVE_LINE.exec(text)?.[1]).toBe(`${blanks}-> tool/function_call\n`);
    expect(CALL_DIRECTIVE_LINE.exec("Answer -> tool/function_call\n  ")?.[1]).toBe(" -> tool/function_call\n  ");
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
