import { describe, expect, it } from "vitest";
import { hermesWrapperVariant } from "../../../src/toolshim/dialects/hermes-wrapper-variant.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("hermes_wrapper_variant", () => {
  itParsesCorpusCases(hermesWrapperVariant, "hermes_wrapper_variant");

  it("reads the attribute form and <tool>/<function_call> wrappers", () => {
    const r = run(
      hermesWrapperVariant,
      '<function name="special_function">{"arg1": 1}</function> then <tool>{"name": "python", "arguments": {"code": "x"}}</tool> and <function_call>{"name": "f", "arguments": {}}</function_call>',
    );
    expect(r.calls).toEqual([
      { name: "special_function", arguments: { arg1: 1 } },
      { name: "python", arguments: { code: "x" } },
      { name: "f", arguments: {} },
    ]);
    expect(r.content).toBe("then and");
  });

  it("leaves wrappers holding data alone", () => {
    expect(run(hermesWrapperVariant, '<json>{"a": 1}</json>').match).toBeNull();
    expect(run(hermesWrapperVariant, "<response>Hello</response>").match).toBeNull();
  });
});

describe("hermes_wrapper_variant truncation", () => {
  it("removes a cut call-shaped body but not cut data", () => {
    const call = run(hermesWrapperVariant, 'Ok. <response>{"name": "f", "arguments": {"a": ');
    expect(call.calls).toEqual([]);
    expect(call.content).toBe("Ok.");
    expect(run(hermesWrapperVariant, 'Data: <json>{"rows": [1, 2, ').match).toBeNull();
  });
});
