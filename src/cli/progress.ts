/**
 * A spinner line on stderr for waits longer than ~300 ms (model loading, first indexing,
 * waiting for the first token), drawn with `ora`.
 *
 * Quiet — nothing is written at all — when stderr is not a terminal, with `--json`, when
 * `NO_COLOR` is set (no-color.org: plain output), or when `CI` is set. stdout is never
 * touched (README "CLI reference": stdout carries only the answer or the JSON). `ora` is imported only when
 * a spinner is actually about to be drawn, so commands that finish quickly never load it.
 */
import type { AgentEvent } from "../agent/run-agent.js";

/** A running progress line. */
export interface Progress {
  /** Replaces the label (also before the spinner has appeared). */
  update(label: string): void;
  /** Removes the spinner line. Safe to call more than once. */
  stop(): void;
}

/** Options of `startProgress` and `agentProgress`. */
export interface ProgressOptions {
  /** The command prints JSON: stay quiet. */
  json?: boolean;
  /** Where to draw (default `process.stderr`). */
  stream?: NodeJS.WriteStream;
  env?: Readonly<Record<string, string | undefined>>;
  /** Delay before the spinner appears, in ms (default 300). */
  delayMs?: number;
}

const NOOP: Progress = { update: () => undefined, stop: () => undefined };

/**
 * Whether a spinner may be drawn: `stream` is a TTY, not `json`, and neither `NO_COLOR` (set to
 * a non-empty value) nor `CI` (set to anything but `0`/`false`) is in the environment, and
 * `TERM` is not `dumb`.
 */
export function progressEnabled(opts: ProgressOptions = {}): boolean {
  const stream = opts.stream ?? process.stderr;
  const env = opts.env ?? process.env;
  if (opts.json === true) return false;
  if (stream.isTTY !== true || env.TERM === "dumb") return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.CI !== undefined && env.CI !== "" && env.CI !== "0" && env.CI.toLowerCase() !== "false") return false;
  return true;
}

/**
 * Starts a progress line that appears only if the wait lasts `delayMs` (300 ms by default).
 * Returns a no-op handle when `progressEnabled` is false.
 */
export function startProgress(label: string, opts: ProgressOptions = {}): Progress {
  if (!progressEnabled(opts)) return NOOP;
  const stream = opts.stream ?? process.stderr;
  let text = label;
  let stopped = false;
  let spinner: { text: string; stop(): unknown } | undefined;
  const timer = setTimeout(() => {
    // A spinner is decoration: if ora cannot load or draw, carry on without it.
    import("ora")
      .then(({ default: ora }) => {
        if (stopped) return;
        spinner = ora({ text, stream, discardStdin: false, isEnabled: true }).start();
      })
      .catch(() => undefined);
  }, opts.delayMs ?? 300);
  timer.unref();
  return {
    update(next: string) {
      text = next;
      if (spinner) spinner.text = next;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      spinner?.stop();
    },
  };
}

/**
 * Wraps an `ask` event sink with progress lines: "waiting for the model" until the first
 * output of each model turn, "running <tool>" while a tool runs. The spinner is removed before
 * every event reaches `onEvent`, so it never interleaves with the answer or the step lines.
 * Call `stop()` when the session ends (also on failure).
 */
export function agentProgress(
  onEvent: (e: AgentEvent) => void,
  opts: ProgressOptions = {},
): { onEvent: (e: AgentEvent) => void; stop(): void } {
  /** What we are waiting for; undefined while the model is writing or after the session. */
  let waiting: string | undefined = "waiting for the model…";
  let current = startProgress(waiting, opts);
  return {
    onEvent(e) {
      current.stop();
      onEvent(e);
      if (e.type === "tool_call") waiting = `running ${e.call.name}…`;
      else if (e.type === "tool_result") waiting = "waiting for the model…";
      else if (e.type === "content" || e.type === "thinking" || e.type === "turn_end") waiting = undefined;
      // notices and diagnostics leave the wait as it was
      if (waiting !== undefined) current = startProgress(waiting, opts);
    },
    stop() {
      waiting = undefined;
      current.stop();
    },
  };
}
