/**
 * C/C++ reference facts extracted for some names only (`lang/c-references.ts`, `ReferenceFacts.names`):
 * for every identifier of a file, the uses naming it are those of the whole extraction, in order,
 * with the same readings; includes and classes are whole; function definitions that cannot hold
 * the name are not walked. And the fact cache (`facts.ts` `loadFacts` with `names`): a detail made
 * for other names is parsed again, one made for the names asked (or a whole one) is not.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factsStats, loadFacts } from "../../src/evidence/analysis/facts.js";
import { c } from "../../src/evidence/analysis/lang/c.js";
import { cpp } from "../../src/evidence/analysis/lang/cpp.js";
import type { LanguageSpec, NameUse, ReferenceFacts } from "../../src/evidence/analysis/lang/language.js";
import { extractFacts } from "../../src/evidence/analysis/tree-sitter.js";
import { statFiles } from "../../src/evidence/analysis/project-view.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";

/**
 * C++ where a function's walk could reach past it: a `using namespace` inside a function body
 * (file-wide after its line), a `using` declaration, a local class, lambdas, out-of-line methods,
 * inline methods, templates, a function in an `extern "C"` block and under `#if`.
 */
const CPP = [
  '#include "base.h"',
  "namespace geo {",
  "int area(int w);",
  "struct Shape { virtual int size() const; int w; };",
  "class Square : public Shape {",
  " public:",
  "  int size() const override { return area(w) + helper(); }",
  "  int helper() const { return 1; }",
  "};",
  "int Square::size2() const { return this->size() + area(2); }",
  "}  // namespace geo",
  "void setup() {",
  "  using namespace geo;",
  "  struct Local { int area; };",
  "  auto f = [](int k) { return area(k); };",
  "  f(1);",
  "}",
  "int later() { return area(3) + geo::area(4); }",
  "void other(geo::Square* s) { s->size(); unrelated(); }",
  "template <typename T> T twice(T v) { return v + v; }",
  "int use_twice() { using geo::Shape; Shape sh; return twice<int>(sh.w); }",
  'extern "C" { int c_entry(void) { return later(); } }',
  "#if defined(FAST)",
  "int fast_path() { return area(9); }",
  "#endif",
  "int tail(void) { return twice(1) + unrelated(); }",
].join("\n");

/** The identifiers of a text (every name a query could ask). */
function words(text: string): string[] {
  return [...new Set(text.match(/[A-Za-z_]\w*/g) ?? [])].sort();
}

/** True when a part of `u` from `u.from` on is `name` (the uses `find_references` reads for it). */
function names(u: NameUse, name: string): boolean {
  return u.path.slice(u.from ?? 0).includes(name);
}

async function refs(lang: LanguageSpec, source: string, only?: string[]): Promise<ReferenceFacts> {
  const facts = await extractFacts(lang, source, only ? { names: only } : {});
  return facts.references as ReferenceFacts;
}

/** Checks every identifier of `source`; returns how many uses the whole extraction gave and the scoped ones together. */
async function checkAll(lang: LanguageSpec, source: string): Promise<{ whole: number; scoped: number }> {
  const whole = await refs(lang, source);
  expect(whole.names).toBeUndefined();
  let scoped = 0;
  for (const w of words(source)) {
    const some = await refs(lang, source, [w]);
    expect(some.names).toEqual([w]);
    expect(some.uses.filter((u) => names(u, w))).toEqual(whole.uses.filter((u) => names(u, w)));
    expect(some.bindings).toEqual(whole.bindings);
    expect(some.classes).toEqual(whole.classes);
    scoped += some.uses.length;
  }
  return { whole: whole.uses.length * words(source).length, scoped };
}

describe("C/C++ reference facts for some names", () => {
  it("gives, for each identifier, the uses of the whole extraction (C++)", async () => {
    const n = await checkAll(cpp, CPP);
    expect(n.scoped).toBeLessThan(n.whole);
  });

  it("leaves out the functions that cannot hold the name, keeps those after a using declaration's reach", async () => {
    const whole = await refs(cpp, CPP);
    const some = await refs(cpp, CPP, ["twice"]);
    // `tail` and `use_twice` name `twice`; `setup` and `use_twice` hold `using`; the methods, `later`, `other`, `c_entry`, `fast_path` are cut.
    const contexts = (r: ReferenceFacts) => [...new Set(r.uses.map((u) => u.context ?? ""))].sort();
    expect(contexts(whole)).toEqual(["", "c_entry", "fast_path", "geo.Square.size", "geo.Square.size2", "later", "other", "setup", "tail", "use_twice"]);
    expect(contexts(some)).toEqual(["", "setup", "tail", "use_twice"]);
    // `area` after `using namespace geo` in `setup` is read as `geo::area` too, in `later` as in the whole walk.
    const later = (r: ReferenceFacts) => r.uses.filter((u) => u.context === "later").map((u) => u.path.join("::"));
    expect(later(await refs(cpp, CPP, ["area"]))).toEqual(later(whole));
    expect(later(whole)).toContain("geo::area");
  });

  it("gives the same uses over the C and C++ files of the c-project fixture", async () => {
    const dir = path.join(import.meta.dirname, "..", "fixtures", "c-project");
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d)) {
        const p = path.join(d, e);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(c|h|cpp)$/.test(e)) files.push(p);
      }
    };
    walk(dir);
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) await checkAll(f.endsWith(".cpp") ? cpp : c, readFileSync(f, "utf8"));
  });
});

describe("loadFacts with names (fact cache)", () => {
  let tmp = "";
  const saved = process.env.CODECITE_CACHE_DIR;
  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), "codecite-c-names-"));
    process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
    putDatedFile(path.join(tmp, "tree"), "src/geo.cc", CPP, PAST);
  });
  afterAll(() => restoreCacheDir(saved, tmp));

  it("parses again a detail made for other names, not one made for the names asked or a whole one", async () => {
    const ws = await Workspace.open(path.join(tmp, "tree"));
    const load = async (only?: string[]) => {
      FactIndex.closeShared();
      const before = factsStats().parsed;
      const m = await loadFacts(ws, statFiles(ws, ["src/geo.cc"]), undefined, "references", only ? { names: only } : {});
      return { parsed: factsStats().parsed - before, refs: m.get("src/geo.cc")?.references };
    };
    const first = await load(["twice"]);
    expect([first.parsed, first.refs?.names]).toEqual([1, ["twice"]]);
    expect((await load(["twice"])).parsed).toBe(0);
    const area = await load(["area"]);
    expect([area.parsed, area.refs?.names]).toEqual([1, ["area"]]);
    expect(area.refs?.uses.filter((u) => names(u, "area")).map((u) => u.line)).toEqual([7, 7, 10, 10, 15, 15, 18, 18, 18, 18, 24, 24]);
    const whole = await load();
    expect([whole.parsed, whole.refs?.names]).toEqual([1, undefined]);
    expect((await load(["later"])).parsed).toBe(0);
  });
});
