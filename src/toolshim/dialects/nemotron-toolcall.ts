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
  markers: ["<TOOLCALL>"],
  detect: (text) => text.includes("<TOOLCALL>"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(text, { open: /<TOOLCALL>/, close: ["</TOOLCALL>"], toCalls: (v) => callsFromValue(v) }, out);
    return out.result();
  },
});
