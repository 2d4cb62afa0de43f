/**
 * The remembered text prefilter of find_references (`analysis/mention-index.ts`): a repeated query
 * reads nothing while the tree is unchanged, an edit or a new file is searched alone, a removed
 * file leaves the answer, a file written just now is searched again (racy), a new process (a
 * reopened cache) gets the same answer from the side table, and find_references agrees with a
 * fresh run after each change. Counters come from `mentionStats()`.
 */
import { mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mentionStats, rememberedMentions } from "../../src/evidence/analysis/mention-index.js";
import { listIsComplete, treeSnapshot } from "../../src/evidence/analysis/project-view.js";
import { findReferences } from "../../src/evidence/references.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

let tmp = "";
let root = "";
let ws: Workspace;
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

function write(rel: string, text: string, mtime: Date | null = PAST): void {
  putDatedFile(root, rel, text, mtime);
}

async function pyFiles(): Promise<{ files: string[]; complete: boolean }> {
  const snap = await treeSnapshot(ws, {});
  return { files: snap.files.filter((f) => f.endsWith(".py")), complete: listIsComplete(snap.view) };
}

/** The answer for `names` and what it cost. */
async function ask(...names: string[]): Promise<{ files: string[]; ripgrep: number; unchanged: number; rechecked: number }> {
  const before = mentionStats();
  const { files, complete } = await pyFiles();
  const found = await rememberedMentions(ws, "test:python", files, { literals: names }, { endings: [".py"], complete });
  const after = mentionStats();
  return {
    files: [...(found ?? [])].sort(),
    ripgrep: after.ripgrepRuns - before.ripgrepRuns,
    unchanged: after.unchanged - before.unchanged,
    rechecked: after.rechecked - before.rechecked,
  };
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-mentions-"));
  root = path.join(tmp, "tree");
  process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
  write("lib/core.py", "def build_index():\n    return 1\n");
  for (let i = 0; i < 20; i++) write(`app/m${i}.py`, i % 5 === 0 ? "from lib.core import build_index\n\nbuild_index()\n" : `def other_${i}():\n    return ${i}\n`);
  write("notes.txt", "build_index in a text file\n");
  for (const d of ["lib", "app", ""]) utimesSync(path.join(root, d), PAST, PAST);
  ws = await Workspace.open(root);
});

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("remembered mentions", () => {
  const first = ["app/m0.py", "app/m10.py", "app/m15.py", "app/m5.py", "lib/core.py"];

  it("first query: one ripgrep run over the scope's files only (not notes.txt); then nothing is read", async () => {
    expect(await ask("build_index")).toEqual({ files: first, ripgrep: 1, unchanged: 0, rechecked: 0 });
    expect(await ask("build_index")).toEqual({ files: first, ripgrep: 0, unchanged: 1, rechecked: 0 });
    // another set of names is another answer
    expect(await ask("other_3", "other_4")).toEqual({ files: ["app/m3.py", "app/m4.py"], ripgrep: 1, unchanged: 0, rechecked: 0 });
  });

  it("an edit that adds the name and one that removes it: those two files are searched, no ripgrep run", async () => {
    const later = new Date(Date.UTC(2022, 0, 1));
    write("app/m1.py", "from lib.core import build_index as bi\n", later);
    write("app/m5.py", "x = 1\n", later);
    expect(await ask("build_index")).toEqual({ files: ["app/m0.py", "app/m1.py", "app/m10.py", "app/m15.py", "lib/core.py"], ripgrep: 0, unchanged: 0, rechecked: 2 });
    expect(await ask("build_index")).toEqual({ files: ["app/m0.py", "app/m1.py", "app/m10.py", "app/m15.py", "lib/core.py"], ripgrep: 0, unchanged: 1, rechecked: 0 });
  });

  it("a new file is searched, a removed one leaves the answer", async () => {
    write("app/new.py", "build_index()\n");
    rmSync(path.join(root, "app/m0.py"));
    utimesSync(path.join(root, "app"), PAST, PAST); // the walk must still see the change: it checks folder mtimes
    await treeSnapshot(ws, { refresh: true });
    const r = await ask("build_index");
    expect(r.files).toEqual(["app/m1.py", "app/m10.py", "app/m15.py", "app/new.py", "lib/core.py"]);
    expect(r.ripgrep).toBe(0);
    expect(r.rechecked).toBe(1);
    expect(await ask("build_index")).toEqual({ ...r, rechecked: 0, unchanged: 1 });
  });

  it("a racy file's later edit (same size) is seen", async () => {
    write("app/racy.py", "aaaaaaaaaaa\n", null);
    await treeSnapshot(ws, { refresh: true });
    expect((await ask("build_index")).files).not.toContain("app/racy.py");
    write("app/racy.py", "build_index\n", null); // same size, written within the same moment
    expect((await ask("build_index")).files).toContain("app/racy.py");
  });

  it("a new process (the cache reopened) answers from the side table without ripgrep", async () => {
    utimesSync(path.join(root, "app/new.py"), PAST, PAST);
    utimesSync(path.join(root, "app/racy.py"), PAST, PAST);
    await ask("build_index"); // records the now settled stamps
    FactIndex.closeShared();
    const r = await ask("build_index");
    expect(r).toEqual({ files: ["app/m1.py", "app/m10.py", "app/m15.py", "app/new.py", "app/racy.py", "lib/core.py"], ripgrep: 0, unchanged: 1, rechecked: 0 });
  });

  it("find_references after the edits equals its answer on a fresh cache", async () => {
    const warm = await findReferences(ws, { name: "build_index", path: "lib/core.py", max_results: 50 });
    FactIndex.closeShared();
    process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache-fresh");
    const fresh = await findReferences(await Workspace.open(root), { name: "build_index", path: "lib/core.py", max_results: 50 });
    const lines = (r: typeof warm) => r.evidence.map((e) => `${e.path}:${e.start_line}`);
    expect(lines(warm)).toEqual(lines(fresh));
    // app/new.py and app/racy.py name it without importing it: not references
    expect(lines(warm)).toEqual(["app/m1.py:1", "app/m10.py:1", "app/m10.py:3", "app/m15.py:1", "app/m15.py:3"]);
  });
});
