/**
 * Truncation the server did not report: a server whose context is smaller than the prompt cuts
 * the prompt (Ollama keeps its head and tail and drops the middle, or drops the front when
 * `num_ctx` is set in a Modelfile; llama.cpp's server with `-c`) and still answers. The
 * providers report how many prompt tokens the server evaluated (Ollama `prompt_eval_count`,
 * OpenAI-compatible `usage.prompt_tokens`, node-llama-cpp's count) as `ChatTurn.usage.prompt_tokens`.
 *
 * Prompt caching makes a small count normal: Ollama keeps the KV cache of a slot's last
 * request and evaluates only the part of a new prompt after the longest prefix it shares with
 * it (the Ollama server's `loadCacheSlot`/`LoadCacheSlot`, llama.cpp's `cache_prompt`), and
 * reports only those tokens. So the check compares the count with two estimates:
 * - `sent`: the estimated tokens of the whole prompt (`estimateTokens`, which errs high for
 *   prose and low for dense JSON);
 * - `fresh`: the tokens that no cache could hold: for the first request of the session, all
 *   but the fixed part (system prompt and tools, identical in every session); for a later one,
 *   the messages after the longest prefix it shares with the previous request (the previous
 *   model reply counts as shared: it is in the cache as generated).
 * A request is judged truncated when the server evaluated clearly fewer tokens than were sent
 * (`count < 0.6 × sent`), the count is not a near-total cache hit (`count ≥ 256`), and the
 * count does not match the fresh part either way (`count < 0.6 × fresh`: fewer than the new
 * material, which no cache could hold; or `count > 2 × fresh + 64`: the cache was not used,
 * yet far less than the prompt was evaluated). A normal multi-turn session with caching gives
 * `count ≈ fresh`, and a session without caching `count ≈ sent`: neither is flagged.
 * A count that cannot be told from a cache hit by itself (`count ≈ fresh`) is still judged
 * truncated when it repeats: the same count (within 2%) as the previous request while the
 * prompt grew by over 10% and the count is clearly below it is a server-side cap, not a cache
 * (a cache hit counts the new material, which differs from request to request).
 */

/** Count below this share of the estimate: clearly fewer tokens than were sent. */
const TRUNCATION_SHARE = 0.6;
/** Counts below this are taken as cache hits, never judged. */
const MIN_JUDGED_COUNT = 256;

/** Estimates of one request, in tokens. */
export interface SentPrompt {
  /** The whole prompt. */
  sent: number;
  /** The part no prompt cache could hold (see the module comment). */
  fresh: number;
}

/** The previous request's count and estimate. */
export interface PreviousCount {
  evaluated: number;
  sent: number;
}

/**
 * True when the server's prompt count shows a prompt it cut (see the module comment).
 * @param previous the previous request of the session, when it reported a count.
 */
export function looksTruncated(evaluated: number, prompt: SentPrompt, previous?: PreviousCount): boolean {
  if (evaluated < MIN_JUDGED_COUNT) return false;
  if (evaluated >= TRUNCATION_SHARE * prompt.sent) return false;
  if (evaluated < TRUNCATION_SHARE * prompt.fresh || evaluated > 2 * prompt.fresh + 64) return true;
  return previous !== undefined && Math.abs(evaluated - previous.evaluated) <= 0.02 * evaluated && prompt.sent > 1.1 * previous.sent;
}

/**
 * The fresh part of a request (see the module comment): `messages` are the serialized messages
 * after the fixed part, with their estimated `tokens`; `previous` is the previous request's
 * messages plus the reply it got (serialized the same way), or `undefined` for the first.
 */
export function freshTokens(messages: readonly string[], tokens: readonly number[], previous: readonly string[] | undefined): number {
  if (previous === undefined) return tokens.reduce((a, b) => a + b, 0);
  let shared = 0;
  while (shared < messages.length && shared < previous.length && messages[shared] === previous[shared]) shared++;
  let fresh = 0;
  for (let i = shared; i < tokens.length; i++) fresh += tokens[i]!;
  return fresh;
}

/** The message of the warning: both numbers and the fix. */
export function truncationMessage(evaluated: number, sent: number, contextTokens: number): string {
  return (
    `the server evaluated ${evaluated} prompt tokens of about ${sent} sent: it cut the prompt (a server-side context limit, ` +
    `e.g. num_ctx in a Modelfile, OLLAMA_CONTEXT_LENGTH, or llama.cpp -c). codecite fits the rest of this session to ${contextTokens} tokens. ` +
    `Fix: give the server a larger context (at least the --num-ctx you ask for), or pass --num-ctx ${contextTokens}.`
  );
}
