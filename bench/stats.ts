/**
 * Timing helpers for the benchmark: high-resolution timers, medians, repeated runs within a
 * time budget, and child-process timing.
 */
import { spawn, spawnSync, type SpawnSyncOptions } from "node:child_process";

/** Milliseconds elapsed while `fn` runs (performance.now, sub-ms resolution). */
export async function timeMs<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** Median of a non-empty list (mean of the two middle values for even lengths). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export interface RepeatOptions {
  /** Measured runs wanted. */
  runs: number;
  /** Stop early (after at least `minRuns`) once this much time went into measured runs, ms. */
  budgetMs?: number;
  minRuns?: number;
  /** Unmeasured runs first (warm page cache, JIT). */
  warmup?: number;
}

/** Runs `fn` repeatedly and returns every measured duration in ms (plus the last value). */
export async function repeat<T>(fn: () => Promise<T> | T, opts: RepeatOptions): Promise<{ samples: number[]; last: T }> {
  for (let i = 0; i < (opts.warmup ?? 0); i++) await fn();
  const samples: number[] = [];
  let last: T | undefined;
  let spent = 0;
  for (let i = 0; i < opts.runs; i++) {
    const { ms, value } = await timeMs(fn);
    samples.push(ms);
    last = value;
    spent += ms;
    if (opts.budgetMs !== undefined && spent > opts.budgetMs && samples.length >= (opts.minRuns ?? 1)) break;
  }
  return { samples, last: last as T };
}

/**
 * Measures `ours` and `ref` alternately (ours, ref, ours, ref, …) so that load from other
 * processes drifting during the run affects both sides alike. Returns both sample lists.
 */
export async function repeatPaired<A, B>(
  ours: () => Promise<A> | A,
  ref: () => Promise<B> | B,
  opts: { runs: number; warmup?: number },
): Promise<{ ours: number[]; ref: number[]; lastOurs: A; lastRef: B }> {
  for (let i = 0; i < (opts.warmup ?? 0); i++) {
    await ours();
    await ref();
  }
  const o: number[] = [];
  const r: number[] = [];
  let lastOurs: A | undefined;
  let lastRef: B | undefined;
  for (let i = 0; i < opts.runs; i++) {
    const a = await timeMs(ours);
    o.push(a.ms);
    lastOurs = a.value;
    const b = await timeMs(ref);
    r.push(b.ms);
    lastRef = b.value;
  }
  return { ours: o, ref: r, lastOurs: lastOurs as A, lastRef: lastRef as B };
}

/** Wall-clock time of a child process run to completion; throws when it cannot start or exits non-zero (unless allowed). */
export function timeSpawnSync(
  cmd: string,
  args: readonly string[],
  opts: SpawnSyncOptions & { okCodes?: readonly number[] } = {},
): { ms: number; stdout: string; stderr: string; status: number } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { maxBuffer: 1 << 30, encoding: "utf8", ...opts });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  const status = r.status ?? -1;
  if (!(opts.okCodes ?? [0]).includes(status)) {
    throw new Error(`${cmd} ${args.join(" ")} exited ${status}: ${String(r.stderr).slice(0, 500)}`);
  }
  return { ms, stdout: String(r.stdout), stderr: String(r.stderr), status };
}

/** Like {@link timeSpawnSync} but asynchronous (so an in-process server can answer the child). */
export function timeSpawn(
  cmd: string,
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<{ ms: number; stdout: string; stderr: string; status: number | null }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env: opts.env, cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = opts.timeoutMs ? setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs) : undefined;
    child.on("error", reject);
    child.on("close", (status) => {
      if (timer) clearTimeout(timer);
      resolve({ ms: performance.now() - t0, stdout, stderr, status });
    });
  });
}
