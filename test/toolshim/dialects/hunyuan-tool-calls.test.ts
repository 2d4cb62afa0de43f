import { describe, expect, it } from "vitest";
import { hunyuanToolCalls } from "../../../src/toolshim/dialects/hunyuan-tool-calls.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("hunyuan_tool_calls", () => {
  itParsesCorpusCases(hunyuanToolCalls, "hunyuan_tool_calls");

  it("reads nested arguments and removes the answer tags", () => {
    const r = run(
      hunyuanToolCalls,
      '<answer>\nI will call it. <tool_calls>[{"name": "complex_tool", "arguments": {"level1": {"level2": {"level3": {"value": 123}}}}}]</tool_calls>\n</answer>',
    );
    expect(r.calls).toEqual([{ name: "complex_tool", arguments: { level1: { level2: { level3: { value: 123 } } } } }]);
    expect(r.content).toBe("I will call it.");
  });

  it("keeps answer tags when there is no call block", () => {
    expect(run(hunyuanToolCalls, "<answer>Hi</answer>").match).toBeNull();
  });
});
