/**
 * `codecite search` reads ripgrep's output through a temporary file (src/evidence/sandbox/spawn.ts
 * `spoolStdout`). When that file cannot take it all — a file-size limit (`ulimit -f`) ends ripgrep
 * with SIGXFSZ, a full file system refuses its writes — the search runs again through a pipe
 * (src/evidence/search.ts), so the answer is the same as without the limit, never a silent part of it.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { CHILD_TIMEOUT_MS } from "../helpers/patience.js";
import { CLI } from "./run-cli.js";

let w: string;

beforeEach(() => {
  w = makeTempDir("codecite-search-spool-");
  // 300 files, each with one matching line: ripgrep's JSON output is about 150 KB.
  for (let i = 0; i < 300; i++) putFile(w, `tree/pkg${i % 7}/m${i}.py`, `def f${i}():\n    return spool_marker_${i} + 1\n`);
});

afterEach(() => rmSync(w, { recursive: true, force: true }));

/** `codecite search spool_marker --all --json` over the tree, under `ulimit -f <blocks>` when given. */
function search(cache: string, blocks?: number): { status: number | null; stdout: string } {
  const argv = [CLI, "search", "spool_marker", "--root", path.join(w, "tree"), "--all", "--json"];
  const env = { ...process.env, CODECITE_CACHE_DIR: path.join(w, cache), TMPDIR: w, NO_COLOR: "1" };
  const r =
    blocks === undefined
      ? spawnSync(process.execPath, argv, { env, encoding: "utf8", timeout: CHILD_TIMEOUT_MS })
      : spawnSync("sh", ["-c", `ulimit -f ${blocks} && exec "$0" "$@"`, process.execPath, ...argv], { env, encoding: "utf8", timeout: CHILD_TIMEOUT_MS });
  return { status: r.status, stdout: r.stdout };
}

describe("search when the temporary file cannot take ripgrep's output", () => {
  it("gives the same complete answer under a 8 KiB file-size limit", () => {
    const free = search("cache-free");
    expect(free.status).toBe(0);
    const parsed = JSON.parse(free.stdout) as { total: number; evidence: unknown[] };
    expect(parsed.total).toBe(300);
    expect(parsed.evidence).toHaveLength(300);
    const limited = search("cache-limited", 16); // 16 blocks of 512 bytes
    expect(limited.status).toBe(0);
    expect(limited.stdout).toBe(free.stdout);
  });
});
