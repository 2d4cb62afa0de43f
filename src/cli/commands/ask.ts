/**
 * `codecite ask <question>`: one agent session over the repository at `--root`. The question
 * `-` is read from stdin (UTF-8, trimmed).
 * Human mode streams the answer to stdout, then prints the evidence records and the
 * citations, each marked with its status, and a one-line summary; when the answer's grounding
 * is `failed`, or a citation is `unseen`/`invalid`, a plain warning goes to stderr first.
 * `--json` prints one object: `{answer, evidence, citations, grounding, stop_reason, steps,
 * model, provider}` (README "ask --json"), paths repository-relative. `--strict` exits with
 * code 3 when the grounding is `failed`. Without `--model`/`CODECITE_MODEL` the model is chosen by
 * `default-model.ts` and named on stderr.
 *
 * Session bounds: `--max-calls-per-turn` (`CODECITE_MAX_CALLS_PER_TURN`, the user file's
 * `max_calls_per_turn`; default 16) and `--timeout` in seconds (`CODECITE_TIMEOUT`, `timeout`;
 * default 600), resolved with the other settings by `resolveConfig`.
 */
import type { Command } from "commander";
import type { SessionFlags } from "../agent-session.js";
import { UsageError, runAction } from "../output.js";

/** The flags of `ask` (also taken by `chat`). Settings are validated by `resolveConfig`. */
export interface AskFlags extends SessionFlags {
  json?: boolean;
  verbose?: boolean;
  strict?: boolean;
}

/** Exit code of `--strict` when the grounding is `failed`. */
export const STRICT_EXIT_CODE = 3;

/**
 * Longest question read from stdin, in bytes (1 MiB: several times the largest context a local
 * model takes); also the longest line of `codecite chat` in line mode. Input piped from
 * elsewhere (a file of the repository, `/dev/zero`, a program that never stops) would otherwise be
 * kept whole until memory runs out.
 */
export const MAX_STDIN_QUESTION_BYTES = 1024 * 1024;

/**
 * The question: the argument, or stdin for `-`.
 * @throws UsageError for `-` on a terminal, or stdin longer than {@link MAX_STDIN_QUESTION_BYTES}
 *   (reading stops there and stdin is closed).
 */
async function readQuestion(arg: string): Promise<string> {
  if (arg !== "-") return arg;
  if (process.stdin.isTTY) throw new UsageError("the question is `-` but stdin is a terminal; pipe the question in, e.g. echo 'Where is main defined?' | codecite ask -");
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop by a throw destroys the stream (async iteration of a Readable).
  for await (const chunk of process.stdin) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > MAX_STDIN_QUESTION_BYTES) {
      throw new UsageError(
        `the question read from stdin is longer than ${MAX_STDIN_QUESTION_BYTES} bytes`,
        "Pipe in the question only; to ask about a file, name it in the question (codecite reads it itself).",
      );
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString("utf8").trim();
}

async function ask(questionArg: string, given: RootOptional<AskFlags>): Promise<void> {
  const flags = await withDefaultRoot(given);
  const json = flags.json === true;
  const verbose = flags.verbose === true;
  const question = await readQuestion(questionArg);
  if (question.trim() === "") throw new UsageError(questionArg === "-" ? "the question read from stdin is empty" : "the question is empty");
  const [{ openAgentSession }, { createCodeToolRegistry }, { runAgent }, models, { AskEventPrinter }, output, render, { rootView }] =
    await Promise.all([
      import("../agent-session.js"),
      import("../../tools/code-tools.js"),
      import("../../agent/run-agent.js"),
      import("../default-model.js"),
      import("../ask-events.js"),
      import("../output.js"),
      import("../render.js"),
      import("../root-view.js"),
    ]);
  const session = await openAgentSession(flags, json && !verbose);
  const { config, provider, model, interpreter, shimAnnounced, workspace } = session;
  try {
    const errColors = output.colorsFor(process.stderr);
    const printer = new AskEventPrinter({ streamAnswer: !json, progress: !json || verbose, verbose, shimAnnounced });
    // Spinner on stderr while waiting for the model or a tool (quiet with --json, off a TTY, NO_COLOR, CI).
    const { agentProgress } = await import("../progress.js");
    const progress = agentProgress(printer.onEvent, { json });
    const result = await runAgent({
      provider,
      model,
      registry: createCodeToolRegistry(),
      workspace,
      question,
      ...(config.maxSteps !== undefined ? { maxSteps: config.maxSteps } : {}),
      ...(config.maxCallsPerTurn !== undefined ? { maxCallsPerTurn: config.maxCallsPerTurn } : {}),
      ...(config.timeoutSeconds !== undefined ? { timeoutMs: config.timeoutSeconds * 1000 } : {}),
      prefetch: config.prefetch,
      ...(config.contextTokens !== undefined ? { contextTokens: config.contextTokens } : {}),
      toolshim: config.toolshim,
      ...(interpreter ? { interpreter } : {}),
      stream: !json,
      onEvent: progress.onEvent,
    })
      .catch(async (err: unknown) => {
        throw await models.withInstalledModels(err, provider);
      })
      .finally(() => progress.stop());

    const strictFail = flags.strict === true && result.grounding === "failed";
    if (strictFail) process.exitCode = STRICT_EXIT_CODE;
    if (json) {
      output.printJson({
        answer: result.answer,
        evidence: result.evidence,
        citations: result.citations,
        grounding: result.grounding,
        stop_reason: result.stop_reason,
        steps: result.steps,
        model: result.model,
        provider: result.provider,
      });
      return;
    }
    if (result.answer === "") {
      output.logLine(errColors.yellow("codecite: the model gave an empty answer; the evidence it gathered is listed below"));
    } else if (!printer.wroteAnswer) {
      printer.write(result.answer);
    } else {
      // Notes codecite added to a streamed answer (step limit, deadline, cut calls, output limit).
      const notes = result.answer.split("\n").filter((l) => l.startsWith("[codecite]"));
      if (notes.length > 0) printer.write(`\n\n${notes.join("\n")}`);
    }
    printer.finish();
    const warning = render.groundingWarning(result.grounding, result.citations);
    if (warning !== undefined) output.logLine(errColors.yellow(`codecite: ${warning}`));
    if (verbose) for (const line of render.citationDetails(result.citations)) output.logLine(errColors.dim(`  ${line}`));
    const c = output.colorsFor(process.stdout);
    // Locations open from the current directory, as in the evidence commands (root-view.ts).
    const view = rootView(flags.root);
    process.stdout.write(`${printer.wroteAnswer ? "\n" : ""}${c.bold(`Evidence (${result.evidence.length}):`)}\n`);
    process.stdout.write(result.evidence.length > 0 ? render.renderEvidenceList(result.evidence, c, view) : "  none\n");
    process.stdout.write(`\n${render.renderCitations(result.citations, c, view)}`);
  } finally {
    await session.close();
  }
}

/** Flags as commander gives them: `--root` has no default value. */
export type RootOptional<F extends { root: string }> = Omit<F, "root"> & { root?: string };

/**
 * The flags with `--root` filled in as the evidence commands fill it (`locations.ts`
 * `defaultRoot`): the enclosing git work tree's top, said once on stderr, else the current folder.
 * So `ask` from a subfolder sees the whole repository and its `.codecite.yml`.
 */
export async function withDefaultRoot<F extends { root?: string }>(flags: F): Promise<F & { root: string }> {
  const [{ defaultRoot }, { logLine }] = await Promise.all([import("../locations.js"), import("../output.js")]);
  return { ...flags, root: defaultRoot(flags.root, logLine) };
}

export function register(program: Command): void {
  program
    .command("ask")
    .description("answer a question about the code, with path:line evidence")
    .argument("<question>", "the question (- reads it from stdin)")
    .option("--root <dir>", "repository root (default: the enclosing git work tree, else the current folder)")
    .option("--model <name>", "chat model (default: CODECITE_MODEL, else the first installed model with tool support, else the first installed model)")
    .option("--provider <name>", "ollama, openai or llama-cpp (default: CODECITE_PROVIDER, else ollama)")
    .option("--host <url>", "server address (default: OLLAMA_HOST, or OPENAI_BASE_URL with --provider openai)")
    .option("--toolshim <mode>", "auto, on or off (default: CODECITE_TOOLSHIM, else auto)")
    .option("--max-steps <n>", "maximum tool steps before answering, 1-100 (default 8)")
    .option("--num-ctx <n>", "context size in tokens, 2048-1048576 (default: CODECITE_NUM_CTX, else 8192; capped by the model's)")
    .option("--max-calls-per-turn <n>", "most tool calls run from one model turn (default: CODECITE_MAX_CALLS_PER_TURN, max_calls_per_turn in the user file, else 16)")
    .option("--timeout <seconds>", "deadline of the whole session (default: CODECITE_TIMEOUT, timeout in the user file, else 600)")
    .option("--no-prefetch", "do not look the question's code names up before the first model call")
    .option("--strict", `exit with code ${STRICT_EXIT_CODE} when no citation of the answer was shown to the model (grounding failed)`)
    .option("--json", "print {answer, evidence, citations, grounding, stop_reason, steps, model, provider} as JSON")
    .option("--verbose", "show reasoning, tool-shim diagnostics, the context budget per part and progress on stderr")
    .action((question: string, flags: RootOptional<AskFlags>) => runAction(flags.json === true, () => ask(question, flags)));
}
