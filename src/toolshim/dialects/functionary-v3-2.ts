/**
 * Functionary v3.2 (`functionary_v3.2`; llama.cpp `COMMON_CHAT_FORMAT_FUNCTIONARY_V3_2`; llama.cpp FUNCTIONARY_V3_2):
 * segments `NAME\n{json}` separated by `>>>`; a segment named `all` is user-visible text; the
 * built-in `python` tool takes raw code. The first segment has no `>>>`.
 *
 * - `>>>NAME\n…`: NAME must be one word. A JSON object body is the call's arguments (JSON cut by
 *   the end of the text: no call, removed); a non-JSON body is a call only for `python`
 *   (`{code}`); otherwise the segment is left as text (a Python REPL prompt `>>> x = 1` is prose).
 *   Raw code that runs to the end of the text is cut when the server said the token limit stopped
 *   the model (`endIsCut`): no call, removed.
 * - The first segment (no `>>>`) is a call only when its first line is exactly an offered tool
 *   name: without a marker, anything else is prose. A first line naming a side-effect tool that is
 *   not offered (`python` with raw code, `bash` with JSON; `policy.ts`) is returned so the
 *   pipeline refuses it with a tool error (`policy.ts`); without a marker its text stays.
 * - `all\n` / `>>>all\n` headers are removed; their text stays.
 */
import { isPlainObject, matchBalanced, parseJsonTolerant } from "../json.js";
import type { OfferedTool, ParseContext, RawCall } from "../types.js";
import { isSideEffectToolName } from "../policy.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";

const HEADER = /^([\p{L}_][\p{L}\p{N}_.-]*)[ \t]*\r?\n/u;

type SegmentResult = { call?: RawCall; removeTo?: number; truncated?: boolean } | undefined;

/**
 * Read one segment `NAME\nbody` occupying `[start, end)`; header already validated as a word.
 * @param endIsCut the text ends at a token-limit stop ({@link ParseContext.endIsCut}).
 */
function readSegment(text: string, start: number, end: number, name: string, headerLen: number, endIsCut: boolean): SegmentResult {
  const bodyStart = start + headerLen;
  const body = text.slice(bodyStart, end);
  if (name === "all") return { removeTo: bodyStart };
  const t = body.trimStart();
  if (t.startsWith("{")) {
    const at = bodyStart + (body.length - t.length);
    const m = matchBalanced(text, at);
    if (!m.ok || m.end > end) return { truncated: true };
    const value = parseJsonTolerant(text.slice(at, m.end));
    if (!isPlainObject(value)) return undefined;
    return { call: { name, arguments: value }, removeTo: m.end };
  }
  if (name === "python" && body.trim() !== "" && endIsCut && end >= text.length) return { truncated: true };
  if (name === "python" && body.trim() !== "") return { call: { name, arguments: { code: body.trim() } }, removeTo: end };
  return undefined;
}

function parse(text: string, tools: readonly OfferedTool[], context?: ParseContext) {
  const out = new MatchBuilder(text);
  const cuts: number[] = [];
  for (let i = text.indexOf(">>>"); i >= 0; i = text.indexOf(">>>", i + 3)) cuts.push(i);
  const bounds = [0, ...cuts, text.length];
  for (let k = 0; k < bounds.length - 1; k++) {
    const segStart = k === 0 ? 0 : bounds[k]! + 3;
    const segEnd = bounds[k + 1]!;
    const lead = k === 0 ? text.length - text.trimStart().length : 0;
    const head = HEADER.exec(text.slice(segStart + lead, segEnd));
    if (!head) continue;
    const name = head[1]!;
    const unmarkedForbidden = k === 0 && name !== "all" && !tools.some((t) => t.name === name);
    if (unmarkedForbidden && !isSideEffectToolName(name)) continue;
    const seg = readSegment(text, segStart + lead, segEnd, name, head[0].length, context?.endIsCut === true);
    if (!seg) continue;
    if (unmarkedForbidden) {
      if (seg.call) out.call(seg.call, segStart + lead);
      continue;
    }
    const markStart = k === 0 ? segStart + lead : bounds[k]!;
    if (seg.truncated) {
      out.span(markStart, text.length);
      break;
    }
    if (seg.call) out.call(seg.call, markStart);
    // An `all` header is markup, not call markup: never an unreadable call (which would keep it visible).
    if (name === "all") out.markup(markStart, seg.removeTo ?? segEnd);
    else out.span(markStart, seg.removeTo ?? segEnd);
  }
  return out.result();
}

/** Dialect `functionary_v3.2`. */
export const functionaryV32 = defineDialect({
  family: "functionary_v3.2",
  example: "python\n# This is a program:\nprint('hey')",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: [">>>"],
  detect: (text) => text.includes(">>>") || /^\s*[\p{L}_][\p{L}\p{N}_.-]*[ \t]*\r?\n/u.test(text),
  parse,
});
