/**
 * Kimi K2 sections (`kimi_k2`; vLLM `kimi_k2` tool parser, llama.cpp `COMMON_CHAT_FORMAT_KIMI_K2`; aaif-goose/goose `crates/goose/src/providers/toolshim.rs` `parse_tokenized_tool_calls`; cline/cline issue #12979):
 * `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{args}<|tool_call_end|>…<|tool_calls_section_end|>`,
 * whitespace and line breaks allowed between tokens.
 *
 * - Section tokens: plural and singular spellings (`<|tool_call_section_begin|>`, llama.cpp#17376),
 *   or none at all (section-less calls); the section end may be missing at the end of the text.
 * - Header: `functions.NAME:IDX`; the `functions.` prefix (also after junk such as
 *   `emoji_functions.`) and the `:IDX` index are format syntax and are stripped here; the full
 *   header is kept as `RawCall.id` (Kimi templates need it verbatim: vllm#50768). A header without
 *   an index is accepted (unsloth#5624); a malformed id `functions.X.0` (dot, no colon) drops the
 *   call as vLLM does (`kimi-k2-bad-call-id`); an id sanitised by a client to
 *   `functions_NAME_IDX` (exo-explore/exo issue #2281) names NAME. Further name resolution is the
 *   pipeline's.
 * - Arguments follow `<|tool_call_argument_begin|>` or, without it, start at the first `{`; a
 *   trailing `<|tool_call_argument_end|>` is ignored; raw Windows backslashes are repaired
 *   (`kimi-goose-windows-invalid-escapes`); arguments written as a JSON string are decoded. A
 *   call whose JSON does not parse is dropped; the other calls stand (`kimi-k2-one-invalid-json`).
 *   Arguments that parse to an array or a scalar are returned as they are, for the pipeline to
 *   refuse with a tool error (not dropped silently as goose's `toolshim.rs` does).
 * - A call without `<|tool_call_end|>` is unterminated and yields no call; the text from
 *   its section (or call) opener on is removed, and calls before it stand.
 * - A call whose `<|tool_call_begin|>` was lost (a serving stack that drops some special tokens,
 *   goose issue#8269: `emoji_functions.write:0 <|tool_call_argument_begin|> {…}`) is still read
 *   when its `<|tool_call_end|>` is there: the header is the `functions.`/`:N`-shaped word right
 *   before `<|tool_call_argument_begin|>` on the same line.
 * - Kimi-K2-Thinking writes real calls inside `<think>` (`callsInReasoning`).
 */
import { parseJsonTolerant } from "../json.js";
import type { RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { earliestFinder, standsInProse } from "./text-scan.js";

const SECTION_BEGIN = ["<|tool_calls_section_begin|>", "<|tool_call_section_begin|>"];
const SECTION_END = ["<|tool_calls_section_end|>", "<|tool_call_section_end|>"];
const CALL_BEGIN = "<|tool_call_begin|>";
const CALL_END = "<|tool_call_end|>";
const ARG_BEGIN = "<|tool_call_argument_begin|>";
const ARG_END = "<|tool_call_argument_end|>";

/** The tool name in a Kimi call header, or `undefined` for a malformed id. */
export function kimiHeaderName(header: string): string | undefined {
  const h = header.trim();
  if (h === "") return undefined;
  // An id a client sanitised to `[A-Za-z0-9_-]` (`functions_get_weather_1`) and the model copied
  // from the history (exo-explore/exo issue #2281).
  const sanitised = /^functions_([A-Za-z_][\w-]*?)_(\d+)$/.exec(h);
  if (sanitised) return sanitised[1];
  const indexed = /^(.*):(\d+)$/s.exec(h);
  let name = indexed ? indexed[1]! : h;
  if (!indexed && /\.\d+$/.test(name)) return undefined; // `functions.X.0`
  const prefix = /^(?:.*?functions[.:])/s.exec(name);
  if (prefix) name = name.slice(prefix[0].length);
  name = name.trim();
  return name === "" ? undefined : name;
}

function readCall(body: string): RawCall | undefined {
  const argAt = body.indexOf(ARG_BEGIN);
  const braceAt = body.indexOf("{");
  let header: string;
  let args: string;
  if (argAt >= 0) {
    header = body.slice(0, argAt);
    args = body.slice(argAt + ARG_BEGIN.length);
  } else if (braceAt >= 0) {
    header = body.slice(0, braceAt);
    args = body.slice(braceAt);
  } else {
    return undefined;
  }
  args = args.split(ARG_END).join("");
  const name = kimiHeaderName(header);
  if (name === undefined) return undefined;
  let value = parseJsonTolerant(args);
  if (typeof value === "string") value = parseJsonTolerant(value) ?? value; // double-encoded arguments
  if (value === undefined) return undefined;
  // Arrays and scalars are passed on so the pipeline answers them with a tool error (goose drops
  // them silently, as goose's `toolshim.rs` does).
  return { name, arguments: value, id: header.trim() };
}

function parse(text: string) {
  const out = new MatchBuilder(text);
  // Section markers are markup wherever they are, unless quoted in a line of prose.
  for (const tok of [...SECTION_BEGIN, ...SECTION_END]) {
    for (let i = text.indexOf(tok); i >= 0; i = text.indexOf(tok, i + 1)) {
      if (!standsInProse(text, i, i + tok.length)) out.span(i, i + tok.length);
    }
  }
  const taken: { start: number; end: number }[] = [];
  let from = 0;
  const nextStop = earliestFinder(text, [CALL_END, CALL_BEGIN, ...SECTION_END]);
  for (;;) {
    const at = text.indexOf(CALL_BEGIN, from);
    if (at < 0) break;
    const bodyStart = at + CALL_BEGIN.length;
    const next = nextStop(bodyStart);
    if (!next || next.token !== CALL_END) {
      // Unterminated: no call; remove from its section opener (when it is the first call) or itself.
      let start = at;
      for (const tok of SECTION_BEGIN) {
        const s = text.lastIndexOf(tok, at);
        if (s >= 0 && text.slice(s + tok.length, at).trim() === "") start = Math.min(start, s);
      }
      out.span(start, text.length);
      taken.push({ start, end: text.length });
      break;
    }
    const call = readCall(text.slice(bodyStart, next.index));
    if (call) out.call(call, at);
    const end = next.index + CALL_END.length;
    out.span(at, end);
    taken.push({ start: at, end });
    from = end;
  }
  readBeginless(text, taken, out);
  return out.result();
}

/** A Kimi call header without its begin token: `[junk]functions.NAME[:N]` or `NAME:N`. */
const BEGINLESS_HEADER = /(?:^|[\s>])([^\s<>]*functions[.:][^\s<>]+|[^\s<>]+:\d+)[ \t]*$/;

/** Calls whose `<|tool_call_begin|>` was dropped but whose argument and end tokens are present. */
function readBeginless(text: string, taken: readonly { start: number; end: number }[], out: MatchBuilder): void {
  const nextStop = earliestFinder(text, [CALL_END, CALL_BEGIN, ARG_BEGIN, ...SECTION_END]);
  for (let a = text.indexOf(ARG_BEGIN); a >= 0; a = text.indexOf(ARG_BEGIN, a + 1)) {
    if (taken.some((t) => t.start <= a && a < t.end)) continue;
    // The header is the run of non-blank characters (no `<` or `>`) before the token, after
    // blanks: only that run and the character before it are read, not the whole line.
    let r = a;
    while (r > 0 && (text[r - 1] === " " || text[r - 1] === "\t")) r--;
    while (r > 0 && /[^\s<>]/.test(text[r - 1]!)) r--;
    const lineStart = r > 0 && text[r - 1] !== "\n" ? r - 1 : r;
    const head = BEGINLESS_HEADER.exec(text.slice(lineStart, a));
    if (!head) continue;
    const next = nextStop(a + ARG_BEGIN.length);
    if (!next || next.token !== CALL_END) continue;
    const start = lineStart + head.index + (head[0].length - head[0].trimStart().length);
    const call = readCall(text.slice(start, next.index));
    if (!call) continue;
    out.call(call, start);
    out.span(start, next.index + CALL_END.length);
  }
}

/** Dialect `kimi_k2`. */
export const kimiK2 = defineDialect({
  family: "kimi_k2",
  example: "<think>I'm thinking<|tool_calls_section_begin|><|tool_call_begin|>functions.complex_function_in_think:0<|tool_call_argument_begin|>{\"name\": \"John Doe\", \"age\": 30, \"active\": true, \"score\": 95.5}<|tool_call_end|><|tool_calls_section_end|>I'm still thinking</think>Hello",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: [...SECTION_BEGIN, CALL_BEGIN],
  detect: (text) => text.includes(CALL_BEGIN) || text.includes(ARG_BEGIN) || SECTION_BEGIN.some((t) => text.includes(t)),
  parse,
  callsInReasoning: true,
});
