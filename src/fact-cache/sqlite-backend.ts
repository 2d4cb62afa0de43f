/**
 * SQLite fact backend (better-sqlite3 12.11.x, loaded on first use so that commands which never
 * touch the cache do not pay for the native module).
 *
 * Sharing between processes follows SQLite's own rules (https://sqlite.org/wal.html): the
 * database runs in WAL mode, so readers never block the writer and one writer at a time
 * commits; `busy_timeout` makes a second writer wait for the lock instead of failing at
 * once. Every write is one transaction, so a reader sees either all of another process's
 * `putMany` or none of it. `synchronous=NORMAL` is the WAL setting SQLite documents as
 * consistent after a crash (the last commits may be lost on power failure, which is fine for
 * a cache).
 *
 * The table layout is versioned with `PRAGMA user_version` ({@link SQLITE_LAYOUT}); the file
 * name carries the same number, so two codecite builds with different layouts never share
 * one file.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import type { FactBackend, FactRow, RowRefresh } from "./fact-backend.js";
import { bundledDriver } from "./sqlite-driver.js";

/** Layout version of the tables below; bump when they change (3: the `detail` column). */
export const SQLITE_LAYOUT = 3;

type Db = BetterSqlite3.Database;
type DbConstructor = typeof BetterSqlite3;

let ctor: DbConstructor | undefined;
/** The native addon's file, when found where node-gyp builds it (see {@link loadDriver}); else the driver finds it. */
let addon: string | undefined;

/**
 * Loads better-sqlite3 once. Throws when the native module cannot be loaded.
 *
 * The driver finds its addon with the `bindings` package, which walks the call stack for the
 * package's folder and then `require`s candidate paths in turn (`build/`, `build/Debug/`,
 * `build/Release/` …), each miss a module-resolution failure. When neither of the first two exists
 * and `build/Release/better_sqlite3.node` does — the one that `bindings` would load — the driver
 * is given that file with its `nativeBinding` option
 * (https://github.com/WiseLibs/better-sqlite3/blob/master/docs/api.md#new-databasepath-options).
 * With that file known, a query bundle's own copy of the driver's JavaScript serves
 * (`sqlite-driver.ts`) when it was taken from the same package version as the installed one
 * (the addon and its JavaScript come from one package); otherwise the installed copy is loaded.
 */
function loadDriver(): DbConstructor {
  if (ctor === undefined) {
    const req = createRequire(import.meta.url);
    let manifest: string | undefined;
    try {
      manifest = req.resolve("better-sqlite3/package.json");
      const build = path.join(path.dirname(manifest), "build");
      const release = path.join(build, "Release", "better_sqlite3.node");
      const earlier = [path.join(build, "better_sqlite3.node"), path.join(build, "Debug", "better_sqlite3.node")];
      if (!earlier.some((f) => existsSync(f)) && existsSync(release)) addon = release;
    } catch {
      addon = undefined; // the driver's own search decides
    }
    const bundled = addon === undefined ? undefined : bundledDriver();
    ctor = bundled !== undefined && bundled.version === installedVersion(manifest) ? bundled.Database : (req("better-sqlite3") as DbConstructor);
  }
  return ctor;
}

/** `version` of the package.json at `file`, or undefined when it cannot be read. */
function installedVersion(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    const version: unknown = (JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

interface RawRow {
  path: string;
  size: number;
  mtime_ms: number;
  ctime_ms: number;
  ino: number;
  hash: string;
  checked_ms: number;
  version: string;
  value: string;
  detail: string | null;
}

/** A row's fields as the named parameters of the statements (column names). */
const columns = (r: RowRefresh) => ({
  path: r.path,
  size: r.size,
  mtime_ms: r.mtimeMs,
  ctime_ms: r.ctimeMs,
  ino: r.ino,
  hash: r.hash,
  checked_ms: r.checkedMs,
  version: r.version,
});

const toRow = (r: RawRow): FactRow => ({
  path: r.path,
  size: r.size,
  mtimeMs: r.mtime_ms,
  ctimeMs: r.ctime_ms,
  ino: r.ino,
  hash: r.hash,
  checkedMs: r.checked_ms,
  version: r.version,
  value: r.value,
  detail: r.detail ?? null,
});

export interface SqliteBackendOptions {
  /** How long a writer waits for another process's lock before giving up, in ms (default 5000). */
  busyTimeoutMs?: number;
  /** Stored in the `meta` table for humans inspecting the folder. */
  rootRealPath?: string;
}

/**
 * Opens (creating if needed) the database file. Throws the driver's error when the file is
 * not a database, is corrupt, or cannot be opened; {@link FactStore} decides what to do.
 */
export class SqliteBackend implements FactBackend {
  readonly kind = "sqlite" as const;
  readonly file: string;
  readonly #db: Db;
  readonly #get: BetterSqlite3.Statement<[string], RawRow>;
  readonly #getBase: BetterSqlite3.Statement<[string], RawRow>;
  readonly #all: BetterSqlite3.Statement<[], RawRow>;
  readonly #paths: BetterSqlite3.Statement<[], string>;
  #hasVersion: BetterSqlite3.Statement<[string], number> | undefined;
  readonly #put: BetterSqlite3.Statement<[RawRow]>;
  readonly #refresh: BetterSqlite3.Statement<[Omit<RawRow, "value" | "detail">]>;
  readonly #delete: BetterSqlite3.Statement<[string]>;
  readonly #getMeta: BetterSqlite3.Statement<[string], string>;
  readonly #putMeta: BetterSqlite3.Statement<[string, string]>;
  readonly #deleteMeta: BetterSqlite3.Statement<[string]>;
  readonly #clear: BetterSqlite3.Statement<[]>;
  readonly #putTx: (rows: readonly FactRow[]) => void;
  readonly #refreshTx: (rows: readonly RowRefresh[]) => void;
  readonly #deleteTx: (paths: readonly string[]) => void;

  constructor(file: string, opts: SqliteBackendOptions = {}) {
    const Database = loadDriver();
    this.file = file;
    const db = new Database(file, { timeout: opts.busyTimeoutMs ?? 5000, ...(addon !== undefined ? { nativeBinding: addon } : {}) });
    try {
      // journal_mode=WAL is persistent in the file; setting it again is a no-op. On a new file it is
      // a write (the header, through a rollback journal), as is the layout below: both run with
      // synchronous=OFF, which makes SQLite skip its fsync calls (six of them when a first query
      // creates the file: journal, folder, database, WAL), https://sqlite.org/pragma.html#pragma_synchronous.
      // A crash meanwhile can leave a damaged file, which FactStore discards and rebuilds like any
      // corrupt cache; the facts are written with synchronous=NORMAL.
      db.pragma("synchronous = OFF");
      // While another process turns a new file into WAL mode or recovers its WAL, SQLite answers
      // SQLITE_BUSY here without calling the busy handler (https://sqlite.org/wal.html, "Sometimes
      // Queries Return SQLITE_BUSY In WAL Mode"), so the busy timeout is honoured by retrying.
      busyRetry(() => db.pragma("journal_mode = WAL"), opts.busyTimeoutMs ?? 5000);
      const layoutOf = () => busyRetry(() => db.pragma("user_version", { simple: true }) as number, opts.busyTimeoutMs ?? 5000);
      if (layoutOf() !== SQLITE_LAYOUT) {
        // Checked again under the write lock: another process may have just created the tables.
        db.transaction(() => {
          if (layoutOf() === SQLITE_LAYOUT) return;
          db.exec(`
            DROP TABLE IF EXISTS facts;
            DROP TABLE IF EXISTS meta;
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE facts (
              path TEXT PRIMARY KEY,
              size INTEGER NOT NULL,
              mtime_ms REAL NOT NULL,
              ctime_ms REAL NOT NULL,
              ino REAL NOT NULL,
              hash TEXT NOT NULL,
              checked_ms REAL NOT NULL,
              version TEXT NOT NULL,
              value TEXT NOT NULL,
              detail TEXT
            );
            PRAGMA user_version = ${SQLITE_LAYOUT};
          `);
          if (opts.rootRealPath !== undefined) {
            db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('root', ?)").run(opts.rootRealPath);
          }
        }).immediate();
      }
      db.pragma("synchronous = NORMAL");
      this.#get = db.prepare<[string], RawRow>("SELECT * FROM facts WHERE path = ?");
      this.#getBase = db.prepare<[string], RawRow>(
        "SELECT path, size, mtime_ms, ctime_ms, ino, hash, checked_ms, version, value, NULL AS detail FROM facts WHERE path = ?",
      );
      this.#all = db.prepare<[], RawRow>("SELECT * FROM facts");
      this.#paths = db.prepare<[], string>("SELECT path FROM facts").pluck();
      this.#put = db.prepare<[RawRow]>(
        `INSERT INTO facts (path, size, mtime_ms, ctime_ms, ino, hash, checked_ms, version, value, detail)
         VALUES (@path, @size, @mtime_ms, @ctime_ms, @ino, @hash, @checked_ms, @version, @value, @detail)
         ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, ctime_ms = excluded.ctime_ms,
           ino = excluded.ino, checked_ms = excluded.checked_ms, value = excluded.value,
           detail = CASE WHEN excluded.detail IS NULL AND facts.hash = excluded.hash AND facts.version = excluded.version
                         THEN facts.detail ELSE excluded.detail END,
           hash = excluded.hash, version = excluded.version`,
      );
      this.#refresh = db.prepare<[Omit<RawRow, "value">]>(
        `UPDATE facts SET size = @size, mtime_ms = @mtime_ms, ctime_ms = @ctime_ms, ino = @ino, checked_ms = @checked_ms
         WHERE path = @path AND hash = @hash AND version = @version`,
      );
      this.#delete = db.prepare<[string]>("DELETE FROM facts WHERE path = ?");
      this.#getMeta = db.prepare<[string], string>("SELECT value FROM meta WHERE key = ?").pluck();
      this.#putMeta = db.prepare<[string, string]>("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
      this.#deleteMeta = db.prepare<[string]>("DELETE FROM meta WHERE key = ?");
      this.#clear = db.prepare<[]>("DELETE FROM facts");
    } catch (err) {
      db.close();
      throw err;
    }
    this.#db = db;
    // IMMEDIATE takes the write lock at BEGIN, so a busy database waits (busy_timeout) up front
    // instead of failing at the first write inside a read transaction.
    const putTx = db.transaction((rows: readonly FactRow[]) => {
      for (const r of rows) this.#put.run({ ...columns(r), value: r.value, detail: r.detail });
    });
    this.#putTx = (rows) => putTx.immediate(rows);
    const refreshTx = db.transaction((rows: readonly RowRefresh[]) => {
      for (const r of rows) this.#refresh.run(columns(r));
    });
    this.#refreshTx = (rows) => refreshTx.immediate(rows);
    const deleteTx = db.transaction((paths: readonly string[]) => {
      for (const p of paths) this.#delete.run(p);
    });
    this.#deleteTx = (paths) => deleteTx.immediate(paths);
  }

  get(path: string, withDetail: boolean): FactRow | undefined {
    const r = (withDetail ? this.#get : this.#getBase).get(path);
    return r && toRow(r);
  }

  putMany(rows: readonly FactRow[]): void {
    if (rows.length > 0) this.#putTx(rows);
  }

  refreshMany(rows: readonly RowRefresh[]): void {
    if (rows.length > 0) this.#refreshTx(rows);
  }

  deleteMany(paths: readonly string[]): void {
    if (paths.length > 0) this.#deleteTx(paths);
  }

  paths(): string[] {
    return this.#paths.all();
  }

  hasVersion(version: string): boolean {
    this.#hasVersion ??= this.#db.prepare<[string], number>("SELECT 1 FROM facts WHERE version = ? LIMIT 1").pluck();
    return this.#hasVersion.get(version) !== undefined;
  }

  all(): FactRow[] {
    return this.#all.all().map(toRow);
  }

  getMeta(key: string): string | undefined {
    return this.#getMeta.get(key);
  }

  putMeta(key: string, value: string | undefined): void {
    if (value === undefined) this.#deleteMeta.run(key);
    else this.#putMeta.run(key, value);
  }

  clear(): void {
    this.#clear.run();
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

/**
 * Runs `fn`, again every 10 ms while it throws SQLITE_BUSY or SQLITE_LOCKED, for at most
 * `timeoutMs` (then the last error is thrown). For the statements SQLite fails with SQLITE_BUSY
 * without consulting the busy handler.
 */
function busyRetry<T>(fn: () => T, timeoutMs: number): T {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const busy = typeof code === "string" && (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"));
      if (!busy || Date.now() >= deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}
