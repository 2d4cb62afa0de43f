/**
 * Functionary v3.1 / Llama 3.1 custom-tool syntax (`functionary_v3.1_function_tag`;
 * llama.cpp `COMMON_CHAT_FORMAT_FUNCTIONARY_V3_1_LLAMA_3_1`): `<function=NAME>{args json}</function>`, several calls one per line.
 * Shares its opener with Qwen3-Coder XML; this dialect takes only JSON bodies (mlxcel pull#206
 * dispatches on the body shape). The closer may be missing at the end of the text when the JSON
 * is complete; JSON cut by the end of the text yields no call.
 */
import { isPlainObject } from "../json.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `functionary_v3.1_function_tag`. */
export const functionaryV31FunctionTag = defineDialect({
  family: "functionary_v3.1_function_tag",
  example: "<function=special_function>{\"arg1\": 1}</function>",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: ["<function="],
  detect: (text) => text.includes("<function="),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(
      text,
      {
        open: /<function=([^<>\s]+)>/,
        close: ["</function>"],
        payloadStart: "{",
        toCalls: (v, m) => (isPlainObject(v) ? [{ name: m[1]!, arguments: v }] : undefined),
      },
      out,
    );
    return out.result();
  },
});
