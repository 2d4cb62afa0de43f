import { describe, expect, it } from "vitest";
import { toolCallAttrJson } from "../../../src/toolshim/dialects/tool-call-attr-json.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("tool_call_attr_json", () => {
  itParsesCorpusCases(toolCallAttrJson, "tool_call_attr_json");

  it("keeps the id, accepts single-quoted attributes and a missing closer", () => {
    const r = run(toolCallAttrJson, "Looking. <tool_call id='call_1' name='search_code'>\n{\"query\": \"a & b\"}");
    expect(r.calls).toEqual([{ name: "search_code", arguments: { query: "a & b" }, id: "call_1" }]);
    expect(r.content).toBe("Looking.");
  });

  it("ignores plain <tool_call> blocks", () => {
    expect(run(toolCallAttrJson, '<tool_call>{"name": "f", "arguments": {}}</tool_call>').match).toBeNull();
  });
});
