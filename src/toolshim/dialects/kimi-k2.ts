/**
 * Kimi K2 sections (`kimi_k2`, `toolcall-formats.md` §4; `goose-toolshim.md` §1.4, §4.1):
 * `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{args}<|tool_call_end|>…<|tool_calls_section_end|>`,
 * whitespace and line breaks allowed between tokens.
 *
 * - Section tokens: plural and singular spellings (`<|tool_call_section_begin|>`, llama.cpp#17376),
 *   or none at all (section-less calls); the section end may be missing at the end of the text.
 * - Header: `functions.NAME:IDX`; the `functions.` prefix (also after junk such as
 *   `emoji_functions.`) and the `:IDX` index are format syntax and are stripped here; the full
 *   header is kept as `RawCall.id` (Kimi templates need it verbatim: vllm#50768). A header without
 *   an index is accepted (unsloth#5624); a malformed id `functions.X.0` (dot, no colon) drops the
 *   call as vLLM does (`kimi-k2-bad-call-id`). Further name resolution is the pipeline's.
 * - Arguments follow `<|tool_call_argument_begin|>` or, without it, start at the first `{`; a
 *   trailing `<|tool_call_argument_end|>` is ignored; raw Windows backslashes are repaired
 *   (`kimi-goose-windows-invalid-escapes`). A call whose JSON does not parse to an object is
 *   dropped; the other calls stand (`kimi-k2-one-invalid-json`).
 * - A call without `<|tool_call_end|>` is unterminated and yields no call (issue 3); the text from
 *   its section (or call) opener on is removed, and calls before it stand.
 * - Kimi-K2-Thinking writes real calls inside `<think>` (`callsInReasoning`).
 */
import { parseJsonTolerant } from "../json.js";
import type { RawCall } from "../types.js";
import { isPlainObject } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { findEarliest } from "./text-scan.js";

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
  const value = parseJsonTolerant(args);
  if (!isPlainObject(value)) return undefined;
  return { name, arguments: value, id: header.trim() };
}

function parse(text: string) {
  const out = new MatchBuilder(text);
  // Section markers are markup wherever they are.
  for (const tok of [...SECTION_BEGIN, ...SECTION_END]) {
    for (let i = text.indexOf(tok); i >= 0; i = text.indexOf(tok, i + 1)) out.span(i, i + tok.length);
  }
  let from = 0;
  for (;;) {
    const at = text.indexOf(CALL_BEGIN, from);
    if (at < 0) break;
    const bodyStart = at + CALL_BEGIN.length;
    const next = findEarliest(text, [CALL_END, CALL_BEGIN, ...SECTION_END], bodyStart);
    if (!next || next.token !== CALL_END) {
      // Unterminated: no call; remove from its section opener (when it is the first call) or itself.
      let start = at;
      for (const tok of SECTION_BEGIN) {
        const s = text.lastIndexOf(tok, at);
        if (s >= 0 && text.slice(s + tok.length, at).trim() === "") start = Math.min(start, s);
      }
      out.span(start, text.length);
      break;
    }
    const call = readCall(text.slice(bodyStart, next.index));
    if (call) out.call(call, at);
    const end = next.index + CALL_END.length;
    out.span(at, end);
    from = end;
  }
  return out.result();
}

/** Dialect `kimi_k2`. */
export const kimiK2 = defineDialect({
  family: "kimi_k2",
  markers: [...SECTION_BEGIN, CALL_BEGIN],
  detect: (text) => text.includes(CALL_BEGIN) || SECTION_BEGIN.some((t) => text.includes(t)),
  parse,
  callsInReasoning: true,
});
