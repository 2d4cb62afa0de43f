/**
 * {@link ProjectView}s over a {@link Workspace}: the walkable file list and reads of small
 * configuration files through the workspace, so resolvers see exactly what the tools see and never
 * open a file outside the root or on the deny-list.
 *
 * **Warm tree state** ({@link treeSnapshot}): a running server keeps, per Workspace, the walkable
 * file list (`Workspace.walkPaths`, no stat of each file) and one view over it, so that everything
 * resolvers derive from the view (Python layout, tsconfig data, Go modules, Cargo crates, module
 * name indexes — memoised per view by `lang/project-files.ts`) is computed once and reused until
 * the tree changes. Whether the tree changed is checked before each use without walking it again,
 * with the rules Git's untracked cache uses (Documentation/technical/index-format.txt, "Untracked
 * cache"): adding, deleting or renaming an entry changes its folder's mtime. So the check `lstat`s
 * - every folder that holds a listed file (and its ancestors), and the folders below them that hold
 *   no listed file (empty or wholly ignored ones, two levels deep, at most {@link MAX_EXTRA_DIRS}),
 *   for new entries;
 * - the ignore files of the tree (`.gitignore`, `.ignore`, `.rgignore`, `.git/info/exclude`, and
 *   those in the root's ancestors), which change what is walkable without changing a folder;
 * - every configuration file read through the view (`tsconfig.json`, `go.mod`, `Cargo.toml` …),
 *   whose edits change resolution, and those behind the kept values loaded for it ({@link loadDerived}).
 * Any difference (or an entry that changed within {@link RACY_WINDOW_MS} of the walk, which the
 * file system's timestamp granularity could hide — Git's "racy" rule) makes the next use walk the
 * tree again and start a fresh view. Edits of ordinary files do not change the list; their facts
 * are checked by size, mtime and hash in `facts.ts`.
 *
 * The walked state (files, watched folders and files with their stamps) is also kept in the fact
 * cache's side table ({@link FactIndex}), so that a new process (a CLI query) checks it with the
 * same `lstat`s instead of walking the tree again; it is keyed by the facts version and by the
 * walk's ripgrep arguments (ignore rules, deny-list), and a racy walk is never kept. Values derived
 * from a view (a module-name index, import resolutions) can be kept next to it ({@link saveDerived},
 * {@link loadDerived}), valid for the same walk while every file the view read is unchanged.
 */
import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { publishTiming, timingStart } from "../../fact-cache/activity.js";
import { FactIndex, type FileStat } from "../../fact-cache/fact-index.js";
import { RACY_WINDOW_MS } from "../../fact-cache/cache-dir.js";
import { isStatHit } from "../../fact-cache/fact-store.js";
import { factsVersion } from "./facts.js";
import { cancelledError } from "../evidence.js";
import type { ProjectView } from "./lang/language.js";
import { parentDir } from "./lang/project-files.js";
import { baseRipgrepArgs, NEVER_WALK_DIRS } from "../sandbox/ripgrep.js";
import type { FileEntry, Workspace } from "../sandbox/workspace.js";

/** Configuration files larger than this are not read by resolvers (bytes). */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** Folders without listed files that are watched besides those with files (see the module comment). */
const MAX_EXTRA_DIRS = 2000;
/** How many levels of folders without listed files are watched below a folder with files. */
const EXTRA_DIR_DEPTH = 2;
/** Names of ignore files that change what a walk lists. */
const IGNORE_FILE_NAMES: ReadonlySet<string> = new Set([".gitignore", ".ignore", ".rgignore"]);
/** Folders never walked: new entries inside them never matter. */
const UNWATCHED_DIRS: ReadonlySet<string> = new Set([".git", ...NEVER_WALK_DIRS]);

/** A file's identity for change checks: size in bytes and mtime in ms; `-1` for a missing file. */
interface Stamp {
  size: number;
  mtimeMs: number;
}

/**
 * Builds a view of `files` (repository-relative, any order; duplicates dropped). `readText`
 * returns `undefined` for a path not in the list, a file over 1 MiB, or any read error.
 * @param onRead called with each configuration file read and the stamp of what was read.
 */
export function createProjectView(
  ws: Workspace,
  files: readonly FileEntry[] | readonly string[],
  onRead?: (path: string, stamp: Stamp) => void,
): ProjectView {
  const paths = sortedUnique(files.map((f) => (typeof f === "string" ? f : f.path)));
  const set = new Set(paths);
  const texts = new Map<string, Promise<string | undefined>>();
  return {
    files: paths,
    has: (p) => set.has(p),
    readText(p) {
      if (!set.has(p)) return Promise.resolve(undefined);
      let t = texts.get(p);
      if (t === undefined) {
        // Without a thread-pool round trip per step (resolvers read one file after another: a
        // Java file's package, a Go module's go.mod); a refusal is asked of readText, which counts it.
        const synced = ws.readTextSync(p);
        t = (synced !== undefined ? Promise.resolve(synced) : ws.readText(p)).then(
          (f) => {
            onRead?.(p, { size: f.size, mtimeMs: f.mtimeMs });
            return f.size > MAX_CONFIG_BYTES ? undefined : f.text;
          },
          () => {
            onRead?.(p, stampOf(path.join(ws.root, p)));
            return undefined;
          },
        );
        texts.set(p, t);
      }
      return t;
    },
  };
}

/** `list` sorted (UTF-16 code unit order) without duplicates; a list already so (a kept snapshot's) is taken as it is. */
function sortedUnique(list: string[]): string[] {
  let ordered = true;
  for (let i = 1; i < list.length && ordered; i++) ordered = (list[i - 1] as string) < (list[i] as string);
  return ordered ? list : [...new Set(list)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The walkable files of a workspace at one moment, and the view over them. */
export interface TreeSnapshot {
  /** Every walkable file, repository-relative, sorted (UTF-16 code unit order). */
  readonly files: readonly string[];
  /** The view over {@link files}; values memoised on it live as long as the snapshot. */
  readonly view: ProjectView;
  /** Increases each time the tree is walked again (per workspace, from 1). */
  readonly generation: number;
}

interface TreeState extends TreeSnapshot {
  /** Watched folders (absolute) → mtime when walked. */
  readonly dirs: Map<string, number>;
  /** Watched files (absolute) → stamp when walked or read. */
  readonly watched: Map<string, Stamp>;
  /** Set when an entry changed too recently to trust its stamp: the next use walks again. */
  racy: boolean;
  /** When the walk started (ms since the epoch). */
  readonly startedMs: number;
  /** Every folder that could hold a new walkable file is watched (see {@link extraDirs}). */
  readonly complete: boolean;
}

interface WorkspaceTrees {
  current?: TreeState;
  pending?: Promise<TreeState>;
  generation: number;
}

const trees = new WeakMap<Workspace, WorkspaceTrees>();

function stampOf(abs: string): Stamp {
  try {
    const st = lstatSync(abs);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return { size: -1, mtimeMs: -1 };
  }
}

/** True when nothing watched by `state` changed (see the module comment). */
function isFresh(state: Pick<TreeState, "dirs" | "watched" | "racy">): boolean {
  if (state.racy) return false;
  for (const [abs, mtimeMs] of state.dirs) {
    let st;
    try {
      st = lstatSync(abs);
    } catch {
      return false;
    }
    if (!st.isDirectory() || st.mtimeMs !== mtimeMs) return false;
  }
  for (const [abs, stamp] of state.watched) {
    const now = stampOf(abs);
    if (now.size !== stamp.size || now.mtimeMs !== stamp.mtimeMs) return false;
  }
  return true;
}

/**
 * Folders below the watched ones that hold no listed file, up to {@link EXTRA_DIR_DEPTH} levels
 * below a folder with files and {@link MAX_EXTRA_DIRS} in all (breadth-first). Deeper new files in
 * such folders are still noticed when a query's ripgrep run sees them (`changedSince`).
 * `complete` is true when no folder was left out: every folder at the depth limit holds no
 * folder (other than never-walked ones) and the count limit was not reached; then a new entry
 * anywhere in the tree changes the mtime of a watched folder.
 */
function extraDirs(ws: Workspace, withFiles: ReadonlySet<string>, sinceMs: number): { dirs: string[]; complete: boolean } {
  const out: string[] = [];
  let complete = true;
  const queue: { rel: string; depth: number }[] = [...withFiles].map((rel) => ({ rel, depth: 0 }));
  for (let i = 0; i < queue.length; i++) {
    if (out.length >= MAX_EXTRA_DIRS) {
      complete = false;
      break;
    }
    const { rel, depth } = queue[i] as { rel: string; depth: number };
    // The folder as this walk's ignore-file scan read it, else read now.
    let names = ws.subfoldersSeen(rel, sinceMs);
    if (names === undefined) {
      try {
        names = readdirSync(rel === "" ? ws.root : path.join(ws.root, rel), { withFileTypes: true })
          .filter((e) => e.isDirectory() && !UNWATCHED_DIRS.has(e.name))
          .map((e) => e.name);
      } catch {
        if (depth > 0) complete = false; // a folder that cannot be read may hold anything
        continue;
      }
    }
    for (const name of names) {
      const sub = rel === "" ? name : `${rel}/${name}`;
      if (withFiles.has(sub)) continue;
      if (depth >= EXTRA_DIR_DEPTH) {
        complete = false;
        break;
      }
      out.push(sub);
      queue.push({ rel: sub, depth: depth + 1 });
      if (out.length >= MAX_EXTRA_DIRS) break;
    }
  }
  return { dirs: out, complete };
}

/** The persisted form of a walked {@link TreeState} (version 1). */
interface PersistedTree {
  v: 1;
  startedMs: number;
  /** See {@link TreeState.complete}; absent in what older builds kept (such a state is not restored). */
  complete?: boolean;
  files: string[];
  /** Watched folders, repository-relative ("" = the root) → mtime. */
  dirs: [string, number][];
  /** Watched files, absolute → size, mtime. */
  watched: [string, number, number][];
}

/** Side-table key of the persisted tree: the walk's ripgrep arguments decide what is listed. */
function persistKey(): string {
  return `tree:${createHash("sha1").update(baseRipgrepArgs().join("\0")).digest("hex").slice(0, 16)}`;
}

function storeOf(ws: Workspace): FactIndex<unknown>["store"] {
  return FactIndex.shared(ws.root, { version: factsVersion() }).store;
}

/** Keeps a walked, non-racy state for later processes (see the module comment). */
function persist(ws: Workspace, state: TreeState): void {
  if (state.racy) return;
  const rootPrefix = ws.root.length + 1;
  const data: PersistedTree = {
    v: 1,
    startedMs: state.startedMs,
    complete: state.complete,
    files: [...state.files],
    dirs: [...state.dirs].map(([abs, m]) => [abs === ws.root ? "" : abs.slice(rootPrefix), m]),
    watched: [...state.watched].map(([abs, s]) => [abs, s.size, s.mtimeMs]),
  };
  storeOf(ws).putMeta(persistKey(), JSON.stringify(data));
}

/** A state an earlier process walked, when one is kept and nothing it watches changed since. */
function restore(ws: Workspace, generation: number): TreeState | undefined {
  const text = storeOf(ws).getMeta(persistKey());
  if (text === undefined) return undefined;
  let data: PersistedTree;
  try {
    data = JSON.parse(text) as PersistedTree;
  } catch {
    return undefined;
  }
  // A state kept by an older build (no `complete`) is walked again once, so that it says whether it is complete.
  if (data.v !== 1 || typeof data.complete !== "boolean" || !Array.isArray(data.files) || !Array.isArray(data.dirs) || !Array.isArray(data.watched)) return undefined;
  // The kept folders are the walk's own normalised relative paths: joined by concatenation (path.join
  // normalises each of them again, ~10 ms for the large bench tree's 881 folders under load).
  const prefix = ws.root.endsWith(path.sep) ? ws.root : `${ws.root}${path.sep}`;
  const dirs = new Map(data.dirs.map(([rel, m]) => [rel === "" ? ws.root : prefix + rel, m] as const));
  const watched = new Map(data.watched.map(([abs, size, mtimeMs]) => [abs, { size, mtimeMs }] as const));
  if (!isFresh({ dirs, watched, racy: false })) return undefined;
  return stateOf(ws, data.files, generation, dirs, watched, false, data.startedMs, data.complete);
}

/** A state over `files` (sorted) whose view records the configuration files it reads. */
function stateOf(
  ws: Workspace,
  files: readonly string[],
  generation: number,
  dirs: Map<string, number>,
  watched: Map<string, Stamp>,
  racy: boolean,
  startedMs: number,
  complete: boolean,
): TreeState {
  const box: { state?: TreeState } = {};
  const view = createProjectView(ws, files, (p, stamp) => {
    if (box.state === undefined) return;
    box.state.watched.set(path.join(ws.root, p), stamp);
    if (stamp.mtimeMs > Date.now() - RACY_WINDOW_MS) box.state.racy = true;
  });
  box.state = { files: view.files, view, generation, dirs, watched, racy, startedMs, complete };
  viewStates.set(view, { ws, state: box.state, loaded: new Map() });
  return box.state;
}

/** The state behind each view {@link stateOf} made, and the stamps of derived values loaded for it. */
const viewStates = new WeakMap<ProjectView, { ws: Workspace; state: TreeState; loaded: Map<string, Stamp>; walkId?: string }>();

/**
 * True when `view` is a tree snapshot's view whose checks watch every folder that could hold a
 * new walkable file ({@link extraDirs}): while its snapshot is current, the tree holds no
 * walkable file that its list lacks, so a remembered answer about the listed files' text needs
 * no ripgrep run to find new ones (`mention-index.ts`).
 */
export function listIsComplete(view: ProjectView): boolean {
  return viewStates.get(view)?.state.complete === true;
}

/** The persisted form of a value derived from a view (version 1); see {@link loadDerived}. */
interface PersistedDerived {
  v: 1;
  /** {@link walkIdOf} of the walk the value was derived from. */
  walk: string;
  /** Files read through the view (and the walk's ignore files), absolute → size, mtime. */
  watched: [string, number, number][];
  value: unknown;
}

/** Identifies one walk: when it started and a digest of the files it listed. */
function walkIdOf(entry: { state: TreeState; walkId?: string }): string {
  entry.walkId ??= `${entry.state.startedMs}:${createHash("sha1").update(entry.state.files.join("\0")).digest("hex").slice(0, 16)}`;
  return entry.walkId;
}

/**
 * A value an earlier process derived from a view of the same walk and kept with
 * {@link saveDerived} (a module-name index, import resolutions), so a CLI query need not derive it
 * again. It is returned only when it was derived from the very walk behind `view` (same start,
 * same files) and every file any view of it had read by then (configuration files, sources a
 * resolver looked into) still has the size and mtime it had; otherwise `undefined`.
 * @param name which value (`importers:module-names` …).
 */
export function loadDerived<T>(view: ProjectView, name: string): T | undefined {
  const entry = viewStates.get(view);
  if (entry === undefined) return undefined;
  const text = storeOf(entry.ws).getMeta(`${persistKey()}:derived:${name}`);
  if (text === undefined) return undefined;
  let data: PersistedDerived;
  try {
    data = JSON.parse(text) as PersistedDerived;
  } catch {
    return undefined;
  }
  if (data.v !== 1 || data.walk !== walkIdOf(entry) || !Array.isArray(data.watched)) return undefined;
  for (const [abs, size, mtimeMs] of data.watched) {
    // The snapshot's watched stamps were checked when it was last used (`isFresh`, or `restore`).
    const known = entry.state.watched.get(abs);
    if (known !== undefined && known.size === size && known.mtimeMs === mtimeMs) continue;
    const now = stampOf(abs);
    if (now.size !== size || now.mtimeMs !== mtimeMs) return undefined;
  }
  // The files behind the value are watched from now on, as files read through the view are: an
  // edit of one makes the next use of the snapshot walk again (a server's view and what is
  // memoised on it are then dropped), and a later value of this view needs no new check of them.
  for (const [abs, size, mtimeMs] of data.watched) {
    entry.loaded.set(abs, { size, mtimeMs });
    entry.state.watched.set(abs, { size, mtimeMs });
  }
  return data.value as T;
}

/**
 * Keeps `value`, derived from `view`, for later processes (see {@link loadDerived}), with the
 * stamps of every file read through the view so far and of those behind values loaded for it.
 * Nothing is kept for a racy view or when one of those files changed within the racy window.
 * @param value JSON-serialisable data.
 * @param maxChars keep nothing when `value` as JSON is longer than this (it is serialised once, here).
 * @returns false when nothing was kept because `value` was over `maxChars`, else true.
 */
export function saveDerived(view: ProjectView, name: string, value: unknown, maxChars = Infinity): boolean {
  const entry = viewStates.get(view);
  if (entry === undefined || entry.state.racy) return true;
  const watched = new Map(entry.loaded);
  for (const [abs, stamp] of entry.state.watched) watched.set(abs, stamp);
  const recent = Date.now() - RACY_WINDOW_MS;
  for (const stamp of watched.values()) if (stamp.mtimeMs > recent) return true;
  const json = JSON.stringify(value) as string | undefined;
  if (json !== undefined && json.length > maxChars) return false;
  const data: Omit<PersistedDerived, "value"> = { v: 1, walk: walkIdOf(entry), watched: [...watched].map(([abs, s]) => [abs, s.size, s.mtimeMs]) };
  // `JSON.stringify({ ...data, value })`, without serialising `value` a second time.
  const text = json === undefined ? JSON.stringify(data) : `${JSON.stringify(data).slice(0, -1)},"value":${json}}`;
  storeOf(entry.ws).putMeta(`${persistKey()}:derived:${name}`, text);
  return true;
}

async function walk(ws: Workspace, generation: number): Promise<TreeState> {
  const startedMs = Date.now();
  const files = await ws.walkPaths(undefined);
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const dirs = new Map<string, number>();
  const watched = new Map<string, Stamp>();
  let racy = false;
  const relDirs = new Set<string>([""]);
  for (const f of files) {
    for (let d = parentDir(f); d !== "" && !relDirs.has(d); d = parentDir(d)) relDirs.add(d);
    const base = f.slice(f.lastIndexOf("/") + 1);
    if (IGNORE_FILE_NAMES.has(base)) watched.set(path.join(ws.root, f), stampOf(path.join(ws.root, f)));
  }
  const extra = extraDirs(ws, relDirs, startedMs);
  for (const d of [...relDirs, ...extra.dirs]) {
    const abs = d === "" ? ws.root : path.join(ws.root, d);
    const stamp = stampOf(abs);
    dirs.set(abs, stamp.mtimeMs);
    if (stamp.mtimeMs > startedMs - RACY_WINDOW_MS) racy = true;
  }
  // Ignore files that are not listed themselves: git's exclude file, and those above the root.
  watched.set(path.join(ws.root, ".git", "info", "exclude"), stampOf(path.join(ws.root, ".git", "info", "exclude")));
  for (let dir = path.dirname(ws.root); ; dir = path.dirname(dir)) {
    for (const name of IGNORE_FILE_NAMES) watched.set(path.join(dir, name), stampOf(path.join(dir, name)));
    if (path.dirname(dir) === dir) break;
  }
  for (const stamp of watched.values()) if (stamp.mtimeMs > startedMs - RACY_WINDOW_MS) racy = true;
  const state = stateOf(ws, files, generation, dirs, watched, racy, startedMs, extra.complete);
  persist(ws, state);
  return state;
}

/**
 * The walkable files of `ws` and a view over them, reused while the tree is unchanged (see the
 * module comment). Concurrent callers share one walk.
 * @param opts.refresh walk again even when nothing watched changed (e.g. a prefilter saw a file
 *   the list lacks).
 * @throws ToolError `TIMEOUT` (a walk over 60 s, or `signal` aborted), `UNSUPPORTED` without ripgrep.
 */
export async function treeSnapshot(ws: Workspace, opts: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<TreeSnapshot> {
  let t = trees.get(ws);
  if (t === undefined) {
    t = { generation: 0 };
    trees.set(ws, t);
  }
  const entry = t;
  if (entry.pending !== undefined) return settle(entry.pending, opts.signal);
  if (entry.current !== undefined && opts.refresh !== true && isFresh(entry.current)) return entry.current;
  if (entry.current === undefined && opts.refresh !== true) {
    const t0 = timingStart();
    const restored = restore(ws, entry.generation + 1);
    publishTiming("validation", t0);
    if (restored !== undefined) {
      entry.generation++;
      entry.current = restored;
      return restored;
    }
  }
  // The walk is shared by concurrent callers, so no caller's signal stops it (it has its own time
  // limit); each caller stops waiting when its own signal aborts.
  const pending = walk(ws, ++entry.generation).then(
    (state) => {
      entry.current = state;
      entry.pending = undefined;
      return state;
    },
    (err: unknown) => {
      entry.pending = undefined;
      throw err;
    },
  );
  entry.pending = pending;
  return settle(pending, opts.signal);
}

/** `pending`, or a rejection with ToolError `TIMEOUT` as soon as `signal` aborts. */
function settle<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return pending;
  if (signal.aborted) return Promise.reject(cancelledError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}


/**
 * A file's state kept beside a value derived from its text (import resolutions, a screen's
 * verdict): the fields that key the fact cache and `checkedMs`, when it was stat'ed, before it was read.
 */
export interface KeptStat {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  checkedMs: number;
}

/** The {@link KeptStat} of `st`, stat'ed at `checkedMs` (before the file was read). */
export function keptStat(st: FileStat, checkedMs: number): KeptStat {
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs ?? 0, ino: st.ino ?? 0, checkedMs };
}

/**
 * Whether a value kept with `kept` still holds for the file as `st` finds it now: the fact cache's
 * stat-hit rule (`fact-store.ts` `isStatHit`: same size, mtime, ctime and inode, read outside the racy window).
 */
export function keptStatHolds(kept: KeptStat, st: FileStat): boolean {
  return isStatHit(kept, st.size, st.mtimeMs, RACY_WINDOW_MS, st);
}

/**
 * Size, mtime, ctime and inode of repository-relative files (`lstat`, symbolic links not
 * followed), which key the fact cache (`FileStat`); paths that are gone or are not regular files
 * are left out. Synchronous: a few hundred `lstat` calls cost less than their promises would.
 */
export function statFiles(ws: Workspace, paths: readonly string[]): FileStat[] {
  const out: FileStat[] = [];
  for (const p of paths) {
    try {
      const st = lstatSync(path.join(ws.root, p));
      if (st.isFile()) out.push({ path: p, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino });
    } catch {
      // gone since it was listed
    }
  }
  return out;
}

/**
 * Whether files that a ripgrep run over the tree reported, and that a snapshot's list lacks, show
 * that the tree changed unseen: true when one of them would be listed by a walk now (not in a
 * virtual environment, a name that is valid UTF-8, still a regular file).
 */
export async function changedSince(ws: Workspace, unlisted: readonly string[]): Promise<boolean> {
  const named = unlisted.filter((p) => !p.includes("\uFFFD"));
  if (named.length === 0) return false;
  const inVenv = await ws.virtualEnvFilter(named);
  return statFiles(
    ws,
    named.filter((p) => !inVenv(p)),
  ).length > 0;
}
