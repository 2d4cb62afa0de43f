import { describe, expect, it } from "vitest";
import { nemotronToolcall } from "../../../src/toolshim/dialects/nemotron-toolcall.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("nemotron_toolcall", () => {
  itParsesCorpusCases(nemotronToolcall, "nemotron_toolcall");

  it("refuses a cut array", () => {
    const r = run(nemotronToolcall, 'Text<TOOLCALL>[{"name": "f", "arguments": {"a"');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Text");
  });
});
