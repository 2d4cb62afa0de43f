/**
 * InternLM2 / InternLM2.5 (`internlm2_action`; vLLM `internlm` tool parser):
 * `<|action_start|><|plugin|>{"name": …, "parameters": {…}}<|action_end|>`, one call per message.
 * A cut JSON body yields no call (`internlm2-truncated`; vLLM raises there) and is removed from the
 * marker on.
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `internlm2_action`. */
export const internlm2Action = defineDialect({
  family: "internlm2_action",
  markers: ["<|action_start|>"],
  detect: (text) => text.includes("<|action_start|>"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(
      text,
      {
        open: /<\|action_start\|>\s*<\|plugin\|>/,
        close: ["<|action_end|>"],
        payloadStart: "{",
        toCalls: (v) => callsFromValue(v),
      },
      out,
    );
    return out.result();
  },
});
