/**
 * find_importers keeps the resolutions of imports (and the module-name index) in the fact cache
 * for later processes of the same tree: a new Workspace over an unchanged tree answers the same
 * records without resolving again, and an edit of a file that resolution read (tsconfig.json)
 * makes it resolve again. A new process is a new Workspace here (the tree state and what is
 * derived from it come back from the cache); the tree's mtimes lie in the past so nothing is racy.
 */
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { factsStats } from "../../src/evidence/analysis/facts.js";
import { findImporters } from "../../src/evidence/importers.js";
import { python } from "../../src/evidence/analysis/lang/python.js";
import { typescript } from "../../src/evidence/analysis/lang/typescript.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const LATER = new Date(Date.UTC(2022, 0, 1));
let tmp = "";
let root = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

function write(rel: string, text: string, mtime = PAST): void {
  putDatedFile(root, rel, text, mtime);
}

const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line} ${e.name}`);
const query = async (module_name: string) => findImporters(await Workspace.open(root), { module_name, max_results: 50 });

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-kept-"));
  root = path.join(tmp, "tree");
  process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
  write("tsconfig.json", JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@lib/*": ["lib/*"] } } }));
  write("lib/util.ts", "export const x = 1;\n");
  write("other/util.ts", "export const y = 2;\n");
  write("app/main.ts", 'import { x } from "@lib/util";\n');
  write("app/alt.ts", 'import { y } from "../other/util";\n');
  write("py/pkg/__init__.py", "");
  write("py/pkg/target.py", "VALUE = 1\n");
  write("py/use.py", "from pkg.target import VALUE\n");
  write("py/pkg/other.py", "OTHER = 2\n");
  // an import line names `target` (the text prefilter picks it), but none of its imports can name
  // pkg.target: the import screen rules it out
  write("py/note.py", "import os\nfrom lib.target import T\nfrom pkg.other import OTHER\n");
  for (const d of ["lib", "other", "app", "py/pkg", "py", ""]) utimesSync(path.join(root, d), PAST, PAST);
});

afterEach(() => vi.restoreAllMocks());

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("find_importers: resolutions kept for later processes", () => {
  it("a new workspace over the unchanged tree gives the same records without resolving again", async () => {
    expect(where(await query("lib/util.ts"))).toEqual(["app/main.ts:1-1 lib/util.ts"]);
    expect(where(await query("pkg.target"))).toEqual(["py/use.py:1-1 pkg.target"]);
    const ts = vi.spyOn(typescript, "resolve");
    const py = vi.spyOn(python, "resolve");
    const before = factsStats();
    expect(where(await query("lib/util.ts"))).toEqual(["app/main.ts:1-1 lib/util.ts"]);
    expect(where(await query("pkg.target"))).toEqual(["py/use.py:1-1 pkg.target"]);
    expect(ts).not.toHaveBeenCalled();
    expect(py).not.toHaveBeenCalled();
    // the importers' imports came with the kept resolutions: no facts were loaded or parsed
    const after = factsStats();
    expect([after.cached - before.cached, after.parsed - before.parsed, after.rehashed - before.rehashed]).toEqual([0, 0, 0]);
  });

  it("an edit of tsconfig.json (read by the resolver) makes the next workspace resolve again", async () => {
    write("tsconfig.json", JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@lib/*": ["other/*"] } } }), LATER);
    const ts = vi.spyOn(typescript, "resolve");
    expect(where(await query("lib/util.ts"))).toEqual([]);
    expect(ts).toHaveBeenCalled();
    expect(where(await query("other/util.ts"))).toEqual(["app/alt.ts:1-1 other/util.ts", "app/main.ts:1-1 other/util.ts"]);
  });

  it("an edited importer (tree and tsconfig unchanged) is read again, not answered from what was kept", async () => {
    await query("other/util.ts"); // kept for this tsconfig
    write("app/alt.ts", '\nimport { x } from "../lib/util";\n', LATER);
    const before = factsStats().parsed;
    expect(where(await query("lib/util.ts"))).toEqual(["app/alt.ts:2-2 lib/util.ts"]);
    expect(factsStats().parsed - before).toBe(1);
  });

  it("a file the import screen ruled out is not read again while unchanged, and the kept scan serves other modules", async () => {
    // Reads through readText or its synchronous twin (lexical-imports.ts tries readTextSync first).
    const read = vi.spyOn(Workspace.prototype, "readText");
    const readSync = vi.spyOn(Workspace.prototype, "readTextSync");
    const readsOf = (file: string) => [...read.mock.calls, ...readSync.mock.calls].filter(([p]) => p === file).length;
    expect(where(await query("pkg.target"))).toEqual(["py/use.py:1-1 pkg.target"]);
    expect(readsOf("py/note.py")).toBe(1);
    read.mockClear();
    readSync.mockClear();
    expect(where(await query("pkg.target"))).toEqual(["py/use.py:1-1 pkg.target"]);
    expect(readsOf("py/note.py")).toBe(0);
    // the scan kept for pkg.target's query shows an import pkg.other's query must look at
    expect(where(await query("pkg.other"))).toEqual(["py/note.py:3-3 pkg.other"]);
  });

  it("an edit of a ruled-out file that makes it import the module is seen (new mtime, or only a new ctime)", async () => {
    await query("pkg.target");
    write("py/note.py", "import os\nfrom pkg.target import T\nfrom pkg.other import OTHER\n", LATER);
    expect(where(await query("pkg.target"))).toEqual(["py/note.py:2-2 pkg.target", "py/use.py:1-1 pkg.target"]);
    // ruled out again, then edited back: the same size and mtime each time, only ctime and the content tell
    write("py/note.py", "import os\nfrom lib.target import T\nfrom pkg.other import OTHER\n", LATER);
    expect(where(await query("pkg.target"))).toEqual(["py/use.py:1-1 pkg.target"]);
    write("py/note.py", "import os\nfrom pkg.target import T\nfrom pkg.other import OTHER\n", LATER);
    expect(where(await query("pkg.target"))).toEqual(["py/note.py:2-2 pkg.target", "py/use.py:1-1 pkg.target"]);
  });

  it("a kept reading of the query is dropped when a module file is added or removed", async () => {
    write("py/late.py", "from pkg.later import X\n");
    utimesSync(path.join(root, "py"), PAST, PAST);
    const before = await query("pkg.later");
    expect(where(before)).toEqual([]);
    expect(JSON.stringify(before.note)).toContain("No module or file named 'pkg.later'");
    expect(where(await query("pkg.later"))).toEqual([]); // read again as kept
    write("py/pkg/later.py", "X = 1\n");
    const mid = new Date(Date.UTC(2021, 6, 1)); // a new folder mtime, not racy: the new walk is kept too
    utimesSync(path.join(root, "py/pkg"), mid, mid);
    expect(where(await query("pkg.later"))).toEqual(["py/late.py:1-1 pkg.later"]);
    expect(where(await query("pkg.later"))).toEqual(["py/late.py:1-1 pkg.later"]);
    rmSync(path.join(root, "py/pkg/later.py"));
    utimesSync(path.join(root, "py/pkg"), LATER, LATER);
    expect(where(await query("pkg.later"))).toEqual([]);
  });
});
