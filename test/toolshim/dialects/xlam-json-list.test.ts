import { describe, expect, it } from "vitest";
import { xlamJsonList } from "../../../src/toolshim/dialects/xlam-json-list.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("xlam_json_list", () => {
  itParsesCorpusCases(xlamJsonList, "xlam_json_list");

  it("reads a bare list after reasoning text", () => {
    const r = run(xlamJsonList, 'Plan done.\n[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]', ["a", "b"]);
    expect(r.calls.map((c) => c.name)).toEqual(["a", "b"]);
    expect(r.content).toBe("Plan done.");
  });

  it("does not claim lists of data or of unknown tools", () => {
    expect(run(xlamJsonList, "[1, 2, 3]", ["a"]).match).toBeNull();
    expect(run(xlamJsonList, '[{"name": "Alice"}, {"name": "Bob"}]', ["Alice"]).match).toBeNull();
    expect(run(xlamJsonList, '[{"name": "bash", "arguments": {}}]', ["a"]).match).toBeNull();
  });
});
