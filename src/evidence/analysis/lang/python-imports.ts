/**
 * Python import statements read from the text, without a parse (`LanguageSpec.lexicalImports` of
 * `python.ts`, used by `find_importers` through `analysis/lexical-imports.ts`). The answer is the
 * list of {@link ImportRef}s the tree-sitter extractor of `python.ts` gives for the same text (same
 * refs, fields, order, lines and `type_checking` flags); where the text holds something this reader
 * does not follow, it answers `undefined` and the file is parsed instead.
 *
 * **Tokens** (Python Language Reference, https://docs.python.org/3/reference/lexical_analysis.html):
 * - §2.1.1–2.1.2 logical and physical lines: a logical line ends at a newline outside brackets;
 *   §2.1.3 a comment runs from `#` to the end of the line; §2.1.5 a backslash before the newline joins
 *   two lines (a backslash elsewhere outside a string is an error: `undefined`); §2.1.6 newlines
 *   inside `()`, `[]`, `{}` do not end the logical line (an unbalanced or mismatched bracket: `undefined`).
 * - §2.1.8 indentation of a logical line: its leading spaces (1 each) and tabs, counted as the
 *   tree-sitter-python 0.25 scanner counts them (a tab is 8, a form feed or carriage return resets
 *   to 0: node_modules/tree-sitter-python/src/scanner.c), so blocks end where the parse ends them.
 * - §2.4.1 string and bytes literals, any prefix of `r u b f t` letters in either case (as the
 *   grammar's scanner accepts them), single or triple quotes, also Python 2 backquotes; backslash
 *   escapes (in a raw string a backslash still keeps the next quote or backslash from ending it);
 *   a newline in a single-quoted string without a backslash is an error (`undefined`).
 *   §2.4.3 f-strings (and `t` template strings): `{{`/`}}` are text; `{` opens a replacement field
 *   read as an expression (nested brackets and strings, any quotes as in Python 3.12, PEP 701) up to
 *   its `}`, with a `:` format spec whose text may hold nested fields; `\N{…}` is an escape.
 * - identifiers (§2.3): Unicode `ID_Start`/`ID_Continue`; any other character outside strings and
 *   comments that is not an operator or delimiter (§2.5–2.6: `$`, `?`, stray non-ASCII) is an error
 *   (`undefined`).
 *
 * **Statements** (§7 simple statements, §8 compound statements): a statement starts a logical line,
 * follows a `;`, or follows the `:` that ends a compound statement's header on the same line
 * (`if x: import y`, `try: import a`); `:` inside brackets (slices, dicts, lambdas in arguments)
 * starts nothing. §7.11 the import statement:
 * - `import a.b as c, d` → one ref per module, `specifier` the dotted name as written, `alias`;
 * - `from X import y, z as w` (also parenthesised, with a trailing comma) → one ref per name,
 *   `specifier` X with its leading dots (relative level, PEP 328) and no whitespace, `names: [y]`,
 *   `alias`; `from X import *` → `names: ["*"]`; `from __future__ import x` → `__future__`;
 * - `import`/`from` in a string, a comment, `yield from`, `raise … from …` is no import; an
 *   `import` keyword anywhere else than these statements is an error (`undefined`).
 * - statements in the body of `if TYPE_CHECKING:` or `if <primary>.TYPE_CHECKING:` (not `elif`, not
 *   `else`, not a parenthesised or compound condition; https://docs.python.org/3/library/typing.html#typing.TYPE_CHECKING),
 *   at any depth below it (functions, classes, other blocks), are flagged `type_checking`, as the
 *   extractor flags them.
 * Each ref spans its whole statement (first to last token, `from ..m import (a,\n b)` two lines).
 *
 * **Dynamic imports** (`importlib.import_module`, https://docs.python.org/3/library/importlib.html#importlib.import_module;
 * `__import__`, https://docs.python.org/3/library/functions.html#import__): read from the tokens as
 * the extractor reads the calls from the tree (see {@link dynamicImports}); a call inside an f-string
 * field, in a compound statement's header or a decorator, or with a `lambda` argument answers `undefined`.
 *
 * **One pass, two uses.** Every character is looked at once to find strings, comments, brackets and
 * line ends (runs of plain ASCII characters are skipped in one regular-expression step), and
 * tokens are made only for the logical lines that hold `import`, `from` or `TYPE_CHECKING` (in any
 * place: a line that holds them only in a string is read for nothing). From those tokens come both
 * the imports and the import screen's scan of the text (`import-scan.ts`, for `find_importers`'
 * screen: `pythonImports`' `onScan`), equal to what that scanner gives; where the scanner reads the
 * text otherwise (forms listed at `Reader.scanDiffers`, f-strings with fields inside its statements,
 * text this reader does not follow) the scan is the scanner's own.
 *
 * Not followed: the extractor stops at block depth 200 (`python.ts` MAX_DEPTH) and refuses trees
 * nested deeper than 512 levels or too slow to parse (`tree-sitter.ts`), where this reader still
 * reads the imports; tree-sitter's error recovery of a broken file may keep or drop other imports.
 */
import { isScanStringPrefix, pushScanToken, pythonScanStatement, scanImports, type ImportScan, type ScannedImport } from "../import-scan.js";
import type { ImportRef } from "./language.js";
import { isDottedName, resolveRelativeName } from "./python-layout.js";

interface Token {
  kind: "name" | "op" | "string" | "number";
  text: string;
  start: number;
  end: number;
  /** Bracket depth: inside `(` … `)` one more than the brackets themselves. */
  depth: number;
}

interface LogicalLine {
  indent: number;
  tokens: Token[];
}

/** Reserved words (§2.3.1): never a module or alias name (the grammar takes `print`, `exec` and the soft keywords as names there). */
const KEYWORDS = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else",
  "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
  "return", "try", "while", "with", "yield",
]);

const STRING_PREFIX = /^[rRuUbBfFtT]+$/;
const ID_START = /[\p{ID_Start}_]/u;
const ID_REST = /[\p{ID_Continue}]*/uy;
const OPERATORS = "+-*/%@&|^~<>=!,;:.";
const DYNAMIC_NAME = /import_module|__import__/;
/** First words of a compound statement's header (§8) or a decorator: a call there is left to the parse. */
const HEADER_WORDS = new Set(["if", "elif", "else", "while", "for", "with", "try", "except", "finally", "def", "class", "match", "case", "async", "@"]);

/** Runs of characters that start no string, bracket, comment or line end and are ASCII: names, numbers, operators, blanks. */
const PLAIN_RUN = /[A-Za-z0-9_ \t\f\r+\-*/%@&|^~<>=!,;:.]+/y;
/** Runs of characters inside a string that mean nothing to the reader: no backslash, quote, brace or line end. */
const STRING_RUN = /[^\\'"`{}\n]+/y;
/** Every import statement, dynamic import, `TYPE_CHECKING` header and `from` holds one of these: only such logical lines are read token by token. */
const LINE_WORDS = /import|from|TYPE_CHECKING/g;
/** Characters of a format spec that the import screen's scanner reads as code (a string, a comment, a bracket). */
const SPEC_CODE = "'\"`#()[]";
/** Characters of a `\N{…}` escape's name that the screen's scanner reads as code no differently from the name. */
const PLAIN_ESCAPE_NAME = /^[A-Za-z0-9 -]*$/;

/** Thrown inside the reader for text it does not follow. */
class NotRead extends Error {}

function isQuote(c: string | undefined): boolean {
  return c === "'" || c === '"' || c === "`";
}

function isAsciiNameChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** A character the import screen's scanner takes into a word (`import-scan.ts`: ASCII letters, digits, `_`, `$`, anything above ASCII). */
function isScanWordChar(code: number): boolean {
  return isAsciiNameChar(code) || code === 36 || code > 127;
}

/**
 * The reader of one text. Lines are read in two speeds: every character is looked at to find the
 * strings, comments, brackets and line ends (runs of plain ASCII characters in one regular
 * expression step), but tokens are made only for the logical lines that hold one of
 * {@link LINE_WORDS} (`lineTokens`), the only lines the statements and calls are read from.
 */
class Reader {
  /** A replacement field of an f-string names `import_module` or `__import__` (a call the parse would read there). */
  dynamicInField = false;
  /**
   * The text holds a form the import screen's own scanner (`import-scan.ts` `scanImports`) reads
   * otherwise than this reader: a backquoted string, a string prefix it does not take (`ur`, three
   * letters), an f-string's `\{`, a format spec with quotes, `#` or brackets, a `\N{…}` name with
   * other characters, a prefixed string in a field right after a digit. The screen's scan is then
   * that scanner's own ({@link readPythonImports}).
   */
  scanDiffers = false;

  constructor(readonly src: string) {}

  /** End of the identifier starting at `i` (an ASCII letter, `_` or an `ID_Start` character). */
  nameEnd(i: number): number {
    const src = this.src;
    let j = i + 1;
    for (;;) {
      while (j < src.length && isAsciiNameChar(src.charCodeAt(j))) j++;
      if (j >= src.length || src.charCodeAt(j) < 128) return j;
      ID_REST.lastIndex = j;
      ID_REST.exec(src);
      if (ID_REST.lastIndex === j) return j;
      j = ID_REST.lastIndex;
    }
  }

  isNameStart(i: number): boolean {
    const code = this.src.charCodeAt(i);
    if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
    return ID_START.test(String.fromCodePoint(this.src.codePointAt(i) as number));
  }

  /** Skips the string literal whose prefix (possibly empty) is `prefix` and whose quote is at `i`; the index after it. */
  string(i: number, prefix: string): number {
    const src = this.src;
    const n = src.length;
    const raw = /[rR]/.test(prefix);
    const format = /[fFtT]/.test(prefix);
    const bytes = /[bB]/.test(prefix);
    if (prefix !== "" && !isScanStringPrefix(prefix)) this.scanDiffers = true;
    const q = src[i] as string;
    if (q === "`") this.scanDiffers = true;
    const triple = q !== "`" && src[i + 1] === q && src[i + 2] === q;
    i += triple ? 3 : 1;
    while (i < n) {
      STRING_RUN.lastIndex = i;
      if (STRING_RUN.test(src)) {
        i = STRING_RUN.lastIndex;
        if (i >= n) break;
      }
      const c = src[i];
      if (c === "\\") {
        if (raw) {
          i++;
          if (format && src[i] === "{") this.scanDiffers = true;
          if (src[i] === q || src[i] === "\\") i++;
          continue;
        }
        const next = src[i + 1];
        if (format && (next === "{" || next === "}")) {
          if (next === "{") this.scanDiffers = true;
          i++;
          continue;
        }
        if (!bytes && next === "N" && src[i + 2] === "{") {
          const close = src.indexOf("}", i + 3);
          if (close < 0) throw new NotRead();
          const name = src.slice(i + 3, close);
          if (name.includes("\n")) throw new NotRead();
          if (format ? !PLAIN_ESCAPE_NAME.test(name) : name.includes(q)) this.scanDiffers = true;
          i = close + 1;
          continue;
        }
        i += 2;
        continue;
      }
      if (c === q) {
        if (!triple) return i + 1;
        if (src[i + 1] === q && src[i + 2] === q) return i + 3;
        i++;
        continue;
      }
      if (c === "\n" && !triple) throw new NotRead();
      if (format && c === "{") {
        if (src[i + 1] === "{") i += 2;
        else i = this.field(i + 1);
        continue;
      }
      if (format && c === "}") {
        if (src[i + 1] !== "}") throw new NotRead();
        i += 2;
        continue;
      }
      i++;
    }
    throw new NotRead();
  }

  /** Skips an f-string replacement field from just after its `{`; the index after its `}`. */
  field(i: number): number {
    const end = this.fieldEnd(i);
    if (DYNAMIC_NAME.test(this.src.slice(i, end))) this.dynamicInField = true;
    return end;
  }

  fieldEnd(i: number): number {
    const src = this.src;
    let depth = 0;
    while (i < src.length) {
      const c = src[i] as string;
      if (isQuote(c)) {
        i = this.string(i, "");
        continue;
      }
      if (this.isNameStart(i)) {
        const end = this.nameEnd(i);
        const word = src.slice(i, end);
        if (isQuote(src[end]) && STRING_PREFIX.test(word)) {
          if (i > 0 && isScanWordChar(src.charCodeAt(i - 1))) this.scanDiffers = true;
          i = this.string(end, word);
        } else i = end;
        continue;
      }
      if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]") {
        if (--depth < 0) throw new NotRead();
      } else if (c === "}") {
        if (depth === 0) return i + 1;
        depth--;
      } else if (c === ":" && depth === 0) {
        return this.formatSpec(i + 1);
      } else if (c === "#") {
        const nl = src.indexOf("\n", i);
        i = nl < 0 ? src.length : nl;
        continue;
      }
      i++;
    }
    throw new NotRead();
  }

  /** Skips a format spec from just after its `:`; the index after the field's `}`. */
  formatSpec(i: number): number {
    const src = this.src;
    while (i < src.length) {
      const c = src[i] as string;
      if (c === "{") i = this.field(i + 1);
      else if (c === "}") return i + 1;
      else if (c === "\n") throw new NotRead();
      else {
        if (SPEC_CODE.includes(c)) this.scanDiffers = true;
        i++;
      }
    }
    throw new NotRead();
  }

  /**
   * The logical lines of the text (§2.1.1–2.1.8), each with its indentation and, when it holds one
   * of {@link LINE_WORDS} (possibly in a string or comment), its tokens; other lines have none.
   * @throws NotRead at text the reader does not follow, anywhere in the text.
   */
  logicalLines(): LogicalLine[] {
    const src = this.src;
    const n = src.length;
    const lines: LogicalLine[] = [];
    const words: number[] = [];
    LINE_WORDS.lastIndex = 0;
    for (let m = LINE_WORDS.exec(src); m !== null; m = LINE_WORDS.exec(src)) words.push(m.index);
    let w = 0;
    const brackets: string[] = [];
    let indent = 0;
    let atLineStart = true;
    /** Offset of the current logical line's first token (-1: none yet), and that line's indentation. */
    let first = -1;
    let lineIndent = 0;
    /** The last run of plain characters: where it starts and ends. */
    let runStart = -1;
    let runEnd = -1;
    const endLine = (end: number) => {
      while (w < words.length && (words[w] as number) < first) w++;
      const read = w < words.length && (words[w] as number) < end;
      lines.push({ indent: lineIndent, tokens: read ? this.lineTokens(first, end) : [] });
      first = -1;
    };
    let i = 0;
    while (i < n) {
      if (atLineStart) {
        indent = 0;
        for (; i < n; i++) {
          const c = src.charCodeAt(i);
          if (c === 32) indent++;
          else if (c === 9) indent += 8;
          else if (c === 12 || c === 13) indent = 0;
          else break;
        }
        atLineStart = false;
        continue;
      }
      const code = src.charCodeAt(i);
      if (code === 10) {
        if (brackets.length === 0 && first >= 0) endLine(i);
        atLineStart = true;
        i++;
        continue;
      }
      if (code === 32 || code === 9 || code === 12 || code === 13) {
        i++;
        continue;
      }
      if (code === 35) {
        const nl = src.indexOf("\n", i);
        i = nl < 0 ? n : nl;
        continue;
      }
      if (code === 92) {
        if (src.charCodeAt(i + 1) === 10) i += 2;
        else if (i + 1 === n) i++;
        else throw new NotRead();
        continue;
      }
      if (first < 0) {
        first = i;
        lineIndent = indent;
      }
      PLAIN_RUN.lastIndex = i;
      if (PLAIN_RUN.test(src)) {
        runStart = i;
        i = runEnd = PLAIN_RUN.lastIndex;
        continue;
      }
      const c = src[i] as string;
      if (isQuote(c)) {
        i = this.string(i, runEnd === i ? this.prefixBefore(runStart, i) : "");
        continue;
      }
      if (code >= 128) {
        // A name whose ASCII part ended the last run goes on with this character if it continues names (ID_Continue).
        let start = i;
        if (runEnd === i && isAsciiNameChar(src.charCodeAt(i - 1))) {
          const last = this.lastToken(runStart, i);
          if (last.kind === "name") start = last.start;
        }
        if (start === i && !this.isNameStart(i)) throw new NotRead();
        const end = this.nameEnd(start);
        if (end <= i) throw new NotRead();
        i = end;
        continue;
      }
      if (c === "(" || c === "[" || c === "{") {
        brackets.push(c);
        i++;
        continue;
      }
      if (c === ")" || c === "]" || c === "}") {
        const open = brackets.pop();
        if (open === undefined || "([{".indexOf(open) !== ")]}".indexOf(c)) throw new NotRead();
        i++;
        continue;
      }
      throw new NotRead();
    }
    if (brackets.length > 0) throw new NotRead();
    if (first >= 0) endLine(n);
    return lines;
  }

  /**
   * The string prefix written right before the quote at `quote`, where a run of plain characters
   * from `runStart` ends: the name token that ends there when it is made of prefix letters, else "".
   */
  prefixBefore(runStart: number, quote: number): string {
    const src = this.src;
    let p = quote;
    while (p > runStart && isAsciiNameChar(src.charCodeAt(p - 1))) p--;
    if (p === quote) return "";
    const word = src.slice(p, quote);
    if (!STRING_PREFIX.test(word)) return "";
    const before = src[p - 1];
    // After `.`, `+` or `-` the letters may end a number (`1.f`, `1e-f`): tokenize the run.
    if (p > runStart && (before === "." || before === "+" || before === "-")) {
      const last = this.lastToken(runStart, quote);
      if (last.kind === "name" && last.start === p) return word;
      // The screen's scanner ends the number at the dot or sign and reads the letters as a prefix.
      if (isScanStringPrefix(word)) this.scanDiffers = true;
      return "";
    }
    return word;
  }

  /** The last token of the plain run `[runStart, end)`, tokenized as {@link lineTokens} does: its start and kind. */
  lastToken(runStart: number, end: number): { start: number; kind: Token["kind"] | "none" } {
    const src = this.src;
    let last: { start: number; kind: Token["kind"] | "none" } = { start: -1, kind: "none" };
    let j = runStart;
    while (j < end) {
      const code = src.charCodeAt(j);
      if (code === 32 || code === 9 || code === 12 || code === 13) j++;
      else if (isDigit(code) || (code === 46 && isDigit(src.charCodeAt(j + 1)))) {
        last = { start: j, kind: "number" };
        j = this.numberEnd(j);
      } else if (isAsciiNameChar(code)) {
        last = { start: j, kind: "name" };
        j = this.nameEnd(j);
      } else {
        last = { start: j, kind: "op" };
        j += code === 58 && src[j + 1] === "=" ? 2 : 1;
      }
    }
    return last;
  }

  /** End of the number starting at `i` (a digit, or `.` and a digit): name characters, dots, a sign after an exponent's `e`. */
  numberEnd(i: number): number {
    const src = this.src;
    const n = src.length;
    let j = i + 1;
    while (j < n && (isAsciiNameChar(src.charCodeAt(j)) || src[j] === "." || ((src[j] === "+" || src[j] === "-") && /[eE]/.test(src[j - 1] as string) && !/^0[xX]/.test(src.slice(i, j))))) j++;
    return j;
  }

  /** The tokens of the logical line whose first token starts at `start` and which ends at `end` (its newline, or the text's end). */
  lineTokens(start: number, end: number): Token[] {
    const src = this.src;
    const tokens: Token[] = [];
    const brackets: string[] = [];
    const push = (kind: Token["kind"], from: number, to: number) => {
      tokens.push({ kind, text: kind === "string" ? "" : src.slice(from, to), start: from, end: to, depth: brackets.length });
    };
    let i = start;
    while (i < end) {
      const c = src[i] as string;
      const code = src.charCodeAt(i);
      if (c === "\n" || c === " " || c === "\t" || c === "\f" || c === "\r") {
        i++;
      } else if (c === "#") {
        const nl = src.indexOf("\n", i);
        i = nl < 0 ? end : nl;
      } else if (c === "\\") {
        if (src[i + 1] === "\n") i += 2;
        else if (i + 1 === src.length) i++;
        else throw new NotRead();
      } else if (isQuote(c)) {
        const close = this.string(i, "");
        push("string", i, close);
        i = close;
      } else if (this.isNameStart(i)) {
        const nameEnd = this.nameEnd(i);
        if (isQuote(src[nameEnd]) && STRING_PREFIX.test(src.slice(i, nameEnd))) {
          const close = this.string(nameEnd, src.slice(i, nameEnd));
          push("string", i, close);
          i = close;
        } else {
          push("name", i, nameEnd);
          i = nameEnd;
        }
      } else if (isDigit(code) || (c === "." && isDigit(src.charCodeAt(i + 1)))) {
        const numberEnd = this.numberEnd(i);
        push("number", i, numberEnd);
        i = numberEnd;
      } else if (c === "(" || c === "[" || c === "{") {
        push("op", i, i + 1);
        brackets.push(c);
        i++;
      } else if (c === ")" || c === "]" || c === "}") {
        const open = brackets.pop();
        if (open === undefined || "([{".indexOf(open) !== ")]}".indexOf(c)) throw new NotRead();
        push("op", i, i + 1);
        i++;
      } else if (OPERATORS.includes(c)) {
        const opEnd = c === ":" && src[i + 1] === "=" ? i + 2 : i + 1;
        push("op", i, opEnd);
        i = opEnd;
      } else {
        throw new NotRead();
      }
    }
    return tokens;
  }
}

/** `tokens[at]` is `text` (a name or an operator). */
function is(tokens: readonly Token[], at: number, text: string): boolean {
  return tokens[at]?.text === text && tokens[at]?.kind !== "string";
}

/** A name usable as an identifier at `tokens[at]`. */
function isIdentifier(tokens: readonly Token[], at: number): boolean {
  const t = tokens[at];
  return t !== undefined && t.kind === "name" && !KEYWORDS.has(t.text);
}

/**
 * The condition of an `if` header (its tokens between `if` and `:`, `depth` the header's bracket
 * depth) is `TYPE_CHECKING` or a primary expression ending in `.TYPE_CHECKING` (an attribute: a
 * name, string or bracketed start followed by `.name`, calls and subscripts).
 */
function isTypeCheckingCondition(cond: readonly Token[], depth: number): boolean {
  const top = cond.filter((t) => t.depth === depth);
  const last = top[top.length - 1];
  if (last === undefined || last.kind !== "name" || last.text !== "TYPE_CHECKING") return false;
  if (top.length === 1) return true;
  if (!is(top, top.length - 2, ".")) return false;
  let k = 0;
  const first = top[0] as Token;
  if (first.kind === "name") {
    if (KEYWORDS.has(first.text)) return false;
    k = 1;
  } else if (first.kind === "string") {
    while (top[k]?.kind === "string") k++;
  } else if (is(top, 0, "(") || is(top, 0, "[") || is(top, 0, "{")) {
    k = 2; // the bracket and its closing one (inner tokens are deeper)
  } else return false;
  while (k < top.length - 2) {
    if (is(top, k, ".") && isIdentifier(top, k + 1)) k += 2;
    else if ((is(top, k, "(") && is(top, k + 1, ")")) || (is(top, k, "[") && is(top, k + 1, "]"))) k += 2;
    else return false;
  }
  return k === top.length - 2;
}

/** One-based line of each character offset, from the offsets of the text's newlines. */
function lineCounter(src: string): (offset: number) => number {
  const newlines: number[] = [];
  for (let nl = src.indexOf("\n"); nl >= 0; nl = src.indexOf("\n", nl + 1)) newlines.push(nl);
  return (offset) => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((newlines[mid] as number) < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

/**
 * Reads one import statement starting at `tokens[at]` (`import` or `from`).
 * @returns the refs (lines unset) and the index after the statement's last token.
 * @throws NotRead when the statement is not one §7.11 allows.
 */
function readStatement(src: string, tokens: readonly Token[], at: number): { refs: ImportRef[]; next: number } {
  let k = at + 1;
  /** A dotted name at `k`: its text as written (`a.b`), `k` moved past it. */
  const dotted = (): string => {
    if (!isIdentifier(tokens, k)) throw new NotRead();
    const first = tokens[k] as Token;
    let last = first;
    k++;
    while (is(tokens, k, ".") && isIdentifier(tokens, k + 1)) {
      last = tokens[k + 1] as Token;
      k += 2;
    }
    return src.slice(first.start, last.end);
  };
  const alias = (): string | undefined => {
    if (!is(tokens, k, "as")) return undefined;
    k++;
    if (!isIdentifier(tokens, k)) throw new NotRead();
    return (tokens[k++] as Token).text;
  };
  /** `name [as alias] (, name [as alias])* [,]`, the list ending before `end` (or the statement's end). */
  const list = (closing: boolean): { name: string; alias?: string }[] => {
    const out: { name: string; alias?: string }[] = [];
    for (;;) {
      const name = dotted();
      const a = alias();
      out.push(a === undefined ? { name } : { name, alias: a });
      if (!is(tokens, k, ",")) break;
      k++;
      if (closing ? is(tokens, k, ")") : atEnd()) break;
    }
    return out;
  };
  const atEnd = () => k >= tokens.length || (is(tokens, k, ";") && (tokens[k] as Token).depth === 0);
  const refs: ImportRef[] = [];
  if ((tokens[at] as Token).text === "import") {
    for (const { name, alias: a } of list(false)) refs.push({ specifier: name, ...(a !== undefined ? { alias: a } : {}), start_line: 0, end_line: 0 });
  } else {
    const specStart = (tokens[k] as Token | undefined)?.start;
    let dots = 0;
    while (is(tokens, k, ".")) {
      dots++;
      k++;
    }
    let specEnd = dots > 0 ? (tokens[k - 1] as Token).end : 0;
    if (isIdentifier(tokens, k)) {
      dotted();
      specEnd = (tokens[k - 1] as Token).end;
    } else if (dots === 0) throw new NotRead();
    const specifier = src.slice(specStart, specEnd).replace(/\s+/g, "");
    if (!is(tokens, k, "import")) throw new NotRead();
    k++;
    let names: { name: string; alias?: string }[];
    if (is(tokens, k, "*")) {
      if (specifier === "__future__") throw new NotRead();
      k++;
      names = [{ name: "*" }];
    } else if (is(tokens, k, "(")) {
      k++;
      names = list(true);
      if (!is(tokens, k, ")")) throw new NotRead();
      k++;
    } else names = list(false);
    for (const { name, alias: a } of names) refs.push({ specifier, names: [name], ...(a !== undefined ? { alias: a } : {}), start_line: 0, end_line: 0 });
  }
  if (!atEnd()) throw new NotRead();
  return { refs, next: k };
}

/**
 * The import statements of a Python file's text and its dynamic imports (see the module comment), in
 * the extractor's order (by lines; statements before calls), each ref with its statement's 1-based
 * `start_line`/`end_line` and the extractor's flags; `undefined` when the file must be parsed for
 * them (text this reader does not follow).
 * @param onScan called (once, before the return) with the import screen's scan of the same text
 *   (`import-scan.ts` `scanImports("python", source)`, equal to it), read in the same pass where
 *   the text allows ({@link screenScan}).
 */
export function pythonImports(source: string, onScan?: (scan: ImportScan) => void): ImportRef[] | undefined {
  const hasImport = source.includes("import");
  if (!hasImport && onScan === undefined) return [];
  const reader = new Reader(source);
  let lines: LogicalLine[] | undefined;
  try {
    lines = reader.logicalLines();
  } catch (err) {
    if (!(err instanceof NotRead)) throw err;
  }
  let imports: ImportRef[] | undefined = hasImport ? undefined : [];
  if (hasImport && lines !== undefined && !reader.dynamicInField) {
    try {
      imports = importsOf(source, lines);
    } catch (err) {
      if (!(err instanceof NotRead)) throw err;
    }
  }
  if (onScan !== undefined) {
    const derived = lines !== undefined && imports !== undefined && !reader.scanDiffers && !source.endsWith("\\") ? screenScan(source, lines) : undefined;
    onScan(derived ?? (scanImports("python", source) as ImportScan));
  }
  return imports;
}

/** The refs of the statements and dynamic imports of `lines`, in the extractor's order. @throws NotRead */
function importsOf(source: string, lines: readonly LogicalLine[]): ImportRef[] {
  const lineOf = lineCounter(source);
  const refs = statements(source, lines, lineOf);
  if (DYNAMIC_NAME.test(source)) for (const line of lines) dynamicImports(source, line.tokens, lineOf, refs);
  refs.sort((a, b) => a.start_line - b.start_line || a.end_line - b.end_line);
  return refs;
}

/** Names that start a statement of the import screen's scan (`import-scan.ts`). */
const SCAN_WORDS = new Set(["import", "from", "import_module", "__import__"]);

/**
 * The import screen's scan of a text this reader read (`import-scan.ts` scanImports for Python,
 * the same value), from the tokens of its logical lines: a statement of the scan starts at a name
 * `import`, `from`, `import_module` or `__import__` and runs to the end of its logical line or to a
 * `;` outside brackets; its text is its tokens in lower case run together (`pythonScanStatement`),
 * a string's contents without its prefix and quotes. `undefined` when a statement holds an
 * f-string with a field (the scanner lists a field's tokens too).
 */
function screenScan(src: string, lines: readonly LogicalLine[]): ImportScan | undefined {
  const imports: ScannedImport[] = [];
  for (const { tokens } of lines) {
    let parts: string[] | undefined;
    for (let k = 0; k <= tokens.length; k++) {
      const t = tokens[k];
      if (t === undefined || (t.kind === "op" && t.text === ";" && t.depth === 0)) {
        if (parts !== undefined) imports.push(pythonScanStatement(parts));
        parts = undefined;
        continue;
      }
      // The scanner splits a number at its dots and signs: `1.from` holds its word `from`.
      if (t.kind === "number" && /import|from/.test(t.text)) return undefined;
      if (parts === undefined) {
        if (t.kind !== "name" || !SCAN_WORDS.has(t.text)) continue;
        parts = [];
      }
      if (t.kind !== "string") {
        pushScanToken(parts, t.text.toLowerCase());
        continue;
      }
      const text = src.slice(t.start, t.end);
      const q = text.search(/['"`]/);
      const quotes = text.startsWith(text.charAt(q).repeat(3), q) ? 3 : 1;
      const contents = text.slice(q + quotes, text.length - quotes);
      if (/[fFtT]/.test(text.slice(0, q)) && contents.includes("{")) return undefined;
      pushScanToken(parts, contents.toLowerCase());
    }
  }
  return { imports, open: false };
}

/** The refs of the import statements (§7.11) of `lines`. @throws NotRead */
function statements(source: string, lines: readonly LogicalLine[], lineOf: (offset: number) => number): ImportRef[] {
  const out: ImportRef[] = [];
  /**
   * The `if TYPE_CHECKING:` headers whose indented bodies are open: the header's indentation, and
   * the body's (its first line's); a line indented less than the body closes it (§2.1.8; a line
   * between the two, an inconsistent dedent, closes it too, as the parse does).
   */
  const open: { header: number; body?: number }[] = [];
  for (const { indent, tokens } of lines) {
    const top = open[open.length - 1];
    if (top !== undefined && top.body === undefined) {
      if (indent > top.header) top.body = indent;
      else open.pop();
    }
    while (open.length > 0 && indent < (open[open.length - 1] as { body: number }).body) open.pop();
    let flaggedFrom = open.length > 0 ? 0 : Infinity;
    if (is(tokens, 0, "if")) {
      const colon = tokens.findIndex((t, k) => k > 0 && t.depth === 0 && t.kind === "op" && t.text === ":");
      if (colon > 0 && isTypeCheckingCondition(tokens.slice(1, colon), 0)) {
        if (colon === tokens.length - 1) open.push({ header: indent });
        else flaggedFrom = Math.min(flaggedFrom, colon + 1);
      }
    }
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k] as Token;
      if (t.kind !== "name" || (t.text !== "import" && t.text !== "from")) continue;
      if (!startsStatement(tokens, k)) {
        if (t.text === "import") throw new NotRead();
        continue; // `yield from`, `raise … from …`
      }
      const { refs, next } = readStatement(source, tokens, k);
      const start_line = lineOf(t.start);
      const end_line = lineOf((tokens[next - 1] as Token).start);
      for (const ref of refs) {
        ref.start_line = start_line;
        ref.end_line = end_line;
        if (k >= flaggedFrom) ref.flags = ["type_checking"];
        out.push(ref);
      }
      k = next - 1;
    }
  }
  return out;
}

/** `tokens[k]` starts a statement: first of its logical line, or after `;` or a header's `:` outside brackets. */
function startsStatement(tokens: readonly Token[], k: number): boolean {
  const prev = tokens[k - 1];
  return prev === undefined || (prev.depth === 0 && prev.kind === "op" && (prev.text === ";" || prev.text === ":"));
}

/** Index of the bracket closing each opening bracket of `tokens` (and back), by token index. */
function bracketPairs(tokens: readonly Token[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: number[] = [];
  tokens.forEach((t, k) => {
    if (t.kind !== "op") return;
    if (t.text === "(" || t.text === "[" || t.text === "{") stack.push(k);
    else if (t.text === ")" || t.text === "]" || t.text === "}") {
      const o = stack.pop() as number;
      pairs.set(o, k);
      pairs.set(k, o);
    }
  });
  return pairs;
}

/** The value of a plain string token (no f/b/t prefix, no backslash, one literal), else `undefined` (as `python.ts` stringValue). */
function literalValue(src: string, arg: readonly Token[]): string | undefined {
  if (arg.length !== 1 || arg[0]?.kind !== "string") return undefined;
  const text = src.slice(arg[0].start, arg[0].end);
  const q = text.search(/['"`]/);
  if (/[fFbBtT]/.test(text.slice(0, q))) return undefined;
  const quote = text[q] as string;
  const triple = quote !== "`" && text.startsWith(quote.repeat(3), q) && text.length - q >= 6;
  const body = triple ? text.slice(q + 3, -3) : text.slice(q + 1, -1);
  return body.includes("\\") ? undefined : body;
}

/** The first line of an argument's text, cut to 80 characters (`call-range.ts` shortText). */
function argumentText(src: string, arg: readonly Token[]): string {
  const text = src.slice((arg[0] as Token).start, (arg[arg.length - 1] as Token).end);
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

/**
 * The dynamic imports of one logical line, appended to `out`: calls `import_module(…)`,
 * `<x>.import_module(…)`, `__import__(…)` with an argument list (not a generator), read as
 * `python.ts` collectDynamicImports reads them from the tree (first positional argument or `name=`;
 * a literal dotted name, relative ones made absolute by a literal `package`; otherwise the
 * argument's text flagged `unresolved`). Lines as `call-range.ts` callStatementLines gives them: the
 * simple statement holding the call when it starts on the call's first line and ends at most two
 * lines after it, else the call's own lines (from the start of its callee's primary expression).
 * @throws NotRead for a call in a compound statement's header or a decorator (whose statement spans
 *   its body), or an argument list holding a `lambda`.
 */
function dynamicImports(src: string, tokens: readonly Token[], lineOf: (offset: number) => number, out: ImportRef[]): void {
  let pairs: Map<number, number> | undefined;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.kind !== "name" || (t.text !== "import_module" && t.text !== "__import__") || !is(tokens, k + 1, "(")) continue;
    const prev = tokens[k - 1];
    if (prev !== undefined && prev.kind === "name" && (prev.text === "def" || prev.text === "class")) continue;
    const attribute = prev !== undefined && is(tokens, k - 1, ".");
    if (attribute && t.text === "__import__") continue;
    pairs ??= bracketPairs(tokens);
    const close = pairs.get(k + 1) as number;
    // The arguments, split at the commas of the call's own depth.
    const depth = (tokens[k + 1] as Token).depth + 1;
    const args: Token[][] = [];
    let cur: Token[] = [];
    for (let j = k + 2; j < close; j++) {
      const a = tokens[j] as Token;
      if (a.depth === depth && is(tokens, j, ",")) {
        args.push(cur);
        cur = [];
      } else cur.push(a);
    }
    if (cur.length > 0) args.push(cur);
    const top = (arg: Token[]) => arg.filter((a) => a.depth === depth);
    if (args.some((arg) => top(arg).some((a) => a.kind === "name" && a.text === "lambda"))) throw new NotRead();
    if (args.length === 1 && top(args[0] as Token[]).some((a) => a.kind === "name" && a.text === "for")) continue; // a generator argument
    const isKeyword = (arg: Token[]) =>
      arg[0]?.kind === "name" && is(arg, 1, "=") && !(is(arg, 2, "=") && (arg[2] as Token).start === (arg[1] as Token).end);
    const positional = args.filter((arg) => !isKeyword(arg));
    const keyword = (key: string) => {
      const arg = args.find((a) => isKeyword(a) && (a[0] as Token).text === key);
      return arg === undefined ? undefined : arg.slice(2);
    };
    const first = positional[0] ?? keyword("name");
    if (first === undefined || first.length === 0) continue;
    // Where the statement and the call start and end.
    let s = k;
    /** The primary element ending at `tokens[e]` (a name, string, number or bracket group): its first index, or -1. */
    const element = (e: number): number => {
      const b = tokens[e];
      if (b === undefined) return -1;
      if (b.kind === "op" && (b.text === ")" || b.text === "]" || b.text === "}")) return pairs?.get(e) ?? -1;
      if ((b.kind === "name" && !KEYWORDS.has(b.text)) || b.kind === "string" || b.kind === "number") return e;
      return -1;
    };
    for (;;) {
      // `x.` before the element continues the primary, and so does an element before a call's or subscript's bracket.
      const from = is(tokens, s - 1, ".") ? s - 2 : is(tokens, s, "(") || is(tokens, s, "[") ? s - 1 : -1;
      const e = from < 0 ? -1 : element(from);
      if (e < 0) break;
      s = e;
    }
    let stmt = k;
    while (stmt > 0 && !startsStatement(tokens, stmt)) stmt--;
    const head = tokens[stmt] as Token;
    if (stmt === 0 && (HEADER_WORDS.has(head.text) && head.kind !== "string")) throw new NotRead();
    let stmtEnd = stmt;
    while (stmtEnd + 1 < tokens.length && !(is(tokens, stmtEnd + 1, ";") && (tokens[stmtEnd + 1] as Token).depth === 0)) stmtEnd++;
    const call = { start_line: lineOf((tokens[s] as Token).start), end_line: lineOf((tokens[close] as Token).start) };
    const statement = { start_line: lineOf(head.start), end_line: lineOf((tokens[stmtEnd] as Token).start) };
    const lines = statement.start_line === call.start_line && statement.end_line <= call.end_line + 2 ? statement : call;
    const literal = literalValue(src, first);
    if (literal === undefined || (!isDottedName(literal.replace(/^\.+/, "")) && !/^\.+$/.test(literal))) {
      out.push({ specifier: argumentText(src, first), ...lines, flags: ["dynamic", "unresolved"] });
      continue;
    }
    let specifier = literal;
    if (literal.startsWith(".") && t.text === "import_module") {
      const pkgArg = positional[1] ?? keyword("package");
      const pkg = pkgArg === undefined ? undefined : literalValue(src, pkgArg);
      if (pkg !== undefined && isDottedName(pkg)) specifier = resolveRelativeName(literal, pkg) ?? literal;
    }
    out.push({ specifier, ...lines, flags: ["dynamic"] });
  }
}
