/**
 * Symbol extraction on hostile shapes (issue 9, kinds 10 and 13): syntax trees nested past
 * `MAX_SYNTAX_DEPTH` are refused with a typed skip reason instead of superlinear extraction, and a
 * definition on a long minified line is shown as a window of that line around it.
 */
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { Tree } from "web-tree-sitter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SYNTAX_DEPTH, parseSource, syntaxDepthExceeds, extractFacts, SyntaxTooDeepError, LONG_LINE_CHARS } from "../../src/evidence/analysis/tree-sitter.js";
import { languageFor } from "../../src/evidence/analysis/lang/index.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { factsStats, loadFacts } from "../../src/evidence/analysis/facts.js";
import { statFiles } from "../../src/evidence/analysis/project-view.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

const nestedJs = (k: number) => Array.from({ length: k }, (_, i) => `function f${i}(a){`).join("") + "}".repeat(k) + "\n";
const nestedPy = (k: number) => Array.from({ length: k }, (_, i) => `${" ".repeat(i)}def g${i}():\n`).join("") + `${" ".repeat(k)}pass\n`;
const nestedRb = (k: number) => Array.from({ length: k }, (_, i) => `def h${i}\n`).join("") + "end\n".repeat(k);

describe("syntax depth cap", () => {
  it("measures depth without recursion and stops at the limit", async () => {
    const js = languageFor("a.js")!;
    const shallow = await parseSource(js, nestedJs(50));
    const deep = await parseSource(js, nestedJs(5000));
    try {
      expect(syntaxDepthExceeds(shallow.rootNode, MAX_SYNTAX_DEPTH)).toBe(false);
      expect(syntaxDepthExceeds(shallow.rootNode, 20)).toBe(true);
      expect(syntaxDepthExceeds(deep.rootNode, MAX_SYNTAX_DEPTH)).toBe(true);
    } finally {
      shallow.delete();
      deep.delete();
    }
  });

  it("answers exactly as a full cursor walk does, at every limit around the tree's depth (every fixture language)", async () => {
    /** The depth of the deepest node below `root`, by a walk over every node. */
    const maxDepth = (root: Tree["rootNode"]): number => {
      const cursor = root.walk();
      let depth = 0;
      let deepest = 0;
      try {
        for (;;) {
          if (cursor.gotoFirstChild()) {
            deepest = Math.max(deepest, ++depth);
            continue;
          }
          while (!cursor.gotoNextSibling()) {
            if (depth === 0 || !cursor.gotoParent()) return deepest;
            depth--;
          }
        }
      } finally {
        cursor.delete();
      }
    };
    const fixtures = path.join(import.meta.dirname, "..", "fixtures");
    const files = readdirSync(fixtures, { recursive: true, encoding: "utf8" })
      .filter((f) => languageFor(f) !== undefined && statSync(path.join(fixtures, f)).isFile())
      .sort();
    const languages = new Set<string>();
    for (const f of [...files, "nested.js"]) {
      const lang = languageFor(f)!;
      const source = f === "nested.js" ? nestedJs(300) : readFileSync(path.join(fixtures, f), "utf8");
      const tree = await parseSource(lang, lang.prepare?.(source) ?? source);
      try {
        const d = maxDepth(tree.rootNode);
        for (const limit of new Set([0, 1, 2, 3, 5, 8, 13, d - 2, d - 1, d, d + 1, MAX_SYNTAX_DEPTH].filter((l) => l >= 0))) {
          expect([f, limit, syntaxDepthExceeds(tree.rootNode, limit)]).toEqual([f, limit, d > limit]);
        }
        languages.add(lang.id);
      } finally {
        tree.delete();
      }
    }
    expect(languages.size).toBeGreaterThanOrEqual(12);
  });

  it("extraction refuses deeper trees with SyntaxTooDeepError (JS braces, Python indentation, Ruby keywords)", async () => {
    for (const [file, source] of [["a.js", nestedJs(2000)], ["a.py", nestedPy(400)], ["a.rb", nestedRb(600)]] as const) {
      await expect(extractFacts(languageFor(file)!, source)).rejects.toBeInstanceOf(SyntaxTooDeepError);
    }
    const ok = await extractFacts(languageFor("a.js")!, nestedJs(60));
    expect(ok.symbols.map((s) => s.name)).toContain("f59");
  });
});

describe("find_symbol over hostile files", () => {
  let root: string;
  beforeAll(() => {
    root = makeTempDir("codecite-deep-");
    putFile(root, "deep.js", nestedJs(3000));
    putFile(root, "big-deep.js", nestedJs(12_000)); // over 128 KB: parsed in a worker thread
    putFile(root, "ok.js", "function f1(a) { return a; }\n");
    const fns = Array.from({ length: 300 }, (_, i) => `function m${i}(e,t){return e[t]+${i}}`);
    fns.splice(200, 0, "class Target{run(e){return e}}");
    putFile(root, "dist/app.min.js", `/*! app */\n!function(){"use strict";${fns.join(";")}}();\n`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("files nested too deeply are named in the note; the other files still answer", async () => {
    const ws = await Workspace.open(root);
    const r = await findSymbol(ws, { name: "f1", max_results: 50 });
    expect(r.evidence.map((e) => [e.path, e.start_line])).toEqual([["ok.js", 1]]);
    expect(JSON.stringify(r.note)).toContain("2 files not parsed (2 nested too deeply to analyse)");
  });

  it("a file refused as too deep is remembered: later loads, and a fresh process's, do not parse it again until it changes", async () => {
    const saved = process.env.CODECITE_CACHE_DIR;
    process.env.CODECITE_CACHE_DIR = path.join(root, "..", `${path.basename(root)}-cache`);
    FactIndex.closeShared(); // a store in that empty folder
    try {
      const ws = await Workspace.open(root);
      const files = () => statFiles(ws, ["deep.js", "big-deep.js", "ok.js"]);
      const load = async (tier: "definitions" | "references") => {
        const before = factsStats().parsed;
        const out = await loadFacts(ws, files(), undefined, tier);
        return { parsed: factsStats().parsed - before, skipped: [...out.skipped].sort(), facts: [...out.keys()] };
      };
      const first = await load("definitions");
      expect(first.skipped).toEqual([["big-deep.js", "too_deep"], ["deep.js", "too_deep"]]);
      expect(first.facts).toEqual(["ok.js"]);
      expect(first.parsed).toBe(3);
      // Same process (memory layer), the references tier too: nothing parsed, same skips.
      expect(await load("references")).toEqual({ parsed: 1, skipped: first.skipped, facts: ["ok.js"] }); // ok.js gains its references
      // A new process (the store): nothing parsed.
      FactIndex.closeShared();
      expect(await load("references")).toEqual({ parsed: 0, skipped: first.skipped, facts: ["ok.js"] });
      // Once the file changes it is parsed again (and, fixed, answers).
      putFile(root, "deep.js", "function fixed() {}\n");
      const again = await load("definitions");
      expect(again.parsed).toBe(1);
      expect(again.skipped).toEqual([["big-deep.js", "too_deep"]]);
      expect(again.facts.sort()).toEqual(["deep.js", "ok.js"]);
    } finally {
      FactIndex.closeShared();
      putFile(root, "deep.js", nestedJs(3000));
      if (saved === undefined) delete process.env.CODECITE_CACHE_DIR;
      else process.env.CODECITE_CACHE_DIR = saved;
    }
  });

  it("a definition on a minified line is shown as the window around it, flagged truncated", async () => {
    const ws = await Workspace.open(root);
    for (const [name, text] of [["Target", "class Target{run(e){return e}}"], ["run", "run(e){return e}"], ["m250", "function m250(e,t){return e[t]+250}"]] as const) {
      const r = await findSymbol(ws, { name, max_results: 50 });
      expect(r.evidence).toHaveLength(1);
      const e = r.evidence[0]!;
      expect(e.start_line).toBe(2);
      expect(e.snippet).toContain(text);
      expect(e.snippet.length).toBeLessThanOrEqual(LONG_LINE_CHARS);
      expect(e.flags).toContain("truncated");
    }
    // Short lines are untouched.
    const short = await findSymbol(ws, { name: "f1", path: "ok.js", max_results: 50 });
    expect(short.evidence[0]!.snippet).toBe("function f1(a) { return a; }");
    expect(short.evidence[0]!.flags).toBeUndefined();
  });
});
