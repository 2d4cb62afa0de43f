import { describe, expect, it } from "vitest";
import { functionaryV32 } from "../../../src/toolshim/dialects/functionary-v3-2.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("functionary_v3.2", () => {
  itParsesCorpusCases(functionaryV32, "functionary_v3.2");

  it("keeps the `all` text and reads the call after >>>", () => {
    const r = run(functionaryV32, 'all\nHello, world!\nWhat\'s up?>>>special_function\n{"arg1": 1}', ["special_function"]);
    expect(r.calls).toEqual([{ name: "special_function", arguments: { arg1: 1 } }]);
    expect(r.content).toBe("Hello, world! What's up?");
  });

  it("reads two calls", () => {
    const r = run(functionaryV32, '>>>a\n{"x": 1}>>>b\n{}', []);
    expect(r.calls).toEqual([
      { name: "a", arguments: { x: 1 } },
      { name: "b", arguments: {} },
    ]);
  });

  it("does not treat prose or a Python REPL prompt as calls", () => {
    expect(run(functionaryV32, "Sure\nhere is the answer.", ["search_code"]).match).toBeNull();
    expect(run(functionaryV32, "Try this:\n>>> x = 1\n>>> print(x)", ["x"]).match).toBeNull();
  });

  it("yields no call for cut JSON", () => {
    const r = run(functionaryV32, 'all\nOne moment.>>>f\n{"a": ', ["f"]);
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("One moment.");
  });

  it("returns a first segment naming a side-effect tool for refusal, leaving its text visible", () => {
    const r = run(functionaryV32, "python\nimport os\nprint(os.getcwd())", ["search_code"]);
    expect(r.calls).toEqual([{ name: "python", arguments: { code: "import os\nprint(os.getcwd())" } }]);
    expect(r.content).toBe("python import os print(os.getcwd())");
    expect(run(functionaryV32, "Summary\nThe index is built lazily.", ["search_code"]).match).toBeNull();
  });

  it("removes '>>>all' recipient headers as markup, never as an unreadable call that stays visible", () => {
    const m = functionaryV32.parse(">>>all\nLet me look.\n>>>f\n{\"a\": 1}", [{ name: "f" }])!;
    expect(m.calls).toEqual([{ name: "f", arguments: { a: 1 } }]);
    expect(m.broken ?? []).toEqual([]);
    expect(run(functionaryV32, ">>>all\nHello, world!", ["f"]).content).toBe("Hello, world!");
  });
});
