/**
 * A parse has a time limit (`parseSource` of `tree-sitter.ts`, `CODECITE_PARSE_TIME_LIMIT_MS`):
 * text made to keep tree-sitter in error recovery parses at tens of KB per second, so a file of
 * it is cut and skipped as `too_slow` (named in the note) instead of holding every query, and the
 * verdict is kept in the fact cache like `too_deep`. The tests set the limit to 1 ms so that the
 * hostile text (seconds of parsing without a limit) is always cut whatever the machine's speed.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ParseTimeoutError, parseSource } from "../../src/evidence/analysis/tree-sitter.js";
import { languageFor } from "../../src/evidence/analysis/lang/index.js";
import { factsStats, loadFacts } from "../../src/evidence/analysis/facts.js";
import { statFiles } from "../../src/evidence/analysis/project-view.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

/** C statements of casts applied to casts: every `(a)(b)` is a cast or a call, so the parser keeps two stack versions per step and recovers from errors on a deep stack. */
const slowC = (k: number) => `int target(void) { ${"(a)(b)".repeat(k)}; }\n`;

const saved = process.env.CODECITE_PARSE_TIME_LIMIT_MS;
afterEach(() => {
  if (saved === undefined) delete process.env.CODECITE_PARSE_TIME_LIMIT_MS;
  else process.env.CODECITE_PARSE_TIME_LIMIT_MS = saved;
});

describe("parse time limit", () => {
  it("cancels a parse past the limit with ParseTimeoutError, and the parser parses the next source afresh", async () => {
    const c = languageFor("a.c")!;
    process.env.CODECITE_PARSE_TIME_LIMIT_MS = "1";
    const err = await parseSource(c, slowC(20_000)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseTimeoutError);
    expect((err as ParseTimeoutError).limitMs).toBe(1);
    expect((err as Error).message).toBe("parsing took longer than 1 ms");
    // The cancelled parse left no state behind: the next parse is of the new text only.
    delete process.env.CODECITE_PARSE_TIME_LIMIT_MS;
    const tree = await parseSource(c, "int ok(void) { return 1; }\n");
    try {
      expect(tree.rootNode.hasError).toBe(false);
      expect(tree.rootNode.text).toBe("int ok(void) { return 1; }\n");
      expect(tree.rootNode.child(0)?.type).toBe("function_definition");
    } finally {
      tree.delete();
    }
  });

  it("values that are not a positive number leave the default limit (the hostile text parses, without a limit of 1 ms)", async () => {
    const c = languageFor("a.c")!;
    for (const bad of ["0", "-5", "abc", ""]) {
      process.env.CODECITE_PARSE_TIME_LIMIT_MS = bad;
      const tree = await parseSource(c, slowC(200));
      expect(tree.rootNode.type).toBe("translation_unit");
      tree.delete();
    }
  });
});

describe("find_symbol over files too slow to parse", () => {
  let root: string;
  beforeAll(() => {
    root = makeTempDir("codecite-slow-");
    putFile(root, "slow.c", slowC(20_000)); // 120 KB: parsed in the process
    putFile(root, "big-slow.c", slowC(24_000)); // over 128 KB: parsed in a worker thread
    putFile(root, "ok.c", "int target(int a) { return a; }\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("such files are named in the note, the others answer, and the verdict is kept until the file changes", async () => {
    const savedCache = process.env.CODECITE_CACHE_DIR;
    process.env.CODECITE_CACHE_DIR = path.join(root, "..", `${path.basename(root)}-cache`);
    process.env.CODECITE_PARSE_TIME_LIMIT_MS = "1";
    FactIndex.closeShared();
    try {
      const ws = await Workspace.open(root);
      const r = await findSymbol(ws, { name: "target", max_results: 50 });
      expect(r.evidence.map((e) => [e.path, e.start_line])).toEqual([["ok.c", 1]]);
      expect(JSON.stringify(r.note)).toContain("2 files not parsed (2 too slow to parse)");

      const load = async () => {
        const before = factsStats().parsed;
        const out = await loadFacts(ws, statFiles(ws, ["slow.c", "big-slow.c", "ok.c"]), undefined, "definitions");
        return { parsed: factsStats().parsed - before, skipped: [...out.skipped].sort(), facts: [...out.keys()] };
      };
      // A fresh process (the store), with the default limit: the verdict is kept, nothing is parsed.
      FactIndex.closeShared();
      delete process.env.CODECITE_PARSE_TIME_LIMIT_MS;
      expect(await load()).toEqual({ parsed: 0, skipped: [["big-slow.c", "too_slow"], ["slow.c", "too_slow"]], facts: ["ok.c"] });
      // A changed file is parsed again.
      putFile(root, "slow.c", "int target2(void) { return 2; }\n");
      const again = await load();
      expect(again.parsed).toBe(1);
      expect(again.skipped).toEqual([["big-slow.c", "too_slow"]]);
      expect(again.facts.sort()).toEqual(["ok.c", "slow.c"]);
    } finally {
      FactIndex.closeShared();
      rmSync(path.join(root, "..", `${path.basename(root)}-cache`), { recursive: true, force: true });
      if (savedCache === undefined) delete process.env.CODECITE_CACHE_DIR;
      else process.env.CODECITE_CACHE_DIR = savedCache;
    }
  });
});
