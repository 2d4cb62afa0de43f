import { describe, expect, it } from "vitest";
import { jambaToolCalls } from "../../../src/toolshim/dialects/jamba-tool-calls.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("jamba_tool_calls", () => {
  itParsesCorpusCases(jambaToolCalls, "jamba_tool_calls");

  it("reads parallel calls", () => {
    const r = run(jambaToolCalls, ' <tool_calls>[\n {"name": "a", "arguments": {"x": 1}},\n {"name": "b", "arguments": {}}\n]</tool_calls>');
    expect(r.calls.map((c) => c.name)).toEqual(["a", "b"]);
    expect(r.content).toBe("");
  });

  it("defers texts with Hunyuan answer tags", () => {
    expect(jambaToolCalls.detect('<answer><tool_calls>[{"name": "a", "arguments": {}}]</tool_calls></answer>')).toBe(false);
  });
});
