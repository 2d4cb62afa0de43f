/**
 * A bound on the tool calls the MCP server works on at once. A client may send any number of
 * `tools/call` requests without waiting for answers (JSON-RPC requests are independent); each
 * call reads files, parses and starts ripgrep, so two thousand calls sent at once started over
 * 500 ripgrep processes together and answered none of them within two minutes. Calls run at
 * most {@link MAX_RUNNING_CALLS} at a time, up to {@link MAX_WAITING_CALLS} more wait in arrival
 * order, and a call past both is refused at once with a JSON-RPC error (code
 * {@link SERVER_BUSY}, in the range JSON-RPC 2.0 §5.1 reserves for implementation-defined
 * server errors), which also drops its arguments instead of keeping them in memory.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";

/** Tool calls run at once (each may itself use every core: ripgrep's threads, the parse pool). */
export const MAX_RUNNING_CALLS = 4;

/** Tool calls that wait for a running one to end (a model asks for a handful at a time). */
export const MAX_WAITING_CALLS = 32;

/** JSON-RPC error code of a call refused because the server is busy. */
export const SERVER_BUSY = -32000;

/** Runs calls with at most `maxRunning` at once and `maxWaiting` waiting. */
export class CallQueue {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly maxRunning = MAX_RUNNING_CALLS,
    readonly maxWaiting = MAX_WAITING_CALLS,
  ) {}

  /** Calls running now. */
  get running(): number {
    return this.#running;
  }

  /** Calls waiting now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Runs `fn` when fewer than `maxRunning` calls run, and resolves or rejects as it does.
   * @throws McpError {@link SERVER_BUSY} at once when `maxRunning` calls run and `maxWaiting`
   *   wait; the signal's reason when `signal` aborts while the call waits (it then never runs).
   */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw signal.reason;
    if (this.#running < this.maxRunning) this.#running++;
    else {
      if (this.#waiting.length >= this.maxWaiting) {
        throw new McpError(
          SERVER_BUSY,
          `server busy: ${this.#running} tool calls are running and ${this.#waiting.length} waiting; send this call again when one has been answered`,
        );
      }
      // A running call that ends hands its place over (the count stays): see `finally` below.
      await new Promise<void>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = this.#waiting.indexOf(start);
          if (i >= 0) this.#waiting.splice(i, 1);
          reject(signal!.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        this.#waiting.push(start);
      });
    }
    try {
      return await fn();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
