/**
 * The query bundles' own copy of better-sqlite3's JavaScript (`src/fact-cache/sqlite-driver.ts`,
 * `scripts/bundle-cli.ts`): the built CLI opens the fact cache with it, reading none of the
 * driver's modules from node_modules, and the cache it writes is the same SQLite file the
 * installed driver reads. Outside a bundle there is no copy.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bundledDriver } from "../../src/fact-cache/sqlite-driver.js";
import { CLI } from "../cli/run-cli.js";

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "codecite-sqlite-driver-"));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe("better-sqlite3 in the query bundles", () => {
  it("outside a bundle there is no bundled copy", () => {
    expect(bundledDriver()).toBeUndefined();
  });

  it("the built CLI opens the fact cache loading only the driver's addon from node_modules, and the installed driver reads what it wrote", () => {
    const repo = path.join(tmp, "repo");
    mkdirSync(repo);
    writeFileSync(path.join(repo, "a.py"), "def load_index():\n    return 1\n");
    const cacheDir = path.join(tmp, "cache");
    const loaded = path.join(tmp, "loaded.json");
    // Run before the CLI: at exit, lists the CommonJS modules Node's loader read from a better-sqlite3 folder.
    const preload = path.join(tmp, "preload.cjs");
    writeFileSync(
      preload,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(Object.keys(require.cache).filter((k) => k.includes("better-sqlite3")))));\n`,
    );
    const run = () =>
      JSON.parse(
        execFileSync(process.execPath, ["-r", preload, CLI, "symbol", "load_index", "--root", repo, "--json"], {
          env: { ...process.env, CODECITE_CACHE_DIR: cacheDir },
          encoding: "utf8",
        }),
      ) as unknown;
    const first = run();
    expect(first).toMatchObject({ ok: true, total: 1, evidence: [{ path: "a.py", start_line: 1 }] });
    // Only the native addon, by path.
    expect(JSON.parse(readFileSync(loaded, "utf8"))).toEqual([expect.stringMatching(/[/\\]better-sqlite3[/\\]build[/\\]Release[/\\]better_sqlite3\.node$/)]);
    expect(run()).toEqual(first);

    const [db] = readdirSync(cacheDir).filter((f) => f.endsWith(".sqlite"));
    expect(db).toBeDefined();
    const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
    const conn = new Database(path.join(cacheDir, db as string), { readonly: true });
    try {
      expect(conn.prepare("SELECT path FROM facts").pluck().all()).toEqual(["a.py"]);
    } finally {
      conn.close();
    }
  });
});
