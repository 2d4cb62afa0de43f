/**
 * Incremental fact loading: given the files of a tree with their stat, return each file's
 * facts, re-computing only files that changed. This is the engine behind
 * `loadFacts(ws, files)`; it knows nothing of languages or parsers: the caller passes `read`
 * (file content) and `parse` (content → facts) callbacks, which may run in a worker pool
 * (`parse-pool.ts`).
 *
 * Per file, in order (the first that applies wins):
 * 1. in-memory layer: an entry from an earlier `load` in this process whose stat still matches
 *    (same rule as {@link FactStore.get}, racy entries excluded) → reused, no I/O;
 * 2. persistent store stat hit ({@link FactStore.get}) → reused;
 * 3. the file is read and hashed (`content-hash.ts`); store or memory hash hit
 *    ({@link FactStore.getByHash}) → reused and its stat refreshed (listed in `rehashed`);
 * 4. otherwise `parse` runs (listed in `parsed`) and the result is stored.
 * Steps 1–2 run for every file before any file is read, so `parse` knows how many files missed them.
 *
 * Writes to the store happen once per `load`, in one transaction, also when the load is
 * aborted or a callback fails part-way, so finished work is never lost.
 *
 * Two tiers (optional, {@link LoadOptions.detail}): a value may have a costlier part, the detail
 * (for codecite, a file's references), that only some loads need. It is stored beside the value,
 * computed from the same content, and read only by loads that ask for it. A load that wants the
 * detail of a file whose cached entry lacks it counts that entry as a miss at every layer (the file
 * is read, hashed and parsed with its detail); a load that does not want it never reads it.
 */
import { factLoadChannel, publishTiming, timingStart, type FactLoadProgress } from "./activity.js";
import { contentHash } from "./content-hash.js";
import type { FileState } from "./fact-backend.js";
import { FactStore, isStatHit, type FactEntry, type FactStoreOptions, type FileIdentity, type StatRefresh } from "./fact-store.js";

/**
 * A file to load: repository-relative `/`-separated path, size in bytes, mtime in ms since the
 * epoch, and (recommended) ctime and inode, which tell another copy of the file at the same path
 * from the one cached ({@link FileIdentity}).
 */
export interface FileStat extends FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface LoadOptions<T> {
  /** Reads a file's content. A rejection puts the file in `failed` (e.g. binary, too large, vanished). */
  read(path: string): Promise<string | Uint8Array>;
  /**
   * Computes the facts of one file from the content `read` returned. A throw/rejection puts the
   * file in `failed`. `ctx.misses` is how many files of this load missed both stat layers (each is
   * read and hashed; at most that many are parsed), so a caller can choose a worker pool for a
   * large batch and parse a handful in-process.
   */
  parse(path: string, content: string | Uint8Array, ctx: ParseContext): T | Promise<T>;
  /** Files processed at once (reads in flight and parses queued to a pool); default 8. */
  concurrency?: number;
  /** Aborting stops starting new files; finished work is still stored, then the signal's reason is thrown. */
  signal?: AbortSignal;
  /** The detail tier (see the module comment); absent → values are stored whole and `ctx.detail` is false. */
  detail?: DetailTier<T>;
}

/**
 * How a load splits values into the value and the detail tier (see the module comment). The same
 * split must be used by every load of one index, so that cached entries mean the same thing.
 */
export interface DetailTier<T> {
  /** Whether this load needs the detail of `path` (then `parse` is called with `ctx.detail` true for it). */
  wanted(path: string): boolean;
  /** A parsed value → what is stored as the value, and the detail (`undefined`: none computed). */
  split(value: T): { value: T; detail: unknown };
  /** A stored value and its detail → the value `load` returns for a file whose detail was wanted. */
  join(value: T, detail: unknown): T;
}

/** What {@link LoadOptions.parse} is told about the load it runs in and the file it parses. */
export interface ParseContext {
  /** Files of this load that missed the in-memory and store stat layers. */
  misses: number;
  /** Their total size in bytes (as their stat gives it). */
  missBytes: number;
  /** Whether the detail tier of this file is wanted (compute it too). */
  detail: boolean;
}

export interface LoadResult<T> {
  /** Facts per path, in the order of the input files; files in `failed` are absent. */
  facts: Map<string, T>;
  /** Files whose `parse` ran, in input order. */
  parsed: string[];
  /** Files that were read and hashed and found unchanged (only their mtime/size moved, or a racy entry was confirmed). */
  rehashed: string[];
  /** Files whose `read` or `parse` failed, with the error, in input order. */
  failed: { path: string; error: unknown }[];
  /** How many files each layer answered. */
  hits: { memory: number; store: number; hash: number };
}

interface MemoEntry<T> extends FileState {
  value: T;
  /** The detail tier; `undefined` when not computed (or the index's loads use no tiers). */
  detail?: unknown;
}

type Outcome<T> =
  | { kind: "memory" | "store" | "hash" | "parsed"; value: T }
  | { kind: "failed"; error: unknown };

const shared = new Map<string, FactIndex<unknown>>();

export class FactIndex<T> {
  readonly store: FactStore;
  readonly #memo = new Map<string, MemoEntry<T>>();

  /** Wraps an open store. The index owns nothing else; {@link close} closes the store. */
  constructor(store: FactStore) {
    this.store = store;
  }

  /**
   * One index per `(root, version)` for the whole process, opened on first use with
   * {@link FactStore.open}; later calls return the same instance (and ignore `opts` other than
   * `version`). Use this from long-running servers so warm queries hit the in-memory layer.
   */
  static shared<T>(rootRealPath: string, opts: FactStoreOptions): FactIndex<T> {
    const key = `${rootRealPath}\0${opts.version}`;
    let index = shared.get(key);
    if (!index) {
      const t0 = timingStart();
      index = new FactIndex<unknown>(FactStore.open(rootRealPath, opts));
      publishTiming("cache open", t0);
      shared.set(key, index);
    }
    return index as FactIndex<T>;
  }

  /** Closes and forgets every index made by {@link shared} (tests, process shutdown). */
  static closeShared(): void {
    for (const index of shared.values()) index.close();
    shared.clear();
  }

  /** Number of files held in the in-memory layer. */
  get memorySize(): number {
    return this.#memo.size;
  }

  /**
   * Returns the facts of `files`, parsing only what changed (see the module comment).
   * Never throws for a single file's failure (see `failed`); throws the abort reason when
   * `signal` aborts. The returned values are shared with the in-memory layer: treat them as
   * read-only.
   */
  async load(files: readonly FileStat[], opts: LoadOptions<T>): Promise<LoadResult<T>> {
    const outcomes: (Outcome<T> | undefined)[] = new Array(files.length);
    const puts: FactEntry<T>[] = [];
    const refreshes: StatRefresh[] = [];
    const racy = this.store.racyWindowMs;
    const { signal, detail: tier } = opts;
    const wants = (p: string) => tier?.wanted(p) === true;
    /** The value `load` returns for a cached entry, or `undefined` when the entry lacks a wanted detail. */
    const usable = (p: string, e: { value: T; detail?: unknown }): T | undefined => {
      if (!wants(p)) return e.value;
      return e.detail === undefined ? undefined : (tier as DetailTier<T>).join(e.value, e.detail);
    };

    // Stat layers first (synchronous, no I/O beyond the store), so the number of misses is known
    // before any file is read.
    const missed: number[] = [];
    files.forEach((f, i) => {
      const memo = this.#memo.get(f.path);
      const fromMemo = memo && isStatHit(memo, f.size, f.mtimeMs, racy, f) ? usable(f.path, memo) : undefined;
      if (fromMemo !== undefined) {
        outcomes[i] = { kind: "memory", value: fromMemo };
        return;
      }
      const stored = this.store.get<T>(f.path, f.size, f.mtimeMs, f, wants(f.path));
      const fromStore = stored && usable(f.path, stored);
      if (stored && fromStore !== undefined) {
        this.#memo.set(f.path, { ...stored });
        outcomes[i] = { kind: "store", value: fromStore };
        return;
      }
      missed.push(i);
    });
    const ctx = { misses: missed.length, missBytes: missed.reduce((sum, i) => sum + (files[i] as FileStat).size, 0) };
    let doneCount = 0;
    const report = () => {
      if (factLoadChannel.hasSubscribers) factLoadChannel.publish({ done: doneCount, toParse: missed.length } satisfies FactLoadProgress);
    };
    if (missed.length > 0) report();

    const one = async (f: FileStat): Promise<Outcome<T>> => {
      const memo = this.#memo.get(f.path);
      const checkedMs = Date.now();
      let content: string | Uint8Array;
      try {
        content = await opts.read(f.path);
      } catch (error) {
        return { kind: "failed", error };
      }
      const hash = contentHash(content);
      const want = wants(f.path);
      const fromMemo = memo?.hash === hash ? memo : undefined;
      const known = fromMemo && (!want || fromMemo.detail !== undefined) ? fromMemo : (this.store.getByHash<T>(f.path, hash, want) ?? fromMemo);
      const id = { ctimeMs: f.ctimeMs ?? 0, ino: f.ino ?? 0 };
      const value = known && usable(f.path, known);
      if (known && value !== undefined) {
        const entry: MemoEntry<T> = { size: f.size, mtimeMs: f.mtimeMs, ...id, hash, checkedMs, value: known.value };
        if (known.detail !== undefined) entry.detail = known.detail;
        this.#memo.set(f.path, entry);
        refreshes.push({ path: f.path, size: f.size, mtimeMs: f.mtimeMs, ...id, hash, checkedMs });
        return { kind: "hash", value };
      }
      let parsed: T;
      try {
        parsed = await opts.parse(f.path, content, { ...ctx, detail: want });
      } catch (error) {
        return { kind: "failed", error };
      }
      const stored: { value: T; detail?: unknown } = tier ? tier.split(parsed) : { value: parsed };
      const entry: MemoEntry<T> = { size: f.size, mtimeMs: f.mtimeMs, ...id, hash, checkedMs, value: stored.value };
      if (stored.detail !== undefined) entry.detail = stored.detail;
      this.#memo.set(f.path, entry);
      puts.push({ path: f.path, ...entry });
      return { kind: "parsed", value: want ? parsed : stored.value };
    };

    let next = 0;
    const worker = async () => {
      while (next < missed.length) {
        if (signal?.aborted) return;
        const i = missed[next++] as number;
        outcomes[i] = await one(files[i] as FileStat);
        doneCount++;
        report();
      }
    };
    const width = Math.max(1, Math.min(opts.concurrency ?? 8, missed.length));
    try {
      await Promise.all(Array.from({ length: width }, worker));
    } finally {
      this.store.putMany(puts);
      this.store.refreshMany(refreshes);
    }
    signal?.throwIfAborted();

    const result: LoadResult<T> = {
      facts: new Map(),
      parsed: [],
      rehashed: [],
      failed: [],
      hits: { memory: 0, store: 0, hash: 0 },
    };
    files.forEach((f, i) => {
      const o = outcomes[i] as Outcome<T>;
      if (o.kind === "failed") {
        result.failed.push({ path: f.path, error: o.error });
        return;
      }
      result.facts.set(f.path, o.value);
      if (o.kind === "parsed") result.parsed.push(f.path);
      else if (o.kind === "hash") {
        result.rehashed.push(f.path);
        result.hits.hash++;
      } else result.hits[o.kind]++;
    });
    return result;
  }

  /**
   * Drops entries of files that no longer exist, from memory and from the store.
   * @param existingPaths - every path of the tree now.
   * @returns the removed paths (store side), sorted.
   */
  prune(existingPaths: Iterable<string>): string[] {
    const keep = new Set(existingPaths);
    for (const p of this.#memo.keys()) if (!keep.has(p)) this.#memo.delete(p);
    return this.store.prune(keep);
  }

  /** Closes the store; the in-memory layer is cleared. */
  close(): void {
    this.#memo.clear();
    this.store.close();
  }
}
