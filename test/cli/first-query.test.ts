/**
 * A first query (empty fact cache) of the built CLI: what it loads and writes besides its answer.
 * - A grammar is loaded from its bytes (`evidence/analysis/tree-sitter.ts` `loadGrammar`): given a
 *   path, web-tree-sitter reads it after a dynamic `import()`, which in a CommonJS query bundle
 *   starts Node's ES module loader; the loader's module jobs are never loaded.
 * - web-tree-sitter runs from the query bundle (`scripts/bundle-cli.ts` `bundledTreeSitter`), also
 *   when the bundle is compiled from its code cache: nothing of its package is read.
 * - Node's own modules that symbol, importers and refs always load (`node:crypto`: the fact cache's
 *   file name, content hashes) are loaded before `main.cjs` sets its V8 flag, so they keep their
 *   embedded code cache (`scripts/bundle-cli.ts`, the comment of `main.cjs`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./run-cli.js";

let tmp: string;
let repo: string;
let preload: string;
let afterFlags: string;
let order: string;
let packages: string;

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "codecite-first-query-"));
  repo = path.join(tmp, "repo");
  mkdirSync(path.join(repo, "src"), { recursive: true });
  writeFileSync(path.join(repo, "src", "pool.h"), "#pragma once\nclass RingPool {\n public:\n  int Size() const;\n};\n");
  writeFileSync(path.join(repo, "src", "pool.cc"), '#include "pool.h"\nint RingPool::Size() const { return 1; }\n');
  writeFileSync(path.join(repo, "util.py"), "def ring_size():\n    return 1\n");
  // Written a minute ago, as a user's files are: a tree whose files or folders changed within the
  // racy window (cache-dir.ts RACY_WINDOW_MS) keeps no answer of refs (project-view.ts saveDerived,
  // reference-answers.ts), so the warm refs below would compute it again, parsing pool.cc where
  // RingPool is written (c-focus.ts).
  const past = new Date(Date.now() - 60_000);
  for (const f of ["src/pool.h", "src/pool.cc", "util.py", "src", "."]) utimesSync(path.join(repo, f), past, past);
  // Prints, at exit, the ES module loader's modules that the process loaded.
  preload = path.join(tmp, "esm-modules.cjs");
  writeFileSync(preload, `process.on("exit", () => process.stderr.write("ESM " + JSON.stringify(process.moduleLoadList.filter((m) => m.includes("modules/esm/"))) + "\\n"));\n`);
  // Prints, at exit, Node's own modules loaded after the first `v8.setFlagsFromString` call.
  afterFlags = path.join(tmp, "after-flags.cjs");
  writeFileSync(
    afterFlags,
    [
      'const v8 = require("node:v8");',
      "const set = v8.setFlagsFromString;",
      "let at;",
      "v8.setFlagsFromString = (flags) => { at ??= process.moduleLoadList.length; return set(flags); };",
      'process.on("exit", () => process.stderr.write("AFTER_FLAGS " + JSON.stringify(process.moduleLoadList.slice(at ?? 0).filter((m) => m.startsWith("NativeModule "))) + "\\n"));',
      // And the V8 flags it set (main.cjs).
      "const flags = [];",
      "const record = v8.setFlagsFromString;",
      "v8.setFlagsFromString = (f) => { flags.push(...f.split(' ')); return record(f); };",
      'process.on("exit", () => process.stderr.write("FLAGS " + JSON.stringify(flags) + "\\n"));',
      // The parser's runtime starts by reading its .wasm (web-tree-sitter's own, or the copy beside the query bundle).
      'const fs = require("node:fs");',
      "const read = fs.readFileSync;",
      "let runtime = false;",
      'fs.readFileSync = function (file, ...rest) { if (String(file).endsWith("/tree-sitter.wasm")) runtime = true; return read.call(this, file, ...rest); };',
      'process.on("exit", () => process.stderr.write("TREE_SITTER " + runtime + "\\n"));',
      // Whether the process loaded node:child_process at all.
      'process.on("exit", () => process.stderr.write("CHILD_PROCESS " + process.moduleLoadList.includes("NativeModule child_process") + "\\n"));',
    ].join("\n"),
  );
});
beforeAll(() => {
  // Prints, at exit, in order: each ripgrep run started (the walk's `--files` or another) and the parser's runtime start (the read of its .wasm).
  order = path.join(tmp, "order.cjs");
  writeFileSync(
    order,
    [
      "const events = [];",
      'const { ChildProcess } = require("node:child_process");',
      "const spawn = ChildProcess.prototype.spawn;",
      'ChildProcess.prototype.spawn = function (o) { events.push(o.args.includes("--files") ? "walk" : "rg"); return spawn.call(this, o); };',
      'const fs = require("node:fs");',
      "const read = fs.readFileSync;",
      'fs.readFileSync = function (file, ...rest) { if (String(file).endsWith("/tree-sitter.wasm") && !events.includes("tree-sitter")) events.push("tree-sitter"); return read.call(this, file, ...rest); };',
      'process.on("exit", () => process.stderr.write("ORDER " + JSON.stringify(events) + "\\n"));',
    ].join("\n"),
  );
});
beforeAll(() => {
  // Prints, at exit, the files of web-tree-sitter's package that the process loaded as modules or read.
  packages = path.join(tmp, "packages.cjs");
  writeFileSync(
    packages,
    [
      'const fs = require("node:fs");',
      "const read = fs.readFileSync;",
      "const seen = [];",
      'fs.readFileSync = function (file, ...rest) { if (String(file).includes("node_modules/web-tree-sitter/")) seen.push(String(file)); return read.call(this, file, ...rest); };',
      'process.on("exit", () => process.stderr.write("PACKAGE " + JSON.stringify([...seen, ...Object.keys(require.cache).filter((f) => f.includes("node_modules/web-tree-sitter/"))]) + "\\n"));',
    ].join("\n"),
  );
});
let slowWalk: string;
beforeAll(() => {
  // Like order.cjs, with the walk's ripgrep run (`--files`) started a second late (through
  // `sh -c 'sleep 1; exec rg …'`) and its end recorded: what the process does while it waits.
  // The first WebAssembly instance is the runtime's own (tree-sitter.wasm), the next ones grammars.
  slowWalk = path.join(tmp, "slow-walk.cjs");
  writeFileSync(
    slowWalk,
    [
      "const events = [];",
      'const { ChildProcess } = require("node:child_process");',
      "const spawn = ChildProcess.prototype.spawn;",
      "ChildProcess.prototype.spawn = function (o) {",
      '  if (!o.args.includes("--files")) { events.push("rg"); return spawn.call(this, o); }',
      '  events.push("walk");',
      '  this.once("exit", () => events.push("walk done"));',
      '  return spawn.call(this, { ...o, file: "/bin/sh", args: ["/bin/sh", "-c", \'sleep 1; exec "$0" "$@"\', o.file, ...o.args.slice(1)] });',
      "};",
      "let instances = 0;",
      "const instantiate = WebAssembly.instantiate;",
      'WebAssembly.instantiate = function (...args) { events.push(instances++ === 0 ? "tree-sitter" : "grammar"); return instantiate.apply(this, args); };',
      'process.on("exit", () => process.stderr.write("ORDER " + JSON.stringify(events) + "\\n"));',
    ].join("\n"),
  );
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

  it("symbol, importers and refs load node:crypto before the V8 flag, first and warm, and node:child_process too on the first query only; symbol and refs load tree-sitter on the first query only; all three compile WebAssembly eagerly", () => {
    for (const args of [["symbol", "RingPool"], ["importers", "src/pool.h"], ["refs", "RingPool", "--path", "src/pool.h"]]) {
      const cacheDir = mkdtempSync(path.join(tmp, "cache-"));
      for (const run of ["first", "warm"]) {
        const r = spawnSync(process.execPath, ["-r", afterFlags, CLI, ...args, "--json", "--root", repo], {
          env: { ...process.env, CODECITE_CACHE_DIR: cacheDir, NO_COLOR: "1" },
          encoding: "utf8",
        });
        expect(r.status).toBe(0);
        expect((JSON.parse(r.stdout) as { evidence: unknown[] }).evidence.length).toBeGreaterThan(0);
        const line = r.stderr.split("\n").find((l) => l.startsWith("AFTER_FLAGS "));
        const loaded = JSON.parse((line as string).slice("AFTER_FLAGS ".length)) as string[];
        expect({ args, run, crypto: loaded.filter((m) => /^NativeModule (internal\/crypto\/.*|crypto)$/.test(m)) }).toEqual({ args, run, crypto: [] });
        // A root never queried runs ripgrep: node:child_process is loaded before the flag (src/cli/root-seen.ts);
        // the warm query answers from the fact cache and loads it not at all.
        const childProcess = r.stderr.includes("CHILD_PROCESS true");
        const afterFlag = loaded.filter((m) => /^NativeModule (internal\/)?child_process$/.test(m));
        expect({ args, run, childProcess, afterFlag }).toEqual({ args, run, childProcess: run === "first", afterFlag: [] });
        // The parser's runtime is started early on an empty fact cache only (facts.ts warmUpParser): a warm query loads none of it.
        if (args[0] !== "importers") expect({ args, run, treeSitter: r.stderr.includes("TREE_SITTER true") }).toEqual({ args, run, treeSitter: run === "first" });
        // WebAssembly is compiled on V8's background threads (eagerly), not function by function on the main thread (main.cjs).
        const flags = JSON.parse((r.stderr.split("\n").find((l) => l.startsWith("FLAGS ")) as string).slice("FLAGS ".length)) as string[];
        expect({ args, run, eager: flags.includes("--no-wasm-lazy-compilation"), liftoff: flags.includes("--liftoff-only") }).toEqual({ args, run, eager: true, liftoff: true });
      }
    }
  });

  it("a first query runs web-tree-sitter from the query bundle, with the bundle's code cache too, and reads nothing of its package", () => {
    for (const [args, expected] of [
      [["symbol", "RingPool"], [{ path: "src/pool.h", name: "RingPool", symbol_kind: "class" }]],
      [["symbol", "ring_size"], [{ path: "util.py", name: "ring_size", symbol_kind: "function" }]],
    ] as const) {
      const cacheDir = mkdtempSync(path.join(tmp, "cache-"));
      const codeCache = path.join(cacheDir, "v8-code");
      let cacheFile: { name: string; ino: number } | undefined;
      // The second run is a first query too (its fact cache removed) that compiles the bundle from the code cache the first one wrote.
      for (const run of ["no code cache", "code cache"]) {
        for (const f of readdirSync(cacheDir)) if (f !== "v8-code") rmSync(path.join(cacheDir, f), { recursive: true, force: true });
        const r = spawnSync(process.execPath, ["-r", packages, CLI, ...args, "--json", "--root", repo], {
          env: { ...process.env, CODECITE_CACHE_DIR: cacheDir, NO_COLOR: "1" },
          encoding: "utf8",
        });
        expect(r.status).toBe(0);
        const out = JSON.parse(r.stdout) as { evidence: { path: string; name: string; symbol_kind: string }[] };
        expect({ args, run, found: out.evidence.map(({ path: p, name, symbol_kind }) => ({ path: p, name, symbol_kind })) }).toEqual({ args, run, found: expected });
        const line = r.stderr.split("\n").find((l) => l.startsWith("PACKAGE "));
        expect({ args, run, read: JSON.parse((line as string).slice("PACKAGE ".length)) as string[] }).toEqual({ args, run, read: [] });
        const files = readdirSync(codeCache).filter((f) => f.startsWith("query-symbol-"));
        expect(files.length).toBe(1);
        const now = { name: files[0] as string, ino: statSync(path.join(codeCache, files[0] as string)).ino };
        // A cache that was used is not written again (runCachedScript saves an absent or rejected one).
        if (cacheFile !== undefined) expect(now).toEqual(cacheFile);
        cacheFile = now;
      }
    }
  });

  it("symbol and refs start their first ripgrep runs (the walk and the prefilter) before the parser's runtime loads", () => {
    for (const args of [["symbol", "RingPool"], ["refs", "RingPool", "--path", "src/pool.h"]]) {
      const cacheDir = mkdtempSync(path.join(tmp, "cache-"));
      const r = spawnSync(process.execPath, ["-r", order, CLI, ...args, "--json", "--root", repo], {
        env: { ...process.env, CODECITE_CACHE_DIR: cacheDir, NO_COLOR: "1" },
        encoding: "utf8",
      });
      expect(r.status).toBe(0);
      const line = r.stderr.split("\n").find((l) => l.startsWith("ORDER "));
      const events = JSON.parse((line as string).slice("ORDER ".length)) as string[];
      expect({ args, first: [...events.slice(0, 2)].sort(), then: events[2] }).toEqual({ args, first: ["rg", "walk"], then: "tree-sitter" });
    }
  });

  it("symbol, importers and refs walk the tree with ripgrep on half the cores; the prefilter's ripgrep keeps its default", () => {
    // Prints, at exit, the `--threads` arguments of each ripgrep run: the walk's (`--files`) and the others.
    const threadsOf = path.join(tmp, "threads.cjs");
    writeFileSync(
      threadsOf,
      [
        "const seen = { walk: [], rg: [] };",
        'const { ChildProcess } = require("node:child_process");',
        "const spawn = ChildProcess.prototype.spawn;",
        'ChildProcess.prototype.spawn = function (o) { seen[o.args.includes("--files") ? "walk" : "rg"].push(o.args.filter((a) => a.startsWith("--threads") || a === "-j").join(" ")); return spawn.call(this, o); };',
        'process.on("exit", () => process.stderr.write("THREADS " + JSON.stringify(seen) + "\\n"));',
      ].join("\n"),
    );
    const half = `--threads=${Math.max(1, Math.floor(os.availableParallelism() / 2))}`;
    for (const args of [
      ["symbol", "RingPool"],
      ["importers", "src/pool.h"],
      ["refs", "RingPool", "--path", "src/pool.h"],
    ]) {
      const cacheDir = mkdtempSync(path.join(tmp, "cache-"));
      const r = spawnSync(process.execPath, ["-r", threadsOf, CLI, ...args, "--json", "--root", repo], {
        env: { ...process.env, CODECITE_CACHE_DIR: cacheDir, NO_COLOR: "1" },
        encoding: "utf8",
      });
      expect(r.status).toBe(0);
      expect((JSON.parse(r.stdout) as { ok: boolean }).ok).toBe(true);
      const line = r.stderr.split("\n").find((l) => l.startsWith("THREADS "));
      const seen = JSON.parse((line as string).slice("THREADS ".length)) as { walk: string[]; rg: string[] };
      expect({ args, walk: seen.walk }).toEqual({ args, walk: [half] });
      expect(seen.rg.length).toBeGreaterThan(0);
      expect(seen.rg.every((a) => a === "")).toBe(true);
    }
  });
  it("symbol and refs start the parser's runtime while the walk of the tree runs, and refs with a file's path its grammar too", () => {
    for (const [args, expected] of [
      [["symbol", "RingPool"], ["tree-sitter", "walk done", "grammar"]],
      [["refs", "RingPool", "--path", "src/pool.h"], ["tree-sitter", "grammar", "walk done"]],
      [["refs", "ring_size", "--path", "util.py"], ["tree-sitter", "grammar", "walk done"]],
    ] as const) {
      const cacheDir = mkdtempSync(path.join(tmp, "cache-"));
      const r = spawnSync(process.execPath, ["-r", slowWalk, CLI, ...args, "--json", "--root", repo], {
        env: { ...process.env, CODECITE_CACHE_DIR: cacheDir, NO_COLOR: "1" },
        encoding: "utf8",
      });
      expect(r.status).toBe(0);
      expect((JSON.parse(r.stdout) as { ok: boolean }).ok).toBe(true);
      const line = r.stderr.split("\n").find((l) => l.startsWith("ORDER "));
      const events = JSON.parse((line as string).slice("ORDER ".length)) as string[];
      expect({ args, events: events.filter((e) => e !== "rg" && e !== "walk").slice(0, 3) }).toEqual({ args, events: expected });
    }
  });
});
