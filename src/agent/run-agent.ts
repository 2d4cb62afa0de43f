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
 */
import type { Evidence } from "../tools/index.js";
import type { Workspace } from "../tools/index.js";
import { ProviderError, type ChatRequest, type ChatTurn, type Message, type Provider, type ToolCall } from "../llm/types.js";
import type { DispatchResult, ToolRegistry } from "../tools/registry.js";
import type { OfferedTool, RecoveredBy, RejectedCall, ShimDiagnostic } from "../toolshim/types.js";
import { checkCitations, type Citation } from "./grounding.js";
import { EvidenceLog } from "./evidence-log.js";
import { SYSTEM_PROMPT, maxStepsNote, readOnlyHint, repeatedCallHint } from "./prompt.js";
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
  | { type: "diagnostic"; diagnostics: ShimDiagnostic[] };

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

  if (mode === "auto" && provider.describeModel) {
    try {
      const info = await provider.describeModel(model);
      if (info.capabilities.length > 0 && !info.capabilities.includes("tools")) {
        switchToShim(`model ${model} lacks the tools capability`);
      }
    } catch (err) {
      if (err instanceof ProviderError && (err.code === "MODEL_NOT_FOUND" || err.code === "UNREACHABLE" || err.code === "TIMEOUT")) throw err;
      // Capabilities unknown: keep native tools; a TOOLS_UNSUPPORTED answer still switches.
    }
  }

  const buildRequest = (): ChatRequest => {
    const req: ChatRequest = { model, messages: [] };
    if (mode === "on") {
      const system = `${basePrompt}\n\n${renderCatalogPrompt(offered)}`;
      req.messages = renderHistoryForShim([{ role: "system", content: system }, ...history]);
    } else {
      req.messages = [{ role: "system", content: basePrompt }, ...history];
      req.tools = definitions;
    }
    if (opts.temperature !== undefined) req.temperature = opts.temperature;
    if (opts.think !== undefined) req.think = opts.think;
    return req;
  };

  /** One model turn; streams through the shim's filter; switches `auto` → `on` on TOOLS_UNSUPPORTED. */
  const ask = async (): Promise<{ turn: ChatTurn; streamed: boolean }> => {
    for (;;) {
      const filter = mode === "off" ? undefined : new StreamFilter(offered);
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
  };
}
