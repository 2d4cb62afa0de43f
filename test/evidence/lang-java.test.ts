import { execFile } from "node:child_process";
import { renderForModel } from "../../src/evidence/advice.js";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { java, JAVA_BLIND_SPOT_NOTE, STATIC_IMPORT_FLAG } from "../../src/evidence/analysis/lang/java.js";
import type { ImportRef } from "../../src/evidence/analysis/lang/language.js";
import {
  definitionsOf,
  factsOf,
  fixtureProject,
  hasTool,
  importersOf,
  memoryProject,
  resolvedImports,
  scratchDir,
  symbolsIn,
  type ResolvedImport,
} from "./lang-test-kit.js";

const { root, project } = fixtureProject("java-project");
const CORE = "shop-core/src/main/java/com/shop";
const APP = "shop-app/src/main/java/com/shop/app";
const TEST = "shop-app/src/test/java/com/shop/app";

function imp(file: string, line: number, specifier: string, module: string, files: string[], flags?: string[]): ResolvedImport {
  const r: ResolvedImport = { file, line, end: line, specifier, module, files, external: files.length === 0 };
  if (flags !== undefined) r.flags = flags;
  return r;
}

describe("java: definitions", () => {
  it("Order.java: class, constants per declarator, constructor, nested record (compact constructor) and enum", async () => {
    const symbols = await symbolsIn(java, project, `${CORE}/model/Order.java`);
    expect(symbols).toEqual([
      { name: "Order", kind: "class", start_line: 8, end_line: 60 },
      { name: "MAX_LINES", kind: "constant", container: "Order", start_line: 9, end_line: 9 },
      // `private static final String PREFIX = "ord-", SUFFIX = "";` → two constants
      { name: "PREFIX", kind: "constant", container: "Order", start_line: 10, end_line: 10 },
      { name: "SUFFIX", kind: "constant", container: "Order", start_line: 10, end_line: 10 },
      { name: "Order", kind: "method", container: "Order", start_line: 15, end_line: 17 },
      { name: "Line", kind: "class", container: "Order", start_line: 20, end_line: 30 },
      // members of nested types carry the chain of enclosing types
      { name: "Line", kind: "method", container: "Order.Line", start_line: 21, end_line: 25 },
      { name: "total", kind: "method", container: "Order.Line", start_line: 27, end_line: 29 },
      { name: "Status", kind: "enum", container: "Order", start_line: 32, end_line: 40 },
      { name: "NEW", kind: "constant", container: "Order.Status", start_line: 33, end_line: 33 },
      { name: "PAID", kind: "constant", container: "Order.Status", start_line: 34, end_line: 34 },
      { name: "SHIPPED", kind: "constant", container: "Order.Status", start_line: 35, end_line: 35 },
      { name: "isOpen", kind: "method", container: "Order.Status", start_line: 37, end_line: 39 },
      { name: "add", kind: "method", container: "Order", start_line: 42, end_line: 47 },
      { name: "lines", kind: "method", container: "Order", start_line: 49, end_line: 51 },
      { name: "id", kind: "method", container: "Order", start_line: 53, end_line: 55 },
      { name: "status", kind: "method", container: "Order", start_line: 57, end_line: 59 },
    ]);
  });

  it("Store.java: interface fields are constants; abstract and default methods", async () => {
    const symbols = await symbolsIn(java, project, `${CORE}/store/Store.java`);
    expect(symbols).toEqual([
      { name: "Store", kind: "interface", start_line: 6, end_line: 16 },
      { name: "DEFAULT_LIMIT", kind: "constant", container: "Store", start_line: 7, end_line: 7 },
      { name: "find", kind: "method", container: "Store", start_line: 9, end_line: 9 },
      { name: "save", kind: "method", container: "Store", start_line: 11, end_line: 11 },
      { name: "contains", kind: "method", container: "Store", start_line: 13, end_line: 15 },
    ]);
  });

  it("ranges start at annotations; @interface and its elements; a record; a one-line private constructor", async () => {
    expect((await symbolsIn(java, project, `${CORE}/util/NotBlank.java`))).toEqual([
      { name: "NotBlank", kind: "interface", start_line: 9, end_line: 13 },
      { name: "message", kind: "method", container: "NotBlank", start_line: 12, end_line: 12 },
    ]);
    expect((await symbolsIn(java, project, `${CORE}/store/MemoryStore.java`))).toEqual([
      { name: "MemoryStore", kind: "class", start_line: 8, end_line: 24 },
      { name: "find", kind: "method", container: "MemoryStore", start_line: 11, end_line: 14 },
      { name: "save", kind: "method", container: "MemoryStore", start_line: 16, end_line: 19 },
      { name: "size", kind: "method", container: "MemoryStore", start_line: 21, end_line: 23 },
    ]);
    expect((await symbolsIn(java, project, `${CORE}/model/Customer.java`))).toEqual([
      { name: "Customer", kind: "class", start_line: 4, end_line: 8 },
      { name: "anonymous", kind: "method", container: "Customer", start_line: 5, end_line: 7 },
    ]);
    expect((await symbolsIn(java, project, `${CORE}/util/Strings.java`))).toEqual([
      { name: "Strings", kind: "class", start_line: 4, end_line: 16 },
      { name: "EMPTY", kind: "constant", container: "Strings", start_line: 5, end_line: 5 },
      { name: "Strings", kind: "method", container: "Strings", start_line: 7, end_line: 7 },
      { name: "trim", kind: "method", container: "Strings", start_line: 9, end_line: 11 },
      { name: "isBlank", kind: "method", container: "Strings", start_line: 13, end_line: 15 },
    ]);
  });

  it("leaves out anonymous and local classes and non-constant fields", async () => {
    expect((await symbolsIn(java, project, `${TEST}/AppTest.java`))).toEqual([
      { name: "AppTest", kind: "class", start_line: 8, end_line: 22 },
      { name: "main", kind: "method", container: "AppTest", start_line: 9, end_line: 21 },
    ]);
    const src = ["class A {", "  int plain;", "  static int counter;", "  void m() {", "    class Local { void x() {} }", "  }", "}", ""].join("\n");
    expect((await factsOf(java, src)).symbols).toEqual([
      { name: "A", kind: "class", start_line: 1, end_line: 7 },
      { name: "m", kind: "method", container: "A", start_line: 4, end_line: 6 },
    ]);
  });
});

describe("java: imports", () => {
  it("App.java: static single and on-demand, nested type, wildcard package, JDK", async () => {
    const f = `${APP}/App.java`;
    const strings = `${CORE}/util/Strings.java`;
    const order = `${CORE}/model/Order.java`;
    expect(await resolvedImports(java, project, f)).toEqual([
      imp(f, 3, "com.shop.util.Strings.trim", "com.shop.util.Strings", [strings], [STATIC_IMPORT_FLAG]),
      imp(f, 4, "com.shop.util.Strings.*", "com.shop.util.Strings", [strings], [STATIC_IMPORT_FLAG]),
      imp(f, 6, "com.shop.model.Order", "com.shop.model.Order", [order]),
      imp(f, 7, "com.shop.model.Order.Line", "com.shop.model.Order", [order]),
      imp(f, 8, "com.shop.store.*", "com.shop.store", [`${CORE}/store/MemoryStore.java`, `${CORE}/store/Store.java`]),
      imp(f, 9, "java.util.List", "java.util.List", []),
    ]);
  });

  it("a plain `src/` source root (legacy/src) and a static import of a constant", async () => {
    const f = "legacy/src/com/legacy/Report.java";
    expect(await resolvedImports(java, project, f)).toEqual([
      imp(f, 3, "com.shop.model.Customer", "com.shop.model.Customer", [`${CORE}/model/Customer.java`]),
      imp(f, 4, "com.shop.model.Order.Status", "com.shop.model.Order", [`${CORE}/model/Order.java`]),
      imp(f, 5, "com.shop.model.Order.MAX_LINES", "com.shop.model.Order", [`${CORE}/model/Order.java`], [STATIC_IMPORT_FLAG]),
    ]);
  });

  it("keeps JDK wildcards external by package name", async () => {
    const f = `${CORE}/store/MemoryStore.java`;
    expect(await resolvedImports(java, project, f)).toEqual([
      imp(f, 3, "com.shop.model.Order", "com.shop.model.Order", [`${CORE}/model/Order.java`]),
      imp(f, 4, "com.shop.util.NotBlank", "com.shop.util.NotBlank", [`${CORE}/util/NotBlank.java`]),
      imp(f, 5, "java.util.*", "java.util", []),
    ]);
  });

  it("records the statement range of an import split over lines", async () => {
    const { imports } = await factsOf(java, "package a;\n\nimport static\n    b.C.*;\nimport d . E;\n");
    expect(imports).toEqual<ImportRef[]>([
      { specifier: "b.C.*", flags: [STATIC_IMPORT_FLAG], start_line: 3, end_line: 4 },
      { specifier: "d.E", start_line: 5, end_line: 5 },
    ]);
  });
});

describe("java: resolution rules", () => {
  const ref = (specifier: string, flags?: string[]): ImportRef => ({ specifier, start_line: 1, end_line: 1, ...(flags ? { flags } : {}) });

  it("a folder that merely ends like the package is not it: the `package` line decides", async () => {
    const p = memoryProject({
      "src/main/java/util/List.java": "package util;\npublic class List {}\n",
      "src/main/java/util/Map.java": "/* header */\npackage util;\nclass Map {}\n",
    });
    expect(await java.resolve(ref("java.util.List"), "x.java", p)).toEqual({ files: [], module: "java.util.List", external: true });
    expect(await java.resolve(ref("java.util.*"), "x.java", p)).toEqual({ files: [], module: "java.util", external: true });
    expect(await java.resolve(ref("util.List"), "x.java", p)).toEqual({ files: ["src/main/java/util/List.java"], module: "util.List", external: false });
  });

  it("returns every copy of a type found under several source roots", async () => {
    const p = memoryProject({
      "a/src/main/java/com/x/Util.java": "package com.x;\nclass Util {}\n",
      "b/src/test/java/com/x/Util.java": "package com.x;\nclass Util {}\n",
    });
    expect((await java.resolve(ref("com.x.Util"), "a.java", p)).files).toEqual(["a/src/main/java/com/x/Util.java", "b/src/test/java/com/x/Util.java"]);
  });

  it("`a.b.C.*` without `static` imports C's nested types: C.java", async () => {
    const p = memoryProject({ "src/com/x/Outer.java": "@Deprecated package com.x;\nclass Outer { static class In {} }\n" });
    expect(await java.resolve(ref("com.x.Outer.*"), "y.java", p)).toEqual({ files: ["src/com/x/Outer.java"], module: "com.x.Outer", external: false });
  });

  it("names a file by its type's qualified name and its package; exposes the same-package blind spot", async () => {
    expect(await java.moduleNames?.(`${CORE}/model/Order.java`, project)).toEqual(["com.shop.model.Order", "com.shop.model"]);
    expect(java.blindSpotNote).toBe(JAVA_BLIND_SPOT_NOTE);
    expect(renderForModel(JAVA_BLIND_SPOT_NOTE)).toContain("same package");
  });
});

describe("java: find_symbol and find_importers end to end", () => {
  it("find_symbol with nested containers: `Order.Line.total` and `Line.total`", async () => {
    const expected = [`${CORE}/model/Order.java:27-29 Order.Line.total method |         public long total() {`];
    expect((await definitionsOf(root, "Order.Line.total")).records).toEqual(expected);
    expect((await definitionsOf(root, "Line.total")).records).toEqual(expected);
  });

  it("find_symbol `find` (methods) starts at @Override; `NotBlank` at its annotations", async () => {
    expect((await definitionsOf(root, "find", "method")).records).toEqual([
      `${CORE}/store/MemoryStore.java:11-14 MemoryStore.find method |     @Override`,
      `${CORE}/store/Store.java:9-9 Store.find method |     Optional<T> find(String id);`,
    ]);
    expect((await definitionsOf(root, "NotBlank")).records).toEqual([`${CORE}/util/NotBlank.java:9-13 NotBlank interface | @Retention(RetentionPolicy.RUNTIME)`]);
  });

  it("find_importers of a class by qualified name: single-type, nested-type and static imports; note states the blind spot", async () => {
    const { records, note } = await importersOf(root, "com.shop.model.Order");
    expect(records).toEqual([
      "legacy/src/com/legacy/Report.java:4-4 com.shop.model.Order | import com.shop.model.Order.Status;",
      "legacy/src/com/legacy/Report.java:5-5 com.shop.model.Order flags=static | import static com.shop.model.Order.MAX_LINES;",
      `${APP}/App.java:6-6 com.shop.model.Order | import com.shop.model.Order;`,
      `${APP}/App.java:7-7 com.shop.model.Order | import com.shop.model.Order.Line;`,
      `${TEST}/AppTest.java:3-3 com.shop.model.Order | import com.shop.model.Order;`,
      `${CORE}/store/MemoryStore.java:3-3 com.shop.model.Order | import com.shop.model.Order;`,
    ]);
    expect(note).toContain(renderForModel(JAVA_BLIND_SPOT_NOTE));
  });

  it("find_importers of Store.java finds the wildcard import only (MemoryStore is in its package)", async () => {
    const { records, note } = await importersOf(root, `${CORE}/store/Store.java`);
    expect(records).toEqual([`${APP}/App.java:8-8 com.shop.store | import com.shop.store.*;`]);
    expect(note).toContain(renderForModel(JAVA_BLIND_SPOT_NOTE));
  });

  it("find_importers of a package name covers every file of the package", async () => {
    expect((await importersOf(root, "com.shop.store")).records).toEqual([
      `${APP}/App.java:8-8 com.shop.store | import com.shop.store.*;`,
      `${TEST}/AppTest.java:4-4 com.shop.store.MemoryStore | import com.shop.store.MemoryStore;`,
    ]);
  });
});

/**
 * Java ground truth: javac, compiling one file against the source roots with `-implicit:none`,
 * parses every source file it needs; each file our imports resolve to must be among them
 * (skipped without javac).
 */
const hasJavac = hasTool("javac", ["-version"]);

describe.skipIf(!hasJavac)("java: agrees with javac's source lookup", () => {
  const scratch = scratchDir("codecite-java-");
  const roots = ["shop-core/src/main/java", "shop-app/src/main/java", "shop-app/src/test/java", "legacy/src"];

  async function javacParsed(file: string, out: string): Promise<string[]> {
    // C1-only JIT and the serial GC make a short javac run about twice as cheap.
    const jvm = ["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"];
    const args = [...jvm, "-verbose", "-implicit:none", "-proc:none", "-d", out, "-sourcepath", roots.join(":"), file];
    const { stderr, stdout } = await promisify(execFile)("javac", args, { cwd: root });
    const parsed = new Set<string>();
    for (const m of `${stdout}\n${stderr}`.matchAll(/\[parsing started \w+\[(?:([^:\]]+):)?([^\]]+)\]\]/g)) {
      const rel = m[1] === undefined ? (m[2] ?? "").slice(root.length + 1) : `${m[1]}/${m[2]}`;
      parsed.add(rel);
    }
    return [...parsed].filter((f) => f !== file).sort();
  }

  it("every resolved import target is a file javac needed; same-package use is the known blind spot", async () => {
    const files = [`${APP}/App.java`, `${TEST}/AppTest.java`, `${CORE}/store/MemoryStore.java`, "legacy/src/com/legacy/Report.java"];
    const results = await Promise.all(
      files.map(async (file, i) => {
        const needed = await javacParsed(file, join(scratch, `out${i}`));
        const ours = new Set((await resolvedImports(java, project, file)).flatMap((r) => r.files));
        return { file, needed, ours: [...ours].sort() };
      }),
    );
    for (const { file, needed, ours } of results) {
      expect(ours.length, file).toBeGreaterThan(0);
      for (const target of ours) expect(needed, `${file} → ${target}`).toContain(target);
    }
    // AppTest uses App from its own package without an import: javac needs App.java, imports cannot show it.
    const appTest = results.find((r) => r.file === `${TEST}/AppTest.java`);
    expect(appTest?.needed).toContain(`${APP}/App.java`);
    expect(appTest?.ours).not.toContain(`${APP}/App.java`);
  });
});
