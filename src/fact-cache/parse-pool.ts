/**
 * A small worker-thread pool that runs one exported function of a module on many inputs, so
 * CPU-bound parsing uses every core. It is language-agnostic: the caller names a module and an
 * export (`(input) => output`, sync or async); inputs and outputs cross threads by structured
 * clone (plain data only).
 *
 * Workers start on demand (up to `size`), keep the module loaded between tasks (so a grammar is
 * loaded once per worker), hold the event loop open only while they have work, and are replaced
 * if one dies. Results come back in completion order; callers that need a deterministic order
 * keep their own (e.g. {@link FactIndex.load} orders by input position).
 *
 * Running from TypeScript sources (tests, `tsx`): when this module is a `.ts` file, the worker
 * is `parse-pool-worker.ts` loaded through tsx (a dev dependency), and a task module given as
 * `.js` that exists only as `.ts` is mapped to the `.ts` file.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { MessagePort, Worker } from "node:worker_threads";

/**
 * `node:worker_threads`, loaded when the first worker starts: a warm query answered from the
 * fact cache starts none, and loading the module costs every process a few ms.
 */
let workerThreadsModule: typeof import("node:worker_threads") | undefined;
const workerThreads = (): typeof import("node:worker_threads") =>
  (workerThreadsModule ??= createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads"));

export interface ParsePoolOptions {
  /** Module that exports the task function: absolute path or `file:` URL. */
  module: string | URL;
  /** Name of the exported function to call with each input. */
  exportName: string;
  /** Worker threads; default `os.availableParallelism()` (at least 1). */
  size?: number;
}

/** A task failed in the worker: the worker's error with its name, message and optional `code`/`hint`. */
export class WorkerTaskError extends Error {
  readonly code: unknown;
  readonly hint: unknown;
  constructor(e: { name?: unknown; message?: unknown; code?: unknown; hint?: unknown; stack?: unknown }) {
    super(typeof e.message === "string" ? e.message : "worker task failed");
    this.name = typeof e.name === "string" ? e.name : "WorkerTaskError";
    this.code = e.code;
    this.hint = e.hint;
    if (typeof e.stack === "string") this.stack = e.stack;
  }
}

interface Task {
  id: number;
  input: unknown;
  transfer: readonly Transferable[];
  resolve(value: unknown): void;
  reject(err: unknown): void;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  task: Task | undefined;
}

type Transferable = ArrayBuffer | MessagePort;

const fromSource = import.meta.url.endsWith(".ts");

/** The task module as a `file:` URL string, mapping `.js` to `.ts` when running from sources. */
function taskModuleUrl(mod: string | URL): string {
  const url = typeof mod === "string" && !mod.startsWith("file:") ? pathToFileURL(mod) : new URL(mod);
  if (fromSource && url.pathname.endsWith(".js")) {
    const file = fileURLToPath(url);
    const ts = file.replace(/\.js$/, ".ts");
    if (!existsSync(file) && existsSync(ts)) return pathToFileURL(ts).href;
  }
  return url.href;
}

/**
 * How to start a worker: the compiled `parse-pool-worker.js`, or (from sources) an inline
 * bootstrap that registers tsx's ESM hooks (`tsx/esm/api` `register()`) and then imports
 * `parse-pool-worker.ts`. (`execArgv: ["--import", "tsx"]` does not apply hooks to workers on Node 20.)
 */
function workerSpec(): { entry: URL | string; eval: boolean } {
  if (!fromSource) return { entry: new URL("./parse-pool-worker.js", import.meta.url), eval: false };
  const api = createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs");
  const worker = new URL("./parse-pool-worker.ts", import.meta.url).href;
  const code =
    `import(${JSON.stringify(pathToFileURL(api).href)})` +
    `.then(({ register }) => { register(); return import(${JSON.stringify(worker)}); });`;
  return { entry: code, eval: true };
}

export class ParsePool<I = unknown, O = unknown> {
  readonly size: number;
  readonly #module: string;
  readonly #exportName: string;
  readonly #slots: Slot[] = [];
  readonly #queue: Task[] = [];
  #nextId = 1;
  #closed = false;

  constructor(opts: ParsePoolOptions) {
    this.size = Math.max(1, Math.floor(opts.size ?? availableParallelism()));
    this.#module = taskModuleUrl(opts.module);
    this.#exportName = opts.exportName;
  }

  /** Threads started so far (they start on demand). */
  get started(): number {
    return this.#slots.length;
  }

  /**
   * Runs the task function on `input` in a worker.
   * Rejects with {@link WorkerTaskError} when the function throws, with an `Error` when the
   * worker dies or the pool is closed, and with the signal's reason when `signal` aborts before
   * the result arrives. A task already running when `signal` aborts has its worker stopped
   * (`Worker.terminate()`: a parse inside WebAssembly is interrupted, not left to finish for a
   * request nobody waits for); the next task starts a new worker.
   *
   * @param transfer - `ArrayBuffer`s to move rather than copy (e.g. a file's bytes).
   */
  run(input: I, opts: { signal?: AbortSignal; transfer?: readonly Transferable[] } = {}): Promise<O> {
    if (this.#closed) return Promise.reject(new Error("parse pool is closed"));
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<O>((resolve, reject) => {
      const task: Task = {
        id: this.#nextId++,
        input,
        transfer: opts.transfer ?? [],
        resolve: (v) => {
          if (task.settled) return;
          task.settled = true;
          signal?.removeEventListener("abort", onAbort);
          resolve(v as O);
        },
        reject: (e) => {
          if (task.settled) return;
          task.settled = true;
          signal?.removeEventListener("abort", onAbort);
          reject(e);
        },
        settled: false,
      };
      const onAbort = () => {
        const i = this.#queue.indexOf(task);
        if (i >= 0) this.#queue.splice(i, 1);
        task.reject(signal?.reason);
        this.#stopRunning(task);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(task);
      this.#pump();
    });
  }

  /** Stops every worker; queued and running tasks reject. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const t of this.#queue.splice(0)) t.reject(new Error("parse pool is closed"));
    const slots = this.#slots.splice(0);
    for (const s of slots) s.task?.reject(new Error("parse pool is closed"));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Terminates the worker running `task`, if one is; the queue goes on with the other workers or a new one. */
  #stopRunning(task: Task): void {
    const i = this.#slots.findIndex((s) => s.task === task);
    if (i < 0) return;
    const [slot] = this.#slots.splice(i, 1);
    slot!.task = undefined;
    void slot!.worker.terminate();
    this.#pump();
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => !s.task);
      if (!slot) {
        if (this.#slots.length >= this.size) return;
        slot = this.#spawn();
      }
      const task = this.#queue.shift() as Task;
      if (task.settled) continue;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage({ id: task.id, input: task.input }, task.transfer as Transferable[]);
    }
  }

  #spawn(): Slot {
    const spec = workerSpec();
    const worker = new (workerThreads().Worker)(spec.entry, {
      eval: spec.eval,
      workerData: { module: this.#module, exportName: this.#exportName },
    });
    const slot: Slot = { worker, task: undefined };
    worker.on("message", (msg: { id: number; ok: boolean; value?: unknown; error?: Record<string, unknown> }) => {
      const task = slot.task;
      if (!task || task.id !== msg.id) return;
      slot.task = undefined;
      worker.unref();
      if (msg.ok) task.resolve(msg.value);
      else task.reject(new WorkerTaskError(msg.error ?? {}));
      this.#pump();
    });
    const die = (err: Error) => {
      const i = this.#slots.indexOf(slot);
      if (i < 0) return;
      this.#slots.splice(i, 1);
      slot.task?.reject(err);
      slot.task = undefined;
      if (!this.#closed) this.#pump();
    };
    worker.on("error", (err) => die(err));
    worker.on("exit", (code) => die(new Error(`parse worker exited with code ${code}`)));
    this.#slots.push(slot);
    return slot;
  }
}
