/**
 * find_importers over the example project and the fixtures: exact records (path, lines, name,
 * snippet, flags), how `module_name` is read, and the notes of empty results.
 */
import { noteOf } from "../helpers/note.js";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { factsStats } from "../../src/evidence/analysis/facts.js";
import { python } from "../../src/evidence/analysis/lang/python.js";
import { findImporters } from "../../src/evidence/importers.js";
import { ToolError, type EvidenceResult } from "../../src/evidence/evidence.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

const repo = path.resolve(import.meta.dirname, "../..");
const open = (rel: string) => Workspace.open(path.join(repo, rel));
const find = async (ws: Workspace, module_name: string, max_results = 50) => findImporters(ws, { module_name, max_results });
/** `find` with `include_submodules`. */
const findAll = async (ws: Workspace, module_name: string) => findImporters(ws, { module_name, include_submodules: true, max_results: 50 });
/** `path:start-end name` per record. */
const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line} ${e.name}`);

describe("find_importers: examples/rag-app", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await open("examples/rag-app");
  });

  it("rag_common is imported directly by exactly four files (lookalikes do not count)", async () => {
    const r = await find(ws, "rag_common");
    expect(r.total).toBe(4);
    expect(r.truncated).toBe(false);
    expect(r.evidence).toEqual([
      {
        path: "src/build_index.py",
        start_line: 4,
        end_line: 4,
        kind: "import",
        name: "rag_common",
        snippet: "from rag_common import Chunk, RagConfig, chunk_text, embed_texts, save_index",
        language: "python",
      },
      {
        path: "src/chat_reranker.py",
        start_line: 6,
        end_line: 6,
        kind: "import",
        name: "rag_common",
        snippet: "from rag_common import Chunk, cosine, embed_texts",
        language: "python",
      },
      {
        path: "src/chat_reranker_guarded.py",
        start_line: 6,
        end_line: 6,
        kind: "import",
        name: "rag_common",
        snippet: "    from rag_common import Chunk, cosine, embed_texts",
        language: "python",
      },
      {
        path: "src/rag_chat.py",
        start_line: 10,
        end_line: 10,
        kind: "import",
        name: "rag_common",
        snippet: "from rag_common import RagConfig, load_index, retrieve",
        language: "python",
      },
    ]);
  });

  it("reads a file path, a path without its ending, a unique file name, an absolute path inside the root and an import statement the same way", async () => {
    const expected = ["src/build_index.py:4-4 rag_common", "src/chat_reranker.py:6-6 rag_common", "src/chat_reranker_guarded.py:6-6 rag_common", "src/rag_chat.py:10-10 rag_common"];
    for (const q of ["src/rag_common.py", "src/rag_common", "rag_common.py", path.join(ws.root, "src/rag_common.py"), "src.rag_common"]) {
      expect(where(await find(ws, q)), q).toEqual(expected);
    }
    const wrapped = await find(ws, "import rag_common");
    expect(where(wrapped)).toEqual(expected);
    expect(noteOf(wrapped)).toContain("module_name read as 'rag_common'");
  });

  it("the lookalike rag_common_extra has its own importers, and rag_chat is reached by serve.py", async () => {
    expect(where(await find(ws, "rag_common_extra"))).toEqual(["src/eval_answers.py:6-6 rag_common_extra", "src/rag_chat.py:11-11 rag_common_extra"]);
    expect(where(await find(ws, "rag_chat"))).toEqual(["src/eval_answers.py:7-7 rag_chat", "src/serve.py:9-9 rag_chat"]);
  });

  it("caps the records at max_results and keeps the true total", async () => {
    const r = await find(ws, "rag_common", 2);
    expect(r.total).toBe(4);
    expect(r.truncated).toBe(true);
    expect(where(r)).toEqual(["src/build_index.py:4-4 rag_common", "src/chat_reranker.py:6-6 rag_common"]);
    expect(noteOf(r)).toContain("Showing 2 of 4");
  });

  it("explains an empty result with close names", async () => {
    const r = await find(ws, "rag_commn");
    expect(r.evidence).toEqual([]);
    expect(r.total).toBe(0);
    expect(noteOf(r)).toContain("No module or file named 'rag_commn'");
    expect(noteOf(r)).toContain("Close names in this repository: rag_common");
  });

  it("a module that leaves the root is only a name: nothing outside is read, nothing matches", async () => {
    const r = await find(ws, "../../etc/passwd");
    expect(r.evidence).toEqual([]);
    expect(noteOf(r)).toContain("is not a path inside the repository");
    const abs = await find(ws, "/etc/passwd");
    expect(abs.evidence).toEqual([]);
    expect(JSON.stringify(abs)).not.toContain("root:");
  });

  it("rejects an empty or multi-line module_name with INVALID_ARGUMENT", async () => {
    await expect(find(ws, "  ")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(find(ws, "a\nb")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(find(ws, "x".repeat(2000))).rejects.toBeInstanceOf(ToolError);
  });
});

describe("find_importers: Python fixtures", () => {
  it("src layout: relative imports at every depth, the multi-line statement range, nested and dynamic imports", async () => {
    const ws = await open("test/fixtures/python-src-layout");
    const r = await find(ws, "shop.pricing");
    expect(where(r)).toEqual([
      "src/shop/__init__.py:3-3 shop.pricing",
      "src/shop/cart.py:5-5 shop.pricing",
      "src/shop/orders/__init__.py:2-2 shop.pricing",
      "src/shop/orders/history.py:24-24 shop.pricing",
      "src/shop/orders/history.py:27-27 shop.pricing",
      "src/shop/orders/status.py:1-4 shop.pricing",
    ]);
    expect(r.evidence[4]?.flags).toEqual(["dynamic"]);
    expect(r.evidence[5]?.snippet).toBe("from ..pricing import (\n    price_of,\n    discount,\n)");
  });

  it("flags TYPE_CHECKING imports and reports aliases", async () => {
    const ws = await open("test/fixtures/python-src-layout");
    const r = await find(ws, "shop.orders");
    expect(r.evidence.map((e) => [e.path, e.start_line, e.flags ?? []])).toEqual([
      ["src/shop/cart.py", 10, ["type_checking"]],
      ["src/shop/cart.py", 21, []],
      ["src/shop/orders/history.py", 8, []],
    ]);
    const status = await find(ws, "shop.orders.status");
    expect(status.evidence.map((e) => [e.path, e.start_line, e.alias ?? null])).toEqual([
      ["src/shop/orders/__init__.py", 3, null],
      ["src/shop/orders/history.py", 4, "st"],
    ]);
  });

  it("from X import y counts for X.y when y is a module, else for X", async () => {
    const ws = await open("test/fixtures/python-src-layout");
    expect(where(await find(ws, "shop"))).toEqual(["src/shop/orders/history.py:7-7 shop", "tests/test_cart.py:3-3 shop"]);
    expect(where(await find(ws, "shop.catalog"))).toContain("scripts/gen_data.py:2-2 shop.catalog");
  });

  it("namespace packages and a script's own folder", async () => {
    const ws = await open("test/fixtures/python-src-layout");
    expect(where(await find(ws, "helpers"))).toEqual([
      "src/nsplug/alpha/core.py:1-1 nsplug.alpha.helpers",
      "src/nsplug/alpha/core.py:2-2 nsplug.alpha.helpers",
      "src/nsplug/alpha/core.py:3-3 nsplug.alpha.helpers",
    ]);
    expect(where(await find(ws, "csv_tools"))).toEqual(["scripts/gen_data.py:1-1 csv_tools"]);
  });

  it("external modules are matched by name with aliases; submodules only with include_submodules", async () => {
    const ws = await open("test/fixtures/python-multi-root");
    const np = await find(ws, "numpy");
    expect(np.evidence.map((e) => [e.path, e.start_line, e.name, e.alias])).toEqual([["tools/report.py", 3, "numpy", "np"]]);
    expect(where(await find(ws, "os"))).toEqual([]);
    expect(where(await findAll(ws, "os"))).toEqual(["tools/report.py:1-1 os.path"]);
    expect(where(await find(ws, "os.path"))).toEqual(["tools/report.py:1-1 os.path"]);
  });

  it("several roots: each file resolves in its own root; an ambiguous trailing part is an error listing the candidates", async () => {
    const ws = await open("test/fixtures/python-multi-root");
    expect(where(await find(ws, "services/users/api/handlers.py"))).toEqual(["services/users/api/routes.py:1-1 api.handlers"]);
    expect(where(await find(ws, "api.handlers"))).toEqual([
      "services/billing/api/routes.py:1-1 api.handlers",
      "services/billing/api/routes.py:2-2 api.handlers",
      "services/users/api/routes.py:1-1 api.handlers",
    ]);
    expect(where(await find(ws, "slug"))).toEqual(["tools/report.py:5-5 textutil.slug"]);
    const amb = await find(ws, "handlers").catch((e: unknown) => e as ToolError);
    expect(amb).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect((amb as ToolError).message).toContain("api.handlers (services/billing/api/handlers.py)");
    expect((amb as ToolError).message).toContain("api.handlers (services/users/api/handlers.py)");
  });
});

describe("find_importers: the Python prefilter", () => {
  afterEach(() => vi.restoreAllMocks());

  it("finds every import form, and reads only files with an import line naming the module (parsing none)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "codecite-pyprefilter-"));
    try {
      const files: Record<string, string> = {
        "pkg/__init__.py": "",
        "pkg/target.py": "VALUE = 1\n",
        "paren.py": "from pkg import (\n    other,\n    target as t,  # the one\n)\n",
        "backslash.py": "from pkg import other, \\\n    target\n",
        "semicolon.py": "x = 1; import pkg.target\n",
        "compound.py": "try: import pkg.target as t\nexcept ImportError: t = None\n",
        "dynamic.py": 'import importlib\n\nmod = importlib.import_module("pkg.target")\n',
        "split.py": 'import importlib\n\nmod = importlib.import_module(\n    "pkg.target"\n)\n',
        "dunder.py": 'mod = __import__("pkg.target", fromlist=["VALUE"])\n',
        "pkg/rel.py": "from . import target\n",
        "pkg/other.py": "# target is imported elsewhere; this file only mentions it\nTARGET_NAME = 'target'\n",
      };
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
        writeFileSync(path.join(dir, rel), text);
      }
      const ws = await Workspace.open(dir);
      const before = factsStats().parsed;
      const read = vi.spyOn(python, "lexicalImports");
      const r = await find(ws, "pkg.target");
      expect(where(r)).toEqual([
        "backslash.py:1-2 pkg.target",
        "compound.py:1-1 pkg.target",
        "dunder.py:1-1 pkg.target",
        "dynamic.py:3-3 pkg.target",
        "paren.py:1-4 pkg.target",
        "pkg/rel.py:1-1 pkg.target",
        "semicolon.py:1-1 pkg.target",
        "split.py:3-5 pkg.target",
      ]);
      // the eight importers are read (their imports from the text: lang/python-imports.ts), none
      // parsed; pkg/other.py (a comment and a string) is not read
      expect(read).toHaveBeenCalledTimes(8);
      expect(factsStats().parsed - before).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("find_importers: a module known by name only", () => {
  // `session` is no module of this tree; the word is written in most files (a parameter, a
  // comment), and six files name the module in an import. Only those are parsed: a tree where the
  // word is everywhere once made a first query parse nearly every file.
  let dir: string;
  beforeAll(() => {
    const files: Record<string, string> = {
      "app/a.py": "import session\n",
      "app/b.py": "from session import Store\n\nstore = Store()\n",
      "app/c.py": "import session.backends as backends\n",
      "app/d.py": 'import importlib\n\nmod = importlib.import_module("session")\n',
      "web/a.ts": 'import { open } from "session";\n',
      "web/b.ts": 'const cookies = require("session/cookies");\n',
      "web/c.ts": 'import { Store } from "./session-store.js";\n// the session store\n',
      "web/session-store.ts": "export class Store {}\n",
    };
    for (let i = 0; i < 20; i++) files[`app/m${i}.py`] = "def handle(session):\n    session.close()\n    return session\n";
    for (let i = 0; i < 10; i++) files[`web/m${i}.ts`] = "export function f(session: string) {\n  return session;\n}\n";
    dir = writeTree("codecite-importers-name-", files);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finds the imports of the name and reads or parses only the files with an import naming it", async () => {
    const ws = await Workspace.open(dir);
    const before = factsStats().parsed;
    const read = vi.spyOn(python, "lexicalImports");
    const r = await find(ws, "session");
    expect(where(r)).toEqual(["app/a.py:1-1 session", "app/b.py:1-1 session", "app/d.py:3-3 session", "web/a.ts:1-1 session"]);
    expect(r.evidence.map((e) => e.language)).toEqual(["python", "python", "python", "typescript"]);
    // app/{a,b,c,d}.py read (imports from the text), web/{a,b}.ts parsed; not the 30 files that
    // only use the word, nor web/c.ts
    expect(read).toHaveBeenCalledTimes(4);
    read.mockRestore();
    expect(factsStats().parsed - before).toBe(2);
  });

  it("with include_submodules also the modules below the name", async () => {
    const r = await findAll(await Workspace.open(dir), "session");
    expect(where(r)).toEqual([
      "app/a.py:1-1 session",
      "app/b.py:1-1 session",
      "app/c.py:1-1 session.backends",
      "app/d.py:3-3 session",
      "web/a.ts:1-1 session",
      "web/b.ts:1-1 session/cookies",
    ]);
  });
});

describe("find_importers: TS/JS fixtures", () => {
  it("tsconfig paths and baseUrl, ESM .js specifiers, workspace packages with exports", async () => {
    const ws = await open("test/fixtures/ts-monorepo");
    expect(where(await find(ws, "apps/web/src/App.tsx"))).toEqual([
      "apps/web/src/main.tsx:2-2 apps/web/src/App.tsx",
      "apps/web/src/pages/Home.tsx:1-1 apps/web/src/App.tsx",
    ]);
    expect(where(await find(ws, "packages/ui/src/format.ts"))).toEqual([
      "apps/web/src/main.tsx:4-4 packages/ui/src/format.ts",
      "packages/ui/src/index.ts:2-2 packages/ui/src/format.ts",
    ]);
    expect(where(await find(ws, "@acme/ui"))).toEqual(["apps/web/src/main.tsx:3-3 packages/ui/src/index.ts"]);
    expect(where(await find(ws, "helper"))).toEqual(["apps/web/src/App.tsx:1-1 apps/web/src/utils/helper.ts"]);
  });

  it("an alias that only some files can resolve leads to its file, whose other importers count too", async () => {
    const ws = await open("test/fixtures/ts-monorepo");
    const r = await find(ws, "@shared");
    expect(r.evidence.map((e) => [e.path, e.start_line, e.name, e.flags ?? []])).toEqual([
      ["apps/web/src/main.tsx", 5, "packages/shared/src/index.ts", ["type_only"]],
      ["packages/legacy/index.js", 2, "packages/shared/src/index.ts", []],
    ]);
  });

  it("a non-literal import() is not an import of the files its static prefix happens to reach; the note names it", async () => {
    const ws = await open("test/fixtures/ts-monorepo");
    const r = await find(ws, "apps/web/src/locale/en.ts");
    expect(r.evidence).toEqual([]);
    expect(noteOf(r)).toContain(
      "Not counted: 1 import()/require() with a computed specifier whose literal start could lead here (apps/web/src/i18n.ts:4); which file it loads is decided at run time.",
    );
  });

  it("a .d.ts is never an importer of its own module; non-source files (.css) have importers", async () => {
    const ws = await open("test/fixtures/ts-monorepo");
    const dts = await find(ws, "packages/legacy/index.d.ts");
    expect(dts.evidence).toEqual([]);
    expect(noteOf(dts)).toContain("No file imports packages/legacy/index.d.ts");
    expect(where(await find(ws, "styles.css"))).toEqual(["apps/web/src/main.tsx:6-6 apps/web/src/styles.css"]);
  });

  it("package subpath imports, jsconfig aliases, require and import = require", async () => {
    const ws = await open("test/fixtures/ts-esm-node");
    expect(where(await find(ws, "#internal/util"))).toEqual(["src/index.ts:3-3 src/internal/util.ts"]);
    expect(where(await find(ws, "~/Button"))).toEqual([
      "web/app.jsx:2-2 web/components/Button.jsx",
      "web/components/index.js:2-2 web/components/Button.jsx",
    ]);
    expect(where(await find(ws, "src/lib/parse.ts"))).toEqual([
      "src/cjs-helper.cts:2-2 src/lib/parse.ts",
      "src/esm-only.mts:1-1 src/lib/parse.ts",
      "src/lib/index.ts:1-1 src/lib/parse.ts",
    ]);
    const fs = await find(ws, "node:fs");
    expect(fs.evidence.map((e) => [e.path, e.start_line, e.alias])).toEqual([["src/cjs-helper.cts", 1, "fs"]]);
    expect(where(await find(ws, "src/cjs-helper.cts"))).toEqual(["src/esm-only.mts:2-2 src/cjs-helper.cts"]);
  });
});

describe("find_importers: line rules", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "codecite-importers-"));
    mkdirSync(path.join(dir, "pkg"));
    writeFileSync(path.join(dir, "pkg", "__init__.py"), "");
    writeFileSync(path.join(dir, "pkg", "util.py"), "X = 1\n");
    writeFileSync(path.join(dir, "crlf.py"), "\ufeff# header\r\n\r\nfrom pkg import util\r\nimport pkg.util as u\r\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("CRLF line endings and a BOM do not shift lines; snippets carry no \\r", async () => {
    const ws = await Workspace.open(dir);
    const r = await find(ws, "pkg.util");
    expect(r.evidence.map((e) => [e.path, e.start_line, e.snippet])).toEqual([
      ["crlf.py", 3, "from pkg import util"],
      ["crlf.py", 4, "import pkg.util as u"],
    ]);
  });
});

/** Writes `files` (repository-relative path → text) into a new temporary folder and returns it. */
function writeTree(prefix: string, files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe("find_importers: an imported name beats a trailing part", () => {
  // A checkout of a project's tests folder: `import flask` everywhere, and a nested module that
  // happens to end in `flask` (pallets/flask tests/test_apps/cliapp/inner1/inner2/flask.py).
  const files: Record<string, string> = {
    "conftest.py": "import pytest\nimport flask\n",
    "test_basic.py": "import flask\nfrom flask import Flask\n",
    "test_json.py": "import flask.json\nfrom flask import json as fjson\n",
    "pkg/__init__.py": "",
    "pkg/inner/__init__.py": "",
    "pkg/inner/flask.py": "def create_app():\n    return None\n",
    "pkg/use_inner.py": "from pkg.inner import flask as inner_flask\n",
  };
  let dir: string;
  beforeAll(() => {
    dir = writeTree("codecite-imported-name-", files);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("`flask` answers the files that import flask, and the note names pkg.inner.flask", async () => {
    const ws = await Workspace.open(dir);
    const r = await find(ws, "flask");
    expect(r.evidence.map((e) => [`${e.path}:${e.start_line}-${e.end_line} ${e.name}`, e.snippet, e.alias ?? null])).toEqual([
      ["conftest.py:2-2 flask", "import flask", null],
      ["test_basic.py:1-1 flask", "import flask", null],
      ["test_basic.py:2-2 flask", "from flask import Flask", null],
      ["test_json.py:2-2 flask", "from flask import json as fjson", null],
    ]);
    expect(r.total).toBe(4);
    // `import flask.json` imports the submodule flask.json: counted with include_submodules.
    expect(where(await findAll(ws, "flask"))).toContain("test_json.py:1-1 flask.json");
    expect(noteOf(r)).toBe(
      "Read as the module named exactly 'flask', which files import; a module of this repository also ends in it: pkg.inner.flask (pkg/inner/flask.py). Pass that full name or path for its importers.",
    );
  });

  it("the nested module keeps its importers under its full name and its path", async () => {
    const ws = await Workspace.open(dir);
    for (const q of ["pkg.inner.flask", "pkg/inner/flask.py"]) {
      const r = await find(ws, q);
      expect(r.evidence.map((e) => [`${e.path}:${e.start_line}-${e.end_line} ${e.name}`, e.alias ?? null]), q).toEqual([["pkg/use_inner.py:1-1 pkg.inner.flask", "inner_flask"]]);
    }
  });

  it("the exact name also wins over several trailing candidates, which are then named in the note instead of an error", async () => {
    const amb = writeTree("codecite-imported-name-amb-", { ...files, "other/__init__.py": "", "other/flask.py": "X = 1\n" });
    try {
      const r = await find(await Workspace.open(amb), "flask");
      expect(where(r)).toEqual(["conftest.py:2-2 flask", "test_basic.py:1-1 flask", "test_basic.py:2-2 flask", "test_json.py:2-2 flask"]);
      expect(noteOf(r)).toContain("2 modules of this repository also end in it: other.flask (other/flask.py), pkg.inner.flask (pkg/inner/flask.py)");
    } finally {
      rmSync(amb, { recursive: true, force: true });
    }
  });

  it("without an import of the exact name the trailing part still reads the query", async () => {
    const solo = writeTree("codecite-imported-name-solo-", {
      "pkg/__init__.py": "",
      "pkg/inner/__init__.py": "",
      "pkg/inner/flask.py": "X = 1\n",
      "pkg/use_inner.py": "from pkg.inner import flask as inner_flask\n",
      "app.py": "import pytest\n",
    });
    try {
      const r = await find(await Workspace.open(solo), "flask");
      expect(where(r)).toEqual(["pkg/use_inner.py:1-1 pkg.inner.flask"]);
      expect(noteOf(r)).toBeUndefined();
    } finally {
      rmSync(solo, { recursive: true, force: true });
    }
  });
});

describe("find_importers: Python alias labels", () => {
  let dir: string;
  beforeAll(() => {
    dir = writeTree("codecite-py-alias-", {
      "pkg/__init__.py": "from .helpers import abort as abort\nfrom . import b as bee\n\ndef f():\n    return 1\n",
      "pkg/helpers.py": "def abort():\n    raise SystemExit\n",
      "pkg/b.py": "X = 1\n",
      "app.py": "import pkg.b as c\nfrom pkg import b as c2\nfrom pkg import f as g\nfrom pkg.helpers import abort as stop\nimport numpy as np\nfrom numpy import linalg as la\n",
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const labels = (r: EvidenceResult) => r.evidence.map((e) => [`${e.path}:${e.start_line} ${e.name}`, e.alias ?? null]);

  it("import a.b as c and from a import b as c (b a submodule): name a.b, alias c", async () => {
    const ws = await Workspace.open(dir);
    expect(labels(await find(ws, "pkg.b"))).toEqual([
      ["app.py:1 pkg.b", "c"],
      ["app.py:2 pkg.b", "c2"],
      ["pkg/__init__.py:2 pkg.b", "bee"],
    ]);
  });

  it("from a import f as g (f a function): name a, no alias; from .helpers import abort as abort: no alias", async () => {
    const ws = await Workspace.open(dir);
    expect(labels(await find(ws, "pkg"))).toEqual([["app.py:3 pkg", null]]);
    const helpers = await find(ws, "pkg.helpers");
    expect(labels(helpers)).toEqual([
      ["app.py:4 pkg.helpers", null],
      ["pkg/__init__.py:1 pkg.helpers", null],
    ]);
    expect(helpers.evidence[1]?.snippet).toBe("from .helpers import abort as abort");
  });

  it("external modules: import x as y keeps the alias; from x import y as z does not", async () => {
    const ws = await Workspace.open(dir);
    expect(labels(await find(ws, "numpy"))).toEqual([
      ["app.py:5 numpy", "np"],
      ["app.py:6 numpy", null],
    ]);
  });
});

describe("find_importers: the output budget", () => {
  let dir: string;
  beforeAll(() => {
    // 30 files × 3 one-line imports of pkg.target: 90 records, about 14 KB as whole records.
    const files: Record<string, string> = { "pkg/__init__.py": "", "pkg/target.py": "A = B = C = 1\n" };
    for (let i = 0; i < 30; i++) {
      files[`services/module_number_${String(i).padStart(2, "0")}/consumer.py`] = "from pkg.target import A\nfrom pkg.target import B\nfrom pkg.target import C\n";
    }
    dir = writeTree("codecite-importers-budget-", files);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("shows every file's first record and then more records in order, and advises no parameter find_importers lacks", async () => {
    const ws = await Workspace.open(dir);
    const r = await find(ws, "pkg.target", 200);
    expect(r.total).toBe(90);
    expect(r.truncated).toBe(true);
    // the first record of every file, then the others in order while they fit (files 00–16 whole, 17 in part)
    const lines = new Map<string, number[]>();
    for (const e of r.evidence) lines.set(e.path, [...(lines.get(e.path) ?? []), e.start_line]);
    expect(r.evidence).toHaveLength(65);
    expect(lines.size).toBe(30);
    for (let i = 0; i < 30; i++) {
      expect(lines.get(`services/module_number_${String(i).padStart(2, "0")}/consumer.py`), `file ${i}`).toEqual(i < 17 ? [1, 2, 3] : i === 17 ? [1, 2] : [1]);
    }
    expect(r.evidence[0]).toEqual({
      path: "services/module_number_00/consumer.py",
      start_line: 1,
      end_line: 1,
      kind: "import",
      name: "pkg.target",
      snippet: "from pkg.target import A",
      language: "python",
    });
    expect(r.evidence.slice(0, 3).map((e) => e.start_line)).toEqual([1, 2, 3]);
    expect(noteOf(r)).toMatch(
      /^Output was too large: 90 records in 30 files; showing the first record of 30 files, then 35 more in order, with first lines only\. Records per file where some are not shown: services\/module_number_17\/consumer\.py \(3\), services\/module_number_18\/consumer\.py \(3\), /,
    );
    expect(noteOf(r)).toContain("services/module_number_29/consumer.py (3). read_evidence shows the rest of those files.");
    expect(noteOf(r)).not.toMatch(/\bpath\b|\bkind\b/);
    expect(Buffer.byteLength(JSON.stringify({ ok: true, ...r }), "utf8")).toBeLessThanOrEqual(12_000);
  });

  it("multi-line import statements are cut to their first line (flag truncated) before any record is left out", async () => {
    // each statement: 10 lines of about 40 characters; 50 of them whole are about 25 KB
    const names = ["A", "B", "C", "D", "E", "F", "G", "H"].map((n) => `A_RATHER_LONG_CONSTANT_NAME_NUMBER_${n}`);
    const files: Record<string, string> = { "pkg/__init__.py": "", "pkg/target.py": `${names.join(" = ")} = 1\n` };
    const stmt = `from pkg.target import (\n${names.map((n) => `    ${n},\n`).join("")})\n`;
    for (let i = 0; i < 25; i++) files[`app/m${String(i).padStart(2, "0")}.py`] = `${stmt}\n${stmt}`;
    const multi = writeTree("codecite-importers-multiline-", files);
    try {
      const r = await find(await Workspace.open(multi), "pkg.target", 200);
      expect(r.total).toBe(50);
      expect(r.evidence).toHaveLength(50);
      expect(r.evidence.slice(0, 2)).toEqual([
        { path: "app/m00.py", start_line: 1, end_line: 10, kind: "import", name: "pkg.target", snippet: "from pkg.target import (", language: "python", flags: ["truncated"] },
        { path: "app/m00.py", start_line: 12, end_line: 21, kind: "import", name: "pkg.target", snippet: "from pkg.target import (", language: "python", flags: ["truncated"] },
      ]);
      expect(noteOf(r)).toBe("Output was too large, so each snippet shows only its first line (flag truncated); read_evidence shows whole ranges.");
    } finally {
      rmSync(multi, { recursive: true, force: true });
    }
  });

  it("over max_results, the note advises raising max_results only", async () => {
    const ws = await Workspace.open(dir);
    const r = await find(ws, "pkg.target", 5);
    expect(r.evidence).toHaveLength(5);
    expect(noteOf(r)).toBe("Showing 5 of 90 records; raise max_results to see more.");
  });
});
