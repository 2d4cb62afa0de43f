/**
 * ByteDance Seed-OSS (`seed_oss`; vLLM `seed_oss` tool parser, llama.cpp `COMMON_CHAT_FORMAT_SEED_OSS`):
 * `<seed:tool_call>\n<function=NAME>\n<parameter=k>v</parameter>\n</function>\n</seed:tool_call>`
 * — the Qwen3-Coder function body (`xml-function.ts`) in Seed's own wrapper. Values are untyped.
 * The reasoning (`<seed:think>`, with `<seed:cot_budget_reflect>` inside, where the model may
 * rehearse the exact call syntax) is the pipeline's reasoning split. The closer may be missing at
 * the end of the text; a function cut inside a value yields no call and the block is removed.
 *
 * Doubao-Seed-2.0 writes the body with attributes instead, DSML-like:
 * `<function name="NAME"><parameter name="k" string="true">v</parameter></function>`
 * (a real reply leaked as text in sipeed/picoclaw issue #3153); read with the invoke-element
 * rules of `invoke-block.ts` (`string="false"` values are JSON, other values text).
 */
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { readInvokeElement } from "./invoke-block.js";
import { scanWrapperBlocks } from "./wrapper-block.js";
import { parseXmlFunction } from "./xml-function.js";

const OPEN = "<seed:tool_call>";
/** The next function tag: `<function=NAME>` (group 1 empty) or `<function name="…">` (group 1 set). */
const FUNCTION_TAG = /<function(?:=|(\s+name\s*=))/g;

/** Dialect `seed_oss`. */
export const seedOss = defineDialect({
  family: "seed_oss",
  example: "<seed:think>I need to calculate the sum of these numbers</seed:think><seed:tool_call>\n<function=calculate_sum>\n<parameter=numbers>[1, 2, 3]</parameter>\n</function>\n</seed:tool_call>",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: [OPEN],
  detect: (text) => text.includes(OPEN),
  parse(text, _tools, context) {
    const out = new MatchBuilder(text);
    scanWrapperBlocks(text, { open: OPEN, close: "</seed:tool_call>" }, out, ({ bodyStart, bodyEnd }) => {
      FUNCTION_TAG.lastIndex = bodyStart;
      for (let m = FUNCTION_TAG.exec(text); m && m.index < bodyEnd; m = FUNCTION_TAG.exec(text)) {
        const i = m.index;
        if (m[1] !== undefined) {
          const el = readInvokeElement(text, i, bodyEnd, { prefix: "", invokeTag: "function" }, context?.endIsCut === true);
          if (el && !el.ok) return "truncated";
          if (el?.call) out.call(el.call, i);
          FUNCTION_TAG.lastIndex = Math.max(el?.end ?? 0, i + 1);
          continue;
        }
        const fn = parseXmlFunction(text, i, bodyEnd, context?.endIsCut === true);
        if (fn.ok) out.call({ name: fn.name, arguments: fn.params, untyped: true }, i);
        else if (fn.reason === "truncated") return "truncated";
        FUNCTION_TAG.lastIndex = fn.ok || fn.reason === "invalid" ? Math.max(fn.end, i + 1) : i + 1;
      }
      return "complete";
    });
    return out.result();
  },
});
