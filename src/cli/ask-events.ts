/**
 * Renders an `ask` session's events on the terminal: answer text to stdout as it arrives
 * (human mode only), progress (tool calls and results), notices and, with `--verbose`,
 * reasoning and tool-shim diagnostics to stderr.
 *
 * stdout and stderr usually share one terminal, so every stderr line starts on a fresh line:
 * an unfinished answer line (stdout) or reasoning line (stderr) is ended first.
 *
 * Reasoning is dim when stderr is coloured; without colour (`NO_COLOR`, a pipe) every reasoning
 * line starts with `thinking: ` instead, so that it cannot be taken for progress or a notice.
 *
 * The answer, the reasoning and every value quoted in progress lines come from the model or the
 * repository: they are shown through `visibleText` (control characters as escapes, newlines
 * kept in the answer and the reasoning), so no escape sequence reaches the terminal.
 */
import type { AgentEvent } from "../agent/run-agent.js";
import { REASK_SEPARATOR } from "../agent/index.js";
import { colorEnabled, colorsFor, logLine } from "./output.js";
import { visibleText } from "../evidence/visible-text.js";

/** Starts each reasoning line on stderr when colour is off. */
const THINKING_PREFIX = "thinking: ";

/** Notices whose message also ends the answer (`[codecite] …` notes). */
const ANSWER_NOTES: ReadonlySet<string> = new Set(["max_steps", "timeout", "calls_cut", "length", "context"]);

/** What an `AskEventPrinter` shows. */
export interface AskEventOptions {
  /** Write answer text to stdout (false with `--json`). */
  streamAnswer: boolean;
  /** Show tool calls and results (human mode, or `--verbose`). */
  progress: boolean;
  /** Show reasoning and shim diagnostics. */
  verbose: boolean;
  /**
   * The caller already said that the model runs with the tool shim (a default model without
   * tool support): the agent's own `toolshim_on` notice would say it twice, so it is not shown.
   */
  shimAnnounced?: boolean;
}

/** A stateful event sink; `finish()` ends the answer's last line. */
export class AskEventPrinter {
  /** The answer on stdout ends with a newline (or nothing was written). */
  #answerAtLineStart = true;
  /** Reasoning on stderr ends with a newline (or nothing was written). */
  #thinkingAtLineStart = true;
  #wroteAnswer = false;
  readonly #opts: AskEventOptions;
  readonly #err = colorsFor(process.stderr);
  readonly #errColored = colorEnabled(process.stderr);

  constructor(opts: AskEventOptions) {
    this.#opts = opts;
  }

  /** True once any answer text reached stdout. */
  get wroteAnswer(): boolean {
    return this.#wroteAnswer;
  }

  #endAnswerLine(): void {
    if (!this.#answerAtLineStart) {
      process.stdout.write("\n");
      this.#answerAtLineStart = true;
    }
  }

  #endThinkingLine(): void {
    if (!this.#thinkingAtLineStart) {
      process.stderr.write("\n");
      this.#thinkingAtLineStart = true;
    }
  }

  /** One stderr line, started on a fresh line of the terminal. */
  #log(text: string): void {
    this.#endAnswerLine();
    this.#endThinkingLine();
    logLine(text);
  }

  readonly onEvent = (e: AgentEvent): void => {
    const c = this.#err;
    switch (e.type) {
      case "content":
        if (this.#opts.streamAnswer) {
          this.#endThinkingLine();
          this.write(e.delta);
        }
        return;
      case "thinking":
        if (!this.#opts.verbose || e.delta === "") return;
        this.#endAnswerLine();
        {
          const delta = visibleText(e.delta, { multiline: true });
          process.stderr.write(this.#errColored ? c.dim(delta) : this.#prefixThinking(delta));
        }
        this.#thinkingAtLineStart = e.delta.endsWith("\n");
        return;
      case "turn_end":
        this.#endThinkingLine();
        if (e.tool_calls > 0 && this.#opts.streamAnswer) this.#endAnswerLine();
        return;
      case "tool_call":
        if (!this.#opts.progress) return;
        this.#log(
          `${c.cyan("→")} ${visibleText(e.call.name)} ${c.dim(visibleText(JSON.stringify(e.call.arguments) ?? ""))}${e.recovered_by !== "native" ? c.dim(` (${e.recovered_by})`) : ""}`,
        );
        return;
      case "tool_result": {
        if (!this.#opts.progress) return;
        const r = e.result;
        if (r.ok) {
          const what = "evidence" in r ? `${r.total} record${r.total === 1 ? "" : "s"}` : "ok";
          this.#log(`  ${c.green("✓")} ${what} ${c.dim(`${e.step.ms} ms`)}${"note" in r && r.note ? c.dim(` — ${visibleText(r.note)}`) : ""}`);
        } else if ("error" in r) {
          this.#log(`  ${c.red("✗")} ${visibleText(e.step.tool)}: ${r.error.code}: ${visibleText(r.error.message)}`);
        }
        return;
      }
      case "notice":
        // These notes end the answer itself; on stdout they would be said twice.
        if (ANSWER_NOTES.has(e.reason) && this.#opts.streamAnswer) return;
        // The model answers again after a failed citation check: on stdout, a line between the
        // two answers says which is which (else they read as one; the notice itself is on stderr).
        if (e.reason === "reask" && this.#opts.streamAnswer && this.#wroteAnswer) {
          this.#endThinkingLine();
          this.#endAnswerLine();
          process.stdout.write(`\n${REASK_SEPARATOR}\n\n`);
        }
        if (e.reason === "toolshim_on" && this.#opts.shimAnnounced === true) return;
        this.#log(`${c.yellow("codecite:")} ${visibleText(e.message)}`);
        return;
      case "diagnostic":
        if (!this.#opts.verbose) return;
        for (const d of e.diagnostics) this.#log(c.dim(`  shim[${d.stage}] ${visibleText(d.message)}`));
        return;
      case "budget": {
        if (!this.#opts.verbose) return;
        const used = e.system + e.tools + e.history;
        this.#log(
          c.dim(`  budget: system ~${e.system} · tools ~${e.tools} · history ~${e.history} · reserve ${e.reserve} = ~${used + e.reserve} of ${e.context_tokens} tokens`),
        );
        return;
      }
      case "context": {
        if (!this.#opts.verbose) return;
        const parts = [`${e.compacted} older tool result${e.compacted === 1 ? "" : "s"} compacted`];
        if (e.thinking_dropped > 0) parts.push(`${e.thinking_dropped} reasoning block${e.thinking_dropped === 1 ? "" : "s"} dropped`);
        if (e.counts_only > 0) parts.push(`${e.counts_only} cut to counts`);
        if (e.newest !== "intact") parts.push(`newest result ${e.newest}`);
        const fit = e.fits ? "fits" : "still over";
        this.#log(c.dim(`  context: ${parts.join(", ")}; ~${e.estimated_tokens} of ${e.context_tokens} tokens (${fit})`));
        return;
      }
    }
  };

  /** `delta` with {@link THINKING_PREFIX} before each non-empty line that starts in it. */
  #prefixThinking(delta: string): string {
    let atLineStart = this.#thinkingAtLineStart;
    let out = "";
    for (const piece of delta.split(/(?<=\n)/)) {
      if (atLineStart && piece !== "\n") out += THINKING_PREFIX;
      out += piece;
      atLineStart = piece.endsWith("\n");
    }
    return out;
  }

  /** Writes answer text to stdout. */
  write(text: string): void {
    if (text === "") return;
    process.stdout.write(visibleText(text, { multiline: true }));
    this.#wroteAnswer = true;
    this.#answerAtLineStart = text.endsWith("\n");
  }

  /** Ends the streamed answer (and any reasoning line) with a newline. */
  finish(): void {
    this.#endThinkingLine();
    this.#endAnswerLine();
  }
}
