/**
 * MiniMax-M2 (`minimax_m2_invoke`; vLLM `minimax_m2` tool parser, llama.cpp `COMMON_CHAT_FORMAT_MINIMAX_M2`):
 * `<minimax:tool_call><invoke name="NAME"><parameter name="k">v</parameter></invoke>…</minimax:tool_call>`,
 * several invokes per block. Values are untyped (`untyped: true`, typed by the schema). Invokes
 * count only inside the `<minimax:tool_call>` wrapper (a quoted `<invoke>` in prose is not a
 * call: aosama/astronomical issue#346). The wrapper's closer may be missing at the end of the
 * text; an invoke cut inside a value (or, at a token-limit stop, before its `</invoke>`) yields no
 * call and the block is removed to the end.
 */
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanWrapperBlocks } from "./wrapper-block.js";
import { parseXmlInvoke } from "./xml-invoke.js";

const OPEN = "<minimax:tool_call>";

/** Dialect `minimax_m2_invoke`. */
export const minimaxM2Invoke = defineDialect({
  family: "minimax_m2_invoke",
  example: "<minimax:tool_call><invoke name=\"test_func\" extra=\"ignored\"><parameter name=\"arg1\" type=\"string\">value1</parameter><parameter name=\"arg2\" description=\"(e.g. example)\">value2</parameter></invoke></minimax:tool_call>",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/tool_use/test_minimax_m2_tool_parser.py",
  markers: [OPEN],
  detect: (text) => text.includes(OPEN),
  parse(text, _tools, context) {
    const out = new MatchBuilder(text);
    scanWrapperBlocks(text, { open: OPEN, close: "</minimax:tool_call>" }, out, ({ bodyStart, bodyEnd }) => {
      let truncated = false;
      for (let i = bodyStart; ; ) {
        const inv = text.indexOf("<invoke", i);
        if (inv < 0 || inv >= bodyEnd) break;
        const r = parseXmlInvoke(text, inv, "", bodyEnd, context?.endIsCut === true);
        if (r.ok) out.call({ name: r.name, arguments: r.params, untyped: true }, inv);
        else if (r.reason === "truncated") truncated = true;
        i = Math.max(r.end, inv + 1);
      }
      return truncated ? "truncated" : "complete";
    });
    return out.result();
  },
});
