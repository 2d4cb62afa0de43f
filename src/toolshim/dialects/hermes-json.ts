/**
 * Hermes / Qwen `<tool_call>` JSON (`hermes_json`; vLLM `hermes` tool parser, llama.cpp `COMMON_CHAT_FORMAT_HERMES_2_PRO`):
 * `<tool_call>\n{"name": NAME, "arguments": {…}}\n</tool_call>`, one block per call, prose around.
 *
 * - The closer is optional when the JSON is complete (stop tokens swallow it:
 *   `hermes-ollama-unclosed-last`); JSON cut by the end of the text yields no call and the text
 *   from `<tool_call>` on is removed (`hermes-llamacpp-partial-name`).
 * - Key drift (`arguments`/`parameters`/`args`/`input`, reversed order, arguments as a JSON
 *   string) is handled by `call-shape.ts`; a JSON array of calls (Granite 3.1 writes
 *   `<tool_call> [{…}]`) is accepted too; several objects in one block are several calls.
 * - A body that is not JSON (`<function=…>`, GLM `NAME<arg_key>`) is left to those dialects.
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `hermes_json`. */
export const hermesJson = defineDialect({
  family: "hermes_json",
  example: "Let me check the weather. <tool_call>{\"name\": \"get_temperature\", \"arguments\": {\"city\": \"New York\"}}</tool_call>",
  source: "https://github.com/ollama/ollama/blob/HEAD/tools/tools_test.go",
  markers: ["<tool_call>"],
  detect: (text) => text.includes("<tool_call>"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(text, { open: /<tool_call>/, close: ["</tool_call>"], multiple: true, toCalls: (v) => callsFromValue(v) }, out);
    return out.result();
  },
});
