import { describe, expect, it } from "vitest";
import { deepseekV3 } from "../../../src/toolshim/dialects/deepseek-v3.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

const B = "<｜tool▁calls▁begin｜>";
const E = "<｜tool▁calls▁end｜>";
const CB = "<｜tool▁call▁begin｜>";
const CE = "<｜tool▁call▁end｜>";
const SEP = "<｜tool▁sep｜>";

describe("deepseek_v3", () => {
  itParsesCorpusCases(deepseekV3, "deepseek_v3", {
    "deepseek-r1-reasoning-mentions-token": {
      residue: "I need to remember the correct syntax. It starts with",
      why: "the whole text is forced-open reasoning; only the pipeline's reasoning split can know that",
    },
  });

  it("reads the R1-Distill `<｜tool▁calls｜>` opener and a trailing end-of-sentence token", () => {
    const text = `Checking.${"<｜tool▁calls｜>"}${CB}function${SEP}search_code\n\`\`\`json\n{"query": "x"}\n\`\`\`${CE}${E}<｜end▁of▁sentence｜>`;
    const r = run(deepseekV3, text);
    expect(r.calls).toEqual([{ name: "search_code", arguments: { query: "x" } }]);
    expect(r.content).toBe("Checking.");
  });

  it("tolerates a leaked `json` header line and a missing fence", () => {
    const r = run(deepseekV3, `${B}${CB}function${SEP}f\njson\n{"a": 1}${CE}${E}`);
    expect(r.calls).toEqual([{ name: "f", arguments: { a: 1 } }]);
  });

  it("yields no call for a body with a missing brace but removes the section", () => {
    const r = run(deepseekV3, `Text ${B}${CB}function${SEP}f\n\`\`\`json\n{"city": "Tokyo"\n\`\`\`${CE}${E} tail`);
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Text tail");
  });

  it("accepts a missing section end at the end of the text when the call is complete", () => {
    const r = run(deepseekV3, `${B}${CB}function${SEP}f\n\`\`\`json\n{"a": "b"}\n\`\`\`${CE}`);
    expect(r.calls).toEqual([{ name: "f", arguments: { a: "b" } }]);
    expect(r.content).toBe("");
  });

  it("leaves V3.1 bodies to deepseek_v31", () => {
    expect(run(deepseekV3, `${B}${CB}f${SEP}{"a": 1}${CE}${E}`).match).toBeNull();
  });
});
