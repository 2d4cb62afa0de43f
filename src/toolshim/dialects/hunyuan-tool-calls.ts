/**
 * Tencent Hunyuan-A13B (`hunyuan_tool_calls`; vLLM `hunyuan_a13b` tool parser): the Jamba envelope
 * `<tool_calls>[{…}]</tool_calls>`, written inside the model's `<answer>…</answer>` wrapper (vLLM
 * `hunyuan_a13b` tests end streams with `</answer>`). The answer tags are removed as markup; the
 * text around the calls is kept (vLLM drops it; `hunyuan-content-after` keeps it).
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

/** Dialect `hunyuan_tool_calls`. */
export const hunyuanToolCalls = defineDialect({
  family: "hunyuan_tool_calls",
  example: "<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Seattle\"}}]</tool_calls>\nThank you!",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/entrypoints/openai/tool_parsers/test_hunyuan_a13b_tool_parser.py",
  markers: ["<tool_calls>"],
  detect: (text) => text.includes("<tool_calls>"),
  parse(text) {
    const out = new MatchBuilder(text);
    const found = scanEnvelopes(text, { open: /<tool_calls>/, close: ["</tool_calls>"], toCalls: (v) => callsFromValue(v) }, out);
    if (found > 0) for (const m of text.matchAll(/<\/?answer>/g)) out.markup(m.index, m.index + m[0].length);
    return out.result();
  },
});
