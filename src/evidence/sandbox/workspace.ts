/**
 * The Workspace: the sandbox every file access of every tool goes through (ARCHITECTURE.md "Layers").
 *
 * - The root is the real path (`realpath`) of the directory given to {@link Workspace.open}.
 * - Paths from users and models pass the lexical policy of `path-policy.ts` (relative only; an
 *   absolute path inside the root is normalised to relative, everything else is `OUTSIDE_ROOT`;
 *   `~`/`$HOME` are literal; NUL bytes and over-long paths are `INVALID_ARGUMENT`), then the
 *   secrets deny-list of `deny-list.ts` (`DENIED`), then a real-path containment check (a symlink
 *   resolving outside the root is `OUTSIDE_ROOT`, a missing file is `NOT_FOUND`). A dangling
 *   symlink chain that leaves the root is `OUTSIDE_ROOT` too, exactly like one whose outside target
 *   exists, so answers never reveal which files exist outside the root.
 * - A root that is itself inside a denied folder (any segment of its path, as given or real, on
 *   the deny-list: `.git`, `.ssh`, `.envs`, `credentials` …) is refused with `DENIED`: every
 *   relative path would otherwise dodge the deny-list. So is a root that is a git directory
 *   itself (a bare repository: `HEAD`, `objects/` and `refs/` at the top).
 * - Hard links: a regular file with more than one link may be another name of a secret or of a
 *   file outside the root, which no name-based check can see. Such files are refused (`DENIED`)
 *   and left out of walks, unless the workspace is opened with `allowHardLinks` (default: the
 *   environment variable `CODECITE_ALLOW_HARD_LINKS=1`).
 * - Content: a file holding a private-key block (`secret-content.ts`) is `DENIED` whatever its
 *   name; {@link Workspace.openFile} scans the first 16 MiB before returning the descriptor.
 * - Reads are race-safe: the file is opened with `O_NOFOLLOW`, and the real path of the opened
 *   descriptor (`/proc/self/fd/N` on Linux, else `fstat` dev/ino against the checked path) is
 *   verified before a byte is returned (the check-then-read race that modelcontextprotocol/servers
 *   `src/filesystem/__tests__/path-validation.test.ts` demonstrates).
 * - Walking ({@link Workspace.listFiles}) uses `rg --files` with the hardened arguments of
 *   `ripgrep.ts`: `.gitignore`/`.ignore`/`.rgignore` rules (nested too) apply whether or not the
 *   folder is a git repository, `.git`, `node_modules`, `__pycache__`, virtual envs (`.venv`,
 *   `venv`, and any folder holding a `pyvenv.cfg`) are never walked, symlinks are never followed,
 *   so loops terminate and nothing outside the root is listed; denied files are dropped.
 *   Search therefore sees exactly the files the other tools see.
 * - Text follows the rules of `text-file.ts` (binary = NUL in the first 8 KiB; BOM dropped; lines
 *   end at `\n`, a `\r` before it dropped). {@link Workspace.readText} loads whole files up to
 *   `maxFileBytes` (default {@link DEFAULT_MAX_FILE_BYTES} = 1 MiB); larger and binary files are
 *   refused with {@link SkippedFileError} and counted in {@link Workspace.skipped}.
 */
import { advice, joinAdvice, location, tool, type AdviceText, type Clause } from "../advice.js";
import { closeSync, constants as fsc, existsSync, fstatSync, lstatSync, openSync, promises as fsp, readdirSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { TextDecoder } from "node:util";
import { isUtf8 } from "node:buffer";
import { ToolError } from "../evidence.js";
import { isDeniedPath } from "./deny-list.js";
import { bytesHavePrivateKeyBlock, MAX_SECRET_SCAN_BYTES } from "./secret-content.js";
import { isInside } from "../../paths.js";
import { folderStamp, folderUnchanged, readSnapshot, snapshotFile, writeSnapshot, type ScannedFolder, type ScanSnapshot } from "../../fact-cache/scan-snapshot.js";
import { normalizeRelative, toPosix } from "./path-policy.js";
import { baseRipgrepArgs, IGNORE_FILE_NAMES, NEVER_WALK_DIRS, ripgrepEnv, ripgrepMissing, ripgrepPath, ripgrepPathArg } from "./ripgrep.js";
import { mapLimit } from "../concurrency.js";
import { closeNames } from "../close-names.js";
import { runProcess } from "./spawn.js";
import { BINARY_SNIFF_BYTES, decodeText, sniff, splitLines } from "./text-file.js";

/** Default cap for loading a whole file (parsing, `readText`): 1 MiB. */
const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** Most directory entries {@link Workspace.checkIgnoreFiles} looks at. */
const MAX_IGNORE_SCAN_ENTRIES = 2_000_000;

/** Folders {@link Workspace.checkIgnoreFiles} reads per turn of the event loop. */
const IGNORE_SCAN_BATCH = 64;

/** The file that marks a Python virtual environment's folder (PEP 405). */
const VENV_MARKER = "pyvenv.cfg";

/**
 * How long {@link Workspace.virtualEnvFilter} answers from the folder listing of the ignore-file
 * scan instead of looking for {@link VENV_MARKER} again, in ms from the scan's end: about one
 * query of a fresh process. A long-running workspace (the server) looks again, as it did before.
 */
const VENV_SCAN_FRESH_MS = 5_000;

/** Time limit for one directory walk (`rg --files`), in ms. */
const WALK_TIMEOUT_MS = 60_000;

/**
 * ripgrep's threads for a walk (`rg --files`): half the cores, at least one (ripgrep's default is
 * one per core). A first query walks the tree while the text prefilter's ripgrep reads it and this
 * process waits for both: the walk's threads only took cores from the others. With one thread on
 * 2 cores the walk of the C/C++ bench tree (951 files) ended in 9.8 instead of 12.8 ms next to the
 * prefilter's run (large tree, 10,505 files: 74 instead of 104 ms), and the c-cpp first `symbol`
 * ended 9 ms sooner (median of 31 paired runs, new sooner in 22) (perf, issue 17).
 */
function walkThreads(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

/** A walkable file. `path` is repository-relative and `/`-separated; `size` in bytes. */
export interface FileEntry {
  path: string;
  size: number;
  mtimeMs: number;
}

/** A whole text file (see the module's text rules). */
export interface TextFile {
  /** Repository-relative, `/`-separated path (as requested, normalised). */
  path: string;
  /** Decoded text without the BOM; line endings kept as in the file. */
  text: string;
  /** Lines per the line rule: split at `\n`, a `\r` before it dropped. */
  lines: string[];
  /** File size in bytes. */
  size: number;
  mtimeMs: number;
  /** The file started with a byte-order mark (dropped from `text`). */
  bom: boolean;
  /** The file contains at least one `\r\n`. */
  crlf: boolean;
}

/** Cumulative counts of files a Workspace refused or dropped, for `note`s. */
export interface SkipCounts {
  /** NUL byte in the first 8 KiB. */
  binary: number;
  /** Over the size cap. */
  tooLarge: number;
  /** On the secrets deny-list (explicit requests only; walks drop them silently). */
  denied: number;
  /** File names that are not valid UTF-8 (cannot be named in evidence). */
  badName: number;
  /** Regular files with more than one hard link (walks drop them; see the module comment). */
  hardLinked: number;
}

/** Why {@link Workspace.readText} refused a file. */
export type SkipReason = "binary" | "too_large";

/** `UNSUPPORTED` error for a binary or too-large file, with the reason for counting. */
export class SkippedFileError extends ToolError {
  constructor(
    readonly reason: SkipReason,
    readonly path: string,
    message: string,
    hint?: string | AdviceText,
  ) {
    super("UNSUPPORTED", message, hint);
  }
}

/** A file opened by {@link Workspace.openFile}; the caller must `handle.close()`. */
export interface OpenedFile {
  /** Repository-relative, `/`-separated path (as requested, normalised). */
  rel: string;
  /** Verified real path of the opened descriptor. */
  abs: string;
  handle: FileHandle;
  size: number;
  mtimeMs: number;
}

/** A file opened by {@link Workspace.tryOpenFileSync}; the caller must `closeSync(fd)`. */
export interface OpenedFileSync {
  /** Repository-relative, `/`-separated path (as requested, normalised). */
  rel: string;
  /** Verified real path of the opened descriptor. */
  abs: string;
  fd: number;
  size: number;
  mtimeMs: number;
}

/** How files are opened for reading: never through a final symbolic link, and a FIFO cannot block us. */
const READ_FLAGS = fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0);

/**
 * Internal test hook (the swap-for-a-symlink race): an async callback run between the path
 * check and the `open` of {@link Workspace.openFile} (and, not awaited, of
 * {@link Workspace.tryOpenFileSync}). Not part of the public API.
 * @internal
 */
export const kBeforeOpen: unique symbol = Symbol("codecite.workspace.beforeOpen");

/**
 * Internal test hook: how many folders the ignore-file scans of a workspace read (`readdir`) and
 * how many they took unchanged from the scan snapshot (`fact-cache/scan-snapshot.ts`). Not part
 * of the public API.
 * @internal
 */
export const kScanCounts: unique symbol = Symbol("codecite.workspace.scanCounts");

/**
 * Formats skip counts for a `note`, e.g. "skipped 2 binary files and 1 file over 1 MiB".
 * Returns `undefined` when nothing was skipped.
 */
export function describeSkipped(counts: Partial<SkipCounts>, maxFileBytes = DEFAULT_MAX_FILE_BYTES): string | undefined {
  const parts: string[] = [];
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (counts.binary) parts.push(plural(counts.binary, "binary file", "binary files"));
  if (counts.tooLarge) {
    parts.push(`${plural(counts.tooLarge, "file", "files")} over ${formatBytes(maxFileBytes)}`);
  }
  if (counts.denied) parts.push(plural(counts.denied, "denied file", "denied files"));
  if (counts.hardLinked) parts.push(plural(counts.hardLinked, "hard-linked file", "hard-linked files"));
  if (counts.badName) parts.push(plural(counts.badName, "file with a non-UTF-8 name", "files with non-UTF-8 names"));
  return parts.length === 0 ? undefined : `skipped ${parts.join(", ")}`;
}

/** `1048576` → `"1 MiB"`. */
function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** `INVALID_ARGUMENT`: `rel` is a FIFO, socket or device, which is never read. */
function notRegularFile(rel: string): ToolError {
  return new ToolError("INVALID_ARGUMENT", `${rel} is not a regular file`, "Pass the path of a regular text file.");
}

/** Maps a file-system error for `rel` to a typed tool error (each with a hint). */
export function fsError(err: unknown, rel: string): ToolError {
  if (err instanceof ToolError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const shown = rel === "" ? "." : rel;
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return new ToolError("NOT_FOUND", `no such file: ${shown}`, NOT_FOUND_HINT);
    case "ELOOP":
      return new ToolError("NOT_FOUND", `cannot resolve ${shown}: too many symbolic links`, NOT_FOUND_HINT);
    case "ENAMETOOLONG":
      return new ToolError("INVALID_ARGUMENT", "path is too long", "Pass a shorter repository-relative path.");
    case "EACCES":
    case "EPERM":
      return new ToolError("DENIED", `permission denied: ${shown}`, "This file cannot be read; try another file.");
    case "ENXIO": // a socket, or a device with nothing behind it
      return notRegularFile(shown);
    case "EISDIR":
      return new ToolError("INVALID_ARGUMENT", `${shown} is a directory, not a file`, DIRECTORY_HINT);
    default:
      return new ToolError(
        "INTERNAL",
        `cannot access ${shown}: ${(err as Error | undefined)?.message ?? String(err)}`,
        "Try again, or use another file.",
      );
  }
}

/** The hint of a directory passed where a file is needed: a file, or a search inside the folder. */
const DIRECTORY_HINT = advice`Pass a file path, or ${{ kind: "search_folder" }}.`;
const NOT_FOUND_HINT = advice`Check the path with ${tool("search_code")} or ${tool("find_symbol")}.`;
const NON_UTF8_NAME_HINT = advice`A file whose name is not UTF-8 cannot be opened by name; ${tool("search_code")} shows its matching lines (flagged non_utf8_path), or rename the file.`;

function outsideError(rel: string): ToolError {
  return new ToolError(
    "OUTSIDE_ROOT",
    `${rel} resolves outside the repository root`,
    "Symbolic links that leave the repository are not followed.",
  );
}

function hardLinkError(rel: string, links: number): ToolError {
  return new ToolError(
    "DENIED",
    `${rel} has ${links} hard links and is not read: another name of the same file may be a secret or lie outside the repository`,
    "Files with more than one hard link are never read; set CODECITE_ALLOW_HARD_LINKS=1 to allow them.",
  );
}

function privateKeyError(rel: string): ToolError {
  return new ToolError(
    "DENIED",
    `${rel} holds a private key and is never read`,
    "Secrets (.env files, keys, credentials, .git internals) are not available to any tool.",
  );
}

function deniedError(rel: string): ToolError {
  return new ToolError(
    "DENIED",
    `${rel} is on the secrets deny-list and is never read`,
    "Secrets (.env files, keys, credentials, .git internals) are not available to any tool.",
  );
}

/** The sandbox. Create with {@link Workspace.open}. */
export class Workspace {
  /** The root's real path (absolute, no trailing separator except for `/`). */
  readonly root: string;
  /** Cap for loading a whole file, in bytes. */
  readonly maxFileBytes: number;
  /** Cumulative counts of files refused or dropped (binary, too large, denied, bad names). */
  readonly skipped: SkipCounts = { binary: 0, tooLarge: 0, denied: 0, badName: 0, hardLinked: 0 };
  /** Files with more than one hard link may be read (see the module comment). */
  readonly allowHardLinks: boolean;
  /** Roots accepted for absolute input paths: the real root and the root as given. */
  private readonly roots: readonly string[];
  /** The pending or finished scan of {@link checkIgnoreFiles}. */
  private ignoreScan: Promise<void> | undefined;
  /**
   * What a complete ignore-file scan saw of {@link VENV_MARKER}: per folder read (repository-relative),
   * whether it holds one (folders whose marker is a symbolic link are left out), and when (`Date.now()`).
   */
  private venvSeen: { at: number; dirs: Map<string, boolean> } | undefined;
  /**
   * What a complete ignore-file scan saw of folders: per folder read (repository-relative), the
   * names of its entries that are folders (not symbolic links) other than `.git` and
   * {@link NEVER_WALK_DIRS}, and when the scan started (`Date.now()`); see {@link subfoldersSeen}.
   */
  private foldersSeen: { startedMs: number; subfolders: Map<string, string[]> } | undefined;
  /** Where the ignore-file scan keeps its snapshot (see {@link Workspace.open}). */
  private scanCacheDir: string | undefined;
  /** @internal test hook, see {@link kScanCounts}. */
  readonly [kScanCounts] = { read: 0, reused: 0 };
  /** @internal test hook, see {@link kBeforeOpen}. */
  [kBeforeOpen]?: (abs: string) => Promise<void> | void;

  private constructor(root: string, given: string, maxFileBytes: number, allowHardLinks: boolean) {
    this.root = root;
    this.allowHardLinks = allowHardLinks;
    this.roots = given === root ? [root] : [root, given];
    this.maxFileBytes = maxFileBytes;
  }

  /**
   * Opens a workspace at `root` (resolved against the current directory, then `realpath`).
   * @param opts.maxFileBytes cap for whole-file loads in bytes (default 1 MiB).
   * @param opts.allowHardLinks read files with more than one hard link (default: the environment
   *   variable `CODECITE_ALLOW_HARD_LINKS` is `1`).
   * @param opts.scanCacheDir the cache folder where the ignore-file scan keeps its snapshot
   *   (`fact-cache/scan-snapshot.ts`; a fresh process then checks folder stamps instead of reading
   *   every folder); default none: every scan reads every folder.
   * @throws ToolError `NOT_FOUND` when the root does not exist, `INVALID_ARGUMENT` when it is not
   *   a directory or the path is invalid, `DENIED` when the root lies in a denied folder or is a
   *   bare git repository.
   */
  static async open(root: string, opts: { maxFileBytes?: number; allowHardLinks?: boolean; scanCacheDir?: string } = {}): Promise<Workspace> {
    if (typeof root !== "string" || root === "" || root.includes("\0")) {
      throw new ToolError("INVALID_ARGUMENT", "workspace root must be a non-empty path without NUL bytes");
    }
    const given = path.resolve(root);
    let real: string;
    try {
      real = await fsp.realpath(given);
    } catch (err) {
      const e = fsError(err, given);
      throw e.code === "NOT_FOUND"
        ? new ToolError("NOT_FOUND", `workspace root does not exist: ${given}`, "Pass an existing folder as the root (--root DIR).")
        : e;
    }
    let st;
    try {
      st = await fsp.stat(real);
    } catch (err) {
      throw fsError(err, given);
    }
    if (!st.isDirectory()) {
      throw new ToolError("INVALID_ARGUMENT", `workspace root is not a directory: ${given}`, "Pass the repository folder as the root.");
    }
    for (const p of [real, given]) {
      const secret = p.split(/[\\/]+/).find((seg) => seg !== "" && isDeniedPath(seg));
      if (secret !== undefined) {
        throw new ToolError(
          "DENIED",
          `workspace root ${given} lies inside a ${secret} folder, which is on the secrets deny-list`,
          "Pass the project folder itself as the root.",
        );
      }
    }
    if (await isGitDirectory(real)) {
      throw new ToolError(
        "DENIED",
        `workspace root ${given} is a git directory (a bare repository); git internals are on the secrets deny-list`,
        "Pass a work tree (a checked-out project folder) as the root.",
      );
    }
    const max = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    if (!Number.isInteger(max) || max <= 0) {
      throw new ToolError("INVALID_ARGUMENT", "maxFileBytes must be a positive integer", "Pass a size in bytes, e.g. 1048576.");
    }
    const ws = new Workspace(real, given, max, opts.allowHardLinks ?? process.env.CODECITE_ALLOW_HARD_LINKS === "1");
    if (opts.scanCacheDir !== undefined) ws.scanCacheDir = opts.scanCacheDir;
    return ws;
  }

  /**
   * Validates a user/model path lexically and against the deny-list. Returns the normalized
   * repository-relative path (`""` for the root itself: `.`, `./`, or the absolute root).
   * @throws ToolError `INVALID_ARGUMENT` (empty, NUL, too long), `OUTSIDE_ROOT`, `DENIED`.
   */
  normalize(p: string): string {
    const rel = normalizeRelative(p, this.roots);
    if (isDeniedPath(rel)) {
      this.skipped.denied++;
      throw deniedError(rel);
    }
    return rel;
  }

  /** True when a normalized repository-relative path is on the secrets deny-list (`deny-list.ts`). */
  isDenied(rel: string): boolean {
    return isDeniedPath(rel);
  }

  /**
   * {@link normalize}, then the real path: it must exist and lie inside the root, and its
   * repository-relative real path must not be denied either (a symlink to `.env` is denied).
   * `rel` is the normalized requested path; `abs` the real absolute path; `isFile` is false for a
   * folder and for a FIFO, socket or device.
   * @throws ToolError `INVALID_ARGUMENT`, `OUTSIDE_ROOT`, `DENIED`, `NOT_FOUND`.
   */
  async resolve(p: string): Promise<{ rel: string; abs: string; isDirectory: boolean; isFile: boolean }> {
    const rel = this.normalize(p);
    const joined = rel === "" ? this.root : path.join(this.root, ...rel.split("/"));
    let real: string;
    try {
      real = await fsp.realpath(joined);
    } catch (err) {
      // A dangling chain that leaves the root must look exactly like one whose target exists.
      if (await this.leadsOutside(rel)) throw outsideError(rel);
      const code = (err as NodeJS.ErrnoException | undefined)?.code;
      if ((code === "ENOENT" || code === "ENOTDIR") && rel.includes("\uFFFD") && (await this.namesNonUtf8File(rel))) {
        throw new ToolError("NOT_FOUND", `no such file: ${rel} (its name is not UTF-8; \uFFFD stands for the bytes that are not)`, NON_UTF8_NAME_HINT);
      }
      if (code === "ENOENT" || code === "ENOTDIR") {
        const close = await this.closePaths(rel);
        if (close.length > 0) {
          // Each suggestion a location: the CLI shows it as it shows records, so it pastes from where the user is.
          const listed: Clause = close.flatMap((c, i) => [i === 0 ? "'" : "' or '", location(c)]);
          throw new ToolError("NOT_FOUND", `no such file: ${rel}`, joinAdvice([["Did you mean ", ...listed, "'?"]], NOT_FOUND_HINT));
        }
      }
      throw fsError(err, rel);
    }
    this.checkReal(real, rel);
    let st;
    try {
      st = await fsp.stat(real);
    } catch (err) {
      throw fsError(err, rel);
    }
    return { rel, abs: real, isDirectory: st.isDirectory(), isFile: st.isFile() };
  }

  /**
   * Existing paths close to a missing one, for "did you mean": the first missing component of
   * `rel` is matched against the names in its folder (`close-names.ts`), and a candidate is kept
   * when the whole path with it exists and is not denied. At most 3, best first.
   */
  /**
   * True when `rel`'s last component is how a file of its folder whose name is not UTF-8 is shown
   * (each such byte sequence as U+FFFD, as `search_code` reports the name with `non_utf8_path`):
   * that text is not the file's name, so it cannot be opened by it.
   */
  private async namesNonUtf8File(rel: string): Promise<boolean> {
    const slash = rel.lastIndexOf("/");
    const dir = slash === -1 ? this.root : path.join(this.root, ...rel.slice(0, slash).split("/"));
    const shown = rel.slice(slash + 1);
    let names: Buffer[];
    try {
      names = await fsp.readdir(dir, { encoding: "buffer" });
    } catch {
      return false;
    }
    return names.some((n) => n.toString("utf8") === shown && !isUtf8(n));
  }

  private async closePaths(rel: string): Promise<string[]> {
    const parts = rel.split("/");
    let dir = "";
    for (let i = 0; i < parts.length; i++) {
      const seg = parts[i] as string;
      const here = dir === "" ? seg : `${dir}/${seg}`;
      try {
        await fsp.lstat(path.join(this.root, ...here.split("/")));
        dir = here;
        continue;
      } catch {
        // the first missing component
      }
      let names: string[];
      try {
        names = await fsp.readdir(dir === "" ? this.root : path.join(this.root, ...dir.split("/")));
      } catch {
        return [];
      }
      const out: string[] = [];
      for (const name of closeNames(seg, names, 10)) {
        const candidate = [...(dir === "" ? [] : [dir]), name, ...parts.slice(i + 1)].join("/");
        if (isDeniedPath(candidate)) continue;
        try {
          await fsp.lstat(path.join(this.root, ...candidate.split("/")));
        } catch {
          continue;
        }
        out.push(candidate);
        if (out.length === 3) break;
      }
      return out;
    }
    return [];
  }

  /**
   * For a path whose `realpath` failed: follows its symbolic links one component at a time
   * (lexically for absolute targets, at most 40 links) and tells whether the chain leaves the root
   * before it reaches a missing component. Used so that a dangling link to an outside path gives
   * `OUTSIDE_ROOT`, the same answer as a link to an outside file that exists.
   */
  private async leadsOutside(rel: string): Promise<boolean> {
    const queue = rel.split("/");
    let cur = this.root;
    let links = 0;
    while (queue.length > 0) {
      const seg = queue.shift() as string;
      if (seg === "" || seg === ".") continue;
      if (seg === "..") {
        cur = path.dirname(cur);
        if (!isInside(cur, this.root)) return true;
        continue;
      }
      const next = path.join(cur, seg);
      let isLink: boolean;
      try {
        isLink = (await fsp.lstat(next)).isSymbolicLink();
      } catch {
        return false; // a missing component inside the root: NOT_FOUND
      }
      if (!isLink) {
        cur = next;
        continue;
      }
      if (++links > 40) return false;
      let target: string;
      try {
        target = await fsp.readlink(next);
      } catch {
        return false;
      }
      if (path.isAbsolute(target)) {
        let inside: string | undefined;
        try {
          inside = normalizeRelative(target, this.roots);
        } catch {
          return true;
        }
        cur = this.root;
        queue.unshift(...inside.split("/"));
      } else {
        queue.unshift(...target.split(process.platform === "win32" ? /[\\/]/ : "/"));
      }
    }
    return false;
  }

  /** Throws unless `real` is inside the root and its relative form is not denied. */
  private checkReal(real: string, rel: string): void {
    if (!isInside(real, this.root)) throw outsideError(rel);
    const realRel = toPosix(path.relative(this.root, real));
    if (isDeniedPath(realRel)) {
      this.skipped.denied++;
      throw deniedError(rel);
    }
  }

  /** Repository-relative form of a real path inside the root. */
  relativeOf(real: string): string {
    return toPosix(path.relative(this.root, real));
  }

  /**
   * Opens a regular file for reading, race-safely: checked with {@link resolve}, opened with
   * `O_NOFOLLOW | O_NONBLOCK` (a FIFO cannot block us), then the opened descriptor's real path is
   * verified to still be the checked file inside the root. A file with more than one hard link
   * (unless allowed) or holding a private-key block is refused.
   * @param opts.contentScanned the caller scans the whole content for key blocks itself
   *   ({@link readText}); skip the scan here.
   * @throws ToolError as {@link resolve}; `INVALID_ARGUMENT` for a directory or a non-regular file;
   *   `NOT_FOUND` when the file changed between the check and the open; `DENIED` for a hard-linked
   *   file or a private key.
   */
  async openFile(p: string, opts: { contentScanned?: boolean } = {}): Promise<OpenedFile> {
    const r = await this.resolve(p);
    if (r.isDirectory) {
      throw new ToolError("INVALID_ARGUMENT", `${r.rel === "" ? "." : r.rel} is a directory, not a file`, DIRECTORY_HINT);
    }
    // Never opened: opening a device can act on it (a watchdog device starts its timer), and a
    // socket cannot be opened at all (ENXIO).
    if (!r.isFile) throw notRegularFile(r.rel);
    await this[kBeforeOpen]?.(r.abs);
    let handle: FileHandle;
    try {
      handle = await fsp.open(r.abs, READ_FLAGS);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ELOOP" || code === "ENOENT" || code === "ENOTDIR") {
        throw new ToolError("NOT_FOUND", `${r.rel} changed while it was being opened`, "Try again.");
      }
      throw fsError(err, r.rel);
    }
    try {
      const st = await handle.stat();
      this.checkOpened(handle.fd, r.abs, st, r.rel);
      if (opts.contentScanned !== true && (await scanForPrivateKey(handle, st.size))) {
        this.skipped.denied++;
        throw privateKeyError(r.rel);
      }
      return { rel: r.rel, abs: r.abs, handle, size: st.size, mtimeMs: st.mtimeMs };
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw fsError(err, r.rel);
    }
  }

  /**
   * {@link openFile} without promises, for the few files a query re-reads right after ripgrep
   * listed them (`search.ts` checks its hits): the same path checks, the same `open` and the same
   * check of the opened descriptor, each one synchronous call instead of a thread-pool round trip.
   * It never says why a file cannot be opened (the caller drops the file), so it needs none of
   * {@link resolve}'s care about which error a dangling link gets. The private-key scan is the
   * caller's, on the bytes it reads (as `contentScanned` of {@link openFile}).
   * @returns the opened file, or `undefined` whenever {@link openFile} would throw (the refusal
   *   counts in {@link skipped} are kept the same way).
   */
  tryOpenFileSync(p: string): OpenedFileSync | undefined {
    let rel: string;
    let real: string;
    try {
      rel = this.normalize(p);
      real = realpathSync.native(rel === "" ? this.root : path.join(this.root, ...rel.split("/")));
      this.checkReal(real, rel);
      // Never opened unless a regular file (see openFile).
      if (!statSync(real).isFile()) return undefined;
    } catch {
      return undefined;
    }
    void this[kBeforeOpen]?.(real);
    let fd: number;
    try {
      fd = openSync(real, READ_FLAGS);
    } catch {
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      this.checkOpened(fd, real, st, rel);
      return { rel, abs: real, fd, size: st.size, mtimeMs: st.mtimeMs };
    } catch {
      closeSync(fd);
      return undefined;
    }
  }

  /**
   * Confirms that an opened descriptor is the regular file that was checked (see {@link openFile}):
   * its real path (`/proc/self/fd/N` on Linux, else the path resolved again with the same inode)
   * is `expected`, and it has one link unless hard links are allowed. Synchronous: on Linux one
   * `readlink` of procfs.
   * @throws ToolError `NOT_FOUND` (changed), `OUTSIDE_ROOT`/`DENIED` (now leads there), `INVALID_ARGUMENT`
   *   (not a regular file), `DENIED` (hard-linked).
   */
  private checkOpened(fd: number, expected: string, st: Stats, rel: string): void {
    const changed = () => new ToolError("NOT_FOUND", `${rel} changed while it was being opened`, "Try again.");
    let actual = "";
    if (process.platform === "linux") {
      try {
        actual = readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        actual = "";
      }
    }
    if (actual !== "") {
      if (actual !== expected) {
        this.checkReal(actual, rel);
        throw changed();
      }
    } else {
      // Portable fallback: the path must still resolve to itself and to the same inode.
      let again: string;
      let now: Stats;
      try {
        again = realpathSync.native(expected);
        now = statSync(again);
      } catch {
        throw changed();
      }
      if (again !== expected || now.dev !== st.dev || now.ino !== st.ino) throw changed();
    }
    if (!st.isFile()) throw notRegularFile(rel);
    if (st.nlink > 1 && !this.allowHardLinks) {
      this.skipped.denied++;
      throw hardLinkError(rel, st.nlink);
    }
  }

  /**
   * Reads a whole text file (at most `maxFileBytes`), per the module's text rules.
   * @throws ToolError as {@link openFile}; {@link SkippedFileError} (`UNSUPPORTED`) for a binary
   *   file or one over the size cap (both counted in {@link skipped}).
   */
  async readText(p: string): Promise<TextFile> {
    const f = await this.openFile(p, { contentScanned: true });
    try {
      this.checkTextSize(f.rel, f.size, false);
      // Read to EOF with a cap one byte over the limit: the file may have grown since fstat.
      const buf = this.textBuffer(f.size);
      let n = 0;
      for (;;) {
        if (n === buf.length) break;
        const { bytesRead } = await f.handle.read(buf, n, buf.length - n, n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      return this.textOf(f.rel, buf.subarray(0, n), f.mtimeMs);
    } catch (err) {
      throw fsError(err, f.rel); // read errors (EIO …) as typed errors; ToolErrors pass through
    } finally {
      await f.handle.close().catch(() => undefined);
    }
  }

  /**
   * {@link readText} without promises, for the candidate files a query reads right after a listing
   * named them (`lexical-imports.ts`): {@link tryOpenFileSync}'s checks and open, then the same
   * size cap, binary, private-key and decoding rules as {@link readText}, each one synchronous call
   * instead of a thread-pool round trip.
   * @returns `undefined` whenever {@link readText} would throw, with {@link skipped} left as it was:
   *   the caller asks {@link readText} for the reason (and the count).
   */
  readTextSync(p: string): TextFile | undefined {
    const counts = { ...this.skipped };
    const f = this.tryOpenFileSync(p);
    if (f === undefined) {
      Object.assign(this.skipped, counts);
      return undefined;
    }
    try {
      this.checkTextSize(f.rel, f.size, false);
      const buf = this.textBuffer(f.size);
      let n = 0;
      while (n < buf.length) {
        const bytesRead = readSync(f.fd, buf, n, buf.length - n, n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      return this.textOf(f.rel, buf.subarray(0, n), f.mtimeMs);
    } catch {
      Object.assign(this.skipped, counts);
      return undefined;
    } finally {
      closeSync(f.fd);
    }
  }

  /** A buffer for a text file of `size` bytes (as fstat gave it), one byte over the cap at most. */
  private textBuffer(size: number): Buffer {
    return Buffer.alloc(Math.min(this.maxFileBytes + 1, Math.max(size, BINARY_SNIFF_BYTES) + 1));
  }

  /** @throws SkippedFileError `too_large` (counted) when `size` bytes are over the cap (`read`: the size read, not fstat's). */
  private checkTextSize(rel: string, size: number, read: boolean): void {
    if (size <= this.maxFileBytes) return;
    this.skipped.tooLarge++;
    throw new SkippedFileError(
      "too_large",
      rel,
      read ? `${rel} is too large (limit ${formatBytes(this.maxFileBytes)})` : `${rel} is too large (${size} bytes; limit ${formatBytes(this.maxFileBytes)})`,
      advice`Use ${{ kind: "read_range" }}, or ${tool("search_code")}.`,
    );
  }

  /**
   * The text of a file's bytes per the module's text rules.
   * @throws SkippedFileError (counted) over the cap, for a binary file; ToolError `DENIED` for a private key.
   */
  private textOf(rel: string, bytes: Buffer, mtimeMs: number): TextFile {
    this.checkTextSize(rel, bytes.length, true);
    if (sniff(bytes.subarray(0, BINARY_SNIFF_BYTES)).binary) {
      this.skipped.binary++;
      throw new SkippedFileError("binary", rel, `${rel} is a binary file`, "Read a text file instead.");
    }
    if (bytesHavePrivateKeyBlock(bytes)) {
      this.skipped.denied++;
      throw privateKeyError(rel);
    }
    const { text, bom } = decodeText(bytes);
    return { path: rel, text, lines: splitLines(text), size: bytes.length, mtimeMs, bom, crlf: text.includes("\r\n") };
  }

  /**
   * Lists walkable files, sorted by path (UTF-16 code unit order, as `compareEvidence`).
   * Uses `rg --files` (see the module comment for what is never walked). Symbolic links are not
   * listed. Files with non-UTF-8 names are dropped and counted (`skipped.badName`).
   * @param opts.under a file or folder to list (validated like any path; may be inside an
   *   otherwise never-walked folder such as `node_modules/pkg` when named explicitly).
   * @param opts.extensions keep only names ending in one of these (with or without the dot, any case).
   * @param opts.signal aborts the walk (ripgrep is killed; rejects with ToolError `TIMEOUT`).
   * @throws ToolError as {@link resolve} for `under`; `TIMEOUT` after 60 s; `UNSUPPORTED` without ripgrep.
   */
  async listFiles(
    opts: { under?: string; extensions?: readonly string[]; signal?: AbortSignal } = {},
  ): Promise<FileEntry[]> {
    const target = await this.walkTarget(opts.under);
    const exts = opts.extensions?.map((e) => (e.startsWith(".") ? e : `.${e}`).toLowerCase());
    const walked = await this.walkPaths(target, opts.signal);
    const kept = exts ? walked.filter((rel) => exts.some((e) => rel.toLowerCase().endsWith(e))) : walked;
    const entries = await mapLimit(kept, 64, async (rel): Promise<FileEntry | undefined> => {
      try {
        const st = await fsp.lstat(path.join(this.root, rel));
        if (!st.isFile()) return undefined;
        if (st.nlink > 1 && !this.allowHardLinks) {
          this.skipped.hardLinked++;
          return undefined;
        }
        return { path: rel, size: st.size, mtimeMs: st.mtimeMs };
      } catch {
        return undefined;
      }
    });
    const out = entries.filter((e): e is FileEntry => e !== undefined);
    out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return out;
  }

  /**
   * The walkable repository-relative paths under `target` (a real repository-relative path from
   * {@link walkTarget}; `undefined` = the whole root), unsorted: `rg --files` with the hardened
   * arguments, then denied paths, non-UTF-8 names (counted) and virtual envs dropped.
   * @throws ToolError `TIMEOUT` (60 s or `signal`), `UNSUPPORTED` without ripgrep.
   */
  async walkPaths(target: string | undefined, signal?: AbortSignal): Promise<string[]> {
    await this.checkIgnoreFiles();
    const rg = await ripgrepPath(this.root);
    const args = ["--files", "--null", `--threads=${walkThreads()}`, ...baseRipgrepArgs()];
    if (target !== undefined) args.push("--", ripgrepPathArg(target));
    let res;
    try {
      res = await runProcess(rg, args, { cwd: this.root, env: ripgrepEnv(), timeoutMs: WALK_TIMEOUT_MS, signal });
    } catch (err) {
      if (err instanceof ToolError && err.code === "INTERNAL") throw ripgrepMissing(err);
      throw err;
    }
    if (res.timedOut) throw new ToolError("TIMEOUT", "listing files took too long", "Pass a narrower path.");
    // rg exits 1 when no files were found; 2 for (partial) errors such as unreadable folders.
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const rels: string[] = [];
    for (const raw of splitNul(res.stdout)) {
      let rel: string;
      try {
        rel = decoder.decode(raw);
      } catch {
        this.skipped.badName++;
        continue;
      }
      rel = toPosix(rel.startsWith("./") ? rel.slice(2) : rel);
      if (isDeniedPath(rel)) continue;
      rels.push(rel);
    }
    const venvs = await this.virtualEnvFilter(rels);
    return rels.filter((r) => !venvs(r));
  }

  /**
   * Checks, once per workspace, that every ignore file ripgrep would read (`.gitignore`, `.ignore`,
   * `.rgignore` in any walked folder) is a regular file: ripgrep opens them by name, so a FIFO
   * would hang it and a link to `/dev/zero` would fill memory. Folders that are never walked
   * (`.git`, {@link NEVER_WALK_DIRS}, denied folders) and symbolic links are not entered. A
   * symbolic link named like an ignore file must lead to a regular file inside the root
   * (ripgrep follows it when reading). With a `scanCacheDir` ({@link Workspace.open}) a folder
   * whose stamps are unchanged since an earlier scan read it is taken from that scan's snapshot
   * (`fact-cache/scan-snapshot.ts`) instead of being read; its ignore files that are links are
   * checked again all the same, and every other folder is read.
   * @throws ToolError `UNSUPPORTED` naming the file, repository-relative (never a host path).
   */
  checkIgnoreFiles(): Promise<void> {
    this.ignoreScan ??= this.scanIgnoreFiles();
    return this.ignoreScan;
  }

  private async isLinkToInsideFile(rel: string): Promise<boolean> {
    try {
      const real = await fsp.realpath(path.join(this.root, rel));
      return isInside(real, this.root) && (await fsp.stat(real)).isFile();
    } catch {
      return false;
    }
  }

  /**
   * The scan behind {@link checkIgnoreFiles}. Folders are read synchronously, in batches of
   * {@link IGNORE_SCAN_BATCH} with a turn of the event loop between batches: one promise-based
   * `readdir` costs several times the read itself (a thread-pool round trip per folder), which a
   * fresh CLI process pays for every folder of the tree, while a server stays responsive.
   */
  private async scanIgnoreFiles(): Promise<void> {
    // ripgrep 15 still opens the ignore files of the folders above the root with
    // --no-ignore-parent (it does not apply their rules): a FIFO there would hang it too.
    let dir = this.root;
    for (let up = 1; path.dirname(dir) !== dir; up++) {
      dir = path.dirname(dir);
      for (const name of IGNORE_FILE_NAMES) {
        let st;
        try {
          st = statSync(path.join(dir, name));
        } catch {
          continue;
        }
        if (!st.isFile() && !st.isDirectory()) {
          throw new ToolError(
            "UNSUPPORTED",
            `the ignore file ${name} ${up} folder(s) above the root is ${st.isFIFO() ? "a FIFO" : st.isSocket() ? "a socket" : "a device"}, not a regular file; searching would hang on it`,
            "Remove it or replace it with a regular file (ignore files above the root are not applied, but ripgrep opens them).",
          );
        }
      }
    }
    const startedMs = Date.now();
    const names = new Set(IGNORE_FILE_NAMES);
    const skip = new Set([".git", ...NEVER_WALK_DIRS]);
    // Folder paths by concatenation: the root is a real path and `rel` is made of entry names, so
    // there is nothing for path.join to normalise (one call per folder: perf, issue 17).
    const base = this.root.endsWith(path.sep) ? this.root : `${this.root}${path.sep}`;
    const snapFile = this.scanCacheDir === undefined ? undefined : snapshotFile(this.scanCacheDir, this.root);
    const rules = snapFile === undefined ? "" : scanRules();
    const old = snapFile === undefined ? undefined : readSnapshot(snapFile, this.root, rules);
    const folders = new Map<string, ScannedFolder>();
    let reread = old === undefined;
    const stack: string[] = [""];
    const venvDirs = new Map<string, boolean>();
    const subfolders = new Map<string, string[]>();
    let seen = 0;
    let read = 0;
    while (stack.length > 0) {
      if (++read % IGNORE_SCAN_BATCH === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const rel = stack.pop() as string;
      const abs = rel === "" ? this.root : base + rel;
      let folder: ScannedFolder | undefined;
      let stamp: { stamp: string; ctimeMs: number } | undefined;
      if (snapFile !== undefined) {
        // The stamp is taken before the folder is read: a change after it gives a new stamp.
        try {
          const st = lstatSync(abs, { bigint: true });
          stamp = { stamp: folderStamp(st), ctimeMs: Number(st.ctimeMs) };
        } catch {
          stamp = undefined;
        }
        const was = old?.folders.get(rel);
        if (was !== undefined && stamp !== undefined && folderUnchanged(was, stamp.stamp, (old as ScanSnapshot).startedMs)) folder = was;
      }
      if (folder !== undefined) {
        this[kScanCounts].reused++;
        // Unchanged since it was read: only its ignore files that are links can lead elsewhere now.
        for (const name of folder.links) {
          const child = rel === "" ? name : `${rel}/${name}`;
          if (!(await this.isLinkToInsideFile(child))) throw notRegularIgnoreFile(child, "a symbolic link");
        }
      } else {
        reread = true;
        this[kScanCounts].read++;
        let entries;
        try {
          entries = readdirSync(abs, { withFileTypes: true });
        } catch {
          continue;
        }
        folder = { stamp: stamp?.stamp ?? "", ctimeMs: stamp?.ctimeMs ?? Infinity, entries: entries.length, subs: [], venv: false, links: [] };
        for (const e of entries) {
          // A marker that is a link is looked up later (existsSync follows it).
          if (e.name === VENV_MARKER) folder.venv = e.isSymbolicLink() ? null : true;
          const named = names.has(e.name);
          const dir = e.isDirectory();
          if (!named && (!dir || skip.has(e.name))) continue; // most entries: no path string made
          const child = rel === "" ? e.name : `${rel}/${e.name}`;
          if (named && !dir && !e.isFile()) {
            if (!(await this.isLinkToInsideFile(child))) {
              throw notRegularIgnoreFile(child, e.isSymbolicLink() ? "a symbolic link" : e.isFIFO() ? "a FIFO" : e.isSocket() ? "a socket" : "a device");
            }
            folder.links.push(e.name);
          }
          if (dir && !skip.has(e.name)) folder.subs.push(e.name);
        }
      }
      seen += folder.entries;
      if (seen > MAX_IGNORE_SCAN_ENTRIES) return; // a huge tree: ripgrep's time limit still applies
      if (stamp !== undefined) folders.set(rel, folder);
      subfolders.set(rel, folder.subs);
      for (const name of folder.subs) {
        const child = rel === "" ? name : `${rel}/${name}`;
        if (!isDeniedPath(child)) stack.push(child);
      }
      if (folder.venv !== null) venvDirs.set(rel, folder.venv);
    }
    if (snapFile !== undefined && (reread || folders.size !== old?.folders.size)) {
      writeSnapshot(snapFile, this.root, rules, { startedMs, folders });
    }
    this.venvSeen = { at: Date.now(), dirs: venvDirs };
    this.foldersSeen = { startedMs, subfolders };
  }

  /**
   * The names of the subfolders of the repository-relative folder `rel` ("" = the root) as this
   * workspace's ignore-file scan read them — entries that are folders and not symbolic links
   * (`Dirent.isDirectory`), other than `.git` and {@link NEVER_WALK_DIRS}, in the order `readdir`
   * gave them — when that scan was complete, started at or after `sinceMs` (`Date.now()`) and read
   * `rel`; else `undefined` (the caller reads the folder itself). A caller that stamps folders
   * after `sinceMs` (`project-view.ts`, its racy rule) so reuses the scan's read of each folder
   * instead of reading it again (perf, issue 17: 89 folders of the C/C++ bench tree, 15–25 ms CPU
   * of a first query).
   */
  subfoldersSeen(rel: string, sinceMs: number): readonly string[] | undefined {
    const seen = this.foldersSeen;
    if (seen === undefined || seen.startedMs < sinceMs) return undefined;
    return seen.subfolders.get(rel);
  }

  /**
   * Validates a walk/search target and returns its real repository-relative path (`undefined`
   * for the whole root). The target must be a folder or a regular file: a FIFO or device would
   * block the reader.
   * @throws ToolError as {@link resolve}; `INVALID_ARGUMENT` for anything but a folder or a regular file.
   */
  async walkTarget(under: string | undefined): Promise<string | undefined> {
    if (under === undefined) return undefined;
    const r = await this.resolve(under);
    if (!r.isDirectory) {
      let regular: boolean;
      try {
        regular = (await fsp.stat(r.abs)).isFile();
      } catch (err) {
        throw fsError(err, r.rel);
      }
      if (!regular) {
        throw new ToolError(
          "INVALID_ARGUMENT",
          `${r.rel} is neither a folder nor a regular file`,
          "Pass a folder or the path of a regular text file.",
        );
      }
    }
    const realRel = this.relativeOf(r.abs);
    return realRel === "" ? undefined : realRel;
  }

  /**
   * Returns a predicate telling whether a repository-relative file lies in a Python virtual
   * environment (a folder holding `pyvenv.cfg`), checking each ancestor folder of the given
   * files once: from the listing of the ignore-file scan when it read that folder less than
   * {@link VENV_SCAN_FRESH_MS} ago, else with a lookup.
   */
  async virtualEnvFilter(rels: readonly string[]): Promise<(rel: string) => boolean> {
    const dirs = new Set<string>();
    for (const rel of rels) {
      let i = rel.lastIndexOf("/");
      while (i > 0) {
        const d = rel.slice(0, i);
        if (dirs.has(d)) break;
        dirs.add(d);
        i = d.lastIndexOf("/");
      }
    }
    const listed = new Set(rels);
    const venvDirs = new Set<string>();
    const check = [...dirs];
    // A folder the ignore-file scan of this query read is answered from its listing (one lookup
    // per folder of the hits otherwise: perf, issue 17).
    const seen = this.venvSeen !== undefined && Date.now() - this.venvSeen.at <= VENV_SCAN_FRESH_MS ? this.venvSeen.dirs : undefined;
    // Synchronous checks (perf, J): a walk of 10k files asks ~1k folders; one `access` call costs a
    // few µs, its promise tens of µs.
    for (const d of check) {
      if (listed.has(`${d}/${VENV_MARKER}`)) {
        venvDirs.add(d);
        continue;
      }
      const known = seen?.get(d);
      if (known !== undefined) {
        if (known) venvDirs.add(d);
        continue;
      }
      if (existsSync(path.join(this.root, d, VENV_MARKER))) venvDirs.add(d);
    }
    if (venvDirs.size === 0) return () => false;
    return (rel: string) => {
      let i = rel.lastIndexOf("/");
      while (i > 0) {
        const d = rel.slice(0, i);
        if (venvDirs.has(d)) return true;
        i = d.lastIndexOf("/");
      }
      return false;
    };
  }
}

/** The refusal of an ignore file that is not a regular file (`what`: "a FIFO", "a symbolic link" …). */
function notRegularIgnoreFile(rel: string, what: string): ToolError {
  return new ToolError(
    "UNSUPPORTED",
    `the ignore file ${rel} is ${what}, not a regular file; it is never read, and searching would hang on it`,
    "Replace it with a regular file (or remove it), then search again.",
  );
}

/** What decides the ignore-file scan's listing, as its snapshot is keyed (`fact-cache/scan-snapshot.ts`). */
function scanRules(): string {
  return [...IGNORE_FILE_NAMES, VENV_MARKER, ...baseRipgrepArgs()].join("\0");
}

/** True when `dir` is a git directory itself: `HEAD` file, `objects/` and `refs/` folders (gitrepository-layout(5)). */
async function isGitDirectory(dir: string): Promise<boolean> {
  try {
    const [head, objects, refs] = await Promise.all(["HEAD", "objects", "refs"].map((n) => fsp.stat(path.join(dir, n))));
    return head!.isFile() && objects!.isDirectory() && refs!.isDirectory();
  } catch {
    return false;
  }
}

/** Reads up to {@link MAX_SECRET_SCAN_BYTES} of an opened file and looks for a private-key block. */
async function scanForPrivateKey(handle: FileHandle, size: number): Promise<boolean> {
  const buf = Buffer.alloc(Math.min(Math.max(size, 0), MAX_SECRET_SCAN_BYTES));
  let n = 0;
  while (n < buf.length) {
    const { bytesRead } = await handle.read(buf, n, buf.length - n, n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return bytesHavePrivateKeyBlock(buf.subarray(0, n));
}

/** Splits NUL-separated output into its non-empty parts. */
function splitNul(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (;;) {
    const i = buf.indexOf(0, start);
    if (i < 0) {
      if (start < buf.length) out.push(buf.subarray(start));
      return out;
    }
    if (i > start) out.push(buf.subarray(start, i));
    start = i + 1;
  }
}
