/**
 * NVIDIA Nemotron Nano v2 (`nemotron_toolcall`; vLLM `nemotron_json` tool parser, llama.cpp `COMMON_CHAT_FORMAT_NEMOTRON_V2`):
 * `<TOOLCALL>[{"name", "arguments"}]</TOOLCALL>`, content may follow the block.
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `nemotron_toolcall`. */
export const nemotronToolcall = defineDialect({
  family: "nemotron_toolcall",
  example: "<think>I'm\nthinking</think><TOOLCALL>[{\"name\": \"special_function\", \"arguments\": {\"arg1\": 1}}]</TOOLCALL>Hello, world!\nWhat's up?",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: ["<TOOLCALL>"],
  detect: (text) => text.includes("<TOOLCALL>"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(text, { open: /<TOOLCALL>/, close: ["</TOOLCALL>"], toCalls: (v) => callsFromValue(v) }, out);
    return out.result();
  },
});
