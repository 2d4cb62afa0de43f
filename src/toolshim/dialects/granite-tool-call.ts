/**
 * IBM Granite 3.x (`granite_tool_call`; vLLM `granite` tool parser, llama.cpp `COMMON_CHAT_FORMAT_GRANITE`): `<|tool_call|>[{…}, …]`
 * (Granite 3.0 special token) or `<tool_call> [{…}]` (Granite 3.1+), prose possible on both sides.
 * A JSON array cut by the end of the text yields no call (`granite-truncated-args`).
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `granite_tool_call`. */
export const graniteToolCall = defineDialect({
  family: "granite_tool_call",
  markers: ["<|tool_call|>", "<tool_call>"],
  detect: (text) => text.includes("<|tool_call|>") || /<tool_call>\s*\[/.test(text),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(
      text,
      { open: /<\|tool_call\|>|<tool_call>(?=\s*\[)/, close: ["</tool_call>"], toCalls: (v) => callsFromValue(v) },
      out,
    );
    return out.result();
  },
});
