/**
 * The two tiers of facts (`src/evidence/analysis/facts.ts` `FactsTier`), seen through the tools:
 * `find_symbol` and `find_importers` parse files without their references; `find_references`
 * computes the references of the files it reads once and keeps them in the cache beside the
 * definitions; an edit drops both for that file alone. Parses are counted with `factsStats()`;
 * the tree's mtimes lie in the past so that no entry is "racy".
 */
import { mkdtempSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factsStats, loadFacts } from "../../src/evidence/analysis/facts.js";
import { findImporters } from "../../src/evidence/importers.js";
import { findReferences } from "../../src/evidence/references.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { statFiles } from "../../src/evidence/analysis/project-view.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const N = 12;
let tmp = "";
let root = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

const file = (i: number) => `app/mod${i}.py`;
const source = (i: number) => (i === 0 ? "def helper():\n    return 0\n" : `from app.mod0 import helper\n\n\ndef run_${i}():\n    return helper() + ${i}\n`);

function write(rel: string, text: string, mtime = PAST): void {
  putDatedFile(root, rel, text, mtime);
}

async function counting<T>(fn: () => Promise<T>): Promise<{ value: T; parsed: number }> {
  const before = factsStats().parsed;
  const value = await fn();
  return { value, parsed: factsStats().parsed - before };
}

const refsOfHelper = (ws: Workspace) => findReferences(ws, { name: "helper", path: file(0), max_results: 50 });
const lines = (r: { evidence: { path: string; start_line: number }[] }) => r.evidence.map((e) => `${e.path}:${e.start_line}`);

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-tiers-"));
  root = path.join(tmp, "tree");
  write("app/__init__.py", "");
  for (let i = 0; i < N; i++) write(file(i), source(i));
  utimesSync(path.join(root, "app"), PAST, PAST);
  utimesSync(root, PAST, PAST);
});

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("fact tiers", () => {
  it("symbol and importers parse without references; refs computes them once; an edit re-parses one file", async () => {
    process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache-a");
    const ws = await Workspace.open(root);
    const sym = await counting(() => findSymbol(ws, { name: "helper", max_results: 50 }));
    expect(lines(sym.value)).toEqual(["app/mod0.py:1"]);
    // Every module mentions `helper`; only mod0 may define it (the others import and call it: the
    // definition screen of definition-scan.ts leaves them unparsed).
    expect(sym.parsed).toBe(1);
    const files = statFiles(ws, Array.from({ length: N }, (_, i) => file(i)));
    const defsOnly = await loadFacts(ws, files);
    expect(defsOnly.parsed).toEqual(files.map((f) => f.path).filter((p) => p !== file(0)));
    expect([...defsOnly.values()].every((f) => f.references === undefined)).toBe(true);

    const imp = await counting(() => findImporters(ws, { module_name: "app.mod0", max_results: 50 }));
    expect(imp.value.total).toBe(N - 1);
    expect(imp.parsed).toBe(0);

    const refs = await counting(() => refsOfHelper(ws));
    expect(refs.parsed).toBe(N); // the references were never computed
    expect(refs.value.total).toBe(2 * (N - 1)); // the import and the call of each importer
    expect(lines(refs.value).slice(0, 2)).toEqual(["app/mod1.py:1", "app/mod1.py:5"]);
    expect((await counting(() => refsOfHelper(ws))).parsed).toBe(0);
    expect((await counting(() => findSymbol(ws, { name: "helper", max_results: 50 }))).parsed).toBe(0);
    const withRefs = await loadFacts(ws, files, undefined, "references");
    expect(withRefs.parsed).toEqual([]);
    expect(withRefs.get(file(3))?.references?.uses.map((u) => `${u.path.join(".")}:${u.line}`)).toContain("helper:5");

    // a new process reads both tiers from disk
    FactIndex.closeShared();
    const ws2 = await Workspace.open(root);
    const cold = await counting(() => refsOfHelper(ws2));
    expect(cold.parsed).toBe(0);
    expect(cold.value).toEqual(refs.value);

    // an edit: the importers query reads the edited file's import statements again without
    // parsing (lang/python-imports.ts), and the references query re-parses that file alone
    write(file(5), `from app.mod0 import helper\n\n\n\ndef run_5():\n    return helper() + 5\n`, new Date(PAST.getTime() + 60_000));
    const reImported = await counting(() => findImporters(ws2, { module_name: "app.mod0", max_results: 50 }));
    expect(reImported.parsed).toBe(0);
    expect(reImported.value.total).toBe(N - 1);
    const edited = await counting(() => refsOfHelper(ws2));
    expect(edited.parsed).toBe(1);
    expect(lines(edited.value)).toContain("app/mod5.py:6");
    expect(lines(edited.value)).not.toContain("app/mod5.py:5");
  });

  it("a references query on an empty cache gives the same records as after the definitions queries", async () => {
    FactIndex.closeShared();
    process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache-b");
    const ws = await Workspace.open(root);
    const first = await counting(() => refsOfHelper(ws));
    expect(first.parsed).toBe(N);
    FactIndex.closeShared();
    process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache-a");
    const after = await refsOfHelper(await Workspace.open(root));
    expect(after).toEqual(first.value);
  });
});
