import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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
});
