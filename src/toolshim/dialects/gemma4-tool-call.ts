/**
 * Gemma 4 (`gemma4_tool_call`, `toolcall-formats.md` §4):
 * `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:42,b:true}<tool_call|>` — bare keys, `<|"|>`-delimited
 * raw strings (`brace-call.ts`). Reasoning (`<|channel>thought…<channel|>`) is the pipeline's.
 * The closer may be missing at the end of the text when the braces are complete
 * (`gemma4-unescaped-quotes-no-close`); a body cut by the end of the text yields no call and is
 * removed from the marker on. Several `call:` bodies in one block are several calls.
 */
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { parseBraceCall } from "./brace-call.js";
import { skipWs } from "./text-scan.js";

/**
 * Scan `open call:NAME{…}[, call:NAME{…}] close` blocks into `out`; shared with FunctionGemma.
 * The closer may be missing at the end of the text. A block whose body is cut by the end of the
 * text yields no call and is removed to the end; a block without a readable `call:` is removed
 * up to its closer (or just the opener when there is none before the next opener).
 */
export function scanBraceCallBlocks(text: string, open: string, close: string, quote: string, out: MatchBuilder): void {
  for (let at = text.indexOf(open); at >= 0; ) {
    let i = skipWs(text, at + open.length);
    let end = at + open.length;
    let calls = 0;
    while (text.startsWith("call:", i)) {
      const r = parseBraceCall(text, i, quote);
      if (!r.ok) {
        if (r.reason === "truncated") {
          out.span(at, text.length);
          return;
        }
        break;
      }
      out.call({ name: r.name, arguments: r.args }, i);
      calls++;
      end = r.end;
      i = skipWs(text, end);
      if (text[i] === ",") i = skipWs(text, i + 1);
    }
    const q = skipWs(text, end);
    if (text.startsWith(close, q)) end = q + close.length;
    else if (calls === 0) {
      const c = text.indexOf(close, end);
      const next = text.indexOf(open, end);
      if (c >= 0 && (next < 0 || c < next)) end = c + close.length;
    }
    out.span(at, end);
    at = text.indexOf(open, end);
  }
}

/** Dialect `gemma4_tool_call`. */
export const gemma4ToolCall = defineDialect({
  family: "gemma4_tool_call",
  markers: ["<|tool_call>"],
  detect: (text) => text.includes("<|tool_call>"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanBraceCallBlocks(text, "<|tool_call>", "<tool_call|>", '<|"|>', out);
    return out.result();
  },
});
