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
 *   git until its time limit. The values are read by git's own parser ({@link configReads}).
 * - a FIFO, socket or device anywhere in a git directory (`HEAD`, `index`, `packed-refs`,
 *   `info/exclude`, a loose object …), or a symbolic link there leading to one: git opens such
 *   files by name and would wait for a FIFO's writer until its time limit.
 *
 * Git reads the configuration (with its includes), `HEAD` and `commondir` while it discovers the
 * repository, before any of its answers can be checked. So the git directory is first found
 * without git ({@link checkBeforeGit}: a `.git` folder or `gitdir:` file in the root or the
 * folder above it that git would stop at, as gitrepository-layout(5) describes them), and its
 * files and configuration are checked before git runs; the caller then refuses a repository
 * for which git names another git directory.
 *
 * The environment variables that can add object stores (`GIT_ALTERNATE_OBJECT_DIRECTORIES`,
 * `GIT_OBJECT_DIRECTORY`, `GIT_DIR`, …) are removed before git runs (`scrubbedEnv` in
 * `sandbox/spawn.ts` drops every `GIT_*`).
 */
import type { Dirent } from "node:fs";
import { constants as fsc, promises as fsp, statSync } from "node:fs";
import path from "node:path";
import { ToolError } from "./evidence.js";
import { isInside } from "../paths.js";
import { findExecutable, runProcess, scrubbedEnv } from "./sandbox/spawn.js";

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

/** "a FIFO", "a socket" or "a device", for a message. */
function special(e: Dirent | { isFIFO(): boolean; isSocket(): boolean }): string {
  return e.isFIFO() ? "a FIFO" : e.isSocket() ? "a socket" : "a device";
}

/**
 * Checks every entry below each git directory in `dirs` (absolute real paths): a symbolic link must
 * resolve inside an allowed root, to a regular file or a folder, and no entry may be a FIFO, socket
 * or device. A dangling link is refused too (git could not use it, and where it points cannot be
 * told apart from an outside file that exists).
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
        const st = await fsp.stat(real).catch(() => undefined);
        if (st !== undefined && !st.isFile() && !st.isDirectory()) throw refuseStore(`${shown(full, allowed)} is a symbolic link to ${special(st)}`);
      } else if (e.isDirectory()) {
        stack.push(full);
      } else if (!e.isFile()) {
        throw refuseStore(`${shown(full, allowed)} is not a regular file (${special(e)}: git would wait on it)`);
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
 * directory `common` (real paths inside `top`, or linked back to it by git's bookkeeping; their
 * own entries and configuration were checked by {@link checkBeforeGit}), and its checked-out
 * submodules `gitlinks` (work-tree-relative paths of mode-160000 index entries): alternates, the
 * entries of each submodule's and alternate's folder, and each submodule's git directory must
 * resolve inside `top`, `gitDir` or `common`.
 * @throws ToolError `UNSUPPORTED` ({@link refuseStore}) naming the offending path relative to the work tree.
 */
export async function checkObjectStores(top: string, gitDir: string, common: string, gitlinks: readonly string[]): Promise<void> {
  const allowed: AllowedRoots = [...new Set([top, gitDir, common])];
  const dirs: string[] = [];
  for (const sub of gitlinks) {
    const dir = await submoduleGitDir(path.join(top, ...sub.split("/")), `${sub}/.git`);
    if (dir === undefined) continue;
    if (dir === null || !within(dir, allowed)) throw refuseStore(`the submodule ${sub} names a git directory outside the work tree`);
    dirs.push(dir);
  }
  const objectDirs = [...new Set([gitDir, common, ...dirs].map((d) => path.join(d, "objects")))];
  for (const objects of objectDirs) dirs.push(...(await checkAlternates(allowed, objects)));
  const checked = new Set([gitDir, common]);
  await checkGitDirLinks(allowed, dirs.filter((d) => !checked.has(d)));
}

/** A git directory as {@link checkBeforeGit} found it (real paths). */
export interface FoundGitDir {
  /** The folder holding `.git` (or the git directory itself, for a bare repository above the root). */
  top: string;
  gitDir: string;
  /** The common directory (`commondir` of a linked worktree), else `gitDir`. */
  common: string;
}

/**
 * The git directory named by `dir/.git` (a folder, a link to one, or a `gitdir: <path>` file,
 * gitrepository-layout(5)), or `dir` itself when it is a git directory (git's discovery checks
 * both in each folder). `null` when a `.git` file names nothing usable (git stops there with an
 * error), `undefined` when there is no candidate.
 */
async function gitDirIn(dir: string): Promise<string | null | undefined> {
  const dotGit = path.join(dir, ".git");
  const st = await fsp.stat(dotGit).catch(() => undefined);
  if (st?.isDirectory()) return (await realOrUndefined(dotGit)) ?? null;
  if (st !== undefined) {
    const text = await readGitFile(dotGit, ".git");
    const m = text === undefined ? null : /^gitdir: *(.+?)\s*$/m.exec(text);
    return m?.[1] ? ((await realOrUndefined(path.resolve(dir, m[1]))) ?? null) : null;
  }
  const head = await fsp.lstat(path.join(dir, "HEAD")).catch(() => undefined);
  const objects = await fsp.stat(path.join(dir, "objects")).catch(() => undefined);
  return head !== undefined && objects?.isDirectory() ? dir : undefined;
}

/**
 * Finds, without running git, the git directory git's discovery would use for `root` (a real
 * path): the first folder from `root` upwards holding a `.git` folder or `gitdir:` file whose
 * git directory has a `HEAD`, or that is a git directory itself. Each candidate met on the way
 * (and its common directory, named by its `commondir` file) is checked before any git process
 * can read it: no FIFO, socket or device in it and no link out of it ({@link checkGitDirLinks}),
 * and its `config` and `config.worktree` name no file outside it or its work tree
 * ({@link checkConfigFiles}).
 * @returns what was found, or `undefined` when no folder up to the file-system root holds a repository.
 * @throws ToolError `UNSUPPORTED` ({@link refuseStore}, {@link readGitFile}); `TIMEOUT` from {@link configReads}.
 */
export async function checkBeforeGit(root: string, signal?: AbortSignal): Promise<FoundGitDir | undefined> {
  for (let top = root; ; ) {
    const gitDir = await gitDirIn(top);
    if (gitDir === null) return undefined;
    if (gitDir !== undefined) {
      const named = (await readGitFile(path.join(gitDir, "commondir"), ".git/commondir"))?.trim();
      const common = named ? ((await realOrUndefined(path.resolve(gitDir, named))) ?? gitDir) : gitDir;
      const allowed: AllowedRoots = [...new Set([top, gitDir, common])];
      await checkGitDirLinks(allowed, [...new Set([gitDir, common])]);
      for (const dir of new Set([gitDir, common])) {
        for (const name of ["config", "config.worktree"]) {
          await checkConfigFiles(allowed, top, path.join(dir, name), `.git/${name}`, 0, root, signal);
        }
      }
      if (await fsp.lstat(path.join(gitDir, "HEAD")).then(() => true, () => false)) return { top, gitDir, common };
    }
    const up = path.dirname(top);
    if (up === top) return undefined;
    top = up;
  }
}

/** The configuration keys that make git read a file (see the module comment), as git names them (lower case). */
const READS_KEYS = "^(include\\.path|includeif\\..*\\.path|core\\.(attributesfile|excludesfile))$";

/** Time limit for one `git config` run, in ms. */
const CONFIG_READ_TIMEOUT_MS = 30_000;

/** A setting that makes git read a file: its key (lower case, `includeif.<condition>.path`) and value. */
export interface ConfigRead {
  key: string;
  value: string;
}

/**
 * The files a git configuration text makes git read (see the module comment): the values of
 * `include.path`, `includeIf.<condition>.path`, `core.attributesFile` and `core.excludesFile`,
 * read by git's own parser — `git config --file - --no-includes -z --get-regexp`, the text on its
 * standard input — so quoting, escapes, comments and values continued on the next line are read
 * exactly as git reads them. `git config` runs no program; it runs in the file-system root (so it
 * finds no repository whose configuration it would read) without the system and global
 * configuration, and does not follow includes (`--no-includes`).
 * @param root the workspace root: no `git` inside it is run.
 * @returns the settings in file order.
 * @throws ToolError `UNSUPPORTED` when git is missing or cannot parse the text (naming `shownAs`;
 *   git would refuse the repository too), `TIMEOUT` after 30 s.
 */
export async function configReads(text: string, shownAs: string, root: string, signal?: AbortSignal): Promise<ConfigRead[]> {
  const gitPath = await findExecutable("git", { notUnder: root });
  if (gitPath === undefined) throw refuseStore("git was not found on PATH (programs inside the repository are never run)");
  const res = await runProcess(gitPath, ["config", "--file", "-", "--no-includes", "-z", "--get-regexp", READS_KEYS], {
    cwd: path.parse(root).root,
    env: scrubbedEnv({ GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C" }),
    timeoutMs: CONFIG_READ_TIMEOUT_MS,
    signal,
    maxStdoutBytes: 2 * MAX_GIT_FILE_BYTES,
    input: Buffer.from(text, "utf8"),
  });
  if (res.timedOut) throw new ToolError("TIMEOUT", `reading ${shownAs} took longer than ${CONFIG_READ_TIMEOUT_MS / 1000} s`, "Try again.");
  // Exit 1: no such key.
  if (res.code === 1 && res.stdout.length === 0) return [];
  if (res.code !== 0) {
    const why = (res.stderr.split("\n").find((l) => l.trim() !== "") ?? "").replace(/^(fatal|error): /, "").slice(0, 200);
    throw refuseStore(`git cannot read its configuration (${shownAs}): ${why}`);
  }
  const out: ConfigRead[] = [];
  for (const rec of res.stdout.toString("utf8").split("\0")) {
    const nl = rec.indexOf("\n");
    if (nl > 0) out.push({ key: rec.slice(0, nl), value: rec.slice(nl + 1) });
  }
  return out;
}

/**
 * Checks what a configuration file makes git read, and the included files' own, to git's include
 * depth: each must be a regular file inside `allowed`, or absent. An include's relative path is
 * relative to the file naming it (git-config(1) "Includes"); a relative `core.attributesFile` or
 * `core.excludesFile` is opened by git from the work tree `top`, so it is checked from both.
 * `~` (the user's home) and `%(prefix)/` (git's installation) always lead outside.
 * @throws ToolError `UNSUPPORTED` ({@link refuseStore}, {@link readGitFile}), `TIMEOUT` ({@link configReads}).
 */
async function checkConfigFiles(
  allowed: AllowedRoots,
  top: string,
  file: string,
  shownAs: string,
  depth: number,
  root: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const text = await readGitFile(file, shownAs);
  if (text === undefined) return;
  for (const { key, value } of await configReads(text, shownAs, root, signal)) {
    if (value === "") continue;
    if (value.startsWith("~") || value.startsWith("%(prefix)")) {
      throw refuseStore(`its git configuration (${shownAs}) makes git read ${JSON.stringify(value.slice(0, 100))}, outside the work tree`);
    }
    const include = !key.startsWith("core.");
    for (const base of include ? [path.dirname(file)] : [top, path.dirname(file)]) {
      const target = path.resolve(base, value);
      const real = await realOrUndefined(target);
      if (!within(real ?? target, allowed)) throw refuseStore(`its git configuration (${shownAs}) makes git read a file outside the work tree`);
      if (real === undefined) continue;
      if (!include) {
        await readGitFile(real, shown(real, allowed)); // refuses a FIFO, socket or device
        continue;
      }
      if (depth + 1 >= MAX_INCLUDE_DEPTH) throw refuseStore(`its git configuration (${shownAs}) includes files more than ${MAX_INCLUDE_DEPTH} deep`);
      await checkConfigFiles(allowed, top, real, shown(real, allowed), depth + 1, root, signal);
    }
  }
}

/**
 * Checks the files git reads from the work tree `top` (real path) while it diffs: `.gitattributes`
 * in each of `folders` (work-tree-relative, "" for `top`: the folders of the tracked paths) and
 * `.gitmodules` at the top. Each must be absent or, followed through links, a regular file or a
 * folder (git fails on that at once): git opens them by name and would wait on a FIFO until its
 * time limit. Synchronous: one `stat` per
 * folder of the index.
 * @throws ToolError `UNSUPPORTED` ({@link refuseStore}) naming the file, work-tree-relative.
 */
export function checkWorkTreeGitFiles(top: string, folders: Iterable<string>): void {
  const check = (rel: string) => {
    let st;
    try {
      st = statSync(path.join(top, ...rel.split("/")));
    } catch {
      return;
    }
    if (!st.isFile() && !st.isDirectory()) throw refuseStore(`${rel} is not a regular file (${special(st)}: git would wait on it)`);
  };
  check(".gitmodules");
  for (const dir of folders) check(dir === "" ? ".gitattributes" : `${dir}/.gitattributes`);
}
