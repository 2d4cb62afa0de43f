/**
 * Step "model turn" of `runAgent`: one request to the provider (system prompt, compacted
 * history, native tools or the shim's catalogue), streamed through the tool shim's filter so
 * that call markup is not shown as answer text, and reasoning written in the content is streamed
 * as reasoning while it arrives (`ReasoningStream`). An `auto` session that hears TOOLS_UNSUPPORTED
 * switches to tool-shim `on` mode and asks again.
 */
import { ProviderError, type ChatRequest, type ChatTurn, type Message, type Provider } from "../llm/types.js";
import { ReasoningStream, StreamFilter, renderCatalogPrompt, renderHistoryForShim } from "../toolshim/index.js";
import { compactHistory } from "./compact.js";
import { estimateMessageTokens } from "./context-budget.js";
import { freshTokens, looksTruncated, truncationMessage, type SentPrompt } from "./server-truncation.js";
import { setContextTokens, switchToShim, type Session } from "./session.js";

/** A message as the prompt-cache comparison sees it. */
function keyOf(m: Message): string {
  return JSON.stringify([m.role, m.content, m.tool_calls ?? null]);
}

/**
 * The request of the next model call, in the session's current mode, with its estimated size.
 * Marks the tool results it sends as shown (`EvidenceLog.markShown`).
 * @throws ContextTooSmall (`compact.ts`).
 */
function buildRequest(s: Session): { req: ChatRequest; prompt: SentPrompt; keys: string[] } {
  const req: ChatRequest = { model: s.opts.model, messages: [], contextTokens: s.contextTokens };
  const shim = s.mode === "on";
  const system = shim ? `${s.basePrompt}\n\n${renderCatalogPrompt(s.offered)}` : s.basePrompt;
  const fit = compactHistory(s, system, !shim);
  const history = fit.messages;
  if (shim) {
    req.messages = renderHistoryForShim([{ role: "system", content: system }, ...history]);
  } else {
    req.messages = [{ role: "system", content: system }, ...history];
    req.tools = s.definitions;
  }
  for (const m of history) if (m.role === "tool") s.log.markShown(m.content);
  if (s.opts.temperature !== undefined) req.temperature = s.opts.temperature;
  if (s.opts.sampling !== undefined) req.sampling = s.opts.sampling;
  if (s.opts.keepAlive !== undefined) req.keepAlive = s.opts.keepAlive;
  if (s.opts.think !== undefined) req.think = s.opts.think;
  const keys = history.map(keyOf);
  const fresh = freshTokens(keys, history.map(estimateMessageTokens), s.previousPrompt?.messages);
  return { req, prompt: { sent: fit.estimatedTokens, fresh }, keys };
}

/**
 * Checks the server's prompt count (`server-truncation.ts`); on a cut prompt, warns once and
 * fits the rest of the session to the observed size.
 */
function checkServerTruncation(s: Session, turn: ChatTurn, prompt: SentPrompt): void {
  const evaluated = turn.usage?.prompt_tokens;
  if (evaluated === undefined) return;
  const previous = s.previousCount;
  s.previousCount = { evaluated, sent: prompt.sent };
  if (!looksTruncated(evaluated, prompt, previous)) return;
  if (evaluated < s.contextTokens) setContextTokens(s, evaluated);
  if (s.truncationWarned) return;
  s.truncationWarned = true;
  s.emit({ type: "notice", reason: "server_truncation", message: truncationMessage(evaluated, prompt.sent, s.contextTokens) });
}

/** A model turn as received, and whether its content was already emitted while streaming. */
export interface ModelTurn {
  turn: ChatTurn;
  streamed: boolean;
  /**
   * The reasoning streamed from the content (streamed through the shim, and the model sent no
   * reasoning of its own); its rest comes from the turn's recovery.
   */
  reasoning?: ReasoningStream;
}

/**
 * Step 2 — model turn: sends the request, streaming `content`/`thinking` events when the
 * session streams.
 * @throws ProviderError from the provider (TOOLS_UNSUPPORTED only outside `auto` mode).
 */
export async function modelTurn(s: Session): Promise<ModelTurn> {
  const { opts } = s;
  for (;;) {
    const filter = s.mode === "off" ? undefined : new StreamFilter(s.offered, { prefilledReasoning: s.prefilledReasoning });
    let reasoning = filter && opts.stream ? new ReasoningStream(s.offered) : undefined;
    const chatOpts: Parameters<Provider["chat"]>[1] = {};
    chatOpts.signal = s.signal;
    if (opts.stream) {
      chatOpts.onContent = (delta) => {
        // The reasoning this piece decides comes before the answer text it lets through.
        const thought = reasoning?.push(delta);
        if (thought) s.emit({ type: "thinking", delta: thought });
        const shown = filter ? filter.push(delta) : delta;
        if (shown) s.emit({ type: "content", delta: shown });
      };
      chatOpts.onThinking = (delta) => {
        reasoning = undefined;
        s.emit({ type: "thinking", delta });
      };
    }
    const { req, prompt, keys } = buildRequest(s);
    try {
      const turn = await opts.provider.chat(req, chatOpts);
      s.requests++;
      checkServerTruncation(s, turn, prompt);
      s.previousPrompt = { messages: [...keys, keyOf({ role: "assistant", content: turn.content, tool_calls: turn.tool_calls })] };
      const model: ModelTurn = { turn, streamed: opts.stream === true };
      if (opts.stream && filter) {
        const rest = filter.end();
        if (reasoning) {
          // The reasoning's rest before the answer's: the filter's recovery is the turn's when the
          // model made no native calls (else `recoverTurn` gives the rest).
          if (turn.tool_calls.length === 0 && filter.text === turn.content) {
            const thought = reasoning.end(filter.result?.thinking);
            if (thought.trim() !== "") s.emit({ type: "thinking", delta: thought });
          }
          model.reasoning = reasoning;
        }
        if (rest) s.emit({ type: "content", delta: rest });
      }
      return model;
    } catch (err) {
      if (err instanceof ProviderError && err.code === "TOOLS_UNSUPPORTED" && s.mode === "auto") {
        switchToShim(s, `the server says model ${opts.model} does not support tools`);
        continue;
      }
      throw err;
    }
  }
}
