/**
 * Step "compact" of `runAgent`: the history fitted into the session's context before a model
 * call (`fitHistory` of `context-budget.ts`: older tool results compacted first; the system
 * prompt, the question and the newest tool result kept, the newest at least with its record
 * locations and first lines). Says what it did with a `context` event, and the budget per part
 * with a `budget` event. When not even that fits, the call is not made: {@link ContextTooSmall}
 * names the smallest context that works. The evidence log keeps every record for grounding.
 */
import type { Message, ToolDefinition } from "../llm/types.js";
import { MESSAGE_OVERHEAD_TOKENS, answerReserve, estimateTokens, fitHistory, type FitResult } from "./context-budget.js";
import { catalogueTokens, fitCatalogue } from "./catalogue.js";
import type { Session } from "./session.js";

/** Context sizes are proposed in steps of this many tokens. */
const CONTEXT_STEP = 1024;
/** The largest context size proposed (`--num-ctx` accepts up to this). */
const MAX_PROPOSED_CONTEXT = 1_048_576;

/** Thrown before a model call whose prompt cannot fit the context in any compact form. */
export class ContextTooSmall extends Error {
  override readonly name = "ContextTooSmall";
  constructor(
    /** The session's context size, tokens. */
    readonly contextTokens: number,
    /** The smallest `--num-ctx` with which the same prompt fits (`undefined` when none up to 1M does). */
    readonly smallestWorking: number | undefined,
  ) {
    super(
      smallestWorking === undefined
        ? `the prompt does not fit a ${contextTokens}-token context, nor any context codecite can ask for`
        : `the prompt does not fit a ${contextTokens}-token context even with every tool result compacted; the smallest --num-ctx that works is ${smallestWorking}`,
    );
  }
}

function fixedTokensOf(system: string, tools: readonly ToolDefinition[] | undefined): number {
  return estimateTokens(system) + MESSAGE_OVERHEAD_TOKENS + (tools ? catalogueTokens(tools) : 0);
}

/**
 * The smallest context (a multiple of 1024) in which `history` fits next to `system` and the
 * catalogue as it would be sent at that size; `undefined` when none up to 1M does.
 */
function smallestWorkingContext(
  history: readonly Message[],
  system: string,
  fullTools: ToolDefinition[] | undefined,
  from: number,
): number | undefined {
  const fitsAt = (ctx: number) => {
    const tools = fullTools ? fitCatalogue(fullTools, ctx) : undefined;
    return fitHistory(history, { fixedTokens: fixedTokensOf(system, tools), limitTokens: ctx - answerReserve(ctx) }).fits;
  };
  let lo = Math.ceil((from + 1) / CONTEXT_STEP); // in steps; `from` itself does not fit
  let hi = lo;
  while (!fitsAt(hi * CONTEXT_STEP)) {
    if (hi * CONTEXT_STEP >= MAX_PROPOSED_CONTEXT) return undefined;
    lo = hi + 1;
    hi = Math.min(hi * 2, MAX_PROPOSED_CONTEXT / CONTEXT_STEP);
  }
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fitsAt(mid * CONTEXT_STEP)) hi = mid;
    else lo = mid + 1;
  }
  return hi * CONTEXT_STEP;
}

/**
 * Tokens the history may take before the session's first model call: the prompt limit less the
 * system prompt and the tool catalogue as they are sent (estimates).
 */
export function historyRoom(s: Session): number {
  return s.limitTokens - fixedTokensOf(s.basePrompt, s.definitions);
}

/**
 * The session's history as it fits the context next to `system` (and the native tool
 * definitions when `withTools`).
 * @throws ContextTooSmall when even the most compact form does not fit.
 */
export function compactHistory(s: Session, system: string, withTools: boolean): FitResult & { fixedTokens: number } {
  const fixedTokens = fixedTokensOf(system, withTools ? s.definitions : undefined);
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
  const toolTokens = withTools ? catalogueTokens(s.definitions) : 0;
  s.emit({
    type: "budget",
    context_tokens: s.contextTokens,
    system: fixedTokens - toolTokens,
    tools: toolTokens,
    history: fit.estimatedTokens - fixedTokens,
    reserve: s.contextTokens - s.limitTokens,
  });
  if (!fit.fits) {
    const smallest = smallestWorkingContext(s.history, withTools ? s.basePrompt : system, withTools ? s.fullDefinitions : undefined, s.contextTokens);
    throw new ContextTooSmall(s.contextTokens, smallest);
  }
  return { ...fit, fixedTokens };
}
