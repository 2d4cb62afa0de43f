/**
 * A per-root snapshot of what the Workspace's ignore-file scan (`evidence/sandbox/workspace.ts`
 * `checkIgnoreFiles`) read of each folder, kept in the cache folder so that a fresh process
 * checks each folder's stamps (one `lstat`) instead of reading it again (perf, issue 17: the
 * large bench tree's 881 folders took 20–38 ms to read before every search).
 *
 * A folder's entry holds its stamps (device, inode, mtime, ctime, in ns) and what the scan needs
 * of its listing. It is used only while all four stamps are unchanged and its ctime lies at least
 * {@link RACY_WINDOW_MS} (`cache-dir.ts`) before the start of the scan that read it (the racy rule of
 * `fact-store.ts`): adding, removing or renaming an entry, or swapping an ignore file for a FIFO,
 * changes the folder's mtime and ctime, a `chmod` its ctime, a folder put in its place its inode.
 *
 * Where it is kept, by the rules of the fact cache (`fact-store.ts`, `cache-dir.ts`): in the cache
 * folder, never inside the project (the root or the git work tree holding it); the folder must be
 * private, and the file a regular file of the user's with one link, checked on the opened
 * descriptor (`O_NOFOLLOW`). It is written under a temporary name with mode 0600 and renamed into
 * place. The file is named by the root's basename and the CRC-32 of its real path (`node:zlib`,
 * which the CLI loads anyway; `node:crypto` costs a search about 5 ms to load) and holds the root
 * and a key of the scan's rules, so a file of another root or of other rules is never used. Any
 * failure means scanning as without a snapshot, never an error.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync, constants as fsc } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { gitWorkTreeTop, isInside } from "../paths.js";
import { cacheFileBase, cacheFolderProblem, isOwnPrivate, RACY_WINDOW_MS, realpathNearest } from "./cache-dir.js";

/** Layout version of the file. */
const LAYOUT = 1;

/** Largest snapshot file read (bytes); a larger one is ignored. */
const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;

/** What the scan kept of one folder it read. */
export interface ScannedFolder {
  /** `dev:ino:mtimeNs:ctimeNs` of the folder (`lstat`, bigint) when it was read. */
  stamp: string;
  /** Its ctime in ms (for the racy rule). */
  ctimeMs: number;
  /** Entries the folder held (the scan's entry limit counts them). */
  entries: number;
  /** Names of its subfolders the scan entered or listed (see `Workspace.subfoldersSeen`). */
  subs: string[];
  /** Whether it holds the virtual-env marker (`null`: the marker is a symbolic link, looked up later). */
  venv: boolean | null;
  /** Names of its ignore files that are symbolic links (checked again on every use). */
  links: string[];
}

/** A complete scan: when it started (`Date.now()`) and each folder it read, repository-relative. */
export interface ScanSnapshot {
  startedMs: number;
  folders: Map<string, ScannedFolder>;
}

interface SnapshotFile {
  v: number;
  root: string;
  rules: string;
  startedMs: number;
  folders: [string, ScannedFolder][];
}

/** The stamp of a folder as {@link ScannedFolder.stamp} holds it. */
export function folderStamp(st: { dev: bigint; ino: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
}

/**
 * Whether a stored folder may stand for the folder now: same stamp, and not racy against the
 * scan that read it.
 */
export function folderUnchanged(entry: ScannedFolder, stampNow: string, startedMs: number): boolean {
  return entry.stamp === stampNow && entry.ctimeMs < startedMs - RACY_WINDOW_MS;
}

/**
 * The snapshot file of `root` in `cacheDir`, or `undefined` when none may be kept there (the
 * folder is inside the project, or cannot be made private).
 * @param root the root's real path.
 */
export function snapshotFile(cacheDir: string, root: string): string | undefined {
  const dir = path.resolve(cacheDir);
  const realDir = realpathNearest(dir);
  const top = gitWorkTreeTop(root);
  if (isInside(realDir, root) || (top !== undefined && isInside(realDir, top))) return undefined;
  const name = snapshotName(root);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return undefined;
  }
  return cacheFolderProblem(dir, [name]) === undefined ? path.join(dir, name) : undefined;
}

/** The name of the snapshot file of `root` (its real path) in a cache folder. */
export function snapshotName(root: string): string {
  return `${cacheFileBase(root)}-${crc32(root).toString(16).padStart(8, "0")}.scan.json`;
}

/** Reads the snapshot of `root` made under `rules`; `undefined` when there is none usable. */
export function readSnapshot(file: string, root: string, rules: string): ScanSnapshot | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1 || !isOwnPrivate(st) || st.size > MAX_SNAPSHOT_BYTES) return undefined;
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    const data = JSON.parse(buf.toString("utf8", 0, at)) as Partial<SnapshotFile>;
    if (data.v !== LAYOUT || data.root !== root || data.rules !== rules || typeof data.startedMs !== "number" || !Array.isArray(data.folders)) return undefined;
    const folders = new Map<string, ScannedFolder>();
    for (const item of data.folders) {
      if (!Array.isArray(item) || typeof item[0] !== "string" || !isScannedFolder(item[1])) return undefined;
      folders.set(item[0], item[1]);
    }
    return { startedMs: data.startedMs, folders };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isScannedFolder(v: unknown): v is ScannedFolder {
  if (typeof v !== "object" || v === null) return false;
  const f = v as Record<string, unknown>;
  const names = (a: unknown) => Array.isArray(a) && a.every((s) => typeof s === "string");
  return (
    typeof f.stamp === "string" &&
    typeof f.ctimeMs === "number" &&
    typeof f.entries === "number" &&
    names(f.subs) &&
    names(f.links) &&
    (f.venv === true || f.venv === false || f.venv === null)
  );
}

/** Writes the snapshot of `root` (a temporary file renamed into place); failures are ignored. */
export function writeSnapshot(file: string, root: string, rules: string, snap: ScanSnapshot): void {
  const data: SnapshotFile = { v: LAYOUT, root, rules, startedMs: snap.startedMs, folders: [...snap.folders] };
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600, flag: "wx" });
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
