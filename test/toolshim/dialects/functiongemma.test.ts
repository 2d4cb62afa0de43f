import { describe, expect, it } from "vitest";
import { functiongemma } from "../../../src/toolshim/dialects/functiongemma.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("functiongemma", () => {
  itParsesCorpusCases(functiongemma, "functiongemma");

  it("reads parallel calls with unquoted numbers", () => {
    const r = run(
      functiongemma,
      "<start_function_call>call:a{x:<escape>1<escape>,n:3}<end_function_call><start_function_call>call:b{q:<escape>日本<escape>}<end_function_call>",
    );
    expect(r.calls).toEqual([
      { name: "a", arguments: { x: "1", n: 3 } },
      { name: "b", arguments: { q: "日本" } },
    ]);
    expect(r.content).toBe("");
  });
});
