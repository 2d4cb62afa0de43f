/**
 * The state of one agent session and its first step, `prepare`: the options checked, the
 * model's capabilities and context size asked once, the tool catalogue, the evidence log and
 * the history started with the question. The other steps of `runAgent` (`model-turn.ts`,
 * `recover-turn.ts`, `dispatch.ts`, `compact.ts`, `finish.ts`) read and update this state.
 */
import type { Evidence, Workspace } from "../tools/index.js";
import { ProviderError, type Message, type Provider, type Sampling, type ToolCall, type ToolDefinition } from "../llm/types.js";
import type { DispatchResult, ToolRegistry } from "../tools/registry.js";
import type { OfferedTool, RecoveredBy, ShimDiagnostic } from "../toolshim/types.js";
import type { Interpreter } from "../toolshim/index.js";
import type { Citation, Grounding } from "./grounding.js";
import { EvidenceLog } from "./evidence-log.js";
import { SYSTEM_PROMPT } from "./prompt.js";
import { answerReserve, type NewestForm } from "./context-budget.js";
import { DEFAULT_CONTEXT_TOKENS, DEFAULT_MAX_STEPS } from "./defaults.js";
import type { ToolshimMode } from "../toolshim/types.js";
import { fitCatalogue } from "./catalogue.js";

/** Tool-shim mode of a session. */
export type AgentToolshimMode = ToolshimMode;

/** One tool call the session ran (or answered), as `ask --json` reports it. */
export interface AgentStep {
  tool: string;
  arguments: unknown;
  ok: boolean;
  /** Evidence records found (`total` of the envelope); 1 for a non-evidence value; 0 on failure. */
  total: number;
  /** Wall time of the tool in ms (0 for a repeated or rejected call). */
  ms: number;
  /** How the call came: from the model (native or recovered by the shim), or `prefetch` (codecite looked the question's code names up first). */
  recovered_by: RecoveredBy | "prefetch";
}

/**
 * Why a session stopped: `answer` (the model answered), `abstained` (it said it could not
 * answer from the evidence), `length` (the answer was cut by the output limit), `max_steps`
 * (the step limit), `timeout` (the session deadline), `context` (the context is too small for
 * the prompt; the answer names the smallest size that works).
 */
export type StopReason = "answer" | "abstained" | "length" | "max_steps" | "timeout" | "context";

/** What a session produced (`ask --json` fields, plus why it stopped and the final mode). */
export interface AgentResult {
  answer: string;
  evidence: Evidence[];
  citations: Citation[];
  steps: AgentStep[];
  model: string;
  provider: string;
  stop_reason: StopReason;
  /** How well the answer is grounded (`grounding.ts`). */
  grounding: Grounding;
  /** How many times codecite asked the model to correct its citations (0 or 1). */
  reasks: number;
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
  | { type: "tool_call"; call: ToolCall; recovered_by: AgentStep["recovered_by"] }
  | { type: "tool_result"; step: AgentStep; result: DispatchResult }
  /**
   * Something the user should know once: `toolshim_on` (an `auto` session switched to tool-shim
   * `on` mode), `max_steps`, `timeout`, `calls_cut`, `length`, `context` (the session stopped or
   * was cut; the answer ends with the same note), `compact_tools` (the tool catalogue was sent
   * in its compact form), `server_truncation` (the server evaluated clearly fewer prompt tokens
   * than were sent), `reask` (codecite asked the model to correct its citations).
   */
  | { type: "notice"; reason: NoticeReason; message: string }
  /** The estimated prompt budget of the next model call, per part, in tokens. */
  | { type: "budget"; context_tokens: number; system: number; tools: number; history: number; reserve: number }
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

/** What a `notice` event is about. */
export type NoticeReason = "toolshim_on" | "max_steps" | "timeout" | "calls_cut" | "length" | "context" | "compact_tools" | "server_truncation" | "reask";

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
   * Most tool calls run from one model turn (`--max-calls-per-turn`,
   * `CODECITE_MAX_CALLS_PER_TURN`); default {@link DEFAULT_MAX_CALLS_PER_TURN}. Calls beyond
   * it are not run, and the answer says which.
   */
  maxCallsPerTurn?: number;
  /**
   * Deadline of the whole session in ms (`--timeout`, `CODECITE_TIMEOUT` in seconds); default
   * {@link DEFAULT_SESSION_TIMEOUT_MS}. When it passes, the session stops (`stop_reason:
   * "timeout"`) with the evidence gathered so far.
   */
  timeoutMs?: number;
  /**
   * Look the question's code names up before the first model call (`prefetch.ts`); default
   * true. Needs `workspace` (without it nothing is looked up).
   */
  prefetch?: boolean;
  /** Ask the model once more when its citations fail the grounding check; default true. */
  reask?: boolean;
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
  /** Sampling and length settings of every model call (`ChatRequest.sampling`). */
  sampling?: Sampling;
  /** How long the server keeps the model loaded after each call (`ChatRequest.keepAlive`). */
  keepAlive?: string | number;
  think?: boolean;
}

export { DEFAULT_MAX_STEPS };

/** Default of {@link RunAgentOptions.maxCallsPerTurn}. */
export const DEFAULT_MAX_CALLS_PER_TURN = 16;

/** Default of {@link RunAgentOptions.timeoutMs}: 10 minutes. */
export const DEFAULT_SESSION_TIMEOUT_MS = 600_000;

/** The abort reason of a session whose deadline passed. */
export class SessionDeadline extends Error {
  override readonly name = "SessionDeadline";
}

/** The mutable state of one session, shared by the steps of `runAgent`. */
export interface Session {
  readonly opts: RunAgentOptions;
  readonly maxSteps: number;
  readonly maxCallsPerTurn: number;
  /** Aborts on the caller's signal and at the session deadline (reason {@link SessionDeadline}). */
  readonly signal: AbortSignal;
  /** Stops the deadline timer. */
  readonly dispose: () => void;
  /** Model turns with tool calls so far. */
  round: number;
  /** Notes for the answer about what was cut (calls over the per-turn cap). */
  readonly cutNotes: string[];
  /** A turn of only repeated calls was answered with the repeat hint; the next one ends the session. */
  repeatTold: boolean;
  /** The note a `max_steps` stop added to the answer (the step limit, or repeated calls). */
  stopNote: string | undefined;
  /** Requests sent so far, and what the previous one held (`server-truncation.ts`). */
  requests: number;
  previousPrompt: { messages: string[] } | undefined;
  /** The previous request's prompt count and estimate (`server-truncation.ts`). */
  previousCount: { evaluated: number; sent: number } | undefined;
  /** The server-truncation warning was given. */
  truncationWarned: boolean;
  /** Tool-shim mode now (an `auto` session may switch to `on`). */
  mode: AgentToolshimMode;
  /** The context size in tokens (the requested one, capped by the model's). */
  contextTokens: number;
  /** The most the prompt may take: `contextTokens` minus the answer reserve. */
  limitTokens: number;
  /** The tool definitions as sent (compact when the full catalogue would take over a quarter of the context). */
  definitions: ToolDefinition[];
  offered: OfferedTool[];
  /** The registry's full definitions. */
  readonly fullDefinitions: ToolDefinition[];
  readonly toolNames: string[];
  readonly basePrompt: string;
  readonly log: EvidenceLog;
  readonly steps: AgentStep[];
  /** The messages after the system prompt, question first. */
  readonly history: Message[];
  /** Set once a turn's reasoning came with a prefilled opener (see `run-agent.ts`). */
  prefilledReasoning: boolean;
  emit(e: AgentEvent): void;
}

/** Sets the session's context size, its prompt limit, and the catalogue form that fits it. */
export function setContextTokens(s: Session, contextTokens: number): void {
  s.contextTokens = contextTokens;
  s.limitTokens = contextTokens - answerReserve(contextTokens);
  const compactBefore = s.definitions !== s.fullDefinitions;
  s.definitions = fitCatalogue(s.fullDefinitions, contextTokens);
  s.offered = s.definitions.map((d) => ({ name: d.function.name, description: d.function.description, parameters: d.function.parameters }));
  if (!compactBefore && s.definitions !== s.fullDefinitions) {
    s.emit({
      type: "notice",
      reason: "compact_tools",
      message: `the tool catalogue would take over a quarter of the ${contextTokens}-token context; sending it in its compact form (short descriptions)`,
    });
  }
}

/** Switches an `auto` session to tool-shim `on` mode and says so once. */
export function switchToShim(s: Session, why: string): void {
  s.mode = "on";
  s.emit({
    type: "notice",
    reason: "toolshim_on",
    message: `tool shim: ${why}; switching to --toolshim on for this session (tools described in the prompt, calls read from text)`,
  });
}

/**
 * Step 1 — prepare: checks the limits, asks the model's capabilities and context length once
 * (`describeModel`; unknown capabilities keep native tools and the requested context), and
 * starts the history with the question.
 * @throws RangeError for a `maxSteps` or `contextTokens` that is not a positive integer;
 *   ProviderError MODEL_NOT_FOUND / UNREACHABLE / TIMEOUT from `describeModel`.
 */
export async function prepare(opts: RunAgentOptions): Promise<Session> {
  const maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new RangeError(`maxSteps must be a positive integer, got ${maxSteps}`);
  const contextTokens = opts.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  if (!Number.isInteger(contextTokens) || contextTokens < 1) {
    throw new RangeError(`contextTokens must be a positive integer, got ${contextTokens}`);
  }
  const maxCallsPerTurn = opts.maxCallsPerTurn ?? DEFAULT_MAX_CALLS_PER_TURN;
  if (!Number.isInteger(maxCallsPerTurn) || maxCallsPerTurn < 1) throw new RangeError(`maxCallsPerTurn must be a positive integer, got ${maxCallsPerTurn}`);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  const definitions = opts.registry.definitions();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new SessionDeadline(`session deadline of ${timeoutMs} ms passed`)), timeoutMs);
  timer.unref?.();
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline.signal]) : deadline.signal;
  const s: Session = {
    opts,
    maxSteps,
    maxCallsPerTurn,
    signal,
    dispose: () => clearTimeout(timer),
    round: 0,
    cutNotes: [],
    repeatTold: false,
    stopNote: undefined,
    requests: 0,
    previousPrompt: undefined,
    previousCount: undefined,
    truncationWarned: false,
    fullDefinitions: definitions,
    mode: opts.toolshim ?? "auto",
    contextTokens,
    limitTokens: 0,
    definitions,
    offered: definitions.map((d) => ({ name: d.function.name, description: d.function.description, parameters: d.function.parameters })),
    toolNames: opts.registry.names(),
    basePrompt: opts.systemPrompt ?? SYSTEM_PROMPT,
    log: new EvidenceLog(),
    steps: [],
    history: [{ role: "user", content: opts.question }],
    prefilledReasoning: false,
    emit: (e) => opts.onEvent?.(e),
  };
  const { provider, model } = opts;
  if (provider.describeModel) {
    try {
      const info = await provider.describeModel(model);
      if (info.context_length !== undefined && info.context_length < s.contextTokens) s.contextTokens = info.context_length;
      if (s.mode === "auto" && info.capabilities.length > 0 && !info.capabilities.includes("tools")) {
        switchToShim(s, `model ${model} lacks the tools capability`);
      }
    } catch (err) {
      if (err instanceof ProviderError && (err.code === "MODEL_NOT_FOUND" || err.code === "UNREACHABLE" || err.code === "TIMEOUT")) throw err;
      // Capabilities unknown: keep native tools (a TOOLS_UNSUPPORTED answer still switches) and
      // the requested context size.
    }
  }
  setContextTokens(s, s.contextTokens);
  return s;
}
