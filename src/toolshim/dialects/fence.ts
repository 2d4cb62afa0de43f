/**
 * Markdown code fences, for the dialects that live inside them (fenced JSON, xLAM lists, Gemma 3
 * `tool_code`, Continue ```` ```tool ```` blocks).
 */

/**
 * The info strings (lower-case) under which a fence may hold calls as JSON or markup: none,
 * `json` and its kin, `xml`, the tool labels. Real replies put calls only in fences labelled so
 * (test/fixtures/toolcalls*.jsonl: `json`, none, `xml`, `tool`, `tool_call`, `tool_code`); a fence
 * labelled with another language (```` ```ts ````, ```` ```d ````, ```` ```python ````) holds code
 * the answer quotes, and JSON in it is not a call. Python's calls are read by the pythonic dialect
 * (`pythonic.ts`), not as JSON.
 */
export const CALL_FENCE_LANGS: ReadonlySet<string> = new Set([
  "", "json", "jsonc", "json5", "javascript", "js", "tool", "tools", "tool_call", "tool_calls", "tool_code", "function", "function_call", "xml",
]);

/** One fenced block. Offsets are indices into the text. */
export interface Fence {
  /** Index of the opening backticks (or of the indentation before them). */
  start: number;
  /** Index just after the closing backticks; `text.length` when the fence is unterminated. */
  end: number;
  /** Info string after the opening backticks (`json`, `tool_code`, …), lower-case; `""` when none. */
  lang: string;
  bodyStart: number;
  bodyEnd: number;
  /** Whether a closing fence was found. */
  closed: boolean;
}

/**
 * Find fenced blocks: an opening run of three or more backticks at the start of a line (leading
 * spaces allowed), an optional info word, then the body up to the next run of at least as many
 * backticks (which may follow the body on the same line: ```` {}``` ````). An unterminated fence
 * runs to the end of the text.
 */
export function findFences(text: string): Fence[] {
  const out: Fence[] = [];
  const open = /(^|\n)([ \t]*)(`{3,})[ \t]*([\w+.-]*)[ \t]*(?=\r?\n|$)/g;
  let m: RegExpExecArray | null;
  while ((m = open.exec(text)) !== null) {
    const start = m.index + m[1]!.length;
    const ticks = m[3]!;
    let bodyStart = m.index + m[0].length;
    if (text[bodyStart] === "\r") bodyStart++;
    if (text[bodyStart] === "\n") bodyStart++;
    const close = text.indexOf(ticks, bodyStart);
    const closed = close >= 0;
    const bodyEnd = closed ? close : text.length;
    let end = closed ? close + ticks.length : text.length;
    while (closed && text[end] === "`") end++;
    out.push({ start, end, lang: m[4]!.toLowerCase(), bodyStart, bodyEnd, closed });
    open.lastIndex = end;
  }
  return out;
}
