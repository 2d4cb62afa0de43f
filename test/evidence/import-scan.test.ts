/**
 * The lexical import scan (`src/evidence/analysis/import-scan.ts`) that lets `find_importers` skip
 * parsing candidates whose import statements cannot name the module:
 *
 * - it never drops a file the full path finds importing a module: on every fixture repository
 *   (and on the checkouts in `CODECITE_SCAN_REPOS`, `:`-separated, e.g. psf/requests, encode/httpx,
 *   pallets/click, gorilla/mux, jhy/jsoup, mitsuhiko/similar, pmndrs/zustand), every import the
 *   tree-sitter extraction finds and resolves is checked against the screen `find_importers`
 *   applies for the file it reaches (`importKeysFor`) and for every part of the module name it
 *   resolves to (a query by name);
 * - comments and strings are skipped as each language's lexer does (property tests: an import
 *   inside a comment or a non-import string is not read; one after any comment or string is);
 * - the screen's answers on hand-written sources.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importKeysFor, importScreen, nameImportKeys } from "../../src/evidence/importers.js";
import { loadFacts } from "../../src/evidence/analysis/facts.js";
import { importsMayName, scanImports, scansFamily, type ImportScan } from "../../src/evidence/analysis/import-scan.js";
import { familyOf, languageFor } from "../../src/evidence/analysis/lang/index.js";
import type { LanguageSpec } from "../../src/evidence/analysis/lang/language.js";
import { statFiles, treeSnapshot } from "../../src/evidence/analysis/project-view.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures");
const FIXTURE_REPOS = ["go-project", "java-project", "python-multi-root", "python-src-layout", "references", "rust-project", "ts-esm-node", "ts-monorepo"];
const extraRepos = (process.env.CODECITE_SCAN_REPOS ?? "").split(path.delimiter).filter((p) => p !== "");

/** The parts of a module name (`a.b.c`, `a/b`, `a::b`). */
const parts = (module: string) => module.split(/[./:\\]+/).filter((p) => p !== "" && p !== "@");

/**
 * Every import the full path finds in `root` (parse, resolve) whose file the screen would drop,
 * as `file:line → what`; and how many (file, import) pairs were checked.
 */
async function droppedImports(root: string): Promise<{ dropped: string[]; checked: number }> {
  const ws = await Workspace.open(root);
  const project = (await treeSnapshot(ws)).view;
  const files = project.files.filter((f) => {
    const lang = languageFor(f);
    return lang !== undefined && scansFamily(familyOf(lang));
  });
  const facts = await loadFacts(ws, statFiles(ws, files));
  const dropped: string[] = [];
  let checked = 0;
  for (const [file, fileFacts] of facts) {
    const lang = languageFor(file) as LanguageSpec;
    const source = readFileSync(path.join(root, file), "utf8");
    for (const ref of fileFacts.imports) {
      const res = await lang.resolve(ref, file, project);
      if (res.unresolved) continue;
      for (const target of res.files) {
        if (target === file) continue;
        checked++;
        if (!importScreen(await importKeysFor([target], project))(file, source)) dropped.push(`${file}:${ref.start_line} → ${target}`);
      }
      // Python `from X import y` also matches the query `X.y` (its matchesExternal).
      const names = [...parts(res.module), ...(lang.id === "python" ? (ref.names ?? []).filter((n) => n !== "*") : [])];
      // A query by name reaches only modules no file of the tree stands for (else it names those files).
      for (const word of res.external || res.files.length === 0 ? names : []) {
        checked++;
        if (!importScreen(nameImportKeys(word))(file, source)) dropped.push(`${file}:${ref.start_line} → name ${word}`);
      }
    }
  }
  return { dropped, checked };
}

describe("import scan: never drops an importer the full parse finds", () => {
  for (const name of FIXTURE_REPOS) {
    it(`fixture ${name}`, async () => {
      const { dropped, checked } = await droppedImports(path.join(FIXTURES, name));
      expect(checked).toBeGreaterThan(5);
      expect(dropped).toEqual([]);
    });
  }
  for (const root of extraRepos) {
    it(`checkout ${path.basename(root)}`, { timeout: 600_000 }, async () => {
      const { dropped, checked } = await droppedImports(root);
      expect(checked).toBeGreaterThan(0);
      expect(dropped).toEqual([]);
    });
  }
});

const texts = (family: string, source: string) => scanImports(family, source)?.imports.map((i) => i.text);

describe("import scan: statements read", () => {
  it("Python: parenthesised, backslash-continued, one-line compound, dynamic; not comments or strings", () => {
    const src = [
      "# import fake_a",
      'x = "import fake_b"',
      'doc = """',
      "from fake_c import y",
      '"""',
      "from acme.core import (",
      "    rag_common,  # the index",
      "    other as o,",
      ")",
      "import a.b, \\",
      "    c.d",
      "try: import e",
      "except ImportError: pass",
      'm = importlib.import_module("pkg.dyn")',
      'f"{x["k"]} import fake_d"',
      "from . import sibling",
    ].join("\n");
    expect(texts("python", src)).toEqual([
      "from acme.core import(rag_common,other as o,)",
      "import a.b,c.d",
      "import e",
      "import_module(pkg.dyn)",
      "from.import sibling",
    ]);
    expect(scanImports("python", src)?.imports.at(-1)?.bare).toBe(true);
    expect(scanImports("python", src)?.open).toBe(false);
  });

  it("JavaScript/TypeScript: specifiers of import, export-from, require, import(), declare module; regex and template literals", () => {
    const src = [
      "// import x from 'fake_a'",
      "/* require('fake_b') */",
      "import a, { b } from './real_a';",
      'import "./side";',
      "export * from '../real_b';",
      "const c = require(\"real_c\");",
      "const d = await import(`./real_d`);",
      "const re = /'fake_c/g; const s = 'from fake_d';",
      "const t = `${x} from 'fake_e'`;",
      "declare module 'real_e' {}",
      "import e = require('real_f');",
      'import idx from "..";',
    ].join("\n");
    expect(texts("js", src)).toEqual(["./real_a", "./side", "../real_b", "real_c", "./real_d", "real_e", "real_f", ".."]);
    expect(scanImports("js", src)?.open).toBe(false);
    expect(scanImports("js", src)?.imports.at(-1)?.bare).toBe(true);
    expect(scanImports("js", "const m = import(`./locale/${l}.js`);")?.open).toBe(true);
    expect(scanImports("js", "const m = require(name);")?.open).toBe(true);
  });

  it("Go, Java, Rust", () => {
    expect(texts("go", 'package p\n// import "fake"\nimport "fmt"\nimport (\n\tm "example.com/mod/x" // c\n\t_ `embed`\n)\nvar s = "import \\"fake\\""\n')).toEqual([
      "fmt",
      "example.com/mod/x",
      "embed",
    ]);
    expect(texts("java", "package a;\n/* import fake.A; */\nimport static a.b.C.m;\nimport a.b.*;\nclass X { String s = \"import fake.B;\"; }\n")).toEqual(["import static a.b.c.m", "import a.b.*"]);
    expect(texts("rust", "// use fake::a;\n/* /* use fake::b; */ */\nuse crate::a::{b, c as d};\nextern crate serde;\nmod util;\nfn f<'a>(x: &'a str) -> char { let s = r#\"use fake::c;\"#; 'x' }\npub(crate) use super::e;\n")).toEqual([
      "use crate::a::{b,c as d}",
      "extern crate serde",
      "mod util",
      "use super::e",
    ]);
  });

  it("a text that ends inside a comment, string or bracket is open (kept)", () => {
    expect(scanImports("python", 'x = """never closed\nimport a')?.open).toBe(true);
    expect(scanImports("js", "/* never closed\nimport a from 'b'")?.open).toBe(true);
    expect(scanImports("rust", "use a::{b;\n/* /* */")?.open).toBe(true);
    expect(importsMayName({ imports: [], open: true }, { words: ["zzz"], bare: false })).toBe(true);
  });
});

describe("import scan: a query by name is kept only where an import writes the name whole", () => {
  const kept = (family: string, source: string, name = "session") => importsMayName(scanImports(family, source) as ImportScan, nameImportKeys(name));
  it("Python", () => {
    expect(kept("python", "import session\n")).toBe(true);
    expect(kept("python", "import session as s\n")).toBe(true);
    expect(kept("python", "from session import x\n")).toBe(true);
    expect(kept("python", "from acme.session import x\n")).toBe(true);
    expect(kept("python", "from acme import (\n    other,\n    session,\n)\n")).toBe(true);
    expect(kept("python", 'm = importlib.import_module("acme.session")\n')).toBe(true);
    expect(kept("python", "from acme.inventory.catalog_parser import Config, dispatch_session\n")).toBe(false);
    expect(kept("python", "import acme.orders.session_admin as session_mod4\n")).toBe(false);
    expect(kept("python", "from ..orders.session_admin import sync_header\nx = session\n")).toBe(false);
    // The module's other parts do not matter: its last part is looked for (`numpy.linalg` → linalg).
    expect(kept("python", "from numpy import linalg\n", "numpy.linalg")).toBe(true);
  });
  it("Java, Rust, Go, JavaScript", () => {
    expect(kept("java", "import a.session.Store;\n")).toBe(true);
    expect(kept("java", "import a.SessionStore;\nclass X { Session session; }\n")).toBe(false);
    expect(kept("rust", "use session;\n")).toBe(true);
    expect(kept("rust", "use crate::{session, other};\n")).toBe(true);
    expect(kept("rust", "mod session;\n")).toBe(true);
    expect(kept("rust", "use sessions::Store;\nmod session_util;\n")).toBe(false);
    expect(kept("go", 'import (\n\t"example.com/app/session"\n)\n')).toBe(true);
    expect(kept("go", 'import "example.com/app/sessionutil"\n')).toBe(false);
    expect(kept("js", 'import s from "./session";\n')).toBe(true);
    expect(kept("js", 'import s from "session/store";\n')).toBe(true);
    expect(kept("js", 'import s from "./sessions";\nconst session = 1;\n')).toBe(false);
  });
  it("keys of a target file still match inside a longer name", () => {
    const scan = scanImports("python", "from acme.x import dispatch_session\n") as ImportScan;
    expect(importsMayName(scan, { words: ["session"], bare: false })).toBe(true);
    expect(importsMayName(scan, { words: ["session"], bare: false, whole: true })).toBe(false);
  });
});

/** Code-free filler: identifiers, operators, spaces, newlines. */
const filler = fc.stringMatching(/^[a-z0-9_ =+*,.\n]{0,30}$/);
/** Text for inside a comment or a string (no quote, backslash or comment closer). */
const inner = fc.stringMatching(/^[a-z0-9_ .,;:(){}[\]=+-]{0,30}$/);

describe("import scan: comments and strings (property)", () => {
  it("Python: an import inside a comment or a string is not read; an import after one is", () => {
    const hidden = fc.oneof(
      inner.map((t) => `# ${t} import hidden_mod`),
      inner.map((t) => `x = '${t} import hidden_mod'`),
      inner.map((t) => `x = "${t} import hidden_mod"`),
      fc.tuple(inner, inner).map(([a, b]) => `x = """${a}\nimport hidden_mod\n${b}"""`),
      fc.tuple(inner, inner).map(([a, b]) => `x = r'''${a}\nfrom hidden_mod import y\n${b}'''`),
      inner.map((t) => `x = f"{'${t}'} import hidden_mod"`),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, hidden), { maxLength: 4 }), ([...chunks]) => {
        const src = `${chunks.map(([f, h]) => `${f.replace(/\n/g, " ")}\n${h}\n`).join("")}import shown_mod\n`;
        const read = (texts("python", src) ?? []).join("|");
        return !read.includes("hidden_mod") && read.includes("import shown_mod");
      }),
    );
  });

  it("JavaScript: a specifier inside a comment, string, template or regex is not read; one after it is", () => {
    const hidden = fc.oneof(
      inner.map((t) => `// ${t} import x from "hidden_mod"`),
      inner.map((t) => `/* ${t.replace(/\*/g, "")}\nrequire("hidden_mod") */`),
      inner.map((t) => `const s = '${t} from "hidden_mod"';`),
      inner.map((t) => `const s = \`${t.replace(/[{}]/g, "")} \${a + "b"} from "hidden_mod"\`;`),
      inner.map((t) => `const r = /${t.replace(/[/()[\]{}]/g, "")}'from "hidden_mod"/g;`),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, hidden), { maxLength: 4 }), ([...chunks]) => {
        const src = `${chunks.map(([f, h]) => `${f.replace(/[.]/g, " ")};\n${h}\n`).join("")}import y from "shown_mod";\n`;
        const read = texts("js", src) ?? [];
        return !read.some((t) => t.includes("hidden_mod")) && read.includes("shown_mod");
      }),
    );
  });

  it("Go, Java and Rust: an import inside a comment or string is not read; one after it is", () => {
    for (const [family, hide, show] of [
      ["go", (t: string) => [`// ${t} import "hidden_mod"`, `/* ${t} import "hidden_mod" */`, `var s = "${t} import hidden_mod"`, `var s = \`${t}\nimport "hidden_mod"\``], 'import "shown_mod"'],
      ["java", (t: string) => [`// ${t} import hidden_mod.A;`, `/* ${t} import hidden_mod.A; */`, `String s = "${t} import hidden_mod.A;";`, `String s = """\n${t}\nimport hidden_mod.A;\n""";`], "import shown_mod.A;"],
      ["rust", (t: string) => [`// ${t} use hidden_mod;`, `/* ${t} /* use hidden_mod; */ */`, `let s = "${t} use hidden_mod;";`, `let s = r#"${t}" use hidden_mod;"#;`, `let c = '"'; // use hidden_mod;`], "use shown_mod;"],
    ] as const) {
      fc.assert(
        fc.property(fc.array(fc.tuple(filler, inner, fc.nat(4)), { maxLength: 4 }), ([...chunks]) => {
          const src = `${chunks.map(([f, t, k]) => { const forms = hide(t.replace(/[*/"]/g, "")); return `${f.replace(/[.]/g, " ")};\n${forms[k % forms.length] as string}\n`; }).join("")}${show}\n`;
          const read = (texts(family, src) ?? []).join("|");
          return !read.includes("hidden_mod") && read.includes("shown_mod");
        }),
      );
    }
  });
});
