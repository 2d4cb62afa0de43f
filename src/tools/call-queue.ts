/**
 * A bound on the work a server does at once for its clients. A client may send any number of
 * requests without waiting for answers (JSON-RPC requests are independent; HTTP clients open
 * connections at will); each tool call reads files, parses and starts ripgrep, so two thousand MCP
 * calls sent at once started over 500 ripgrep processes together and answered none of them within
 * two minutes. Calls run at most `maxRunning` at a time, up to `maxWaiting` more wait in arrival
 * order, and a call past both is refused at once with the error the server's protocol uses for
 * "busy" (`refuse`), which also drops its input instead of keeping it in memory. Used by the MCP
 * server (`mcp/server.ts`: tool calls) and `codecite serve` (`serve/server.ts`: the virtual
 * model's agent turns).
 */

/** Builds the error a refused call rejects with, from the counts at that moment. */
export type Refusal = (running: number, waiting: number) => Error;

/** Runs calls with at most `maxRunning` at once and `maxWaiting` waiting. */
export class CallQueue {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly maxRunning: number,
    readonly maxWaiting: number,
    private readonly refuse: Refusal,
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
   * @throws the `refuse` error at once when `maxRunning` calls run and `maxWaiting` wait; the signal's reason when `signal` aborts while the call waits (it then never runs).
   */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw signal.reason;
    if (this.#running < this.maxRunning) this.#running++;
    else {
      if (this.#waiting.length >= this.maxWaiting) {
        throw this.refuse(this.#running, this.#waiting.length);
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
