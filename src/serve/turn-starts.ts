/**
 * The starts of chat turns, one per turn of the event loop, after the I/O that is waiting.
 *
 * Starting a turn (reading the request's JSON, building the upstream request and sending it) costs
 * the gateway a few hundred microseconds of its one thread, several times what relaying a streamed
 * chunk costs. Clients that open many chats at once (an agent's parallel calls, a batch) would
 * have every start run back to back, in the microtasks that follow each request's body: the
 * chunks of chats already streaming, which an upstream that batches chats writes together, then
 * wait behind all of those starts. Measured under `bench/serve-load.ts` (100 chats started
 * together): the first chunks of each chat were the slowest through the gateway, and often all of
 * its slowest 1 %. Here each start waits for a `setImmediate` of its own, and the next one is
 * scheduled only when it has run: between two starts the event loop reads and relays whatever
 * chunks have come in (Node.js documentation, "The Node.js Event Loop": the check phase follows
 * the poll phase, and an immediate queued by an immediate runs in the next turn of the loop).
 * Starts keep their arrival order; a start waits about one turn of the loop per start before it.
 */
export class TurnStarts {
  readonly #waiting: (() => void)[] = [];
  #scheduled = false;

  /** Resolves when this turn may start (see the module comment). */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#release);
  }

  readonly #release = (): void => {
    this.#scheduled = false;
    this.#waiting.shift()?.();
    if (this.#waiting.length > 0) this.#schedule();
  };
}
