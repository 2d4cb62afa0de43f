/**
 * What an evidence command shows on stderr about its own work (README "CLI reference"):
 *
 * - a progress line while a query reads and parses files it has no cached facts for (the first
 *   query on a repository), once that has lasted 300 ms: `indexing: 120/800 files parsed`. Quiet
 *   under the same rules as every progress line (`progress.ts` {@link progressEnabled}: `--json`,
 *   a stderr that is not a terminal, `NO_COLOR`, `CI`). `CODECITE_PROGRESS_DELAY_MS` sets the
 *   delay (tests use 0);
 * - with `CODECITE_TIMING=1`, one line saying where the process's time went: Node start-up,
 *   module loading, workspace checks, fact-cache opening, the check of the cached file list
 *   against the tree, for `search` the ignore-file check and ripgrep's run, the rest of the
 *   query, and output, in ms.
 *
 * The fact cache reports through `diagnostics_channel` (`fact-cache/activity.ts`).
 */
import {
  cacheTimingChannel,
  factLoadChannel,
  type CacheTiming,
  type FactLoadProgress,
} from "../fact-cache/activity.js";
import { progressEnabled } from "./progress.js";

/** Phases the command itself times, in order. */
export type QueryPhase = "load" | "workspace" | "query" | "output";

/** A running watch over one evidence command. */
export interface QueryActivity {
  /** Marks the end of `phase` (the phases run in {@link QueryPhase} order). */
  phaseDone(phase: QueryPhase): void;
  /** Removes the progress line and, with `CODECITE_TIMING=1`, prints the time line. Call once, also on failure. */
  finish(): void;
}

const CLEAR_LINE = "\r\u001b[2K";

/** Starts watching; `json`: the command prints JSON (no progress line). */
export function watchQuery(opts: { json: boolean; env?: Readonly<Record<string, string | undefined>>; stream?: NodeJS.WriteStream }): QueryActivity {
  const env = opts.env ?? process.env;
  const stream = opts.stream ?? process.stderr;
  const marks = new Map<QueryPhase, number>();
  const cache: Record<CacheTiming["step"], number> = { "cache open": 0, validation: 0, "ignore-file check": 0, ripgrep: 0 };
  /** The steps only a text search times; shown when they ran. */
  const searchSteps = new Set<CacheTiming["step"]>();
  const onTiming = (m: unknown) => {
    const t = m as CacheTiming;
    cache[t.step] += t.ms;
    if (t.step === "ignore-file check" || t.step === "ripgrep") searchSteps.add(t.step);
  };
  const timing = env.CODECITE_TIMING === "1";
  if (timing) cacheTimingChannel.subscribe(onTiming);

  let shown = false;
  let label: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    if (label !== undefined) stream.write(`${CLEAR_LINE}${label}`);
  };
  const onLoad = (m: unknown) => {
    const p = m as FactLoadProgress;
    label = `indexing: ${p.done}/${p.toParse} files parsed`;
    if (shown) draw();
    else if (timer === undefined) {
      const delay = Number(env.CODECITE_PROGRESS_DELAY_MS ?? 300);
      timer = setTimeout(() => {
        shown = true;
        draw();
      }, Number.isFinite(delay) && delay >= 0 ? delay : 300);
      timer.unref();
    }
  };
  let progress = progressEnabled({ json: opts.json, stream, env });
  if (progress) factLoadChannel.subscribe(onLoad);
  /** Removes the progress line before anything else is printed. */
  const stopProgress = () => {
    if (!progress) return;
    progress = false;
    factLoadChannel.unsubscribe(onLoad);
    if (timer !== undefined) clearTimeout(timer);
    if (shown) stream.write(CLEAR_LINE);
  };

  return {
    phaseDone(phase) {
      // Only timed runs read the clock (`performance` loads Node's perf_hooks module on first use).
      if (timing) marks.set(phase, performance.now());
      if (phase === "query") stopProgress();
    },
    finish() {
      stopProgress();
      if (!timing) return;
      cacheTimingChannel.unsubscribe(onTiming);
      const end = performance.now();
      const startUp = performance.nodeTiming.bootstrapComplete;
      const at = (p: QueryPhase, before: number) => marks.get(p) ?? before;
      const load = at("load", startUp);
      const workspace = at("workspace", load);
      const query = at("query", workspace);
      // The validation step opens the store when nothing opened it before: its time is counted once, as cache open.
      const validation = Math.max(0, cache.validation - cache["cache open"]);
      // A search's ignore-file check and ripgrep run happen one after the other inside the query
      // phase (search.ts); shown as their own parts, the rest of the query stays "query".
      const searchParts = [...searchSteps].map((step): [string, number] => [step, cache[step]]);
      const searchMs = searchParts.reduce((sum, [, ms]) => sum + ms, 0);
      const parts: [string, number][] = [
        ["start-up", startUp],
        ["load", load - startUp],
        ["workspace", workspace - load],
        ["cache open", cache["cache open"]],
        ["validation", validation],
        ...searchParts,
        ["query", Math.max(0, query - workspace - cache["cache open"] - validation - searchMs)],
        // Output runs to the end of the run, so the phases add up to the total (rounding aside) even
        // when the process was descheduled between printing and this line.
        ["output", end - query],
        ["total", end],
      ];
      stream.write(`timing: ${parts.map(([k, v]) => `${k} ${Math.round(v)} ms`).join(", ")}\n`);
    },
  };
}
