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
  example:
    '\nI need to use the "get_current_weather" function to get the current weather in Tokyo and Paris. I will call the function twice, once for Tokyo and once for Paris.<|action_start|><|plugin|>\n{"name": "get_current_weather", "parameters": {"location": "Tokyo"}}<|action_end|><|im_end|>',
  source: "https://github.com/InternLM/lmdeploy/blob/main/docs/en/llm/api_server_tools.md",
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
