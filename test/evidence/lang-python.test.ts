/**
 * Python extraction and resolution: one test per rule (the rules are stated in
 * `src/evidence/analysis/lang/python.ts` and `python-layout.ts`).
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../src/evidence/analysis/tree-sitter.js";
import { python, resolvePython } from "../../src/evidence/analysis/lang/python.js";
import { PythonLayout } from "../../src/evidence/analysis/lang/python-layout.js";
import { foldersOf } from "../../src/evidence/analysis/lang/project-files.js";
import type { ImportRef } from "../../src/evidence/analysis/lang/language.js";
import { memoryProject } from "./memory-project.js";
import { referencesIn, scratchDir } from "./lang-test-kit.js";

const facts = (src: string) => extractFacts(python, src);

/** Imports as compact tuples: [specifier, names?, start, end, flags?]. */
async function imports(src: string): Promise<unknown[]> {
  const f = await facts(src);
  return f.imports.map((r) => [r.specifier, r.names ?? null, r.start_line, r.end_line, r.alias ?? null, r.flags ?? null]);
}

describe("python extraction: imports", () => {
  it("import a.b as c, d → one ref per module with the alias", async () => {
    expect(await imports("import a.b as c, d\n")).toEqual([
      ["a.b", null, 1, 1, "c", null],
      ["d", null, 1, 1, null, null],
    ]);
  });

  it("from X import a, b → one ref per name; the parenthesised statement spans all its lines", async () => {
    expect(await imports("x = 1\nfrom ..m import (a,\n    b as z)\n")).toEqual([
      ["..m", ["a"], 2, 3, null, null],
      ["..m", ["b"], 2, 3, "z", null],
    ]);
  });

  it("from . import x, from . import *, from __future__ import annotations", async () => {
    expect(await imports("from __future__ import annotations\nfrom . import x\nfrom .pkg import *\n")).toEqual([
      ["__future__", ["annotations"], 1, 1, null, null],
      [".", ["x"], 2, 2, null, null],
      [".pkg", ["*"], 3, 3, null, null],
    ]);
  });

  it("finds imports nested in if, try/except, def, class, with and match", async () => {
    const src = [
      "if cond:", //1
      "    import a", //2
      "else:", //3
      "    import b", //4
      "try:", //5
      "    import c", //6
      "except ImportError:", //7
      "    import d", //8
      "def f():", //9
      "    import e", //10
      "class K:", //11
      "    import g", //12
      "    def m(self):", //13
      "        from h import i", //14
      "with ctx():", //15
      "    import j", //16
      "match x:", //17
      "    case 1:", //18
      "        import k", //19
    ].join("\n");
    const got = (await facts(src)).imports.map((r) => `${r.specifier}@${r.start_line}`);
    expect(got).toEqual(["a@2", "b@4", "c@6", "d@8", "e@10", "g@12", "h@14", "j@16", "k@19"]);
  });

  it("never takes comments or strings for imports", async () => {
    const src = '# import os\nNOTE = "import sys"\n"""\nfrom a import b\n"""\nx = f"import {y}"\n';
    expect((await facts(src)).imports).toEqual([]);
  });

  it("flags imports under if TYPE_CHECKING: and if typing.TYPE_CHECKING: (not the else branch)", async () => {
    const src = "if TYPE_CHECKING:\n    import a\nelse:\n    import b\nif typing.TYPE_CHECKING:\n    from c import d\n";
    expect(await imports(src)).toEqual([
      ["a", null, 2, 2, null, ["type_checking"]],
      ["b", null, 4, 4, null, null],
      ["c", ["d"], 6, 6, null, ["type_checking"]],
    ]);
  });

  it("flags importlib.import_module / import_module / __import__ with a literal as dynamic", async () => {
    const src = 'import importlib\nm = importlib.import_module("pkg.mod")\nn = import_module(".sub", "pkg")\no = __import__("os.path")\n';
    expect(await imports(src)).toEqual([
      ["importlib", null, 1, 1, null, null],
      ["pkg.mod", null, 2, 2, null, ["dynamic"]],
      ["pkg.sub", null, 3, 3, null, ["dynamic"]],
      ["os.path", null, 4, 4, null, ["dynamic"]],
    ]);
  });

  it("keeps a non-literal dynamic import as dynamic + unresolved with the argument's text", async () => {
    expect(await imports('mod = importlib.import_module(name)\nx = __import__(f"p.{n}")\n')).toEqual([
      ["name", null, 1, 1, null, ["dynamic", "unresolved"]],
      ['f"p.{n}"', null, 2, 2, null, ["dynamic", "unresolved"]],
    ]);
  });

  it("leaves __all__ alone: a re-export adds no import", async () => {
    expect(await imports('from .a import x\n__all__ = ["x", "y"]\n')).toEqual([[".a", ["x"], 1, 1, null, null]]);
  });
});

describe("python extraction: definitions", () => {
  const defs = async (src: string) =>
    (await facts(src)).symbols.map((s) => `${s.container ? `${s.container}.` : ""}${s.name}:${s.kind}:${s.start_line}-${s.end_line}`);

  it("functions, classes, methods (container = class, nested classes dotted), decorators in the range", async () => {
    const src = [
      "@app.route('/')", //1
      "def index():", //2
      "    return 1", //3
      "class A(Base):", //4
      "    @property", //5
      "    def f(self):", //6
      "        pass", //7
      "    class B:", //8
      "        def g(self): pass", //9
      "async def h(): pass", //10
    ].join("\n");
    expect(await defs(src)).toEqual([
      "index:function:1-3",
      "A:class:4-9",
      "A.f:method:5-7",
      "A.B:class:8-9",
      "A.B.g:method:9-9",
      "h:function:10-10",
    ]);
  });

  it("module-level constants and variables, class attributes, tuple targets, lambdas, type aliases; no short-definition threshold", async () => {
    const src = [
      "MAX_SIZE = 10", //1
      "name: str", //2
      "a, b = 1, 2", //3
      "square = lambda x: x * x", //4
      "type Pair = tuple[int, int]", //5
      "class C:", //6
      "    LIMIT = 3", //7
      "    label: str = 'c'", //8
      "def f():", //9
      "    local = 1", //10
      "    def inner(): pass", //11
    ].join("\n");
    expect(await defs(src)).toEqual([
      "MAX_SIZE:constant:1-1",
      "name:variable:2-2",
      "a:variable:3-3",
      "b:variable:3-3",
      "square:function:4-4",
      "Pair:type:5-5",
      "C:class:6-8",
      "C.LIMIT:constant:7-7",
      "C.label:variable:8-8",
      "f:function:9-11",
      "inner:function:11-11",
    ]);
  });
});

describe("python layout: module names and roots", () => {
  const layout = (files: string[]) => {
    const p = memoryProject(files);
    return new PythonLayout(p, foldersOf(p));
  };

  it("rule 1: a package is named from the top of its __init__.py chain", () => {
    const l = layout(["src/pkg/__init__.py", "src/pkg/sub/__init__.py", "src/pkg/sub/m.py"]);
    expect(l.moduleName("src/pkg/sub/m.py")).toBe("pkg.sub.m");
    expect(l.moduleName("src/pkg/sub/__init__.py")).toBe("pkg.sub");
  });

  it("rule 2: roots are the repository root, parents of top-level packages and src/ or lib/ folders", () => {
    const l = layout([
      "services/a/app/__init__.py",
      "services/b/app/__init__.py",
      "src/ns/mod.py",
      "lib/tool.py",
      "pkg/__init__.py",
      "pkg/lib/x.py",
    ]);
    expect(l.roots).toEqual(["", "lib", "services/a", "services/b", "src"]);
  });

  it("rule 2a: a script's own folder comes first on its search path; a package's folder does not", () => {
    const l = layout(["scripts/run.py", "scripts/tools.py", "pkg/__init__.py", "pkg/m.py"]);
    expect(l.searchPath("scripts/run.py")).toEqual(["scripts", ""]);
    expect(l.searchPath("pkg/m.py")).toEqual([""]);
  });

  it("rule 2b: roots containing the file come deepest first, then the others", () => {
    const l = layout(["src/pkg/__init__.py", "src/pkg/m.py", "tests/test_m.py"]);
    expect(l.searchPath("src/pkg/m.py")).toEqual(["src", ""]);
    expect(l.searchPath("tests/test_m.py")).toEqual(["tests", "", "src"]);
  });

  it("rule 3: a package beats a module file, which beats a namespace folder", () => {
    const l = layout(["a/x/__init__.py", "a/x.py", "b/y.py", "b/y/data.txt", "c/z/data.txt"]);
    expect(l.findIn(["a"], "x")).toEqual({ kind: "package", file: "a/x/__init__.py", dirs: ["a/x"] });
    expect(l.findIn(["b"], "y")).toEqual({ kind: "module", file: "b/y.py", dirs: [] });
    expect(l.findIn(["c"], "z")).toEqual({ kind: "namespace", dirs: ["c/z"] });
  });

  it("rule 3: a namespace portion in an earlier root loses to a regular package in a later one (PEP 420)", () => {
    const l = layout(["pkg/readme.txt", "src/pkg/__init__.py"]);
    expect(l.findIn(["", "src"], "pkg")).toEqual({ kind: "package", file: "src/pkg/__init__.py", dirs: ["src/pkg"] });
  });

  it("rule 3: portions of one namespace package across roots are searched together", () => {
    const l = layout(["one/ns/a.py", "two/ns/b.py"]);
    const ns = l.findIn(["one", "two"], "ns");
    expect(ns).toEqual({ kind: "namespace", dirs: ["one/ns", "two/ns"] });
    expect(l.findIn(ns?.dirs ?? [], "b")).toEqual({ kind: "module", file: "two/ns/b.py", dirs: [] });
  });

  it("rule 3: a .py module beats a stub of the same name; a stub-only module is found", () => {
    const l = layout(["m.py", "m.pyi", "stubonly.pyi"]);
    expect(l.findIn([""], "m")?.file).toBe("m.py");
    expect(l.findIn([""], "stubonly")?.file).toBe("stubonly.pyi");
  });

  it("rule 4: outside packages a file is named below the deepest root; non-identifiers have no name", () => {
    const l = layout(["src/rag_common.py", "tools/x.py", "my-scripts/y.py"]);
    expect(l.moduleName("src/rag_common.py")).toBe("rag_common");
    expect(l.moduleNames("src/rag_common.py").sort()).toEqual(["rag_common", "src.rag_common"]);
    expect(l.moduleName("tools/x.py")).toBe("tools.x");
    expect(l.moduleName("my-scripts/y.py")).toBeUndefined();
    expect(l.moduleNames("my-scripts/y.py")).toEqual(["y"]);
  });
});

describe("python resolution", () => {
  const ref = (specifier: string, names?: string[], flags?: ImportRef["flags"]): ImportRef => ({
    specifier,
    ...(names ? { names } : {}),
    ...(flags ? { flags } : {}),
    start_line: 1,
    end_line: 1,
  });
  const project = memoryProject([
    "src/shop/__init__.py",
    "src/shop/cart.py",
    "src/shop/catalog.py",
    "src/shop/orders/__init__.py",
    "src/shop/orders/status.py",
    "src/ns/plug/core.py",
    "src/ns/plug/helpers.py",
    "src/rag_common.py",
    "src/rag_chat.py",
    "tests/test_cart.py",
    "tests/helpers.py",
  ]);
  const resolve = (r: ImportRef, from: string) => resolvePython(r, from, project);

  it("absolute import through a src/ root from a test folder", async () => {
    expect(await resolve(ref("shop.cart"), "tests/test_cart.py")).toEqual({ files: ["src/shop/cart.py"], module: "shop.cart", external: false });
  });

  it("a script's sibling module (script folder on sys.path)", async () => {
    expect(await resolve(ref("helpers"), "tests/test_cart.py")).toEqual({ files: ["tests/helpers.py"], module: "helpers", external: false });
    expect(await resolve(ref("rag_common", ["load_index"]), "src/rag_chat.py")).toEqual({
      files: ["src/rag_common.py"],
      module: "rag_common",
      external: false,
    });
  });

  it("PEP 328: one dot in a module is its package", async () => {
    expect(await resolve(ref(".catalog", ["Item"]), "src/shop/cart.py")).toMatchObject({ files: ["src/shop/catalog.py"], module: "shop.catalog" });
  });

  it("PEP 328: one dot in __init__.py is the package itself", async () => {
    expect(await resolve(ref(".", ["cart"]), "src/shop/__init__.py")).toMatchObject({ files: ["src/shop/cart.py"], module: "shop.cart" });
    expect(await resolve(ref(".", ["status"]), "src/shop/orders/__init__.py")).toMatchObject({
      files: ["src/shop/orders/status.py"],
      module: "shop.orders.status",
    });
  });

  it("PEP 328: two dots go one package up", async () => {
    expect(await resolve(ref("..cart", ["Cart"]), "src/shop/orders/status.py")).toMatchObject({ files: ["src/shop/cart.py"], module: "shop.cart" });
    expect(await resolve(ref("..", ["catalog"]), "src/shop/orders/__init__.py")).toMatchObject({ files: ["src/shop/catalog.py"] });
  });

  it("PEP 328: above the top-level package, or in a top-level module, a relative import is unresolved", async () => {
    expect(await resolve(ref("...", ["x"]), "src/shop/orders/status.py")).toEqual({ files: [], module: "...", external: false, unresolved: true });
    expect(await resolve(ref(".", ["x"]), "src/rag_chat.py")).toMatchObject({ unresolved: true });
  });

  it("from X import y → X.y when that module exists, else X (grimp)", async () => {
    expect(await resolve(ref("shop", ["catalog"]), "tests/test_cart.py")).toMatchObject({ files: ["src/shop/catalog.py"], module: "shop.catalog" });
    expect(await resolve(ref("shop", ["Cart"]), "tests/test_cart.py")).toMatchObject({ files: ["src/shop/__init__.py"], module: "shop" });
    expect(await resolve(ref("shop.cart", ["*"]), "tests/test_cart.py")).toMatchObject({ files: ["src/shop/cart.py"], module: "shop.cart" });
  });

  it("an alias of from X import y as z renames the module only when y is a submodule (memberAlias otherwise)", async () => {
    const aliased = (specifier: string, names: string[] | undefined, alias: string): ImportRef => ({ ...ref(specifier, names), alias });
    expect(await resolve(aliased("shop.cart", undefined, "c"), "tests/test_cart.py")).toEqual({ files: ["src/shop/cart.py"], module: "shop.cart", external: false });
    expect(await resolve(aliased("shop", ["catalog"], "cat"), "tests/test_cart.py")).toEqual({ files: ["src/shop/catalog.py"], module: "shop.catalog", external: false });
    expect(await resolve(aliased("shop", ["Cart"], "C"), "tests/test_cart.py")).toEqual({ files: ["src/shop/__init__.py"], module: "shop", external: false, memberAlias: true });
    expect(await resolve(aliased(".catalog", ["Item"], "Item"), "src/shop/cart.py")).toEqual({ files: ["src/shop/catalog.py"], module: "shop.catalog", external: false, memberAlias: true });
    expect(await resolve(aliased("flask", ["Flask"], "F"), "tests/test_cart.py")).toEqual({ files: [], module: "flask", external: true, memberAlias: true });
    // without an alias nothing changes
    expect(await resolve(ref("shop", ["Cart"]), "tests/test_cart.py")).toEqual({ files: ["src/shop/__init__.py"], module: "shop", external: false });
  });

  it("import a.b where a.b is not a module leads to a (grimp's parent rule)", async () => {
    expect(await resolve(ref("shop.catalog.find"), "tests/test_cart.py")).toMatchObject({ files: ["src/shop/catalog.py"], module: "shop.catalog" });
  });

  it("namespace packages (PEP 420): absolute and relative imports inside them", async () => {
    expect(await resolve(ref("ns.plug", ["helpers"]), "tests/test_cart.py")).toMatchObject({ files: ["src/ns/plug/helpers.py"], module: "ns.plug.helpers" });
    expect(await resolve(ref(".", ["helpers"]), "src/ns/plug/core.py")).toMatchObject({ files: ["src/ns/plug/helpers.py"], module: "ns.plug.helpers" });
    expect(await resolve(ref("ns"), "tests/test_cart.py")).toEqual({ files: [], module: "ns", external: false });
  });

  it("a name whose first part is not in the tree is external and keeps its full name", async () => {
    expect(await resolve(ref("numpy.linalg"), "src/rag_chat.py")).toEqual({ files: [], module: "numpy.linalg", external: true });
    expect(await resolve(ref("os", ["path"]), "src/rag_chat.py")).toEqual({ files: [], module: "os", external: true });
  });

  it("a name whose first part is in the tree but whose rest is not is unresolved", async () => {
    expect(await resolve(ref("shop.nothing.deeper"), "tests/test_cart.py")).toMatchObject({ files: [], unresolved: true });
  });

  it("dynamic imports resolve like import statements; non-literal ones stay unresolved", async () => {
    expect(await resolve(ref("shop.cart", undefined, ["dynamic"]), "tests/test_cart.py")).toMatchObject({ files: ["src/shop/cart.py"] });
    expect(await resolve(ref("name", undefined, ["dynamic", "unresolved"]), "tests/test_cart.py")).toMatchObject({ unresolved: true });
  });

  it("the own root wins when two roots hold a package of the same name", async () => {
    const p = memoryProject(["svc/a/api/__init__.py", "svc/a/api/h.py", "svc/b/api/__init__.py", "svc/b/api/h.py", "svc/b/api/routes.py"]);
    expect(await resolvePython(ref("api.h"), "svc/b/api/routes.py", p)).toMatchObject({ files: ["svc/b/api/h.py"] });
  });

  it("matches external modules by name: the exact module or from X import y naming X.y; below the query only with submodules", () => {
    const match = (q: string, r: ImportRef, module: string, sub: boolean) => python.matchesExternal?.(q, r, { files: [], module, external: true }, sub);
    expect(match("numpy", ref("numpy.linalg"), "numpy.linalg", false)).toBe(false);
    expect(match("numpy", ref("numpy.linalg"), "numpy.linalg", true)).toBe(true);
    expect(match("numpy", ref("numpy.linalg", ["norm"]), "numpy.linalg", true)).toBe(true);
    expect(match("numpy", ref("numpy", ["linalg"]), "numpy", false)).toBe(true);
    expect(match("numpy.linalg", ref("numpy", ["linalg"]), "numpy", false)).toBe(true);
    expect(match("numpy", ref("numpyx"), "numpyx", true)).toBe(false);
  });
});

describe("python references: classes declared inside a function", () => {
  const dir = scratchDir("codecite-py-local-");
  const files = {
    "test_a.py": [
      "class Spec:", // 1
      "    def hook(self): pass",
      "",
      "def test_one():",
      "    class Spec:", // 5
      "        def hook(item): pass",
      "    assert Spec.hook", // 7: the local class, dotted
      "    assert Spec().hook", // 8: an instance of it
      "    Spec.other",
      "",
      "def test_two():",
      "    assert Spec.hook", // 12: the top-level class
      "    assert Spec().hook", // 13
      "    x = make()",
      "    x.hook",
      "",
    ].join("\n"),
  };

  it("a dotted use led by the local class (Spec.hook, Spec().hook) names its member, not the top-level class's", async () => {
    // The located site is the first `Spec.hook` of the file (the top-level class): uses in test_two
    // (x.hook on a receiver of unknown type by name), none of the local class's in test_one.
    expect(await referencesIn(dir, files, "Spec.hook", "test_a.py")).toEqual(["test_a.py:12 value", "test_a.py:13 value", "test_a.py:15 value,by_name"]);
  });

  it("the local class itself: its uses in the function, dotted or called", async () => {
    const local = { "test_b.py": ["def test_one():", "    class Hooks:", "        def on(item): pass", "    f(Hooks.on)", "    g(Hooks().on)", ""].join("\n") };
    expect(await referencesIn(dir, local, "Hooks", "test_b.py")).toEqual(["test_b.py:4 value", "test_b.py:5 call"]);
    expect(await referencesIn(dir, local, "Hooks.on", "test_b.py")).toEqual(["test_b.py:4 value", "test_b.py:5 value"]);
  });
});

describe("python references: receivers typed by a function's declared return type", () => {
  const dir = scratchDir("codecite-py-returns-");
  const files = {
    "models.py": [
      "from typing import Optional",
      "class Conn:",
      "    def send(self): pass", // 3
      "class Other:",
      "    def send(self): pass", // 5
      "def connect() -> Conn:",
      "    return Conn()",
      'def maybe() -> Optional["Conn"]:',
      "    return None",
      'def other() -> "Other":',
      "    return Other()",
      "def untyped():",
      "    return Conn()",
      "class Pool:",
      "    def get(self) -> Conn | None:",
      "        return None",
      "    def use(self):",
      "        c = self.get()",
      "        c.send()", // 19: self.get() returns Conn | None
      "",
    ].join("\n"),
    "use.py": [
      "from models import connect, other, untyped, maybe",
      "import models",
      "c = connect()",
      "c.send()", // 4: top level
      "def f():",
      "    x = models.connect()",
      "    x.send()", // 7: through the module
      "    connect().send()", // 8: the call itself is the receiver
      "    o = other()",
      "    o.send()", // 10: Other, not Conn
      "    u = untyped()",
      "    u.send()", // 12: no declared type: unknown, two classes define send
      "    m = maybe()",
      "    m.send()", // 14: Optional[...]
      "    x = other()",
      "    x.send()", // 16: x bound again, now to Other
      "",
    ].join("\n"),
  };

  it("x = f() then x.m, f().m, x = self.get(): the member of the class the callee declares it returns", async () => {
    expect(await referencesIn(dir, files, "Conn.send", "models.py")).toEqual(["models.py:19 call", "use.py:4 call", "use.py:7 call", "use.py:8 call", "use.py:14 call"]);
    expect(await referencesIn(dir, files, "Other.send", "models.py")).toEqual(["use.py:10 call", "use.py:16 call"]);
  });
});

describe("python references: pytest fixtures", () => {
  const dir = scratchDir("codecite-py-fixtures-");
  const files = {
    "conftest.py": ["import pytest", "@pytest.fixture", "def db():", "    return 1", ""].join("\n"),
    "tests/test_a.py": [
      "import pytest",
      "def test_one(db):", // 2: the parameter names the fixture
      "    assert db == 1", // 3: and so does its use in the body
      "def helper(db):", // 4: not a test or fixture
      "    return db",
      "class TestX:",
      "    def test_m(self, db):", // 7
      "        pass",
      "@pytest.fixture",
      "def conn(db, tmp=1):", // 10: a fixture takes fixtures too
      "    return db",
      '@pytest.mark.parametrize("x, db", [(1, 2)])',
      "def test_p(x, db):", // 13: parametrized, not the fixture
      "    return db",
      "def test_nested(db):", // 15
      "    def setup():",
      "        return db", // 17: a use in a nested function
      "",
    ].join("\n"),
    "tests/sub/conftest.py": ["from pytest import fixture", "@fixture", "def db():", "    return 2", ""].join("\n"),
    "tests/sub/test_b.py": ["def test_two(db):", "    pass", ""].join("\n"), // the nearer conftest.py's db
  };

  it("a test's or fixture's parameter and its uses name the fixture of its module or the nearest conftest.py", async () => {
    expect(await referencesIn(dir, files, "db", "conftest.py")).toEqual(["tests/test_a.py:2 value", "tests/test_a.py:3 value", "tests/test_a.py:7 value", "tests/test_a.py:10 value", "tests/test_a.py:11 value", "tests/test_a.py:15 value", "tests/test_a.py:17 value"]);
    expect(await referencesIn(dir, files, "db", "tests/sub/conftest.py")).toEqual(["tests/sub/test_b.py:1 value"]);
  });
});
