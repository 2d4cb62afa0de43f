/** The tree-sitter runtime: every registered grammar loads and parses its sample. */
import { describe, expect, it } from "vitest";
import { parseSource, selfTest } from "../../src/evidence/analysis/tree-sitter.js";
import { LANGUAGES } from "../../src/evidence/analysis/lang/index.js";
import { python } from "../../src/evidence/analysis/lang/python.js";
import { factsVersion, grammarPackage } from "../../src/evidence/analysis/facts.js";

describe("tree-sitter", () => {
  it("selfTest loads every registered grammar (ABI 13 to 15) and parses its sample cleanly", async () => {
    const status = await selfTest();
    expect(status.map((s) => s.language)).toEqual(LANGUAGES.map((l) => l.id));
    for (const s of status) {
      expect(s, s.language).toMatchObject({ ok: true });
      // Swift's grammar comes prebuilt at ABI 13 (tree-sitter-wasms); web-tree-sitter 0.25 loads 13–15.
      expect([13, 14, 15]).toContain(s.abi);
    }
  });

  it("selfTest reports a grammar that cannot load instead of throwing", async () => {
    const broken = { ...python, id: "broken", wasm: "tree-sitter-python/no-such.wasm" };
    const [s] = await selfTest([broken]);
    expect(s).toMatchObject({ language: "broken", ok: false });
    expect(s?.error).toBeTruthy();
  });

  it("parseSource gives a tree whose rows are 0-based lines; the caller deletes it", async () => {
    const tree = await parseSource(python, "x = 1\n\ndef f():\n    pass\n");
    try {
      const fn = tree.rootNode.namedChildren.find((n) => n?.type === "function_definition");
      expect(fn?.startPosition.row).toBe(2);
    } finally {
      tree.delete();
    }
  });

  it("the fact-cache version names every grammar package with its version, scoped and nested specifiers included", () => {
    expect(grammarPackage("tree-sitter-c/tree-sitter-c.wasm")).toBe("tree-sitter-c");
    expect(grammarPackage("@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm")).toBe("@tree-sitter-grammars/tree-sitter-kotlin");
    expect(grammarPackage("tree-sitter-wasms/out/tree-sitter-swift.wasm")).toBe("tree-sitter-wasms");
    const v = factsVersion();
    for (const lang of LANGUAGES) expect(v).toMatch(new RegExp(`\\+${grammarPackage(lang.wasm).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}@\\d+\\.\\d+\\.\\d+\\+`));
  });
});
