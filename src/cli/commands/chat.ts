/**
 * `codecite chat [the flags of ask]`: questions and follow-ups in one session over `--root`.
 *
 * On a terminal: a prompt with line editing (node:readline) and a history file
 * (`chat-history.ts`: `$XDG_STATE_HOME/codecite/chat_history`, mode 0600). Ctrl-C cancels the answer being written and keeps
 * the session (at the prompt it clears the line); Ctrl-D leaves. With stdin not a terminal, each
 * non-empty line is one question (or command), answered in turn.
 *
 * Follow-ups keep the conversation and every evidence record of the session: the model gets the
 * earlier questions and answers and the evidence gathered so far with each new question, and the
 * answer's citations are graded against all of that evidence. Commands: `/evidence`,
 * `/citations`, `/model NAME`, `/clear`, `/help`.
 */
import { Transform, type Readable } from "node:stream";
import type { Command } from "commander";
import type { Citation } from "../../agent/index.js";
import { visibleText } from "../../evidence/visible-text.js";
import type { Evidence } from "../../tools/index.js";
import type { AgentSession } from "../agent-session.js";
import { HISTORY_LINES, historyPath, readHistory, rememberLine } from "../chat-history.js";
import { runAction, UsageError } from "../output.js";
import { MAX_STDIN_QUESTION_BYTES, withDefaultRoot, type AskFlags, type RootOptional } from "./ask.js";

/**
 * `input` passed through while every line (bytes between line breaks) has at most `max` bytes;
 * at the first longer one, the chunk holding its overflow and everything after it are dropped (the
 * output ends with the part of that line passed on before), `input` is destroyed (nothing more is
 * read) and `tooLong()` turns true. readline would otherwise keep a line that never ends whole
 * until memory runs out.
 */
function boundedLines(input: Readable, max: number): { stream: Readable; tooLong: () => boolean } {
  let lineBytes = 0;
  let over = false;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (over) return done();
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1 && !over; nl = chunk.indexOf(0x0a, start)) {
        over = lineBytes + (nl - start) > max;
        lineBytes = 0;
        start = nl + 1;
      }
      if (!over) {
        lineBytes += chunk.length - start;
        over = lineBytes > max;
      }
      if (!over) return done(null, chunk);
      input.unpipe(stream);
      input.destroy();
      done();
      stream.end();
    },
  });
  input.pipe(stream);
  return { stream, tooLong: () => over };
}

/** Longest earlier conversation sent with a follow-up, in characters (the newest part). */
const CONVERSATION_CHARS = 4000;
/** Longest list of earlier evidence sent with a follow-up, in characters. */
const EVIDENCE_CHARS = 4000;


const HELP = [
  "Ask a question about the code; follow-ups keep the conversation and the evidence.",
  "  /evidence     every evidence record gathered in this session",
  "  /citations    the last answer's citations and their status",
  "  /model NAME   answer with another model from now on",
  "  /clear        forget the conversation and the evidence",
  "  /help         this list",
  "Ctrl-C cancels an answer; Ctrl-D leaves.",
].join("\n");

/** One chat session's memory. */
export class ChatMemory {
  readonly turns: Array<{ question: string; answer: string }> = [];
  readonly evidence: Evidence[] = [];
  citations: Citation[] = [];
  readonly #keys = new Set<string>();

  /**
   * Adds records not seen before (same path, lines, kind and name).
   * @returns how many were new to the session.
   */
  addEvidence(records: readonly Evidence[]): number {
    const before = this.evidence.length;
    for (const e of records) {
      const key = `${e.path}\0${e.start_line}\0${e.end_line}\0${e.kind}\0${e.name}`;
      if (this.#keys.has(key)) continue;
      this.#keys.add(key);
      this.evidence.push(e);
    }
    return this.evidence.length - before;
  }

  clear(): void {
    this.turns.length = 0;
    this.evidence.length = 0;
    this.citations = [];
    this.#keys.clear();
  }

  /** The question as the model gets it: earlier conversation and evidence first, when there are any. */
  prompt(question: string): string {
    if (this.turns.length === 0) return question;
    const conversation = this.turns.map((t) => `user: ${t.question}\nassistant: ${t.answer.trim()}`).join("\n\n");
    const parts = [`Earlier in this conversation:\n${conversation.slice(-CONVERSATION_CHARS)}`];
    if (this.evidence.length > 0) {
      const lines: string[] = [];
      let size = 0;
      for (const e of this.evidence) {
        const first = e.snippet.split("\n")[0]!.trim().slice(0, 160);
        const line = `- ${e.path}:${e.start_line === e.end_line ? e.start_line : `${e.start_line}-${e.end_line}`} ${e.kind} ${e.name}: ${first}`;
        if (size + line.length > EVIDENCE_CHARS) {
          lines.push(`- … ${this.evidence.length - lines.length} more records`);
          break;
        }
        lines.push(line);
        size += line.length + 1;
      }
      parts.push(`Evidence gathered earlier in this session (cite it as path:line when it answers the question; read it again to quote it):\n${lines.join("\n")}`);
    }
    parts.push(`Question: ${question}`);
    return parts.join("\n\n");
  }

  /** Every line the session's evidence shows, by path (for grading citations against all of it). */
  seenLines(): Map<string, Map<number, string>> {
    const seen = new Map<string, Map<number, string>>();
    for (const e of this.evidence) {
      let lines = seen.get(e.path);
      if (!lines) seen.set(e.path, (lines = new Map()));
      e.snippet.split("\n").forEach((text, i) => lines.set(e.start_line + i, text));
    }
    return seen;
  }
}

type ChatFlags = AskFlags;

async function chat(given: RootOptional<ChatFlags>): Promise<void> {
  const flags = await withDefaultRoot(given);
  const verbose = flags.verbose === true;
  const [{ openAgentSession }, { createCodeToolRegistry }, { runAgent, gradeCitations }, { locateFile }, { AskEventPrinter }, output, render, { rootView }, readline, { checkModel, withInstalledModels }] =
    await Promise.all([
      import("../agent-session.js"),
      import("../../tools/code-tools.js"),
      import("../../agent/index.js"),
      import("../../tools/index.js"),
      import("../ask-events.js"),
      import("../output.js"),
      import("../render.js"),
      import("../root-view.js"),
      import("node:readline"),
      import("../default-model.js"),
    ]);
  const session: AgentSession = await openAgentSession(flags, false);
  const registry = createCodeToolRegistry();
  const memory = new ChatMemory();
  const view = rootView(flags.root);
  const out = output.colorsFor(process.stdout);
  const err = output.colorsFor(process.stderr);
  const tty = process.stdin.isTTY === true && process.stdout.isTTY === true;
  let model = session.model;
  let current: AbortController | undefined;

  const answer = async (question: string): Promise<void> => {
    const controller = new AbortController();
    current = controller;
    const printer = new AskEventPrinter({ streamAnswer: true, progress: true, verbose, shimAnnounced: session.shimAnnounced });
    const { agentProgress } = await import("../progress.js");
    const progress = agentProgress(printer.onEvent, { json: false });
    try {
      const result = await runAgent({
        provider: session.provider,
        model,
        registry,
        workspace: session.workspace,
        question: memory.prompt(question),
        ...(session.config.maxSteps !== undefined ? { maxSteps: session.config.maxSteps } : {}),
        ...(session.config.maxCallsPerTurn !== undefined ? { maxCallsPerTurn: session.config.maxCallsPerTurn } : {}),
        ...(session.config.timeoutSeconds !== undefined ? { timeoutMs: session.config.timeoutSeconds * 1000 } : {}),
        prefetch: session.config.prefetch,
        // A follow-up may cite what earlier answers were shown; the session grades that below,
        // so the agent's own re-ask (which knows only this answer's evidence) stays off.
        ...(memory.turns.length > 0 ? { reask: false } : {}),
        ...(session.config.contextTokens !== undefined ? { contextTokens: session.config.contextTokens } : {}),
        toolshim: session.config.toolshim,
        ...(session.interpreter ? { interpreter: session.interpreter } : {}),
        stream: true,
        signal: controller.signal,
        onEvent: progress.onEvent,
      }).finally(() => progress.stop());
      if (!printer.wroteAnswer) printer.write(result.answer);
      printer.finish();
      const added = memory.addEvidence(result.evidence);
      memory.turns.push({ question, answer: result.answer });
      // Graded against every record of the session, not only this answer's.
      memory.citations = await gradeCitations(result.answer, memory.seenLines(), (p) => locateFile(session.workspace, p));
      process.stdout.write(`\n${out.dim(`Evidence: ${added} new, ${memory.evidence.length} in this session (/evidence lists them)`)}\n`);
      process.stdout.write(render.renderCitations(memory.citations, out, view));
    } catch (e) {
      printer.finish();
      if (controller.signal.aborted) output.logLine(err.yellow("codecite: answer cancelled; the session goes on"));
      else output.logError(await withInstalledModels(e, session.provider));
    } finally {
      current = undefined;
    }
  };

  const command = async (line: string): Promise<void> => {
    const [name, ...rest] = line.split(/\s+/);
    switch (name) {
      case "/help":
        process.stdout.write(`${HELP}\n`);
        return;
      case "/evidence":
        process.stdout.write(`${out.bold(`Evidence (${memory.evidence.length}):`)}\n`);
        process.stdout.write(memory.evidence.length > 0 ? render.renderEvidenceList(memory.evidence, out, view) : "  none\n");
        return;
      case "/citations":
        process.stdout.write(render.renderCitations(memory.citations, out, view));
        return;
      case "/model":
        if (rest.length === 0 || rest.join("") === "") {
          process.stdout.write(`model: ${visibleText(model)}\n`);
          return;
        }
        try {
          // An unknown model is refused as --model is, and the session keeps its model.
          await checkModel(session.provider, rest.join(" "));
        } catch (e) {
          output.logError(e);
          process.stdout.write(`model: ${visibleText(model)} (unchanged)\n`);
          return;
        }
        model = rest.join(" ");
        process.stdout.write(`model: ${visibleText(model)}\n`);
        return;
      case "/clear":
        memory.clear();
        process.stdout.write("conversation and evidence cleared\n");
        return;
      default:
        process.stdout.write(`unknown command ${name}; /help lists them\n`);
    }
  };

  const handle = async (raw: string): Promise<void> => {
    const line = raw.trim();
    if (line === "") return;
    if (line.startsWith("/")) await command(line);
    else await answer(line);
  };

  try {
    if (!tty) {
      const lines = boundedLines(process.stdin, MAX_STDIN_QUESTION_BYTES);
      const rl = readline.createInterface({ input: lines.stream, terminal: false, crlfDelay: Infinity });
      for await (const line of rl) {
        // The part of the long line read so far comes out as a last line: it is not a question.
        if (lines.tooLong()) break;
        await handle(line);
      }
      if (lines.tooLong()) {
        throw new UsageError(
          `a line read from stdin is longer than ${MAX_STDIN_QUESTION_BYTES} bytes`,
          "Pipe in one question per line; to ask about a file, name it in the question (codecite reads it itself).",
        );
      }
      return;
    }
    const file = historyPath();
    const history = readHistory(file);
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true, history, historySize: HISTORY_LINES, removeHistoryDuplicates: true });
    rl.setPrompt(out.cyan("codecite> "));
    process.stdout.write(`${out.dim(`codecite chat — ${visibleText(model)} on ${visibleText(session.workspace.root)}; /help for commands, Ctrl-D to leave`)}\n`);
    await new Promise<void>((resolve) => {
      const queue: string[] = [];
      let busy = false;
      const next = async () => {
        if (busy) return;
        const line = queue.shift();
        if (line === undefined) {
          rl.prompt();
          return;
        }
        busy = true;
        await handle(line);
        busy = false;
        void next();
      };
      rl.on("line", (line) => {
        if (line.trim() !== "") rememberLine(file, line.trim());
        queue.push(line);
        void next();
      });
      rl.on("SIGINT", () => {
        if (current) {
          current.abort(new Error("cancelled"));
          return;
        }
        rl.write(null, { ctrl: true, name: "u" });
        process.stdout.write("\n(Ctrl-D leaves)\n");
        rl.prompt();
      });
      rl.on("close", () => {
        current?.abort(new Error("the session ended"));
        process.stdout.write("\n");
        resolve();
      });
      rl.prompt();
    });
  } finally {
    await session.close();
  }
}

export function register(program: Command): void {
  // The flags of ask, except those that only make sense for one answer (--json, --strict).
  program
    .command("chat")
    .description("ask questions and follow-ups in one session (evidence is kept between questions)")
    .option("--root <dir>", "repository root (default: the enclosing git work tree, else the current folder)")
    .option("--model <name>", "chat model (default: CODECITE_MODEL, else the first installed model with tool support, else the first installed model)")
    .option("--provider <name>", "ollama, openai or llama-cpp (default: CODECITE_PROVIDER, else ollama)")
    .option("--host <url>", "server address (default: OLLAMA_HOST, or OPENAI_BASE_URL with --provider openai)")
    .option("--toolshim <mode>", "auto, on or off (default: CODECITE_TOOLSHIM, else auto)")
    .option("--max-steps <n>", "maximum tool steps per answer, 1-100 (default 8)")
    .option("--num-ctx <n>", "context size in tokens, 2048-1048576 (default: CODECITE_NUM_CTX, else 8192; capped by the model's)")
    .option("--max-calls-per-turn <n>", "most tool calls run from one model turn (default: CODECITE_MAX_CALLS_PER_TURN, max_calls_per_turn in the user file, else 16)")
    .option("--timeout <seconds>", "deadline of each answer (default: CODECITE_TIMEOUT, timeout in the user file, else 600)")
    .option("--no-prefetch", "do not look the question's code names up before the first model call")
    .option("--verbose", "show reasoning, tool-shim diagnostics and progress on stderr")
    .action((flags: RootOptional<ChatFlags>) => runAction(false, () => chat(flags)));
}
