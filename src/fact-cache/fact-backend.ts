/**
 * The storage interface under {@link FactStore}: rows keyed by repository-relative path, with
 * the value kept as a JSON string. Two implementations: SQLite (`sqlite-backend.ts`, persistent,
 * shared between processes) and a Map (`memory-backend.ts`, the fallback).
 *
 * Backends may throw (SQLite errors); {@link FactStore} catches, classifies and recovers.
 */

/**
 * The state of a file that a cached value was computed from: the stat fields that decide a
 * stat hit, the content hash and when that content was read. The one declaration of this
 * shape: rows, stored facts and the in-memory layer extend it.
 */
export interface FileState {
  /** File size in bytes when the value was computed. */
  size: number;
  /** File modification time in ms since the epoch (`fs.Stats.mtimeMs`, may be fractional). */
  mtimeMs: number;
  /** Inode change time in ms (`fs.Stats.ctimeMs`); 0 when the caller did not give one. */
  ctimeMs: number;
  /** Inode number (`fs.Stats.ino`); 0 when the caller did not give one. */
  ino: number;
  /** Content hash (Git blob id, see `content-hash.ts`). */
  hash: string;
  /** Wall-clock time (ms since the epoch) just before the content behind `hash` was read. */
  checkedMs: number;
}

/**
 * One cached file. `value` is the JSON text of the caller's facts; `detail` the JSON text of the
 * optional second tier computed from the same content (for codecite, a file's references), or
 * `null` when that tier was not computed (see `FactIndex` `LoadOptions.detail`).
 */
export interface FactRow extends FileState {
  /** Repository-relative, `/`-separated path (the key). */
  path: string;
  /** Extractor/schema version the value was computed with. */
  version: string;
  /** The value as JSON text. */
  value: string;
  /** The detail tier as JSON text; `null` when not computed. */
  detail: string | null;
}

/** A stat refresh: the content (by hash) is unchanged, only size/mtime/check time move. */
export type RowRefresh = Omit<FactRow, "value" | "detail">;

export interface FactBackend {
  readonly kind: "sqlite" | "memory";
  /** The database file, for the SQLite backend. */
  readonly file?: string;
  /**
   * The row of `path`; with `withDetail` false its `detail` is `null` whatever is stored (the
   * detail text is not read).
   */
  get(path: string, withDetail: boolean): FactRow | undefined;
  /**
   * Inserts or replaces every row, atomically (one transaction). A row whose `detail` is `null`
   * keeps the stored detail when the stored row has the same hash and version (the same content:
   * another process may have computed it meanwhile).
   */
  putMany(rows: readonly FactRow[]): void;
  /** Updates size/mtime/checkedMs of rows whose path, hash and version match; others are left alone. */
  refreshMany(rows: readonly RowRefresh[]): void;
  /** Deletes the rows of these paths, atomically. */
  deleteMany(paths: readonly string[]): void;
  /** Every stored path (any version). */
  paths(): string[];
  /** Whether some row has this version. */
  hasVersion(version: string): boolean;
  /** Every stored row (any version), for bulk loads. */
  all(): FactRow[];
  /** A value of the key-value side table (root identity, a tree snapshot …); undefined when absent. */
  getMeta(key: string): string | undefined;
  /** Sets (or, with `undefined`, deletes) a value of the side table. */
  putMeta(key: string, value: string | undefined): void;
  /** Deletes every row (the side table is kept). */
  clear(): void;
  close(): void;
}
