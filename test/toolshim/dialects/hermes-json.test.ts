import { describe, expect, it } from "vitest";
import { hermesJson } from "../../../src/toolshim/dialects/hermes-json.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("hermes_json", () => {
  itParsesCorpusCases(hermesJson, "hermes_json");

  it("reads two adjacent blocks and accepts a missing closer on the last complete one", () => {
    const text =
      '<tool_call>\n{"name": "search_code", "arguments": {"query": "a"}}\n</tool_call>\n<tool_call>\n{"name": "read_evidence", "arguments": {"path": "x.ts"}}';
    const r = run(hermesJson, text);
    expect(r.calls).toEqual([
      { name: "search_code", arguments: { query: "a" } },
      { name: "read_evidence", arguments: { path: "x.ts" } },
    ]);
    expect(r.content).toBe("");
  });

  it("keeps escaped quotes and braces inside strings", () => {
    const r = run(hermesJson, 'ok <tool_call>{"name": "search_code", "arguments": {"query": "He said \\"{x}\\" <tool_call>"}}</tool_call> done');
    expect(r.calls).toEqual([{ name: "search_code", arguments: { query: 'He said "{x}" <tool_call>' } }]);
    expect(r.content).toBe("ok done");
  });

  it("accepts `parameters`, `args` and stringified arguments", () => {
    const r = run(
      hermesJson,
      '<tool_call>{"name": "a", "parameters": {"x": 1}}</tool_call><tool_call>{"name": "b", "args": {"y": 2}}</tool_call><tool_call>{"name": "c", "arguments": "{\\"z\\": 3}"}</tool_call>',
    );
    expect(r.calls).toEqual([
      { name: "a", arguments: { x: 1 } },
      { name: "b", arguments: { y: 2 } },
      { name: "c", arguments: { z: 3 } },
    ]);
  });

  it("removes a cut block from the marker on and keeps the prose before it", () => {
    const r = run(hermesJson, 'Let me look.\n<tool_call>{"name": "search_code", "arguments": {"query": "fo');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Let me look.");
  });

  it("leaves non-JSON bodies (Qwen3-Coder XML, GLM) and prose mentions of the tag alone", () => {
    expect(run(hermesJson, "<tool_call>\n<function=x>\n</function>\n</tool_call>").match).toBeNull();
    expect(run(hermesJson, "Models wrap calls in <tool_call> tags.").match).toBeNull();
  });

  it("removes a block whose JSON does not parse, with no call", () => {
    const r = run(hermesJson, 'before <tool_call>{"name": oops}</tool_call> after');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("before after");
  });
});

describe("hermes_json inside-envelope fences", () => {
  it("tolerates a Markdown fence inside the tags", () => {
    const r = run(hermesJson, 'Ok.\n<tool_call>\n```json\n{"name": "f", "arguments": {"a": 1}}\n```\n</tool_call>\nDone.');
    expect(r.calls).toEqual([{ name: "f", arguments: { a: 1 } }]);
    expect(r.content).toBe("Ok. Done.");
  });
});
