import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FactStore } from "../../src/fact-cache/fact-store.js";
import { contentHash } from "../../src/fact-cache/content-hash.js";

let tmp = "";
let root = "";
let dir = "";
const OLD = 1_600_000_000_000; // an mtime long before any check time
const LATER = OLD + 60_000;

beforeEach(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-store-"));
  root = path.join(tmp, "project");
  dir = path.join(tmp, "cache");
  mkdirSync(root);
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const facts = (name: string) => ({ symbols: [{ name, kind: "function", start_line: 1, end_line: 2 }], imports: [] });

describe("content hash", () => {
  it("is the Git blob id", () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(contentHash("hello\n")).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
    expect(contentHash(Buffer.from("hello\n"))).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
    expect(contentHash("")).toBe("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  });
});

describe("FactStore", () => {
  it("hits on the same size and mtime, misses on any change, and persists across opens", () => {
    const s1 = FactStore.open(root, { version: "v1", dir });
    expect(s1.kind).toBe("sqlite");
    expect(s1.reason).toBeUndefined();
    s1.putMany([{ path: "pkg/a.py", size: 10, mtimeMs: OLD, hash: "h1", value: facts("f"), checkedMs: LATER }]);
    expect(s1.get("pkg/a.py", 10, OLD)?.value).toEqual(facts("f"));
    expect(s1.get("pkg/a.py", 11, OLD)).toBeUndefined();
    expect(s1.get("pkg/a.py", 10, OLD + 1)).toBeUndefined();
    expect(s1.get("pkg/b.py", 10, OLD)).toBeUndefined();
    s1.close();

    const s2 = FactStore.open(root, { version: "v1", dir });
    expect(s2.file).toBe(s1.file);
    expect(s2.get("pkg/a.py", 10, OLD)).toEqual({
      path: "pkg/a.py",
      size: 10,
      mtimeMs: OLD,
      ctimeMs: 0,
      ino: 0,
      hash: "h1",
      checkedMs: LATER,
      value: facts("f"),
    });
    s2.close();
  });

  // The cache folder only has to be unwritable by others (`cache-dir.ts`); one others can read
  // (an existing ~/.cache of mode 0755, a CODECITE_CACHE_DIR the user made) must not show them the
  // facts of the user's repositories: SQLite creates its files 0644 less the umask.
  it.skipIf(process.platform === "win32")("the database and the files SQLite keeps beside it are the user's alone, in a cache folder others can read, and an older readable database is made so", () => {
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const s = FactStore.open(root, { version: "v1", dir });
    expect(s.kind).toBe("sqlite");
    s.putMany([{ path: "secret_plan.py", size: 10, mtimeMs: OLD, hash: "h1", value: facts("launch_codes"), checkedMs: LATER }]);
    const file = s.file!;
    const modes = () => ["", "-wal", "-shm"].filter((x) => existsSync(file + x)).map((x) => [x, (statSync(file + x).mode & 0o777).toString(8)]);
    expect(modes()).toEqual([["", "600"], ["-wal", "600"], ["-shm", "600"]]);
    s.close();
    // A database an older version left readable by others.
    chmodSync(file, 0o644);
    const again = FactStore.open(root, { version: "v1", dir });
    expect(again.get("secret_plan.py", 10, OLD)?.value).toEqual(facts("launch_codes"));
    expect((statSync(file).mode & 0o777).toString(8)).toBe("600");
    again.close();
  });

  it("treats an entry read within the racy window of its mtime as a stat miss but a hash hit", () => {
    const s = FactStore.open(root, { version: "v1", dir });
    s.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: 1, checkedMs: OLD + 500 }]);
    expect(s.get("a.py", 3, OLD)).toBeUndefined();
    expect(s.getByHash("a.py", "h")?.value).toBe(1);
    s.refreshMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", checkedMs: OLD + 5000 }]);
    expect(s.get("a.py", 3, OLD)?.value).toBe(1);
    s.close();
  });

  it("finds unchanged content by hash after an mtime-only change and refreshes the stat", () => {
    const s = FactStore.open(root, { version: "v1", dir });
    s.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: "A", checkedMs: LATER }]);
    expect(s.get("a.py", 3, OLD + 1000)).toBeUndefined();
    expect(s.getByHash("a.py", "other")).toBeUndefined();
    expect(s.getByHash("a.py", "h")?.value).toBe("A");
    // a refresh whose hash no longer matches changes nothing
    s.refreshMany([{ path: "a.py", size: 3, mtimeMs: OLD + 1000, hash: "stale", checkedMs: LATER + 1000 }]);
    expect(s.get("a.py", 3, OLD + 1000)).toBeUndefined();
    s.refreshMany([{ path: "a.py", size: 3, mtimeMs: OLD + 1000, hash: "h", checkedMs: LATER + 1000 }]);
    expect(s.get("a.py", 3, OLD + 1000)?.value).toBe("A");
    expect(s.get("a.py", 3, OLD)).toBeUndefined();
    s.close();
  });

  it("ignores entries written by another version", () => {
    const old = FactStore.open(root, { version: "codecite 0.1.0/facts 1", dir });
    old.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: "old", checkedMs: LATER }]);
    old.close();
    const next = FactStore.open(root, { version: "codecite 0.2.0/facts 2", dir });
    expect(next.file).toBe(old.file);
    expect(next.get("a.py", 3, OLD)).toBeUndefined();
    expect(next.getByHash("a.py", "h")).toBeUndefined();
    expect(next.entries()).toEqual([]);
    next.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: "new", checkedMs: LATER }]);
    expect(next.get("a.py", 3, OLD)?.value).toBe("new");
    next.close();
  });

  it("hasFacts: only facts of its own version count, on disk and in memory", () => {
    const old = FactStore.open(root, { version: "v1", dir });
    expect(old.hasFacts()).toBe(false);
    old.putMeta("tree", "{}"); // the side table holds no facts
    expect(old.hasFacts()).toBe(false);
    old.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: "old", checkedMs: LATER }]);
    expect(old.hasFacts()).toBe(true);
    old.close();
    const next = FactStore.open(root, { version: "v2", dir });
    expect(next.kind).toBe("sqlite");
    expect(next.hasFacts()).toBe(false);
    next.putMany([{ path: "b.py", size: 3, mtimeMs: OLD, hash: "h2", value: "new", checkedMs: LATER }]);
    expect(next.hasFacts()).toBe(true);
    next.close();
    const blocker = path.join(tmp, "not-a-dir");
    writeFileSync(blocker, "x");
    const mem = FactStore.open(root, { version: "v1", dir: path.join(blocker, "cache") });
    expect(mem.kind).toBe("memory");
    expect(mem.hasFacts()).toBe(false);
    mem.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: "A", checkedMs: LATER }]);
    expect(mem.hasFacts()).toBe(true);
    mem.close();
  });

  it("prunes entries of deleted files and lists them", () => {
    const s = FactStore.open(root, { version: "v1", dir });
    s.putMany(
      ["a.py", "b.py", "c/d.py"].map((p) => ({ path: p, size: 1, mtimeMs: OLD, hash: p, value: p, checkedMs: LATER })),
    );
    expect(s.prune(["b.py"])).toEqual(["a.py", "c/d.py"]);
    expect(s.entries().map((e) => e.path)).toEqual(["b.py"]);
    expect(s.prune(["b.py"])).toEqual([]);
    s.close();
  });

  it("discards a database file full of garbage and rebuilds it", () => {
    const s1 = FactStore.open(root, { version: "v1", dir });
    s1.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: "A", checkedMs: LATER }]);
    const file = s1.file as string;
    s1.close();
    for (const f of [`${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    writeFileSync(file, Buffer.alloc(64 * 1024, "garbage! "));

    const s2 = FactStore.open(root, { version: "v1", dir });
    expect(s2.kind).toBe("sqlite");
    expect(s2.reason).toMatch(/^corrupt cache .* discarded and rebuilt/);
    expect(s2.get("a.py", 3, OLD)).toBeUndefined();
    s2.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: "B", checkedMs: LATER }]);
    s2.close();
    expect(readFileSync(file).subarray(0, 15).toString()).toBe("SQLite format 3");
    const s3 = FactStore.open(root, { version: "v1", dir });
    expect(s3.reason).toBeUndefined();
    expect(s3.get("a.py", 3, OLD)?.value).toBe("B");
    s3.close();
  });

  it("recovers when the file is overwritten with garbage while the store is open", () => {
    const s = FactStore.open(root, { version: "v1", dir });
    s.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: "A", checkedMs: LATER }]);
    const file = s.file as string;
    // checkpoint so the row lives in the main file, then trash the main file and the WAL
    s.close();
    const s2 = FactStore.open(root, { version: "v1", dir });
    writeFileSync(file, Buffer.alloc(256 * 1024, 0xab));
    writeFileSync(`${file}-wal`, Buffer.alloc(4096, 0xcd));
    expect(s2.get("a.py", 3, OLD)).toBeUndefined();
    s2.putMany([{ path: "b.py", size: 1, mtimeMs: OLD, hash: "hb", value: "B", checkedMs: LATER }]);
    expect(s2.kind).toBe("sqlite");
    expect(s2.reason).toMatch(/corrupt cache .* discarded and rebuilt/);
    expect(s2.get("b.py", 1, OLD)?.value).toBe("B");
    s2.close();
  });

  it("falls back to memory without an error when the cache folder cannot be created", () => {
    const blocker = path.join(tmp, "not-a-dir");
    writeFileSync(blocker, "x");
    const s = FactStore.open(root, { version: "v1", dir: path.join(blocker, "cache") });
    expect(s.kind).toBe("memory");
    expect(s.file).toBeUndefined();
    expect(s.reason).toMatch(/cache folder .* is not usable/);
    s.putMany([{ path: "a.py", size: 3, mtimeMs: OLD, hash: "h", value: "A", checkedMs: LATER }]);
    expect(s.get("a.py", 3, OLD)?.value).toBe("A");
    expect(s.getByHash("a.py", "h")?.value).toBe("A");
    s.close();
  });

  it.skipIf(process.getuid?.() === 0)("falls back to memory when the cache folder is read-only", async () => {
    const { chmodSync } = await import("node:fs");
    mkdirSync(dir);
    chmodSync(dir, 0o500);
    const s = FactStore.open(root, { version: "v1", dir });
    expect(s.kind).toBe("memory");
    s.close();
    chmodSync(dir, 0o700);
  });

  it("falls back to memory when the database path is a folder", () => {
    const probe = FactStore.open(root, { version: "v1", dir });
    const file = probe.file as string;
    probe.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    mkdirSync(file);
    const s = FactStore.open(root, { version: "v1", dir });
    expect(s.kind).toBe("memory");
    expect(s.reason).toMatch(/is not a regular file/);
    expect(existsSync(file)).toBe(true);
    s.close();
  });

  it("stores a batch atomically and returns bulk entries of its own version", () => {
    const s = FactStore.open(root, { version: "v1", dir });
    const batch = Array.from({ length: 300 }, (_, i) => ({
      path: `m${String(i).padStart(3, "0")}.py`,
      size: i,
      mtimeMs: OLD,
      hash: `h${i}`,
      value: facts(`f${i}`),
      checkedMs: LATER,
    }));
    s.putMany(batch);
    const all = s.entries<ReturnType<typeof facts>>();
    expect(all).toHaveLength(300);
    expect(all.find((e) => e.path === "m123.py")?.value.symbols[0]?.name).toBe("f123");
    s.close();
  });
});
