/**
 * Token counts as model servers report them (Ollama `prompt_eval_count` / `eval_count`, docs/api.md;
 * OpenAI `usage.prompt_tokens` / `completion_tokens`, API reference "The chat completion object"),
 * read into `ChatTurn.usage`. A count is a whole number of tokens, zero or more: anything else a
 * server sends there (a string, a negative or fractional number, `1e400` which JSON.parse reads as
 * Infinity) is no count. `codecite serve` passes the counts on to its clients, who add them up
 * (`total_tokens`) and bill or budget by them: a wrong-typed count became `"total_tokens": "lots-5"`.
 */
import type { ChatTurn } from "./types.js";

/** `value` when it is a token count (a non-negative safe integer), else `undefined`. */
function tokenCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The usage of a turn from the server's prompt and completion counts; `undefined` when neither is a count. */
export function tokenUsage(prompt: unknown, completion: unknown): ChatTurn["usage"] {
  const prompt_tokens = tokenCount(prompt);
  const completion_tokens = tokenCount(completion);
  if (prompt_tokens === undefined && completion_tokens === undefined) return undefined;
  return { ...(prompt_tokens === undefined ? {} : { prompt_tokens }), ...(completion_tokens === undefined ? {} : { completion_tokens }) };
}
