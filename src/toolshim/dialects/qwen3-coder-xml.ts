/**
 * Qwen3-Coder XML (`qwen3_coder_xml`; vLLM `qwen3_coder` tool parser, llama.cpp `COMMON_CHAT_FORMAT_QWEN3_CODER_XML`, ollama `model/parsers/qwen3coder.go`):
 * `<tool_call>\n<function=NAME>\n<parameter=KEY>\nvalue\n</parameter>\n</function>\n</tool_call>`,
 * emitted by Qwen3-Coder, Qwen3.5/3.6 and Nemotron 3 Nano.
 *
 * - The `<tool_call>` wrapper is optional; a model that drops the opener often keeps the closer
 *   (ollama issue#13093, pull#17742), which is removed with the call. A bare `<function=…>` block
 *   (no opener) counts only when its name could be an offered tool (ollama issue #18530, the ollama pull #17742 design), or when
 *   it names a side-effect tool (`policy.ts`): then the pipeline refuses it with a tool error
 *   instead of leaving the markup visible (`policy.ts`).
 * - Prose between the opener and `<function=` stays visible; the opener is removed with the call.
 * - Stray closers between `</function>` and `</tool_call>` (Qwen3.6's `</function_invocation>`,
 *   a doubled `</function>`) are removed with the call.
 * - `<function=NAME>{json}</function>` is Functionary v3.1, not this dialect (mlxcel pull#206
 *   dispatches on the body shape).
 * - Values are untyped text (`untyped: true`); the pipeline types them by the tool schema.
 * - A block cut inside a value yields no call; its markup from the opener on is removed.
 * - Drift handling: see `xml-function.ts`.
 */
import { isSideEffectToolName } from "../policy.js";
import type { OfferedTool, ParseContext } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { earliestFinder, skipWs } from "./text-scan.js";
import { plausiblyOffered } from "./tool-gate.js";
import { parseXmlFunction } from "./xml-function.js";

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";
/** Closers a drifting model repeats after `</function>` (QwenLM/Qwen3.8 issue#178). */
const STRAY_CLOSE = /^<\/(?:function_invocation|function|parameter)>/;

/**
 * Index of a `<tool_call>` opener in `[floor, at)` that no closer follows before `at`, else -1:
 * prose written inside the wrapper before `<function=` (`<tool_call>Let me check.<function=f>…`,
 * Rapid-MLX pull#1031 variant e) stays visible; the opener is removed as markup.
 */
function openerBefore(text: string, at: number, floor: number): number {
  const region = text.slice(floor, at);
  const k = region.lastIndexOf(OPEN);
  return k >= 0 && !region.includes(CLOSE, k) ? floor + k : -1;
}

/** A function's or parameter's closer (or a stray one) right before a wrapper closer. */
const CLOSER_BEFORE = /<\/(?:function(?:_invocation)?|parameter[^<>\n]{0,24})>\s*$/;

/**
 * Index of the `</tool_call>` that closes the wrapper of the function at `at`, else -1: the first
 * one after a closer of the function (`</function>`, `</parameter>`); a `</tool_call>` inside a
 * parameter value (a file that mentions it, raullenchai/Rapid-MLX issue#1515) is not. Without such
 * a one before the next call starts, the first (a model that dropped its closers) — but none
 * when the token limit cut the text (`endIsCut`: it may be a value's text the limit cut).
 */
function wrapperClose(text: string, at: number, endIsCut: boolean): number {
  const first = text.indexOf(CLOSE, at);
  if (first < 0) return -1;
  const nextCall = /<tool_call>|<function=/g;
  nextCall.lastIndex = first;
  const bound = nextCall.exec(text)?.index ?? text.length;
  for (let k = first; k >= 0 && k < bound; k = text.indexOf(CLOSE, k + 1)) {
    if (CLOSER_BEFORE.test(text.slice(Math.max(at, k - 64), k))) return k;
  }
  // When the token limit cut the text, it may be a value's text the limit cut.
  return endIsCut ? -1 : first;
}

/** Index of a `<tool_call>` opener whose only gap to `at` is whitespace, else -1. */
function wrapperBefore(text: string, at: number, floor: number): number {
  let i = at - 1;
  while (i >= floor && /\s/.test(text[i]!)) i--;
  const start = i + 1 - OPEN.length;
  return start >= floor && text.startsWith(OPEN, start) ? start : -1;
}

function parse(text: string, tools: readonly OfferedTool[], context?: ParseContext) {
  const out = new MatchBuilder(text);
  let from = 0;
  // End (index of `</tool_call>`) of the wrapper we are inside, for several functions in one wrapper.
  let insideUntil = -1;
  // Each opener's `>` and the line end after it, found once per text: openers repeated with no
  // `>` (or one far away) would otherwise be read to the end once each (SECURITY.md, quadratic work).
  const nextGt = earliestFinder(text, [">"]);
  const nextNewline = earliestFinder(text, ["\n"]);
  for (;;) {
    const at = text.indexOf("<function=", from);
    if (at < 0) break;
    // Functionary v3.1 writes a JSON body after the same opener (on the opener's line).
    const gt = nextGt(at)?.index ?? -1;
    const newline = nextNewline(at)?.index ?? -1;
    if (gt >= 0 && /^\s*[{[]/.test(text.slice(gt + 1, gt + 200)) && !(newline >= 0 && newline < gt)) {
      from = at + 1;
      continue;
    }
    const wrapper = wrapperBefore(text, at, from);
    const opener = wrapper < 0 && at > insideUntil ? openerBefore(text, at, from) : -1;
    if (wrapper >= 0 || opener >= 0) insideUntil = wrapperClose(text, at, context?.endIsCut === true);
    else if (at > insideUntil) insideUntil = -1;
    const wrapped = wrapper >= 0 || insideUntil >= 0;
    const spanStart = wrapper >= 0 ? wrapper : at;
    const fn = parseXmlFunction(text, at, insideUntil >= 0 ? insideUntil : text.length, context?.endIsCut === true);
    if (!fn.ok && fn.reason === "truncated") {
      if (opener >= 0) out.markup(opener, opener + OPEN.length);
      out.span(spanStart, text.length);
      break;
    }
    if (!wrapped && (!fn.ok || !(plausiblyOffered(fn.name, tools) || isSideEffectToolName(fn.name)))) {
      from = at + 1;
      continue;
    }
    let end = fn.end;
    // Further <function=…> blocks inside the same wrapper are handled by the next iteration.
    let q = skipWs(text, end);
    for (let m = STRAY_CLOSE.exec(text.slice(q, q + 40)); m; m = STRAY_CLOSE.exec(text.slice(q, q + 40))) {
      end = q + m[0].length;
      q = skipWs(text, end);
    }
    if (text.startsWith(CLOSE, q)) end = q + CLOSE.length;
    if (fn.ok) out.call({ name: fn.name, arguments: fn.params, untyped: true }, at);
    if (opener >= 0) out.markup(opener, opener + OPEN.length);
    out.span(spanStart, end);
    from = end;
  }
  return out.result();
}

/** Dialect `qwen3_coder_xml`. */
export const qwen3CoderXml = defineDialect({
  family: "qwen3_coder_xml",
  example: "<tool_call><function=first><parameter=a>1</parameter></function></tool_call>\n<tool_call><function=second><parameter=b>2</parameter></function></tool_call>\n<tool_call><function=third><parameter=c>3</parameter></function></tool_call>",
  source: "https://github.com/ollama/ollama/blob/HEAD/model/parsers/qwen3coder_test.go",
  markers: ["<tool_call>", "<function="],
  detect: (text) => text.includes("<function="),
  parse,
});
