/**
 * Llama 3.x / Llama 4 JSON (`llama3_json`; vLLM `llama3_json` tool parser, llama.cpp `COMMON_CHAT_FORMAT_LLAMA_3_X`): bare
 * `{"name": NAME, "parameters": {…}}` objects (also `{"type": "function", "name", "parameters"}`),
 * anywhere in the text, several joined by `; `. The `arguments` spelling is the pipeline's inline
 * JSON stage (`bare_json`); `<|python_tag|>` is `llama3_builtin_python_tag`.
 *
 * There are no markers, so an object counts only when it is complete (a value inside an
 * unbalanced wrapper does not: `bare-llama32-vision-openai-wrapper-unbalanced`), has object
 * `parameters`, and names a plausibly offered tool (`tool-gate.ts`). Invalid JSON stays text
 * (`bare-llama3-invalid-json`). Removed with a call: the object, the `;` joining it to the next
 * call, and a directly following `<|eom_id|>`/`<|eot_id|>`.
 */
import { scanJsonValues } from "../json.js";
import type { OfferedTool } from "../types.js";
import { callFromObject } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { skipWs, tokenAt } from "./text-scan.js";
import { plausiblyOffered } from "./tool-gate.js";

const END_TOKENS = ["<|eom_id|>", "<|eot_id|>"];

function parse(text: string, tools: readonly OfferedTool[]) {
  const out = new MatchBuilder(text);
  let lastEnd = -1;
  for (const v of scanJsonValues(text)) {
    if (v.enclosed || v.truncated) continue;
    const call = callFromObject(v.value, { requireArguments: true, argumentKeys: ["parameters"] });
    if (!call || !plausiblyOffered(call.name, tools)) continue;
    let start = v.start;
    // Join `{…}; {…}`: the separator goes with the call.
    if (lastEnd >= 0 && /^\s*;\s*$/.test(text.slice(lastEnd, v.start))) start = lastEnd;
    let end = v.end;
    const q = skipWs(text, end);
    const tok = tokenAt(text, q, END_TOKENS);
    if (tok) end = q + tok.length;
    out.call(call, v.start);
    out.span(start, end);
    lastEnd = end;
  }
  return out.result();
}

/** Dialect `llama3_json`. */
export const llama3Json = defineDialect({
  family: "llama3_json",
  example: "{\"name\": \"parserTool\", \"parameters\": {\"text\": \"He said \\\"Hello {world}\\\"\"}}",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/entrypoints/openai/tool_parsers/test_llama3_json_tool_parser.py",
  markers: [],
  detect: (text) => /"parameters"\s*:/.test(text),
  parse,
});
