/**
 * `find_references` in C/C++ walks the include closure of every file that mentions the name
 * (`ReferenceRules.importBindings`, `Resolver.outline` and `prefetchOutlines` in
 * `src/evidence/references.ts`): the headers it only looks names up in are read from the
 * definitions tier of the fact cache, without their uses, and the answer is the same whichever
 * tier the cache holds for them.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factsStats, loadFacts } from "../../src/evidence/analysis/facts.js";
import { languageFor } from "../../src/evidence/analysis/lang/index.js";
import { extractFacts } from "../../src/evidence/analysis/tree-sitter.js";
import { statFiles } from "../../src/evidence/analysis/project-view.js";
import { findReferences } from "../../src/evidence/references.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const PAST = new Date(Date.UTC(2021, 0, 1));
let tmp = "";
let root = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

/**
 * `api.h` → `mid.h` → `base.h` declares `base_sum`, defined in `base.c`; `other.h` declares a
 * different `base_sum` that nobody reaching `base.h` sees; `shadow.c` defines its own static
 * `base_sum` (its file-level name hides the header's); `deep.h` is a header below `base.h`.
 */
const TREE: Record<string, string> = {
  "include/deep.h": "#ifndef DEEP_H\n#define DEEP_H\nint deep_value(void);\n#endif\n",
  "include/base.h": '#ifndef BASE_H\n#define BASE_H\n#include "deep.h"\nint base_sum(int a, int b);\n#endif\n',
  "include/mid.h": '#ifndef MID_H\n#define MID_H\n#include "base.h"\n#include <stdio.h>\nint mid_twice(int a);\n#endif\n',
  "include/api.h": '#ifndef API_H\n#define API_H\n#include "mid.h"\nint api_run(void);\n#endif\n',
  "include/other.h": "#ifndef OTHER_H\n#define OTHER_H\nint base_sum(int a, int b);\n#endif\n",
  "src/base.c": '#include "base.h"\n\nint base_sum(int a, int b) { return a + b + deep_value(); }\n',
  "src/mid.c": '#include "mid.h"\n\nint mid_twice(int a) {\n  return base_sum(a, a);\n}\n',
  "src/app.c": '#include "api.h"\n\nint api_run(void) {\n  /* base_sum in a comment */\n  int (*f)(int, int) = base_sum;\n  return f(1, 2) + base_sum(3, 4);\n}\n',
  "src/other.c": '#include "other.h"\n\nint other_run(void) { return base_sum(5, 6); }\n',
  "src/shadow.c": '#include "api.h"\n\nstatic int base_sum(int a, int b) { return a - b; }\nint shadow_run(void) { return base_sum(7, 8); }\n',
  "src/tool.cc": '#include "api.h"\n\nnamespace tool {\nint Run() { return ::base_sum(1, 1); }\n}  // namespace tool\n',
};

const HEADERS = ["include/api.h", "include/base.h", "include/deep.h", "include/mid.h"];

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-closure-"));
  root = path.join(tmp, "tree");
  for (const [rel, text] of Object.entries(TREE)) {
    const abs = path.join(root, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    utimesSync(abs, PAST, PAST);
  }
  for (const d of ["include", "src", "."]) utimesSync(path.join(root, d), PAST, PAST);
});

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

const refs = (ws: Workspace) => findReferences(ws, { name: "base_sum", path: "src/base.c", max_results: 50 });
const where = (r: { evidence: { path: string; start_line: number; flags?: string[] }[] }) => r.evidence.map((e) => `${e.path}:${e.start_line}:${(e.flags ?? []).join(",")}`);

/** A fresh process's view: no in-memory layer, the cache folder `name`. */
async function fresh(name: string): Promise<Workspace> {
  FactIndex.closeShared();
  process.env.CODECITE_CACHE_DIR = path.join(tmp, name);
  return Workspace.open(root);
}

describe("C/C++ references through the include closure", () => {
  it("resolves through includes of includes; headers only looked into are read without their references", async () => {
    const ws = await fresh("cache-a");
    const r = await refs(ws);
    // Not other.c (its header declares another base_sum), nor shadow.c (its own static one), nor the comment.
    expect(where(r)).toEqual([
      "src/app.c:5:value",
      "src/app.c:6:call",
      "src/mid.c:4:call",
      "src/tool.cc:4:call",
    ]);
    // The headers the lookups walked into (and deep.h, below base.h where the walk stops, which
    // the level-by-level load reads ahead) were read for their includes only (none of them holds
    // base_sum: no lookup can find it there): a definitions load parses each of them now, and a
    // references load each of them again.
    const files = statFiles(ws, HEADERS.filter((h) => h !== "include/base.h"));
    expect([...(await loadFacts(ws, files)).parsed].sort()).toEqual(["include/api.h", "include/deep.h", "include/mid.h"]);
    const before = factsStats().parsed;
    const full = await loadFacts(ws, files, undefined, "references");
    expect(factsStats().parsed - before).toBe(files.length);
    expect([...full.keys()].sort()).toEqual(["include/api.h", "include/deep.h", "include/mid.h"]);
  });

  it("gives the same records whether the cache holds the headers with or without their references", async () => {
    const a = await refs(await fresh("cache-a"));
    const ws = await fresh("cache-b");
    await loadFacts(ws, statFiles(ws, Object.keys(TREE)), undefined, "references");
    const b = await refs(ws);
    expect(b).toEqual(a);
    expect((await refs(await fresh("cache-b"))).evidence).toEqual(a.evidence);
  });
});

/**
 * A chain `h1.h` → … → `h6.h` (each declares `deepN`), a cycle `cyc_a.h` ⇄ `cyc_b.h`, an include of
 * a file of no language (`frag.inc`) and one of a missing header, all reached from `src/use.c`.
 */
const CHAIN: Record<string, string> = {
  ...Object.fromEntries(
    [1, 2, 3, 4, 5, 6].map((k) => [`include/h${k}.h`, `#pragma once\n${k < 6 ? `#include "h${k + 1}.h"\n` : ""}int deep${k}(void);\n`]),
  ),
  "include/h1.h": '#pragma once\n#include "h2.h"\n#include "cyc_a.h"\n#include "frag.inc"\n#include "missing.h"\nint deep1(void);\n',
  "include/cyc_a.h": '#ifndef CYC_A\n#define CYC_A\n#include "cyc_b.h"\nint cyc_a_fn(void);\n#endif\n',
  "include/cyc_b.h": '#ifndef CYC_B\n#define CYC_B\n#include "cyc_a.h"\nint cyc_b_fn(void);\n#endif\n',
  "include/frag.inc": "int frag_fn(void);\n",
  "src/deep.c": '#include "h1.h"\nint deep5(void) { return 5; }\nint deep6(void) { return 6; }\nint cyc_a_fn(void) { return 7; }\nint cyc_b_fn(void) { return 8; }\nint frag_fn(void) { return 9; }\n',
  "src/use.c": '#include "h1.h"\n\nint use_all(void) {\n  int a = deep5();\n  int b = deep6();\n  int c = cyc_b_fn() + cyc_a_fn();\n  int d = frag_fn();\n  return a + b + c + d;\n}\n',
};

function writeTree(at: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(at, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    utimesSync(abs, PAST, PAST);
  }
}

describe("C/C++ name lookups in a whole include closure (synchronous)", () => {
  it("answers as the general lookups do: chains, cycles, files of no language, missing headers", async () => {
    const sync = path.join(tmp, "chain-sync");
    writeTree(sync, CHAIN);
    // The same tree where a header includes a Python file: the closure is not one of includes
    // only, so every lookup takes the general (awaiting) path.
    const general = path.join(tmp, "chain-general");
    writeTree(general, { ...CHAIN, "include/h6.h": `${CHAIN["include/h6.h"]}#include "stub.py"\n`, "include/stub.py": "X = 1\n" });
    const names = ["deep5", "deep6", "cyc_a_fn", "cyc_b_fn", "frag_fn"];
    const answers = async (at: string, cache: string) => {
      FactIndex.closeShared();
      process.env.CODECITE_CACHE_DIR = path.join(tmp, cache);
      const ws = await Workspace.open(at);
      const out: Record<string, string[]> = {};
      for (const name of names) out[name] = where(await findReferences(ws, { name, path: "src/deep.c", max_results: 50 }));
      return out;
    };
    const a = await answers(sync, "cache-chain-sync");
    expect(a.deep5).toEqual(["src/use.c:4:call"]);
    expect(a.cyc_a_fn).toEqual(["src/use.c:6:call"]);
    expect(a.cyc_b_fn).toEqual(["src/use.c:6:call"]);
    // frag.inc is no C file: its declaration is not seen, so use.c's frag_fn is not this one.
    expect(a.frag_fn).toEqual([]);
    expect(await answers(general, "cache-chain-general")).toEqual(a);
    // The same again from the cache.
    expect(await answers(sync, "cache-chain-sync")).toEqual(a);
  });
});

describe("ReferenceRules.importBindings", () => {
  it("gives the bindings the reference extraction gives, for every C/C++ file of the fixtures", async () => {
    const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "fixtures");
    const files = (readdirSync(fixtures, { recursive: true }) as string[]).map((f) => f.split(path.sep).join("/")).filter((f) => languageFor(f)?.family === "c");
    expect(files.length).toBeGreaterThan(15);
    let withIncludes = 0;
    for (const f of files) {
      const lang = languageFor(f);
      const derive = lang?.references?.importBindings;
      expect(derive, f).toBeDefined();
      const facts = await extractFacts(lang!, readFileSync(path.join(fixtures, f), "utf8"));
      expect(derive!(facts.imports), f).toEqual(facts.references?.bindings);
      if (facts.imports.length > 0) withIncludes++;
    }
    expect(withIncludes).toBeGreaterThan(10);
  });
});
