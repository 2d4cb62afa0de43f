/**
 * The CLI's query commands keep the ignore-file scan's snapshot in the cache folder
 * (`fact-cache/scan-snapshot.ts`; perf, issue 17), and an ignore file swapped for a FIFO after it
 * was written is still refused before ripgrep opens it (SECURITY.md "Paths and traversal").
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { runCli } from "./run-cli.js";

let root: string;
let cache: string;
beforeEach(() => {
  root = makeTempDir("codecite-scan-cli-");
  cache = makeTempDir("codecite-scan-cli-cache-");
  putFile(root, "pkg/a.py", "def load_index():\n    return 1\n");
  putFile(root, "pkg/.gitignore", "*.tmp\n");
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

describe("search keeps the ignore-file scan's snapshot", () => {
  it("writes it to the cache folder, and a FIFO swapped in after it is refused", async () => {
    const env = { CODECITE_CACHE_DIR: cache };
    const first = await runCli(["search", "load_index", "--root", root], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("pkg/a.py:1");
    const files = readdirSync(cache).filter((f) => f.endsWith(".scan.json"));
    expect(files).toHaveLength(1);
    expect(JSON.parse(readFileSync(path.join(cache, files[0] as string), "utf8"))).toMatchObject({ v: 1, root });

    rmSync(path.join(root, "pkg/.gitignore"));
    execFileSync("mkfifo", [path.join(root, "pkg/.gitignore")]);
    const second = await runCli(["search", "load_index", "--root", root], { env });
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain("the ignore file pkg/.gitignore is a FIFO, not a regular file");
  });
});
