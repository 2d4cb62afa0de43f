/**
 * Where codecite keeps its per-root fact caches: always in the user's cache folder, never
 * inside the project being read.
 *
 * Resolution order (first non-empty wins):
 * 1. `$CODECITE_CACHE_DIR`
 * 2. `$XDG_CACHE_HOME/codecite` (XDG Base Directory Specification: "user-specific non-essential data files")
 * 3. `~/.cache/codecite` (the XDG default for `$XDG_CACHE_HOME`)
 *
 * Relative values are resolved against the current directory. The XDG spec says a relative
 * `$XDG_CACHE_HOME` is invalid and should be ignored, so it is.
 */
import { createHash } from "node:crypto";
import { lstatSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** The environment variables read by {@link resolveCacheDir}. */
export interface CacheDirEnv {
  CODECITE_CACHE_DIR?: string | undefined;
  XDG_CACHE_HOME?: string | undefined;
  HOME?: string | undefined;
}

/**
 * The racy window in ms: a file or folder changed within this many ms of being read may change
 * again unseen (FAT's 2 s mtime granularity). The one value for every stamp check of the cache's
 * users (`fact-store.ts`, `scan-snapshot.ts`, `mention-index.ts`, `project-view.ts`); kept here,
 * which every one of them loads, so that a search does not load the fact store for it.
 */
export const RACY_WINDOW_MS = 2000;

/**
 * Resolves the cache folder from the environment (see the module comment for the order).
 *
 * @param env - variables to read; defaults to `process.env`.
 * @param home - the home directory used when `$HOME` is unset; defaults to `os.homedir()`.
 * @returns an absolute path; the folder is not created.
 */
export function resolveCacheDir(env: CacheDirEnv = process.env, home?: string): string {
  const explicit = env.CODECITE_CACHE_DIR?.trim();
  if (explicit) return path.resolve(explicit);
  const xdg = env.XDG_CACHE_HOME?.trim();
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "codecite");
  const h = env.HOME?.trim() || home || homedir();
  return path.join(path.resolve(h), ".cache", "codecite");
}

/**
 * The cache file name for one root: `<basename>-<first 16 hex of sha256(realRoot)>` plus the
 * given suffix. The basename is only for humans listing the folder (reduced to `[A-Za-z0-9._-]`,
 * at most 40 characters); the hash of the full real path is what keys the file.
 *
 * @param rootRealPath - the root's real path (`fs.realpath`), so that two spellings of one
 *   folder share a cache.
 */
export function cacheFileName(rootRealPath: string, suffix: string): string {
  const hash = createHash("sha256").update(rootRealPath).digest("hex").slice(0, 16);
  return `${cacheFileBase(rootRealPath)}-${hash}${suffix}`;
}

/** The human part of a root's cache file names: its basename reduced to `[A-Za-z0-9._-]`, at most 40 characters. */
export function cacheFileBase(rootRealPath: string): string {
  return (path.basename(rootRealPath) || "root").replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 40);
}


/**
 * The real path of `p` (`fs.realpath`), or, when `p` does not exist yet, the real path of its
 * deepest existing ancestor joined with the rest: where a cache folder made at `p` would be.
 */
export function realpathNearest(p: string): string {
  const rest: string[] = [];
  let cur = path.resolve(p);
  for (;;) {
    try {
      return path.join(realpathSync(cur), ...rest.reverse());
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return path.resolve(p);
      rest.push(path.basename(cur));
      cur = parent;
    }
  }
}

/**
 * Owned by this user and not writable by group or others (`mode & 0o022` clear). Where the user
 * id is unknown (Windows), only the mode is checked.
 */
export function isOwnPrivate(st: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

/**
 * Why the cache folder `dir` and the cache files in it (`files`, names in `dir`) must not be used,
 * or undefined when they may: the folder must be private ({@link isOwnPrivate}; `dir` may be
 * reached through symbolic links), and each file that exists must be a regular file, not a
 * symbolic link, with one link, private too. Otherwise another user who can write into the folder
 * could plant a link that makes a cache write land in a file of the user's elsewhere (SQLite
 * follows links and would turn another database's tables into the cache's).
 */
export function cacheFolderProblem(dir: string, files: readonly string[]): string | undefined {
  try {
    const st = statSync(dir);
    if (!st.isDirectory() || !isOwnPrivate(st)) return `cache folder ${dir} is not a folder of this user's that only they can write`;
    for (const f of files) {
      let fst;
      try {
        fst = lstatSync(path.join(dir, f));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw err;
      }
      if (!fst.isFile() || fst.nlink !== 1 || !isOwnPrivate(fst)) return `cache file ${path.join(dir, f)} is not a regular file of this user's with one link that only they can write`;
    }
    return undefined;
  } catch (err) {
    return `cache folder ${dir} cannot be checked (${err instanceof Error ? err.message : String(err)})`;
  }
}
