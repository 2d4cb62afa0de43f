/**
 * One assistant turn through the tool shim with the client's own tools: the request goes to the
 * upstream (streamed), content passes through `StreamFilter` (call markup and reasoning never
 * reach the client), reasoning goes out as reasoning while it arrives (`ReasoningStream`: the
 * reasoning written in the content too, before the answer after it), and at the end the calls written as text
 * (`recoverDeterministic` with the client's tool list as the whitelist) go out as structured
 * calls. A call naming a tool the client did not offer is never produced: it is refused, and a
 * one-line note in the content says so.
 *
 * Prompt mode (README "Tool-shim modes", `on`): a model without native tool support — its
 * capabilities lack `tools` (Ollama `POST /api/show`) or the upstream answers that it "does not
 * support tools" — gets no `tools`; the catalogue goes into the system prompt and earlier calls
 * and results into the history as text (`toolshim/prompt.ts`). The client still sees native
 * calls. The decision is remembered per model.
 */
import { ProviderError, type ChatRequest, type Message, type Provider } from "../llm/types.js";
import { ReasoningStream, StreamFilter, recoverDeterministic, renderCatalogPrompt, renderHistoryForShim, type OfferedTool } from "../toolshim/index.js";
import { schemaValidator } from "../tools/schema-validator.js";
import type { GatewayStats, ModelStats } from "./stats.js";
import { GatewayError, type ChatWriter, type FinishReason, type GatewayChat } from "./types.js";
import { newCallId } from "./wire.js";

/**
 * What the shim learned about each model: which ones need prompt mode, and which ones' templates
 * prefill a reasoning opener (their text holds only `</think>`; the stream filter cannot tell
 * that reasoning from an answer until the closer comes, so it is told for the model's later turns).
 */
export class ToolSupport {
  readonly #known = new Map<string, boolean>();
  readonly #prefilled = new Set<string>();

  constructor(private readonly provider: Provider) {}

  /**
   * Whether `model` takes native tools: `/api/show` capabilities when the upstream reports them, else assumed.
   * Only what the upstream said is remembered: a model it could not describe (a name it lacks, or the
   * upstream down) is asked about again next time, so neither a client's made-up names fill this
   * memory nor an upstream that was down at the first request decides a model's mode for good.
   */
  async native(model: string): Promise<boolean> {
    const known = this.#known.get(model);
    if (known !== undefined) return known;
    if (!this.provider.describeModel) return true;
    try {
      const info = await this.provider.describeModel(model);
      const native = info.capabilities.length === 0 || info.capabilities.includes("tools");
      this.#known.set(model, native);
      return native;
    } catch {
      // Unknown (the chat request will say if the model is missing): try native tools first.
      return true;
    }
  }

  /** Records that `model` has no native tool support. */
  markNoTools(model: string): void {
    this.#known.set(model, false);
  }

  /** Whether a turn of `model` was seen to hold a prefilled reasoning opener's closer only. */
  reasoningPrefilled(model: string): boolean {
    return this.#prefilled.has(model);
  }

  /** Records that `model`'s template prefills a reasoning opener (`RecoverResult.prefilledReasoning`). */
  markReasoningPrefilled(model: string): void {
    this.#prefilled.add(model);
  }
}

/** The messages of a prompt-mode request: history as text, the catalogue appended to the system prompt. */
function promptModeMessages(messages: Message[], tools: readonly OfferedTool[]): Message[] {
  const rendered = renderHistoryForShim(messages);
  const catalog = renderCatalogPrompt(tools);
  const first = rendered[0];
  if (first?.role === "system") return [{ ...first, content: `${first.content}\n\n${catalog}` }, ...rendered.slice(1)];
  return [{ role: "system", content: catalog }, ...rendered];
}

/** The client's tools as the shim's whitelist. */
function offeredTools(chat: GatewayChat): OfferedTool[] {
  return chat.tools.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
}

/**
 * What the person running the gateway can do when its upstream (`api`: the provider's id,
 * `ollama` or `openai`) cannot be reached, ending every such 502 message (the client shows it
 * to its user, who may be that person). The address comes from `--upstream`, else the
 * provider's variable (`config.ts` `resolveServeConfig`).
 */
function unreachableAdvice(api: string): string {
  return api === "openai"
    ? "start that server, or point codecite serve's --upstream (or OPENAI_BASE_URL) at the running server"
    : "start Ollama (`ollama serve`), or point codecite serve's --upstream (or OLLAMA_HOST) at the running server";
}

/**
 * Maps an upstream failure to the status and message the client gets; `api` is the upstream's
 * provider id (`ollama`, `openai`). An unreachable upstream reads, on every route,
 * `upstream: cannot reach Ollama at <address> (<code>); <what to do>`.
 */
export function upstreamError(err: unknown, api: string): GatewayError {
  if (err instanceof GatewayError) return err;
  if (err instanceof ProviderError) {
    if (err.code === "UNREACHABLE") return new GatewayError(502, `upstream: ${err.message}; ${unreachableAdvice(api)}`);
    const status =
      err.code === "MODEL_NOT_FOUND"
        ? 404
        : err.code === "TIMEOUT"
          ? 504
          : err.code === "TOOLS_UNSUPPORTED"
            ? 400
            : err.code === "HTTP" && err.status !== undefined && err.status >= 400 && err.status < 500
              ? err.status
              : 502;
    return new GatewayError(status, `upstream: ${err.message}`, status === 404 ? "not_found_error" : status < 500 ? "invalid_request_error" : "upstream_error");
  }
  return new GatewayError(502, `upstream: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Resolves once the I/O callbacks already due in this turn of the event loop have run (a
 * `setImmediate`, Node.js documentation "The Node.js Event Loop": the check phase follows the
 * poll phase), so a turn's end — the recovery, the last pieces, the end of the reply — does not
 * delay the chunks of other chats that arrived with its last line: an upstream that batches
 * chats writes their chunks together. Rejects with the signal's reason when the client has gone.
 */
function afterWaitingIo(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => setImmediate(() => (signal.aborted ? reject(signal.reason) : resolve())));
}

/** The upstream's stop reason in the shim's words: `length` or `stop` when the upstream said one of them, else none. */
function cutReason(turn: { done_reason?: string }): "stop" | "length" | undefined {
  return turn.done_reason === "length" || turn.done_reason === "stop" ? turn.done_reason : undefined;
}

/** What `shimTurn` needs besides the request. */
export interface ShimTurnContext {
  provider: Provider;
  support: ToolSupport;
  stats: GatewayStats;
}

/**
 * Runs one assistant turn for a client and writes it with `out` (see the module comment).
 * Never throws: upstream failures end the reply with `out.fail` in the client's API shape.
 */
export async function shimTurn(ctx: ShimTurnContext, chat: GatewayChat, out: ChatWriter, signal: AbortSignal): Promise<void> {
  const stats = ctx.stats.model(chat.model);
  stats.turns++;
  const tools = offeredTools(chat);
  const hasTools = tools.length > 0;
  let promptMode = hasTools && !(await ctx.support.native(chat.model));
  let started = false;

  const validate = schemaValidator(tools);
  let filter: StreamFilter | undefined;
  let reasoning: ReasoningStream | undefined;
  const attempt = async (textTools: boolean) => {
    filter = new StreamFilter(tools, { validate, prefilledReasoning: ctx.support.reasoningPrefilled(chat.model) });
    reasoning = new ReasoningStream(tools);
    const req: ChatRequest = { model: chat.model, messages: textTools ? promptModeMessages(chat.messages, tools) : chat.messages };
    if (hasTools && !textTools) {
      req.tools = chat.tools;
      if (chat.toolChoice !== undefined) req.toolChoice = chat.toolChoice;
      if (chat.parallelToolCalls !== undefined) req.parallelToolCalls = chat.parallelToolCalls;
    }
    if (chat.think !== undefined) req.think = chat.think;
    if (chat.format !== undefined) req.format = chat.format;
    if (chat.temperature !== undefined) req.temperature = chat.temperature;
    if (chat.contextTokens !== undefined) req.contextTokens = chat.contextTokens;
    if (chat.sampling !== undefined) req.sampling = chat.sampling;
    if (chat.ollamaOptions !== undefined) req.ollamaOptions = chat.ollamaOptions;
    if (chat.keepAlive !== undefined) req.keepAlive = chat.keepAlive;
    const turn = await ctx.provider.chat(req, {
      signal,
      onContent: (d) => {
        started = true;
        // The reasoning this piece decides comes before the answer text it lets through.
        const thought = reasoning!.push(d);
        if (thought !== "") out.thinking(thought);
        out.content(filter!.push(d));
      },
      onThinking: (d) => {
        started = true;
        out.thinking(d);
      },
      // The filter holds the streamed text (`filter.text`): the provider keeps no copy of its own.
      streamedContent: () => filter!.text,
      // A client that reads slower than the model writes pauses the upstream's reply.
      backpressure: () => out.backlog(),
    });
    await afterWaitingIo(signal);
    // A reply the token limit cut ends in a cut call, not a call to run (AssistantTurn.finish_reason).
    // The answer's rest goes out after the reasoning's rest.
    return { turn, rest: filter!.end(cutReason(turn)) };
  };

  try {
    let attempted;
    try {
      attempted = await attempt(promptMode);
    } catch (err) {
      if (!(err instanceof ProviderError) || err.code !== "TOOLS_UNSUPPORTED" || promptMode || !hasTools || started) throw err;
      ctx.support.markNoTools(chat.model);
      promptMode = true;
      attempted = await attempt(true);
    }
    const { turn, rest } = attempted;
    if (promptMode) stats.switches++;
    // The recovery the filter applied at its end (calls and the reasoning it hid); again with native calls.
    const filtered = turn.tool_calls.length === 0 && filter?.text === turn.content ? filter.result : undefined;
    const finish = cutReason(turn);
    const result =
      filtered ??
      recoverDeterministic({ content: turn.content, tool_calls: turn.tool_calls, ...(finish === undefined ? {} : { finish_reason: finish }) }, tools, { validate });
    // The first such turn showed its reasoning before the closer came; later turns hide it.
    if (result.prefilledReasoning === true) ctx.support.markReasoningPrefilled(chat.model);
    // The reasoning not passed on while streaming.
    const thought = reasoning!.end(result.thinking);
    if (thought.trim() !== "") out.thinking(thought);
    out.content(rest);
    for (const r of result.rejected) {
      stats.refusals++;
      out.content(`\n\n[codecite: a call to ${r.name} was not passed on: ${r.message}${r.hint === undefined ? "" : ` ${r.hint}`}]`);
    }
    let calls = result.tool_calls.map((c) => ({ ...c, id: c.id ?? newCallId() }));
    // One call per turn when the client asked for no parallel calls: the first, the others noted as refused.
    if (chat.parallelToolCalls === false && calls.length > 1) {
      for (const c of calls.slice(1)) {
        stats.refusals++;
        out.content(`\n\n[codecite: a call to ${c.name} was not passed on: the client asked for one call per turn (parallel_tool_calls is false).]`);
      }
      calls = calls.slice(0, 1);
    }
    if (calls.length > 0) {
      if (result.recovered_by === "native") stats.native_calls += calls.length;
      else stats.recovered[result.recovered_by] = (stats.recovered[result.recovered_by] ?? 0) + calls.length;
      out.toolCalls(calls);
    }
    const reason: FinishReason = calls.length > 0 ? "tool_calls" : turn.done_reason === "length" ? "length" : "stop";
    out.finish(reason, turn.usage);
  } catch (err) {
    failTurn(err, signal, stats, out, ctx.provider);
  }
}

/** Ends a failed turn for the client (nothing when the client has gone) and counts the error. */
export function failTurn(err: unknown, signal: AbortSignal, stats: ModelStats, out: ChatWriter, provider: Provider): void {
  if (signal.aborted) return;
  stats.errors++;
  out.fail(upstreamError(err, provider.id));
}
