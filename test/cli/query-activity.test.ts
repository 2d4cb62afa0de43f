/**
 * What an evidence command shows about its own work (issue 17): the first query on a repository
 * draws `indexing: N/M files parsed` on a terminal's stderr while it parses, and nothing with
 * `--json` or a stderr that is not a terminal; `CODECITE_TIMING=1` prints where the time went.
 * The terminal is a real pseudo-terminal (`test/helpers/pty-driver.py`, Python's `pty`; skipped
 * without python3); `CODECITE_PROGRESS_DELAY_MS=0` shows the line at once, so no test depends on
 * how fast the machine parses. Only a timed run reads the clock: an untimed query never loads Node's
 * perf_hooks (ten modules, loaded by the first read of \`performance\`; perf, issue 17).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { CLI, REPO_ROOT, runCli } from "./run-cli.js";
import { CHILD_TIMEOUT_MS } from "../helpers/patience.js";

const HAS_PYTHON = spawnSync("python3", ["--version"]).status === 0;
const DRIVER = path.join(REPO_ROOT, "test/helpers/pty-driver.py");
const FILES = 40;

let root: string;
let cache: string;
beforeEach(() => {
  root = makeTempDir("codecite-progress-");
  cache = makeTempDir("codecite-progress-cache-");
  for (let i = 0; i < FILES; i++) putFile(root, `pkg/m${i}.py`, `from pkg import base\n\ndef f${i}():\n    return base.value + ${i}\n`);
  putFile(root, "pkg/base.py", "value = 1\n");
  putFile(root, "pkg/__init__.py", "");
  // Files written an hour ago: an entry cached right after a write is "racy" and confirmed again on
  // the next query (src/fact-cache/fact-store.ts), which on a slow machine would look like work.
  const past = new Date(Date.now() - 3_600_000);
  for (const f of readdirSync(path.join(root, "pkg"))) utimesSync(path.join(root, "pkg", f), past, past);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

/** Runs the CLI in a pseudo-terminal (stdout and stderr both the terminal); the transcript and exit code. */
function inTerminal(args: string[], env: Record<string, string> = {}): { transcript: string; code: number } {
  const r = spawnSync("python3", [DRIVER, "[]", "--", process.execPath, CLI, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TERM: "xterm", CODECITE_CACHE_DIR: cache, CODECITE_PROGRESS_DELAY_MS: "0", ...env },
    timeout: CHILD_TIMEOUT_MS,
  });
  const m = /\nEXIT (-?\d+)\n/.exec(r.stdout);
  return { transcript: r.stdout, code: m ? Number(m[1]) : -1 };
}

describe.skipIf(!HAS_PYTHON)("progress line on a terminal", () => {
  it("the first query draws files parsed out of the files to parse, then clears the line before the answer", () => {
    // refs parses every file that mentions the name (importers reads import statements without
    // parsing: lang/python-imports.ts, so it has no parse to show).
    const { transcript, code } = inTerminal(["refs", "value", "--path", "pkg/base.py", "--root", root]);
    expect(code).toBe(0);
    expect(transcript).toMatch(new RegExp(`indexing: \\d+/${FILES} files parsed`));
    // The line is erased (carriage return, erase line) before the records are printed.
    const lastProgress = transcript.lastIndexOf("files parsed");
    const cleared = transcript.indexOf("\r\u001b[2K", lastProgress);
    expect(cleared).toBeGreaterThan(lastProgress);
    expect(transcript.indexOf("pkg/m0.py:4", cleared)).toBeGreaterThan(cleared);
    expect(transcript).toContain(`${FILES} results`);
  });

  it("a first importers query reads import statements without parsing and draws no parse count", () => {
    const { transcript, code } = inTerminal(["importers", "pkg.base", "--root", root]);
    expect(code).toBe(0);
    expect(transcript).toContain(`${FILES} results`);
    expect(transcript).not.toContain("files parsed");
  });

  it("a warm query parses nothing and draws no line", () => {
    expect(inTerminal(["importers", "pkg.base", "--root", root]).code).toBe(0);
    const warm = inTerminal(["importers", "pkg.base", "--root", root]);
    expect(warm.code).toBe(0);
    expect(warm.transcript).toContain(`${FILES} results`);
    expect(warm.transcript).not.toContain("files parsed");
  });

  it("--json stays quiet on a terminal", () => {
    const { transcript, code } = inTerminal(["importers", "pkg.base", "--root", root, "--json"]);
    expect(code).toBe(0);
    expect(transcript).toContain('"ok": true');
    expect(transcript).not.toContain("files parsed");
  });
});

describe("progress line and timing off a terminal", () => {
  it("a stderr that is not a terminal gets no progress line", async () => {
    const r = await runCli(["importers", "pkg.base", "--root", root], { env: { CODECITE_CACHE_DIR: cache, CODECITE_PROGRESS_DELAY_MS: "0" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("pkg/m0.py:1");
    expect(r.stderr).not.toContain("files parsed");
  });

  it("CODECITE_TIMING=1 prints one line with every phase and the total", async () => {
    const r = await runCli(["symbol", "f3", "--root", root], { env: { CODECITE_CACHE_DIR: cache, CODECITE_TIMING: "1" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("pkg/m3.py:3");
    const line = r.stderr.split("\n").find((l) => l.startsWith("timing: "));
    expect(line).toMatch(/^timing: start-up \d+ ms, load \d+ ms, workspace \d+ ms, cache open \d+ ms, validation \d+ ms, query \d+ ms, output \d+ ms, total \d+ ms$/);
    const total = Number(/total (\d+) ms/.exec(line!)![1]);
    const parts = [...line!.matchAll(/(?:start-up|load|workspace|cache open|validation|query|output) (\d+) ms/g)].reduce((s, m) => s + Number(m[1]), 0);
    // The phases cover the run (rounding of 7 parts aside).
    expect(Math.abs(total - parts)).toBeLessThanOrEqual(8);
  });

  it("CODECITE_TIMING=1 on search shows the ignore-file check and ripgrep's run as parts of the query", async () => {
    const r = await runCli(["search", "base.value", "--root", root], { env: { CODECITE_CACHE_DIR: cache, CODECITE_TIMING: "1" } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("pkg/m3.py:4");
    const line = r.stderr.split("\n").find((l) => l.startsWith("timing: "));
    expect(line).toMatch(
      /^timing: start-up \d+ ms, load \d+ ms, workspace \d+ ms, cache open \d+ ms, validation \d+ ms, ignore-file check \d+ ms, ripgrep \d+ ms, query \d+ ms, output \d+ ms, total \d+ ms$/,
    );
    const total = Number(/total (\d+) ms/.exec(line!)![1]);
    const parts = [...line!.matchAll(/(?:start-up|load|workspace|cache open|validation|ignore-file check|ripgrep|query|output) (\d+) ms/g)].reduce((s, m) => s + Number(m[1]), 0);
    // The parts still cover the run (rounding of 9 parts aside): the two search steps are not counted twice.
    expect(Math.abs(total - parts)).toBeLessThanOrEqual(10);
  });
});

describe("the clock", () => {
  it("a query command loads Node's perf_hooks only when CODECITE_TIMING=1 asks for the time line", () => {
    // Prints, at exit, whether the process loaded perf_hooks (the module behind the `performance` global).
    const preload = path.join(cache, "perf-hooks.cjs");
    writeFileSync(preload, `process.on("exit", () => process.stderr.write("PERF_HOOKS " + process.moduleLoadList.includes("NativeModule perf_hooks") + "\\n"));\n`);
    const run = (args: string[], timing: boolean) => {
      const r = spawnSync(process.execPath, ["-r", preload, CLI, ...args, "--root", root], {
        cwd: root,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", CODECITE_CACHE_DIR: cache, ...(timing ? { CODECITE_TIMING: "1" } : {}) },
        timeout: CHILD_TIMEOUT_MS,
      });
      const stderr = r.stderr.split("\n");
      return { code: r.status, stdout: r.stdout, perfHooks: stderr.find((l) => l.startsWith("PERF_HOOKS ")), timed: stderr.some((l) => l.startsWith("timing: ")) };
    };
    for (const args of [["search", "base.value"], ["symbol", "f3"]]) {
      for (const timing of [false, true]) {
        const r = run(args, timing);
        expect({ args, timing, code: r.code, perfHooks: r.perfHooks, timed: r.timed }).toEqual({ args, timing, code: 0, perfHooks: `PERF_HOOKS ${timing}`, timed: timing });
      }
    }
    expect(run(["search", "base.value"], false).stdout).toContain("pkg/m3.py:4");
  });
});
