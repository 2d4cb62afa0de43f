import { describe, expect, it } from "vitest";
import { apertusToolsPrefix } from "../../../src/toolshim/dialects/apertus-tools-prefix.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("apertus_tools_prefix", () => {
  itParsesCorpusCases(apertusToolsPrefix, "apertus_tools_prefix");

  it("reads several name-as-key calls", () => {
    const r = run(apertusToolsPrefix, '<|tools_prefix|>[{"a": {"x": 1}}, {"b": {}}]<|tools_suffix|>');
    expect(r.calls).toEqual([
      { name: "a", arguments: { x: 1 } },
      { name: "b", arguments: {} },
    ]);
  });
});
