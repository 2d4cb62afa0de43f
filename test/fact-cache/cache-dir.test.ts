import { chmodSync, chownSync, existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { cacheFileName, resolveCacheDir } from "../../src/fact-cache/cache-dir.js";
import { FactStore } from "../../src/fact-cache/fact-store.js";
import { SQLITE_LAYOUT } from "../../src/fact-cache/sqlite-backend.js";

describe("resolveCacheDir", () => {
  it("prefers CODECITE_CACHE_DIR over XDG_CACHE_HOME and HOME", () => {
    expect(resolveCacheDir({ CODECITE_CACHE_DIR: "/c/dir", XDG_CACHE_HOME: "/xdg", HOME: "/home/u" })).toBe("/c/dir");
  });

  it("uses $XDG_CACHE_HOME/codecite when CODECITE_CACHE_DIR is unset or blank", () => {
    expect(resolveCacheDir({ XDG_CACHE_HOME: "/xdg", HOME: "/home/u" })).toBe("/xdg/codecite");
    expect(resolveCacheDir({ CODECITE_CACHE_DIR: "  ", XDG_CACHE_HOME: "/xdg", HOME: "/home/u" })).toBe("/xdg/codecite");
  });

  it("falls back to ~/.cache/codecite, ignoring a relative XDG_CACHE_HOME (XDG spec)", () => {
    expect(resolveCacheDir({ HOME: "/home/u" })).toBe("/home/u/.cache/codecite");
    expect(resolveCacheDir({ XDG_CACHE_HOME: "rel/cache", HOME: "/home/u" })).toBe("/home/u/.cache/codecite");
    expect(resolveCacheDir({}, "/from/os")).toBe("/from/os/.cache/codecite");
  });

  it("resolves a relative CODECITE_CACHE_DIR against the current directory", () => {
    expect(resolveCacheDir({ CODECITE_CACHE_DIR: "cache-here" })).toBe(path.join(process.cwd(), "cache-here"));
  });
});

describe("cacheFileName", () => {
  it("keys the file by a hash of the full real path, with a readable base name", () => {
    const a = cacheFileName("/srv/my repo", ".v1.sqlite");
    expect(a).toMatch(/^my_repo-[0-9a-f]{16}\.v1\.sqlite$/);
    expect(cacheFileName("/srv/my repo", ".v1.sqlite")).toBe(a);
    expect(cacheFileName("/other/my repo", ".v1.sqlite")).not.toBe(a);
  });
});

describe("FactStore location", () => {
  let tmp = "";
  afterEach(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    tmp = "";
  });

  it("puts the database in the resolved cache folder, not in the project", () => {
    tmp = mkdtempSync(path.join(tmpdir(), "codecite-cachedir-"));
    const project = path.join(tmp, "project");
    mkdirSync(project);
    const store = FactStore.open(project, { version: "v1", env: { XDG_CACHE_HOME: path.join(tmp, "xdg") } });
    expect(store.kind).toBe("sqlite");
    expect(store.file).toBe(path.join(tmp, "xdg", "codecite", cacheFileName(project, `.v${SQLITE_LAYOUT}.sqlite`)));
    store.close();
  });

  it("keeps the cache in memory when the cache folder would be inside the project", () => {
    tmp = mkdtempSync(path.join(tmpdir(), "codecite-cachedir-"));
    const project = path.join(tmp, "project");
    mkdirSync(project);
    const store = FactStore.open(project, { version: "v1", env: { CODECITE_CACHE_DIR: path.join(project, ".cache") } });
    expect(store.kind).toBe("memory");
    expect(store.reason).toContain("inside the project");
    store.putMany([{ path: "a.py", size: 1, mtimeMs: 0, hash: "h", value: 1, checkedMs: 10_000 }]);
    expect(store.get("a.py", 1, 0)?.value).toBe(1);
    store.close();
  });

  it("sees through a symlink that leads the cache folder into the project", () => {
    tmp = mkdtempSync(path.join(tmpdir(), "codecite-cachedir-"));
    const project = path.join(tmp, "project");
    mkdirSync(path.join(project, "inner"), { recursive: true });
    symlinkSync(path.join(project, "inner"), path.join(tmp, "link"));
    const store = FactStore.open(project, { version: "v1", dir: path.join(tmp, "link", "codecite") });
    expect(store.kind).toBe("memory");
    expect(store.reason).toContain("inside the project");
    store.close();
  });

  it("shares one database between two spellings of the same root", () => {
    tmp = mkdtempSync(path.join(tmpdir(), "codecite-cachedir-"));
    const project = path.join(tmp, "project");
    mkdirSync(project);
    symlinkSync(project, path.join(tmp, "alias"));
    const a = FactStore.open(project, { version: "v1", dir: path.join(tmp, "cache") });
    const b = FactStore.open(path.join(tmp, "alias"), { version: "v1", dir: path.join(tmp, "cache") });
    expect(b.file).toBe(a.file);
    a.close();
    b.close();
  });

  it("keeps the cache in memory when the cache folder is inside the git work tree holding the root", () => {
    tmp = mkdtempSync(path.join(tmpdir(), "codecite-cachedir-"));
    const project = path.join(tmp, "project");
    mkdirSync(path.join(project, ".git"), { recursive: true });
    mkdirSync(path.join(project, "src"));
    const store = FactStore.open(path.join(project, "src"), { version: "v1", dir: path.join(project, ".cache") });
    expect(store.kind).toBe("memory");
    expect(store.reason).toContain("inside the project");
    expect(existsSync(path.join(project, ".cache"))).toBe(false);
    store.close();
  });
});

describe("FactStore in a cache folder someone else could write", () => {
  let tmp = "";
  afterEach(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    tmp = "";
  });
  const Database = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  const setup = () => {
    tmp = mkdtempSync(path.join(tmpdir(), "codecite-cachedir-"));
    const project = path.join(tmp, "project");
    mkdirSync(project);
    const dir = path.join(tmp, "cache");
    mkdirSync(dir, { mode: 0o700 });
    return { project, dir, file: path.join(dir, cacheFileName(project, `.v${SQLITE_LAYOUT}.sqlite`)) };
  };

  it("never opens a database file or a file beside it that is a symbolic link: another database it leads to is left as it was", () => {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) {
      const { project, dir, file } = setup();
      // Another database of the user's, with a table named as the cache's.
      const other = path.join(tmp, "other.db");
      const db = new Database(other);
      db.exec("CREATE TABLE meta (k TEXT, v TEXT); INSERT INTO meta VALUES ('mine', 'kept');");
      db.close();
      symlinkSync(other, file + suffix);
      const store = FactStore.open(project, { version: "v1", dir });
      store.putMany([{ path: "a.py", size: 1, mtimeMs: 0, hash: "h", value: 1, checkedMs: 10_000 }]);
      store.close();
      expect({ suffix, kind: store.kind, reason: store.reason }).toEqual({ suffix, kind: "memory", reason: `cache file ${file + suffix} is not a regular file of this user's with one link that only they can write; cache kept in memory` });
      const after = new Database(other, { readonly: true });
      expect(after.prepare("SELECT name FROM sqlite_master ORDER BY name").pluck().all()).toEqual(["meta"]);
      expect(after.prepare("SELECT v FROM meta").pluck().all()).toEqual(["kept"]);
      expect(after.pragma("journal_mode", { simple: true })).toBe("delete");
      after.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("never uses a database file with a second hard link, or one others can write", () => {
    const { project, dir, file } = setup();
    FactStore.open(project, { version: "v1", dir }).close();
    linkSync(file, path.join(tmp, "second-name"));
    const linked = FactStore.open(project, { version: "v1", dir });
    expect(linked.kind).toBe("memory");
    linked.close();
    rmSync(path.join(tmp, "second-name"));
    chmodSync(file, 0o666);
    const open = FactStore.open(project, { version: "v1", dir });
    expect(open.kind).toBe("memory");
    open.close();
    chmodSync(file, 0o600);
    const fine = FactStore.open(project, { version: "v1", dir });
    expect(fine.kind).toBe("sqlite");
    fine.close();
  });

  it("never uses a cache folder that group or others can write", () => {
    const { project, dir } = setup();
    chmodSync(dir, 0o777);
    const store = FactStore.open(project, { version: "v1", dir });
    expect(store.kind).toBe("memory");
    expect(store.reason).toBe(`cache folder ${dir} is not a folder of this user's that only they can write; cache kept in memory`);
    expect(existsSync(store.file ?? path.join(dir, "none"))).toBe(false);
    store.close();
  });

  it.skipIf(process.getuid?.() !== 0)("never uses a cache folder or a database file owned by another user (runs as root)", () => {
    const { project, dir, file } = setup();
    FactStore.open(project, { version: "v1", dir }).close();
    chownSync(file, 4242, 4242);
    const theirs = FactStore.open(project, { version: "v1", dir });
    expect(theirs.kind).toBe("memory");
    theirs.close();
    chownSync(file, 0, 0);
    chownSync(dir, 4242, 4242);
    const folder = FactStore.open(project, { version: "v1", dir });
    expect(folder.kind).toBe("memory");
    folder.close();
  });
});
