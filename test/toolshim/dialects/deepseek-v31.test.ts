import { describe, expect, it } from "vitest";
import { deepseekV31 } from "../../../src/toolshim/dialects/deepseek-v31.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

const B = "<｜tool▁calls▁begin｜>";
const E = "<｜tool▁calls▁end｜>";
const CB = "<｜tool▁call▁begin｜>";
const CE = "<｜tool▁call▁end｜>";
const SEP = "<｜tool▁sep｜>";

describe("deepseek_v31", () => {
  itParsesCorpusCases(deepseekV31, "deepseek_v31");

  it("keeps the text before and after the section", () => {
    const r = run(deepseekV31, `some prefix text${B}${CB}bar${SEP}{"y":2}${CE}${E} some suffix text`);
    expect(r.calls).toEqual([{ name: "bar", arguments: { y: 2 } }]);
    expect(r.content).toBe("some prefix text some suffix text");
  });

  it("accepts ASCII bars", () => {
    const r = run(deepseekV31, `<|tool▁calls▁begin|><|tool▁call▁begin|>foo<|tool▁sep|>{"text": "a\\"b"}<|tool▁call▁end|><|tool▁calls▁end|>`);
    expect(r.calls).toEqual([{ name: "foo", arguments: { text: 'a"b' } }]);
  });

  it("yields no call for cut JSON", () => {
    const r = run(deepseekV31, `${B}${CB}foo${SEP}{"x":1${CE}${E}`);
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("");
  });

  it("leaves V3 bodies to deepseek_v3", () => {
    expect(run(deepseekV31, `${B}${CB}function${SEP}f\n\`\`\`json\n{"a": 1}\n\`\`\`${CE}${E}`).match).toBeNull();
  });
});
