/**
 * Stale facts must never be served to another repository at the same path (issue 9, item 13):
 * a file whose size and mtime match the cached entry but which is another file (new inode, new
 * ctime: a fresh clone, `cp -p`, an unpacked archive) is read again; a root folder replaced by
 * another one starts from an empty cache.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { FactStore } from "../../src/fact-cache/fact-store.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

const PAST = new Date(Date.UTC(2021, 0, 1));
let tmp = "";
let root = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-identity-"));
  root = path.join(tmp, "repo");
  process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
});
afterEach(() => {
  FactIndex.closeShared();
  rmSync(tmp, { recursive: true, force: true });
  if (savedCacheDir === undefined) delete process.env.CODECITE_CACHE_DIR;
  else process.env.CODECITE_CACHE_DIR = savedCacheDir;
});

/** Writes a one-file repository at `dir` whose file has a fixed mtime (same size for both names). */
function makeRepo(dir: string, fn: string): void {
  mkdirSync(path.join(dir, "pkg"), { recursive: true });
  const file = path.join(dir, "pkg", "mod.py");
  writeFileSync(file, `def ${fn}():\n    return 1\n`);
  utimesSync(file, PAST, PAST);
  utimesSync(path.join(dir, "pkg"), PAST, PAST);
  utimesSync(dir, PAST, PAST);
}

describe("fact cache identity", () => {
  it("a stored entry is a stat miss for the same size and mtime with another ctime or inode", () => {
    mkdirSync(root);
    const s = FactStore.open(root, { version: "v1", dir: path.join(tmp, "c") });
    const old = PAST.getTime();
    s.putMany([{ path: "a.py", size: 3, mtimeMs: old, ctimeMs: old + 5, ino: 42, hash: "h", value: "A", checkedMs: old + 60_000 }]);
    expect(s.get("a.py", 3, old, { ctimeMs: old + 5, ino: 42 })?.value).toBe("A");
    expect(s.get("a.py", 3, old, { ctimeMs: old + 6, ino: 42 })).toBeUndefined();
    expect(s.get("a.py", 3, old, { ctimeMs: old + 5, ino: 43 })).toBeUndefined();
    // the content hash still confirms an unchanged file whatever its identity
    expect(s.getByHash("a.py", "h")?.value).toBe("A");
    s.close();
  });

  it("a root folder replaced by another one at the same path starts from an empty cache", () => {
    mkdirSync(root);
    const dir = path.join(tmp, "c");
    const s1 = FactStore.open(root, { version: "v1", dir });
    s1.putMany([{ path: "a.py", size: 3, mtimeMs: 1, hash: "h", value: "A", checkedMs: 60_000 }]);
    s1.close();
    const again = FactStore.open(root, { version: "v1", dir });
    expect(again.get("a.py", 3, 1)?.value).toBe("A");
    again.close();
    renameSync(root, path.join(tmp, "old-repo"));
    mkdirSync(root);
    const s2 = FactStore.open(root, { version: "v1", dir });
    expect(s2.file).toBe(again.file);
    expect(s2.get("a.py", 3, 1)).toBeUndefined();
    expect(s2.getByHash("a.py", "h")).toBeUndefined();
    s2.close();
  });

  it("find_symbol answers from the repository now at the path, not from the cached one (same size and mtime)", async () => {
    makeRepo(root, "alpha");
    const ws1 = await Workspace.open(root);
    const first = await findSymbol(ws1, { name: "alpha", max_results: 10 });
    expect(first.evidence.map((e) => `${e.path}:${e.start_line}:${e.name}`)).toEqual(["pkg/mod.py:1:alpha"]);
    FactIndex.closeShared(); // as a new process would

    // another repository at the same path: same file name, size and mtime, other content
    const before = statSync(path.join(root, "pkg", "mod.py"));
    rmSync(root, { recursive: true });
    makeRepo(root, "bravo");
    const after = statSync(path.join(root, "pkg", "mod.py"));
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);

    const ws2 = await Workspace.open(root);
    const stale = await findSymbol(ws2, { name: "alpha", max_results: 10 });
    expect(stale.evidence).toEqual([]);
    const fresh = await findSymbol(ws2, { name: "bravo", max_results: 10 });
    expect(fresh.evidence.map((e) => `${e.path}:${e.start_line}:${e.name}`)).toEqual(["pkg/mod.py:1:bravo"]);
  });

  it("also within one process: a file copied over with its mtime kept is read again", async () => {
    makeRepo(root, "alpha");
    const ws = await Workspace.open(root);
    expect((await findSymbol(ws, { name: "alpha", max_results: 10 })).total).toBe(1);
    // `cp -p`-like: a new file (new inode) with the old size and mtime, moved over the old one
    const other = path.join(tmp, "mod.py");
    writeFileSync(other, "def bravo():\n    return 1\n");
    utimesSync(other, PAST, PAST);
    renameSync(other, path.join(root, "pkg", "mod.py"));
    utimesSync(path.join(root, "pkg"), PAST, PAST);
    expect((await findSymbol(ws, { name: "bravo", max_results: 10 })).evidence.map((e) => e.name)).toEqual(["bravo"]);
    expect((await findSymbol(ws, { name: "alpha", max_results: 10 })).total).toBe(0);
  });
});
