/**
 * LM Studio's default tool-call format (`lmstudio_tool_request`), which LM Studio teaches models
 * without a native tool template ("Default tool use support", https://lmstudio.ai/docs/app/api/tools):
 * `[TOOL_REQUEST]{"name": NAME, "arguments": {…}}[END_TOOL_REQUEST]`, one block per call. The
 * closer may be missing at the end of the text when the JSON is complete; JSON cut by the end of
 * the text yields no call and is removed from the marker on.
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `lmstudio_tool_request`. */
export const lmstudioToolRequest = defineDialect({
  family: "lmstudio_tool_request",
  markers: ["[TOOL_REQUEST]"],
  example: '[TOOL_REQUEST]{"name": "get_delivery_date", "arguments": {"order_id": "123"}}[END_TOOL_REQUEST]',
  source: "https://lmstudio.ai/docs/app/api/tools",
  detect: (text) => text.includes("[TOOL_REQUEST]"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(
      text,
      { open: /\[TOOL_REQUEST\]/, close: ["[END_TOOL_REQUEST]"], multiple: true, toCalls: (v) => callsFromValue(v) },
      out,
    );
    return out.result();
  },
});
