/**
 * Paths that paste: what the CLI prints (a location relative to the current directory or
 * absolute, with or without `:line` or `:start-end`) is accepted back by `read` and as `--path`,
 * and the root defaults to the enclosing git work tree.
 *
 * A module path typed for `importers` (`core/constants` from `source/`) is re-rooted the same way
 * when it names a file of the current folder without its extension.
 *
 * Nothing here opens a file outside the root or runs a program: paths are only resolved and
 * `lstat`ed (and, for a module path inside the root, its folder listed); the workspace checks the result against the root as always (an absolute or `../`
 * path outside it is the usual `OUTSIDE_ROOT` error). The git work tree's top is found by looking
 * for a `.git` entry (a folder, or the file of a linked work tree or submodule) in the current
 * folder and its parents, as git's own discovery does (git-rev-parse(1) `--show-toplevel`),
 * without running git.
 */
import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { gitWorkTreeTop } from "../paths.js";

/** A printed location split into its path and line range. */
export interface Location {
  path: string;
  /** 1-based first line, when the text ended in `:N` or `:N-M`. */
  startLine?: number;
  /** Last line, when the text ended in `:N-M`. */
  endLine?: number;
}

/**
 * Splits `file.py:40` / `file.py:40-52` into path and lines; any other text (including a name
 * that exists as it is, such as a file really called `a:1`) is a path alone.
 * @param exists - whether a path exists as written (default: `lstat` from the current folder).
 */
export function parseLocation(text: string, exists: (p: string) => boolean = existsAsWritten): Location {
  const m = /^(.+?):(\d+)(?:-(\d+))?$/.exec(text);
  if (m === null || exists(text)) return { path: text };
  const start = Number(m[2]);
  const end = m[3] === undefined ? undefined : Number(m[3]);
  return { path: m[1] as string, startLine: start, ...(end === undefined ? {} : { endLine: end }) };
}

function existsAsWritten(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path to hand to a tool for `given` (as the user typed it) under `root`:
 * - resolved from the current folder and inside the root → relative to the root;
 * - resolved from the current folder and outside it, written as absolute or with `../` → the
 *   absolute path (the workspace refuses it with `OUTSIDE_ROOT`);
 * - otherwise unchanged (a repository-relative path, as before).
 * When the current-folder reading does not exist but the repository-relative one does, the latter wins;
 * outside the root, a path that exists only as the current folder reads it is that (outside) file.
 */
export function pathForRoot(given: string, root: string, cwd: string = process.cwd()): string {
  if (given === "") return given;
  const rootAbs = path.resolve(cwd, root);
  const abs = path.resolve(cwd, given);
  const rel = path.relative(rootAbs, abs);
  const inside = rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
  const explicit = path.isAbsolute(given) || given === ".." || given.startsWith("../") || given.startsWith(`..${path.sep}`);
  // Outside the root: an explicit path, or one that exists only as the current folder reads it
  // (`nu/ky/x.json` typed in /tmp with `--root nu/requests`), is that file (refused as outside).
  if (!inside) return explicit || (existsAsWritten(abs) && !existsAsWritten(path.join(rootAbs, given))) ? abs : given;
  const fromCwd = rel === "" ? "." : rel.split(path.sep).join("/");
  if (fromCwd === given || explicit) return fromCwd;
  if (!existsAsWritten(abs) && existsAsWritten(path.join(rootAbs, given))) return given;
  return fromCwd;
}

/**
 * The path of a `--path` value as pasted: a printed location's `:line` or `:start-end` is dropped
 * (`--path` chooses files, not lines), then {@link pathForRoot}.
 */
export function pathOptionForRoot(given: string, root: string, cwd: string = process.cwd()): string {
  const { path: file } = parseLocation(given, (p) => existsAsWritten(path.resolve(cwd, p)) || existsAsWritten(path.resolve(cwd, root, p)));
  return pathForRoot(file, root, cwd);
}

/**
 * A module path of `importers` as typed from the current folder: `core/constants` in ky's
 * `source/` is `source/core/constants` when a file `core/constants.<ext>` (or a folder
 * `core/constants`) is there and the repository-relative reading names nothing. Names without
 * a `/` (dotted modules, packages) and paths leading outside the root are left to the tool.
 */
export function modulePathForRoot(given: string, root: string, cwd: string = process.cwd()): string {
  if (!given.includes("/") || path.isAbsolute(given)) return given;
  const rootAbs = path.resolve(cwd, root);
  const abs = path.resolve(cwd, given);
  const rel = path.relative(rootAbs, abs);
  if (rel === "" || rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return given;
  const fromCwd = rel.split(path.sep).join("/");
  if (fromCwd === given) return given;
  return isModuleFile(abs) && !isModuleFile(path.join(rootAbs, given)) ? fromCwd : given;
}

/** Whether `p` exists, or a file `p.<ext>` does (a module path written without its extension). */
function isModuleFile(p: string): boolean {
  if (existsAsWritten(p)) return true;
  const base = `${path.basename(p)}.`;
  try {
    return readdirSync(path.dirname(p)).some((name) => name.startsWith(base));
  } catch {
    return false;
  }
}

/**
 * The root of an evidence command: `--root` when given; else the git work tree's top when the
 * current folder is inside one (reported once through `say`, when it is not the current folder);
 * else the current folder.
 */
export function defaultRoot(given: string | undefined, say: (line: string) => void, cwd: string = process.cwd()): string {
  if (given !== undefined) return given;
  const top = gitWorkTreeTop(cwd);
  if (top === undefined) return ".";
  if (path.resolve(top) !== path.resolve(cwd)) say(`codecite: root is the git work tree at ${top} (pass --root to choose another)`);
  return top;
}
