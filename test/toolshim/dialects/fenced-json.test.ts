import { describe, expect, it } from "vitest";
import { fencedJson } from "../../../src/toolshim/dialects/fenced-json.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("fenced_json", () => {
  itParsesCorpusCases(fencedJson, "fenced_json");

  it("reads a ```xml fence around <response> and an indented fence", () => {
    const xml = run(fencedJson, '```xml\n<response>\n  {"name": "f", "arguments": {"a": 1}}\n</response>\n```', ["f"]);
    expect(xml.calls).toEqual([{ name: "f", arguments: { a: 1 } }]);
    expect(xml.content).toBe("");
    const indented = run(fencedJson, 'Sure:\n  ```json\n  {"name": "f", "parameters": {"q": "x"}}\n  ```\nDone', ["f"]);
    expect(indented.calls).toEqual([{ name: "f", arguments: { q: "x" } }]);
    expect(indented.content).toBe("Sure: Done");
  });

  it("leaves data and unknown tools in fences alone", () => {
    expect(run(fencedJson, '```json\n{"name": "Alice", "age": 3}\n```', ["f"]).match).toBeNull();
    expect(run(fencedJson, '```json\n{"name": "bash", "arguments": {"cmd": "ls"}}\n```', ["f"]).match).toBeNull();
  });

  it("accepts an unterminated fence with complete JSON", () => {
    const r = run(fencedJson, 'Calling:\n```json\n{"name": "f", "arguments": {}}', ["f"]);
    expect(r.calls).toEqual([{ name: "f", arguments: {} }]);
    expect(r.content).toBe("Calling:");
  });
});
