/**
 * find_importers reads its `module_name` by the rules of `importers.ts` (`interpretQuery`): a path
 * of the tree is taken as it is, before any resolver is made. The JS resolver (which groups the
 * tree's whole file list by folder) and the Python layout are made only for a rule that asks them:
 * a C/C++ header asked by its path makes neither; a path the tree does not hold still tries both.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findImporters } from "../../src/evidence/importers.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { makeTempDir, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

/** How many times each resolver was asked for, and a wrapper that counts a factory's calls. */
const made = vi.hoisted(() => {
  const counts = { js: 0, python: 0 };
  const counted =
    <A extends unknown[], R>(key: keyof typeof counts, make: (...args: A) => R) =>
    (...args: A): R => {
      counts[key]++;
      return make(...args);
    };
  return { counts, counted };
});

vi.mock("../../src/evidence/analysis/lang/js-resolve.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/evidence/analysis/lang/js-resolve.js")>();
  return { ...real, jsResolver: made.counted("js", real.jsResolver) };
});
vi.mock("../../src/evidence/analysis/lang/python-layout.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/evidence/analysis/lang/python-layout.js")>();
  return { ...real, pythonLayout: made.counted("python", real.pythonLayout) };
});

let tmp = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

beforeAll(() => {
  tmp = makeTempDir("codecite-query-readers-");
  const root = `${tmp}/tree`;
  putDatedFile(root, "include/lib/pool.h", "#pragma once\nint pool_size(void);\n");
  putDatedFile(root, "src/pool.c", '#include "lib/pool.h"\nint pool_size(void) { return 1; }\n');
  putDatedFile(root, "src/user.cc", '#include <lib/pool.h>\n#include "../include/lib/pool.h"\n');
  putDatedFile(root, "web/app.ts", 'import { x } from "./util";\n');
  putDatedFile(root, "web/util.ts", "export const x = 1;\n");
});

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

async function firstQuery(query: string) {
  process.env.CODECITE_CACHE_DIR = makeTempDir("codecite-query-readers-cache-");
  FactIndex.closeShared();
  made.counts.js = 0;
  made.counts.python = 0;
  const ws = await Workspace.open(`${tmp}/tree`);
  const r = await findImporters(ws, { module_name: query, max_results: 50 });
  return { lines: r.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`) };
}

describe("importers: the readings of module_name make only the resolvers they use", () => {
  it("a C header of the tree asked by its path: no JS resolver, no Python layout, same importers", async () => {
    const { lines } = await firstQuery("include/lib/pool.h");
    expect(lines).toEqual(["src/pool.c:1 include/lib/pool.h", "src/user.cc:1 include/lib/pool.h", "src/user.cc:2 include/lib/pool.h"]);
    expect(made.counts).toEqual({ js: 0, python: 0 });
  });

  it("a path the tree does not hold is still tried as a Python package and a JS module (web/util → web/util.ts)", async () => {
    const { lines } = await firstQuery("web/util");
    expect(lines).toEqual(["web/app.ts:1 web/util.ts"]);
    expect(made.counts.js).toBeGreaterThan(0);
    expect(made.counts.python).toBeGreaterThan(0);
  });
});
