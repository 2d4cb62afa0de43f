/**
 * Whether a query command's root was queried before by this user: its ignore-file scan snapshot
 * (`fact-cache/scan-snapshot.ts` `snapshotFile`, written by the first query of a root, of
 * any command) is in the cache folder. `main.cjs` asks it before setting its V8 flags: a query of
 * a root never seen walks the tree and runs the text prefilter, both with ripgrep, so it loads
 * `node:child_process` there, with Node's embedded code cache, instead of during the query, after
 * the flags, compiled from its source (`scripts/bundle-cli.ts`, the comment of `main.cjs`); a later
 * query may answer from the fact cache and start no process, so it does not load it early.
 */
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { resolveCacheDir, type CacheDirEnv } from "../fact-cache/cache-dir.js";
import { snapshotName } from "../fact-cache/scan-snapshot.js";
import { gitWorkTreeTop } from "../paths.js";

/**
 * The root a query command of `argv` reads, as the command line chooses it (`defaultRoot` of
 * `locations.ts`): the last `--root` value (relative to `cwd`), else the git work tree holding
 * `cwd`, else `cwd`.
 */
function rootOf(argv: readonly string[], cwd: string): string {
  let root: string | undefined;
  argv.forEach((a, i) => {
    const value = a === "--root" ? argv[i + 1] : a.startsWith("--root=") ? a.slice("--root=".length) : undefined;
    if (value) root = path.resolve(cwd, value);
  });
  return root ?? gitWorkTreeTop(cwd) ?? cwd;
}

/**
 * True when the root of the query command `argv` has a scan snapshot in the cache folder (see the
 * module comment), or when that cannot be told (a root that does not exist): the caller then does
 * what it does for a known root. Only the file's name is looked up (one `stat`, about 0.1 ms with
 * the real path of the root), not the checks `snapshotFile` makes before the query uses it:
 * a cache folder where none may be kept (inside the project) holds no snapshot, so every query
 * there is taken for a first one, as it is (its facts are kept in memory only).
 */
export function rootSeenBefore(argv: readonly string[] = process.argv, cwd: string = process.cwd(), env: CacheDirEnv = process.env): boolean {
  try {
    return existsSync(path.join(resolveCacheDir(env), snapshotName(realpathSync(rootOf(argv, cwd)))));
  } catch {
    return true;
  }
}
