/**
 * Meituan LongCat-Flash (`longcat_tool_call`; vLLM `--tool-call-parser longcat`, a Hermes parser
 * with its own tags): `<longcat_tool_call>{"name": NAME, "arguments": {…}}</longcat_tool_call>`,
 * one block per call, prose around. Same rules as Hermes `<tool_call>` (`hermes-json.ts`): the
 * closer may be missing when the JSON is complete; JSON cut by the end of the text yields no call.
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `longcat_tool_call`. */
export const longcatToolCall = defineDialect({
  family: "longcat_tool_call",
  markers: ["<longcat_tool_call>"],
  example:
    'Let me check the weather for you.\n<longcat_tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}</longcat_tool_call>\nHere is the result.',
  source: "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_longcat_tool_parser.py",
  detect: (text) => text.includes("<longcat_tool_call>"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(
      text,
      { open: /<longcat_tool_call>/, close: ["</longcat_tool_call>"], multiple: true, toCalls: (v) => callsFromValue(v) },
      out,
    );
    return out.result();
  },
});
