/**
 * Runs a helper program (ripgrep, git) safely: an argv array (never a shell), a scrubbed
 * environment, a timeout, an abort signal, a stdout byte cap and early stop by the consumer.
 * Argument errors that Node throws synchronously (e.g. a NUL byte, `ERR_INVALID_ARG_VALUE`) become
 * `ToolError INVALID_ARGUMENT` instead of crashing the process (Node `child_process.spawn` throws them before starting a child).
 * An exception thrown by the `onStdout` consumer kills the child and rejects the promise (it
 * would otherwise escape from a stream event handler and end the whole process). The promise
 * settles only after the child has exited and been reaped (`close`), so no zombie is left.
 *
 * With `spoolStdout` the program writes its standard output to an unlinked temporary file (see
 * {@link openSpool}) that is read every {@link SPOOL_POLL_MS} and once more at exit, instead of to a
 * pipe: ripgrep writes once per file with matches, and a pipe wakes the reader for every one of
 * those writes (about 1,700 for a common name in a 10k-file tree, ~30 ms of CPU in streams code);
 * the file is read in a handful of large pieces. The consumer sees the same bytes in the same
 * order, and stopping, the timeout and the byte cap work as with a pipe, each checked at every read.
 */
import type { ChildProcess } from "node:child_process";
import { closeSync, constants as fsc, fstatSync, openSync, promises as fsp, readSync, statfsSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { cancelledError, ToolError } from "../evidence.js";

/**
 * `child_process.spawn`, loaded on first use: the module (with the stream and socket code it pulls
 * in) costs a fresh process a few ms, and a warm query answered from the fact cache starts no child.
 */
let spawnFn: typeof import("node:child_process").spawn | undefined;
function spawn(...args: Parameters<typeof import("node:child_process").spawn>): ChildProcess {
  spawnFn ??= (createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process")).spawn;
  return spawnFn(...args);
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Kill the process after this many ms; the result then has `timedOut: true`. */
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Receives stdout chunks as they arrive. Return `"stop"` to kill the process early (the
   * result then has `stopped: true`). When absent, stdout is collected into `stdout`.
   */
  onStdout?: (chunk: Buffer) => "stop" | void;
  /** Collect at most this many stdout bytes (when `onStdout` is absent); more sets `overflow` and kills. */
  maxStdoutBytes?: number;
  /** Keep at most this many stderr bytes (default 64 KiB). */
  maxStderrBytes?: number;
  /** Written to the program's standard input, which is then closed (default: no standard input). */
  input?: Buffer;
  /**
   * Send the program's standard output through an unlinked temporary file read in batches (see the
   * module comment) instead of a pipe; a pipe is used when no such file can be made.
   */
  spoolStdout?: boolean;
}

/** How often (ms) a spooled standard output is read while the program runs. */
const SPOOL_POLL_MS = 20;
/**
 * Free space the temporary folder must have for a spooled output: 256 MiB. A full file system would
 * make the program's writes fail (ripgrep reports each and goes on: the output would lack them).
 */
const SPOOL_MIN_FREE_BYTES = 256 * 1024 * 1024;
/** Most bytes of a spooled standard output read at once: 1 MiB. */
const SPOOL_READ_BYTES = 1024 * 1024;

/**
 * Opens a new temporary file for a program's standard output and unlinks it at once: only the
 * descriptor (and the child's copy of it) reaches the data, nothing is left behind if the process
 * dies, and the file is never seen by a walk of the repository even when the temporary folder lies
 * inside it. Created with `O_EXCL | O_NOFOLLOW`, mode 0600. `undefined` when that fails (no
 * writable temporary folder, less than {@link SPOOL_MIN_FREE_BYTES} free there, or a platform that
 * cannot unlink an open file): the caller uses a pipe.
 */
function openSpool(): number | undefined {
  const dir = tmpdir();
  try {
    const fsStat = statfsSync(dir);
    if (fsStat.bavail * fsStat.bsize < SPOOL_MIN_FREE_BYTES) return undefined;
  } catch {
    return undefined;
  }
  const name = path.join(dir, `codecite-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}.out`);
  let fd: number;
  try {
    fd = openSync(name, fsc.O_RDWR | fsc.O_CREAT | fsc.O_EXCL | (fsc.O_NOFOLLOW ?? 0), 0o600);
  } catch {
    return undefined;
  }
  try {
    unlinkSync(name);
    return fd;
  } catch {
    closeSync(fd);
    try {
      unlinkSync(name);
    } catch {
      // nothing more to do
    }
    return undefined;
  }
}

export interface RunResult {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
  stopped: boolean;
  overflow: boolean;
  /** Standard output went through a temporary file (`spoolStdout`), not a pipe. */
  spooled: boolean;
}

/**
 * Spawns `command` with `args` and resolves when it exits.
 * @throws ToolError `INVALID_ARGUMENT` when Node rejects the arguments, `TIMEOUT` is NOT thrown
 *   (see `timedOut`), `INTERNAL` when the program cannot be started, and rejects with the
 *   signal's reason ToolError `TIMEOUT` ("aborted") when `signal` aborts; rejects with what
 *   `onStdout` threw (a non-ToolError becomes `INTERNAL`).
 */
export function runProcess(command: string, args: readonly string[], opts: RunOptions): Promise<RunResult> {
  if (opts.signal?.aborted) return Promise.reject(abortError(opts.signal));
  return new Promise((resolve, reject) => {
    let child: ReturnType<typeof spawn>;
    let spool = opts.spoolStdout === true ? openSpool() : undefined;
    const spooled = spool !== undefined;
    const closeSpool = () => {
      if (spool !== undefined) closeSync(spool);
      spool = undefined;
    };
    try {
      child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: [opts.input === undefined ? "ignore" : "pipe", spool ?? "pipe", "pipe"], shell: false });
    } catch (err) {
      closeSpool();
      const code = (err as NodeJS.ErrnoException).code;
      reject(
        code === "ERR_INVALID_ARG_VALUE" || code === "ERR_INVALID_ARG_TYPE"
          ? new ToolError(
              "INVALID_ARGUMENT",
              "an argument contains a character that cannot be passed to a program",
              "Remove NUL bytes and other control characters from the arguments.",
            )
          : new ToolError("INTERNAL", `cannot start ${command}: ${(err as Error).message}`, `Check that ${command} is installed.`),
      );
      return;
    }
    if (opts.input !== undefined && child.stdin !== null) {
      // A program that exits without reading all of it closes the pipe (EPIPE): its exit code tells.
      child.stdin.on("error", () => undefined);
      child.stdin.end(opts.input);
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = "";
    const maxErr = opts.maxStderrBytes ?? 65536;
    let timedOut = false;
    let stopped = false;
    let overflow = false;
    let aborted = false;
    let consumerError: unknown;
    let settled = false;
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const take = (chunk: Buffer) => {
      if (stopped || overflow || timedOut) return;
      if (opts.onStdout) {
        if (consumerError !== undefined) return;
        let verdict: "stop" | void;
        try {
          verdict = opts.onStdout(chunk);
        } catch (err) {
          consumerError = err ?? new Error("stdout consumer failed");
          kill();
          return;
        }
        if (verdict === "stop") {
          stopped = true;
          kill();
        }
        return;
      }
      const cap = opts.maxStdoutBytes ?? Number.POSITIVE_INFINITY;
      if (bytes + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - bytes));
        bytes = cap;
        overflow = true;
        kill();
        return;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    };
    child.stdout?.on("data", take);
    // A spooled output: what the program wrote since the last read, in pieces of at most SPOOL_READ_BYTES.
    let spoolAt = 0;
    const drain = () => {
      while (spool !== undefined && !stopped && !overflow && !timedOut && consumerError === undefined) {
        let chunk: Buffer;
        try {
          const size = fstatSync(spool).size;
          if (size <= spoolAt) return;
          chunk = Buffer.allocUnsafe(Math.min(size - spoolAt, SPOOL_READ_BYTES));
          chunk = chunk.subarray(0, readSync(spool, chunk, 0, chunk.length, spoolAt));
        } catch (err) {
          consumerError = err ?? new Error("reading the output failed");
          kill();
          return;
        }
        if (chunk.length === 0) return;
        spoolAt += chunk.length;
        take(chunk);
      }
    };
    let poll: NodeJS.Timeout | undefined;
    const schedule = () => {
      poll = setTimeout(() => {
        drain();
        schedule();
      }, SPOOL_POLL_MS);
    };
    if (spool !== undefined) schedule();
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < maxErr) stderr += chunk.toString("utf8").slice(0, maxErr - stderr.length);
    });
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(poll);
      closeSpool();
      opts.signal?.removeEventListener("abort", onAbort);
      fn();
    };
    child.on("error", (err) => {
      finish(() => reject(new ToolError("INTERNAL", `cannot run ${command}: ${err.message}`, `Check that ${command} is installed.`)));
    });
    child.on("close", (code) => {
      drain(); // what the program wrote last
      finish(() => {
        if (aborted) reject(abortError(opts.signal));
        else if (consumerError !== undefined) {
          reject(
            consumerError instanceof ToolError
              ? consumerError
              : new ToolError("INTERNAL", `reading the output of ${command} failed: ${String((consumerError as Error).message ?? consumerError)}`, "Try again."),
          );
        } else resolve({ code, stdout: Buffer.concat(chunks), stderr, timedOut, stopped, overflow, spooled });
      });
    });
  });
}

function abortError(signal: AbortSignal | undefined): ToolError {
  return cancelledError(signal, "the operation was cancelled", "Ask again with a narrower path or query.");
}

const found = new Map<string, Promise<string | undefined>>();

/**
 * Finds a program on `PATH` and returns the absolute real path of its file, or `undefined`.
 *
 * Only absolute `PATH` entries are searched. A program spawned by bare name with `cwd` set to the
 * repository would otherwise come from the repository itself: on POSIX through a relative entry
 * such as `.` or an empty entry (resolved against the child's working directory), and on Windows
 * because the program search looks in `cwd` first. A hostile repository could ship `git`. On
 * Windows only `.exe` and `.com` files are considered (batch files cannot be spawned without a
 * shell). Results are cached per name, `PATH` and `notUnder`.
 *
 * `notUnder` is compared by real paths: a `PATH` entry that reaches the folder through a symbolic
 * link (a logical `$PWD` such as `/home/me/link/bin`), and a candidate file that is itself a
 * symbolic link into the folder, are skipped too. The real path is returned, so the program that
 * runs is the one that was checked even if a link on `PATH` changes later.
 * @param opts.notUnder skip programs inside this folder (the workspace root: an absolute `PATH`
 *   entry such as `<repo>/node_modules/.bin` must not supply the program either).
 */
export function findExecutable(name: string, opts: { notUnder?: string } = {}): Promise<string | undefined> {
  const envPath = process.env.PATH ?? process.env.Path ?? "";
  const key = `${name}\0${envPath}\0${opts.notUnder ?? ""}`;
  let p = found.get(key);
  if (p === undefined) {
    p = search(name, envPath, opts.notUnder);
    found.set(key, p);
  }
  return p;
}

/** True when `p` is `dir` or below it (both absolute, normalised). */
function under(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

async function realOr(p: string): Promise<string | undefined> {
  try {
    return await fsp.realpath(p);
  } catch {
    return undefined;
  }
}

async function search(name: string, envPath: string, notUnder: string | undefined): Promise<string | undefined> {
  const win = process.platform === "win32";
  const exts = win ? [".exe", ".com"] : [""];
  const forbidden: string[] = [];
  if (notUnder !== undefined) {
    forbidden.push(path.resolve(notUnder));
    const real = await realOr(notUnder);
    if (real !== undefined) forbidden.push(real);
  }
  const inside = (p: string) => forbidden.some((f) => under(p, f));
  for (const dir of envPath.split(path.delimiter)) {
    if (dir === "" || !path.isAbsolute(dir)) continue;
    if (inside(path.resolve(dir))) continue;
    const realDir = await realOr(dir);
    if (realDir === undefined || inside(realDir)) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      try {
        const real = await fsp.realpath(candidate);
        if (inside(real)) continue;
        const st = await fsp.stat(real);
        if (!st.isFile()) continue;
        if (!win) await fsp.access(real, fsc.X_OK);
        return real;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * The parent environment without variables that can change what ripgrep or git do
 * (`RIPGREP_CONFIG_PATH`, every `GIT_*`), plus `extra`.
 */
export function scrubbedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (k === "RIPGREP_CONFIG_PATH" || k.startsWith("GIT_")) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}
