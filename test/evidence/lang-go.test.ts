import { execFileSync } from "node:child_process";
import { noteOf } from "../helpers/note.js";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { go, goModulePath } from "../../src/evidence/analysis/lang/go.js";
import type { ImportRef } from "../../src/evidence/analysis/lang/language.js";
import {
  definitionsOf,
  factsOf,
  fixtureProject,
  hasTool,
  importersOf,
  memoryProject,
  referencesIn,
  resolvedImports,
  scratchDir,
  symbolsIn,
} from "./lang-test-kit.js";

const { root, project } = fixtureProject("go-project");
const STORE_FILES = ["internal/store/stats.go", "internal/store/store.go", "internal/store/store_test.go"];

describe("go: definitions", () => {
  it("finds package-level types, functions, methods, constants and variables with exact ranges", async () => {
    const symbols = await symbolsIn(go, project, "internal/store/store.go");
    expect(symbols).toEqual([
      { name: "ErrNotFound", kind: "variable", start_line: 10, end_line: 10 },
      { name: "Kind", kind: "type", start_line: 13, end_line: 13 },
      // grouped `const ( … )`: each spec's own line
      { name: "KindMemory", kind: "constant", start_line: 16, end_line: 16 },
      { name: "KindDisk", kind: "constant", start_line: 17, end_line: 17 },
      { name: "MaxKeys", kind: "constant", start_line: 20, end_line: 20 },
      { name: "defaultKind", kind: "variable", start_line: 23, end_line: 23 },
      // `hits, misses int64`: one definition per name
      { name: "hits", kind: "variable", start_line: 24, end_line: 24 },
      { name: "misses", kind: "variable", start_line: 24, end_line: 24 },
      // generic interface and the methods it lists
      { name: "Repository", kind: "interface", start_line: 28, end_line: 32 },
      { name: "Get", kind: "method", container: "Repository", start_line: 29, end_line: 29 },
      { name: "Put", kind: "method", container: "Repository", start_line: 30, end_line: 30 },
      { name: "Len", kind: "method", container: "Repository", start_line: 31, end_line: 31 },
      { name: "Memory", kind: "struct", start_line: 35, end_line: 38 },
      { name: "Key", kind: "type", start_line: 41, end_line: 41 },
      // grouped `type ( … )`
      { name: "Visitor", kind: "type", start_line: 45, end_line: 45 },
      { name: "Stats", kind: "struct", start_line: 46, end_line: 46 },
      { name: "NewMemory", kind: "function", start_line: 50, end_line: 52 },
      // pointer receivers on a generic type: container is the bare type name
      { name: "Get", kind: "method", container: "Memory", start_line: 55, end_line: 65 },
      { name: "Put", kind: "method", container: "Memory", start_line: 67, end_line: 71 },
      { name: "Len", kind: "method", container: "Memory", start_line: 73, end_line: 73 },
    ]);
  });

  it("gives value-receiver methods their receiver type and keeps one-line functions", async () => {
    const symbols = await symbolsIn(go, project, "internal/store/stats.go");
    expect(symbols).toEqual([
      { name: "Snapshot", kind: "function", start_line: 4, end_line: 4 },
      { name: "Ratio", kind: "method", container: "Stats", start_line: 6, end_line: 11 },
      { name: "String", kind: "method", container: "Kind", start_line: 13, end_line: 20 },
    ]);
  });

  it("reports type aliases and a grouped typed const block", async () => {
    const symbols = await symbolsIn(go, project, "libs/money/money.go");
    expect(symbols).toEqual([
      { name: "Amount", kind: "type", start_line: 9, end_line: 9 },
      { name: "Currency", kind: "type", start_line: 12, end_line: 12 },
      { name: "EUR", kind: "constant", start_line: 15, end_line: 15 },
      { name: "USD", kind: "constant", start_line: 16, end_line: 16 },
      { name: "String", kind: "method", container: "Amount", start_line: 20, end_line: 22 },
    ]);
  });

  it("strips parentheses from receivers and skips blank names", async () => {
    const src = ["package p", "", "func (t *(T)) M() {}", "", "var _ = 1", "", "func (Pair[K]) N() {}", ""].join("\n");
    const { symbols } = await factsOf(go, src);
    expect(symbols).toEqual([
      { name: "M", kind: "method", container: "T", start_line: 3, end_line: 3 },
      { name: "N", kind: "method", container: "Pair", start_line: 7, end_line: 7 },
    ]);
  });
});

describe("go: imports", () => {
  it("lists single, grouped, aliased, blank and dot imports of cmd/shop/main.go and resolves them", async () => {
    const imports = await resolvedImports(go, project, "cmd/shop/main.go");
    const f = "cmd/shop/main.go";
    const ext = (line: number, specifier: string) => ({ file: f, line, end: line, specifier, module: specifier, files: [], external: true });
    expect(imports).toEqual([
      ext(4, "fmt"),
      ext(7, "log"),
      ext(8, "net/http"),
      ext(9, "os"),
      { file: f, line: 11, end: 11, specifier: "example.com/money", module: "example.com/money", files: ["libs/money/money.go"], external: false },
      {
        file: f, line: 12, end: 12, specifier: "example.com/shop/internal/api", module: "example.com/shop/internal/api",
        files: ["internal/api/handler.go"], external: false,
      },
      {
        file: f, line: 13, end: 13, specifier: "example.com/shop/internal/migrations", alias: "_",
        module: "example.com/shop/internal/migrations", files: ["internal/migrations/migrations.go"], external: false,
      },
      {
        file: f, line: 14, end: 14, specifier: "example.com/shop/internal/store", alias: "st",
        module: "example.com/shop/internal/store", files: STORE_FILES, external: false,
      },
      {
        file: f, line: 15, end: 15, specifier: "example.com/shop/internal/strutil", alias: ".",
        module: "example.com/shop/internal/strutil", files: ["internal/strutil/strutil.go"], external: false,
      },
    ]);
  });

  it("maps a module-local path to its package folder, so importers of a file are importers of its folder", async () => {
    const imports = await resolvedImports(go, project, "internal/migrations/migrations.go");
    expect(imports).toEqual([
      {
        file: "internal/migrations/migrations.go", line: 4, end: 4, specifier: "example.com/shop/internal/store",
        module: "example.com/shop/internal/store", files: STORE_FILES, external: false,
      },
    ]);
  });

  it("uses the whole declaration as the range of a single import and the spec line in a group", async () => {
    const src = ['package p', '', 'import (', '\t"strings"', ')', '', 'import x "os"', '', "import `raw/path`", ""].join("\n");
    const { imports } = await factsOf(go, src);
    expect(imports).toEqual<ImportRef[]>([
      { specifier: "strings", start_line: 4, end_line: 4 },
      { specifier: "os", alias: "x", start_line: 7, end_line: 7 },
      { specifier: "raw/path", start_line: 9, end_line: 9 },
    ]);
  });

  it("resolves a path through the replace-d sibling module (every go.mod in the tree is a candidate)", async () => {
    const res = await go.resolve({ specifier: "example.com/money", start_line: 1, end_line: 1 }, "internal/api/handler.go", project);
    expect(res).toEqual({ files: ["libs/money/money.go"], module: "example.com/money", external: false });
  });

  it("prefers the longest module path (nested modules) and skips files the go tool ignores", async () => {
    const p = memoryProject({
      "go.mod": "module example.com/app\n",
      "main.go": "package main\n",
      "tools/go.mod": "// tools are their own module\nmodule example.com/app/tools // trailing comment\n",
      "tools/lint/lint.go": "package lint\n",
      "tools/lint/_scratch.go": "package lint\n",
      "tools/lint/.hidden.go": "package lint\n",
      "tools/lint/README.md": "docs\n",
    });
    const ref = { specifier: "example.com/app/tools/lint", start_line: 3, end_line: 3 };
    expect(await go.resolve(ref, "main.go", p)).toEqual({
      files: ["tools/lint/lint.go"],
      module: "example.com/app/tools/lint",
      external: false,
    });
  });

  it("picks the nearest go.mod when two declare the same module path", async () => {
    const p = memoryProject({
      "a/go.mod": "module example.com/dup\n",
      "a/util/u.go": "package util\n",
      "b/go.mod": "module example.com/dup\n",
      "b/util/u.go": "package util\n",
      "b/cmd/main.go": "package main\n",
    });
    const ref = { specifier: "example.com/dup/util", start_line: 1, end_line: 1 };
    expect((await go.resolve(ref, "b/cmd/main.go", p)).files).toEqual(["b/util/u.go"]);
    expect((await go.resolve(ref, "a/x.go", p)).files).toEqual(["a/util/u.go"]);
  });

  it("uses vendor/ next to the importing module's go.mod first", async () => {
    const p = memoryProject({
      "go.mod": "module example.com/app\n",
      "main.go": "package main\n",
      "vendor/github.com/acme/log/log.go": "package log\n",
    });
    const ref = { specifier: "github.com/acme/log", start_line: 1, end_line: 1 };
    expect(await go.resolve(ref, "main.go", p)).toEqual({
      files: ["vendor/github.com/acme/log/log.go"],
      module: "github.com/acme/log",
      external: false,
    });
  });

  it("keeps the standard library external and marks a missing local package unresolved", async () => {
    const p = memoryProject({ "go.mod": "module example.com/app\n", "main.go": "package main\n" });
    expect(await go.resolve({ specifier: "net/http", start_line: 1, end_line: 1 }, "main.go", p)).toEqual({
      files: [],
      module: "net/http",
      external: true,
    });
    expect(await go.resolve({ specifier: "example.com/app/gone", start_line: 1, end_line: 1 }, "main.go", p)).toEqual({
      files: [],
      module: "example.com/app/gone",
      external: true,
      unresolved: true,
    });
  });

  it("reads quoted and commented module lines", () => {
    expect(goModulePath('// header\nmodule "example.com/q" // note\n\ngo 1.22\n')).toBe("example.com/q");
    expect(goModulePath("go 1.22\n")).toBeUndefined();
  });

  it("names a file by its package import path and hints importers with it", async () => {
    expect(await go.moduleNames?.("internal/store/store.go", project)).toEqual(["example.com/shop/internal/store"]);
    expect(await go.moduleNames?.("libs/money/money.go", project)).toEqual(["example.com/money"]);
    expect(await go.moduleNames?.("cmd/shop/main.go", project)).toEqual(["example.com/shop/cmd/shop"]);
    expect(await go.importerHints?.("internal/api/handler.go", project)).toEqual({ literals: ["example.com/shop/internal/api"] });
  });
});

describe("go: find_symbol and find_importers end to end", () => {
  it("find_symbol `Get` finds the interface method and the pointer-receiver method, whole ranges", async () => {
    const { records, snippets } = await definitionsOf(root, "Get");
    expect(records).toEqual([
      "internal/store/store.go:29-29 Repository.Get method | \tGet(key K) (V, error)",
      "internal/store/store.go:55-65 Memory.Get method | func (m *Memory[K, V]) Get(key K) (V, error) {",
    ]);
    expect(snippets[1]?.split("\n")).toHaveLength(11);
  });

  it("find_symbol `Stats` with kind struct, and `Amount.String`", async () => {
    expect((await definitionsOf(root, "Stats", "struct")).records).toEqual(["internal/store/store.go:46-46 Stats struct | \tStats   struct{ Hits, Misses int64 }"]);
    expect((await definitionsOf(root, "Amount.String")).records).toEqual([
      "libs/money/money.go:20-22 Amount.String method | func (a Amount) String(c Currency) string {",
    ]);
  });

  it("an external package is matched by its whole import path: net is not net/http", async () => {
    expect((await importersOf(root, "net")).records).toEqual([]);
    expect((await importersOf(root, "net/http")).records.map((r) => r.split(" ")[0])).toEqual(["cmd/shop/main.go:8-8", "internal/api/handler.go:6-6"]);
  });

  it("find_importers of a file lists the importers of its package folder (its own test file is not one)", async () => {
    const expected = [
      "cmd/shop/main.go:14-14 example.com/shop/internal/store alias=st | \tst \"example.com/shop/internal/store\"",
      "internal/api/handler.go:9-9 example.com/shop/internal/store | \t\"example.com/shop/internal/store\"",
      "internal/migrations/migrations.go:4-4 example.com/shop/internal/store | import \"example.com/shop/internal/store\"",
    ];
    expect((await importersOf(root, "internal/store/stats.go")).records).toEqual(expected);
    expect((await importersOf(root, "example.com/shop/internal/store")).records).toEqual(expected);
  });

  it("a folder holding .go files is that package: `internal/store` and `internal/store/` as the import path does", async () => {
    const expected = [
      "cmd/shop/main.go:14-14 example.com/shop/internal/store alias=st | \tst \"example.com/shop/internal/store\"",
      "internal/api/handler.go:9-9 example.com/shop/internal/store | \t\"example.com/shop/internal/store\"",
      "internal/migrations/migrations.go:4-4 example.com/shop/internal/store | import \"example.com/shop/internal/store\"",
    ];
    for (const q of ["internal/store", "internal/store/", "store", "shop/internal/store"]) {
      const r = await importersOf(root, q);
      expect(r.records, q).toEqual(expected);
      expect(noteOf(r), q).toBeUndefined();
    }
    expect((await importersOf(root, "internal/strutil")).records).toEqual([
      "cmd/shop/main.go:15-15 example.com/shop/internal/strutil alias=. | \t. \"example.com/shop/internal/strutil\"",
    ]);
    // a folder without .go files is no package: an empty result that says how it was read
    const none = await importersOf(root, "cmd");
    expect(none.records).toEqual([]);
    expect(noteOf(none)).toContain("No module or file named 'cmd'");
  });

  it("an external test package (package x_test) in the folder imports the package", async () => {
    const dir = mkdtempSync(join(tmpdir(), "codecite-go-xtest-"));
    try {
      writeFileSync(join(dir, "go.mod"), "module example.com/m\n\ngo 1.21\n");
      mkdirSync(join(dir, "store"));
      writeFileSync(join(dir, "store", "store.go"), "package store\n\nfunc Get() int { return 1 }\n");
      writeFileSync(join(dir, "store", "store_ext_test.go"), 'package store_test\n\nimport (\n\t"testing"\n\n\t"example.com/m/store"\n)\n\nfunc TestGet(t *testing.T) { _ = store.Get() }\n');
      expect((await importersOf(dir, "store")).records).toEqual([
        'store/store_ext_test.go:6-6 example.com/m/store | \t"example.com/m/store"',
      ]);
      expect((await importersOf(dir, "store/store.go")).records).toEqual([
        'store/store_ext_test.go:6-6 example.com/m/store | \t"example.com/m/store"',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("find_importers of the replace-d module and of a standard library package", async () => {
    expect((await importersOf(root, "libs/money/money.go")).records).toEqual([
      "cmd/shop/main.go:11-11 example.com/money | \t\"example.com/money\"",
      "internal/api/handler.go:8-8 example.com/money alias=m | \tm \"example.com/money\"",
    ]);
    expect((await importersOf(root, "net/http")).records).toEqual([
      "cmd/shop/main.go:8-8 net/http | \t\"net/http\"",
      "internal/api/handler.go:6-6 net/http | \t\"net/http\"",
    ]);
  });
});

/** Go ground truth: `go list` must agree with our import lists and package folders (skipped without `go`). */
const hasGo = hasTool("go", ["version"]);

describe.skipIf(!hasGo)("go: agrees with `go list`", () => {
  const scratch = scratchDir("codecite-go-");

  it("imports per package and the folder of every local import", async () => {
    const env = {
      ...process.env,
      GOCACHE: join(scratch, "cache"),
      GOPATH: join(scratch, "gopath"),
      GOPROXY: "off",
      GOFLAGS: "-mod=readonly",
      GOWORK: "off",
      GOTOOLCHAIN: "local",
    };
    const format = "{{.ImportPath}}\t{{.Dir}}\t{{.Standard}}\t{{join .Imports \",\"}}\t{{join .TestImports \",\"}}";
    const out = execFileSync("go", ["list", "-deps", "-test=false", "-f", format, "./..."], { cwd: root, env, encoding: "utf8" });
    const local = out
      .trim()
      .split("\n")
      .map((line) => line.split("\t"))
      .filter((cols) => cols[2] === "false")
      .map(([importPath = "", dir = "", , imports = "", testImports = ""]) => ({
        importPath,
        dir: dir.slice(root.length + 1),
        imports: imports.split(",").filter(Boolean).sort(),
        testImports: testImports.split(",").filter(Boolean).sort(),
      }));
    expect(local.map((p) => p.importPath).sort()).toEqual([
      "example.com/money",
      "example.com/shop/cmd/shop",
      "example.com/shop/internal/api",
      "example.com/shop/internal/migrations",
      "example.com/shop/internal/store",
      "example.com/shop/internal/strutil",
    ]);
    const dirOf = new Map(local.map((p) => [p.importPath, p.dir]));
    for (const pkg of local) {
      const goFiles = project.files.filter((f) => f.startsWith(`${pkg.dir}/`) && !f.slice(pkg.dir.length + 1).includes("/") && f.endsWith(".go"));
      const ours = { imports: new Set<string>(), testImports: new Set<string>() };
      for (const file of goFiles) {
        for (const imp of await resolvedImports(go, project, file)) {
          (file.endsWith("_test.go") ? ours.testImports : ours.imports).add(imp.specifier);
          const goDir = dirOf.get(imp.specifier);
          if (goDir !== undefined) expect(imp.files.map((f) => f.slice(0, f.lastIndexOf("/")))).toContain(goDir);
          expect(imp.external).toBe(goDir === undefined);
        }
      }
      expect([...ours.imports].sort(), pkg.importPath).toEqual(pkg.imports);
      expect([...ours.testImports].sort(), pkg.importPath).toEqual(pkg.testImports);
      expect(await go.moduleNames?.(goFiles[0] ?? "", project)).toEqual([pkg.importPath]);
    }
  });
});

describe("go: references", () => {
  const dir = scratchDir("codecite-go-refs-");

  it("a local bound to another typed local (nn := n of the receiver, p := &v, q := *p) carries its type; one bound to a call result does not", async () => {
    const files = {
      "go.mod": "module example.com/tree\n\ngo 1.21\n",
      "tree.go": [
        "package tree", // 1
        "",
        "type node struct{ kids []*node }",
        "",
        "type edges []*node",
        "",
        "func (n *node) find(label byte) *node { return nil }",
        "",
        "func (e edges) find(label byte) *node { return nil }",
        "",
        "func (n *node) walk(v node) {", // 11
        "\tnn := n",
        "\tnn.find(1)", // 13
        "\tp := &v",
        "\tq := *p",
        "\tq.find(2)", // 16
        "\tx := pick()",
        "\tx.find(3)", // 18: unknown receiver, two types define find
        "}",
        "",
        "func pick() edges { return nil }",
        "",
      ].join("\n"),
    };
    expect(await referencesIn(dir, files, "node.find", "tree.go")).toEqual(["tree.go:13 call", "tree.go:16 call"]);
  });
});
