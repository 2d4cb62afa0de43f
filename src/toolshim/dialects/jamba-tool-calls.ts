/**
 * AI21 Jamba 1.5/1.6 (`jamba_tool_calls`; vLLM `jamba` tool parser):
 * `<tool_calls>[{…}, …]</tool_calls>`, usually after a leading space token and prose.
 *
 * Hunyuan-A13B writes the same envelope inside `<answer>…</answer>`; texts with those answer
 * tags are left to `hunyuan_tool_calls`, which also removes them.
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `jamba_tool_calls`. */
export const jambaToolCalls = defineDialect({
  family: "jamba_tool_calls",
  example: " Sure! let me call the tool for you.<tool_calls>[\n    {\"name\": \"get_current_weather\", \"arguments\": {\"city\": \"Dallas\", \"state\": \"TX\", \"unit\": \"fahrenheit\"}}\n]</tool_calls>",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/tool_use/test_jamba_tool_parser.py",
  markers: ["<tool_calls>"],
  detect: (text) => text.includes("<tool_calls>") && !/<\/?answer>/.test(text),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(text, { open: /<tool_calls>/, close: ["</tool_calls>"], toCalls: (v) => callsFromValue(v) }, out);
    return out.result();
  },
});
