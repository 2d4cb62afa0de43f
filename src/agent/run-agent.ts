/**
 * `runAgent`: the multi-step tool-calling loop of Ollama's function-calling examples, with
 * evidence collection, a step limit, the tool shim and a grounding check.
 *
 * One session: send the system prompt, the question and the tool definitions; run every tool
 * call of a turn in order; append the assistant turn and one `tool` message per call (the tool
 * result envelope as JSON, with `tool_name`, and `tool_call_id` when the provider gave an id);
 * repeat until the model answers without tool calls, or the step limit ends the loop.
 *
 * Tool-shim modes (DESIGN.md): `off` sends native tools and takes only native tool calls;
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
 * Reasoning with a prefilled opener: once a turn's `recover` diagnostics report a prefilled
 * reasoning opener (the template opens `<think>`, only the closer appears in the output), the
 * streaming filter of the following turns holds everything up to the closer
 * (`StreamFilter` option `prefilledReasoning`), so the reasoning is not shown as answer text.
 */
import type { Evidence } from "../tools/index.js";
import type { Workspace } from "../tools/index.js";
import { ProviderError, type ChatRequest, type ChatTurn, type Message, type Provider, type ToolCall } from "../llm/types.js";
import type { DispatchResult, ToolRegistry } from "../tools/registry.js";
import type { OfferedTool, RecoveredBy, RejectedCall, ShimDiagnostic } from "../toolshim/types.js";
import { checkCitations, type Citation } from "./grounding.js";
import { EvidenceLog } from "./evidence-log.js";
import { SYSTEM_PROMPT, maxStepsNote, readOnlyHint, repeatedCallHint } from "./prompt.js";
import {
  DEFAULT_CONTEXT_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  answerReserve,
  estimateTokens,
  fitHistory,
  type NewestForm,
} from "./context-budget.js";
import { StreamFilter, recover, renderCatalogPrompt, renderHistoryForShim, type Interpreter } from "../toolshim/index.js";

/** Tool-shim mode of a session. */
export type AgentToolshimMode = "auto" | "on" | "off";

/** One tool call the session ran (or answered), as `ask --json` reports it. */
export interface AgentStep {
  tool: string;
  arguments: unknown;
  ok: boolean;
  /** Evidence records found (`total` of the envelope); 1 for a non-evidence value; 0 on failure. */
  total: number;
  /** Wall time of the tool in ms (0 for a repeated or rejected call). */
  ms: number;
  recovered_by: RecoveredBy;
}

/** What a session produced (`ask --json` fields, plus why it stopped and the final mode). */
export interface AgentResult {
  answer: string;
  evidence: Evidence[];
  citations: Citation[];
  steps: AgentStep[];
  model: string;
  provider: string;
  /** `answer`: the model answered; `max_steps`: the step limit ended the loop. */
  stop_reason: "answer" | "max_steps";
  /** The tool-shim mode at the end (an `auto` session may have switched to `on`). */
  toolshim: AgentToolshimMode;
  /** The context size the session used, in tokens (the requested one, capped by the model's). */
  context_tokens: number;
}

/** Progress of a session, for a terminal or a log. */
export type AgentEvent =
  /** Visible assistant text (tool-call markup filtered out), as it arrives. */
  | { type: "content"; delta: string }
  /** Reasoning text: deltas as they arrive when streaming, else the whole reasoning of a turn. */
  | { type: "thinking"; delta: string }
  /** A model turn ended; `tool_calls` is how many calls it made (0 = the final answer). */
  | { type: "turn_end"; tool_calls: number }
  | { type: "tool_call"; call: ToolCall; recovered_by: RecoveredBy }
  | { type: "tool_result"; step: AgentStep; result: DispatchResult }
  /**
   * Something the user should know once: `toolshim_on` (an `auto` session switched to tool-shim
   * `on` mode) or `max_steps` (the step limit ended the loop; the answer ends with the same note).
   */
  | { type: "notice"; reason: "toolshim_on" | "max_steps"; message: string }
  /** Tool-shim diagnostics of a turn (why text did or did not become a call). */
  | { type: "diagnostic"; diagnostics: ShimDiagnostic[] }
  /**
   * The history was compacted to fit the context before a model call (see `fitHistory`):
   * counts of what was done, the estimated prompt size and the context size, in tokens.
   */
  | {
      type: "context";
      context_tokens: number;
      estimated_tokens: number;
      compacted: number;
      thinking_dropped: number;
      counts_only: number;
      newest: NewestForm;
      fits: boolean;
    };

/** Options of `runAgent`: the provider and model, the tools, the question and the session's limits. */
export interface RunAgentOptions {
  provider: Provider;
  model: string;
  registry: ToolRegistry;
  /** The sandbox the code tools read through (not needed by tools that read no files). */
  workspace?: Workspace;
  question: string;
  /** Maximum tool steps (model turns with tool calls) before the loop stops; default 8. */
  maxSteps?: number;
  /**
   * Context size in tokens (`--num-ctx`, `CODECITE_NUM_CTX`); default `DEFAULT_CONTEXT_TOKENS`
   * (8192), capped by the model's `context_length` when `describeModel` reports one. Sent with
   * every request (`ChatRequest.contextTokens`) and used to fit the history.
   */
  contextTokens?: number;
  /** Default `auto`. */
  toolshim?: AgentToolshimMode;
  /** Interpreter for the shim's last stage (text with tool intent that no parser matched). */
  interpreter?: Interpreter;
  onEvent?: (event: AgentEvent) => void;
  /** Stream model output (content events arrive as generated); default false. */
  stream?: boolean;
  signal?: AbortSignal;
  /** Replaces the default system prompt. */
  systemPrompt?: string;
  temperature?: number;
  think?: boolean;
}

/** Default step limit (`--max-steps`). */
export const DEFAULT_MAX_STEPS = 8;

function asArgs(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function withRepeatHint(result: DispatchResult, tool: string): DispatchResult {
  const hint = repeatedCallHint(tool);
  if (!result.ok) return { ...result, error: { ...result.error, hint } };
  const note = "note" in result && typeof result.note === "string" ? `${result.note} ${hint}` : hint;
  return { ...result, note } as DispatchResult;
}

/**
 * Whether a `recover` diagnostic reports a prefilled reasoning opener: stage `reasoning`, message
 * starting with `prefilled` (the wording of `toolshim/recover.ts`).
 */
export function isPrefilledReasoning(d: ShimDiagnostic): boolean {
  return d.stage === "reasoning" && d.message.startsWith("prefilled");
}

function stepTotal(result: DispatchResult): number {
  if (!result.ok) return 0;
  return "total" in result ? result.total : 1;
}

/**
 * Runs one question to an answer.
 * @returns the answer, the evidence gathered (deduplicated), the answer's citations checked
 *   against it, and one step per tool call.
 * @throws ProviderError from the provider (unreachable server, model not installed, timeout…);
 *   tool failures never throw, they become tool error messages to the model.
 */
export async function runAgent(opts: RunAgentOptions): Promise<AgentResult> {
  const { provider, model, registry, question } = opts;
  const maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new RangeError(`maxSteps must be a positive integer, got ${maxSteps}`);
  let contextTokens = opts.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  if (!Number.isInteger(contextTokens) || contextTokens < 1) {
    throw new RangeError(`contextTokens must be a positive integer, got ${contextTokens}`);
  }
  const emit = (e: AgentEvent) => opts.onEvent?.(e);
  let mode: AgentToolshimMode = opts.toolshim ?? "auto";
  const definitions = registry.definitions();
  const offered: OfferedTool[] = definitions.map((d) => ({
    name: d.function.name,
    description: d.function.description,
    parameters: d.function.parameters,
  }));
  const toolNames = registry.names();
  const basePrompt = opts.systemPrompt ?? SYSTEM_PROMPT;
  const log = new EvidenceLog();
  const steps: AgentStep[] = [];
  const history: Message[] = [{ role: "user", content: question }];

  const switchToShim = (why: string) => {
    mode = "on";
    emit({ type: "notice", reason: "toolshim_on", message: `tool shim: ${why}; switching to --toolshim on for this session (tools described in the prompt, calls read from text)` });
  };

  if (provider.describeModel) {
    try {
      const info = await provider.describeModel(model);
      if (info.context_length !== undefined && info.context_length < contextTokens) contextTokens = info.context_length;
      if (mode === "auto" && info.capabilities.length > 0 && !info.capabilities.includes("tools")) {
        switchToShim(`model ${model} lacks the tools capability`);
      }
    } catch (err) {
      if (err instanceof ProviderError && (err.code === "MODEL_NOT_FOUND" || err.code === "UNREACHABLE" || err.code === "TIMEOUT")) throw err;
      // Capabilities unknown: keep native tools (a TOOLS_UNSUPPORTED answer still switches) and
      // the requested context size.
    }
  }
  const limitTokens = contextTokens - answerReserve(contextTokens);
  /** Set once a turn's reasoning came with a prefilled opener (see the module comment). */
  let prefilledReasoning = false;

  /** The history fitted into the context (see `fitHistory`); says so with a `context` event. */
  const fittedHistory = (system: string, withTools: boolean): Message[] => {
    let fixedTokens = estimateTokens(system) + MESSAGE_OVERHEAD_TOKENS;
    if (withTools) fixedTokens += estimateTokens(JSON.stringify(definitions));
    const fit = fitHistory(history, { fixedTokens, limitTokens });
    if (fit.compacted > 0 || fit.thinkingDropped > 0 || fit.countsOnly > 0 || fit.newest !== "intact" || !fit.fits) {
      emit({
        type: "context",
        context_tokens: contextTokens,
        estimated_tokens: fit.estimatedTokens,
        compacted: fit.compacted,
        thinking_dropped: fit.thinkingDropped,
        counts_only: fit.countsOnly,
        newest: fit.newest,
        fits: fit.fits,
      });
    }
    return fit.messages;
  };

  const buildRequest = (): ChatRequest => {
    const req: ChatRequest = { model, messages: [], contextTokens };
    if (mode === "on") {
      const system = `${basePrompt}\n\n${renderCatalogPrompt(offered)}`;
      req.messages = renderHistoryForShim([{ role: "system", content: system }, ...fittedHistory(system, false)]);
    } else {
      req.messages = [{ role: "system", content: basePrompt }, ...fittedHistory(basePrompt, true)];
      req.tools = definitions;
    }
    if (opts.temperature !== undefined) req.temperature = opts.temperature;
    if (opts.think !== undefined) req.think = opts.think;
    return req;
  };

  /** One model turn; streams through the shim's filter; switches `auto` → `on` on TOOLS_UNSUPPORTED. */
  const ask = async (): Promise<{ turn: ChatTurn; streamed: boolean }> => {
    for (;;) {
      const filter = mode === "off" ? undefined : new StreamFilter(offered, { prefilledReasoning });
      const chatOpts: Parameters<Provider["chat"]>[1] = {};
      if (opts.signal) chatOpts.signal = opts.signal;
      if (opts.stream) {
        chatOpts.onContent = (delta) => {
          const shown = filter ? filter.push(delta) : delta;
          if (shown) emit({ type: "content", delta: shown });
        };
        chatOpts.onThinking = (delta) => emit({ type: "thinking", delta });
      }
      try {
        const turn = await provider.chat(buildRequest(), chatOpts);
        if (opts.stream && filter) {
          const rest = filter.end();
          if (rest) emit({ type: "content", delta: rest });
        }
        return { turn, streamed: opts.stream === true };
      } catch (err) {
        if (err instanceof ProviderError && err.code === "TOOLS_UNSUPPORTED" && mode === "auto") {
          switchToShim(`the server says model ${model} does not support tools`);
          continue;
        }
        throw err;
      }
    }
  };

  const runCall = async (call: { name: string; arguments: unknown; id?: string }, recoveredBy: RecoveredBy) => {
    const args = call.arguments;
    const previous = log.previous(call.name, args);
    let result: DispatchResult;
    let ms = 0;
    if (previous) {
      result = withRepeatHint(previous, call.name);
    } else {
      const started = performance.now();
      const ctx: Parameters<ToolRegistry["dispatch"]>[1] = {};
      if (opts.workspace) ctx.workspace = opts.workspace;
      if (opts.signal) ctx.signal = opts.signal;
      result = await registry.dispatch({ name: call.name, arguments: args }, ctx);
      ms = Math.round(performance.now() - started);
      log.record(call.name, args, result);
    }
    const step: AgentStep = { tool: call.name, arguments: args, ok: result.ok, total: stepTotal(result), ms, recovered_by: recoveredBy };
    steps.push(step);
    emit({ type: "tool_result", step, result });
    const message: Message = { role: "tool", content: JSON.stringify(result), tool_name: call.name };
    if (call.id !== undefined) message.tool_call_id = call.id;
    history.push(message);
  };

  const rejectCall = (r: RejectedCall, recoveredBy: RecoveredBy) => {
    const schema = offered.find((t) => t.name === r.name)?.parameters;
    const hint =
      r.code === "INVALID_ARGUMENT" && schema
        ? `Expected parameters: ${JSON.stringify(schema.properties ?? {})}`
        : readOnlyHint(toolNames);
    const result: DispatchResult = { ok: false, error: { code: r.code, message: r.message, hint } };
    const step: AgentStep = { tool: r.name, arguments: r.arguments, ok: false, total: 0, ms: 0, recovered_by: recoveredBy };
    steps.push(step);
    emit({ type: "tool_result", step, result });
    history.push({ role: "tool", content: JSON.stringify(result), tool_name: r.name });
  };

  let answer: string;
  let stopReason: AgentResult["stop_reason"] = "answer";
  for (let round = 0; ; round++) {
    const { turn, streamed } = await ask();
    let calls: ToolCall[];
    let rejected: RejectedCall[] = [];
    let content: string;
    let thinking = turn.thinking;
    let recoveredBy: RecoveredBy;
    if (mode === "off") {
      calls = turn.tool_calls;
      content = turn.content;
      recoveredBy = calls.length > 0 ? "native" : "none";
    } else {
      const shimOpts: { interpreter?: Interpreter; signal?: AbortSignal } = {};
      if (opts.interpreter) shimOpts.interpreter = opts.interpreter;
      if (opts.signal) shimOpts.signal = opts.signal;
      const turnIn = { content: turn.content, tool_calls: turn.tool_calls, ...(turn.thinking !== undefined ? { thinking: turn.thinking } : {}) };
      const r = await recover(turnIn, offered, shimOpts);
      calls = r.tool_calls;
      rejected = r.rejected;
      content = r.content;
      if (r.thinking !== undefined) thinking = r.thinking;
      recoveredBy = r.recovered_by;
      if (r.diagnostics.length > 0) emit({ type: "diagnostic", diagnostics: r.diagnostics });
      if (r.diagnostics.some(isPrefilledReasoning)) prefilledReasoning = true;
      // Reasoning written in the content was held back while streaming: report it now.
      if (streamed && !turn.thinking && r.thinking) emit({ type: "thinking", delta: r.thinking });
    }
    if (!streamed && thinking) emit({ type: "thinking", delta: thinking });
    if (!streamed && content.trim() !== "") emit({ type: "content", delta: content });
    const callCount = calls.length + rejected.length;
    emit({ type: "turn_end", tool_calls: callCount });

    if (callCount === 0) {
      answer = content.trim();
      break;
    }
    if (round >= maxSteps) {
      stopReason = "max_steps";
      const note = maxStepsNote(maxSteps);
      emit({ type: "notice", reason: "max_steps", message: note });
      answer = content.trim() === "" ? note : `${content.trim()}\n\n${note}`;
      break;
    }

    const assistant: Message = {
      role: "assistant",
      content,
      tool_calls: [
        ...calls,
        ...rejected.map((r) => ({ name: r.name, arguments: asArgs(r.arguments) })),
      ],
    };
    if (thinking) assistant.thinking = thinking;
    history.push(assistant);
    for (const call of calls) {
      emit({ type: "tool_call", call, recovered_by: recoveredBy });
      await runCall(call, recoveredBy);
    }
    // A refused native call (an unknown tool name) came natively, whatever the shim recovered.
    const rejectedBy: RecoveredBy = recoveredBy === "none" && turn.tool_calls.length > 0 ? "native" : recoveredBy;
    for (const r of rejected) rejectCall(r, rejectedBy);
  }

  const evidence = log.evidence();
  return {
    answer,
    evidence,
    citations: checkCitations(answer, evidence),
    steps,
    model,
    provider: provider.id,
    stop_reason: stopReason,
    toolshim: mode,
    context_tokens: contextTokens,
  };
}
