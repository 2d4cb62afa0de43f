/**
 * Folder-level views of a {@link ProjectView}'s file list, and a per-view memo, for
 * resolvers that map imports to folders (Go packages, Java packages, Rust module trees).
 * Paths are repository-relative and `/`-separated; the root folder is `''`.
 */
import { posix } from "node:path";
import type { ProjectView } from "./language.js";

/** Files grouped by folder, built once per {@link ProjectView}. */
export interface FileTree {
  /** Files directly inside `dir` (not in its subfolders), sorted; `''` is the root. */
  filesIn(dir: string): readonly string[];
  /** Every folder that holds at least one file, directly or below (includes `''`). */
  readonly dirs: ReadonlySet<string>;
}

/** The folder of a repository-relative path: `a/b.go` → `a`, `b.go` → `''`. */
export function parentDir(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/**
 * What `posix.normalize` would change in a relative path: a `.` or `..` segment, an empty
 * segment (`//`), a leading or a trailing `/`. A path without any of them is already normal.
 */
const NOT_NORMAL = /(?:^|\/)\.\.?(?:\/|$)|\/\/|^\/|\/$/;

/**
 * Joins repository-relative parts and normalises `.`/`..` (POSIX rules). Returns `undefined`
 * when the result would leave the repository root; `''` for the root itself. Parts that join to
 * a path `posix.normalize` leaves as it is ({@link NOT_NORMAL}: most calls, e.g. an include
 * folder and a header, `include` + `acme/core/arena.h`) are returned joined, without normalising.
 */
export function joinPath(...parts: string[]): string | undefined {
  const plain = parts.filter((p) => p !== "").join("/");
  if (plain !== "" && !NOT_NORMAL.test(plain)) return plain;
  const joined = posix.normalize(plain || ".");
  if (joined === "." || joined === "./") return "";
  if (joined === ".." || joined.startsWith("../") || joined.startsWith("/")) return undefined;
  return joined.endsWith("/") ? joined.slice(0, -1) : joined;
}

/** True when `path` is `dir` itself or lies below it (`''` contains everything). */
export function isWithin(path: string, dir: string): boolean {
  return dir === "" || path === dir || path.startsWith(`${dir}/`);
}

const memos = new WeakMap<ProjectView, Map<string, unknown>>();

/**
 * Computes a value once per {@link ProjectView} and key (the view is a snapshot of the tree,
 * so anything derived from it may be cached for its lifetime). Async values are memoised as
 * their promise, so concurrent callers share one computation.
 */
export function memoize<T>(project: ProjectView, key: string, compute: () => T): T {
  let memo = memos.get(project);
  if (memo === undefined) {
    memo = new Map();
    memos.set(project, memo);
  }
  if (memo.has(key)) return memo.get(key) as T;
  const value = compute();
  memo.set(key, value);
  return value;
}

/**
 * Every folder of a project view that holds at least one file, directly or below (includes `''`),
 * computed once per view. The files of one folder are adjacent in the view's sorted list, so a
 * folder's ancestors are walked once per run of files, not once per file.
 */
export function foldersOf(project: ProjectView): ReadonlySet<string> {
  return memoize(project, "folders", () => {
    const dirs = new Set<string>([""]);
    let last: string | undefined;
    for (const file of project.files) {
      const dir = parentDir(file);
      if (dir === last) continue;
      last = dir;
      for (let d = dir; d !== "" && !dirs.has(d); d = parentDir(d)) dirs.add(d);
    }
    return dirs;
  });
}

/** The {@link FileTree} of a project view (computed once per view). */
export function fileTree(project: ProjectView): FileTree {
  return memoize(project, "file-tree", () => {
    const byDir = new Map<string, string[]>();
    for (const file of project.files) {
      const dir = parentDir(file);
      let list = byDir.get(dir);
      if (list === undefined) {
        list = [];
        byDir.set(dir, list);
      }
      list.push(file);
    }
    for (const list of byDir.values()) list.sort();
    const empty: readonly string[] = [];
    return { filesIn: (dir: string) => byDir.get(dir) ?? empty, dirs: foldersOf(project) };
  });
}
