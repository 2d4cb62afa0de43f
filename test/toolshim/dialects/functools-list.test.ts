import { describe, expect, it } from "vitest";
import { functoolsList } from "../../../src/toolshim/dialects/functools-list.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("functools_list", () => {
  itParsesCorpusCases(functoolsList, "functools_list");

  it("reads escaped strings across lines", () => {
    const r = run(functoolsList, 'functools[{\n  "name": "t",\n  "arguments": {"quoted": "He said \\"hello\\"", "path": "C:\\\\Users\\\\file.txt"}\n}]');
    expect(r.calls).toEqual([{ name: "t", arguments: { quoted: 'He said "hello"', path: "C:\\Users\\file.txt" } }]);
  });

  it("removes an empty list as markup and leaves a bracket of prose alone", () => {
    const empty = run(functoolsList, "functools[] This is just text");
    expect(empty.calls).toEqual([]);
    expect(empty.content).toBe("This is just text");
    expect(run(functoolsList, "functools[ This is just text ]").match).toBeNull();
  });

  it("yields no call for a cut list", () => {
    const r = run(functoolsList, 'functools[{"name": "func", "arguments": {');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("");
  });
});
