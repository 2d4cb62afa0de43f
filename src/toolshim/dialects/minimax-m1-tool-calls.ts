/**
 * MiniMax-M1 (`minimax_m1_tool_calls`; vLLM `--tool-call-parser minimax`):
 * `<tool_calls>\n{"name": NAME, "arguments": {…}}\n{…}\n</tool_calls>`, one JSON object per line,
 * every one a call. A line that is not a call object (broken JSON, no name) is skipped, as vLLM's
 * parser does; the closer may be missing at the end of the text. Jamba and Hunyuan write a JSON
 * list in the same tag (`<tool_calls>[…]`): a body that starts with `[` is theirs.
 */
import { matchBalanced, parseJsonTolerant } from "../json.js";
import { callFromObject } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { skipWs } from "./text-scan.js";

const OPEN = "<tool_calls>";
const CLOSE = "</tool_calls>";

function parse(text: string) {
  const out = new MatchBuilder(text);
  for (let at = text.indexOf(OPEN); at >= 0; ) {
    let i = skipWs(text, at + OPEN.length);
    if (text[i] !== "{") {
      at = text.indexOf(OPEN, at + OPEN.length);
      continue;
    }
    let end = i;
    let cut = false;
    let calls = 0;
    while (text[i] === "{") {
      const m = matchBalanced(text, i);
      if (!m.ok) {
        if (m.reason === "eof") {
          cut = true;
          break;
        }
        // A broken line: skip it.
        const nl = text.indexOf("\n", i);
        i = nl < 0 ? text.length : skipWs(text, nl);
        continue;
      }
      const call = callFromObject(parseJsonTolerant(text.slice(i, m.end)), { requireArguments: true });
      if (call) {
        out.call(call, i);
        calls++;
      }
      end = m.end;
      i = skipWs(text, m.end);
    }
    if (cut) {
      if (calls === 0) out.unreadable(at, "the call JSON is cut off");
      out.span(at, text.length);
      break;
    }
    if (text.startsWith(CLOSE, i)) end = i + CLOSE.length;
    out.span(at, end);
    at = text.indexOf(OPEN, end);
  }
  return out.result();
}

/** Dialect `minimax_m1_tool_calls`. */
export const minimaxM1ToolCalls = defineDialect({
  family: "minimax_m1_tool_calls",
  markers: [OPEN],
  example:
    '<tool_calls>\n{"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}\n{"name": "get_current_weather", "arguments": {"city": "Orlando", "state": "FL", "unit": "fahrenheit"}}\n</tool_calls>',
  source: "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_minimax_tool_parser.py",
  detect: (text) => /<tool_calls>\s*\{/.test(text),
  parse,
});
