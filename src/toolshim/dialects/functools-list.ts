/**
 * `functools[…]` (`functools_list`; vLLM `phi4_mini_json` tool parser, llama.cpp `COMMON_CHAT_FORMAT_FIREFUNCTION_V2`): Phi-4-mini writes
 * `functools[{"name", "arguments"}, …]` (also mid-message), Firefunction v2 the same after a
 * leading space. An empty `functools[]` holds no call and is removed as markup; a bracket that is
 * not JSON (`functools[ This is just text ]`) is left as text (vLLM phi4mini malformed inputs).
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `functools_list`. */
export const functoolsList = defineDialect({
  family: "functools_list",
  example: "Let me check the weather for you.\nfunctools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]\nWould you like to know more?",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/entrypoints/openai/tool_parsers/test_phi4mini_tool_parser.py",
  markers: ["functools["],
  detect: (text) => /functools\s*\[/.test(text),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(
      text,
      {
        open: /\bfunctools(?=\s*\[)/,
        payloadStart: "[",
        invalid: "ignore",
        toCalls: (v) => (Array.isArray(v) && v.length === 0 ? [] : callsFromValue(v)),
      },
      out,
    );
    return out.result();
  },
});
