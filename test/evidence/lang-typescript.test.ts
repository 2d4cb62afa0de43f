/**
 * TypeScript / TSX / JavaScript extraction and resolution: one test per rule (rules stated in
 * `src/evidence/analysis/lang/js-family.ts` and `js-resolve.ts`).
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../src/evidence/analysis/tree-sitter.js";
import { typescript, tsx } from "../../src/evidence/analysis/lang/typescript.js";
import { javascript } from "../../src/evidence/analysis/lang/javascript.js";
import { languageFor } from "../../src/evidence/analysis/lang/index.js";
import { JsResolver, mapTargets, matchPaths, parseJsonc } from "../../src/evidence/analysis/lang/js-resolve.js";
import type { LanguageSpec } from "../../src/evidence/analysis/lang/language.js";
import { memoryProject } from "./memory-project.js";
import { referencesIn, scratchDir } from "./lang-test-kit.js";

async function imports(lang: LanguageSpec, src: string): Promise<unknown[]> {
  const f = await extractFacts(lang, src);
  return f.imports.map((r) => [r.specifier, r.start_line, r.end_line, r.flags ?? null]);
}

async function defs(lang: LanguageSpec, src: string): Promise<string[]> {
  const f = await extractFacts(lang, src);
  return f.symbols.map((s) => `${s.container ? `${s.container}.` : ""}${s.name}:${s.kind}:${s.start_line}-${s.end_line}`);
}

describe("languageFor", () => {
  it("maps endings to grammars (.d.ts is TypeScript, .tsx is TSX, .cjs is JavaScript)", () => {
    expect(languageFor("a/b.d.ts")?.id).toBe("typescript");
    expect(languageFor("x.mts")?.id).toBe("typescript");
    expect(languageFor("App.TSX")?.id).toBe("tsx");
    expect(languageFor("s.cjs")?.id).toBe("javascript");
    expect(languageFor("README.md")).toBeUndefined();
  });
});

describe("js-family extraction: imports", () => {
  it("static imports, side-effect imports, export … from, import = require, each with the whole statement", async () => {
    const src = [
      'import x, { y as z } from "b";', //1
      'import * as ns from "c";', //2
      'import "side";', //3
      'export * from "./d";', //4
      'export { q } from "./q";', //5
      'import e = require("e");', //6
      "import {", //7
      "  a,", //8
      '} from "./multi";', //9
    ].join("\n");
    expect(await imports(typescript, src)).toEqual([
      ["b", 1, 1, null],
      ["c", 2, 2, null],
      ["side", 3, 3, null],
      ["./d", 4, 4, null],
      ["./q", 5, 5, null],
      ["e", 6, 6, null],
      ["./multi", 7, 9, null],
    ]);
  });

  it("flags import type and export type … from as type_only, and import() in a type position", async () => {
    const src = 'import type { A } from "./a.js";\nexport type { T } from "./t";\ntype H = import("./h").H;\nimport { type B } from "./b";\n';
    expect(await imports(typescript, src)).toEqual([
      ["./a.js", 1, 1, ["type_only"]],
      ["./t", 2, 2, ["type_only"]],
      ["./h", 3, 3, ["dynamic", "type_only"]],
      ["./b", 4, 4, ["type_only"]],
    ]);
  });

  it("flags a statement whose named specifiers are all type-only as type_only; a mix, a default or a namespace binding is a value import", async () => {
    const src = [
      'import { type A, type B } from "./ab";', //1
      'import { type C, d } from "./cd";', //2
      'import E, { type F } from "./ef";', //3
      "import {", //4
      "  type G, // a comment", //5
      "  type H,", //6
      '} from "./gh";', //7
      'export { type I, type J } from "./ij";', //8
      'export { type K, l } from "./kl";', //9
      'import { type } from "./named-type";', //10
      'import {} from "./empty";', //11
    ].join("\n");
    expect(await imports(typescript, src)).toEqual([
      ["./ab", 1, 1, ["type_only"]],
      ["./cd", 2, 2, null],
      ["./ef", 3, 3, null],
      ["./gh", 4, 7, ["type_only"]],
      ["./ij", 8, 8, ["type_only"]],
      ["./kl", 9, 9, null],
      ["./named-type", 10, 10, null],
      ["./empty", 11, 11, null],
    ]);
    expect(await imports(tsx, 'import { type P, type Q } from "./pq";\n')).toEqual([["./pq", 1, 1, ["type_only"]]]);
  });

  it("a module augmentation in a module file is a type-only import; an ambient declaration in a script is not", async () => {
    const mod = 'import { z } from "zod";\ndeclare module "zod" {\n  interface ZodType { x: 1 }\n}\n';
    expect(await imports(typescript, mod)).toEqual([
      ["zod", 1, 1, null],
      ["zod", 2, 2, ["type_only"]],
    ]);
    expect(await imports(typescript, 'declare module "virtual:x" {\n  const v: number;\n}\n')).toEqual([]);
  });

  it("require() and import() with a literal or a substitution-free template, anywhere", async () => {
    const src = [
      'const f = require("f");', //1
      "async function g() {", //2
      "  return import(`./g`);", //3
      "}", //4
      'if (x) require("./cond");', //5
    ].join("\n");
    expect(await imports(javascript, src)).toEqual([
      ["f", 1, 1, null],
      ["./g", 3, 3, ["dynamic"]],
      ["./cond", 5, 5, null],
    ]);
  });

  it("keeps a non-literal specifier as unresolved (never dropped)", async () => {
    const src = "const a = import(`./locale/${l}.js`);\nconst b = require(name);\nconst c = import('./p/' + n);\n";
    expect(await imports(javascript, src)).toEqual([
      ["`./locale/${l}.js`", 1, 1, ["dynamic", "unresolved"]],
      ["name", 2, 2, ["unresolved"]],
      ["'./p/' + n", 3, 3, ["dynamic", "unresolved"]],
    ]);
  });

  it("reports a require inside a long literal on its own line, not the whole literal", async () => {
    const src = 'module.exports = {\n  a: require("./a"),\n  b: require("./b"),\n  c: 1,\n};\n';
    expect(await imports(javascript, src)).toEqual([
      ["./a", 2, 2, null],
      ["./b", 3, 3, null],
    ]);
  });

  it("decodes escapes in specifiers and ignores comments and strings", async () => {
    const src = '// import x from "no"\nconst s = "require(\'no\')";\nimport y from "./\\u0061";\n';
    expect(await imports(javascript, src)).toEqual([["./a", 3, 3, null]]);
  });
});

describe("js-family extraction: definitions", () => {
  it("TypeScript: functions, classes with methods and fields, interfaces, types, enums, namespaces, constants", async () => {
    const src = [
      "export function f(): void {}", //1
      "@Component({})", //2
      "export class C extends B {", //3
      "  @Input() name = '';", //4
      "  m(): number { return 1; }", //5
      "  static s = () => 1;", //6
      "}", //7
      "export interface I { x: number }", //8
      "export type T = string;", //9
      "enum E { A }", //10
      "namespace NS { export function nf() {} }", //11
      "export const K = 1, L = () => 2;", //12
      "let v = 3;", //13
      "declare function d(): void;", //14
      "abstract class AC { abstract am(): void; }", //15
      "function outer() { function inner() {} const local = 1; }", //16
    ].join("\n");
    expect(await defs(typescript, src)).toEqual([
      "f:function:1-1",
      "C:class:2-7",
      "C.name:variable:4-4",
      "C.m:method:5-5",
      "C.s:method:6-6",
      "I:interface:8-8",
      "T:type:9-9",
      "E:enum:10-10",
      "NS:module:11-11",
      "NS.nf:function:11-11",
      "K:constant:12-12",
      "L:function:12-12",
      "v:variable:13-13",
      "d:function:14-14",
      "AC:class:15-15",
      "AC.am:method:15-15",
      "outer:function:16-16",
      "inner:function:16-16",
    ]);
  });

  it("TSX components and JavaScript CommonJS exports and prototype methods", async () => {
    expect(await defs(tsx, "export const App = () => <div />;\nexport default function Page() { return <App />; }\n")).toEqual([
      "App:function:1-1",
      "Page:function:2-2",
    ]);
    const js = "exports.h = function () {};\nmodule.exports.i = () => {};\nFoo.prototype.j = function () {};\nconst api = { get() {} };\n";
    expect(await defs(javascript, js)).toEqual(["h:function:1-1", "i:function:2-2", "Foo.j:method:3-3", "api:constant:4-4"]);
  });

  it("prototype methods assigned inside a function body (an IIFE-wrapped library); exports.f only at the top level", async () => {
    const js = [
      "(function (root) {", //1
      "  function Emitter() {}", //2
      "  Emitter.prototype.on = function (ev, fn) {", //3
      "    return this;", //4
      "  };", //5
      "  exports.local = function () {};", //6
      "})(this);", //7
    ].join("\n");
    expect(await defs(javascript, js)).toEqual(["Emitter:function:2-2", "Emitter.on:method:3-5"]);
  });

  it("overload signatures of class methods are definitions, in .ts and in a .d.ts declare class; interface members are not", async () => {
    const ts = [
      "export class Parser {", //1
      "  parse(text: string): Node;", //2
      "  parse(text: Buffer): Node;", //3
      "  parse(text: string | Buffer): Node {", //4
      "    return null as never;", //5
      "  }", //6
      "}", //7
      "interface Shape { area(): number; }", //8
    ].join("\n");
    expect(await defs(typescript, ts)).toEqual([
      "Parser:class:1-7",
      "Parser.parse:method:2-2",
      "Parser.parse:method:3-3",
      "Parser.parse:method:4-6",
      "Shape:interface:8-8",
    ]);
    const dts = "export declare class Router {\n  use(fn: Handler): this;\n  use(path: string, fn: Handler): this;\n  static create(): Router;\n}\n";
    expect(await defs(typescript, dts)).toEqual(["Router:class:1-5", "Router.use:method:2-2", "Router.use:method:3-3", "Router.create:method:4-4"]);
  });
});

describe("js resolution", () => {
  const resolver = (files: Record<string, string> | string[]) => new JsResolver(memoryProject(files));

  it("rule 1: relative specifiers with extension probing and index files", async () => {
    const r = resolver(["src/a.ts", "src/util/index.ts", "src/b.tsx", "src/c.js", "src/d/index.jsx"]);
    expect((await r.resolve("./a", "src/x.ts")).files).toEqual(["src/a.ts"]);
    expect((await r.resolve("./util", "src/x.ts")).files).toEqual(["src/util/index.ts"]);
    expect((await r.resolve("./b", "src/x.ts")).files).toEqual(["src/b.tsx"]);
    expect((await r.resolve("./c", "src/x.ts")).files).toEqual(["src/c.js"]);
    expect((await r.resolve("../src/d", "src/x.ts")).files).toEqual(["src/d/index.jsx"]);
    expect((await r.resolve(".", "src/util/y.ts")).files).toEqual(["src/util/index.ts"]);
  });

  it("rule 1: a relative path that leaves the repository or leads nowhere is unresolved", async () => {
    const r = resolver(["src/a.ts"]);
    expect(await r.resolve("../../etc/passwd", "src/a.ts")).toEqual({ files: [], module: "../../etc/passwd", external: false, unresolved: true });
    expect(await r.resolve("./missing", "src/a.ts")).toMatchObject({ unresolved: true });
  });

  it("rule 7: ESM .js/.jsx/.mjs/.cjs specifiers map to .ts/.tsx/.mts/.cts first", async () => {
    const r = resolver(["src/a.ts", "src/b.tsx", "src/c.mts", "src/d.cts", "src/e.js", "src/f.d.ts"]);
    expect((await r.resolve("./a.js", "src/x.ts")).files).toEqual(["src/a.ts"]);
    expect((await r.resolve("./b.js", "src/x.ts")).files).toEqual(["src/b.tsx"]);
    expect((await r.resolve("./c.mjs", "src/x.ts")).files).toEqual(["src/c.mts"]);
    expect((await r.resolve("./d.cjs", "src/x.ts")).files).toEqual(["src/d.cts"]);
    expect((await r.resolve("./e.js", "src/x.ts")).files).toEqual(["src/e.js"]);
    expect((await r.resolve("./f.js", "src/x.ts")).files).toEqual(["src/f.d.ts"]);
  });

  it("rule 7: other files are found as named (.css, .json) and a query string is ignored", async () => {
    const r = resolver(["src/s.css", "src/data.json", "src/icon.svg"]);
    expect((await r.resolve("./s.css", "src/x.ts")).files).toEqual(["src/s.css"]);
    expect((await r.resolve("./data", "src/x.ts")).files).toEqual(["src/data.json"]);
    expect((await r.resolve("./icon.svg?raw", "src/x.ts")).files).toEqual(["src/icon.svg"]);
  });

  it("rule 8: the nearest tsconfig.json (else jsconfig.json), JSONC with comments and trailing commas", async () => {
    const r = resolver({
      "tsconfig.json": '{ // root\n "compilerOptions": { "baseUrl": "src", }, }',
      "web/jsconfig.json": '{ "compilerOptions": { "baseUrl": "lib" } }',
      "src/util.ts": "",
      "web/lib/util.js": "",
    });
    expect((await r.resolve("util", "src/a.ts")).files).toEqual(["src/util.ts"]);
    expect((await r.resolve("util", "web/app.js")).files).toEqual(["web/lib/util.js"]);
  });

  it("rule 3: paths — exact key, else the longest-prefix pattern, targets in order; relative to baseUrl or to the declaring config", async () => {
    const r = resolver({
      "tsconfig.json": JSON.stringify({
        compilerOptions: { paths: { "@/*": ["./src/*", "./gen/*"], "@/ui/*": ["./ui/*"], "@app": ["./src/app.ts"] } },
      }),
      "src/app.ts": "",
      "src/x.ts": "",
      "gen/y.ts": "",
      "ui/button.tsx": "",
    });
    expect((await r.resolve("@app", "src/a.ts")).files).toEqual(["src/app.ts"]);
    expect((await r.resolve("@/x", "src/a.ts")).files).toEqual(["src/x.ts"]);
    expect((await r.resolve("@/y", "src/a.ts")).files).toEqual(["gen/y.ts"]);
    expect((await r.resolve("@/ui/button", "src/a.ts")).files).toEqual(["ui/button.tsx"]);
    expect(matchPaths([["a/*", ["1/*"]], ["a/b/*", ["2/*"]]], "a/b/c")).toEqual(["2/c"]);
  });

  it("rule 8: extends (relative, without .json, arrays, from a workspace package) and ${configDir}", async () => {
    const r = resolver({
      "configs/base.json": JSON.stringify({ compilerOptions: { paths: { "~/*": ["../src/*"] } } }),
      "configs/dir.json": JSON.stringify({ compilerOptions: { baseUrl: "${configDir}/source" } }),
      "packages/tsconfig/package.json": JSON.stringify({ name: "@acme/tsconfig" }),
      "packages/tsconfig/strict.json": JSON.stringify({ compilerOptions: { strict: true } }),
      "app/tsconfig.json": JSON.stringify({ extends: ["../configs/base", "@acme/tsconfig/strict.json"] }),
      "web/tsconfig.json": JSON.stringify({ extends: "../configs/dir.json" }),
      "src/m.ts": "",
      "web/source/n.ts": "",
    });
    // paths come from configs/base.json and are relative to it (no baseUrl anywhere in the chain)
    expect((await r.resolve("~/m", "app/main.ts")).files).toEqual(["src/m.ts"]);
    // ${configDir} is the folder of the configuration in use (web/), not of the one declaring it
    expect((await r.resolve("n", "web/main.ts")).files).toEqual(["web/source/n.ts"]);
  });

  it("rule 8: an extends cycle (a hostile repository's) ends: each configuration is merged once, the cycle adds nothing", async () => {
    // Before, the second use of tsconfig.json awaited the first one's merge, which awaited it: the
    // query never ended (the CLI printed nothing and exited 0; an MCP call never answered).
    const r = resolver({
      "tsconfig.json": JSON.stringify({ extends: "./b.json", compilerOptions: { baseUrl: "." } }),
      "b.json": JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { paths: { "~/*": ["./src/*"] } } }),
      "app/tsconfig.json": JSON.stringify({ extends: "../web/tsconfig.json", compilerOptions: { baseUrl: "." } }),
      "web/tsconfig.json": JSON.stringify({ extends: ["../app/tsconfig", "./tsconfig.json"], compilerOptions: { baseUrl: "." } }),
      "src/m.ts": "",
      "lib/z.ts": "",
      "app/x.ts": "",
      "web/y.ts": "",
    });
    expect((await r.resolve("~/m", "main.ts")).files).toEqual(["src/m.ts"]);
    expect((await r.resolve("lib/z", "main.ts")).files).toEqual(["lib/z.ts"]);
    // Two files whose configurations extend each other, resolved at the same time.
    const [x, y] = await Promise.all([r.resolve("x", "app/main.ts"), r.resolve("y", "web/main.ts")]);
    expect(x.files).toEqual(["app/x.ts"]);
    expect(y.files).toEqual(["web/y.ts"]);
  });

  it("rule 8: a deep diamond of array extends is merged once per configuration (not once per path through it)", async () => {
    // 10 levels of 8 configurations, each extending all 8 of the next level: 8^10 paths.
    const files: Record<string, string> = { "src/m.ts": "" };
    for (let level = 0; level < 10; level++) {
      for (let k = 0; k < 8; k++) {
        const next = level === 9 ? [] : Array.from({ length: 8 }, (_, j) => `./c${level + 1}-${j}.json`);
        files[`c${level}-${k}.json`] = JSON.stringify({ extends: next, compilerOptions: level === 9 ? { paths: { "~/*": ["./src/*"] } } : {} });
      }
    }
    files["tsconfig.json"] = JSON.stringify({ extends: Array.from({ length: 8 }, (_, j) => `./c0-${j}.json`) });
    const r = resolver(files);
    expect((await r.resolve("~/m", "main.ts")).files).toEqual(["src/m.ts"]);
  });

  it("rule 3: with a baseUrl anywhere in the chain, paths are relative to it (TypeScript's pathsBasePath rule)", async () => {
    const r = resolver({
      "configs/base.json": JSON.stringify({ compilerOptions: { paths: { "~/*": ["./lib/*"] } } }),
      "app/tsconfig.json": JSON.stringify({ extends: "../configs/base.json", compilerOptions: { baseUrl: "." } }),
      "app/lib/m.ts": "",
      "configs/lib/m.ts": "",
    });
    expect((await r.resolve("~/m", "app/main.ts")).files).toEqual(["app/lib/m.ts"]);
  });

  it("rule 8: a solution-style config hands over to the referenced project that includes the file", async () => {
    const r = resolver({
      "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "./tsconfig.app.json" }, { path: "./tsconfig.node.json" }] }),
      "tsconfig.app.json": JSON.stringify({ compilerOptions: { paths: { "@/*": ["./src/*"] } }, include: ["src"] }),
      "tsconfig.node.json": JSON.stringify({ include: ["vite.config.ts"] }),
      "src/lib/x.ts": "",
    });
    expect((await r.configFor("src/main.ts"))?.path).toBe("tsconfig.app.json");
    expect((await r.resolve("@/lib/x", "src/main.ts")).files).toEqual(["src/lib/x.ts"]);
  });

  it("rule 4: baseUrl after paths", async () => {
    const r = resolver({
      "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "lib/*": ["./nothing/*"] } } }),
      "lib/z.ts": "",
    });
    expect((await r.resolve("lib/z", "a.ts")).files).toEqual(["lib/z.ts"]);
  });

  it("rules 5–6: workspace packages by name with exports (conditions, subpaths, patterns) and main", async () => {
    const r = resolver({
      "packages/ui/package.json": JSON.stringify({
        name: "@acme/ui",
        exports: {
          ".": { types: "./dist/index.d.ts", import: "./dist/index.js" },
          "./format": "./src/format.ts",
          "./icons/*": "./src/icons/*.tsx",
        },
      }),
      "packages/ui/src/index.ts": "",
      "packages/ui/src/format.ts": "",
      "packages/ui/src/icons/star.tsx": "",
      "packages/shared/package.json": JSON.stringify({ name: "shared", main: "lib/main.js" }),
      "packages/shared/lib/main.js": "",
      "packages/noexp/package.json": JSON.stringify({ name: "noexp" }),
      "packages/noexp/src/deep.ts": "",
    });
    expect((await r.resolve("@acme/ui", "app/a.ts")).files).toEqual(["packages/ui/src/index.ts"]);
    expect((await r.resolve("@acme/ui/format", "app/a.ts")).files).toEqual(["packages/ui/src/format.ts"]);
    expect((await r.resolve("@acme/ui/icons/star", "app/a.ts")).files).toEqual(["packages/ui/src/icons/star.tsx"]);
    expect((await r.resolve("shared", "app/a.ts")).files).toEqual(["packages/shared/lib/main.js"]);
    expect((await r.resolve("noexp/deep", "app/a.ts")).files).toEqual(["packages/noexp/src/deep.ts"]);
  });

  it("rule 6: exports condition order follows the package; tsconfig customConditions are honoured", async () => {
    expect(mapTargets({ ".": { import: "./a.js", types: "./a.d.ts" } }, ".")).toEqual(["./a.js", "./a.d.ts"]);
    expect(mapTargets({ ".": { "@x/source": "./src/a.ts", import: "./a.js" } }, ".", new Set(["@x/source"]))).toEqual(["./src/a.ts", "./a.js"]);
    expect(mapTargets("./main.js", ".")).toEqual(["./main.js"]);
    expect(mapTargets({ "./lib/": "./src/lib/" }, "./lib/x.js")).toEqual(["./src/lib/x.js"]);
  });

  it("rule 6: the first matching condition in the object's key order wins when its file is in the tree (Node's PACKAGE_TARGET_RESOLVE)", async () => {
    const files = (exp: unknown) => ({
      "pkgs/a/package.json": JSON.stringify({ name: "a", exports: exp }),
      "pkgs/a/esm/index.js": "",
      "pkgs/a/cjs/index.js": "",
      "pkgs/a/index.d.ts": "",
    });
    const first = async (exp: unknown) => (await resolver(files(exp)).resolve("a", "app/x.ts")).files;
    expect(await first({ import: "./esm/index.js", require: "./cjs/index.js", types: "./index.d.ts" })).toEqual(["pkgs/a/esm/index.js"]);
    expect(await first({ require: "./cjs/index.js", import: "./esm/index.js", types: "./index.d.ts" })).toEqual(["pkgs/a/cjs/index.js"]);
    expect(await first({ types: "./index.d.ts", import: "./esm/index.js" })).toEqual(["pkgs/a/index.d.ts"]);
    // `default` always matches, so it wins when written first; a condition nobody sets (`browser`) is passed over
    expect(await first({ browser: "./esm/index.js", default: "./cjs/index.js", import: "./esm/index.js" })).toEqual(["pkgs/a/cjs/index.js"]);
    // nested conditions: the outer key order first, then the inner
    expect(await first({ ".": { node: { require: "./cjs/index.js", import: "./esm/index.js" }, types: "./index.d.ts" } })).toEqual(["pkgs/a/cjs/index.js"]);
    // a first target missing from the tree (build output not committed) falls to the next one
    expect(await first({ import: "./build/gone.js", types: "./index.d.ts" })).toEqual(["pkgs/a/index.d.ts"]);
  });

  it("rule 2: subpath imports (#) from the nearest package.json with an imports map", async () => {
    const r = resolver({
      "package.json": JSON.stringify({ name: "app", imports: { "#internal/*": "./src/internal/*.js", "#dep": "dep-pkg" } }),
      "src/internal/util.ts": "",
      "packages/dep/package.json": JSON.stringify({ name: "dep-pkg", main: "index.js" }),
      "packages/dep/index.js": "",
    });
    expect((await r.resolve("#internal/util", "src/a.ts")).files).toEqual(["src/internal/util.ts"]);
    expect((await r.resolve("#dep", "src/a.ts")).files).toEqual(["packages/dep/index.js"]);
    expect(await r.resolve("#missing", "src/a.ts")).toMatchObject({ unresolved: true });
  });

  it("rule 9: packages not in the tree and Node built-ins are external with their specifier", async () => {
    const r = resolver(["src/a.ts"]);
    expect(await r.resolve("react-dom/client", "src/a.ts")).toEqual({ files: [], module: "react-dom/client", external: true });
    expect(await r.resolve("node:fs", "src/a.ts")).toEqual({ files: [], module: "node:fs", external: true });
  });

  it("parses JSONC: comments, trailing commas, and // inside strings", () => {
    expect(parseJsonc('{ "a": "http://x/*y*/", // c\n "b": [1,], }')).toEqual({ a: "http://x/*y*/", b: [1] });
  });
});

describe("js-family references", () => {
  const dir = scratchDir("codecite-ts-refs-");

  it("an overloaded function declared inside a function: its uses there (the overload signatures are one definition)", async () => {
    const files = {
      "src/plugin.ts": [
        "export function enable() {", // 1
        "  function apply(p: unknown) {",
        "    return clone(p)", // 3
        "  }",
        "  function clone<T>(obj: T): T", // 5: the first signature (the definition's first line)
        "  function clone(obj: any) {",
        "    return Array.isArray(obj) ? obj.map(clone) : obj", // 7
        "  }",
        "  return { apply }",
        "}",
        "",
      ].join("\n"),
    };
    // The signature's name is recorded as a value use, as for a top-level overloaded function.
    expect(await referencesIn(dir, files, "clone", "src/plugin.ts")).toEqual(["src/plugin.ts:3 call", "src/plugin.ts:5 value", "src/plugin.ts:7 value"]);
  });

  it("a member of `new C()` is a member of class C (also parenthesized); of a local variable or a call result it is not", async () => {
    const files = {
      "src/clock.ts": ["export class Clock {", "  tick(): number { return 1 }", "}", ""].join("\n"),
      "src/use.ts": [
        'import { Clock } from "./clock"',
        "new Clock().tick()", // 2
        "const n = (new Clock()).tick()", // 3
        "function f(Clock: any) { return new Clock().tick() }", // 4: a parameter named Clock
        "make().tick()", // 5
        "",
      ].join("\n"),
    };
    expect(await referencesIn(dir, files, "Clock.tick")).toEqual(["src/use.ts:2 call", "src/use.ts:3 call", "src/use.ts:4 call,by_name", "src/use.ts:5 call,by_name"]);
  });

  it("`this.m` in a method of a class declared in a function (computed names and arrow functions too) is that class's member", async () => {
    const files = {
      "src/top.ts": ["export class DraftMap {", "  entries() { return [] }", "}", ""].join("\n"), // a top-level class of the same name
      "src/mapset.ts": [
        'import { DraftMap as Top } from "./top"',
        "export function enableMapSet() {",
        "  class DraftMap extends Map {", // 3
        "    entries(): any { return super.entries() }",
        "    [Symbol.iterator]() {",
        "      return this.entries()", // 6: a computed method name
        "    }",
        "    forEach(cb: any) {",
        "      return [1].map(() => this.entries())", // 9: an arrow function in a method
        "    }",
        "  }",
        "  function helper(this: any) { return this.entries() }", // 12: not a method of the class
        "  return [DraftMap, Top, helper]",
        "}",
        "",
      ].join("\n"),
    };
    expect(await referencesIn(dir, files, "DraftMap.entries", "src/mapset.ts")).toEqual(["src/mapset.ts:6 call", "src/mapset.ts:9 call"]);
    expect(await referencesIn(dir, files, "DraftMap.entries", "src/top.ts")).toEqual([]);
  });

  it("const x = f() then x.m, f().m, this.get().m: the member of the class the callee declares it returns", async () => {
    const files = {
      "src/models.ts": [
        "export class Conn {",
        "  send(): void {}", // 2
        "}",
        "export class Other {",
        "  send(): void {}", // 5
        "}",
        "export function connect(): Conn { return new Conn() }",
        "export const other = (): Other => new Other()",
        "export function maybe(): Conn | undefined { return undefined }",
        "export function untyped() { return new Conn() }",
        "export class Pool {",
        "  get(): Conn { return new Conn() }",
        "  use() { this.get().send() }", // 13
        "}",
        "",
      ].join("\n"),
      "src/use.ts": [
        'import { connect, other, untyped, maybe } from "./models"',
        'import * as models from "./models"',
        "const c = connect()",
        "c.send()", // 4: top level
        "export function f() {",
        "  const x = models.connect()",
        "  x.send()", // 7: through a namespace import
        "  connect().send()", // 8
        "  const o = other()",
        "  o.send()", // 10: Other
        "  const u = untyped()",
        "  u.send()", // 12: no declared type: unknown, two classes define send
        "  maybe()!.send()", // 13: Conn | undefined
        "}",
        "",
      ].join("\n"),
    };
    expect(await referencesIn(dir, files, "Conn.send", "src/models.ts")).toEqual(["src/models.ts:13 call", "src/use.ts:4 call", "src/use.ts:7 call", "src/use.ts:8 call", "src/use.ts:13 call"]);
    expect(await referencesIn(dir, files, "Other.send", "src/models.ts")).toEqual(["src/use.ts:10 call"]);
  });

  it("a JSX closing tag names the component again; a lower-case tag names no component", async () => {
    const files = {
      "src/button.tsx": ["export function Button(p: any) { return <button>{p.children}</button> }", ""].join("\n"),
      "src/menu.tsx": [
        'import { Button } from "./button"',
        "export const Menu = () => (",
        "  <Button>", // 3
        "    <span>a</span>",
        "    <span>b</span>",
        "    <span>c</span>",
        "  </Button>", // 7: the element is longer than a record, so each tag has its own
        ")",
        "",
      ].join("\n"),
    };
    expect(await referencesIn(dir, files, "Button", "src/button.tsx")).toEqual(["src/menu.tsx:1 import", "src/menu.tsx:3 call", "src/menu.tsx:7 call"]);
  });

  it("an alias of an export alias whose name contains the target's (export { f as fRev2 }, import { fRev2 as INTERNAL_f }): its uses", async () => {
    const files = {
      "src/internals.ts": ["function buildStore() { return 1 }", "export { buildStore as buildStoreRev2 }", ""].join("\n"),
      "src/store.ts": ['import { buildStoreRev2 as INTERNAL_buildStore } from "./internals"', "export const s = INTERNAL_buildStore()", ""].join("\n"),
    };
    // store.ts is read in the first round (its text contains buildStore), before buildStoreRev2 is known.
    expect(await referencesIn(dir, files, "buildStore", "src/internals.ts")).toEqual(["src/internals.ts:2 import", "src/store.ts:1 import", "src/store.ts:2 call"]);
  });

  it("a class's constructor is called by `new C(…)` of that class (also a class declared in a function), not of another class", async () => {
    const files = {
      "src/point.ts": ["export class Point {", "  constructor(public x: number) {}", "}", "export class Other {", "  constructor() {}", "}", ""].join("\n"),
      "src/main.ts": [
        'import { Point, Other } from "./point"',
        "const p = new Point(1)", // 2
        "const o = new Other()", // 3
        "test(() => {",
        "  class Local {",
        "    constructor() {}", // 6
        "  }",
        "  return new Local()", // 8
        "})",
        "",
      ].join("\n"),
    };
    expect(await referencesIn(dir, files, "Point.constructor")).toEqual(["src/main.ts:2 call"]);
    expect(await referencesIn(dir, files, "Local.constructor")).toEqual(["src/main.ts:8 call"]);
  });
});
