/**
 * The warm tree state of `project-view.ts`: one walk reused while nothing watched changes, and a
 * new walk (and fresh resolver data) after an entry is added, removed or renamed, an ignore file
 * or a configuration file read by a resolver is edited. Every file and folder starts with an mtime
 * in the past, so nothing is "racy" unless a test makes it so.
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { findImporters } from "../../src/evidence/importers.js";
import { createProjectView, loadDerived, saveDerived, treeSnapshot } from "../../src/evidence/analysis/project-view.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

const PAST = new Date(Date.UTC(2021, 0, 1));
const tmp = mkdtempSync(path.join(tmpdir(), "codecite-view-"));
const savedCacheDir = process.env.CODECITE_CACHE_DIR;
process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
let root = "";
let n = 0;

afterAll(() => {
  if (savedCacheDir === undefined) delete process.env.CODECITE_CACHE_DIR;
  else process.env.CODECITE_CACHE_DIR = savedCacheDir;
  rmSync(tmp, { recursive: true, force: true });
});

/** Writes files, then sets every file's and folder's mtime to the past. */
function tree(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  age(root);
}

function age(abs: string): void {
  if (statSync(abs).isDirectory()) for (const e of readdirSync(abs)) if (e !== ".git") age(path.join(abs, e));
  utimesSync(abs, PAST, PAST);
}

beforeEach(() => {
  root = path.join(tmp, `t${++n}`);
  mkdirSync(root);
});

describe("warm tree state", () => {
  it("reuses one walk while nothing changes; a new, removed or renamed file gives a new one", async () => {
    tree({ "pkg/__init__.py": "", "pkg/a.py": "X = 1\n", "main.py": "import pkg.a\n" });
    const ws = await Workspace.open(root);
    const s1 = await treeSnapshot(ws);
    expect(s1.files).toEqual(["main.py", "pkg/__init__.py", "pkg/a.py"]);
    expect(await treeSnapshot(ws)).toBe(s1);
    // an edit inside a file is not a change of the list
    writeFileSync(path.join(root, "pkg/a.py"), "X = 2\n");
    expect(await treeSnapshot(ws)).toBe(s1);

    writeFileSync(path.join(root, "pkg/b.py"), "import pkg.a\n");
    const s2 = await treeSnapshot(ws);
    expect(s2.generation).toBe(s1.generation + 1);
    expect(s2.files).toEqual(["main.py", "pkg/__init__.py", "pkg/a.py", "pkg/b.py"]);
    expect((await findImporters(ws, { module_name: "pkg.a", max_results: 10 })).evidence.map((e) => e.path)).toEqual(["main.py", "pkg/b.py"]);

    age(root);
    const s3 = await treeSnapshot(ws);
    unlinkSync(path.join(root, "main.py"));
    expect((await findImporters(ws, { module_name: "pkg.a", max_results: 10 })).evidence.map((e) => e.path)).toEqual(["pkg/b.py"]);
    expect((await treeSnapshot(ws)).generation).toBeGreaterThan(s3.generation);

    age(root);
    renameSync(path.join(root, "pkg/b.py"), path.join(root, "pkg/c.py"));
    expect((await findImporters(ws, { module_name: "pkg.a", max_results: 10 })).evidence.map((e) => e.path)).toEqual(["pkg/c.py"]);
  });

  it("sees a file created in a folder that held no listed file (empty, or only ignored files)", async () => {
    tree({ "lib/util.py": "def helper():\n    return 1\n", "empty/deeper/.keep-ignored": "", ".gitignore": ".keep-ignored\n" });
    const ws = await Workspace.open(root);
    const s1 = await treeSnapshot(ws);
    expect(s1.files).toEqual([".gitignore", "lib/util.py"]);
    writeFileSync(path.join(root, "empty/deeper/late.py"), "from lib.util import helper\n");
    const s2 = await treeSnapshot(ws);
    expect(s2.files).toContain("empty/deeper/late.py");
    expect((await findSymbol(ws, { name: "helper", max_results: 5 })).evidence.map((e) => `${e.path}:${e.start_line}`)).toEqual(["lib/util.py:1"]);
  });

  it("a walk takes the folders its own ignore-file scan read from that scan, never from an older one", async () => {
    tree({ "lib/util.py": "def helper():\n    return 1\n", "lib/empty/.keep": "", "node_modules/x/y.py": "" });
    const ws = await Workspace.open(root);
    const before = Date.now();
    const s1 = await treeSnapshot(ws);
    expect(s1.files).toEqual(["lib/empty/.keep", "lib/util.py"]);
    // What the scan of this walk read (node_modules is never walked): the walk needed no read of its own.
    expect([ws.subfoldersSeen("", before), ws.subfoldersSeen("lib", before), ws.subfoldersSeen("lib/empty", before)]).toEqual([["lib"], ["empty"], []]);
    expect(ws.subfoldersSeen("lib", Date.now() + 1000)).toBeUndefined();
    // A second walk of the same workspace (a server) comes after the scan, which never runs again:
    // the folder made meanwhile, empty at that walk, is read and watched by it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    mkdirSync(path.join(root, "later"));
    writeFileSync(path.join(root, "lib", "more.py"), "X = 1\n");
    age(root);
    const s2 = await treeSnapshot(ws, { refresh: true });
    expect(s2.files).toEqual(["lib/empty/.keep", "lib/more.py", "lib/util.py"]);
    expect(await treeSnapshot(ws)).toBe(s2);
    writeFileSync(path.join(root, "later", "late.py"), "from lib.util import helper\n");
    expect((await treeSnapshot(ws)).files).toContain("later/late.py");
  });

  it("an edited .gitignore changes the walk", async () => {
    tree({ "src/a.py": "def a():\n    pass\n", "build/gen.py": "def a():\n    pass\n", ".gitignore": "" });
    const ws = await Workspace.open(root);
    expect((await findSymbol(ws, { name: "a", max_results: 5 })).evidence.map((e) => e.path)).toEqual(["build/gen.py", "src/a.py"]);
    writeFileSync(path.join(root, ".gitignore"), "build/\n");
    expect((await findSymbol(ws, { name: "a", max_results: 5 })).evidence.map((e) => e.path)).toEqual(["src/a.py"]);
    expect((await treeSnapshot(ws)).files).toEqual([".gitignore", "src/a.py"]);
  });

  it("an edited configuration file (go.mod) changes resolution without a new file", async () => {
    tree({
      "go.mod": "module example.com/old\n",
      "store/store.go": "package store\n",
      "main.go": 'package main\n\nimport "example.com/new/store"\n',
    });
    const ws = await Workspace.open(root);
    const before = await findImporters(ws, { module_name: "store/store.go", max_results: 5 });
    expect(before.evidence).toEqual([]);
    writeFileSync(path.join(root, "go.mod"), "module example.com/new\n");
    const after = await findImporters(ws, { module_name: "store/store.go", max_results: 5 });
    expect(after.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`)).toEqual(["main.go:3 example.com/new/store"]);
  });

  it("a file that the ripgrep prefilter sees but the list lacks makes the query walk again", async () => {
    tree({ "a.py": "def alpha():\n    pass\n" });
    const ws = await Workspace.open(root);
    await treeSnapshot(ws);
    // a new file whose folder mtime does not move (set back at once): only the prefilter sees it
    writeFileSync(path.join(root, "b.py"), "def alpha():\n    pass\n");
    utimesSync(root, PAST, PAST);
    expect((await findSymbol(ws, { name: "alpha", max_results: 5 })).evidence.map((e) => e.path)).toEqual(["a.py", "b.py"]);
  });
});

describe("tree state kept for later processes", () => {
  it("a new process reuses the walked list without walking while nothing changed, and walks again after a change", async () => {
    tree({ "pkg/__init__.py": "", "pkg/a.py": "X = 1\n", "main.py": "import pkg.a\n" });
    const first = await Workspace.open(root);
    const walks = vi.spyOn(Workspace.prototype, "walkPaths");
    try {
      expect((await treeSnapshot(first)).files).toEqual(["main.py", "pkg/__init__.py", "pkg/a.py"]);
      expect(walks).toHaveBeenCalledTimes(1);
      FactIndex.closeShared(); // as a new process would

      const second = await Workspace.open(root);
      expect((await treeSnapshot(second)).files).toEqual(["main.py", "pkg/__init__.py", "pkg/a.py"]);
      expect(walks).toHaveBeenCalledTimes(1);
      FactIndex.closeShared();

      // a new file changes its folder's mtime: the kept list is not used
      writeFileSync(path.join(root, "pkg/b.py"), "Y = 1\n");
      age(root);
      utimesSync(path.join(root, "pkg"), new Date(PAST.getTime() + 60_000), new Date(PAST.getTime() + 60_000));
      const third = await Workspace.open(root);
      expect((await treeSnapshot(third)).files).toEqual(["main.py", "pkg/__init__.py", "pkg/a.py", "pkg/b.py"]);
      expect(walks).toHaveBeenCalledTimes(2);
    } finally {
      walks.mockRestore();
      FactIndex.closeShared();
    }
  });

  it("a walk that saw a recently changed folder is not kept", async () => {
    tree({ "a.py": "X = 1\n" });
    utimesSync(root, new Date(), new Date()); // racy: changed within the walk's window
    const walks = vi.spyOn(Workspace.prototype, "walkPaths");
    try {
      await treeSnapshot(await Workspace.open(root));
      FactIndex.closeShared();
      await treeSnapshot(await Workspace.open(root));
      expect(walks).toHaveBeenCalledTimes(2);
    } finally {
      walks.mockRestore();
      FactIndex.closeShared();
    }
  });
});

describe("reads and kept values of a view", () => {
  it("reads a file without readText's thread-pool steps; a refused one is asked of readText, which counts it once", async () => {
    tree({ "com/shop/Item.java": "package com.shop;\nclass Item {}\n", "blob.bin": "" });
    writeFileSync(path.join(root, "blob.bin"), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
    const ws = await Workspace.open(root);
    const view = createProjectView(ws, ["com/shop/Item.java", "blob.bin"]);
    const read = vi.spyOn(Workspace.prototype, "readText");
    try {
      expect(await view.readText("com/shop/Item.java")).toBe("package com.shop;\nclass Item {}\n");
      expect(read).not.toHaveBeenCalled();
      expect(await view.readText("blob.bin")).toBeUndefined();
      expect(read.mock.calls.map((c) => c[0])).toEqual(["blob.bin"]);
      expect(ws.skipped.binary).toBe(1);
      // read once per view
      expect(await view.readText("blob.bin")).toBeUndefined();
      expect(read).toHaveBeenCalledTimes(1);
      expect(ws.skipped.binary).toBe(1);
    } finally {
      read.mockRestore();
    }
  });

  it("saveDerived keeps nothing over maxChars and says so; what it keeps loads back in a later process", async () => {
    tree({ "a.py": "X = 1\n" });
    const view = (await treeSnapshot(await Workspace.open(root))).view;
    const value = [["a.py", { n: 1, s: "x\u2028\"y\"" }]];
    expect(saveDerived(view, "test:big", value, JSON.stringify(value).length - 1)).toBe(false);
    expect(saveDerived(view, "test:fits", value, JSON.stringify(value).length)).toBe(true);
    FactIndex.closeShared(); // as a new process would
    try {
      const later = (await treeSnapshot(await Workspace.open(root))).view;
      expect(loadDerived(later, "test:big")).toBeUndefined();
      expect(loadDerived(later, "test:fits")).toEqual(value);
    } finally {
      FactIndex.closeShared();
    }
  });
});
