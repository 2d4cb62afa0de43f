/**
 * Gemma 4 (`gemma4_tool_call`; vLLM `gemma4` tool parser, ollama `model/parsers/gemma4.go`):
 * `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:42,b:true}<tool_call|>` — bare keys, `<|"|>`-delimited
 * raw strings (`brace-call.ts`). Reasoning (`<|channel>thought…<channel|>`) is the pipeline's.
 * The closer may be missing at the end of the text when the braces are complete
 * (`gemma4-unescaped-quotes-no-close`); a body cut by the end of the text yields no call and is
 * removed from the marker on. Several `call:` bodies in one block are several calls. Drift
 * (vLLM `gemma4_utils` tests): a stray colon after the opener (`<|tool_call>:call:`), `<turn|>` as
 * the closer, and the opener-less shapes of {@link scanDrift}.
 */
import type { OfferedTool } from "../types.js";
import { parseBraceCall, scanBraceCallBlocks } from "./brace-call.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { skipWs } from "./text-scan.js";
import { plausiblyOffered } from "./tool-gate.js";

const OPEN = "<|tool_call>";
const QUOTE = '<|"|>';
/** Closers: `<tool_call|>`, or the end-of-turn token some outputs close the call with. */
const CLOSERS = ["<tool_call|>", "<turn|>"];

/**
 * Drifted shapes without the `<|tool_call>` opener (vLLM `gemma4_utils` fallback tier and its
 * tests): a bare `call:NAME{…}` that starts the text, a line or follows `<channel|>`, and
 * `<call>NAME{…}` (a fragmented special token). No opener means no marker, so the name must
 * plausibly be an offered tool. A bare body that cannot be read is reported unreadable (a garbled
 * copy of a call read in the same turn is then removed; `../recover.ts` `settleBroken`).
 */
function scanDrift(text: string, tools: readonly OfferedTool[], out: MatchBuilder, skip: (at: number) => boolean): void {
  const bare = /(?:^|\n|<channel\|>)[ \t]*(call:|<call>)/g;
  for (let m = bare.exec(text); m; m = bare.exec(text)) {
    const at = m.index + m[0].length - m[1]!.length;
    if (skip(at)) continue;
    const tagged = m[1] === "<call>";
    const bodyAt = tagged ? at + "<call>".length : at;
    const r = parseBraceCall(text, bodyAt, QUOTE, !tagged);
    const name = /^(?:call:|<call>)\s*([^\s{(<>]+)/.exec(text.slice(at, at + 120))?.[1];
    if (name === undefined || !plausiblyOffered(name, tools)) continue;
    if (!r.ok) {
      out.unreadable(at, r.reason === "truncated" ? "the call body is cut off" : "the call body is not readable", name);
      const nl = text.indexOf("\n", at);
      out.span(at, r.reason === "truncated" || nl < 0 ? text.length : nl);
      if (r.reason === "truncated") return;
      bare.lastIndex = nl < 0 ? text.length : nl;
      continue;
    }
    out.call({ name: r.name, arguments: r.args }, at);
    let end = r.end;
    const q = skipWs(text, end);
    const closer = [...CLOSERS, "</call>"].find((c) => text.startsWith(c, q));
    if (closer) end = q + closer.length;
    out.span(at, end);
    bare.lastIndex = end;
  }
}

/** Dialect `gemma4_tool_call`. */
export const gemma4ToolCall = defineDialect({
  family: "gemma4_tool_call",
  markers: [OPEN, "<call>"],
  example: '<|tool_call>call:bash{command:<|"|>ls -la /work<|"|>}<tool_call|>',
  source: "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_gemma4_regex_and_bare_calls.py",
  detect: (text) => text.includes(OPEN) || text.includes("call:") || text.includes("<call>"),
  parse(text, tools) {
    const out = new MatchBuilder(text);
    if (text.includes(OPEN)) scanBraceCallBlocks(text, OPEN, CLOSERS, QUOTE, out);
    // Drift inside `<|tool_call>` blocks was read with them.
    const taken = [...out.spans];
    scanDrift(text, tools, out, (at) => taken.some((s) => at >= s.start && at < s.end));
    return out.result();
  },
});
