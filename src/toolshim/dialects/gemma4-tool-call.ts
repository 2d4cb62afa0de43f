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

/** Scan `open … call:NAME{…} … close` blocks; shared with FunctionGemma. */
export function scanBraceCallBlocks(text: string, open: string, close: string, quote: string, out: MatchBuilder): void {
  for (let at = text.indexOf(open); at >= 0; ) {
    let i = skipWs(text, at + open.length);
    let end = i;
    let truncated = false;
    while (text.startsWith("call:", i)) {
      const r = parseBraceCall(text, i, quote);
      if (!r.ok) {
        truncated = r.reason === "truncated";
        end = r.end;
        break;
      }
      out.call({ name: r.name, arguments: r.args }, i);
      end = r.end;
      i = skipWs(text, end);
      if (text[i] === ",") i = skipWs(text, i + 1);
    }
    if (truncated) {
      out.span(at, text.length);
      return;
    }
    const q = skipWs(text, end);
    if (text.startsWith(close, q)) end = q + close.length;
    else {
      const c = text.indexOf(close, end);
      const nextOpen = text.indexOf(open, end);
      if (c >= 0 && (nextOpen < 0 || c < nextOpen) && end === at + open.length) end = c + close.length;
    }
    out.span(at, Math.max(end, at + open.length));
    at = text.indexOf(open, Math.max(end, at + 1));
  }
}

/** Dialect `gemma4_tool_call`. */
export const gemma4ToolCall = defineDialect({
  family: "gemma4_tool_call",
  markers: ["<|tool_call>"],
  detect: (text) => text.includes("<|tool_call>"),
  parse(text) {
    const out = new MatchBuilder();
    scanBraceCallBlocks(text, "<|tool_call>", "<tool_call|>", '<|"|>', out);
    return out.result();
  },
});
