/**
 * A first query (empty fact cache) of the built CLI: what it loads and writes besides its answer.
 * - A grammar is loaded from its bytes (`evidence/analysis/tree-sitter.ts` `loadGrammar`): given a
 *   path, web-tree-sitter reads it after a dynamic `import()`, which in a CommonJS query bundle
 *   starts Node's ES module loader; the loader's module jobs are never loaded.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./run-cli.js";

let tmp: string;
let repo: string;
let preload: string;

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "codecite-first-query-"));
  repo = path.join(tmp, "repo");
  mkdirSync(path.join(repo, "src"), { recursive: true });
  writeFileSync(path.join(repo, "src", "pool.h"), "#pragma once\nclass RingPool {\n public:\n  int Size() const;\n};\n");
  writeFileSync(path.join(repo, "src", "pool.cc"), '#include "pool.h"\nint RingPool::Size() const { return 1; }\n');
  writeFileSync(path.join(repo, "util.py"), "def ring_size():\n    return 1\n");
  // Prints, at exit, the ES module loader's modules that the process loaded.
  preload = path.join(tmp, "esm-modules.cjs");
  writeFileSync(preload, `process.on("exit", () => process.stderr.write("ESM " + JSON.stringify(process.moduleLoadList.filter((m) => m.includes("modules/esm/"))) + "\\n"));\n`);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("first query", () => {
  it("parses a C++ and a Python file without starting Node's ES module loader", () => {
    for (const [args, expected] of [
      [["symbol", "RingPool"], [{ path: "src/pool.h", name: "RingPool", symbol_kind: "class" }]],
      [["symbol", "ring_size"], [{ path: "util.py", name: "ring_size", symbol_kind: "function" }]],
    ] as const) {
      const cacheDir = mkdtempSync(path.join(tmp, "cache-"));
      const r = spawnSync(process.execPath, ["-r", preload, CLI, ...args, "--json", "--root", repo], {
        env: { ...process.env, CODECITE_CACHE_DIR: cacheDir, NO_COLOR: "1" },
        encoding: "utf8",
      });
      expect(r.status).toBe(0);
      const out = JSON.parse(r.stdout) as { evidence: { path: string; name: string; symbol_kind: string }[] };
      expect(out.evidence.map(({ path: p, name, symbol_kind }) => ({ path: p, name, symbol_kind }))).toEqual(expected);
      const line = r.stderr.split("\n").find((l) => l.startsWith("ESM "));
      const loaded = JSON.parse((line as string).slice(4)) as string[];
      // module_job runs an import(); translators and load read and compile what it imports.
      expect({ args, loaded: loaded.filter((m) => /esm\/(module_job|translators|load)$/.test(m)) }).toEqual({ args, loaded: [] });
    }
  });
});
