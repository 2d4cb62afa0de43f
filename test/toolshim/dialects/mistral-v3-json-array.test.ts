import { describe, expect, it } from "vitest";
import { mistralV3JsonArray } from "../../../src/toolshim/dialects/mistral-v3-json-array.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("mistral_v3_json_array", () => {
  itParsesCorpusCases(mistralV3JsonArray, "mistral_v3_json_array");

  it("keeps call ids and trailing prose", () => {
    const r = run(mistralV3JsonArray, '[TOOL_CALLS] [{"name": "f", "arguments": {"a": 1}, "id": "abcDEF123"}]\n\nDone, see above.');
    expect(r.calls).toEqual([{ name: "f", arguments: { a: 1 }, id: "abcDEF123" }]);
    expect(r.content).toBe("Done, see above.");
  });

  it("yields no call for a cut array and removes it from the marker on", () => {
    const r = run(mistralV3JsonArray, 'Ok [TOOL_CALLS] [{"name": "f", "arguments": {"a"');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Ok");
  });

  it("leaves the v11 form alone", () => {
    expect(run(mistralV3JsonArray, '[TOOL_CALLS]f[ARGS]{"a": 1}').match).toBeNull();
  });
});
