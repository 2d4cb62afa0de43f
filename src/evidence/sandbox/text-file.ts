/**
 * Text rules shared by every tool, so that `search_code` (ripgrep) and `read_evidence` give the
 * same line numbers and the same snippets (ARCHITECTURE.md "Evidence").
 *
 * **Binary rule.** A file is binary when its first {@link BINARY_SNIFF_BYTES} bytes contain a NUL
 * byte, unless it starts with a UTF-16 byte-order mark (zoekt/ripgrep heuristic; ripgrep
 * transcodes BOM-marked UTF-16, and so do we).
 *
 * **Decoding.** A UTF-8 BOM is dropped (line 1 never starts with it). UTF-16LE/BE with a BOM is
 * transcoded. Everything else is decoded as UTF-8; invalid bytes become U+FFFD (ripgrep's JSON
 * `bytes` events are decoded the same way).
 *
 * **Line rule** (ripgrep's): a line ends at `\n`. One `\r` directly before that `\n` (or at the
 * very end of the file) is not part of the line. A lone `\r` elsewhere does not end a line, so a
 * CR-only (classic Mac) file is a single line 1, exactly as ripgrep numbers it. A final `\n` does
 * not start an extra empty line; an empty file has no lines.
 *
 * **Snippets.** A snippet is the exact lines joined with `\n`. The only rewrite: a lone `\r`
 * inside a line is shown as `\n` (snippets never contain `\r`), and the record gets the flag
 * {@link BARE_CR_FLAG}. Lines longer than a cap are cut and flagged `truncated`.
 */
import { TextDecoder } from "node:util";

/** How many leading bytes are checked for a NUL byte (8 KiB). */
export const BINARY_SNIFF_BYTES = 8192;

/** Flag on a record whose snippet had lone `\r` characters shown as `\n`. */
export const BARE_CR_FLAG = "bare_cr";

/** Text encodings recognised by their byte-order mark. */
export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be";

/** What the first bytes of a file say about it. */
export interface Sniff {
  encoding: TextEncoding;
  /** Length of the byte-order mark (0, 2 or 3 bytes). */
  bomBytes: number;
  binary: boolean;
}

/** Classifies a file from its first bytes (at least the first {@link BINARY_SNIFF_BYTES}, when it has them). */
export function sniff(head: Uint8Array): Sniff {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    return { encoding: "utf-8", bomBytes: 3, binary: hasNul(head, 3) };
  }
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", bomBytes: 2, binary: false };
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", bomBytes: 2, binary: false };
  return { encoding: "utf-8", bomBytes: 0, binary: hasNul(head, 0) };
}

function hasNul(buf: Uint8Array, from: number): boolean {
  const end = Math.min(buf.length, BINARY_SNIFF_BYTES);
  // The builtin `indexOf`, not a loop of our own: a fresh process runs such a loop interpreted,
  // about 0.3 ms per 8 KiB (perf, issue 17).
  return from < end && buf.subarray(from, end).indexOf(0) >= 0;
}

/**
 * Returns a streaming decoder for the encoding (lossy: invalid bytes → U+FFFD). The caller must
 * skip the BOM bytes itself; `ignoreBOM` keeps a U+FEFF that is really content.
 */
export function createDecoder(encoding: TextEncoding): TextDecoder {
  return new TextDecoder(encoding, { fatal: false, ignoreBOM: true });
}

/** Decodes a whole file's bytes per the module rules; returns the text without its BOM. */
export function decodeText(bytes: Uint8Array): { text: string; bom: boolean; encoding: TextEncoding } {
  const s = sniff(bytes.subarray(0, BINARY_SNIFF_BYTES));
  const text = createDecoder(s.encoding).decode(bytes.subarray(s.bomBytes));
  return { text, bom: s.bomBytes > 0, encoding: s.encoding };
}

/** Splits text into lines per the module's line rule (ripgrep-compatible). */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string;
    if (p.endsWith("\r")) parts[i] = p.slice(0, -1);
  }
  return parts;
}

/**
 * Strips the line terminator that ripgrep keeps on a reported line (`\n`, `\r\n`, or a final
 * `\r` at end of file), giving the line as {@link splitLines} would.
 */
export function stripLineEnding(line: string): string {
  if (line.endsWith("\r\n")) return line.slice(0, -2);
  if (line.endsWith("\n") || line.endsWith("\r")) return line.slice(0, -1);
  return line;
}

/**
 * Shows a line as snippet text: lone `\r` becomes `\n`. Returns whether that happened so the
 * record can carry {@link BARE_CR_FLAG}.
 */
export function snippetLine(line: string): { text: string; bareCr: boolean } {
  if (!line.includes("\r")) return { text: line, bareCr: false };
  return { text: line.replace(/\r\n?/g, "\n"), bareCr: true };
}

/**
 * Invisible or direction-changing characters that can hide instructions or code from a human
 * reader: Unicode tag characters U+E0000–E007F ("ASCII smuggling"), bidi embeddings, overrides
 * and isolates U+202A–202E and U+2066–2069 and marks U+200E/200F/061C (Trojan Source,
 * CVE-2021-42574), and zero-width characters U+200B–200D, U+2060–2064, U+FEFF.
 */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u061C\u{E0000}-\u{E007F}]/u;

/** True when the text contains an invisible/bidi character (flag `invisible_unicode`). */
export function hasInvisibleUnicode(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * Cuts a string to at most `max` UTF-16 code units without splitting a surrogate pair.
 * When `around` (a code-unit offset) is given and lies beyond the cut, the window is moved so
 * that it starts a little before `around` (used to keep a search hit visible in a minified line).
 * Returns the kept text, whether it was cut, and the offset where the kept text starts.
 */
export function cutText(text: string, max: number, around = 0): { text: string; cut: boolean; start: number } {
  if (text.length <= max) return { text, cut: false, start: 0 };
  let start = 0;
  if (around > max / 2) start = Math.min(around - Math.floor(max / 4), text.length - max);
  start = Math.max(0, start);
  let end = start + max;
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return { text: text.slice(start, end), cut: true, start };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
