/**
 * find_importers over the example project and the fixtures: exact records (path, lines, name,
 * snippet, flags), how `module_name` is read, and the notes of empty results.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factsStats } from "../../src/evidence/facts.js";
import { findImporters } from "../../src/evidence/importers.js";
import { ToolError, type EvidenceResult } from "../../src/evidence/evidence.js";
import { Workspace } from "../../src/evidence/workspace.js";

const repo = path.resolve(import.meta.dirname, "../..");
const open = (rel: string) => Workspace.open(path.join(repo, rel));
const find = async (ws: Workspace, module_name: string, max_results = 50) => findImporters(ws, { module_name, max_results });
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
    expect(wrapped.note).toContain("module_name read as 'rag_common'");
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
    expect(r.note).toContain("Showing 2 of 4");
  });

  it("explains an empty result with close names", async () => {
    const r = await find(ws, "rag_commn");
    expect(r.evidence).toEqual([]);
    expect(r.total).toBe(0);
    expect(r.note).toContain("No module or file named 'rag_commn'");
    expect(r.note).toContain("Close names in this repository: rag_common");
  });

  it("a module that leaves the root is only a name: nothing outside is read, nothing matches", async () => {
    const r = await find(ws, "../../etc/passwd");
    expect(r.evidence).toEqual([]);
    expect(r.note).toContain("is not a path inside the repository");
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

  it("external modules are matched by name, including submodules and aliases", async () => {
    const ws = await open("test/fixtures/python-multi-root");
    const np = await find(ws, "numpy");
    expect(np.evidence.map((e) => [e.path, e.start_line, e.name, e.alias])).toEqual([["tools/report.py", 3, "numpy", "np"]]);
    expect(where(await find(ws, "os"))).toEqual(["tools/report.py:1-1 os.path"]);
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
  it("finds every import form, and parses only files with an import line naming the module", async () => {
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
      // the eight importers are parsed; pkg/other.py (a comment and a string) is not
      expect(factsStats().parsed - before).toBe(8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

  it("a non-literal import() whose static prefix leads to the target is reported as unresolved", async () => {
    const ws = await open("test/fixtures/ts-monorepo");
    const r = await find(ws, "apps/web/src/locale/en.ts");
    expect(r.evidence).toEqual([
      {
        path: "apps/web/src/i18n.ts",
        start_line: 4,
        end_line: 4,
        kind: "import",
        name: "`./locale/${locale}.ts`",
        snippet: "  const mod = await import(`./locale/${locale}.ts`);",
        language: "typescript",
        flags: ["dynamic", "unresolved"],
      },
    ]);
  });

  it("a .d.ts is never an importer of its own module; non-source files (.css) have importers", async () => {
    const ws = await open("test/fixtures/ts-monorepo");
    const dts = await find(ws, "packages/legacy/index.d.ts");
    expect(dts.evidence).toEqual([]);
    expect(dts.note).toContain("No file imports packages/legacy/index.d.ts");
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
