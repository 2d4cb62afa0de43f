/**
 * Where git may read objects and refs from: every such place must lie inside the repository's
 * work tree (the workspace root or the repository that contains it), or `read_git_diff` refuses
 * the repository. Otherwise a hostile repository shows another repository's files and commit ids:
 *
 * - a symbolic link anywhere in the git directory — `.git/objects`, `.git/refs`, one loose object,
 *   one pack, `packed-refs`, `HEAD`, a ref file — resolving outside the work tree (relative links
 *   included: the real path is compared);
 * - an alternate object store (`objects/info/alternates`, also `http-alternates`, one path per
 *   line, relative paths resolved against the `objects` folder; gitrepository-layout(5)) outside
 *   the work tree, directly or through the alternates of an alternate (git follows them up to
 *   depth 5);
 * - a submodule whose gitlink file (`<submodule>/.git` = `gitdir: <path>`; gitrepository-layout(5),
 *   gitsubmodules(7)) names a git directory outside the work tree — git reads the submodule's HEAD
 *   to show its commit in a working-tree diff.
 *
 * - the repository's configuration (`config`, `config.worktree` of the git and common directories)
 *   naming a file git reads as it starts: `include.path` and `includeIf.<condition>.path`
 *   (git-config(1) "Includes"; followed in included files too, to git's depth of 10),
 *   `core.attributesFile` and `core.excludesFile`. Each must be a regular file inside the work
 *   tree, or absent: git would read a file outside the root, and one that is a FIFO would hold
 *   git until its time limit.
 *
 * The environment variables that can add object stores (`GIT_ALTERNATE_OBJECT_DIRECTORIES`,
 * `GIT_OBJECT_DIRECTORY`, `GIT_DIR`, …) are removed before git runs (`scrubbedEnv` in
 * `sandbox/spawn.ts` drops every `GIT_*`).
 */
import type { Dirent } from "node:fs";
import { constants as fsc, promises as fsp } from "node:fs";
import path from "node:path";
import { ToolError } from "./evidence.js";
import { isInside } from "../paths.js";

/** Most directory entries inspected in git directories before the check gives up (and refuses). */
const MAX_GIT_DIR_ENTRIES = 2_000_000;
/** Depth of alternates of alternates that git follows (git's own limit, `link_alt_odb_entry`). */
const MAX_ALTERNATE_DEPTH = 5;

/** The typed refusal: `UNSUPPORTED`, naming what points outside (repository-relative, never absolute). */
export function refuseStore(why: string): ToolError {
  return new ToolError(
    "UNSUPPORTED",
    `read_git_diff refuses this repository: ${why}`,
    "Git data that lives outside the repository is never read; use search_code or read_evidence instead.",
  );
}

/**
 * The places git data may come from: the work tree, and the git directory and common directory
 * that git's own bookkeeping tied to it (a linked worktree's common directory lies elsewhere).
 */
export type AllowedRoots = readonly string[];

function within(real: string, allowed: AllowedRoots): boolean {
  return allowed.some((a) => isInside(real, a));
}

/** `abs` relative to the first allowed root holding it (`.git/objects`), for a message. */
function shown(abs: string, allowed: AllowedRoots): string {
  const base = allowed.find((a) => isInside(abs, a));
  return base === undefined ? "a path outside the work tree" : path.relative(base, abs).split(path.sep).join("/") || ".";
}

/** Depth of configuration includes that git follows (git's `MAX_INCLUDE_DEPTH`). */
const MAX_INCLUDE_DEPTH = 10;

/** Largest git bookkeeping file read (an alternates list, a gitlink, a worktree's `gitdir`). */
const MAX_GIT_FILE_BYTES = 1024 * 1024;

/**
 * The text of a small git bookkeeping file, read only when it is a regular file of at most
 * {@link MAX_GIT_FILE_BYTES}: a FIFO there (an unpacked archive can hold one) would block the
 * read, and with it a thread of Node's file-system pool, for ever; a device such as `/dev/zero`
 * would never end. The type is checked before the open (opening some devices acts on them), the
 * open does not wait for a FIFO's writer (`O_NONBLOCK`), and the opened descriptor is checked again.
 * @returns `undefined` when the file does not exist or cannot be read.
 * @throws ToolError `UNSUPPORTED` for a file that is not regular or is too big; `shownAs` names it
 *   (repository-relative).
 */
export async function readGitFile(file: string, shownAs: string): Promise<string | undefined> {
  const refuse = (why: string) =>
    new ToolError(
      "UNSUPPORTED",
      `read_git_diff refuses this repository: ${shownAs} ${why}`,
      "Git's own files are read only when they are regular files of ordinary size; use search_code or read_evidence instead.",
    );
  const notRegular = () => refuse("is not a regular file (a FIFO, socket or device)");
  try {
    if (!(await fsp.stat(file)).isFile()) throw notRegular();
  } catch (err) {
    if (err instanceof ToolError) throw err;
    return undefined;
  }
  let handle;
  try {
    handle = await fsp.open(file, fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw notRegular();
    if (st.size > MAX_GIT_FILE_BYTES) throw refuse(`is larger than ${MAX_GIT_FILE_BYTES} bytes`);
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await handle.read(buf, 0, st.size, 0);
    return buf.subarray(0, bytesRead).toString("utf8");
  } catch (err) {
    if (err instanceof ToolError) throw err;
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function realOrUndefined(p: string): Promise<string | undefined> {
  try {
    return await fsp.realpath(p);
  } catch {
    return undefined;
  }
}

/**
 * Checks every symbolic link below each git directory in `dirs` (absolute real paths): each must
 * resolve inside an allowed root. A dangling link is refused too (git could not use it, and where it
 * points cannot be told apart from an outside file that exists).
 * @throws ToolError `UNSUPPORTED` ({@link refuseStore}).
 */
async function checkGitDirLinks(allowed: AllowedRoots, dirs: readonly string[]): Promise<void> {
  let seen = 0;
  const stack = [...new Set(dirs)];
  const visited = new Set<string>();
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    if (visited.has(dir)) continue;
    visited.add(dir);
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable: git cannot read it either
    }
    seen += entries.length;
    if (seen > MAX_GIT_DIR_ENTRIES) throw refuseStore(`its git directory holds more than ${MAX_GIT_DIR_ENTRIES} entries to check`);
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isSymbolicLink()) {
        const real = await realOrUndefined(full);
        if (real === undefined || !within(real, allowed)) {
          throw refuseStore(`${shown(full, allowed)} is a symbolic link to ${real === undefined ? "a missing path" : "a path outside the work tree"}`);
        }
      } else if (e.isDirectory()) {
        stack.push(full);
      }
    }
  }
}

/** The entries of an alternates file (`#` comments and blank lines dropped), resolved against `objects`. */
async function alternatesOf(allowed: AllowedRoots, objects: string): Promise<{ file: string; entries: string[] }[]> {
  const out: { file: string; entries: string[] }[] = [];
  for (const name of ["alternates", "http-alternates"]) {
    const file = path.join(objects, "info", name);
    const text = await readGitFile(file, shown(file, allowed));
    if (text === undefined) continue;
    const entries = text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((l) => (l.startsWith('"') && l.endsWith('"') ? l.slice(1, -1) : l));
    out.push({ file, entries });
  }
  return out;
}

/**
 * Checks the alternate object stores of `objects` (an absolute `objects` folder) and of their
 * alternates, to git's depth: each must resolve inside an allowed root. Returns the real paths
 * of the alternates, so their folders can be checked for links too.
 * @throws ToolError `UNSUPPORTED` ({@link refuseStore}).
 */
async function checkAlternates(allowed: AllowedRoots, objects: string, depth = 0): Promise<string[]> {
  const found: string[] = [];
  for (const { file, entries } of await alternatesOf(allowed, objects)) {
    for (const entry of entries) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) throw refuseStore(`${shown(file, allowed)} names a remote object store`);
      const real = await realOrUndefined(path.resolve(objects, entry));
      if (real === undefined || !within(real, allowed)) {
        throw refuseStore(`${shown(file, allowed)} names an object store outside the work tree`);
      }
      found.push(real);
      if (depth + 1 < MAX_ALTERNATE_DEPTH) found.push(...(await checkAlternates(allowed, real, depth + 1)));
    }
  }
  return found;
}

/**
 * The git directory a submodule's `.git` names: the folder itself, a symbolic link's target, or
 * the `gitdir: <path>` line of a gitlink file (relative to the submodule). `undefined` when the
 * submodule is not checked out (no `.git`). A gitlink that cannot be resolved gives `null`.
 */
async function submoduleGitDir(workDir: string, shownAs: string): Promise<string | null | undefined> {
  const dotGit = path.join(workDir, ".git");
  let st;
  try {
    st = await fsp.lstat(dotGit);
  } catch {
    return undefined;
  }
  if (st.isDirectory() || st.isSymbolicLink()) return (await realOrUndefined(dotGit)) ?? null;
  const text = await readGitFile(dotGit, shownAs);
  if (text === undefined) return null;
  const m = /^gitdir: *(.+?)\s*$/m.exec(text);
  if (!m?.[1]) return null;
  return (await realOrUndefined(path.resolve(workDir, m[1]))) ?? null;
}

/**
 * Checks the repository whose work tree is `top` (real path), git directory `gitDir` and common
 * directory `common` (real paths inside `top`, or linked back to it by git's bookkeeping), and its
 * checked-out submodules `gitlinks` (work-tree-relative paths of mode-160000 index entries):
 * alternates, symbolic links in every git directory, and each submodule's git directory must
 * resolve inside `top`, `gitDir` or `common`.
 * @throws ToolError `UNSUPPORTED` ({@link refuseStore}) naming the offending path relative to the work tree.
 */
export async function checkObjectStores(top: string, gitDir: string, common: string, gitlinks: readonly string[]): Promise<void> {
  const allowed: AllowedRoots = [...new Set([top, gitDir, common])];
  const dirs = [gitDir, common];
  for (const sub of gitlinks) {
    const dir = await submoduleGitDir(path.join(top, ...sub.split("/")), `${sub}/.git`);
    if (dir === undefined) continue;
    if (dir === null || !within(dir, allowed)) throw refuseStore(`the submodule ${sub} names a git directory outside the work tree`);
    dirs.push(dir);
  }
  for (const dir of [...new Set([gitDir, common])]) {
    for (const name of ["config", "config.worktree"]) await checkConfigFiles(allowed, path.join(dir, name), `${name} of the git directory`, 0);
  }
  const objectDirs = [...new Set(dirs.map((d) => path.join(d, "objects")))];
  for (const objects of objectDirs) dirs.push(...(await checkAlternates(allowed, objects)));
  await checkGitDirLinks(allowed, dirs);
}

/** `[section]`, `[section "sub"]` or `[section.sub]`, with what follows on the line. */
const SECTION_RE = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\](.*)$/;
const KEY_RE = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/;

/** A configuration value as git reads it: quotes removed, `\"` and `\\` unescaped, a trailing comment dropped. */
function configValue(raw: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === "\\" && i + 1 < raw.length) out += raw[++i] === "t" ? "\t" : raw[i] === "n" ? "\n" : raw[i];
    else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return out.trim();
}

/**
 * The files a git configuration file makes git read (see the module comment): `path` of an
 * `include`/`includeIf` section, `core.attributesFile`, `core.excludesFile`, as written.
 */
export function configReads(text: string): string[] {
  const out: string[] = [];
  let section = "";
  for (let line of text.split(/\r?\n/)) {
    const header = SECTION_RE.exec(line);
    if (header) {
      section = header[1]!.toLowerCase().split(".")[0]!;
      line = header[2]!;
    }
    const kv = KEY_RE.exec(line);
    if (!kv || kv[2] === undefined) continue;
    const key = kv[1]!.toLowerCase();
    if (((section === "include" || section === "includeif") && key === "path") || (section === "core" && (key === "attributesfile" || key === "excludesfile"))) {
      out.push(configValue(kv[2]));
    }
  }
  return out;
}

/**
 * Checks what a configuration file makes git read, and the included files' own, to git's include
 * depth: each must be a regular file inside `allowed`, or absent.
 * @throws ToolError `UNSUPPORTED` ({@link refuseStore}, {@link readGitFile}).
 */
async function checkConfigFiles(allowed: AllowedRoots, file: string, shownAs: string, depth: number): Promise<void> {
  const text = await readGitFile(file, shownAs);
  if (text === undefined) return;
  for (const named of configReads(text)) {
    if (named === "") continue;
    // `~/` is the user's home (git-config(1) "pathname"), always outside a repository's work tree.
    if (named.startsWith("~")) throw refuseStore(`its git configuration (${shownAs}) makes git read ${JSON.stringify(named)}, outside the work tree`);
    const target = path.resolve(path.dirname(file), named);
    const real = await realOrUndefined(target);
    if (!within(real ?? target, allowed)) throw refuseStore(`its git configuration (${shownAs}) makes git read a file outside the work tree`);
    if (real === undefined) continue;
    if (depth + 1 >= MAX_INCLUDE_DEPTH) throw refuseStore(`its git configuration (${shownAs}) includes files more than ${MAX_INCLUDE_DEPTH} deep`);
    await checkConfigFiles(allowed, real, shown(real, allowed), depth + 1);
  }
}
