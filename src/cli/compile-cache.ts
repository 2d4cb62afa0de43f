/**
 * Runs the CLI's query bundle (one CommonJS file, `scripts/bundle-cli.ts`) with a V8 code cache,
 * so that a fresh process deserializes the compiled functions of its command instead of parsing
 * and compiling them again. Node 20 has no compile cache for modules (`module.enableCompileCache`
 * came in Node 22.1), so the file is compiled here with `vm.Script` and `cachedData` (Node
 * documentation "vm": `new vm.Script(code, { cachedData })`, `script.createCachedData()`,
 * `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`). The cache is made after the command ran, so
 * it holds the functions that command compiled (lazily compiled functions included), one cache
 * file per command.
 *
 * Cached data is executed, so it is read only from a folder of the user's own:
 * `<cache folder>/v8-code/` (the fact cache's folder, `fact-cache/cache-dir.ts`), created with mode
 * 0700, used only when it is a real folder (not a symbolic link) owned by the user and not
 * writable by group or others; a cache file must be a regular file owned by the user, with one
 * link and no group/other write permission (checked on the opened descriptor). Files are written
 * with mode 0600 under a temporary name and renamed into place. Where the user id is unknown
 * (Windows), no cache is used. Nor is one kept inside a project (a `--root` of the command line,
 * the git work tree holding the current folder, or the current folder when it is the root),
 * however `$CODECITE_CACHE_DIR` reaches it (a relative value, a CI workspace): a repository's files belong to the user too, so a
 * repository could ship cache files that pass every check above. V8 itself rejects data made by another V8 version or with other
 * flags (`cachedDataRejected`); the file name also holds the bundle's size, modification time,
 * device and inode and the Node version and architecture, so a rebuilt bundle never meets the
 * cache of an older one (whose file is removed when the new one is written; each installed copy,
 * by its path, keeps its own). Any failure means running without the cache, never an error.
 *
 * V8 checks the data's header (magic number, V8 version, flags, source hash, length) but, in
 * release builds, not its payload (`--verify-snapshot-checksum` is off by default): a cache file
 * damaged in its middle (a disk error, a write lost in a crash) stops the process in the
 * deserializer ("Fatal error … unreachable code") on every later run. So each file starts with
 * the CRC-32 of the V8 data after it (`zlib.crc32`, big-endian), and data whose checksum does not
 * match is never handed to V8 (the file is replaced). A checksum, not a cryptographic digest: it
 * guards against damage, not against a forger (who would need to own the private folder above);
 * and `node:crypto` costs a search process, which needs nothing else of it, about 5 ms of CPU to
 * load (perf, issue 17).
 */
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, constants as fsc } from "node:fs";
import { isAscii } from "node:buffer";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { crc32 } from "node:zlib";
import { isOwnPrivate, realpathNearest, resolveCacheDir, type CacheDirEnv } from "../fact-cache/cache-dir.js";
import { gitWorkTreeTop, isInside } from "../paths.js";

/** The commands the query bundle holds (every other command runs from the ES module bundle). */
export const QUERY_BUNDLE_COMMANDS: readonly string[] = Object.freeze(["search", "symbol", "importers", "refs", "read", "diff"]);

/**
 * The function expression a CommonJS module's code runs in (as Node's module loader wraps it):
 * `WRAPPER_START + code + WRAPPER_END`.
 */
export const WRAPPER_START = "(function (exports, require, module, __filename, __dirname) {";
/** See {@link WRAPPER_START}. */
export const WRAPPER_END = "\n})";

/** Largest cache file read (bytes); a larger one is ignored. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** Length of the checksum that starts every cache file (see the module comment). */
const DIGEST_BYTES = 4;

/** The checksum of `data` as stored: its CRC-32, 4 bytes big-endian. */
function digestOf(data: Uint8Array): Buffer {
  const out = Buffer.alloc(DIGEST_BYTES);
  out.writeUInt32BE(crc32(data));
  return out;
}

/** How a run used the code cache. */
export type CodeCacheStatus =
  /** the cached data was accepted */
  | "used"
  /** V8 rejected the cached data (another V8 version or flags); it is replaced */
  | "rejected"
  /** no usable cache file (none yet, or one that failed the checks or its checksum); one is written */
  | "absent"
  /** no usable cache folder (see the module comment); nothing is read or written */
  | "off";

/** The outcome of {@link runCachedScript}. */
export interface CodeCacheRun {
  status: CodeCacheStatus;
  /** The cache file (absent when `status` is `off`). */
  cacheFile?: string;
  /** `module.exports` of the script after its top level ran. */
  exports: unknown;
  /** Writes the cache now (status `absent` or `rejected`; otherwise does nothing). */
  save(): void;
}

/** Options of {@link runCachedScript}. */
export interface CodeCacheOptions {
  /** Names the cache file (`[a-z0-9-]`), e.g. `query-search`: one cache per command. */
  name: string;
  /** The cache folder's parent; default {@link resolveCacheDir} of `env`. */
  cacheDir?: string;
  /** Environment for {@link resolveCacheDir}; default `process.env`. */
  env?: CacheDirEnv;
  /** Write the cache when the process exits (default true); false: the caller calls `save`. */
  saveAtExit?: boolean;
  /** Folders the cache must not lie in; default {@link projectFolders} of this process. */
  projectDirs?: readonly string[];
  /**
   * The file holds the wrapper function expression itself (`WRAPPER_START` first, `WRAPPER_END`
   * last, as the build writes the query bundles), so its text is compiled as read: joining the
   * wrapper to half a megabyte of code makes V8 copy it once more. Default false: the file is a
   * plain CommonJS module.
   */
  wrapped?: boolean;
}

/**
 * Runs a CommonJS file in this context as Node's module loader would (`exports`, `require`
 * relative to the file, `module`, `__filename`, `__dirname`; dynamic `import()` through the main
 * loader), compiled with the cached data of an earlier run when there is one.
 * @param file absolute path or `file:` URL of the script.
 * @throws whatever the script's top level throws; cache problems never throw.
 */
export function runCachedScript(file: string | URL, opts: CodeCacheOptions): CodeCacheRun {
  const filename = typeof file === "string" ? file : fileURLToPath(file);
  const bytes = readFileSync(filename);
  // An ASCII file (the query bundle is) becomes a one-byte string without UTF-8 decoding.
  const source = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  const cacheFile = cacheFileFor(filename, opts);
  const cachedData = cacheFile === undefined ? undefined : readOwnFile(cacheFile);
  const script = new vm.Script(opts.wrapped === true ? source : `${WRAPPER_START}${source}${WRAPPER_END}`, {
    filename,
    ...(cachedData === undefined ? {} : { cachedData }),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const status: CodeCacheStatus =
    cacheFile === undefined ? "off" : cachedData === undefined ? "absent" : script.cachedDataRejected === true ? "rejected" : "used";
  let saved = false;
  const save = (): void => {
    if (saved || cacheFile === undefined || status === "used") return;
    saved = true;
    writeCache(cacheFile, script.createCachedData(), `${opts.name}-${installTag(filename)}`);
  };
  if (opts.saveAtExit !== false && (status === "absent" || status === "rejected")) process.once("exit", save);
  const mod = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(filename), mod, filename, path.dirname(filename));
  return { status, ...(cacheFile === undefined ? {} : { cacheFile }), exports: mod.exports, save };
}

/** The cache file of `filename` in a private cache folder, or undefined when there is none. */
function cacheFileFor(filename: string, opts: CodeCacheOptions): string | undefined {
  if (typeof process.getuid !== "function" || !/^[a-z0-9-]+$/.test(opts.name)) return undefined;
  try {
    const dir = path.join(opts.cacheDir ?? resolveCacheDir(opts.env ?? process.env), "v8-code");
    const real = realpathNearest(dir);
    if ((opts.projectDirs ?? projectFolders(process.argv, process.cwd())).some((p) => isInside(real, realpathNearest(p)))) return undefined;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || !isOwnPrivate(st)) return undefined;
    const b = statSync(filename);
    const id = [b.size, Math.trunc(b.mtimeMs), b.dev, b.ino, process.version, process.arch].join("-");
    return path.join(dir, `${opts.name}-${installTag(filename)}-${id.replace(/[^A-Za-z0-9.-]/g, "_")}.bin`);
  } catch {
    return undefined;
  }
}

/**
 * The folders a query command may read as its project: each `--root` value of `argv` (relative
 * to `cwd`) and the git work tree holding `cwd` ({@link gitWorkTreeTop}); `cwd` itself when
 * neither exists (the command's root is then `cwd`, `defaultRoot` of `locations.ts`).
 */
function projectFolders(argv: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  argv.forEach((a, i) => {
    const value = a === "--root" ? argv[i + 1] : a.startsWith("--root=") ? a.slice("--root=".length) : undefined;
    if (value) out.push(path.resolve(cwd, value));
  });
  const top = gitWorkTreeTop(cwd);
  if (top !== undefined) out.push(top);
  else if (out.length === 0) out.push(cwd);
  return out;
}

/** 8 hex digits (CRC-32) of the script's path: each installed copy keeps its own caches. */
function installTag(filename: string): string {
  return crc32(filename).toString(16).padStart(8, "0");
}

/**
 * The V8 data of a cache file when it is a private regular file of this user whose checksum
 * matches its data (see the module comment).
 */
function readOwnFile(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1 || !isOwnPrivate(st) || st.size <= DIGEST_BYTES || st.size > MAX_CACHE_BYTES) return undefined;
    const bytes = readFileSync(fd);
    const data = bytes.subarray(DIGEST_BYTES);
    return digestOf(data).equals(bytes.subarray(0, DIGEST_BYTES)) ? data : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes `data` after its checksum as `file` (mode 0600, temporary name, then rename) and removes
 * the older caches that start with `name`.
 */
function writeCache(file: string, data: Buffer, name: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([digestOf(data), data]), { mode: 0o600, flag: "wx" });
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
    return;
  }
  // The caches of earlier builds of the bundle (same name, other id).
  const dir = path.dirname(file);
  const older = new RegExp(`^${name}-\\d+-\\d+-\\d+-\\d+-.*\\.bin$`);
  try {
    for (const f of readdirSync(dir)) if (f !== path.basename(file) && older.test(f)) rmSync(path.join(dir, f), { force: true });
  } catch {
    // leftovers are harmless
  }
}
