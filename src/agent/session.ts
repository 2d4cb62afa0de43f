/**
 * The state of one agent session and its first step, `prepare`: the options checked, the
 * model's capabilities and context size asked once, the tool catalogue, the evidence log and
 * the history started with the question. The other steps of `runAgent` (`model-turn.ts`,
 * `recover-turn.ts`, `dispatch.ts`, `compact.ts`, `finish.ts`) read and update this state.
 */
import type { Evidence, Workspace } from "../tools/index.js";
import { ProviderError, type Message, type Provider, type ToolCall, type ToolDefinition } from "../llm/types.js";
import type { DispatchResult, ToolRegistry } from "../tools/registry.js";
import type { OfferedTool, RecoveredBy, ShimDiagnostic } from "../toolshim/types.js";
import type { Interpreter } from "../toolshim/index.js";
import type { Citation } from "./grounding.js";
import { EvidenceLog } from "./evidence-log.js";
import { SYSTEM_PROMPT } from "./prompt.js";
import { DEFAULT_CONTEXT_TOKENS, answerReserve, type NewestForm } from "./context-budget.js";

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

/** The mutable state of one session, shared by the steps of `runAgent`. */
export interface Session {
  readonly opts: RunAgentOptions;
  readonly maxSteps: number;
  /** Tool-shim mode now (an `auto` session may switch to `on`). */
  mode: AgentToolshimMode;
  /** The context size in tokens (the requested one, capped by the model's). */
  contextTokens: number;
  /** The most the prompt may take: `contextTokens` minus the answer reserve. */
  limitTokens: number;
  readonly definitions: ToolDefinition[];
  readonly offered: OfferedTool[];
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
  const definitions = opts.registry.definitions();
  const s: Session = {
    opts,
    maxSteps,
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
  s.limitTokens = s.contextTokens - answerReserve(s.contextTokens);
  return s;
}
