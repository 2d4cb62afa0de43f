/**
 * Control characters made visible, for text that a person or a text-only client will read.
 *
 * File content, file names, a model's answer and its reasoning come from a hostile repository or
 * a hostile model as often as not. Written raw to a terminal, ESC/CSI/OSC sequences move the
 * cursor, erase lines, retitle the window or write the clipboard (OSC 52), and a carriage return
 * or a newline inside a file name forges whole lines such as a citation summary. Rendering every
 * control character as a visible escape keeps what is shown equal to what is there.
 *
 * Rules ({@link visibleText}):
 * - C0 controls U+0000–U+001F, DEL U+007F and C1 controls U+0080–U+009F (ECMA-48 §5: a terminal
 *   reads U+009B as CSI and U+009D as OSC) become `\xHH` (`ESC` → `\x1b`), except the
 *   named ones `\t`, `\n`, `\r`, which become those two-character spellings.
 * - With `multiline`, `\n` is kept (a line break of the text itself) and so is `\t`; a `\r`
 *   is always shown, since it returns the cursor and overwrites the line.
 * - Bidirectional embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069) become
 *   `\u{XXXX}`: they reorder what a reader sees (CVE-2021-42574, "Trojan Source").
 * - A backslash is kept as it is, so `\x1b` written literally in a file looks the same as an
 *   escaped ESC; what matters is that no control character reaches the terminal.
 *
 * JSON output never goes through this: `JSON.stringify` keeps every value exact (and escapes
 * C0 controls itself).
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;
const CONTROL_TEST = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

const NAMED: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function spell(ch: string, multiline: boolean): string {
  if (multiline && (ch === "\n" || ch === "\t")) return ch;
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const cp = ch.codePointAt(0) as number;
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, "0")}` : `\\u{${cp.toString(16)}}`;
}

/**
 * `text` with every control character shown as an escape (see the module rules).
 * @param opts.multiline keep `\n` and `\t` (answer text, snippets); otherwise (a file name, a
 *   one-line field) they are shown as `\n` and `\t`, so a name can never start a new line.
 */
export function visibleText(text: string, opts: { multiline?: boolean } = {}): string {
  if (!CONTROL_TEST.test(text)) return text;
  const multiline = opts.multiline === true;
  return text.replace(CONTROL, (ch) => spell(ch, multiline));
}

