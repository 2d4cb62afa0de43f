/**
 * SentencePiece word markers left in the text: a server whose detokenizer is misconfigured
 * returns the pieces of a SentencePiece vocabulary as they are, each space written as `▁`
 * (U+2581, the piece's word-start marker; https://github.com/google/sentencepiece, "Whitespace
 * is treated as a basic symbol"): `▁[TOOL_CALLS]▁[{"name":▁"x"…`, `<tool_call>▁{"name"…`,
 * `{▁▁"name":…` (theroyallab/tabbyAPI issue #314). The parsers read the text with these markers
 * as the spaces they stand for.
 *
 * A `▁` counts as a space only where it stands between tokens: outside quoted strings (a string
 * opens at a `"` or `'` after `{`, `[`, `,`, `:`, `(` or `=`, and ends at its closing quote or at
 * the end of the line) and outside special tokens (`<｜tool▁sep｜>` keeps its `▁`). Inside a
 * string a `▁` is what the model meant, except when the text holds no space at all and `▁`
 * stands between tokens elsewhere: then every space came out as `▁`, strings included.
 * One UTF-16 unit replaces one, so offsets into the decoded text are offsets into the text.
 */

const MARKER = "▁";
/** A special token with ASCII or full-width bars (`<|tool▁calls▁begin|>`, `<｜tool▁sep｜>`). */
const SPECIAL_TOKEN = /<[|｜][^<>|｜\s]{1,64}[|｜]>/g;
/** Characters after which a quote opens a string (JSON, Python literals, keyword arguments). */
const OPENS_STRING = new Set(["{", "[", ",", ":", "(", "="]);

/**
 * The text with its SentencePiece word markers read as spaces (see the module comment), the
 * same length; `undefined` when no `▁` stands between tokens.
 */
export function decodeWordMarkers(text: string): string | undefined {
  if (!text.includes(MARKER)) return undefined;
  const tokenEnd = new Map<number, number>();
  for (const m of text.matchAll(SPECIAL_TOKEN)) tokenEnd.set(m.index, m.index + m[0].length);
  const between: number[] = [];
  const inStrings: number[] = [];
  let quote: string | undefined;
  let last: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== undefined) {
      if (ch === "\\") i++;
      else if (ch === quote || ch === "\n") {
        quote = undefined;
        last = ch;
      } else if (ch === MARKER) inStrings.push(i);
      continue;
    }
    const end = tokenEnd.get(i);
    if (end !== undefined) {
      i = end - 1;
      last = ">";
    } else if (ch === MARKER) between.push(i);
    else if ((ch === '"' || ch === "'") && last !== undefined && OPENS_STRING.has(last)) quote = ch;
    else if (!/\s/.test(ch)) last = ch;
  }
  if (between.length === 0) return undefined;
  const at = text.includes(" ") ? between : [...between, ...inStrings];
  const chars = text.split("");
  for (const i of at) chars[i] = " ";
  return chars.join("");
}

/**
 * The first index at or after `i` that is neither whitespace nor `▁`: where the next token starts
 * when the text may be written in pieces (the stream filter's look at a `{` or `[`).
 */
export function skipSpaceOrMarkers(text: string, i: number): number {
  while (i < text.length && (text[i] === MARKER || /\s/.test(text[i]!))) i++;
  return i;
}
