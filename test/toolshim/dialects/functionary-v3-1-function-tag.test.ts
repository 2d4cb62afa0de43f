import { describe, expect, it } from "vitest";
import { functionaryV31FunctionTag } from "../../../src/toolshim/dialects/functionary-v3-1-function-tag.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("functionary_v3.1_function_tag", () => {
  itParsesCorpusCases(functionaryV31FunctionTag, "functionary_v3.1_function_tag");

  it("reads several calls one per line", () => {
    const r = run(functionaryV31FunctionTag, '<function=special_function>{"arg1": 1}</function>\n<function=python>{"code": "print(\'hey\')"}</function>');
    expect(r.calls).toEqual([
      { name: "special_function", arguments: { arg1: 1 } },
      { name: "python", arguments: { code: "print('hey')" } },
    ]);
    expect(r.content).toBe("");
  });

  it("accepts a missing closer, refuses cut JSON, and leaves XML bodies alone", () => {
    expect(run(functionaryV31FunctionTag, '<function=f>{"a": 1}').calls).toEqual([{ name: "f", arguments: { a: 1 } }]);
    const cut = run(functionaryV31FunctionTag, 'Hi <function=f>{"a": ');
    expect(cut.calls).toEqual([]);
    expect(cut.content).toBe("Hi");
    expect(run(functionaryV31FunctionTag, "<function=f>\n<parameter=a>1</parameter>\n</function>").match).toBeNull();
  });
});
