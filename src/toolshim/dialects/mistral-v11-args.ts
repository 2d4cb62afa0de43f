/**
 * Mistral v11+ tokenizer form (`mistral_v11_args`; vLLM `mistral` tool parser (v11+ tokenizer), ollama `model/parsers/ministral.go`):
 * `[TOOL_CALLS]NAME[ARGS]{args}` repeated per call (Mistral Small 3.x, Magistral, Devstral,
 * Ministral 3). Variants: `[ARGS]` omitted (`[TOOL_CALLS]NAME{args}`), a `[CALL_ID]id` between name
 * and arguments (v13 tokenizer), a zero-argument call `[TOOL_CALLS]NAME` with no body (at the end
 * of the text or before the next marker).
 *
 * - Text right after the arguments stays (`mistral-v11-content-after`); text glued before the
 *   marker stays (`mistral-v11-content-before`).
 * - Arguments cut by the end of the text yield no call; the text from the marker on is removed
 *   (`mistral-v11-truncated`). So does a name alone at the end of the text when the server said
 *   the token limit stopped the model (`endIsCut`: its arguments may have followed).
 * - Windows paths with raw backslashes are repaired by the tolerant JSON parser.
 * - A marker followed by plain words (`[TOOL_CALLS] not json`) is not a call: only the stray
 *   marker is removed, unless it is quoted in a line of prose (`| Mistral | [TOOL_CALLS] |`).
 *   A marker followed by `[`/`{` is `mistral_v3_json_array`.
 * - Without the marker (a server that skips special tokens drops `[TOOL_CALLS]`, and `[ARGS]` too
 *   unless the tokenizer renders it as text: vllm-project/vllm issue #16190, pull #39294), a run of
 *   `NAME[ARGS]{args}` or `NAME{args}` (the name glued to the brace) is a call only when it starts
 *   a line (or follows the colon that ends a clause of prose: `Let me run: NAME{…}`), fills the
 *   rest of that line, names something that could be an offered tool
 *   (`tool-gate.ts`) and is not introduced as an example; several calls may follow each other
 *   on the line (each lost its own marker).
 */
import { isPlainObject, matchBalanced, matchBalancedBefore, parseJsonTolerant } from "../json.js";
import { introducedAsExample } from "../inline-json.js";
import type { OfferedTool, ParseContext, RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { standsInProse } from "./text-scan.js";
import { plausiblyOffered } from "./tool-gate.js";

const MARKER = "[TOOL_CALLS]";
const NAME = /[\p{L}_][\p{L}\p{N}_.-]*/uy;
const CALL_ID = /\[CALL_ID\]\s*([^\s[{]*)\s*/y;
const ARGS = /\s*\[ARGS\]\s*/y;
/**
 * A line that starts with a name glued to `[ARGS]` or `{`, or such a name after the colon that
 * ends a clause of prose (`让我正确执行：exec{…}`, openclaw/openclaw issue#39626); the match ends
 * where the name starts.
 */
const BARE_START = /(?:^|\n|[:：])[ \t]*(?=[\p{L}_][\p{L}\p{N}_.-]*(?:\[ARGS\]|\{))/gu;

function sticky(re: RegExp, text: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(text);
}

/**
 * Marker-less runs (module rules): `NAME[ARGS]{…}` or `NAME{…}` at the start of a line (or after a
 * clause's colon), back to back up to the end of the line. Records calls and spans into `out`.
 */
function bareRuns(text: string, tools: readonly OfferedTool[], out: MatchBuilder): void {
  const starts = [...text.matchAll(BARE_START)].map((m) => m.index + m[0].length);
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k]!;
    // A call's arguments close before the next line that starts a run: each scan stops there.
    const bound = starts[k + 1] ?? text.length;
    const found: { call: RawCall; at: number }[] = [];
    let p = start;
    for (;;) {
      const name = sticky(NAME, text, p);
      if (!name || !plausiblyOffered(name[0], tools)) break;
      let q = p + name[0].length;
      const args = sticky(ARGS, text, q);
      if (args) q += args[0].length;
      if (text[q] !== "{") break;
      const bm = matchBalancedBefore(text, q, bound);
      if (!bm.ok) break;
      const value = parseJsonTolerant(text.slice(q, bm.end));
      if (!isPlainObject(value)) break;
      found.push({ call: { name: name[0], arguments: value }, at: p });
      p = bm.end;
      while (text[p] === " " || text[p] === "\t") p++;
    }
    const eol = text.indexOf("\n", p);
    const restOfLine = text.slice(p, eol < 0 ? text.length : eol);
    // The line ends with the run, or a marked call follows it (`NAME{…}[TOOL_CALLS]NAME2{…}`).
    const ends = restOfLine.trim() === "" || restOfLine.startsWith(MARKER);
    if (found.length === 0 || !ends || introducedAsExample(text, start)) continue;
    for (const f of found) out.call(f.call, f.at);
    out.span(start, p);
  }
}

function parse(text: string, tools: readonly OfferedTool[], context?: ParseContext) {
  const out = new MatchBuilder(text);
  bareRuns(text, tools, out);
  let from = 0;
  for (;;) {
    const ms = text.indexOf(MARKER, from);
    if (ms < 0) break;
    const me = ms + MARKER.length;
    from = me;
    let p = me;
    while (p < text.length && /[ \t]/.test(text[p]!)) p++;
    if (text[p] === "[" && !text.startsWith("[ARGS]", p)) continue; // JSON array: mistral_v3_json_array
    if (text[p] === "{") continue;
    const name = sticky(NAME, text, p);
    if (!name) {
      if (!standsInProse(text, ms, me)) out.span(ms, me); // stray marker (kept when quoted in prose)
      continue;
    }
    let q = p + name[0].length;
    let id: string | undefined;
    const callId = sticky(CALL_ID, text, q);
    if (callId) {
      id = callId[1] || undefined;
      q += callId[0].length;
    }
    const args = sticky(ARGS, text, q);
    if (args) q += args[0].length;
    const call: RawCall = { name: name[0], arguments: {} };
    if (id !== undefined) call.id = id;
    if (text[q] === "{") {
      const bm = matchBalanced(text, q);
      if (!bm.ok) {
        out.span(ms, text.length); // cut arguments: no call
        break;
      }
      const value = parseJsonTolerant(text.slice(q, bm.end));
      if (isPlainObject(value)) {
        call.arguments = value;
        out.call(call, ms);
      }
      out.span(ms, bm.end);
      from = bm.end;
      continue;
    }
    const rest = text.slice(q);
    if (args && rest.trim() === "") {
      out.span(ms, text.length); // `[ARGS]` and nothing after it: cut
      break;
    }
    if (rest.trim() === "" && context?.endIsCut === true) {
      out.span(ms, text.length); // a name the token limit stopped: its arguments may have followed
      break;
    }
    if (rest.trim() === "" || rest.trimStart().startsWith(MARKER)) {
      out.call(call, ms); // zero-argument call
      out.span(ms, q);
      from = q;
      continue;
    }
    if (!standsInProse(text, ms, me)) out.span(ms, me); // `[TOOL_CALLS]` before ordinary words: stray marker
  }
  return out.result();
}

/** Cheap test for a marker-less run (`BARE_START` without the lookahead cost per line). */
const BARE_DETECT = /(?:^|\n|[:：])[ \t]*[\p{L}_][\p{L}\p{N}_.-]*(?:\[ARGS\]\s*)?\{/u;

/** Dialect `mistral_v11_args`. */
export const mistralV11Args = defineDialect({
  family: "mistral_v11_args",
  example: "[TOOL_CALLS]add_this_and_that{\"a\": 3.5, \"b\": 4}",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/tool_use/test_mistral_tool_parser.py",
  markers: [MARKER],
  detect: (text) => /\[TOOL_CALLS\][ \t]*(?:[^[{\s]|\[ARGS\])/u.test(text) || BARE_DETECT.test(text),
  parse,
});
