/**
 * find_symbol and find_importers on a warm fact cache answer the text prefilter from the
 * remembered mentions (`analysis/mention-index.ts`) instead of a ripgrep run, and still answer
 * exactly as a query on an empty cache (which runs ripgrep) after every kind of change to the tree:
 * an edit that adds or removes the name, a new file, a deleted file, a same-size edit within the
 * racy window, a binary file, and a new file deep in a folder the tree snapshot does not watch.
 * Each warm query runs as a new process would: the shared store is closed and a new Workspace
 * opened, so everything comes from the cache on disk.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { literalMatch, mentionStats } from "../../src/evidence/analysis/mention-index.js";
import { findImporters } from "../../src/evidence/importers.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

let tmp = "";
let root = "";
let freshCount = 0;
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

/** Writes a file; `mtime` null keeps the real (current) time. Folders written to get an old mtime again when `settle`. */
function write(rel: string, text: string | Buffer, mtime: Date | null = PAST): void {
  putDatedFile(root, rel, text, mtime);
}

let settled = 0;
/**
 * Gives every folder on the way to `rel` an old mtime, another one each time (a folder's new entry
 * shows as a new mtime), so that the walk after a change is not racy and is kept.
 */
function settle(rel: string): void {
  const when = new Date(Date.UTC(2023, 0, 1, 0, ++settled));
  for (let d = path.dirname(rel); ; d = path.dirname(d)) {
    utimesSync(path.join(root, d === "." ? "" : d), when, when);
    if (d === ".") break;
  }
}

type Query = { kind: "symbol"; name: string } | { kind: "importers"; module: string };

async function run(q: Query, cacheDir: string): Promise<{ text: string; ripgrep: number }> {
  FactIndex.closeShared();
  process.env.CODECITE_CACHE_DIR = cacheDir;
  const ws = await Workspace.open(root);
  const before = mentionStats().ripgrepRuns;
  const result = q.kind === "symbol" ? await findSymbol(ws, { name: q.name, max_results: 50 }) : await findImporters(ws, { module_name: q.module, max_results: 50 });
  return { text: JSON.stringify(result), ripgrep: mentionStats().ripgrepRuns - before };
}

/** The warm answer (the cache kept across queries) and the answer on an empty cache. */
async function both(q: Query): Promise<{ warm: string; fresh: string; ripgrep: number }> {
  const warm = await run(q, path.join(tmp, "cache-warm"));
  const fresh = await run(q, path.join(tmp, `cache-fresh-${freshCount++}`));
  return { warm: warm.text, fresh: fresh.text, ripgrep: warm.ripgrep };
}

const SYMBOL: Query = { kind: "symbol", name: "build_index" };
const IMPORTERS: Query = { kind: "importers", module: "lib.core" };

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-mention-warm-"));
  root = path.join(tmp, "tree");
  write("lib/core.py", "def build_index():\n    return 1\n");
  for (let i = 0; i < 12; i++) write(`app/m${i}.py`, i % 4 === 0 ? "from lib.core import build_index\n\nbuild_index()\n" : `def other_${i}():\n    return ${i}\n`);
  write("notes.txt", "build_index in a text file\n");
  for (const d of ["lib", "app", ""]) utimesSync(path.join(root, d), PAST, PAST);
});

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("warm symbol and importers queries without ripgrep", () => {
  it("a warm query on an unchanged tree runs no ripgrep and answers as an empty cache does", async () => {
    for (const q of [SYMBOL, IMPORTERS]) {
      await run(q, path.join(tmp, "cache-warm")); // fills the cache
      const r = await both(q);
      expect(r.warm).toBe(r.fresh);
      expect(r.ripgrep).toBe(0);
    }
    expect(JSON.parse((await both(SYMBOL)).warm).evidence.map((e: { path: string }) => e.path)).toEqual(["lib/core.py"]);
  });

  it("an edit that adds a definition: the symbol query reads that file alone; importers (regex needles) runs ripgrep", async () => {
    write("app/m1.py", "from lib.core import build_index as b\n\ndef build_index():\n    return 2\n", new Date(Date.UTC(2022, 0, 1)));
    const s = await both(SYMBOL);
    expect(s.warm).toBe(s.fresh);
    expect(s.ripgrep).toBe(0);
    expect(JSON.parse(s.warm).evidence.map((e: { path: string }) => e.path)).toEqual(["app/m1.py", "lib/core.py"]);
    const i = await both(IMPORTERS);
    expect(i.warm).toBe(i.fresh);
    expect(i.ripgrep).toBe(1);
    expect(JSON.parse(i.warm).evidence.map((e: { path: string }) => e.path)).toContain("app/m1.py");
  });

  it("an edit that removes the name", async () => {
    write("app/m1.py", "x = 1\n", new Date(Date.UTC(2022, 0, 2)));
    write("app/m4.py", "y = 2\n", new Date(Date.UTC(2022, 0, 2)));
    for (const q of [SYMBOL, IMPORTERS]) {
      const r = await both(q);
      expect(r.warm).toBe(r.fresh);
      expect(r.warm).not.toContain("app/m4.py");
    }
  });

  it("a new file and a deleted one", async () => {
    write("app/sub/new.py", "import lib.core\n\ndef build_index():\n    pass\n");
    rmSync(path.join(root, "app/m8.py"));
    settle("app/sub/new.py");
    for (const q of [SYMBOL, IMPORTERS]) {
      const r = await both(q);
      expect(r.warm).toBe(r.fresh);
      expect(r.warm).toContain("app/sub/new.py");
      expect(r.warm).not.toContain("app/m8.py");
    }
    const again = await both(SYMBOL);
    expect(again.ripgrep).toBe(0);
  });

  it("a same-size edit within the racy window is seen", async () => {
    write("app/racy.py", "xxxxxxxxxxxxxxxxxxxxx\n", null);
    settle("app/racy.py");
    const r1 = await both(SYMBOL);
    expect(r1.warm).toBe(r1.fresh);
    expect(r1.warm).not.toContain("app/racy.py");
    write("app/racy.py", "def build_index(): 1\n", null); // same size, same moment
    const r2 = await both(SYMBOL);
    expect(r2.warm).toBe(r2.fresh);
    expect(r2.warm).toContain("app/racy.py");
  });

  it("a changed file with a NUL byte is left to ripgrep (its binary detection decides)", async () => {
    write("app/m2.py", Buffer.concat([Buffer.from("def build_index():\n    pass\n"), Buffer.from([0, 1, 2])]), new Date(Date.UTC(2022, 0, 3)));
    const r = await both(SYMBOL);
    expect(r.warm).toBe(r.fresh);
    expect(r.ripgrep).toBe(1);
  });

  it("a new file deep in a folder the snapshot does not watch: the list is not complete, so ripgrep runs and finds it", async () => {
    mkdirSync(path.join(root, "deep/a/b/c"), { recursive: true });
    settle("deep/a/b/c/x");
    const r1 = await both(SYMBOL);
    expect(r1.warm).toBe(r1.fresh);
    expect(r1.ripgrep).toBe(1);
    write("deep/a/b/c/late.py", "def build_index():\n    return 3\n");
    utimesSync(path.join(root, "deep/a/b/c"), PAST, PAST); // an unwatched folder: no watched folder changed
    const r2 = await both(SYMBOL);
    expect(r2.warm).toBe(r2.fresh);
    expect(r2.warm).toContain("deep/a/b/c/late.py");
  });
});

describe("literalMatch", () => {
  const needles = [Buffer.from("build_index")];
  it("is a byte substring test for plain files", () => {
    expect(literalMatch(Buffer.from("x = build_index()\n"), needles)).toBe(true);
    expect(literalMatch(Buffer.from("x = build_indeX()\n"), needles)).toBe(false);
    expect(literalMatch(Buffer.from([0xc3, 0x28, ...Buffer.from(" build_index")]), needles)).toBe(true); // invalid UTF-8 around it
  });
  it("leaves files ripgrep treats specially to ripgrep", () => {
    expect(literalMatch(Buffer.from("build_index\0"), needles)).toBeUndefined();
    expect(literalMatch(Buffer.from("\0build_index"), needles)).toBeUndefined();
    expect(literalMatch(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("b\0u\0")]), needles)).toBeUndefined();
    expect(literalMatch(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("\0b\0u")]), needles)).toBeUndefined();
    expect(literalMatch(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("build_index")]), needles)).toBeUndefined();
  });
});
