/**
 * Reading the tool name out of call markup that could not be parsed (a body cut by the end of the
 * text, broken JSON, a missing value): the pipeline's broken-block rule needs it to tell a failed
 * call of an offered tool (removed, and the model is told to write it again) from markup that
 * names no offered tool (left as text).
 *
 * The spellings are the name carriers of the dialects in this folder: a JSON `"name": "x"`,
 * XML-ish `name="x"` attributes, `<function=x>`, Gemma `call:x`, Kimi/Harmony `functions.x`,
 * Mistral `[TOOL_CALLS]x`, DeepSeek `<｜tool▁sep｜>x`, GLM `<tool_call>x` before `<arg_key>`,
 * Functionary `>>>x`.
 */

/** Name carriers, most specific first; group 1 is the name. */
const CARRIERS: readonly RegExp[] = [
  /"(?:name|tool_name|function)"\s*:\s*"([^"\n]{1,80})"/,
  /\bname\s*=\s*["']([^"'\n]{1,80})["']/,
  /<function=([^>\s]{1,80})/,
  /\bcall:\s*([\w.-]{1,80})/,
  /\bto=functions\.([\w-]{1,80}(?:\.[A-Za-z_][\w-]*)*)/,
  /\bfunctions\.([\w-]{1,80}(?:\.[A-Za-z_][\w-]*)*)/,
  /\[TOOL_CALLS\]\s*([\w.-]{1,80})/,
  /<[|｜]tool[▁_ ]sep[|｜]>\s*([\w.-]{1,80})/,
  /<tool_call>\s*([\w.-]{1,80})\s*(?:\n|<arg_key>)/,
  /^>>>\s*([\w.-]{1,80})/,
];

/**
 * The tool name an unreadable call block shows, if any.
 * @param markup the block's text (at most its first 2,000 characters are read).
 * @returns the name as written (resolution against the offered tools is the pipeline's), or
 *   `undefined` when the block shows none (a marker cut before the name).
 */
export function sniffToolName(markup: string): string | undefined {
  const head = markup.slice(0, 2000);
  for (const re of CARRIERS) {
    const m = re.exec(head);
    if (m && m[1]!.trim() !== "") return m[1]!.trim();
  }
  return undefined;
}
