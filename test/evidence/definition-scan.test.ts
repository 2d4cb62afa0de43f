/**
 * The lexical definition screen (`src/evidence/analysis/definition-scan.ts`) that lets
 * `find_symbol` skip parsing files that only use a name:
 *
 * - it never rules out a file for a name the extractor finds defined there: on every fixture
 *   repository with Python files (and the checkouts in `CODECITE_SCAN_REPOS`, `:`-separated), each
 *   definition the tree-sitter extraction reports is checked against the screen for its name;
 * - the screen's answers on hand-written sources, both ways;
 * - `find_symbol` gives the same records with and without it, and parses fewer files.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mayDefine } from "../../src/evidence/analysis/definition-scan.js";
import { factsStats, loadFacts } from "../../src/evidence/analysis/facts.js";
import { familyOf, languageFor } from "../../src/evidence/analysis/lang/index.js";
import type { LanguageSpec } from "../../src/evidence/analysis/lang/language.js";
import { extractFacts } from "../../src/evidence/analysis/tree-sitter.js";
import { statFiles, treeSnapshot } from "../../src/evidence/analysis/project-view.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures");
const FIXTURE_REPOS = ["python-multi-root", "python-src-layout", "references"];
const extraRepos = (process.env.CODECITE_SCAN_REPOS ?? "").split(path.delimiter).filter((p) => p !== "");

/** Every definition the extraction finds in `root` whose file the screen would rule out for its name; and how many were checked. */
async function droppedDefinitions(root: string): Promise<{ dropped: string[]; checked: number }> {
  const ws = await Workspace.open(root);
  const files = (await treeSnapshot(ws)).files.filter((f) => languageFor(f)?.id === "python");
  const facts = await loadFacts(ws, statFiles(ws, files));
  const dropped: string[] = [];
  let checked = 0;
  for (const [file, fileFacts] of facts) {
    const lang = languageFor(file) as LanguageSpec;
    const source = readFileSync(path.join(root, file), "utf8").replace(/\r\n/g, "\n");
    for (const def of fileFacts.symbols) {
      checked++;
      if (!mayDefine(familyOf(lang), source, def.name)) dropped.push(`${file}:${def.start_line} ${def.kind} ${def.name}`);
    }
  }
  return { dropped, checked };
}

describe("definition scan: never rules out a definition the extractor finds", () => {
  for (const name of FIXTURE_REPOS) {
    it(`fixture ${name}`, async () => {
      const { dropped, checked } = await droppedDefinitions(path.join(FIXTURES, name));
      expect(checked).toBeGreaterThan(5);
      expect(dropped).toEqual([]);
    });
  }
  for (const root of extraRepos) {
    it(`checkout ${path.basename(root)}`, { timeout: 600_000 }, async () => {
      const { dropped, checked } = await droppedDefinitions(root);
      expect(checked).toBeGreaterThan(0);
      expect(dropped).toEqual([]);
    });
  }
});

/** The names the Python extractor defines in `source`. */
async function pythonDefinitions(source: string): Promise<string[]> {
  const facts = await extractFacts(languageFor("x.py") as LanguageSpec, source, { references: false });
  return facts.symbols.map((s) => s.name);
}

describe("definition scan: Python", () => {
  // Each source defines `Target` (the extractor agrees, so the case is a real definition).
  const defining = [
    "class Target:\n    pass\n",
    "class Target(Base):\n    pass\n",
    "def Target():\n    pass\n",
    "async def Target(x):\n    return x\n",
    "@decorator\ndef Target(): pass\n",
    "Target = 1\n",
    "Target: int = 1\n",
    "Target: int\n",
    "a = Target = 2\n",
    "a, Target = 1, 2\n",
    "Target, a = 1, 2\n",
    "(a, Target) = (1, 2)\n",
    "Target \\\n  = 3\n",
    "def \\\n  Target(): pass\n",
    "type Target = int\n",
    "class C:\n    def Target(self): pass\n",
    "x = '#'; def_ = 1\nclass Target: pass\n",
    "def # a comment\n Target(): pass\n",
    "if True:\n    Target = 1\n",
    "Target = lambda: 1\n",
  ];
  for (const source of defining) {
    it(`keeps ${JSON.stringify(source)}`, async () => {
      expect(await pythonDefinitions(source)).toContain("Target");
      expect(mayDefine("python", source, "Target")).toBe(true);
    });
  }

  // Each source only uses `Target` (the extractor finds no definition of it).
  const using = [
    "from pkg.mod import Target\n",
    "import Target\n",
    "x = Target()\n",
    "Target.build()\n",
    "obj.Target = 3\n",
    "x = obj.Target\n",
    "print(Target .value)\n",
    "if x == Target:\n    pass\n",
    "f(x, Target.y)\n",
    "x += Target\n",
    "return Target, 1\n",
    "def f(): return Target(1)\n",
    "TargetBuilder = 1\nMyTarget = 2\n",
    "x = 'Target' + y\n",
  ];
  for (const source of using) {
    it(`rules out ${JSON.stringify(source)}`, async () => {
      expect(await pythonDefinitions(source)).not.toContain("Target");
      expect(mayDefine("python", source, "Target")).toBe(false);
    });
  }

  it("keeps files of languages without a screen, and names that are not ASCII identifiers", () => {
    expect(mayDefine("js", "x = Target()\n", "Target")).toBe(true);
    expect(mayDefine("python", "x = Tärget()\n", "Tärget")).toBe(true);
    expect(mayDefine("python", "x = 1\n", "a-b")).toBe(true);
  });
});

describe("find_symbol with the definition screen", () => {
  it("parses only the files that may define the name, with the same records", async () => {
    const { findSymbol } = await import("../../src/evidence/symbols.js");
    // A copy, so that no facts of it are cached yet in this process.
    const root = mkdtempSync(path.join(tmpdir(), "codecite-defscan-"));
    cpSync(path.join(FIXTURES, "python-src-layout"), root, { recursive: true });
    const ws = await Workspace.open(root);
    const files = (await treeSnapshot(ws)).files.filter((f) => languageFor(f)?.id === "python");
    // Every Python file of the fixture that mentions a name defined in one of them.
    const texts = files.map((f) => [f, readFileSync(path.join(root, f), "utf8")] as const);
    const defined = new Map<string, string[]>();
    for (const [f, t] of texts) for (const name of await pythonDefinitions(t)) defined.set(name, [...(defined.get(name) ?? []), f]);
    const [name] = [...defined].find(([n, defs]) => texts.filter(([, t]) => new RegExp(`\\b${n}\\b`).test(t)).length > defs.length) ?? [];
    expect(name).toBeDefined();
    const before = factsStats().parsed;
    const result = await findSymbol(ws, { name: name as string, max_results: 50 });
    const parsed = factsStats().parsed - before;
    expect(result.evidence.map((e) => e.path).sort()).toEqual([...new Set(defined.get(name as string))].sort());
    const mentioning = texts.filter(([, t]) => new RegExp(`\\b${name}\\b`).test(t)).length;
    expect(parsed).toBeLessThan(mentioning);
    rmSync(root, { recursive: true, force: true });
  });
});

describe("find_symbol: the screen's verdicts kept per file and state (definition-verdicts.ts)", () => {
  const PAST = new Date(Date.UTC(2021, 0, 1));
  const LATER = new Date(Date.UTC(2022, 0, 1));

  it("a ruled-out file is not read again by a later workspace while unchanged; an edit that defines the name is seen", async () => {
    const { findSymbol } = await import("../../src/evidence/symbols.js");
    const { FactIndex } = await import("../../src/fact-cache/fact-index.js");
    const { utimesSync, writeFileSync, mkdirSync } = await import("node:fs");
    const { vi } = await import("vitest");
    const tmp = mkdtempSync(path.join(tmpdir(), "codecite-defkept-"));
    const root = path.join(tmp, "tree");
    const saved = process.env.CODECITE_CACHE_DIR;
    process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
    const write = (rel: string, text: string, mtime = PAST) => {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
      utimesSync(path.join(root, rel), mtime, mtime);
    };
    write("pkg/defs.py", "class Widget:\n    pass\n");
    write("pkg/use.py", "from pkg.defs import Widget\n\n\ndef make():\n    return Widget()\n");
    for (const d of ["pkg", ""]) utimesSync(path.join(root, d), PAST, PAST);
    const where = async () => (await findSymbol(await Workspace.open(root), { name: "Widget", max_results: 50 })).evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`);
    // Reads through readText or its synchronous twin (the fact loader tries readTextSync first).
    const read = vi.spyOn(Workspace.prototype, "readText");
    const readSync = vi.spyOn(Workspace.prototype, "readTextSync");
    const readsOf = (file: string) => [...read.mock.calls, ...readSync.mock.calls].filter(([p]) => p === file).length;
    try {
      const parsed0 = factsStats().parsed;
      expect(await where()).toEqual(["pkg/defs.py:1 Widget"]);
      expect(factsStats().parsed - parsed0).toBe(1); // use.py was read and ruled out, not parsed
      expect(readsOf("pkg/use.py")).toBe(1);
      read.mockClear();
      readSync.mockClear();
      FactIndex.closeShared(); // as a new process: only the on-disk cache remains
      expect(await where()).toEqual(["pkg/defs.py:1 Widget"]);
      expect(readsOf("pkg/use.py")).toBe(0);
      // an edit that makes use.py define the name (same size would not matter: mtime and ctime change)
      write("pkg/use.py", "from pkg.defs import Widget\n\n\nclass Widget:\n    pass\n", LATER);
      FactIndex.closeShared();
      expect(await where()).toEqual(["pkg/defs.py:1 Widget", "pkg/use.py:4 Widget"]);
    } finally {
      read.mockRestore();
      readSync.mockRestore();
      FactIndex.closeShared();
      if (saved === undefined) delete process.env.CODECITE_CACHE_DIR;
      else process.env.CODECITE_CACHE_DIR = saved;
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
