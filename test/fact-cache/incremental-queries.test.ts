/**
 * The cache behind `loadFacts`, seen through the tools: touching one file
 * of a 5,000-file tree and querying again re-parses (or, for find_importers, which reads Python
 * import statements from the text, `lang/python-imports.ts`, re-reads) only that file. Parses are
 * counted with `factsStats()`, reads with a spy on `python.lexicalImports`; the tree's mtimes lie
 * in the past so that no entry is "racy".
 */
import { mkdtempSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { factsStats, factsVersion } from "../../src/evidence/analysis/facts.js";
import { python } from "../../src/evidence/analysis/lang/python.js";
import { findImporters } from "../../src/evidence/importers.js";
import { findReferences } from "../../src/evidence/references.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const N = 5000;
let tmp = "";
let root = "";
let ws: Workspace;
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

const file = (i: number) => `app/pkg${Math.floor(i / 100)}/mod${i % 100}.py`;
/**
 * A trailing comment of 200 characters: the 5,000 modules make about 1.3 MB to parse, past the
 * bytes a load needs before worker threads help (`POOL_THRESHOLD_BYTES`, 768 KB, of
 * `src/evidence/analysis/facts.ts`); without it the tree held 350 KB and no worker ever started.
 */
const PAD = `# ${"-".repeat(197)}\n`;
const source = (i: number) => (i === 0 ? `def helper():\n    return 0\n${PAD}` : `from app.pkg0.mod0 import helper\n\n\ndef run_${i}():\n    return helper()\n${PAD}`);

function write(rel: string, text: string, mtime = PAST): void {
  putDatedFile(root, rel, text, mtime);
}

/** Parses (and other counters) caused by `fn`. */
async function counting<T>(fn: () => Promise<T>): Promise<{ value: T; parsed: number; rehashed: number }> {
  const before = factsStats();
  const value = await fn();
  const after = factsStats();
  return { value, parsed: after.parsed - before.parsed, rehashed: after.rehashed - before.rehashed };
}

const importersOfHelper = () => findImporters(ws, { module_name: "app.pkg0.mod0", max_results: 5 });
const lexicalReads = () => vi.spyOn(python, "lexicalImports");

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-incr-"));
  root = path.join(tmp, "tree");
  process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
  write("app/__init__.py", "");
  for (let p = 0; p < N / 100; p++) write(`app/pkg${p}/__init__.py`, "");
  for (let i = 0; i < N; i++) write(file(i), source(i));
  // folders too: nothing may look recently changed
  for (let p = 0; p < N / 100; p++) utimesSync(path.join(root, `app/pkg${p}`), PAST, PAST);
  utimesSync(path.join(root, "app"), PAST, PAST);
  utimesSync(root, PAST, PAST);
  ws = await Workspace.open(root);
});

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("find_importers / find_symbol over a 5,000-file tree, through the fact cache", () => {
  afterEach(() => vi.restoreAllMocks());

  it("reads every candidate's imports once, parses none; refs parses every file once (worker threads helping), then nothing; an edited file alone is read or parsed again", async () => {
    let reads = lexicalReads();
    const first = await counting(importersOfHelper);
    expect(first.value.total).toBe(N - 1);
    expect(first.value.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`)).toEqual([
      "app/pkg0/mod1.py:1 app.pkg0.mod0",
      "app/pkg0/mod10.py:1 app.pkg0.mod0",
      "app/pkg0/mod11.py:1 app.pkg0.mod0",
      "app/pkg0/mod12.py:1 app.pkg0.mod0",
      "app/pkg0/mod13.py:1 app.pkg0.mod0",
    ]);
    // the 4,999 importers mention `mod0`: each one's imports are read from its text, none is parsed
    expect(reads).toHaveBeenCalledTimes(N - 1);
    expect(first.parsed).toBe(0);

    reads.mockClear();
    const again = await counting(importersOfHelper);
    expect(reads).not.toHaveBeenCalled();
    expect(again.parsed).toBe(0);
    expect(again.value.total).toBe(N - 1);

    // refs parses every module that mentions `helper` (all 5,000) once, worker threads helping
    const refs = await counting(() => findReferences(ws, { name: "helper", path: file(0), max_results: 5 }));
    expect(refs.parsed).toBe(N);
    expect(refs.value.total).toBe(2 * (N - 1)); // the import and the call of each importer
    expect(factsStats().parsedInWorkers).toBeGreaterThan(0);
    expect(factsStats().parsedInWorkers).toBeLessThan(N);

    // the same facts serve find_symbol: nothing is parsed
    const sym = await counting(() => findSymbol(ws, { name: "run_4321", max_results: 5 }));
    expect(sym.parsed).toBe(0);
    expect(sym.value.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line} ${e.name}`)).toEqual(["app/pkg43/mod21.py:4-5 run_4321"]);

    // edit one importer: its import moves down a line; only it is read again
    write(file(1), `# edited\n${source(1)}`, new Date(PAST.getTime() + 60_000));
    reads.mockClear();
    const edited = await counting(importersOfHelper);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(edited.parsed).toBe(0);
    expect(edited.value.total).toBe(N - 1);
    expect(edited.value.evidence[0]).toMatchObject({ path: "app/pkg0/mod1.py", start_line: 2, snippet: "from app.pkg0.mod0 import helper" });

    // edit another so that it no longer imports the module: it is no candidate any more (not read),
    // and find_symbol, which needs it, parses it once
    write(file(2345), "def run_2345():\n    return 2345\n", new Date(PAST.getTime() + 60_000));
    reads.mockClear();
    const dropped = await counting(importersOfHelper);
    expect(reads).not.toHaveBeenCalled();
    expect(dropped.parsed).toBe(0);
    expect(dropped.value.total).toBe(N - 2);
    const moved = await counting(() => findSymbol(ws, { name: "run_2345", max_results: 5 }));
    expect(moved.parsed).toBe(1);
    expect(moved.value.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line}`)).toEqual(["app/pkg23/mod45.py:1-2"]);

    // touch another (mtime only): read again, nothing parsed, the same answer
    utimesSync(path.join(root, file(777)), new Date(PAST.getTime() + 120_000), new Date(PAST.getTime() + 120_000));
    reads.mockRestore();
    reads = lexicalReads();
    const touched = await counting(importersOfHelper);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(touched.parsed).toBe(0);
    expect(touched.value.total).toBe(N - 2);
  });

  it("a new process (the in-memory layer gone) reads the facts from the on-disk cache", async () => {
    FactIndex.closeShared();
    const fresh = await Workspace.open(root);
    const r = await counting(() => findImporters(fresh, { module_name: "app.pkg0.mod0", max_results: 5 }));
    expect(r.parsed).toBe(0);
    expect(r.value.total).toBe(N - 2);
  });

  it("keys the cache by codecite's version, the extractor schema and the grammar versions", () => {
    const v = factsVersion();
    expect(v).toMatch(/^0\.\d+\.\d+\+s\d+\+web-tree-sitter@0\.25\.10\+tree-sitter-python@0\.25\.0\+/);
    expect(v).toContain("tree-sitter-rust@0.24.0");
    expect(v).toMatch(/\+x[0-9a-f]{8}$/);
  });
});
