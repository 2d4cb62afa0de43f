/**
 * IBM Granite 3.x (`granite_tool_call`; vLLM `granite` tool parser, llama.cpp `COMMON_CHAT_FORMAT_GRANITE`): `<|tool_call|>[{…}, …]`
 * (Granite 3.0 special token) or `<tool_call> [{…}]` (Granite 3.1+), prose possible on both sides.
 * A JSON array cut inside an object yields no call (`granite-truncated-args`); one whose closing
 * `]` alone is missing is read ({@link scanUnclosedList}).
 */
import { matchBalanced, parseJsonTolerant } from "../json.js";
import { callFromObject, callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";
import { skipWs } from "./text-scan.js";

/**
 * The last `<tool_call>[` list when its `]` never comes (the model stops after the last object:
 * gpustack/llama-box issue#17, `<tool_call>[{"name": "get_weather", …}}` and the end of the
 * text): every object in it is complete and nothing but `</tool_call>` follows, so the calls are
 * read. A list whose last object is cut stays unreadable.
 */
function scanUnclosedList(text: string, out: MatchBuilder): void {
  const opens = [...text.matchAll(/(?:<\|tool_call\|>|<tool_call>)\s*\[/g)];
  const last = opens[opens.length - 1];
  if (!last) return;
  const list = last.index + last[0].length - 1;
  const whole = matchBalanced(text, list);
  if (whole.ok || whole.reason !== "eof") return;
  const found: { at: number; value: unknown }[] = [];
  let i = skipWs(text, list + 1);
  while (text[i] === "{") {
    const m = matchBalanced(text, i);
    if (!m.ok) return;
    found.push({ at: i, value: parseJsonTolerant(text.slice(i, m.end)) });
    i = skipWs(text, m.end);
    if (text[i] === ",") i = skipWs(text, i + 1);
  }
  if (found.length === 0 || !/^(?:<\/tool_call>)?\s*$/.test(text.slice(i))) return;
  const calls = found.map((f) => ({ at: f.at, call: callFromObject(f.value) }));
  if (calls.some((c) => c.call === undefined)) return;
  for (const c of calls) out.call(c.call!, c.at);
  out.span(last.index, text.length);
}

/** Dialect `granite_tool_call`. */
export const graniteToolCall = defineDialect({
  family: "granite_tool_call",
  markers: ["<|tool_call|>", "<tool_call>"],
  example: '<tool_call>[{"name": "get_weather", "arguments": {"location": "ShenZhen"}}',
  source: "https://github.com/gpustack/llama-box/issues/17",
  detect: (text) => text.includes("<|tool_call|>") || /<tool_call>\s*\[/.test(text),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(
      text,
      { open: /<\|tool_call\|>|<tool_call>(?=\s*\[)/, close: ["</tool_call>"], toCalls: (v) => callsFromValue(v) },
      out,
    );
    scanUnclosedList(text, out);
    return out.result();
  },
});
