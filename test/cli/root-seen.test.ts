/**
 * `rootSeenBefore` (src/cli/root-seen.ts): whether the root a query command reads has an
 * ignore-file scan snapshot in the cache folder, read from the command line as `defaultRoot` does.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rootSeenBefore } from "../../src/cli/root-seen.js";
import { snapshotFile } from "../../src/fact-cache/scan-snapshot.js";

let tmp: string;
let repo: string;
let other: string;
let cache: string;

beforeAll(() => {
  tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), "codecite-root-seen-")));
  repo = path.join(tmp, "repo");
  other = path.join(tmp, "other");
  cache = path.join(tmp, "cache");
  mkdirSync(repo);
  mkdirSync(other);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("rootSeenBefore", () => {
  it("is false for a root without a scan snapshot, true once it has one, and reads --root as the command line does", () => {
    const env = { CODECITE_CACHE_DIR: cache };
    const argv = ["node", "main.cjs", "symbol", "Foo", "--root", repo];
    expect(rootSeenBefore(argv, tmp, env)).toBe(false);
    writeFileSync(snapshotFile(cache, repo) as string, "{}");
    expect(rootSeenBefore(argv, tmp, env)).toBe(true);
    // --root=…, relative to the current folder; the last one counts.
    expect(rootSeenBefore(["node", "main.cjs", "symbol", "Foo", "--root=repo"], tmp, env)).toBe(true);
    expect(rootSeenBefore(["node", "main.cjs", "symbol", "Foo", "--root", "repo", "--root", "other"], tmp, env)).toBe(false);
    // No --root: the current folder (not in a git work tree here).
    expect(rootSeenBefore(["node", "main.cjs", "symbol", "Foo"], repo, env)).toBe(true);
    expect(rootSeenBefore(["node", "main.cjs", "symbol", "Foo"], other, env)).toBe(false);
    // Another cache folder has no snapshot of it.
    expect(rootSeenBefore(argv, tmp, { CODECITE_CACHE_DIR: path.join(tmp, "cache2") })).toBe(false);
  });

  it("is true when it cannot tell (a root that does not exist); false with a cache folder inside the root, where no snapshot is kept", () => {
    expect(rootSeenBefore(["node", "main.cjs", "symbol", "Foo", "--root", path.join(tmp, "missing")], tmp, { CODECITE_CACHE_DIR: cache })).toBe(true);
    expect(snapshotFile(path.join(other, ".cache"), other)).toBeUndefined();
    expect(rootSeenBefore(["node", "main.cjs", "symbol", "Foo", "--root", other], tmp, { CODECITE_CACHE_DIR: path.join(other, ".cache") })).toBe(false);
  });
});
