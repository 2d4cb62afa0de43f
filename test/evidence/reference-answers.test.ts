/**
 * `find_references` in C/C++ keeps its answer for later processes of the same tree
 * (`src/evidence/reference-answers.ts`): a new Workspace over an unchanged tree gives the same
 * records, snippets included, without loading the facts of a file; an edit of a header of the
 * include closure (which decides what a use resolves to) or of a file that uses the name makes the
 * next query compute the answer again, and the answer changes with it. A new process is a new
 * Workspace with the shared fact index closed; the tree's mtimes lie in the past (nothing racy), an
 * edit gives a later one.
 */
import { mkdtempSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factsStats } from "../../src/evidence/analysis/facts.js";
import { findReferences } from "../../src/evidence/references.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

let tmp = "";
let root = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;
let later = Date.UTC(2022, 0, 1);

/** Writes `rel`; an edit (`edit`) gets a later mtime than any before it. */
function write(rel: string, text: string, edit = false): void {
  putDatedFile(root, rel, text, edit ? new Date((later += 60_000)) : PAST);
}

const shown = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line}:${(e.flags ?? []).join(",")}:${e.snippet}`);

/**
 * `find_references` of `total` as a new process asks it, and how many files' facts it loaded
 * (cache hits and parses): 1 when the answer was kept (the definition's own file, located first).
 */
async function refs(): Promise<{ records: string[]; loads: number }> {
  FactIndex.closeShared();
  const before = factsStats();
  const result = await findReferences(await Workspace.open(root), { name: "total", path: "src/total.c", max_results: 50 });
  const after = factsStats();
  return { records: shown(result), loads: after.cached + after.parsed - before.cached - before.parsed };
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-ref-answers-"));
  root = path.join(tmp, "tree");
  process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
  write("include/api.h", '#pragma once\n#include "defs.h"\n');
  write("include/defs.h", "#pragma once\nint total(int a);\n");
  write("src/total.c", '#include "../include/defs.h"\nint total(int a) { return a; }\n');
  write("src/app.c", '#include "../include/api.h"\nint run(void) {\n  return total(1);\n}\n');
  write("src/other.c", "static int total(int a) { return -a; }\nint other(void) { return total(2); }\n");
  for (const d of ["include", "src", ""]) utimesSync(path.join(root, d), PAST, PAST);
});

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("find_references (C/C++): answers kept for later processes", () => {
  const found = ["src/app.c:3:call:  return total(1);"];

  it("a new workspace over the unchanged tree gives the same records loading only the definition's file", async () => {
    const first = await refs();
    expect(first.records).toEqual(found);
    expect(first.loads).toBeGreaterThan(3);
    const second = await refs();
    expect(second.records).toEqual(found);
    expect(second.loads).toBe(1);
  });

  it("an edit of an included header changes the next answer", async () => {
    // api.h no longer includes defs.h: `total` in app.c names no declaration the target stands for.
    write("include/api.h", "#pragma once\n", true);
    const edited = await refs();
    expect(edited.records).toEqual([]);
    expect(edited.loads).toBeGreaterThan(3);
    expect((await refs()).loads).toBe(1);
    write("include/api.h", '#pragma once\n#include "defs.h"\n', true);
    expect((await refs()).records).toEqual(found);
  });

  it("an edit of a file that uses the name changes the next answer, snippet included", async () => {
    expect((await refs()).records).toEqual(found);
    write("src/app.c", '#include "../include/api.h"\nint run(void) {\n  return total(1) +\n    total(3);\n}\n', true);
    expect((await refs()).records).toEqual(["src/app.c:3:call:  return total(1) +\n    total(3);"]);
    const again = await refs();
    expect(again.records).toEqual(["src/app.c:3:call:  return total(1) +\n    total(3);"]);
    expect(again.loads).toBe(1);
  });
});
