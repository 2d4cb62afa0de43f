import { describe, expect, it } from "vitest";
import { lfm2ToolCallTokens } from "../../../src/toolshim/dialects/lfm2-tool-call-tokens.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("lfm2_tool_call_tokens", () => {
  itParsesCorpusCases(lfm2ToolCallTokens, "lfm2_tool_call_tokens");

  it("reads the JSON variant and Python literals", () => {
    const json = run(lfm2ToolCallTokens, '<|tool_call_start|>[{"name": "f", "arguments": {"a": 1}}]<|tool_call_end|>');
    expect(json.calls).toEqual([{ name: "f", arguments: { a: 1 } }]);
    const py = run(lfm2ToolCallTokens, "<|tool_call_start|>[f(flag=True, none=None, n=-2.5)]<|tool_call_end|>");
    expect(py.calls).toEqual([{ name: "f", arguments: { flag: true, none: null, n: -2.5 } }]);
  });

  it("reads back-to-back blocks and refuses a cut one", () => {
    const r = run(lfm2ToolCallTokens, "<|tool_call_start|>[a()]<|tool_call_end|><|tool_call_start|>[b(x='1')]<|tool_call_end|>tail");
    expect(r.calls.map((c) => c.name)).toEqual(["a", "b"]);
    expect(r.content).toBe("tail");
    const cut = run(lfm2ToolCallTokens, "x <|tool_call_start|>[a(q='");
    expect(cut.calls).toEqual([]);
    expect(cut.content).toBe("x");
  });
});
