import { describe, expect, it } from "vitest";
import { llama3Json } from "../../../src/toolshim/dialects/llama3-json.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("llama3_json", () => {
  itParsesCorpusCases(llama3Json, "llama3_json");

  it("finds a call embedded mid-sentence and keeps the prose", () => {
    const r = run(llama3Json, 'Sure, calling {"name": "search_code", "parameters": {"query": "main"}} now.', ["search_code"]);
    expect(r.calls).toEqual([{ name: "search_code", arguments: { query: "main" } }]);
    expect(r.content).toBe("Sure, calling now.");
  });

  it("removes a trailing <|eom_id|> with the call", () => {
    const r = run(llama3Json, '{"name": "f", "parameters": {"a": 1}}<|eom_id|>', ["f"]);
    expect(r.content).toBe("");
  });

  it("does not claim unknown tools, name-only objects or a value inside an unbalanced wrapper", () => {
    expect(run(llama3Json, '{"name": "bash", "parameters": {"cmd": "ls"}}', ["search_code"]).match).toBeNull();
    expect(run(llama3Json, 'A user: {"name": "Alice", "parameters": "none"}', ["Alice"]).match).toBeNull();
    const unbalanced = '{"type": "function", "function": {"name": "get_current_traffic", "parameters": {"location": "Sydney"}}';
    expect(run(llama3Json, unbalanced, ["get_current_traffic"]).match).toBeNull();
  });

  it("accepts the flat OpenAI-ish `type: function` shape", () => {
    const r = run(llama3Json, '{"type": "function", "name": "f", "parameters": {"a": "b"}}', ["f"]);
    expect(r.calls).toEqual([{ name: "f", arguments: { a: "b" } }]);
  });

  it("does not take an echoed tool definition (description + JSON Schema parameters) for a call", () => {
    const def = '{"name": "search_code", "description": "Search", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}';
    expect(run(llama3Json, def, ["search_code"]).calls).toEqual([]);
  });
});
