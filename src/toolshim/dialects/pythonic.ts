/**
 * Pythonic call lists (`pythonic`; vLLM `pythonic` tool parser): `[f(a='x', b=1), g()]` with Python
 * literals (vLLM `pythonic`, `llama4_pythonic`). Framings:
 * - Llama 4 `<|python_start|>[…]<|python_end|>` (the closer may be missing at the end);
 * - Gemma 3 ```` ```tool_code ```` fences (vLLM issue#14734), with or without list brackets; the
 *   body is read as Python statements, so `print(f(a=1))` and `x = f(a=1)` are calls too (Gemma
 *   writes the call as code to run: `python-literal.ts` `statements`);
 * - Gemma 4's unfenced `tool_code = f(a=1)` line, with the `print(tool_code)` line after it
 *   (waybarrios/vllm-mlx pull#623), gated on offered names like a bare list;
 * - a bare list anywhere in the text (Llama 3.2, ToolACE).
 *
 * Inside the explicit framings any callee counts (the pipeline resolves names); a bare list counts
 * only when every callee could be an offered tool (`tool-gate.ts`) or is a side-effect tool
 * (`bash`, `write_file` … in `policy.ts`). Positional arguments cannot be mapped to parameter
 * names, so such a call is not accepted. The list (with its framing) is removed and prose around
 * it stays — except a bare list (or `tool_code` fence) that only calls side-effect tools: it is
 * returned so the pipeline refuses it with a tool error (`policy.ts`), but without markers it
 * is a non-call and its text stays visible.
 */
import { parsePythonCallAt, parsePythonCallListAt, parsePythonCallSequence, type PyCall } from "../python-literal.js";
import type { OfferedTool, RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { findFences } from "./fence.js";
import { isSideEffectToolName } from "../policy.js";
import { earliestFinder, framedByMarker } from "./text-scan.js";
import { plausiblyOffered } from "./tool-gate.js";

const START = "<|python_start|>";
const END = "<|python_end|>";
const BARE_LIST = /\[\s*[\p{L}_][\p{L}\p{N}_.-]*\s*\(/gu;
/** Gemma 4's unfenced assignment: a line that starts `tool_code = NAME(`. */
const TOOL_CODE_ASSIGN = /^[ \t]*tool_code[ \t]*=[ \t]*(?=[\p{L}_][\p{L}\p{N}_.-]*[ \t]*\()/gmu;
/** The bookkeeping line after it. */
const PRINT_TOOL_CODE = /^[ \t]*\r?\n[ \t]*print\([ \t]*tool_code[ \t]*\)[ \t]*(?=\r?\n|$)/;

/** Calls without positional arguments, as raw calls; `undefined` if any has positional ones. */
export function toRawCalls(calls: readonly PyCall[]): RawCall[] | undefined {
  if (calls.some((c) => c.positional.length > 0)) return undefined;
  return calls.map((c) => ({ name: c.name, arguments: c.kwargs }));
}

function parse(text: string, tools: readonly OfferedTool[]) {
  const out = new MatchBuilder(text);
  const taken: { start: number; end: number }[] = [];
  const free = (i: number) => !taken.some((t) => t.start <= i && i < t.end);

  const nextEnd = earliestFinder(text, [END]); // searched again only once passed: one pass for many openers
  for (let at = text.indexOf(START); at >= 0; at = text.indexOf(START, at + 1)) {
    const close = nextEnd(at)?.index ?? -1;
    const bodyEnd = close >= 0 ? close : text.length;
    const end = close >= 0 ? close + END.length : text.length;
    const calls = parsePythonCallSequence(text, at + START.length, bodyEnd);
    const raw = calls && toRawCalls(calls);
    if (raw) for (const c of raw) out.call(c, at);
    out.span(at, end); // explicit markers: removed even when the body does not parse
    taken.push({ start: at, end });
  }

  /**
   * Offered-looking calls are removed. Calls to side-effect tools only are returned (to be refused)
   * but stay visible; such a list directly after another format's marker (`<|tool_call_start|>`,
   * `[TOOL_CALLS]`, `<tool_calls>` …) belongs to that format, which removes and reports it, so it
   * is skipped here (a span-less match could not be checked for overlap).
   */
  const take = (raw: RawCall[], start: number, end: number): void => {
    const offered = raw.some((c) => plausiblyOffered(c.name, tools));
    if (!offered && framedByMarker(text, start)) return;
    for (const c of raw) out.call(c, start);
    if (offered) out.span(start, end);
    taken.push({ start, end });
  };
  const gate = (c: RawCall) => plausiblyOffered(c.name, tools) || isSideEffectToolName(c.name);
  const fences = findFences(text);

  for (const f of fences) {
    if (f.lang !== "tool_code" && f.lang !== "python" && f.lang !== "tool_call") continue;
    const calls = parsePythonCallSequence(text, f.bodyStart, f.bodyEnd, { statements: f.lang !== "python" });
    const raw = calls && toRawCalls(calls);
    if (!raw) continue;
    if (f.lang === "python" ? !raw.every((c) => plausiblyOffered(c.name, tools)) : !raw.every(gate)) continue;
    take(raw, f.start, f.end);
  }

  // The unfenced line is code the model wrote to run; the same line inside a fence that is not a
  // call (a Python example) is quoted code.
  const fenced = (i: number) => fences.some((f) => f.start <= i && i < f.end);
  for (const m of text.matchAll(TOOL_CODE_ASSIGN)) {
    if (!free(m.index) || fenced(m.index)) continue;
    const r = parsePythonCallAt(text, m.index + m[0].length);
    const raw = r && toRawCalls([r.call]);
    // The call ends its line (`tool_code = f(a=1) + 1` is an expression, not a call).
    if (!r || !raw || !raw.every(gate) || !/^[ \t]*(?:\r?\n|$)/.test(text.slice(r.end))) continue;
    const tail = PRINT_TOOL_CODE.exec(text.slice(r.end));
    take(raw, m.index, r.end + (tail ? tail[0].length : 0));
  }

  for (const m of text.matchAll(BARE_LIST)) {
    if (!free(m.index)) continue;
    const list = parsePythonCallListAt(text, m.index);
    const raw = list && toRawCalls(list.calls);
    if (!list || !raw || !raw.every(gate)) continue;
    take(raw, m.index, list.end);
  }
  return out.result();
}

/** Dialect `pythonic`. */
export const pythonic = defineDialect({
  family: "pythonic",
  example: "[get_weather(city='San Francisco', metric='celsius')]",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/entrypoints/openai/tool_parsers/test_pythonic_tool_parser.py",
  markers: [START, "```tool_code"],
  detect: (text) =>
    text.includes(START) ||
    /\[\s*[\p{L}_][\p{L}\p{N}_.-]*\s*\(/u.test(text) ||
    /```[ \t]*(?:tool_code|tool_call|python)\b/.test(text) ||
    /^[ \t]*tool_code[ \t]*=/m.test(text),
  parse,
});
