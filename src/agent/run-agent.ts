/**
 * `runAgent`: the multi-step tool-calling loop of Ollama's function-calling examples, with
 * evidence collection, a step limit, the tool shim and a grounding check.
 *
 * One session: send the system prompt, the question and the tool definitions; run every tool
 * call of a turn in order; append the assistant turn and one `tool` message per call (the tool
 * result envelope as JSON, with `tool_name`, and `tool_call_id` when the provider gave an id);
 * repeat until the model answers without tool calls, or the step limit ends the loop.
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
 * 1. `prepare` (`session.ts`): options checked, model capabilities and context size, history;
 * 2. `modelTurn` (`model-turn.ts`): one request, with the history fitted by
 *    `compactHistory` (`compact.ts`);
 * 3. `recoverTurn` (`recover-turn.ts`): the turn's calls, native or written as text;
 * 4. `dispatchCalls` (`dispatch.ts`): each call run and its result appended;
 * 5. `finish` (`finish.ts`): the answer, the evidence and the checked citations.
 *
 * Reasoning with a prefilled opener: once a turn's `recover` diagnostics report a prefilled
 * reasoning opener (the template opens `<think>`, only the closer appears in the output), the
 * streaming filter of the following turns holds everything up to the closer
 * (`StreamFilter` option `prefilledReasoning`), so the reasoning is not shown as answer text.
 */
import { dispatchCalls } from "./dispatch.js";
import { finish, maxStepsAnswer } from "./finish.js";
import { modelTurn } from "./model-turn.js";
import { recoverTurn } from "./recover-turn.js";
import { prepare, type AgentResult, type RunAgentOptions } from "./session.js";

export { isPrefilledReasoning } from "./recover-turn.js";
export {
  DEFAULT_MAX_STEPS,
  type AgentEvent,
  type AgentResult,
  type AgentStep,
  type AgentToolshimMode,
  type RunAgentOptions,
} from "./session.js";

/**
 * Runs one question to an answer.
 * @returns the answer, the evidence gathered (deduplicated), the answer's citations checked
 *   against it, and one step per tool call.
 * @throws ProviderError from the provider (unreachable server, model not installed, timeout…);
 *   tool failures never throw, they become tool error messages to the model.
 */
export async function runAgent(opts: RunAgentOptions): Promise<AgentResult> {
  const s = await prepare(opts);
  for (let round = 0; ; round++) {
    const turn = await recoverTurn(s, await modelTurn(s));
    if (turn.callCount === 0) return finish(s, turn.content.trim(), "answer");
    if (round >= s.maxSteps) return finish(s, maxStepsAnswer(s, turn.content), "max_steps");
    await dispatchCalls(s, turn);
  }
}
