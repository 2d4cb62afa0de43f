/**
 * The V8 code cache of the CLI's query bundle (`src/cli/compile-cache.ts`): a script runs the
 * same with and without it, the cache is written after a run and used by the next, it lives in
 * a private folder of the user's cache folder, and a folder or file that someone else could
 * have written is never read. Also: the built CLI writes the cache for the command it ran.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCachedScript, WRAPPER_END, WRAPPER_START } from "../../src/cli/compile-cache.js";

let tmp: string;
let script: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "codecite-v8cache-"));
  script = path.join(tmp, "script.cjs");
  // A script that uses every wrapper argument and compiles a function lazily.
  writeFileSync(
    script,
    `const p = require("node:path");\n` +
      `function square(n) { return n * n; }\n` +
      `module.exports = { dir: __dirname, base: p.basename(__filename), sum: [1, 2, 3].map(square).reduce((a, b) => a + b, 0), same: exports === module.exports };\n`,
  );
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const expected = () => ({ dir: tmp, base: "script.cjs", sum: 14, same: true });

describe("runCachedScript", () => {
  it("writes the cache after a run (mode 0600 in a 0700 folder) and uses it in the next", () => {
    const cacheDir = path.join(tmp, "cache");
    const first = runCachedScript(script, { name: "query-test", cacheDir, saveAtExit: false });
    expect(first.status).toBe("absent");
    expect(first.exports).toEqual(expected());
    first.save();
    const folder = path.join(cacheDir, "v8-code");
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^query-test-[0-9a-f]{8}-\d+-\d+-\d+-\d+-v\d+\.\d+\.\d+-[a-z0-9]+\.bin$/);
    expect(statSync(path.join(folder, files[0] as string)).mode & 0o777).toBe(0o600);
    // The file is the CRC-32 of the V8 data (4 bytes, big-endian), then the data.
    const stored = readFileSync(path.join(folder, files[0] as string));
    expect(stored.length).toBeGreaterThan(4);
    expect(stored.readUInt32BE(0)).toBe(crc32(stored.subarray(4)));

    const second = runCachedScript(script, { name: "query-test", cacheDir, saveAtExit: false });
    expect(second.status).toBe("used");
    expect(second.cacheFile).toBe(first.cacheFile);
    expect(second.exports).toEqual(expected());
  });

  it("a changed script gets a new cache file and the old one is removed", () => {
    const cacheDir = path.join(tmp, "cache");
    const first = runCachedScript(script, { name: "query-test", cacheDir, saveAtExit: false });
    first.save();
    writeFileSync(script, `module.exports = { changed: true, pad: "${"x".repeat(50)}" };\n`);
    const second = runCachedScript(script, { name: "query-test", cacheDir, saveAtExit: false });
    expect(second.status).toBe("absent");
    expect(second.exports).toEqual({ changed: true, pad: "x".repeat(50) });
    second.save();
    expect(readdirSync(path.join(cacheDir, "v8-code"))).toEqual([path.basename(second.cacheFile as string)]);
  });

  it("never reads a cache folder that others can write, or one that is a symbolic link", () => {
    const open = path.join(tmp, "open");
    mkdirSync(path.join(open, "v8-code"), { recursive: true });
    chmodSync(path.join(open, "v8-code"), 0o777);
    const run = runCachedScript(script, { name: "query-test", cacheDir: open, saveAtExit: false });
    expect(run.status).toBe("off");
    expect(run.exports).toEqual(expected());
    run.save();
    expect(readdirSync(path.join(open, "v8-code"))).toEqual([]);

    const linked = path.join(tmp, "linked");
    mkdirSync(linked);
    mkdirSync(path.join(tmp, "elsewhere"), { mode: 0o700 });
    symlinkSync(path.join(tmp, "elsewhere"), path.join(linked, "v8-code"));
    expect(runCachedScript(script, { name: "query-test", cacheDir: linked, saveAtExit: false }).status).toBe("off");
  });

  it("ignores a cache file that others can write and replaces it", () => {
    const cacheDir = path.join(tmp, "cache");
    const first = runCachedScript(script, { name: "query-test", cacheDir, saveAtExit: false });
    first.save();
    chmodSync(first.cacheFile as string, 0o666);
    const second = runCachedScript(script, { name: "query-test", cacheDir, saveAtExit: false });
    expect(second.status).toBe("absent");
    expect(second.exports).toEqual(expected());
  });

  it("never reads or writes a cache folder inside the project, whatever spelling reaches it", () => {
    const repo = path.join(tmp, "repo");
    mkdirSync(repo);
    const shipped = path.join(repo, ".cache");
    // A repository's files belong to the user: a cache file it ships passes the owner, mode and link checks.
    const planted = runCachedScript(script, { name: "query-test", cacheDir: shipped, saveAtExit: false, projectDirs: [] });
    planted.save();
    expect(runCachedScript(script, { name: "query-test", cacheDir: shipped, saveAtExit: false, projectDirs: [] }).status).toBe("used");

    const run = runCachedScript(script, { name: "query-test", cacheDir: shipped, saveAtExit: false, projectDirs: [repo] });
    expect(run.status).toBe("off");
    expect(run.exports).toEqual(expected());
    symlinkSync(repo, path.join(tmp, "alias"));
    expect(runCachedScript(script, { name: "query-test", cacheDir: path.join(tmp, "alias", ".cache"), saveAtExit: false, projectDirs: [repo] }).status).toBe("off");
    expect(runCachedScript(script, { name: "query-test", cacheDir: shipped, saveAtExit: false, projectDirs: [path.join(tmp, "alias")] }).status).toBe("off");
    // Not made yet: nothing is created inside the project either.
    const fresh = runCachedScript(script, { name: "query-test", cacheDir: path.join(repo, "new", "cache"), saveAtExit: false, projectDirs: [repo] });
    fresh.save();
    expect(fresh.status).toBe("off");
    expect(existsSync(path.join(repo, "new"))).toBe(false);
  });

  it("runs a file that holds its own wrapper (as the build writes the query bundles) as the plain module, cached alike", () => {
    const wrapped = path.join(tmp, "wrapped.cjs");
    writeFileSync(wrapped, `${WRAPPER_START}${readFileSync(script, "utf8")}${WRAPPER_END}\n`);
    const cacheDir = path.join(tmp, "cache");
    const first = runCachedScript(wrapped, { name: "query-wrapped", cacheDir, saveAtExit: false, wrapped: true });
    expect(first.status).toBe("absent");
    expect(first.exports).toEqual({ ...expected(), base: "wrapped.cjs" });
    first.save();
    const second = runCachedScript(wrapped, { name: "query-wrapped", cacheDir, saveAtExit: false, wrapped: true });
    expect(second.status).toBe("used");
    expect(second.exports).toEqual({ ...expected(), base: "wrapped.cjs" });
  });

  it("runs without a cache for a name that is not a plain word", () => {
    expect(runCachedScript(script, { name: "../x", cacheDir: path.join(tmp, "c"), saveAtExit: false }).status).toBe("off");
    expect(existsSync(path.join(tmp, "c"))).toBe(false);
  });
});

describe("the built CLI", () => {
  it("writes one code cache per query command into the cache folder, and answers the same from it, from either entry", () => {
    const cacheDir = path.join(tmp, "cli-cache");
    const repo = path.join(tmp, "repo");
    mkdirSync(repo);
    writeFileSync(path.join(repo, "a.py"), "def load_index():\n    return 1\n");
    const env = { ...process.env, CODECITE_CACHE_DIR: cacheDir };
    // main.cjs: package.json's bin; main.js: the ES module entry (`node dist/cli/main.js`), which runs main.cjs.
    const run = (entry: string, command = "search") =>
      execFileSync(process.execPath, [path.resolve("dist/cli", entry), command, "load_index", "--root", repo, "--json"], { env, encoding: "utf8" });
    const first = run("main.cjs");
    const cached = () => readdirSync(path.join(cacheDir, "v8-code")).filter((f) => f.startsWith("query-"));
    expect(cached().map((f) => f.split("-")[1])).toEqual(["search"]);
    expect(run("main.cjs")).toBe(first);
    expect(run("main.js")).toBe(first);
    expect(JSON.parse(first)).toMatchObject({ ok: true, total: 1, evidence: [{ path: "a.py", start_line: 1 }] });
    expect(JSON.parse(run("main.cjs", "symbol"))).toMatchObject({ ok: true, total: 1, evidence: [{ path: "a.py", start_line: 1 }] });
    expect(cached().map((f) => f.split("-")[1]).sort()).toEqual(["search", "symbol"]);
  });

  it("keeps no code cache inside the project: a relative CODECITE_CACHE_DIR, one inside --root, one inside the git work tree", () => {
    const main = path.resolve("dist/cli/main.js");
    const repo = path.join(tmp, "repo");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    mkdirSync(path.join(repo, "sub"));
    writeFileSync(path.join(repo, "sub", "a.py"), "def load_index():\n    return 1\n");
    const cases: Array<{ cwd: string; cache: string; args: string[] }> = [
      { cwd: repo, cache: ".cc", args: [] },
      { cwd: tmp, cache: path.join(repo, ".cc"), args: ["--root", repo] },
      { cwd: tmp, cache: path.join(repo, ".cc"), args: [`--root=${repo}`] },
      { cwd: path.join(repo, "sub"), cache: path.join(repo, ".cc"), args: ["--root", "."] },
    ];
    for (const c of cases) {
      rmSync(path.join(repo, ".cc"), { recursive: true, force: true });
      const out = execFileSync(process.execPath, [main, "symbol", "load_index", "--json", ...c.args], {
        cwd: c.cwd,
        env: { ...process.env, CODECITE_CACHE_DIR: c.cache },
        encoding: "utf8",
      });
      expect(JSON.parse(out)).toMatchObject({ ok: true, total: 1 });
      // The fact cache keeps its rule (a folder inside the root is not used); the code cache never lies in the work tree.
      expect({ ...c, made: existsSync(path.join(repo, ".cc", "v8-code")) }).toEqual({ ...c, made: false });
    }
  });

  it("a warm query compiles none of Node's own modules without their embedded code cache (the flag set before the bundle changes V8's flag hash)", () => {
    const main = path.resolve("dist/cli/main.cjs");
    const cacheDir = path.join(tmp, "cli-cache");
    const repo = path.join(tmp, "repo");
    mkdirSync(repo);
    writeFileSync(path.join(repo, "a.py"), "def load_index():\n    return 1\n");
    const env = { ...process.env, CODECITE_CACHE_DIR: cacheDir };
    // (symbol, importers and refs start ripgrep for a name their fact cache cannot answer, whose
    // modules are not loaded first; read and search, which does start it, cover both cases.)
    for (const args of [
      ["search", "load_index"],
      ["read", "a.py:1-2"],
    ]) {
      const run = (v8Flags: string[]) => spawnSync(process.execPath, [...v8Flags, main, ...args, "--root", repo], { env, encoding: "utf8" });
      expect(run([]).status).toBe(0);
      // V8 prints one line for each code cache that fails its check (the query bundle's own is used by now).
      const traced = run(["--profile-deserialization"]);
      expect(traced.status).toBe(0);
      const failed = `${traced.stdout}${traced.stderr}`.split("\n").filter((l) => l.startsWith("[Cached code failed check"));
      expect({ args, failed: failed.length }).toEqual({ args, failed: 0 });
    }
  });

  it("a cache file damaged in its middle is never handed to V8: the command answers the same and the file is replaced", () => {
    const main = path.resolve("dist/cli/main.js");
    const cacheDir = path.join(tmp, "cli-cache");
    const repo = path.join(tmp, "repo");
    mkdirSync(repo);
    writeFileSync(path.join(repo, "a.py"), "def load_index():\n    return 1\n");
    const env = { ...process.env, CODECITE_CACHE_DIR: cacheDir };
    const run = () => spawnSync(process.execPath, [main, "search", "load_index", "--root", repo, "--json"], { env, encoding: "utf8" });
    const first = run();
    expect(first.status).toBe(0);
    const folder = path.join(cacheDir, "v8-code");
    const [name] = readdirSync(folder).filter((f) => f.startsWith("query-search-"));
    const file = path.join(folder, name as string);
    // Damage the second half (V8's payload; its header, which V8 does check, stays whole):
    // before the digest, V8 stopped the process ("Fatal error … unreachable code", SIGTRAP).
    const bytes = readFileSync(file);
    for (let i = bytes.length >> 1; i < bytes.length; i += 7) bytes[i] = (bytes[i] as number) ^ 0x5a;
    writeFileSync(file, bytes);
    for (let i = 0; i < 2; i++) {
      const again = run();
      expect({ status: again.status, signal: again.signal, stdout: again.stdout }).toEqual({ status: 0, signal: null, stdout: first.stdout });
    }
    expect(readFileSync(file).equals(bytes)).toBe(false);
  });
});
