/**
 * The persistent per-file fact cache: for each repository-relative path it keeps
 * `(size, mtimeMs, content hash, version)`, an opaque JSON value (for codecite, a file's
 * symbols and imports) and optionally a second JSON value computed from the same content, the
 * detail (for codecite, the file's references), which only the readers that ask for it read. One
 * SQLite database per root, in the user's cache folder (`cache-dir.ts`), never inside the project.
 *
 * Validity rules, in the order a caller applies them:
 * 1. **Stat hit** ({@link FactStore.get}): same version, same size, mtime, inode change time
 *    and inode number (the fields Git's index compares, Documentation/technical/index-format.txt:
 *    a different checkout or copy at the same path has new ctimes and inodes even when it kept
 *    size and mtime, e.g. `cp -p`, `rsync -a`, `tar x`), and the entry is not "racy". An entry is racy while its content was read less than
 *    `racyWindowMs` after the file's mtime: a second edit inside the file system's timestamp
 *    granularity (up to 2 s on FAT, a clock tick on Linux) could leave size and mtime unchanged,
 *    so such an entry must be confirmed by hash. This is Git's "racy git" rule
 *    (Documentation/technical/racy-git.txt).
 * 2. **Hash hit** ({@link FactStore.getByHash}): same version and same content hash whatever
 *    the stat says (mtime touched by `git checkout` or `touch`); the caller then calls
 *    {@link FactStore.refreshMany} so the next lookup is a stat hit again.
 * 3. Otherwise the caller re-computes the value and stores it with {@link FactStore.putMany}.
 *
 * The database also records the identity of the root folder (device, inode and birth time): a
 * root replaced by another folder at the same path (a new clone, an unpacked archive) starts from
 * an empty cache.
 *
 * The store never throws because of the cache itself: a corrupt database file is deleted and
 * rebuilt empty; an unwritable or unusable cache folder, one inside the project (the root or
 * the git work tree holding it), or one where another user could have planted the database file
 * or a link in its place (`cache-dir.ts` `cacheFolderProblem`), gives an in-memory store (`kind === "memory"`, with `reason` saying why); a database busy beyond the
 * busy timeout turns reads into misses and drops the write (it is only a cache).
 */
import { chmodSync, closeSync, constants as fsc, mkdirSync, openSync, realpathSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { gitWorkTreeTop, isInside } from "../paths.js";
import { cacheFileName, cacheFolderProblem, RACY_WINDOW_MS, realpathNearest, resolveCacheDir, type CacheDirEnv } from "./cache-dir.js";
import type { FactBackend, FactRow, FileState, RowRefresh } from "./fact-backend.js";
import { MemoryBackend } from "./memory-backend.js";
import { SQLITE_LAYOUT, SqliteBackend } from "./sqlite-backend.js";


export interface FactStoreOptions {
  /**
   * Version of whatever computes the values (codecite version + extractor/schema version).
   * Entries written under another version are misses, so a new release never reads old facts.
   */
  version: string;
  /** Cache folder; default {@link resolveCacheDir} of `env`. */
  dir?: string;
  /** Environment for {@link resolveCacheDir}; default `process.env`. */
  env?: CacheDirEnv;
  /** Use the in-memory backend only (tests, `--no-cache`). */
  inMemory?: boolean;
  /** See the module comment; default {@link RACY_WINDOW_MS}. */
  racyWindowMs?: number;
  /** How long a write waits for another process's lock, in ms (default 5000). */
  busyTimeoutMs?: number;
}

/**
 * The identity of a file beyond size and mtime (`fs.Stats` fields); both default to 0, so callers
 * that never give them compare equal among themselves.
 */
export interface FileIdentity {
  /** Inode change time in ms since the epoch (`fs.Stats.ctimeMs`). */
  ctimeMs?: number;
  /** Inode number (`fs.Stats.ino`). */
  ino?: number;
}

/**
 * A cached value with the file state it was computed from, and its detail tier when that was
 * asked for and is stored (`undefined` otherwise; see {@link FactStore.get}).
 */
export interface StoredFact<T = unknown> extends FileState {
  path: string;
  value: T;
  detail?: unknown;
}

/**
 * A value to store. `checkedMs` defaults to now; pass the time taken just before reading the file.
 * `detail` is the optional second tier computed from the same content (absent: not computed; a
 * stored detail of the same content is then kept).
 */
export interface FactEntry<T = unknown> extends StatRefresh {
  value: T;
  detail?: unknown;
}

/** New stat for an entry whose content hash is unchanged. `checkedMs` defaults to now. */
export interface StatRefresh extends FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
  checkedMs?: number;
}

/**
 * The stat-hit rule shared by the store and in-memory layers: same size, mtime, ctime and inode
 * ({@link FileIdentity}; absent fields count as 0), and the content was read at least
 * `racyWindowMs` after the mtime (not racy; see the module comment).
 */
export function isStatHit(
  entry: { size: number; mtimeMs: number; checkedMs: number; ctimeMs?: number; ino?: number },
  size: number,
  mtimeMs: number,
  racyWindowMs: number,
  id: FileIdentity = {},
): boolean {
  return (
    entry.size === size &&
    entry.mtimeMs === mtimeMs &&
    (entry.ctimeMs ?? 0) === (id.ctimeMs ?? 0) &&
    (entry.ino ?? 0) === (id.ino ?? 0) &&
    entry.checkedMs - entry.mtimeMs >= racyWindowMs
  );
}

/** `dev:ino:birthtime` of a folder, or undefined when it cannot be read. */
function folderIdentity(dir: string): string | undefined {
  try {
    const st = statSync(dir);
    return `${st.dev}:${st.ino}:${st.birthtimeMs}`;
  } catch {
    return undefined;
  }
}

/** Side-table key of the root's identity (see the module comment). */
const ROOT_ID_KEY = "root_id";

type Failure = "corrupt" | "busy" | "fatal";

/** Classifies a driver error by its SQLite result code (https://sqlite.org/rescode.html). */
function classify(err: unknown): Failure {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") {
    if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) return "corrupt";
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
  }
  return "fatal";
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The database file and the files SQLite keeps beside it (https://sqlite.org/tempfiles.html). */
const DB_SUFFIXES = ["", "-wal", "-shm", "-journal"];

function removeDbFiles(file: string): void {
  for (const s of DB_SUFFIXES) rmSync(file + s, { force: true });
}

/**
 * Makes the database's files readable by the user only: the cache folder need only be unwritable
 * by others (`cache-dir.ts`), so one that others may read (an existing `~/.cache` of mode 0755, a
 * `CODECITE_CACHE_DIR` the user made) would show them the paths and definitions of the user's
 * repositories, since SQLite creates its files 0644 less the umask. A missing database is created
 * empty with mode 0600 first (an empty file is an empty database), and SQLite gives the `-wal`,
 * `-shm` and `-journal` files it creates the database file's mode (`findCreateFileMode` in
 * SQLite's `os_unix.c`); files an older version left readable lose the bits of group and others.
 * Only called after {@link cacheFolderProblem} found the folder and its files the user's own.
 */
function keepDbFilesPrivate(file: string): void {
  for (const s of DB_SUFFIXES) {
    try {
      const mode = statSync(file + s).mode & 0o777;
      if ((mode & 0o077) !== 0) chmodSync(file + s, mode & 0o700);
    } catch {
      // Absent (or gone meanwhile): nothing to tighten.
    }
  }
  try {
    closeSync(openSync(file, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | (fsc.O_NOFOLLOW ?? 0), 0o600));
  } catch {
    // It exists (another process made it meanwhile); SQLite reports any other problem itself.
  }
}

export class FactStore {
  /** The root this store caches, as a real path. */
  readonly root: string;
  readonly version: string;
  readonly #racyWindowMs: number;
  #backend: FactBackend;
  #reason: string | undefined;
  #dropped = 0;
  readonly #busyTimeoutMs: number;

  private constructor(root: string, opts: FactStoreOptions, backend: FactBackend, reason: string | undefined) {
    this.root = root;
    this.version = opts.version;
    this.#racyWindowMs = opts.racyWindowMs ?? RACY_WINDOW_MS;
    this.#busyTimeoutMs = opts.busyTimeoutMs ?? 5000;
    this.#backend = backend;
    this.#reason = reason;
  }

  /**
   * Opens the cache of one root. Never throws for cache problems (see the module comment).
   *
   * @param rootRealPath - the project root; it is passed through `fs.realpath` (when it exists)
   *   so every spelling of one folder keys the same database.
   */
  static open(rootRealPath: string, opts: FactStoreOptions): FactStore {
    let root = path.resolve(rootRealPath);
    try {
      root = realpathSync(root);
    } catch {
      // a root that does not exist still gets a (useless but harmless) store
    }
    if (opts.inMemory) return new FactStore(root, opts, new MemoryBackend(), "in-memory store requested");
    const dir = opts.dir !== undefined ? path.resolve(opts.dir) : resolveCacheDir(opts.env ?? process.env);
    const realDir = realpathNearest(dir);
    const top = gitWorkTreeTop(root);
    if (isInside(realDir, root) || (top !== undefined && isInside(realDir, top))) {
      return new FactStore(root, opts, new MemoryBackend(), `cache folder ${dir} is inside the project; cache kept in memory`);
    }
    const name = cacheFileName(root, `.v${SQLITE_LAYOUT}.sqlite`);
    const file = path.join(dir, name);
    const store = new FactStore(root, opts, new MemoryBackend(), undefined);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      store.#reason = `cache folder ${dir} is not usable (${describe(err)}); cache kept in memory`;
      return store;
    }
    const problem = cacheFolderProblem(dir, DB_SUFFIXES.map((s) => name + s));
    if (problem !== undefined) {
      store.#reason = `${problem}; cache kept in memory`;
      return store;
    }
    store.#openSqlite(file);
    store.#checkRootIdentity();
    return store;
  }

  /** Empties the cache when the root folder is not the one the cache was written for. */
  #checkRootIdentity(): void {
    const id = folderIdentity(this.root);
    if (id === undefined) return;
    let stored: string | undefined;
    this.#guard(() => {
      stored = this.#backend.getMeta(ROOT_ID_KEY);
    });
    if (stored === id) return;
    this.#write((b) => {
      if (stored !== undefined) b.clear();
      b.putMeta(ROOT_ID_KEY, id);
    });
  }

  /** Whether the store holds facts of its version (false also when the database cannot be read). */
  hasFacts(): boolean {
    let found = false;
    this.#guard(() => {
      found = this.#backend.hasVersion(this.version);
    });
    return found;
  }

  /** A value of the store's side table (e.g. a tree snapshot kept by a caller); undefined when absent or unreadable. */
  getMeta(key: string): string | undefined {
    let value: string | undefined;
    this.#guard(() => {
      value = this.#backend.getMeta(key);
    });
    return value;
  }

  /** Sets (`undefined`: deletes) a value of the side table; dropped when the database stays busy. */
  putMeta(key: string, value: string | undefined): void {
    this.#write((b) => b.putMeta(key, value));
  }

  /** `sqlite` when facts persist on disk, `memory` otherwise (see {@link reason}). */
  get kind(): "sqlite" | "memory" {
    return this.#backend.kind;
  }

  /** The database file while {@link kind} is `sqlite`. */
  get file(): string | undefined {
    return this.#backend.file;
  }

  /** Why the store is in memory, or what was recovered (e.g. a corrupt file discarded); undefined when all is well. */
  get reason(): string | undefined {
    return this.#reason;
  }

  /** The racy window in ms this store applies. */
  get racyWindowMs(): number {
    return this.#racyWindowMs;
  }

  /** Number of writes dropped because the database stayed busy beyond the busy timeout. */
  get droppedWrites(): number {
    return this.#dropped;
  }

  /**
   * Stat lookup: the entry when version, size, mtime and identity match and the entry is not racy.
   * @param size - bytes; @param mtimeMs - ms since the epoch, compared exactly; @param id - ctime and inode.
   * @param withDetail - also read the stored detail tier (`detail` stays `undefined` when it was not computed).
   */
  get<T = unknown>(path: string, size: number, mtimeMs: number, id: FileIdentity = {}, withDetail = false): StoredFact<T> | undefined {
    const row = this.#read(path, withDetail);
    if (!row || !isStatHit(row, size, mtimeMs, this.#racyWindowMs, id)) return undefined;
    return decode<T>(row);
  }

  /** Content lookup: the entry when version and content hash match, whatever its stat (`withDetail` as for {@link get}). */
  getByHash<T = unknown>(path: string, hash: string, withDetail = false): StoredFact<T> | undefined {
    const row = this.#read(path, withDetail);
    if (!row || row.hash !== hash) return undefined;
    return decode<T>(row);
  }

  /**
   * Stores values in one transaction (another process sees all of them or none).
   * Values must be JSON-serializable; a value `JSON.stringify` rejects throws (a caller bug).
   */
  putMany<T>(entries: readonly FactEntry<T>[]): void {
    const now = Date.now();
    const rows: FactRow[] = entries.map((e) => ({
      ...this.#row(e, now),
      value: JSON.stringify(e.value),
      detail: e.detail === undefined ? null : JSON.stringify(e.detail),
    }));
    this.#write((b) => b.putMany(rows));
  }

  /** Moves the stat of entries whose content hash (and version) still match; others are untouched. */
  refreshMany(entries: readonly StatRefresh[]): void {
    const now = Date.now();
    const rows = entries.map((e) => this.#row(e, now));
    this.#write((b) => b.refreshMany(rows));
  }

  /** The stored row of an entry, without its value: absent identity fields are 0, the check time defaults to `now`. */
  #row(e: StatRefresh, now: number): RowRefresh {
    return {
      path: e.path,
      size: e.size,
      mtimeMs: e.mtimeMs,
      ctimeMs: e.ctimeMs ?? 0,
      ino: e.ino ?? 0,
      hash: e.hash,
      checkedMs: e.checkedMs ?? now,
      version: this.version,
    };
  }

  /**
   * Deletes the entries of files that no longer exist.
   * @param existingPaths - every path that exists now; entries of other paths are removed.
   * @returns the removed paths, sorted.
   */
  prune(existingPaths: Iterable<string>): string[] {
    const keep = new Set(existingPaths);
    let stored: string[] = [];
    this.#guard(() => {
      stored = this.#backend.paths();
    });
    const gone = stored.filter((p) => !keep.has(p)).sort();
    this.#write((b) => b.deleteMany(gone));
    return gone;
  }

  /**
   * Every entry of the current version, decoded (bulk load; one query instead of one per file).
   * Entries whose JSON does not parse are left out.
   */
  entries<T = unknown>(): StoredFact<T>[] {
    let rows: FactRow[] = [];
    this.#guard(() => {
      rows = this.#backend.all();
    });
    const out: StoredFact<T>[] = [];
    for (const row of rows) {
      if (row.version !== this.version) continue;
      const fact = decode<T>(row);
      if (fact) out.push(fact);
    }
    return out;
  }

  /** Closes the database. The store must not be used afterwards. */
  close(): void {
    try {
      this.#backend.close();
    } catch {
      // closing a broken database cannot be helped
    }
  }

  #openSqlite(file: string): void {
    const open = () => {
      keepDbFilesPrivate(file);
      return new SqliteBackend(file, { busyTimeoutMs: this.#busyTimeoutMs, rootRealPath: this.root });
    };
    let failure: unknown;
    try {
      this.#backend = open();
      return;
    } catch (err) {
      failure = err;
    }
    if (classify(failure) === "corrupt") {
      try {
        removeDbFiles(file);
        this.#backend = open();
        this.#reason = `corrupt cache ${file} discarded and rebuilt (${describe(failure)})`;
        return;
      } catch (err) {
        failure = err;
      }
    }
    this.#backend = new MemoryBackend();
    this.#reason = `cache ${file} cannot be opened (${describe(failure)}); cache kept in memory`;
  }

  #read(path: string, withDetail: boolean): FactRow | undefined {
    let row: FactRow | undefined;
    this.#guard(() => {
      row = this.#backend.get(path, withDetail);
    });
    return row && row.version === this.version ? row : undefined;
  }

  #write(op: (b: FactBackend) => void): void {
    if (!this.#guard(() => op(this.#backend), true)) this.#dropped++;
  }

  /**
   * Runs `op`; on a corrupt database discards it, reopens an empty one and (for writes) retries
   * once; on any other non-busy failure switches to memory. Returns whether `op` completed.
   */
  #guard(op: () => void, retry = false): boolean {
    try {
      op();
      return true;
    } catch (err) {
      if (this.#backend.kind !== "sqlite") throw err;
      const kind = classify(err);
      if (kind === "busy") return false;
      const file = this.#backend.file ?? "";
      this.close();
      if (kind === "corrupt") {
        removeDbFiles(file);
        this.#openSqlite(file);
        this.#reason ??= `corrupt cache ${file} discarded and rebuilt (${describe(err)})`;
        if (!retry) return false;
        try {
          op();
          return true;
        } catch {
          return false;
        }
      }
      this.#backend = new MemoryBackend();
      this.#reason = `cache ${file} failed (${describe(err)}); cache kept in memory`;
      if (!retry) return false;
      op();
      return true;
    }
  }
}

function decode<T>(row: FactRow): StoredFact<T> | undefined {
  let value: T;
  let detail: unknown;
  try {
    value = JSON.parse(row.value) as T;
    if (row.detail !== null) detail = JSON.parse(row.detail) as unknown;
  } catch {
    return undefined;
  }
  const fact: StoredFact<T> = { path: row.path, size: row.size, mtimeMs: row.mtimeMs, ctimeMs: row.ctimeMs, ino: row.ino, hash: row.hash, checkedMs: row.checkedMs, value };
  if (detail !== undefined) fact.detail = detail;
  return fact;
}
