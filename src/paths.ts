/**
 * Path containment for absolute paths: the one rule every layer uses (the sandbox, the fact
 * cache's folder check, the MCP server's roots), and the git work tree holding a folder. Paths inside a repository, `/`-separated and
 * relative, have their own rule (`evidence/analysis/lang/project-files.ts` `isWithin`).
 */
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * True when `candidate` is `root` itself or lies under it, decided by path segments, not by a
 * string prefix (`/a/bc` is not inside `/a/b`; CVE-2025-53110 was that mistake). Both paths
 * are resolved lexically; callers pass real paths (`fs.realpath`) when links matter.
 */
export function isInside(candidate: string, root: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(candidate));
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * The top of the git work tree holding `cwd` (the nearest folder, `cwd` itself or a parent, with
 * a `.git` entry), or `undefined` outside any work tree.
 */
export function gitWorkTreeTop(cwd: string = process.cwd()): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}
