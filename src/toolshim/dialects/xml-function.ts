/**
 * The Qwen3-Coder function body `<function=NAME><parameter=KEY>value</parameter>…</function>`,
 * shared by `qwen3_coder_xml` and `seed_oss` (vLLM `qwen3_coder` and `seed_oss` tool parsers).
 *
 * Tolerated drift (sglang pull #27337, ollama pull #17914, mlx-lm pull #1881, llama.cpp issue #26763): values on the same line as
 * the tags; unescaped `&`, `<`, `>` in values; a dropped `</parameter>` (the value ends at the
 * next `<parameter=` or `</function>`); `</parameter/>`, `</parameter1>` and the fused
 * `</parameter_function>`; a dropped `>` after a function or parameter name (the name ends at the
 * line break); a stray `</function_invocation>`; no line break before `</parameter>`; a missing
 * `</function>` at the end of the text when every parameter is complete. A closer inside a value
 * (a file that mentions `</parameter>` or `</tool_call>`, raullenchai/Rapid-MLX issue#1515, where
 * the other parsers cut the file there) is literal when markup does not follow it and a later
 * closer of the value is followed by markup (the next parameter, `</function>`, the wrapper's
 * closer, the next call or the end); without such a later closer the first one ends the value, as
 * those parsers read it (llama.cpp pull#15162).
 * A value that runs to the end of the text is cut (no call), unless an earlier parameter of the
 * same function already dropped its `</parameter>`: a model that writes no closers ends its last
 * value with the reply (a real qwen3-coder:30b reply through Ollama, continuedev/continue#13057:
 * `<function=create_new_file>\n<parameter=filepath> test.txt\n<parameter=contents> hello`) —
 * except when the server said the token limit stopped the model (`endIsCut`): then that last value
 * is cut too, and so is a function that the end of the text ends without its `</function>` (the
 * limit, not a stop token, ended it: a further parameter may have been under way).
 */
import { cleanXmlValue, skipWs } from "./text-scan.js";

/** A parsed `<function=…>` block. */
export type XmlFunction =
  | { ok: true; name: string; params: Record<string, string>; start: number; end: number }
  /** Cut by the end of the text (an open parameter value, or no name yet): no call. */
  | { ok: false; reason: "truncated"; start: number }
  /** Not a usable block (empty name). `end` is where it stops. */
  | { ok: false; reason: "invalid"; start: number; end: number };

const PARAM_OPEN = "<parameter=";
const PARAM_CLOSE = /<\/parameter[^<>\n]{0,24}>/y;
const FUNCTION_END = /<\/function(?:_invocation)?>/y;

/** Read a tag name after `<function=` or `<parameter=`: up to `>` or a line break (dropped `>`). */
function readName(text: string, i: number): { name: string; next: number } | undefined {
  let j = i;
  while (j < text.length && text[j] !== ">" && text[j] !== "\n" && text[j] !== "<") j++;
  if (j >= text.length) return undefined;
  const name = text.slice(i, j).trim();
  return { name, next: text[j] === ">" ? j + 1 : j === i ? j : j + (text[j] === "\n" ? 1 : 0) };
}

/** What may follow a closer that ends a value, by the closer: the call's next tag, the next call. */
const NEXT_CALL = ["<tool_call>", "<function="];
const AFTER_WRAPPER = NEXT_CALL;
const AFTER_FUNCTION = ["</tool_call>", ...NEXT_CALL];
const AFTER_PARAMETER = ["<parameter=", "</parameter", "</function", ...AFTER_FUNCTION];

/** Whether markup that may follow `closer` (or the end of the block) follows it; `i` is where it ends. */
function closerFollowedByMarkup(text: string, closer: string, i: number, limit: number, endIsCut: boolean): boolean {
  const k = skipWs(text, i, limit);
  const next = closer.startsWith("</parameter") ? AFTER_PARAMETER : closer === "</tool_call>" ? AFTER_WRAPPER : AFTER_FUNCTION;
  // The end of a text the token limit cut is not the end of the block.
  if (k >= limit) return !(endIsCut && limit >= text.length);
  return next.some((m) => text.startsWith(m, k));
}

function stickyAt(re: RegExp, text: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(text);
}

/**
 * Parse the function block whose `<function=` starts at `start`.
 * @param limit index where the enclosing wrapper ends (e.g. `</tool_call>`); default end of text.
 * @param endIsCut the text ends at a token-limit stop ({@link ParseContext.endIsCut}): a value open
 *   at the end of the text is cut even when the function's earlier parameters dropped their closers.
 */
export function parseXmlFunction(text: string, start: number, limit = text.length, endIsCut = false): XmlFunction {
  const head = readName(text, start + "<function=".length);
  if (!head) return { ok: false, reason: "truncated", start };
  if (head.name === "") return { ok: false, reason: "invalid", start, end: head.next };
  const params: Record<string, string> = {};
  let i = head.next;
  // An earlier parameter of this function ended at the next `<parameter=` without its closer.
  let closerless = false;
  // The end of the text reached before `</function>`: complete when every parameter closed
  // (max-token cutoff, Rapid-MLX pull#1574), unless the server said the token limit cut it.
  const unclosed = (end: number): XmlFunction =>
    endIsCut && limit >= text.length ? { ok: false, reason: "truncated", start } : { ok: true, name: head.name, params, start, end };
  for (;;) {
    i = skipWs(text, i, limit);
    if (i >= limit) return unclosed(i);
    const fnEnd = stickyAt(FUNCTION_END, text, i);
    if (fnEnd) return { ok: true, name: head.name, params, start, end: i + fnEnd[0].length };
    if (text.startsWith("</tool_call>", i) || text.startsWith("<function=", i) || text.startsWith("<tool_call>", i)) {
      return { ok: true, name: head.name, params, start, end: i };
    }
    if (!text.startsWith(PARAM_OPEN, i)) {
      // Junk between tags: skip to the next tag we know.
      const next = text.indexOf("<", i + 1);
      if (next < 0 || next >= limit) return unclosed(limit);
      i = next;
      continue;
    }
    const key = readName(text, i + PARAM_OPEN.length);
    if (!key || key.name === "") return { ok: false, reason: "truncated", start };
    const valueStart = key.next;
    let j = valueStart;
    let valueEnd = -1;
    let after = -1;
    let fused = false;
    // A closer that markup does not follow (`</tool_call>` in a file's text) may be literal: the
    // first such one ends the value only when no closer followed by markup comes later.
    let literal: { valueEnd: number; after: number; fused: boolean } | undefined;
    let nextParam = false;
    while (j < limit) {
      const lt = text.indexOf("<", j);
      if (lt < 0 || lt >= limit) break;
      if (text.startsWith(PARAM_OPEN, lt)) {
        nextParam = true;
        // The next parameter: a dropped </parameter>, unless a closer before it ended the value.
        if (literal === undefined) {
          valueEnd = lt;
          after = lt;
          closerless = true;
        }
        break;
      }
      const close = stickyAt(PARAM_CLOSE, text, lt);
      // Without </parameter>: the function's or the wrapper's closer ends the value (dropped </parameter>).
      const closer = close?.[0] ?? stickyAt(FUNCTION_END, text, lt)?.[0] ?? (text.startsWith("</tool_call>", lt) ? "</tool_call>" : undefined);
      if (closer !== undefined) {
        const candidate = close
          ? { valueEnd: lt, after: lt + closer.length, fused: /function/.test(closer) }
          : { valueEnd: lt, after: lt, fused: false };
        if (closerFollowedByMarkup(text, closer, lt + closer.length, limit, endIsCut)) {
          ({ valueEnd, after, fused } = candidate);
          literal = undefined;
          break;
        }
        literal ??= candidate;
      }
      j = lt + 1;
    }
    // A text the token limit cut inside the value: its closers so far do not end it.
    const cutInside = endIsCut && limit >= text.length && valueEnd < 0 && !nextParam;
    if (literal !== undefined && !cutInside) ({ valueEnd, after, fused } = literal);
    if (valueEnd < 0) {
      // The value runs to the end of the block. Inside a closed wrapper the wrapper ends it;
      // at the end of the text it is cut.
      if (limit < text.length || (closerless && !endIsCut)) {
        valueEnd = limit;
        after = limit;
      } else {
        return { ok: false, reason: "truncated", start };
      }
    }
    params[key.name] = cleanXmlValue(text.slice(valueStart, valueEnd));
    i = after;
    if (fused) return { ok: true, name: head.name, params, start, end: i };
  }
}
