/**
 * find_symbol and find_references over definitions the extractors used to miss: TypeScript
 * overload signatures of class methods (.ts and .d.ts), and JavaScript `C.prototype.m = function`
 * assigned inside a function body.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findReferences } from "../../src/evidence/references.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

const FILES: Record<string, string> = {
  "src/parser.ts": [
    "export class Parser {",
    "  parse(text: string): number;",
    "  parse(text: number): number;",
    "  parse(text: string | number): number {",
    "    return 1;",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/use.ts": ["import { Parser } from './parser';", "", "export function run(): number {", "  const p = new Parser();", "  return p.parse('x');", "}", ""].join("\n"),
  "types/router.d.ts": ["export declare class Router {", "  use(fn: () => void): this;", "  use(path: string, fn: () => void): this;", "}", ""].join("\n"),
  "lib/emitter.js": [
    "(function (root) {",
    "  function Emitter() {}",
    "  Emitter.prototype.emit = function (ev) {",
    "    return ev;",
    "  };",
    "  Emitter.prototype.fire = function () {",
    "    return this.emit('x');",
    "  };",
    "  root.Emitter = Emitter;",
    "})(this);",
    "",
  ].join("\n"),
};

const defs = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line} ${e.name}`);
const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line} ${e.name} ${(e.flags ?? []).join(",")} ${e.context ?? "-"}`.trim());

describe("definitions found inside classes and function bodies", () => {
  let dir: string;
  let ws: Workspace;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "codecite-defs-"));
    for (const [rel, text] of Object.entries(FILES)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
    ws = await Workspace.open(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("find_symbol: a class method's overload signatures and its implementation, in .ts and .d.ts", async () => {
    expect(defs(await findSymbol(ws, { name: "Parser.parse", max_results: 50 }))).toEqual([
      "src/parser.ts:2-2 Parser.parse",
      "src/parser.ts:3-3 Parser.parse",
      "src/parser.ts:4-6 Parser.parse",
    ]);
    expect(defs(await findSymbol(ws, { name: "Router.use", max_results: 50 }))).toEqual(["types/router.d.ts:2-2 Router.use", "types/router.d.ts:3-3 Router.use"]);
  });

  it("find_symbol: a prototype method assigned inside an IIFE", async () => {
    expect(defs(await findSymbol(ws, { name: "Emitter.emit", max_results: 50 }))).toEqual(["lib/emitter.js:3-5 Emitter.emit"]);
  });

  it("find_references: the overloaded method through an instance; the prototype method through this", async () => {
    expect(where(await findReferences(ws, { name: "Parser.parse", max_results: 50 }))).toEqual(["src/use.ts:5-5 Parser.parse call run"]);
    expect(where(await findReferences(ws, { name: "Emitter.emit", max_results: 50 }))).toEqual(["lib/emitter.js:7-7 Emitter.emit call Emitter.fire"]);
  });
});
