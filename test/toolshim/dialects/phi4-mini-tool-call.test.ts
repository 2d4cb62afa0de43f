import { describe, expect, it } from "vitest";
import { graniteToolCall } from "../../../src/toolshim/dialects/granite-tool-call.js";
import { phi4MiniToolCall } from "../../../src/toolshim/dialects/phi4-mini-tool-call.js";
import { parseWithDialects } from "../../../src/toolshim/dialects/index.js";
import { readCases, toolsOf } from "../corpus-cases.js";
import { run } from "./corpus-helper.js";

describe("phi4_mini_tool_call", () => {
  it("reads the list between the tokens and removes both tokens", () => {
    const text = 'Sure.\n<|tool_call|>[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]<|/tool_call|>\nDone.';
    const r = run(phi4MiniToolCall, text);
    expect(r.calls).toEqual([
      { name: "a", arguments: { x: 1 } },
      { name: "b", arguments: {} },
    ]);
    expect(r.content).toBe("Sure. Done.");
  });

  it("reads objects joined by commas without list brackets, and the </|tool_call|> spelling", () => {
    const r = run(phi4MiniToolCall, '<|tool_call|>{"name": "a", "arguments": {"x": 1}}, {"name": "a", "arguments": {"x": 2}}</|tool_call|>');
    expect(r.calls.map((c) => c.arguments)).toEqual([{ x: 1 }, { x: 2 }]);
    expect(r.content).toBe("");
  });

  it("reads no call from a payload cut by the end of the text (complete ones before it stay, the envelope rule)", () => {
    const r = run(phi4MiniToolCall, 'Checking.\n<|tool_call|>{"name": "a", "arguments": {"x": 1}}, {"name": "b", "argu');
    expect(r.calls).toEqual([{ name: "a", arguments: { x: 1 } }]);
    expect(r.content).toBe("Checking.");
    const cut = run(phi4MiniToolCall, 'Checking.\n<|tool_call|>{"name": "a", "argu');
    expect(cut.calls).toEqual([]);
    expect(cut.content).toBe("Checking.");
  });

  it("leaves Granite's unclosed <|tool_call|>[ lists to the Granite dialect", () => {
    const text = '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}';
    expect(phi4MiniToolCall.detect(text)).toBe(false);
    expect(run(graniteToolCall, text).calls).toEqual([{ name: "get_weather", arguments: { city: "Paris" } }]);
  });

  it("reads the real Phi-4-mini outputs of the corpus through the whole registry (an unclosed list is Granite's shape too)", () => {
    const cases = readCases("toolcalls-new.jsonl").filter((c) => c.family === "phi4_mini_tool_call");
    expect(cases.map((c) => c.id)).toEqual(["phi4mini-bfcl-tool-call-tokens", "phi4mini-bfcl-missing-closer", "phi4mini-bfcl-parallel-not-a-list"]);
    for (const c of cases) {
      const hits = parseWithDialects(c.raw, toolsOf(c));
      expect(hits, c.id).toHaveLength(1);
      expect(hits[0]!.family, c.id).toBe(c.id === "phi4mini-bfcl-missing-closer" ? "granite_tool_call" : "phi4_mini_tool_call");
      expect(hits[0]!.match.calls.map((x) => ({ name: x.name, arguments: x.arguments })), c.id).toEqual(c.expected);
    }
  });
});
