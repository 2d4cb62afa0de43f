/**
 * `runAgent`: the multi-step tool-calling loop of Ollama's function-calling examples, with
 * evidence collection, a step limit, the tool shim and a grounding check.
 *
 * One session: send the system prompt, the question and the tool definitions; run every tool
 * call of a turn in order; append the assistant turn and one `tool` message per call (the tool
 * result envelope as JSON, with `tool_name`, and `tool_call_id` when the provider gave an id);
 * repeat until the model answers without tool calls, or the step limit ends the loop (or, early,
 * a second turn of only calls it made before: the first one is answered with the repeat hint).
 *
 * Tool-shim modes (ARCHITECTURE.md "Tool-shim modes"): `off` sends native tools and takes only native tool calls;
 * `auto` also recovers calls written as text (`recover`) and switches to `on` for the rest of
 * the session when the model lacks the `tools` capability (`describeModel`) or the provider
 * throws `TOOLS_UNSUPPORTED`; `on` sends no `tools`: the catalogue goes into the system prompt
 * and the history is rendered as text.
 *
 * Context window (`context-budget.ts`): every request carries `contextTokens` (Ollama
 * `options.num_ctx`), and before each model call the history is fitted into that window minus a
 * reserve for the reply: older tool results are compacted first, the system prompt, the question
 * and the newest tool result are kept. The evidence log keeps every record for grounding.
 *
 * The steps, each in its own module, in the order a session runs them:
 * 1. `prepare` (`session.ts`): options checked, model capabilities and context size, the
 *    catalogue form that fits it, the session deadline, history; then `prefetchEvidence`
 *    (`prefetch.ts`): the question's code names looked up, results given as tool results;
 * 2. `modelTurn` (`model-turn.ts`): one request, with the history fitted by
 *    `compactHistory` (`compact.ts`), and the server's prompt count checked
 *    (`server-truncation.ts`);
 * 3. `recoverTurn` (`recover-turn.ts`): the turn's calls, native or written as text;
 * 4. `dispatchCalls` (`dispatch.ts`): each call run (at most `maxCallsPerTurn`) and its result
 *    appended;
 * 5. `finish` (`finish.ts`): the answer's citations graded against the lines shown
 *    (`grounding.ts`); when they fail, the model is asked once more (cite or abstain) and the
 *    second answer is graded the same way.
 *
 * Reasoning with a prefilled opener: once a turn's `recover` diagnostics report a prefilled
 * reasoning opener (the template opens `<think>`, only the closer appears in the output), the
 * streaming filter of the following turns holds everything up to the closer
 * (`StreamFilter` option `prefilledReasoning`), so the reasoning is not shown as answer text.
 */
import { ContextTooSmall } from "./compact.js";
import { dispatchCalls } from "./dispatch.js";
import { finish, gradeAnswer, lengthAnswer, maxStepsAnswer, reaskFor, repeatStopAnswer } from "./finish.js";
import { modelTurn } from "./model-turn.js";
import { prefetchEvidence } from "./prefetch.js";
import { contextNote, timeoutNote } from "./prompt.js";
import { recoverTurn, type TurnCalls } from "./recover-turn.js";
import { DEFAULT_SESSION_TIMEOUT_MS, SessionDeadline, prepare, type AgentResult, type RunAgentOptions, type Session, type StopReason } from "./session.js";

export {
  DEFAULT_MAX_STEPS,
  type AgentEvent,
  type AgentResult,
  type AgentStep,
  type AgentToolshimMode,
  type RunAgentOptions,
} from "./session.js";

/** The tool of a turn whose calls all repeat earlier ones (same tool, same arguments), else `undefined`. */
function onlyRepeats(s: Session, turn: TurnCalls): string | undefined {
  if (turn.calls.length === 0 || turn.rejected.length > 0) return undefined;
  return turn.calls.every((c) => s.log.previous(c.name, c.arguments) !== undefined) ? turn.calls[0]!.name : undefined;
}

/** Model turns and tool calls until the model answers or a limit stops the loop. */
async function converse(s: Session): Promise<{ answer: string; stop: StopReason }> {
  for (;;) {
    const model = await modelTurn(s);
    const turn = await recoverTurn(s, model);
    if (turn.callCount === 0) {
      if (model.turn.done_reason === "length") return { answer: lengthAnswer(s, turn.content), stop: "length" };
      return { answer: turn.content.trim(), stop: "answer" };
    }
    if (s.round >= s.maxSteps) return { answer: maxStepsAnswer(s, turn.content), stop: "max_steps" };
    // Only calls made before, already answered once with the repeat hint: the model is stuck, and
    // would run the same calls to the step limit; end now, as the step limit would.
    const repeated = onlyRepeats(s, turn);
    if (repeated !== undefined) {
      if (s.repeatTold) return { answer: repeatStopAnswer(s, turn.content, repeated), stop: "max_steps" };
      s.repeatTold = true;
    }
    s.round++;
    await dispatchCalls(s, turn);
  }
}

/**
 * Runs one question to an answer.
 * @returns the answer, the evidence gathered (deduplicated), the answer's citations graded
 *   against the lines shown, the grounding, why the session stopped, and one step per tool call.
 * @throws ProviderError from the provider (unreachable server, model not installed, timeout…);
 *   tool failures never throw, they become tool error messages to the model. The session
 *   deadline and a context too small for the prompt end the session with a result
 *   (`stop_reason` `timeout`, `context`), not an error.
 */
export async function runAgent(opts: RunAgentOptions): Promise<AgentResult> {
  const s = await prepare(opts);
  let reasks = 0;
  try {
    if (opts.prefetch !== false) await prefetchEvidence(s);
    let out = await converse(s);
    // Citations point into a repository: a session without a workspace (library tools only) has
    // nothing to check them against, so it is never asked again.
    if (out.stop === "answer" && opts.reask !== false && opts.workspace !== undefined) {
      const ask = reaskFor(s, out.answer, await gradeAnswer(s, out.answer));
      if (ask !== undefined) {
        reasks = 1;
        s.emit({ type: "notice", reason: "reask", message: "some citations failed the check; asking the model once more to correct them or say it does not know" });
        s.history.push({ role: "assistant", content: out.answer }, { role: "user", content: ask });
        out = await converse(s);
      }
    }
    return await finish(s, out.answer, out.stop, reasks);
  } catch (err) {
    if (err instanceof ContextTooSmall) {
      s.emit({ type: "notice", reason: "context", message: err.message });
      return await finish(s, contextNote(err.message), "context", reasks);
    }
    if (s.signal.aborted && s.signal.reason instanceof SessionDeadline && !opts.signal?.aborted) {
      const note = timeoutNote(opts.timeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS, s.steps.length);
      s.emit({ type: "notice", reason: "timeout", message: note });
      return await finish(s, note, "timeout", reasks);
    }
    throw err;
  } finally {
    s.dispose();
  }
}
