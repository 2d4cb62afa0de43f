/** find_symbol over the example project and the fixtures: exact records, filters, notes, budgets. */
import { noteOf } from "../helpers/note.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factsStats } from "../../src/evidence/analysis/facts.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import type { FindSymbolArgs } from "../../src/tools/code-tools.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

const repo = path.resolve(import.meta.dirname, "../..");
const open = (rel: string) => Workspace.open(path.join(repo, rel));
const sym = (ws: Workspace, name: string, extra: Partial<FindSymbolArgs> = {}) => findSymbol(ws, { name, max_results: 50, ...extra });
const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line} ${e.name} ${e.symbol_kind}`);

describe("find_symbol: Python", () => {
  let rag: Workspace;
  let shop: Workspace;
  beforeAll(async () => {
    rag = await open("examples/rag-app");
    shop = await open("test/fixtures/python-src-layout");
  });

  it("returns the whole definition with its exact lines", async () => {
    const r = await sym(rag, "load_index");
    expect(r).toEqual({
      evidence: [
        {
          path: "src/rag_common.py",
          start_line: 60,
          end_line: 61,
          kind: "definition",
          name: "load_index",
          snippet: 'def load_index(path: Path = INDEX_PATH) -> list[Chunk]:\n    return [Chunk(**row) for row in json.loads(path.read_text(encoding="utf-8"))]',
          language: "python",
          symbol_kind: "function",
        },
      ],
      total: 1,
      truncated: false,
    });
  });

  it("Class.method and a plain method name both find the method, named Class.method", async () => {
    expect(where(await sym(shop, "Cart.total"))).toEqual(["src/shop/cart.py:17-18 Cart.total method"]);
    expect(where(await sym(shop, "total"))).toEqual(["src/shop/cart.py:17-18 Cart.total method"]);
    expect(where(await sym(rag, "Chunk.text"))).toEqual(["src/rag_common.py:21-21 Chunk.text variable"]);
    expect(where(await sym(rag, "rag_common.load_index"))).toEqual(["src/rag_common.py:60-61 load_index function"]);
    expect(where(await sym(shop, "shop.cart.Cart.total"))).toEqual(["src/shop/cart.py:17-18 Cart.total method"]);
  });

  it("ranges include decorators; constants are definitions however short", async () => {
    expect(where(await sym(shop, "Item"))).toEqual(["src/shop/catalog.py:6-9 Item class"]);
    expect(where(await sym(shop, "CURRENCY"))).toEqual(["src/shop/catalog.py:3-3 CURRENCY constant"]);
  });

  it("kind and path filters; an empty result names the other kinds", async () => {
    expect(where(await sym(shop, "Cart", { kind: "class" }))).toEqual(["src/shop/cart.py:13-23 Cart class"]);
    const other = await sym(shop, "Cart", { kind: "function" });
    expect(other.evidence).toEqual([]);
    expect(noteOf(other)).toContain("No function named Cart, but 1 definition of other kinds: Cart (class, src/shop/cart.py:13)");
    expect(where(await sym(shop, "Item", { path: "src/shop" }))).toEqual(["src/shop/catalog.py:6-9 Item class"]);
    expect((await sym(shop, "Item", { path: "tests" })).evidence).toEqual([]);
  });

  it("an empty result offers close names (case and small edits) with their locations", async () => {
    const r = await sym(rag, "load_idx");
    expect(r.evidence).toEqual([]);
    expect(noteOf(r)).toContain("No definition named load_idx");
    expect(noteOf(r)).toContain("Close names: load_index (src/rag_common.py:60)");
    expect(noteOf((await sym(rag, "ragconfig")))).toContain("RagConfig (src/rag_common.py:25)");
    expect(noteOf((await sym(shop, "cart.total")))).toContain("total is defined as: Cart.total (method, src/shop/cart.py:17)");
  });

  it("close names come from a cheap name list: only the files that define the closest names are parsed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "codecite-close-"));
    try {
      for (let i = 0; i < 40; i++) writeFileSync(path.join(dir, `m${i}.py`), `def func_${i}():\n    return ${i}\n`);
      writeFileSync(path.join(dir, "index.py"), "class IndexBuilder:\n    def build(self):\n        return 1\n");
      writeFileSync(path.join(dir, "Widget.java"), "class Widget {\n  public static int renderAll(int x) { return x; }\n}\n");
      const ws = await Workspace.open(dir);
      const before = factsStats().parsed;
      const r = await sym(ws, "IndxBuilder");
      expect(noteOf(r)).toContain("Close names: IndexBuilder (index.py:1)");
      expect(factsStats().parsed - before).toBe(1);
      expect(noteOf((await sym(ws, "IndexBuilder.biuld")))).toContain("Close names: IndexBuilder.build (index.py:2)");
      expect(noteOf((await sym(ws, "renderall")))).toContain("Close names: renderAll (Widget.java:2)");
      expect(factsStats().parsed - before).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("path errors come from the workspace; a name with spaces is INVALID_ARGUMENT", async () => {
    await expect(sym(rag, "x", { path: "../outside" })).rejects.toMatchObject({ code: "OUTSIDE_ROOT" });
    await expect(sym(rag, "x", { path: "no/such/dir" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(sym(rag, "def load_index")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("a path with no parsable files says so", async () => {
    const r = await sym(rag, "x", { path: "README.md" });
    expect(r.evidence).toEqual([]);
    expect(noteOf(r)).toContain("No source files under README.md in a language with a parser");
  });
});

describe("find_symbol: TypeScript, TSX, JavaScript", () => {
  it("interfaces, type aliases, enums, functions, components and CommonJS exports", async () => {
    const esm = await open("test/fixtures/ts-esm-node");
    expect(where(await sym(esm, "Options"))).toEqual(["src/types.ts:1-3 Options interface"]);
    expect(where(await sym(esm, "Mode"))).toEqual(["src/types.ts:5-5 Mode type"]);
    expect(where(await sym(esm, "Level"))).toEqual(["src/types.ts:7-10 Level enum"]);
    expect(where(await sym(esm, "Card"))).toEqual(["web/components/Card.jsx:1-1 Card function"]);
    const mono = await open("test/fixtures/ts-monorepo");
    expect(where(await sym(mono, "Button"))).toEqual(["packages/ui/src/button.tsx:8-10 Button function"]);
    expect(where(await sym(mono, "roles"))).toEqual(["packages/legacy/index.d.ts:2-2 roles function", "packages/legacy/index.js:5-7 roles function"]);
    expect((await sym(mono, "AppProps")).evidence[0]?.language).toBe("tsx");
  });
});

describe("find_symbol: budgets", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "codecite-symbols-"));
    const body = Array.from({ length: 28 }, (_, i) => `    x${i} = ${i}`).join("\n");
    writeFileSync(path.join(dir, "long.py"), `def long_function():\n${body}\n    return 0\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("cuts a long definition's snippet to 12 exact lines, keeps its full range and flags it truncated", async () => {
    const ws = await Workspace.open(dir);
    const r = await sym(ws, "long_function");
    const e = r.evidence[0];
    expect(e?.start_line).toBe(1);
    expect(e?.end_line).toBe(30);
    expect(e?.snippet.split("\n")).toHaveLength(12);
    expect(e?.snippet.split("\n")[11]).toBe("    x10 = 10");
    expect(e?.flags).toEqual(["truncated"]);
    expect(r.truncated).toBe(true);
    expect(noteOf(r)).toContain("read_evidence");
  });
});
