/**
 * StepFun Step3 (`step3_steptml`; vLLM `step3` tool parser):
 * `<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="NAME"><steptml:parameter name="k">v</steptml:parameter></steptml:invoke><｜tool_call_end｜>…<｜tool_calls_end｜>`
 * — full-width bars with ASCII underscores (ASCII bars accepted too); `<｜tool_sep｜>` may appear
 * between or inside calls and a `function` type word may precede the invoke; both are ignored.
 * Values are raw XML text (quotes, single backslashes and real line breaks are literal), untyped.
 * Invokes outside a section are accepted too (the namespaced tag is specific); the section end
 * may be missing at the end of the text.
 */
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { earliestFinder, tokenSpellings } from "./text-scan.js";
import { parseXmlInvoke } from "./xml-invoke.js";

const BEGIN = tokenSpellings("<|tool_calls_begin|>");
const END = tokenSpellings("<|tool_calls_end|>");
const STRAY = [...tokenSpellings("<|tool_call_begin|>"), ...tokenSpellings("<|tool_call_end|>"), ...tokenSpellings("<|tool_sep|>")];
const INVOKE = "<steptml:invoke";

/** Dialect `step3_steptml`. */
export const step3Steptml = defineDialect({
  family: "step3_steptml",
  example: "<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name=\"test_function\"><steptml:parameter name=\"quoted\">He said \"hello\"</steptml:parameter><steptml:parameter name=\"path\">C:\\Users\\file.txt</steptml:parameter><steptml:parameter name=\"newline\">line1\nline2</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/entrypoints/openai/tool_parsers/test_step3_tool_parser.py",
  markers: [...BEGIN, INVOKE],
  detect: (text) => text.includes(INVOKE) || BEGIN.some((t) => text.includes(t)),
  parse(text, _tools, context) {
    const out = new MatchBuilder(text);
    // Sections.
    const regions: { start: number; end: number; limit: number }[] = [];
    // Each spelling is searched once past each point (an absent spelling used to be searched to
    // the end of the text once per section).
    const nextBegin = earliestFinder(text, BEGIN);
    const nextEnd = earliestFinder(text, END);
    for (let from = 0; ; ) {
      const b = nextBegin(from);
      if (!b) break;
      const e = nextEnd(b.index);
      regions.push({ start: b.index, end: e ? e.index + e.token.length : text.length, limit: e ? e.index : text.length });
      from = e ? e.index + e.token.length : text.length;
    }
    let truncatedAt = -1;
    // Invokes and regions are both in text order: one pointer walks the regions.
    let nextRegion = 0;
    for (let i = text.indexOf(INVOKE); i >= 0; ) {
      while (nextRegion < regions.length && regions[nextRegion]!.end <= i) nextRegion++;
      const candidate = regions[nextRegion];
      const region = candidate !== undefined && candidate.start <= i ? candidate : undefined;
      const r = parseXmlInvoke(text, i, "steptml:", region ? region.limit : text.length, context?.endIsCut === true);
      if (r.ok) out.call({ name: r.name, arguments: r.params, untyped: true }, i);
      else if (r.reason === "truncated") {
        truncatedAt = region ? region.start : i;
        break;
      }
      if (!region) out.span(i, r.end);
      i = text.indexOf(INVOKE, Math.max(r.end, i + 1));
    }
    for (const r of regions) out.span(r.start, r.end);
    if (truncatedAt >= 0) out.span(truncatedAt, text.length);
    for (const tok of STRAY) for (let k = text.indexOf(tok); k >= 0; k = text.indexOf(tok, k + 1)) out.span(k, k + tok.length);
    return out.result();
  },
});
