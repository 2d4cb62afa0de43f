/**
 * find_references parses the C/C++ files that mention a name only where the name is written
 * (`lang/c-focus.ts`, `FactsMap.focused`) on a first query, and loads more of a file only when a
 * lookup needs it. The answer must be the one the whole files give: every definition of the fixture
 * (`test/fixtures/references/cpp-focus`: namespaces, `extern "C"` inside `#ifdef`, header guards,
 * classes and bases, out-of-line members, constructors, operators, macros, templates, lambdas, raw
 * strings and characters holding braces, digit separators, a conditional that splits braces, a
 * macro at top level without `;`) is asked for on a tree whose fact cache is empty and on a copy
 * whose files were loaded whole beforehand, and both answers are compared.
 */
import { cpSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factsStats, loadFacts } from "../../src/evidence/analysis/facts.js";
import { statFiles } from "../../src/evidence/analysis/project-view.js";
import { findReferences } from "../../src/evidence/references.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/references/cpp-focus", import.meta.url));

let tmp = "";
let focusedRoot = "";
let wholeRoot = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

function filesOf(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? filesOf(p, base) : [path.relative(base, p).split(path.sep).join("/")];
  });
}

/** The answer of `refs` as the CLI prints it with `--all --json` (or its error). */
async function answer(root: string, name: string, file: string): Promise<string> {
  try {
    const r = await findReferences(await Workspace.open(root), { name, path: file, max_results: 1000 });
    return JSON.stringify(r);
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-focus-"));
  focusedRoot = path.join(tmp, "focused");
  wholeRoot = path.join(tmp, "whole");
  cpSync(FIXTURE, focusedRoot, { recursive: true });
  cpSync(FIXTURE, wholeRoot, { recursive: true });
  process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
});

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("find_references: files parsed only where the names are written", () => {
  it("a first query parses whole only the files it must", async () => {
    const before = factsStats();
    const r = await findReferences(await Workspace.open(focusedRoot), { name: "ledger_alloc", path: "src/ledger.c", max_results: 1000 });
    expect(r.evidence.map((e) => `${e.path}:${e.start_line}`)).toEqual([
      "legacy/odd.cpp:17",
      "src/money.cpp:15",
      "src/money.cpp:23",
      "src/report.c:17",
      "src/report.c:26",
      "src/teller.cpp:24",
    ]);
    // Six files mention the name. Parsed whole: the target's file, ledger.h (`extern "C" {` opened
    // inside `#ifdef`), odd.cpp (a conditional that splits braces), and money.hpp twice (not a
    // mentioning file: its definitions, then its classes). report.c, money.cpp and teller.cpp are
    // parsed only where `ledger_alloc` is written; teller.cpp then whole too (the call is in a method
    // of `teller::Session`, whose bases are asked of the class body elsewhere in the file). Whole
    // before: 8.
    const after = factsStats();
    expect(after.focused - before.focused).toBe(3);
    expect(after.parsed - after.focused - (before.parsed - before.focused)).toBe(6);
  });

  it("gives for every definition of the fixture the answer the whole files give", async () => {
    const ws = await Workspace.open(wholeRoot);
    const files = filesOf(wholeRoot).sort();
    // The whole files' facts, references included, in the fact cache: the queries below read them.
    const whole = await loadFacts(ws, statFiles(ws, files), undefined, "references");
    const queries = new Set<string>();
    for (const [file, f] of whole) {
      for (const s of f.symbols) queries.add(JSON.stringify([s.container === undefined ? s.name : `${s.container}.${s.name}`, file]));
    }
    expect(queries.size).toBeGreaterThanOrEqual(40);
    const differ: string[] = [];
    let found = 0;
    for (const q of [...queries].sort()) {
      const [name, file] = JSON.parse(q) as [string, string];
      // Each query on a fresh copy of the focused tree's cache state: no kept answer, no facts.
      const root = path.join(tmp, `q${found++}`);
      cpSync(FIXTURE, root, { recursive: true });
      const [a, b] = [await answer(root, name, file), await answer(wholeRoot, name, file)];
      if (a !== b) differ.push(`${name} (${file})\n  focused: ${a.slice(0, 400)}\n  whole:   ${b.slice(0, 400)}`);
    }
    expect(differ).toEqual([]);
  }, 120_000);
});
