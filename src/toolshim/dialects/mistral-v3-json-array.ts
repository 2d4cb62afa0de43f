/**
 * Mistral `[TOOL_CALLS] [json array]` (`mistral_v3_json_array`; vLLM `mistral` tool parser, llama.cpp `COMMON_CHAT_FORMAT_MISTRAL_NEMO`):
 * Mistral 7B v0.3, Mixtral, Nemo, Small 2409, Ministral-8B-2410; older ollama templates append
 * `[/TOOL_CALLS]`; xLAM borrows the marker. Calls may carry a 9-character `id` (kept as
 * `RawCall.id`); an `arguments` object may precede `name` and contain a `name` key. Text after the
 * array stays. A marker followed by a name (`[TOOL_CALLS]add[ARGS]{…}`) is `mistral_v11_args`.
 * A server that returns the SentencePiece pieces of these (v3, SentencePiece) tokenizers without
 * decoding them writes every space as `▁` (U+2581): `[TOOL_CALLS]▁[{"name":▁"get_current_weather",…`
 * (theroyallab/tabbyAPI issue #314): read with `▁` as the space it stands for (`word-markers.ts`;
 * one UTF-16 unit for one, so the spans stay where they are).
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";
import { decodeWordMarkers } from "../word-markers.js";

/** Dialect `mistral_v3_json_array`. */
export const mistralV3JsonArray = defineDialect({
  family: "mistral_v3_json_array",
  example: "[TOOL_CALLS] [{\"name\": \"get_temperature\", \"arguments\": {\"city\": \"London\", \"format\": \"fahrenheit\"}}, {\"name\": \"get_conditions\", \"arguments\": {\"location\": \"Tokyo\"}}][/TOOL_CALLS]",
  source: "https://github.com/ollama/ollama/blob/HEAD/tools/tools_test.go",
  markers: ["[TOOL_CALLS]"],
  detect: (text) => /\[TOOL_CALLS\][\s▁]*[[{]/.test(text),
  parse(text) {
    const out = new MatchBuilder(text);
    const decoded = decodeWordMarkers(text) ?? text;
    scanEnvelopes(decoded, { open: /\[TOOL_CALLS\]/, close: ["[/TOOL_CALLS]"], toCalls: (v) => callsFromValue(v) }, out);
    return out.result();
  },
});
