/**
 * Step "model turn" of `runAgent`: one request to the provider (system prompt, compacted
 * history, native tools or the shim's catalogue), streamed through the tool shim's filter so
 * that call markup is not shown as answer text. An `auto` session that hears TOOLS_UNSUPPORTED
 * switches to tool-shim `on` mode and asks again.
 */
import { ProviderError, type ChatRequest, type ChatTurn, type Provider } from "../llm/types.js";
import { StreamFilter, renderCatalogPrompt, renderHistoryForShim } from "../toolshim/index.js";
import { compactHistory } from "./compact.js";
import { switchToShim, type Session } from "./session.js";

/** The request of the next model call, in the session's current mode. */
function buildRequest(s: Session): ChatRequest {
  const req: ChatRequest = { model: s.opts.model, messages: [], contextTokens: s.contextTokens };
  if (s.mode === "on") {
    const system = `${s.basePrompt}\n\n${renderCatalogPrompt(s.offered)}`;
    req.messages = renderHistoryForShim([{ role: "system", content: system }, ...compactHistory(s, system, false)]);
  } else {
    req.messages = [{ role: "system", content: s.basePrompt }, ...compactHistory(s, s.basePrompt, true)];
    req.tools = s.definitions;
  }
  if (s.opts.temperature !== undefined) req.temperature = s.opts.temperature;
  if (s.opts.think !== undefined) req.think = s.opts.think;
  return req;
}

/** A model turn as received, and whether its content was already emitted while streaming. */
export interface ModelTurn {
  turn: ChatTurn;
  streamed: boolean;
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
    const chatOpts: Parameters<Provider["chat"]>[1] = {};
    if (opts.signal) chatOpts.signal = opts.signal;
    if (opts.stream) {
      chatOpts.onContent = (delta) => {
        const shown = filter ? filter.push(delta) : delta;
        if (shown) s.emit({ type: "content", delta: shown });
      };
      chatOpts.onThinking = (delta) => s.emit({ type: "thinking", delta });
    }
    try {
      const turn = await opts.provider.chat(buildRequest(s), chatOpts);
      if (opts.stream && filter) {
        const rest = filter.end();
        if (rest) s.emit({ type: "content", delta: rest });
      }
      return { turn, streamed: opts.stream === true };
    } catch (err) {
      if (err instanceof ProviderError && err.code === "TOOLS_UNSUPPORTED" && s.mode === "auto") {
        switchToShim(s, `the server says model ${opts.model} does not support tools`);
        continue;
      }
      throw err;
    }
  }
}
