/**
 * find_importers asked for a file by path whose language's importer hints depend on the path only
 * (`LanguageSpec.pathImporterHints`: C/C++, Python) starts its ripgrep prefilter while the tree is
 * still being walked (`importers.ts` `earlyLookup`), and takes that run for the query's reading
 * instead of starting a second one after the walk. So does a dotted name whose two usual readings
 * (a module file named by its last part, a name outside the tree) have the same needles: Python's.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findImporters } from "../../src/evidence/importers.js";
import { c } from "../../src/evidence/analysis/lang/c.js";
import { python } from "../../src/evidence/analysis/lang/python.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { makeTempDir, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const runs = vi.hoisted(() => ({ started: 0 }));

vi.mock("../../src/evidence/analysis/text-prefilter.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/evidence/analysis/text-prefilter.js")>();
  return {
    ...real,
    filesMentioning: (...args: Parameters<typeof real.filesMentioning>) => {
      runs.started++;
      return real.filesMentioning(...args);
    },
  };
});

let tmp = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

beforeAll(() => {
  tmp = makeTempDir("codecite-early-prefilter-");
  const root = `${tmp}/tree`;
  putDatedFile(root, "include/lib/pool.h", "#pragma once\nint pool_size(void);\n");
  putDatedFile(root, "src/pool.c", '#include "lib/pool.h"\nint pool_size(void) { return 1; }\n');
  putDatedFile(root, "src/user.cc", "#include <lib/pool.h>\n#ifdef X\n#include \"lib/pool.h\"\n#endif\n");
  putDatedFile(root, "src/other.c", '/* not pool.h */\n#include "other.h"\n');
  putDatedFile(root, "pkg/__init__.py", "");
  putDatedFile(root, "pkg/mod.py", "X = 1\n");
  putDatedFile(root, "app/main.py", "from pkg import mod\n\nprint(mod.X)\n");
  putDatedFile(root, "app/other.py", "mod = None\n");
  putDatedFile(root, "app/net.py", "import requests.adapters\nfrom pkg.mod import X\n");
  putDatedFile(root, "app/cli.py", "import pkg\n");
});

afterAll(() => {
  FactIndex.closeShared();
  restoreCacheDir(savedCacheDir, tmp);
  rmSync(tmp, { recursive: true, force: true });
});

/** A workspace whose walk records how many prefilter runs had started when its file list came back. */
async function watchedWorkspace(): Promise<{ ws: Workspace; atWalkEnd: number[] }> {
  const ws = await Workspace.open(`${tmp}/tree`);
  const atWalkEnd: number[] = [];
  const walk = ws.walkPaths.bind(ws);
  ws.walkPaths = async (...args: Parameters<Workspace["walkPaths"]>) => {
    const files = await walk(...args);
    atWalkEnd.push(runs.started);
    return files;
  };
  return { ws, atWalkEnd };
}

/** `query` asked on an empty fact cache, with how many prefilter runs had started when the walk's list came back. */
async function firstQuery(query: string): Promise<{ r: Awaited<ReturnType<typeof findImporters>>; atWalkEnd: number[] }> {
  process.env.CODECITE_CACHE_DIR = makeTempDir("codecite-early-prefilter-cache-");
  FactIndex.closeShared();
  runs.started = 0;
  const { ws, atWalkEnd } = await watchedWorkspace();
  return { r: await findImporters(ws, { module_name: query, max_results: 50 }), atWalkEnd };
}

describe("importers by path: the prefilter starts with the walk", () => {
  it("C/C++ and Python hints come from the path alone", () => {
    expect(c.pathImporterHints?.("include/lib/pool.h")).toEqual({ literals: ["pool.h"] });
    expect(c.importerHints).toBeUndefined();
    expect(python.pathImporterHints?.("pkg/mod.py")).toEqual({ literals: [], patterns: expect.any(Array) as unknown });
  });

  it.each([
    ["include/lib/pool.h", ["src/pool.c:1 include/lib/pool.h", "src/user.cc:1 include/lib/pool.h", "src/user.cc:3 include/lib/pool.h"]],
    ["pkg/mod.py", ["app/main.py:1 pkg.mod", "app/net.py:2 pkg.mod"]],
  ])("%s: one ripgrep run, started before the walk's list came back", async (query, expected) => {
    const { r, atWalkEnd } = await firstQuery(query);
    expect(atWalkEnd).toEqual([1]);
    expect(runs.started).toBe(1);
    expect(r.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`)).toEqual(expected);
  });

  it("a path the tree does not hold: the early run is not taken and the answer is unchanged", async () => {
    const { r, atWalkEnd } = await firstQuery("include/lib/gone.h");
    expect(atWalkEnd).toEqual([1]);
    expect(r.evidence).toEqual([]);
    expect(JSON.stringify(r.note)).toContain("No module or file named 'include/lib/gone.h' in this repository, and no file imports it by that name.");
  });

  it.each([
    ["pkg.mod", 1, ["app/main.py:1 pkg.mod", "app/net.py:2 pkg.mod"]],
    ["mod", 1, ["app/main.py:1 pkg.mod", "app/net.py:2 pkg.mod"]],
    ["requests.adapters", undefined, ["app/net.py:1 requests.adapters"]],
  ])("dotted name %s: the Python run started with the walk is the one taken", async (query, total, expected) => {
    const { r, atWalkEnd } = await firstQuery(query);
    expect(atWalkEnd).toEqual([1]);
    // A name outside the tree is looked for in every family: the others' runs start after the walk, as before.
    if (total !== undefined) expect(runs.started).toBe(total);
    expect(r.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`)).toEqual(expected);
  });

  it("a dotted name read as a package (its __init__.py's needles differ): the early run is not taken, the answer is unchanged", async () => {
    const { r, atWalkEnd } = await firstQuery("pkg");
    expect(atWalkEnd).toEqual([1]);
    expect(runs.started).toBe(2);
    expect(r.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`)).toEqual(["app/cli.py:1 pkg"]);
  });
});
