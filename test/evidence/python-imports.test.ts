/**
 * Python imports read from the text (`src/evidence/analysis/lang/python-imports.ts`): for each tricky
 * form, the reader and the tree-sitter extractor (`python.ts`) give the same refs, and those are the
 * values written here; text the reader does not follow is left to the parse (`undefined`); on the
 * Python fixtures both give the same imports file by file; `find_importers` over Python files parses
 * none of them. The comparison over whole repositories is
 * `scripts/python-imports-parity.ts`.
 */
import { mkdtempSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factsStats } from "../../src/evidence/analysis/facts.js";
import { scanImports, type ImportScan } from "../../src/evidence/analysis/import-scan.js";
import { pythonImports } from "../../src/evidence/analysis/lang/python-imports.js";
import { python } from "../../src/evidence/analysis/lang/python.js";
import type { ImportRef } from "../../src/evidence/analysis/lang/language.js";
import { extractFacts } from "../../src/evidence/analysis/tree-sitter.js";
import { findImporters } from "../../src/evidence/importers.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { splitLines } from "../../src/evidence/sandbox/text-file.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures");

/** The `.py`/`.pyi` files under `dir`, at any depth. */
function pythonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return pythonFiles(p);
    return /\.pyi?$/.test(e.name) ? [p] : [];
  });
}

/** [specifier, names, alias, start, end, flags]. */
type Row = [string, string[] | null, string | null, number, number, string[] | null];

const rows = (refs: readonly ImportRef[]): Row[] => refs.map((r) => [r.specifier, r.names ?? null, r.alias ?? null, r.start_line, r.end_line, r.flags ?? null]);

const treeImports = async (src: string) => (await extractFacts(python, src, { references: false })).imports;

const CASES: [string, string, Row[]][] = [
  ["import with aliases", "import a.b as c, d\n", [["a.b",null,"c",1,1,null],["d",null,null,1,1,null]]],
  ["whitespace inside a dotted name is kept as written; a trailing comma", "import a . b,\n", [["a . b",null,null,1,1,null]]],
  ["a backslash continuation inside a dotted name (\u00a72.1.5)", "import a.\\\n  b as c\n", [["a.\\\n  b",null,"c",1,2,null]]],
  ["relative imports, parenthesised list over lines with a trailing comma", "from . import x\nfrom .. import (y,\n  z as w,\n)\n", [[".",["x"],null,1,1,null],["..",["y"],null,2,4,null],["..",["z"],"w",2,4,null]]],
  ["relative level written with spaces; a wildcard", "from . . a import *\n", [["..a",["*"],null,1,1,null]]],
  ["__future__ imports, parenthesised", "from __future__ import annotations\nfrom __future__ import (division,\n print_function)\n", [["__future__",["annotations"],null,1,1,null],["__future__",["division"],null,2,3,null],["__future__",["print_function"],null,2,3,null]]],
  ["statements separated by ';' (\u00a77)", "import a; x = 1; from c import d\n", [["a",null,null,1,1,null],["c",["d"],null,1,1,null]]],
  ["one-line compound statements (\u00a78: statements after the header's ':')", "if x: import a\nelse: import b\ntry: import c\nexcept ImportError: import d\n", [["a",null,null,1,1,null],["b",null,null,2,2,null],["c",null,null,3,3,null],["d",null,null,4,4,null]]],
  ["imports in functions and classes", "def f():\n    import a\n    class C:\n        from b import c\n", [["a",null,null,2,2,null],["b",["c"],null,4,4,null]]],
  ["an indented TYPE_CHECKING body (functions below it too), not its else", "if TYPE_CHECKING:\n    import a\n\n    def f():\n        import b\nelse:\n    import c\nimport d\n", [["a",null,null,2,2,["type_checking"]],["b",null,null,5,5,["type_checking"]],["c",null,null,7,7,null],["d",null,null,8,8,null]]],
  ["typing.TYPE_CHECKING flags; elif TYPE_CHECKING does not", "if typing.TYPE_CHECKING:\n    import a\nelif TYPE_CHECKING:\n    import b\n", [["a",null,null,2,2,["type_checking"]],["b",null,null,4,4,null]]],
  ["a one-line TYPE_CHECKING body", "if TYPE_CHECKING: import a; import b\nimport c\n", [["a",null,null,1,1,["type_checking"]],["b",null,null,1,1,["type_checking"]],["c",null,null,2,2,null]]],
  ["parenthesised, negated or compound conditions do not flag; an attribute of a call does", "if (TYPE_CHECKING):\n    import a\nif not TYPE_CHECKING:\n    import b\nif TYPE_CHECKING or X:\n    import c\nif foo().TYPE_CHECKING:\n    import d\n", [["a",null,null,2,2,null],["b",null,null,4,4,null],["c",null,null,6,6,null],["d",null,null,8,8,["type_checking"]]]],
  ["comment lines do not end a TYPE_CHECKING body (\u00a72.1.8)", "if TYPE_CHECKING:\n  # comment at column 0\n# x\n  import a\n  if x:\n      import b\nimport c\n", [["a",null,null,4,4,["type_checking"]],["b",null,null,6,6,["type_checking"]],["c",null,null,7,7,null]]],
  ["an inconsistent dedent ends the TYPE_CHECKING body", "if TYPE_CHECKING:\n    def f():\n        pass\n    import a\n  import b\nimport c\n", [["a",null,null,4,4,["type_checking"]],["b",null,null,5,5,null],["c",null,null,6,6,null]]],
  ["strings and comments hold no imports (\u00a72.4.1, f-string fields)", "x = 'import a'\ny = \"\"\"\nimport b\n\"\"\"\n# import c\nz = f'{x!r:>{w}} import d'\nimport e\n", [["e",null,null,7,7,null]]],
  ["an f-string field reusing the string's quote (PEP 701)", "x = f\"{d[\"k\"]} import a\"\nimport b\n", [["b",null,null,2,2,null]]],
  ["escaped braces, escaped quotes in raw bytes, a backslash-newline in a string", "x = f'{{import a}}' + rb'\\'' + '\\\nimport b'\nimport c\n", [["c",null,null,3,3,null]]],
  ["triple-quoted f-string field over lines; t-strings; \\\\N{...}; a walrus-like format spec", "x = f'''{\n a\n}''' + t'{a} import y' + f\"\\N{DASH} {a:=5}\"\nimport b\n", [["b",null,null,4,4,null]]],
  ["yield from and raise from are no imports", "def f():\n    yield from g()\n    raise X from e\nimport a\n", [["a",null,null,4,4,null]]],
  ["comments inside a parenthesised list; print and soft keywords as names", "from a import (\n    b,  # comment\n    c,\n)\nfrom x import print, match\n", [["a",["b"],null,1,4,null],["a",["c"],null,1,4,null],["x",["print"],null,5,5,null],["x",["match"],null,5,5,null]]],
  ["match/case bodies", "match x:\n    case 1:\n        import a\n    case _:\n        from b import c\n", [["a",null,null,3,3,null],["b",["c"],null,5,5,null]]],
  ["implicit line joining in brackets and explicit joining (\u00a72.1.5-2.1.6)", "x = [\n  1, 2]; import a\ny = \\\n 1\nimport b\n", [["a",null,null,2,2,null],["b",null,null,5,5,null]]],
  ["dynamic imports: import_module, __import__ (not as an attribute)", "import importlib\nm = importlib.import_module(\"a.b\")\nn = __import__(\"c\")\no = builtins.__import__(\"d\")\n", [["importlib",null,null,1,1,null],["a.b",null,null,2,2,["dynamic"]],["c",null,null,3,3,["dynamic"]]]],
  ["relative dynamic imports made absolute by a literal package, positional or keyword", "m = import_module(\".x\", \"pkg.sub\")\nn = import_module(\"..y\", package=\"pkg.sub\")\no = import_module(name='a.b', package='c')\n", [["pkg.sub.x",null,null,1,1,["dynamic"]],["pkg.y",null,null,2,2,["dynamic"]],["a.b",null,null,3,3,["dynamic"]]]],
  ["non-literal arguments are unresolved with their text", "m = import_module(name)\nn = import_module(f\"a.{b}\")\no = import_module(\"a\" \"b\")\np = import_module(*args)\nq = import_module(r'a\\\\.b')\n", [["name",null,null,1,1,["dynamic","unresolved"]],["f\"a.{b}\"",null,null,2,2,["dynamic","unresolved"]],["\"a\" \"b\"",null,null,3,3,["dynamic","unresolved"]],["*args",null,null,4,4,["dynamic","unresolved"]],["r'a\\\\.b'",null,null,5,5,["dynamic","unresolved"]]]],
  ["a call's lines: its statement's when that starts on the call's line and ends within two lines", "x = (importlib\n     .import_module(\"a\"))\nm = importlib.import_module(\n    \"b\",\n)\nn = importlib.import_module(\n    \"c\",\n    \"d\",\n    \"e\",\n)\n", [["a",null,null,1,2,["dynamic"]],["b",null,null,3,5,["dynamic"]],["c",null,null,6,10,["dynamic"]]]],
  ["calls inside literals and lambdas; a definition named import_module is no call; a generator argument is none", "x = {\n  'a': import_module('a'),\n}\nf = lambda: import_module('b')\ndef import_module(name):\n    return name\ny = import_module(x for x in z)\nimport os; m = import_module('c'); import sys\n", [["a",null,null,2,2,["dynamic"]],["b",null,null,4,4,["dynamic"]],["os",null,null,8,8,null],["sys",null,null,8,8,null],["c",null,null,8,8,["dynamic"]]]],
];

describe("python imports read from the text", () => {
  it.each(CASES)("%s: the reader and the parse give the same refs", async (_name, src, expected) => {
    const lexical = pythonImports(src);
    expect(lexical).toBeDefined();
    expect(rows(lexical as ImportRef[])).toEqual(expected);
    expect(lexical).toEqual(await treeImports(src));
  });

  it("leaves to the parse the text it does not follow", async () => {
    expect(pythonImports('y = f\'{import_module("a")}\'\n')).toBeUndefined(); // a call in an f-string field
    expect(pythonImports("if import_module('a'):\n    pass\n")).toBeUndefined(); // a call in a header: its statement spans the body
    expect(pythonImports("@register(import_module('a'))\ndef f(): pass\n")).toBeUndefined(); // in a decorator
    expect(pythonImports("lazy import json\n")).toBeUndefined(); // not §7.11 (PEP 810 draft syntax)
    expect(pythonImports("x = 'open\nimport a\n")).toBeUndefined(); // unterminated string
    expect(pythonImports("x = (1\nimport a\n")).toBeUndefined(); // unbalanced bracket
    expect(pythonImports("x = $y\nimport a\n")).toBeUndefined(); // not a Python token
    expect(pythonImports("from a import async\n")).toBeUndefined(); // a keyword as a name
    expect(pythonImports("x = 1\n")).toEqual([]);
  });

  it("gives the imports of the parse on every Python file of the fixtures", async () => {
    const files = ["python-multi-root", "python-src-layout", "references/python"].flatMap((d) => pythonFiles(path.join(FIXTURES, d)));
    expect(files.length).toBeGreaterThan(20);
    let read = 0;
    for (const file of files) {
      const src = splitLines(readFileSync(file, "utf8")).join("\n");
      const lexical = pythonImports(src);
      if (lexical === undefined) continue;
      read++;
      expect(lexical, file).toEqual(await treeImports(src));
    }
    expect(read).toBeGreaterThan(files.length / 2);
  });
});

/** The scan `pythonImports` hands to `onScan` (with the imports it returns). */
const withScan = (src: string) => {
  let scan: ImportScan | undefined;
  const imports = pythonImports(src, (s) => {
    scan = s;
  });
  return { imports, scan };
};

describe("the import screen's scan, read in the same pass", () => {
  it.each(CASES)("%s: the scan equals the screen's scanner's", (_name, src) => {
    const { imports, scan } = withScan(src);
    expect(imports).toEqual(pythonImports(src));
    expect(scan).toEqual(scanImports("python", src));
  });

  it("gives the statements' text as the scanner does: names, operators, string contents; after ';' and in headers; yield from", () => {
    const src = "import a.b as c; x = 1; from .. import (d,\n  e)\nif x: import f\ny = __import__('g.H')\ndef k():\n    yield from m\n";
    expect(withScan(src).scan).toEqual({
      imports: [
        { text: "import a.b as c", bare: false },
        { text: "from..import(d,e)", bare: true },
        { text: "import f", bare: false },
        { text: "__import__(g.h)", bare: false },
        { text: "from m", bare: false },
      ],
      open: false,
    });
    expect(scanImports("python", src)).toEqual(withScan(src).scan);
  });

  it("equals the scanner's on the forms the scanner reads otherwise, and on text the reader leaves to the parse", () => {
    const texts = [
      "x = ur'a'\nimport a\n", // a prefix the scanner does not take
      "x = `a`\nimport a\n", // a Python 2 backquote
      "x = f'{y:#x}'\nimport a\n", // '#' in a format spec: the scanner reads a comment
      "x = f'\\{y}'\nimport a\n", // '\{' in an f-string
      "m = import_module(f'a.{b}')\n", // an f-string field in a statement
      "x = 1.f'{a'\nimport a\n", // the scanner ends the number at the dot and reads an f-string
      "x = 1.from_\nimport a\n", // the scanner splits the number at the dot
      "import a \\", // a backslash at the end of the text
      "x = 'open\nimport a\n", // left to the parse
      "x = (1\nfrom a import b\n",
      "y = f'{import_module(\"a\")}'\n",
    ];
    for (const src of texts) expect(withScan(src).scan, src).toEqual(scanImports("python", src));
  });

  it("equals the scanner's on every Python file of the fixtures", () => {
    const files = pythonFiles(FIXTURES);
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const src = splitLines(readFileSync(file, "utf8")).join("\n");
      expect(withScan(src).scan, file).toEqual(scanImports("python", src));
    }
  });
});

describe("find_importers over Python files", () => {
  let tmp = "";
  let root = "";
  const savedCacheDir = process.env.CODECITE_CACHE_DIR;
  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), "codecite-pyimports-"));
    root = path.join(tmp, "tree");
    process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
    putDatedFile(root, "pkg/__init__.py", "");
    putDatedFile(root, "pkg/core.py", "X = 1\n");
    putDatedFile(root, "pkg/user.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import core\nimport pkg.core as c\n");
    putDatedFile(root, "pkg/dyn.py", 'import importlib\n\ndef load():\n    return importlib.import_module("pkg.core")\n');
    putDatedFile(root, "pkg/other.py", "# from pkg import core\ns = 'import pkg.core'\nimport os\n");
    for (const d of ["pkg", ""]) utimesSync(path.join(root, d), PAST, PAST);
  });
  afterAll(() => restoreCacheDir(savedCacheDir, tmp));

  it("reads the importers' statements and dynamic imports without parsing any file", async () => {
    const before = factsStats();
    const r = await findImporters(await Workspace.open(root), { module_name: "pkg.core", max_results: 50 });
    expect(r.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line} ${(e.flags ?? []).join(",")}`)).toEqual([
      "pkg/dyn.py:4-4 dynamic",
      "pkg/user.py:3-3 type_checking",
      "pkg/user.py:4-4 ",
    ]);
    expect(factsStats().parsed - before.parsed).toBe(0);
  });
});
