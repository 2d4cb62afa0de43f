/**
 * Renders an `ask` session's events on the terminal: answer text to stdout as it arrives
 * (human mode only), progress (tool calls and results), notices and, with `--verbose`,
 * reasoning and tool-shim diagnostics to stderr.
 */
import type { AgentEvent } from "../agent/run-agent.js";
import { colorsFor, logLine } from "./output.js";

export interface AskEventOptions {
  /** Write answer text to stdout (false with `--json`). */
  streamAnswer: boolean;
  /** Show tool calls and results (human mode, or `--verbose`). */
  progress: boolean;
  /** Show reasoning and shim diagnostics. */
  verbose: boolean;
}

/** A stateful event sink; `finish()` ends the answer's last line. */
export class AskEventPrinter {
  #atLineStart = true;
  #wroteAnswer = false;
  readonly #opts: AskEventOptions;
  readonly #err = colorsFor(process.stderr);

  constructor(opts: AskEventOptions) {
    this.#opts = opts;
  }

  /** True once any answer text reached stdout. */
  get wroteAnswer(): boolean {
    return this.#wroteAnswer;
  }

  #endLine(): void {
    if (!this.#atLineStart) {
      process.stdout.write("\n");
      this.#atLineStart = true;
    }
  }

  readonly onEvent = (e: AgentEvent): void => {
    const c = this.#err;
    switch (e.type) {
      case "content":
        if (this.#opts.streamAnswer) this.write(e.delta);
        return;
      case "thinking":
        if (this.#opts.verbose) process.stderr.write(c.dim(e.delta));
        return;
      case "turn_end":
        if (e.tool_calls > 0 && this.#opts.streamAnswer) this.#endLine();
        if (this.#opts.verbose) process.stderr.write("\n");
        return;
      case "tool_call":
        if (!this.#opts.progress) return;
        logLine(
          `${c.cyan("→")} ${e.call.name} ${c.dim(JSON.stringify(e.call.arguments))}${e.recovered_by !== "native" ? c.dim(` (${e.recovered_by})`) : ""}`,
        );
        return;
      case "tool_result": {
        if (!this.#opts.progress) return;
        const r = e.result;
        if (r.ok) {
          const what = "evidence" in r ? `${r.total} record${r.total === 1 ? "" : "s"}` : "ok";
          logLine(`  ${c.green("✓")} ${what} ${c.dim(`${e.step.ms} ms`)}${"note" in r && r.note ? c.dim(` — ${r.note}`) : ""}`);
        } else {
          if (!("error" in r)) return;
          logLine(`  ${c.red("✗")} ${e.step.tool}: ${r.error.code}: ${r.error.message}`);
        }
        return;
      }
      case "notice":
        this.#endLine();
        logLine(`${c.yellow("codecite:")} ${e.message}`);
        return;
      case "diagnostic":
        if (!this.#opts.verbose) return;
        for (const d of e.diagnostics) logLine(c.dim(`  shim[${d.stage}] ${d.message}`));
        return;
    }
  };

  /** Writes answer text to stdout. */
  write(text: string): void {
    if (text === "") return;
    process.stdout.write(text);
    this.#wroteAnswer = true;
    this.#atLineStart = text.endsWith("\n");
  }

  /** Ends the streamed answer with a newline. */
  finish(): void {
    this.#endLine();
  }
}
