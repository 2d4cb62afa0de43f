import { describe, expect, it } from "vitest";
import { graniteToolCall } from "../../../src/toolshim/dialects/granite-tool-call.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("granite_tool_call", () => {
  itParsesCorpusCases(graniteToolCall, "granite_tool_call");

  it("keeps prose on both sides and reads escaped Windows paths", () => {
    const r = run(graniteToolCall, 'Let me check.<|tool_call|>[{"name": "f", "arguments": {"path": "C:\\\\Users\\\\file.txt"}}] Anything else?');
    expect(r.calls).toEqual([{ name: "f", arguments: { path: "C:\\Users\\file.txt" } }]);
    expect(r.content).toBe("Let me check. Anything else?");
  });

  it("reads the Granite 3.1 `<tool_call> [...]` spelling", () => {
    expect(run(graniteToolCall, '<tool_call> [{"name": "f", "arguments": {}}]').calls).toEqual([{ name: "f", arguments: {} }]);
  });
});
