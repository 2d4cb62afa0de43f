/** find_references over small fixtures: resolution through imports, shadowing, methods, the by_name rule, errors. */
import { noteOf } from "../helpers/note.js";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { findReferences } from "../../src/evidence/references.js";
import { ToolError, type EvidenceResult } from "../../src/evidence/evidence.js";
import type { FindReferencesArgs } from "../../src/evidence/args.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

const fixtures = path.resolve(import.meta.dirname, "../fixtures/references");
const refs = (ws: Workspace, name: string, extra: Partial<FindReferencesArgs> = {}) => findReferences(ws, { name, max_results: 50, ...extra });
/** `path:line flags context` per record. */
const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line} ${(e.flags ?? []).join(",")} ${e.context ?? "-"}`);

async function failure(p: Promise<unknown>): Promise<ToolError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ToolError) return err;
    throw err;
  }
  throw new Error("expected a ToolError");
}

describe("find_references: Python", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "python"));
  });

  it("follows aliases, module aliases, package re-exports and wildcards; skips shadowing parameters, comments and strings", async () => {
    const r = await refs(ws, "pkg.core.load_index");
    expect(where(r)).toEqual([
      "app.py:2 import app.py", // from pkg import li (li re-exported by pkg/__init__.py)
      "app.py:3 import app.py",
      "app.py:10 call b", // g(2)
      "app.py:11 call b", // pc.load_index(3)
      "app.py:12 call b", // pkg.core.load_index(4)
      "app.py:13 call b", // li(5)
      "app.py:18 value b", // f = g
      "app.py:19 call b", // pkg.load_index(6) through `from .core import *`
      "pkg/__init__.py:1 import pkg/__init__.py",
      "pkg/core.py:16 call Child.go",
    ]);
    expect(r.evidence[2]).toEqual({
      path: "app.py",
      start_line: 10,
      end_line: 10,
      kind: "reference",
      name: "load_index",
      snippet: "    g(2)",
      language: "python",
      context: "b",
      flags: ["call"],
    });
  });

  it("a function defined inside a function: its uses there, also in a comprehension", async () => {
    expect(where(await refs(ws, "nested_step"))).toEqual(["app.py:26 call outer"]);
  });

  it("kind keeps one use kind", async () => {
    const r = await refs(ws, "load_index", { path: "pkg/core.py", kind: "import" });
    expect(where(r)).toEqual(["app.py:2 import app.py", "app.py:3 import app.py", "pkg/__init__.py:1 import pkg/__init__.py"]);
  });

  it("methods: self in the class and its subclasses, instances of C(); unknown receivers left out when several classes define the name", async () => {
    expect(where(await refs(ws, "Base.run"))).toEqual(["app.py:15 call b", "pkg/core.py:13 call Child.go"]);
    const helper = await refs(ws, "Base.helper");
    expect(where(helper)).toEqual(["pkg/core.py:7 call Base.run"]);
    expect(noteOf(helper)).toContain("1 use of .helper on receivers of unknown type left out: 2 classes define helper.");
  });

  it("an ambiguous name is an INVALID_ARGUMENT error listing the candidates", async () => {
    const err = await failure(refs(ws, "load_index"));
    expect(err.code).toBe("INVALID_ARGUMENT");
    expect(err.message).toBe("name 'load_index' matches 2 definitions: load_index (function, other.py:6), load_index (function, pkg/core.py:2)");
  });

  it("an unknown name is NOT_FOUND with close names", async () => {
    const err = await failure(refs(ws, "load_indx"));
    expect(err.code).toBe("NOT_FOUND");
    expect(err.message).toContain("Close names: load_index (");
  });

  it("bad names and denied paths are typed errors", async () => {
    expect((await failure(refs(ws, "a\nb"))).code).toBe("INVALID_ARGUMENT");
    expect((await failure(refs(ws, "x".repeat(400)))).code).toBe("INVALID_ARGUMENT");
    expect((await failure(refs(ws, "load_index", { path: ".aws/keys.py" }))).code).toBe("DENIED");
  });
});

describe("find_references: TypeScript", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "ts"));
  });

  it("named, aliased, namespace and re-exported imports; shadowing; comments and strings never count", async () => {
    expect(where(await refs(ws, "helper"))).toEqual([
      "src/app.ts:1 import src/app.ts",
      "src/app.ts:3 import src/app.ts", // h2 re-exported from ./lib
      "src/app.ts:8 call g",
      "src/app.ts:12 value g",
      "src/lib/index.ts:1 import src/lib/index.ts",
      "src/lib/util.ts:3 call main",
    ]);
  });

  it("default exports, classes as types and bases", async () => {
    expect(where(await refs(ws, "main"))).toEqual(["src/app.ts:1 import src/app.ts", "src/app.ts:11 call g"]);
    expect(where(await refs(ws, "Box"))).toEqual([
      "src/app.ts:3 import src/app.ts",
      "src/app.ts:9 call g",
      "src/app.ts:10 type g",
      "src/app.ts:14 inherit src/app.ts",
      "src/lib/index.ts:1 import src/lib/index.ts",
    ]);
  });

  it("a function declared inside a function: its uses there, through closures", async () => {
    expect(where(await refs(ws, "inner"))).toEqual(["src/app.ts:18 call outer"]);
  });

  it("methods: new C(), declared types, this in subclasses; a receiver of unknown type is by_name when one class defines the method", async () => {
    expect(where(await refs(ws, "Box.open"))).toEqual(["src/app.ts:9 call g", "src/app.ts:14 call Sub.go", "src/app.ts:15 call,by_name z"]);
    expect(where(await refs(ws, "Box.close"))).toEqual(["src/app.ts:10 call g", "src/lib/util.ts:2 call Box.open"]);
  });
});

describe("find_references: Go", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "go"));
  });

  it("package qualifiers with an alias, the same package without import; a parameter of the same name and strings never count", async () => {
    expect(where(await refs(ws, "cart.Total"))).toEqual([
      "cart/cart.go:18 call Cart.Sum",
      "cart/helpers.go:3 call twice",
      "cmd/main.go:12 call main",
      "cmd/main.go:17 value main",
    ]);
  });

  it("methods through the receiver, &T{…} and var x T; the struct as type and composite literal", async () => {
    expect(where(await refs(ws, "Cart.Sum"))).toEqual(["cart/cart.go:21 call Cart.Double", "cmd/main.go:14 call main", "cmd/main.go:16 call main"]);
    expect(where(await refs(ws, "Cart"))).toEqual(["cart/cart.go:18 type Cart.Sum", "cart/cart.go:21 type Cart.Double", "cmd/main.go:13 call main", "cmd/main.go:15 type main"]);
  });
});

describe("find_references: Java", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(path.dirname(fixtures), "java-project"));
  });

  it("static imports and implicit this; a String receiver is not the repository's class", async () => {
    expect(where(await refs(ws, "Strings.trim"))).toEqual([
      "shop-app/src/main/java/com/shop/app/App.java:3 import shop-app/src/main/java/com/shop/app/App.java",
      "shop-app/src/main/java/com/shop/app/App.java:22 call App.place",
      "shop-core/src/main/java/com/shop/util/Strings.java:14 call Strings.isBlank",
    ]);
  });

  it("a constructor stands for its class; nested classes through imports; implements is inherit", async () => {
    expect(where(await refs(ws, "Order.Line"))).toEqual([
      "shop-app/src/main/java/com/shop/app/App.java:7 import shop-app/src/main/java/com/shop/app/App.java",
      "shop-app/src/main/java/com/shop/app/App.java:25 call App.place",
      // the simple name inside its enclosing class (JLS §6.5.5.1): List<Line>, add(Line line), List<Line> lines()
      "shop-core/src/main/java/com/shop/model/Order.java:12 type Order",
      "shop-core/src/main/java/com/shop/model/Order.java:42 type Order.add",
      "shop-core/src/main/java/com/shop/model/Order.java:49 type Order.lines",
    ]);
    expect(where(await refs(ws, "Store"))).toEqual([
      "shop-app/src/main/java/com/shop/app/App.java:15 type App",
      "shop-app/src/main/java/com/shop/app/App.java:17 type App.App",
      "shop-core/src/main/java/com/shop/store/MemoryStore.java:8 inherit shop-core/src/main/java/com/shop/store/MemoryStore.java",
    ]);
    const order = await refs(ws, "Order", { kind: "import" });
    expect(where(order)).toHaveLength(3);
  });

  it("a typed local's method call resolves through its declared type", async () => {
    expect(where(await refs(ws, "Order.add"))).toEqual(["shop-app/src/main/java/com/shop/app/App.java:25 call App.place"]);
  });
});

describe("find_references: Rust", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await Workspace.open(path.join(fixtures, "rust"));
  });

  it("use paths with groups, self and aliases, pub use re-exports, crate-name paths in macros; a local of the same name never counts", async () => {
    expect(where(await refs(ws, "pricing::total"))).toEqual([
      "src/lib.rs:4 import src/lib.rs",
      "src/main.rs:11 call main",
      "src/main.rs:12 call main", // refs::sum_prices, the `pub use … as` alias
      "src/pricing.rs:8 call doubled",
      "src/store/memory.rs:4 import src/store/memory.rs",
      "src/store/memory.rs:17 call Memory.value",
    ]);
  });

  it("Type::method, methods of a local bound by Type::new(), trait default methods through impl Trait for T", async () => {
    expect(where(await refs(ws, "Memory::new"))).toEqual(["src/main.rs:9 call main"]);
    expect(where(await refs(ws, "Memory::value"))).toEqual(["src/main.rs:5 call report", "src/main.rs:10 call main"]);
    expect(where(await refs(ws, "Store::has"))).toEqual(["src/main.rs:13 call main"]);
    expect(where(await refs(ws, "Store"))).toEqual(["src/main.rs:2 import src/main.rs", "src/store/memory.rs:3 import src/store/memory.rs", "src/store/memory.rs:21 inherit src/store/memory.rs"]);
  });
});
