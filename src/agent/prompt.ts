/**
 * The agent's system prompt: answer only from evidence the read-only tools return, and cite
 * every claim as `path:line`. Kept short: small local models with 8K contexts are the users.
 */

/** The default system prompt of `runAgent`. */
export const SYSTEM_PROMPT = [
  "You are codecite, an assistant that answers questions about the code repository the tools read.",
  "The tools are read-only: they search, list definitions, importers and references, read file lines and show git diffs. They cannot change files or run commands.",
  "Rules:",
  "1. Call the tools to gather evidence before you answer. Prefer a precise tool (find_symbol, find_importers) over a broad search. For \"who calls X\" or \"where is X used\", call find_references, not search_code.",
  "2. Answer only from the evidence the tools returned. If it does not answer the question, say so plainly; never guess.",
  "3. Cite every claim with its location as path:line (or path:start-end), using the repository-relative paths exactly as the tools return them.",
  "4. Answer in the language of the question, briefly.",
].join("\n");

/** The note appended to the answer when the step limit ends the loop. */
export function maxStepsNote(maxSteps: number): string {
  return `[codecite] Stopped after ${maxSteps} tool step${maxSteps === 1 ? "" : "s"} (the step limit) before the model gave a final answer. The evidence gathered so far is listed below.`;
}

/**
 * The note of a session ended early because the model, told that its calls repeated earlier
 * ones, sent only repeated calls again (it would otherwise run them to the step limit).
 */
export function repeatStopNote(steps: number, tool: string): string {
  return `[codecite] Stopped after ${steps} tool step${steps === 1 ? "" : "s"}: the model repeated a call it had already made (${tool} with the same arguments) after being told so, instead of giving a final answer. The evidence gathered so far is listed below.`;
}

/** The hint added to a repeated identical tool call's result. */
export function repeatedCallHint(tool: string): string {
  return `Repeated call: you already called ${tool} with exactly these arguments; this is the same result. Use it, call a tool with different arguments, or answer now.`;
}

/** The hint of the tool error sent for a call the tool shim rejected. */
export function readOnlyHint(toolNames: readonly string[]): string {
  return `The tools are read-only; nothing can be written or executed. Call one of: ${toolNames.join(", ")}.`;
}

/** The note that says which calls of a turn were over the per-turn cap and not run. */
export function callsCutNote(cap: number, cut: readonly string[]): string {
  const shown = cut.slice(0, 5).join(", ");
  const more = cut.length > 5 ? ` and ${cut.length - 5} more` : "";
  return `[codecite] One model turn asked for more than ${cap} tool calls (the per-turn cap, --max-calls-per-turn); ${cut.length} were not run: ${shown}${more}.`;
}

/** The note that ends an answer cut by the session deadline. */
export function timeoutNote(timeoutMs: number, steps: number): string {
  const secs = Math.round(timeoutMs / 1000);
  const when = secs % 60 === 0 ? `${secs / 60} min` : `${secs} s`;
  return `[codecite] Stopped at the session deadline (${when}, --timeout) after ${steps} tool call${steps === 1 ? "" : "s"}, before the model gave a final answer. The evidence gathered so far is listed below.`;
}

/** The note that ends an answer cut by the output limit. */
export const LENGTH_NOTE = "[codecite] The answer was cut by the model's output limit (done_reason: length); it is incomplete.";

/** The answer of a session stopped because its prompt cannot fit the context. */
export function contextNote(message: string): string {
  return `[codecite] Stopped before the next model call: ${message}.`;
}

/** One cited location that failed the grounding check, for the re-ask. */
export interface FailedCitation {
  location: string;
  status: "unseen" | "invalid";
  reason: string;
}

/**
 * The user message that asks the model once more to correct its answer: what failed and why,
 * the lines it has seen, and that it must correct the citations or say it does not know.
 */
export function reaskMessage(failed: readonly FailedCitation[], seen: readonly string[], noCitation: boolean): string {
  const lines: string[] = [];
  if (noCitation) {
    lines.push("Your answer makes claims about the code but cites no line you were shown.");
  } else {
    lines.push("Some citations in your answer could not be checked:");
    for (const f of failed) lines.push(`- ${f.location}: ${f.status === "unseen" ? "you were never shown these lines" : "not a valid location"} (${f.reason})`);
  }
  lines.push(seen.length > 0 ? `Lines you have seen: ${seen.join("; ")}.` : "You have not been shown any lines yet.");
  lines.push(
    "Answer again: cite only lines you have seen, as path:line (call a tool to read other lines first), or say plainly that you do not know. Do not guess.",
  );
  return lines.join("\n");
}
