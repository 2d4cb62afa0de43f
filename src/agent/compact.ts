/**
 * Step "compact" of `runAgent`: the history fitted into the session's context before a model
 * call (`fitHistory` of `context-budget.ts`: older tool results compacted first; the system
 * prompt, the question and the newest tool result kept). Says what it did with a `context`
 * event; the evidence log keeps every record for grounding.
 */
import type { Message } from "../llm/types.js";
import { MESSAGE_OVERHEAD_TOKENS, estimateTokens, fitHistory } from "./context-budget.js";
import type { Session } from "./session.js";

/**
 * The session's history as it fits the context next to `system` (and the native tool
 * definitions when `withTools`).
 */
export function compactHistory(s: Session, system: string, withTools: boolean): Message[] {
  let fixedTokens = estimateTokens(system) + MESSAGE_OVERHEAD_TOKENS;
  if (withTools) fixedTokens += estimateTokens(JSON.stringify(s.definitions));
  const fit = fitHistory(s.history, { fixedTokens, limitTokens: s.limitTokens });
  if (fit.compacted > 0 || fit.thinkingDropped > 0 || fit.countsOnly > 0 || fit.newest !== "intact" || !fit.fits) {
    s.emit({
      type: "context",
      context_tokens: s.contextTokens,
      estimated_tokens: fit.estimatedTokens,
      compacted: fit.compacted,
      thinking_dropped: fit.thinkingDropped,
      counts_only: fit.countsOnly,
      newest: fit.newest,
      fits: fit.fits,
    });
  }
  return fit.messages;
}
