/**
 * GigaChat 3 / 3.1 (`gigachat3`; vLLM `--tool-call-parser gigachat3`): after the answer text the
 * model opens a new message whose header is the words `function call` and a role separator,
 * then one JSON call object — `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": …, "arguments": {…}}`
 * (GigaChat 3) — or the single token `<|function_call|>` before the JSON (GigaChat 3.1). The
 * header, the separators and a trailing `</s>` are markup.
 *
 * `function call` is also English, so the words count only as the header when the role separator
 * follows them or the JSON call object follows directly (`function call{"name": …}`).
 */
import { matchBalanced, parseJsonTolerant } from "../json.js";
import { callFromObject } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { skipWs } from "./text-scan.js";

const HEADER = /(?:<\|message_sep\|>\s*)?(?:function call(?:<\|role_sep\|>|(?=\{\s*"name"))|<\|function_call\|>)/g;

function parse(text: string) {
  const out = new MatchBuilder(text);
  HEADER.lastIndex = 0;
  for (let m = HEADER.exec(text); m; m = HEADER.exec(text)) {
    const start = m.index;
    const p = skipWs(text, m.index + m[0].length);
    if (text[p] !== "{") {
      if (p >= text.length) out.span(start, text.length);
      continue;
    }
    const bm = matchBalanced(text, p);
    if (!bm.ok) {
      out.unreadable(start, bm.reason === "eof" ? "the call JSON is cut off" : "the call JSON is broken");
      out.span(start, bm.reason === "eof" ? text.length : p);
      if (bm.reason === "eof") break;
      continue;
    }
    const call = callFromObject(parseJsonTolerant(text.slice(p, bm.end)));
    if (call) out.call(call, p);
    else out.unreadable(start, "the JSON after the header is not a call object");
    let end = bm.end;
    const eos = /^\s*<\/s>/.exec(text.slice(end, end + 20));
    if (eos) end += eos[0].length;
    out.span(start, end);
    HEADER.lastIndex = end;
  }
  return out.result();
}

/** Dialect `gigachat3`. */
export const gigachat3 = defineDialect({
  family: "gigachat3",
  markers: ["<|message_sep|>", "function call<|role_sep|>", "<|function_call|>"],
  example:
    'I\'ll check that for you.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "manage_user_memory", "arguments": {"action": "create", "id": "preferences"}}',
  source: "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_gigachat3_tool_parser.py",
  detect: (text) => text.includes("function call") || text.includes("<|function_call|>"),
  parse,
});
