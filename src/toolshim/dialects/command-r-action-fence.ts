/**
 * Cohere Command R / R+ (2024) tool use (`command_r_action_fence`; llama.cpp `tests/test-chat.cpp`
 * PEG tests for `CohereForAI-c4ai-command-r-plus-tool_use.jinja`): after an optional `Plan:` line
 * the model writes `Action:` and a fenced JSON list of `{"tool_name", "parameters"}`:
 * `Action: ```json\n[{"tool_name": "f", "parameters": {…}}]\n```` (the fence on the same line or
 * the next, its info string free: a real Command R+ reply through LangChain writes ```` ```json JSON ````,
 * Cohere's documentation, copied in patrickcarmichael/claude-docs
 * `docs/ai-platforms/cohere/formatted/1158-nice-now-lets-ask-a-follow-up-question.md`).
 * Rules:
 * - every list item is a call; the template's pseudo-tool `directly_answer` (also `directly-answer`)
 *   means "answer without a tool": it is no call, and its markup is removed like the rest;
 * - the `Action:` label and the fence are removed; text before (`Plan: …`) stays;
 * - a body that is not a list of calls leaves the text as written; a fence cut by the end of the
 *   text yields no call and is removed from `Action:` on (the rule of `json-envelope.ts`).
 */
import { matchBalanced, parseJsonTolerant } from "../json.js";
import type { RawCall } from "../types.js";
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";

/** `Action:` at the start of a line, then a fence opener (same line or next) and its info string. */
const ACTION = /(^|\n)([ \t]*)Action:[ \t]*(?:\r?\n[ \t]*)?(`{3,})[^\n`]*\r?\n/g;

const isDirectAnswer = (item: unknown): boolean =>
  typeof item === "object" && item !== null && /^directly[_-]answer$/.test(String((item as Record<string, unknown>).tool_name ?? ""));

/** The calls of a parsed body (`[]` when it only answers directly), or `undefined` when it is not calls. */
function callsOf(value: unknown): RawCall[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return undefined;
  const real = items.filter((it) => !isDirectAnswer(it));
  if (real.length === 0) return [];
  return callsFromValue(real);
}

/** Dialect `command_r_action_fence`. */
export const commandRActionFence = defineDialect({
  family: "command_r_action_fence",
  markers: ["Action:"],
  example: 'Action:\n```json\n[{"tool_name": "special_function", "parameters": {"arg1": 1}}]\n```',
  source: "https://github.com/ggml-org/llama.cpp/blob/master/tests/test-chat.cpp",
  detect: (text) => text.includes("Action:") && text.includes("```"),
  parse(text) {
    const out = new MatchBuilder(text);
    for (const m of text.matchAll(ACTION)) {
      const start = m.index + m[1]!.length;
      const bodyStart = m.index + m[0].length;
      const ticks = m[3]!;
      const close = text.indexOf(ticks, bodyStart);
      const body = text.slice(bodyStart, close < 0 ? text.length : close).trim();
      if (!body.startsWith("[") && !body.startsWith("{")) continue;
      if (close < 0) {
        // Cut by the end of the text: a call-shaped body that never closes is no call.
        const at = text.indexOf(body[0]!, bodyStart);
        if (!matchBalanced(text, at).ok && /^\[?\s*\{\s*"tool_name"/.test(body)) out.span(start, text.length);
        break;
      }
      const calls = callsOf(parseJsonTolerant(body));
      if (calls === undefined) continue;
      for (const c of calls) out.call(c, bodyStart);
      let end = close + ticks.length;
      while (text[end] === "`") end++;
      if (calls.length === 0) out.markup(start, end);
      else out.span(start, end);
    }
    return out.result();
  },
});
