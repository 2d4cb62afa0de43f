/**
 * The `#include` statements of a C or C++ text, read lexically (no parse): one pass over the text
 * that finds the preprocessing directives as the translation phases of the C standard define them
 * (C11 §5.1.1.2; C++ [lex.phases]) and keeps the includes. A read costs about as much as hashing
 * the text, so the callers that need only includes (`find_importers`, the include closure of
 * `find_references`) never parse.
 *
 * Rules (each with its source):
 * - Line splices (phase 2, C11 §5.1.1.2 p1.2): a backslash directly before a newline (`\` LF, or
 *   `\` CR LF) joins two lines into one before anything else is read; so a `//` comment ending in
 *   `\` goes on over the next line, and a directive split with `\` is one directive whose lines run
 *   from its `#` to the line its text ends on.
 * - Comments (phase 3, C11 §6.4.9): `/* … *\/` (not nested; an unclosed one runs to the end of the
 *   text) and `// …` to the end of the (spliced) line; each stands for one space, so a comment
 *   before `#` leaves `#` first on its line, and a comment inside a directive does not end it
 *   (a block comment spanning lines there carries the directive's last line along).
 * - String and character literals (C11 §6.4.4.4, §6.4.5), with encoding prefixes (`L`, `u`, `U`,
 *   `u8`) and backslash escapes, end at their closing quote or, unterminated, at the end of the
 *   line; comment openers and `#` inside them are text. C++ raw strings (`R"d( … )d"`, also after
 *   an encoding prefix; C++ [lex.string]) end only at `)d"`, lines included.
 * - Numbers (pp-numbers, C11 §6.4.8, with the digit separator `'` of C++14 [lex.ppnumber] and C23
 *   §6.4.8): a `'` between digits (`1'000'000`) opens no character literal.
 * - Directives (C11 §6.10 p2): a `#` (or its digraph `%:`, C11 §6.4.6 p3) that is the first token
 *   of a line starts one; its name is the identifier after it (spaces allowed between: `#  include`),
 *   its text runs to the end of the line. Inside a directive, literals are skipped as in code, and
 *   the header name of an `#include` (`<…>` or `"…"`, C11 §6.4.7) is read whole.
 * - Includes: `#include`, `#include_next` (GCC, https://gcc.gnu.org/onlinedocs/cpp/Wrapper-Headers.html)
 *   and `#import` (Objective-C, GCC https://gcc.gnu.org/onlinedocs/cpp/Alternatives-to-Wrapper-_0023ifndef.html),
 *   one {@link ImportRef} each, in text order: `specifier` is the header as written between the
 *   quotes or angle brackets (`uv.h`, `leveldb/db.h`), trimmed. A quoted include carries no flag, an angle one
 *   `system`. Any other text (`#include FOO_H`, a computed include, C11 §6.10.2 p4) is not
 *   followed: its first word is the specifier, with the flag `unresolved`; an include with no
 *   text is left out.
 * - Conditional: an include inside `#if`/`#ifdef`/`#ifndef` … `#endif` (C11 §6.10.1; `#elif` and
 *   `#else` stay inside the same group) carries `conditional`, except inside the file's include
 *   guard (https://gcc.gnu.org/onlinedocs/cpp/Once-Only-Headers.html): a first directive `#ifndef X`
 *   / `#if !defined(X)` / `#if !defined X`, directly followed by `#define X`, whose `#endif` is the
 *   last directive of the text. An `#endif` without an opener is ignored.
 */
import type { ImportRef } from "./language.js";

/** Flag of an include written with angle brackets. */
export const SYSTEM_INCLUDE_FLAG = "system";
/** Flag of an include inside a preprocessor conditional (other than the include guard). */
const CONDITIONAL_INCLUDE_FLAG = "conditional";
/** Flag of an include whose header is not written out (`#include FOO_H`). */
export const UNRESOLVED_INCLUDE_FLAG = "unresolved";

/** One preprocessing directive. */
interface Directive {
  /** 1-based line of its `#`. */
  line: number;
  /** 1-based line its text ends on (after splices and comments). */
  end: number;
  /** `include`, `if`, `define` … */
  name: string;
  /** Its text after the name, comments as spaces, trimmed. */
  arg: string;
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const VT = 11;
const FF = 12;
const HASH = 35;
const PERCENT = 37;
const COLON = 58;
const SLASH = 47;
const STAR = 42;
const BACKSLASH = 92;
const DQUOTE = 34;
const SQUOTE = 39;
const LT = 60;
const DOT = 46;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** ASCII characters that may continue an identifier or a pp-number: letters, digits, `_`, `$` (1 each). */
const IDENT_ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || isDigit(c) || c === 95 || c === 36) IDENT_ASCII[c] = 1;

/** A character that may continue an identifier or a pp-number (`$` and non-ASCII letters as GCC takes them). */
function isIdentPart(c: number): boolean {
  return c > 127 || IDENT_ASCII[c] === 1;
}

/**
 * A stretch of plain code that starts with no space, read by {@link directives} in one step:
 * characters other than line ends, `/`, quotes, `#`, `%`, `.`, digits and identifier characters,
 * and whole identifiers (the characters of {@link isIdentPart}) not followed by a quote, which may
 * open a raw string or a prefixed literal. What it stops before is read by the loop there. A
 * fresh process runs that loop interpreted, character by character; the regular expression
 * runs as native code (perf, issue 17).
 */
const PLAIN = /(?:[^\n/"'#%.0-9A-Za-z_$\u0080-\uffff]|[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*(?!["\w$\u0080-\uffff]))+/y;

/** The text with its line splices removed, and where each removed newline was. */
interface Spliced {
  text: string;
  /** Offsets in `text` at which a splice was removed, ascending. */
  splices: number[];
}

/** Phase 2: removes each backslash-newline (module comment, first rule). */
function splice(source: string): Spliced {
  if (!source.includes("\\\n") && !source.includes("\\\r\n")) return { text: source, splices: [] };
  const splices: number[] = [];
  let text = "";
  let from = 0;
  for (let i = source.indexOf("\\", 0); i >= 0; i = source.indexOf("\\", i + 1)) {
    const next = source.charCodeAt(i + 1);
    const width = next === LF ? 2 : next === CR && source.charCodeAt(i + 2) === LF ? 3 : 0;
    if (width === 0) continue;
    text += source.slice(from, i);
    splices.push(text.length);
    from = i + width;
    i += width - 1;
  }
  return { text: text + source.slice(from), splices };
}

/** 1-based physical lines of offsets of a spliced text, asked in ascending order. */
class LineCounter {
  #at = 0;
  #line = 1;
  #splice = 0;
  constructor(private readonly s: Spliced) {}

  /** The physical line of offset `p` (not below any offset asked before). */
  lineOf(p: number): number {
    const { text, splices } = this.s;
    for (let k = text.indexOf("\n", this.#at); k >= 0 && k < p; k = text.indexOf("\n", k + 1)) this.#line++;
    this.#at = Math.max(this.#at, p);
    // A splice at offset q joined the line ending there with the next: offsets from q on lie one line lower.
    while (this.#splice < splices.length && (splices[this.#splice] as number) <= p) {
      this.#splice++;
      this.#line++;
    }
    return this.#line;
  }
}

/** The end of a quoted literal opened at `i` (the quote): after its closing quote, or at the end of its line. */
function literalEnd(text: string, i: number, quote: number): number {
  const n = text.length;
  let k = i + 1;
  while (k < n) {
    const c = text.charCodeAt(k);
    if (c === quote) return k + 1;
    if (c === LF) return k;
    k += c === BACKSLASH && text.charCodeAt(k + 1) !== LF ? 2 : 1;
  }
  return n;
}

/** The end of a raw string whose `"` is at `i` (`R"d( … )d"`); `undefined` when no valid delimiter follows. */
function rawStringEnd(text: string, i: number): number | undefined {
  const open = text.indexOf("(", i + 1);
  // A delimiter is at most 16 characters, none of them space, `(`, `)`, `\` (C++ [lex.string] p2).
  if (open < 0 || open - i - 1 > 16 || /[\s()\\"]/.test(text.slice(i + 1, open))) return undefined;
  const close = text.indexOf(`)${text.slice(i + 1, open)}"`, open + 1);
  return close < 0 ? text.length : close + open - i + 1;
}

/** Whether the identifier `text[start, end)` is a raw-string prefix (`R`, `LR`, `uR`, `UR`, `u8R`). */
function isRawPrefix(text: string, start: number, end: number): boolean {
  const len = end - start;
  if (len < 1 || len > 3 || text.charCodeAt(end - 1) !== 82) return false;
  const head = text.slice(start, end - 1);
  return head === "" || head === "L" || head === "u" || head === "U" || head === "u8";
}

/** The end of the pp-number starting at `i` (digits, letters, `.`, `e+`-style signs, `'` digit separators). */
function numberEnd(text: string, i: number): number {
  const n = text.length;
  let k = i + 1;
  while (k < n) {
    const c = text.charCodeAt(k);
    if (isIdentPart(c) || c === DOT) k++;
    else if ((c === 43 || c === 45) && /[eEpP]/.test(text[k - 1] as string)) k++;
    else if (c === SQUOTE && k + 1 < n && isIdentPart(text.charCodeAt(k + 1))) k += 2;
    else break;
  }
  return k;
}

/** The end of the block comment opened at `i` (`/*`): after its `*\/`, else the end of the text. */
function blockCommentEnd(text: string, i: number): number {
  const close = text.indexOf("*/", i + 2);
  return close < 0 ? text.length : close + 2;
}

/** Reads the directive whose `#` (or `%:`) ends just before `i`; returns it and where its line ends. */
function readDirective(text: string, i: number): { name: string; arg: string; stop: number } {
  const n = text.length;
  let out = "";
  let k = i;
  let header = false;
  let name: string | undefined;
  while (k < n) {
    const c = text.charCodeAt(k);
    if (c === LF) break;
    if (c === SLASH && text.charCodeAt(k + 1) === STAR) {
      k = blockCommentEnd(text, k);
      out += " ";
      continue;
    }
    if (c === SLASH && text.charCodeAt(k + 1) === SLASH) {
      while (k < n && text.charCodeAt(k) !== LF) k++;
      break;
    }
    if (name === undefined && isIdentPart(c) && !isDigit(c)) {
      let e = k + 1;
      while (e < n && isIdentPart(text.charCodeAt(e))) e++;
      name = text.slice(k, e);
      header = name === "include" || name === "include_next" || name === "import";
      out += name;
      k = e;
      continue;
    }
    // Text before any name (`# 1 "a.c"`, a null directive): no directive that matters here; read on to the line's end.
    if (name === undefined && c !== SPACE && c !== TAB && c !== VT && c !== FF && c !== CR) name = "";
    if (header && (c === DQUOTE || c === LT) && out.trim() === name) {
      // The header name, read whole (C11 §6.4.7).
      const close = text.indexOf(c === LT ? ">" : '"', k + 1);
      const eol = text.indexOf("\n", k + 1);
      const end = close < 0 || (eol >= 0 && eol < close) ? (eol < 0 ? n : eol) : close + 1;
      out += text.slice(k, end);
      k = end;
      header = false;
      continue;
    }
    if (c === DQUOTE || c === SQUOTE) {
      const end = literalEnd(text, k, c);
      out += text.slice(k, end);
      k = end;
      continue;
    }
    out += text[k];
    k++;
  }
  if (name === undefined || name === "") return { name: "", arg: "", stop: k };
  return { name, arg: out.slice(out.indexOf(name) + name.length).trim(), stop: k };
}

/** The preprocessing directives of `source`, in order (rules in the module comment). */
function directives(source: string): Directive[] {
  const spliced = splice(source);
  const text = spliced.text;
  const lines = new LineCounter(spliced);
  const out: Directive[] = [];
  const n = text.length;
  let atLineStart = true;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === LF) {
      atLineStart = true;
      i++;
      continue;
    }
    if (c === SPACE || c === TAB || c === CR || c === FF || c === VT) {
      i++;
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      i = blockCommentEnd(text, i);
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      while (i < n && text.charCodeAt(i) !== LF) i++;
      continue;
    }
    if (atLineStart && (c === HASH || (c === PERCENT && text.charCodeAt(i + 1) === COLON))) {
      const start = lines.lineOf(i);
      const d = readDirective(text, i + (c === HASH ? 1 : 2));
      atLineStart = false;
      if (d.name !== "") out.push({ line: start, end: lines.lineOf(d.stop), name: d.name, arg: d.arg });
      i = d.stop;
      continue;
    }
    atLineStart = false;
    PLAIN.lastIndex = i;
    if (PLAIN.test(text)) {
      i = PLAIN.lastIndex;
      continue;
    }
    if (c === DQUOTE || c === SQUOTE) {
      i = literalEnd(text, i, c);
      continue;
    }
    if (isDigit(c) || (c === DOT && isDigit(text.charCodeAt(i + 1)))) {
      i = numberEnd(text, i);
      continue;
    }
    if (isIdentPart(c)) {
      let e = i + 1;
      while (e < n && isIdentPart(text.charCodeAt(e))) e++;
      if (text.charCodeAt(e) === DQUOTE && isRawPrefix(text, i, e)) {
        const end = rawStringEnd(text, e);
        if (end !== undefined) {
          i = end;
          continue;
        }
      }
      i = e;
      continue;
    }
    i++;
  }
  return out;
}

const OPENERS = new Set(["if", "ifdef", "ifndef"]);

/** The index of the `#endif` closing the conditional opened at `start`, or -1. */
function closingEndif(list: readonly Directive[], start: number): number {
  let depth = 0;
  for (let k = start; k < list.length; k++) {
    const name = (list[k] as Directive).name;
    if (OPENERS.has(name)) depth++;
    else if (name === "endif" && --depth === 0) return k;
  }
  return -1;
}

/** The macro an include guard tests (`#ifndef X`, `#if !defined(X)`, `#if !defined X`), else undefined. */
function guardMacro(d: Directive): string | undefined {
  if (d.name === "ifndef") return /^([A-Za-z_]\w*)\s*$/.exec(d.arg)?.[1];
  if (d.name === "if") return /^!\s*defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))\s*$/.exec(d.arg)?.slice(1).find((x) => x !== undefined);
  return undefined;
}

/**
 * The `#include` statements of a C or C++ source (rules in the module comment), without their
 * `lines` (the caller adds them from the text it has).
 */
export function cIncludes(source: string): ImportRef[] {
  const list = directives(source);
  // The include guard's conditional does not make the file's includes conditional.
  let guardEnd = -1;
  const first = list[0];
  const macro = first === undefined ? undefined : guardMacro(first);
  if (macro !== undefined && list[1]?.name === "define" && list[1].arg.split(/[\s(]/)[0] === macro) {
    const close = closingEndif(list, 0);
    if (close === list.length - 1) guardEnd = close;
  }
  const refs: ImportRef[] = [];
  let depth = 0;
  list.forEach((d, k) => {
    if (OPENERS.has(d.name)) depth++;
    else if (d.name === "endif") depth = Math.max(0, depth - 1);
    if (d.name !== "include" && d.name !== "include_next" && d.name !== "import") return;
    const conditional = depth > (guardEnd >= 0 && k < guardEnd ? 1 : 0);
    const flags: string[] = [];
    const quoted = /^"([^"\n]+)"/.exec(d.arg);
    const angled = quoted === null ? /^<([^>\n]+)>/.exec(d.arg) : null;
    let specifier: string;
    if (quoted !== null) specifier = quoted[1] as string;
    else if (angled !== null) {
      specifier = angled[1] as string;
      flags.push(SYSTEM_INCLUDE_FLAG);
    } else {
      specifier = d.arg.split(/\s+/)[0] ?? "";
      if (specifier === "") return;
      flags.push(UNRESOLVED_INCLUDE_FLAG);
    }
    if (conditional) flags.push(CONDITIONAL_INCLUDE_FLAG);
    const ref: ImportRef = { specifier: specifier.trim(), start_line: d.line, end_line: d.end };
    if (flags.length > 0) ref.flags = flags;
    refs.push(ref);
  });
  return refs;
}
