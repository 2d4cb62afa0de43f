import { describe, expect, it } from "vitest";
import { minimaxM2Invoke } from "../../../src/toolshim/dialects/minimax-m2-invoke.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("minimax_m2_invoke", () => {
  itParsesCorpusCases(minimaxM2Invoke, "minimax_m2_invoke");

  it("reads two invokes in one block with untyped array values", () => {
    const r = run(
      minimaxM2Invoke,
      '<minimax:tool_call>\n<invoke name="a">\n<parameter name="ids">[1, 2]</parameter>\n</invoke>\n<invoke name="b">\n<parameter name="q">x &amp; <y></parameter>\n</invoke>\n</minimax:tool_call>',
    );
    expect(r.calls).toEqual([
      { name: "a", arguments: { ids: "[1, 2]" }, untyped: true },
      { name: "b", arguments: { q: "x &amp; <y>" }, untyped: true },
    ]);
    expect(r.content).toBe("");
  });

  it("ignores a quoted <invoke> outside the wrapper and refuses a cut value", () => {
    expect(run(minimaxM2Invoke, 'Use <invoke name="x"> tags.').match).toBeNull();
    const cut = run(minimaxM2Invoke, 'Ok <minimax:tool_call><invoke name="a"><parameter name="q">hal');
    expect(cut.calls).toEqual([]);
    expect(cut.content).toBe("Ok");
  });
});
