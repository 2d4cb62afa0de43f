/**
 * What the fact cache is doing, for whoever wants to show it (the CLI's progress line and its
 * `CODECITE_TIMING` breakdown), on Node's `diagnostics_channel`
 * (https://nodejs.org/api/diagnostics_channel.html): publishing costs nothing while nobody
 * subscribes, and the cache needs no callback threaded through the evidence functions.
 */
import diagnostics_channel from "node:diagnostics_channel";

/** A fact load that reads files: `done` of `toParse` finished (sent at its start and after each file). */
export interface FactLoadProgress {
  done: number;
  /** Files of this load that missed the stat layers (read, then parsed unless their hash is known). */
  toParse: number;
}

/**
 * A timed step of a query: the store opened, the cached file list checked against the tree, or,
 * for a text search, the ignore-file check before ripgrep starts and ripgrep's own run (from its
 * spawn to its exit, while its output is read).
 */
export interface CacheTiming {
  step: "cache open" | "validation" | "ignore-file check" | "ripgrep";
  ms: number;
}

/** Channel of {@link FactLoadProgress} messages. */
export const factLoadChannel = diagnostics_channel.channel("codecite:fact-load");
/** Channel of {@link CacheTiming} messages. */
export const cacheTimingChannel = diagnostics_channel.channel("codecite:cache-timing");

/**
 * The start of a step timed for {@link publishTiming}: `performance.now()` when someone listens,
 * else 0. Reading the clock loads Node's `perf_hooks` module (the `performance` global is made
 * on first use), a cost a CLI query that is not timed does not need to pay.
 */
export function timingStart(): number {
  return cacheTimingChannel.hasSubscribers ? performance.now() : 0;
}

/** Publishes `timing` when someone listens; `startMs` from {@link timingStart}. */
export function publishTiming(step: CacheTiming["step"], startMs: number): void {
  if (cacheTimingChannel.hasSubscribers) cacheTimingChannel.publish({ step, ms: performance.now() - startMs } satisfies CacheTiming);
}
