/**
 * Imports read without a parse (`src/evidence/analysis/lexical-imports.ts`): the same imports,
 * lines included, as the facts of a parse give; `find_importers` over C/C++ files parses nothing;
 * the imports are kept for a later process (a new Workspace) and read again only for a file that
 * changed.
 */
import { mkdtempSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { factsStats, loadFacts } from "../../src/evidence/analysis/facts.js";
import { cpp } from "../../src/evidence/analysis/lang/cpp.js";
import { loadLexicalImports, readsImportsLexically, saveLexicalImports } from "../../src/evidence/analysis/lexical-imports.js";
import { statFiles, treeSnapshot } from "../../src/evidence/analysis/project-view.js";
import { findImporters } from "../../src/evidence/importers.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures");
const LATER = new Date(Date.UTC(2022, 0, 1));
let tmp = "";
let root = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line} ${(e.flags ?? []).join(",")} | ${e.snippet.trim()}`);

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-lexical-"));
  root = path.join(tmp, "tree");
  process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
  putDatedFile(root, "include/lib/a.h", "#ifndef A_H\n#define A_H\nint a(void);\n#endif\n");
  putDatedFile(root, "include/lib/b.h", '#pragma once\n#include "lib/a.h"\n');
  putDatedFile(root, "src/main.c", '#include <stdio.h>\n#include \\\n  "lib/a.h"\n#ifdef X\n#include "lib/b.h"\n#endif\nint main(void) { return a(); }\n');
  putDatedFile(root, "src/other.c", '/* #include "lib/a.h" */\nint other;\n');
  for (const d of ["include/lib", "include", "src", ""]) utimesSync(path.join(root, d), PAST, PAST);
});

afterEach(() => vi.restoreAllMocks());

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("lexical imports", () => {
  it("the same imports, with their lines, as the parsed facts, on every C/C++ file of the fixtures", async () => {
    for (const fixture of ["c-project", "references/c", "references/cpp"]) {
      const ws = await Workspace.open(path.join(FIXTURES, fixture));
      const view = (await treeSnapshot(ws)).view;
      const files = view.files.filter(readsImportsLexically);
      expect(files.length).toBeGreaterThan(2);
      const lexical = await loadLexicalImports(ws, view, files);
      const facts = await loadFacts(ws, statFiles(ws, files), undefined, "definitions");
      expect([...lexical.files.keys()]).toEqual([...facts.keys()]);
      for (const [file, f] of facts) expect(lexical.files.get(file)?.imports, file).toEqual(f.imports);
    }
  });

  it("find_importers over C/C++ files parses none of them, and a new workspace reads them again only when changed", async () => {
    const expected = [
      "include/lib/b.h:2-2  | #include \"lib/a.h\"",
      'src/main.c:2-3  | #include \\\n  "lib/a.h"',
    ];
    const before = factsStats();
    expect(where(await findImporters(await Workspace.open(root), { module_name: "include/lib/a.h", max_results: 50 }))).toEqual(expected);
    expect(factsStats().parsed - before.parsed).toBe(0);
    expect(where(await findImporters(await Workspace.open(root), { module_name: "include/lib/b.h", max_results: 50 }))).toEqual(["src/main.c:5-5 conditional | #include \"lib/b.h\""]);

    // A new workspace (a later process): the imports come back kept, none is read again.
    const ws = await Workspace.open(root);
    const view = (await treeSnapshot(ws)).view;
    const lex = vi.spyOn(cpp, "lexicalImports");
    const kept = await loadLexicalImports(ws, view, ["include/lib/b.h", "src/main.c"]);
    expect(lex).not.toHaveBeenCalled();
    expect(kept.files.get("include/lib/b.h")?.imports).toEqual([{ specifier: "lib/a.h", start_line: 2, end_line: 2, lines: ['#include "lib/a.h"'] }]);
    expect(kept.files.get("include/lib/b.h")?.text).toBeUndefined();

    // An edit: only that file is read again.
    putDatedFile(root, "include/lib/b.h", '#pragma once\n\n#include <lib/a.h>\n', LATER);
    const ws2 = await Workspace.open(root);
    const view2 = (await treeSnapshot(ws2)).view;
    const again = await loadLexicalImports(ws2, view2, ["include/lib/b.h", "src/main.c"]);
    expect(lex).toHaveBeenCalledTimes(1);
    expect(again.files.get("include/lib/b.h")).toEqual({ imports: [{ specifier: "lib/a.h", start_line: 3, end_line: 3, flags: ["system"], lines: ["#include <lib/a.h>"] }], text: '#pragma once\n\n#include <lib/a.h>' });
    saveLexicalImports(view2);
  });
});
