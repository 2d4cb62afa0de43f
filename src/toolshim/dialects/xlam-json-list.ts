/**
 * Salesforce xLAM (`xlam_json_list`; vLLM `xlam` tool parser): a bare JSON list
 * `[{"name", "arguments"}, …]`, optionally inside a ```` ```json ```` fence or after Mistral's
 * `[TOOL_CALLS]` marker (the four framings of vLLM's `xlam` parser; reasoning before it is the
 * pipeline's).
 *
 * Without the marker the list counts only when every element is call-shaped with object
 * arguments and every name could be an offered tool (`tool-gate.ts`). The fence around a claimed
 * list (when the list is all the fence holds) and the marker are removed with it. A list in a
 * fence labelled with another language (```` ```yaml ````, ```` ```ts ````) is quoted code
 * (`fence.ts` `CALL_FENCE_LANGS`).
 */
import { scanJsonValues } from "../json.js";
import type { OfferedTool } from "../types.js";
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { CALL_FENCE_LANGS, findFences } from "./fence.js";
import { plausiblyOffered } from "./tool-gate.js";

const MARKER = /\[TOOL_CALLS\]\s*$/;

function parse(text: string, tools: readonly OfferedTool[]) {
  const out = new MatchBuilder(text);
  const fences = findFences(text);
  for (const v of scanJsonValues(text)) {
    if (v.enclosed || !Array.isArray(v.value)) {
      continue;
    }
    const marker = MARKER.exec(text.slice(Math.max(0, v.start - 40), v.start));
    const calls = callsFromValue(v.value, { requireArguments: marker === null });
    if (!calls) continue;
    if (!marker && !calls.every((c) => plausiblyOffered(c.name, tools))) continue;
    const fence = fences.find((f) => f.bodyStart <= v.start && v.end <= f.bodyEnd);
    // A fence labelled with a program's language quotes code (`fence.ts` `CALL_FENCE_LANGS`).
    if (!marker && fence && !CALL_FENCE_LANGS.has(fence.lang)) continue;
    let start = marker ? v.start - marker[0].length : v.start;
    let end = v.end;
    if (fence && text.slice(fence.bodyStart, fence.bodyEnd).trim() === text.slice(v.start, v.end)) {
      start = fence.start;
      end = fence.end;
    }
    for (const c of calls) out.call(c, v.start);
    out.span(start, end);
  }
  return out.result();
}

/** Dialect `xlam_json_list`. */
export const xlamJsonList = defineDialect({
  family: "xlam_json_list",
  example: "I'll help you with that.\n```json\n[{\"name\": \"get_current_weather\", \"arguments\": {\"city\": \"Dallas\", \"state\": \"TX\", \"unit\": \"fahrenheit\"}}]\n```",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/tool_use/test_xlam_tool_parser.py",
  markers: ["[TOOL_CALLS]"],
  detect: (text) => /\[\s*\{/.test(text),
  parse,
});
