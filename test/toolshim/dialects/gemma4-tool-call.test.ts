import { describe, expect, it } from "vitest";
import { gemma4ToolCall } from "../../../src/toolshim/dialects/gemma4-tool-call.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("gemma4_tool_call", () => {
  itParsesCorpusCases(gemma4ToolCall, "gemma4_tool_call");

  it("reads two calls with numbers, booleans, nested values", () => {
    const r = run(
      gemma4ToolCall,
      '<|tool_call>call:a{n:42,ok:true,tags:[<|"|>x<|"|>,<|"|>y<|"|>],opt:{depth:2}}<tool_call|><|tool_call>call:b{}<tool_call|>',
    );
    expect(r.calls).toEqual([
      { name: "a", arguments: { n: 42, ok: true, tags: ["x", "y"], opt: { depth: 2 } } },
      { name: "b", arguments: {} },
    ]);
    expect(r.content).toBe("");
  });

  it("refuses a body cut by the end of the text", () => {
    const r = run(gemma4ToolCall, 'Hi <|tool_call>call:search{query:<|"|>unfinished');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Hi");
  });

  it("reads the paren variant", () => {
    expect(run(gemma4ToolCall, '<|tool_call>call:search(query: "x")<tool_call|>').calls).toEqual([{ name: "search", arguments: { query: "x" } }]);
  });
});
