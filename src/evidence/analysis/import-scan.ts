/**
 * A lexical scan of a source file's import statements, without a parser: `find_importers` uses it
 * to drop, before parsing, the candidate files none of whose import statements can name the module
 * asked for (a file that merely mentions `session` in code, a comment or a string is not parsed).
 * Each scanner skips comments and string literals as its language's lexical grammar does and
 * over-approximates everything else, so that every import the tree-sitter extractors find
 * (`lang/*.ts`) lies inside a statement it returns (`test/evidence/import-scan.test.ts` checks
 * this on every fixture repository):
 *
 * - Python (Python reference, "Lexical analysis"; "The import statement"): from each `import` /
 *   `from` keyword, and each `import_module` / `__import__` name (dynamic imports), to the end of
 *   the logical line's statement (a newline outside brackets and not after `\`, or `;`); string
 *   prefixes, triple quotes, escapes and f-string replacement fields are honoured. The Python
 *   import reader (`lang/python-imports.ts`) gives the same scan in its own pass over a text it
 *   reads; this scanner reads the others.
 * - JavaScript/TypeScript (ECMAScript "Lexical Grammar"): the specifier strings of `import … from`,
 *   `export … from`, `import "x"`, `require(…)`, `import(…)` and `declare module "x"`; a template
 *   literal without substitutions is a string; a `/` is a regular expression where the previous
 *   token cannot end an expression. A call whose argument is not a plain string leaves the scan
 *   `open`.
 * - Go (Go spec, "Import declarations"): the import path strings of `import` declarations.
 * - Java (JLS 7.5, "Import Declarations"): `import` to `;`.
 * - Rust (Rust reference, "Use declarations", "Modules", "Extern crate declarations"): `use` to
 *   `;`, `extern crate` to `;`, `mod name`, and the string of a `#[path = "…"]` attribute.
 *
 * A scan that ends inside a comment, a string or an open bracket is `open` as well.
 *
 * A statement's text keeps one space between two tokens that would otherwise run together into
 * one name (`import session` reads `import session`, `a.b` reads `a.b`), so a name can be looked
 * for as a whole ({@link ImportKeys.whole}).
 */

/** One import statement (or specifier) as the scan read it. */
export interface ScannedImport {
  /**
   * Its text: names, operators and the contents of its strings, comments left out; lower case; a
   * space between two tokens whose ends are name characters (see the module comment).
   */
  text: string;
  /**
   * The statement names only a relative place: Python `from . import x` / `from .. import x`, a JS
   * specifier made of dots and slashes (`"."`, `"../.."`). Such a statement reaches a package's
   * `__init__.py` / a folder's `index` file without naming it.
   */
  bare: boolean;
}

/** What {@link scanImports} found. */
export interface ImportScan {
  imports: ScannedImport[];
  /** The scan cannot rule the file out: a computed specifier, or the text ended inside a comment, string or bracket. */
  open: boolean;
}

/** The families {@link scanImports} reads (`LanguageSpec.family ?? id`). */
const SCANNERS: Record<string, (source: string) => ImportScan> = {
  python: scanPython,
  js: scanJs,
  go: scanGo,
  java: scanJava,
  rust: scanRust,
};

/** Whether {@link scanImports} reads files of `family`. */
export function scansFamily(family: string): boolean {
  return Object.hasOwn(SCANNERS, family);
}

/**
 * The import statements of `source`, a file of the importer family `family` (see the module comment).
 * @returns `undefined` for a family without a scanner.
 */
export function scanImports(family: string, source: string): ImportScan | undefined {
  return Object.hasOwn(SCANNERS, family) ? (SCANNERS[family] as (s: string) => ImportScan)(source) : undefined;
}

/**
 * What an import must name to be kept (strings compared in lower case, as substrings of its text):
 * any of `words`, or every string of one of `together`; with `bare`, also an import that names
 * nothing but a relative place. With `whole`, a word counts only where no name character
 * (`a`–`z`, `0`–`9`, `_`) touches it on either side: a module named `session` is written as that
 * whole name (`import session`, `from a.session import x`, `"./session"`, `std::session`), never
 * inside `session_utils` or `dispatch_session`.
 */
export interface ImportKeys {
  words: readonly string[];
  together?: readonly (readonly string[])[];
  bare: boolean;
  whole?: boolean;
}

/** Characters of a name in a scanned (lower-case) text; anything else bounds a whole word. */
const isNameChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;

/** Whether `word` occurs in `text` with no name character right before or after it. */
function hasWholeWord(text: string, word: string): boolean {
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
    const end = i + word.length;
    if ((i === 0 || !isNameChar(text.charCodeAt(i - 1))) && (end === text.length || !isNameChar(text.charCodeAt(end)))) return true;
  }
  return false;
}

/** Whether one of the scan's imports could name the module of `keys` (or the scan is open). */
export function importsMayName(scan: ImportScan, keys: ImportKeys): boolean {
  if (scan.open) return true;
  const lower = (list: readonly string[]) => list.map((w) => w.toLowerCase()).filter((w) => w !== "");
  const words = lower(keys.words);
  const together = (keys.together ?? []).map(lower).filter((t) => t.length > 0);
  const has = keys.whole === true ? hasWholeWord : (text: string, w: string) => text.includes(w);
  return scan.imports.some(
    (i) => (keys.bare && i.bare) || words.some((w) => has(i.text, w)) || together.some((t) => t.every((w) => i.text.includes(w))),
  );
}

/** Appends `tok` to `parts` (lower-case text), with a space first when the two would run together into one name. */
export function pushScanToken(parts: string[], tok: string): void {
  const prev = parts[parts.length - 1];
  if (prev !== undefined && prev !== "" && tok !== "" && isNameChar(prev.charCodeAt(prev.length - 1)) && isNameChar(tok.charCodeAt(0))) parts.push(" ");
  parts.push(tok);
}

// ---------------------------------------------------------------------------------------------
// Shared lexing helpers

const isIdStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c > 127;
const isIdPart = (c: number): boolean => isIdStart(c) || (c >= 48 && c <= 57);
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;

/** A token of the C-like scanners: a word, a string's contents, or one punctuation character. */
interface Tok {
  kind: "word" | "string" | "punct" | "template";
  text: string;
}

/** End of a `//` comment starting at `i` (the newline's index, or the end). */
function lineEnd(s: string, i: number): number {
  const n = s.indexOf("\n", i);
  return n < 0 ? s.length : n;
}

/**
 * Tokens of a C-like source (Go, Java, Rust): `//` and `/* *\/` comments (nested for Rust), strings
 * with escapes, Go raw strings, Java text blocks, Rust raw strings, char literals and lifetimes.
 * `open` when the text ends inside a comment or a string.
 */
function cLikeTokens(s: string, lang: "go" | "java" | "rust"): { toks: Tok[]; open: boolean } {
  const toks: Tok[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 47 /* / */ && s.charCodeAt(i + 1) === 47) {
      i = lineEnd(s, i);
      continue;
    }
    if (c === 47 && s.charCodeAt(i + 1) === 42 /* * */) {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (s.charCodeAt(i) === 42 && s.charCodeAt(i + 1) === 47) {
          depth--;
          i += 2;
        } else if (lang === "rust" && s.charCodeAt(i) === 47 && s.charCodeAt(i + 1) === 42) {
          depth++;
          i += 2;
        } else i++;
      }
      if (depth > 0) return { toks, open: true };
      continue;
    }
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(s.charCodeAt(j))) j++;
      const word = s.slice(i, j);
      // Rust raw/byte/C strings: r"…", r#"…"#, b"…", br"…", c"…", cr#"…"#.
      if (lang === "rust" && /^(r|b|br|c|cr)$/.test(word) && (s[j] === '"' || (s[j] === "#" && word.includes("r")))) {
        if (word.includes("r")) {
          let k = j;
          while (s[k] === "#") k++;
          if (s[k] === '"') {
            const close = `"${"#".repeat(k - j)}`;
            const end = s.indexOf(close, k + 1);
            if (end < 0) return { toks, open: true };
            toks.push({ kind: "string", text: s.slice(k + 1, end) });
            i = end + close.length;
            continue;
          }
        } else {
          const end = quoted(s, j, '"', true);
          if (end < 0) return { toks, open: true };
          toks.push({ kind: "string", text: s.slice(j + 1, end - 1) });
          i = end;
          continue;
        }
      }
      toks.push({ kind: "word", text: word });
      i = j;
      continue;
    }
    if (c === 34 /* " */) {
      if (lang === "java" && s.startsWith('"""', i)) {
        const end = blockEnd(s, i + 3, '"""');
        if (end < 0) return { toks, open: true };
        toks.push({ kind: "string", text: s.slice(i + 3, end - 3) });
        i = end;
        continue;
      }
      // Rust strings may span lines; Go and Java strings may not.
      const end = quoted(s, i, '"', lang === "rust");
      if (end < 0) return { toks, open: true };
      toks.push({ kind: "string", text: s.slice(i + 1, end - 1) });
      i = end;
      continue;
    }
    if (c === 96 /* ` */ && lang === "go") {
      const end = s.indexOf("`", i + 1);
      if (end < 0) return { toks, open: true };
      toks.push({ kind: "string", text: s.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    if (c === 39 /* ' */) {
      if (lang === "rust") {
        // A char literal ('a', '\n', '\u{1F600}') or a lifetime / label ('a, 'static).
        if (s.charCodeAt(i + 1) === 92 /* \ */) {
          const end = quoted(s, i, "'", false);
          if (end < 0) return { toks, open: true };
          i = end;
        } else {
          const cp = s.codePointAt(i + 1) ?? 0;
          const w = cp > 0xffff ? 2 : 1;
          if (s[i + 1 + w] === "'") i += 2 + w;
          else i++;
        }
        continue;
      }
      const end = quoted(s, i, "'", false);
      if (end < 0) return { toks, open: true };
      i = end;
      continue;
    }
    toks.push({ kind: "punct", text: s[i] as string });
    i++;
  }
  return { toks, open: false };
}

/**
 * Index after the closing `quote` of a string opening at `i` (backslash escapes), or -1 when the
 * text ends first. Without `multiline` a newline ends the string (an unterminated literal), so a
 * stray quote costs at most one line.
 */
function quoted(s: string, i: number, quote: string, multiline: boolean): number {
  const q = quote.charCodeAt(0);
  let j = i + 1;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c === 92) j += 2;
    else if (c === q) return j + 1;
    else if (c === 10 && !multiline) return j;
    else j++;
  }
  return -1;
}

/** Index after `close` (backslash escapes skipped) searching from `i`, or -1. */
function blockEnd(s: string, i: number, close: string): number {
  let j = i;
  while (j < s.length) {
    if (s.charCodeAt(j) === 92) j += 2;
    else if (s.startsWith(close, j)) return j + close.length;
    else j++;
  }
  return -1;
}

/** Lower-case text of tokens, run together (a dotted name reads as written; see {@link pushScanToken}). */
function joined(toks: readonly Tok[]): string {
  const parts: string[] = [];
  for (const t of toks) pushScanToken(parts, t.text.toLowerCase());
  return parts.join("");
}

// ---------------------------------------------------------------------------------------------
// Go, Java, Rust

function scanGo(source: string): ImportScan {
  const { toks, open } = cLikeTokens(source, "go");
  const imports: ScannedImport[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Tok;
    if (t.kind !== "word" || t.text !== "import") continue;
    if (toks[i + 1]?.text === "(") {
      let j = i + 2;
      for (; j < toks.length && toks[j]?.text !== ")"; j++) {
        const u = toks[j] as Tok;
        if (u.kind === "string") imports.push({ text: u.text.toLowerCase(), bare: false });
      }
      i = j;
    } else {
      for (let j = i + 1; j < Math.min(toks.length, i + 3); j++) {
        const u = toks[j] as Tok;
        if (u.kind === "string") {
          imports.push({ text: u.text.toLowerCase(), bare: false });
          break;
        }
      }
    }
  }
  return { imports, open };
}

/** From each `keyword` token to the next `;` (Java imports, Rust `use` and `extern crate`). */
function toSemicolon(toks: readonly Tok[], i: number): { text: string; end: number } {
  let j = i;
  while (j < toks.length && !((toks[j] as Tok).kind === "punct" && (toks[j] as Tok).text === ";")) j++;
  return { text: joined(toks.slice(i, j)), end: j };
}

function scanJava(source: string): ImportScan {
  const { toks, open } = cLikeTokens(source, "java");
  const imports: ScannedImport[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Tok;
    if (t.kind !== "word" || t.text !== "import") continue;
    const { text, end } = toSemicolon(toks, i);
    imports.push({ text, bare: false });
    i = end;
  }
  return { imports, open };
}

function scanRust(source: string): ImportScan {
  const { toks, open } = cLikeTokens(source, "rust");
  const imports: ScannedImport[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Tok;
    if (t.kind !== "word") continue;
    if (t.text === "use" || (t.text === "extern" && toks[i + 1]?.text === "crate")) {
      const { text, end } = toSemicolon(toks, i);
      imports.push({ text, bare: false });
      i = end;
    } else if (t.text === "mod" && toks[i + 1]?.kind === "word") {
      imports.push({ text: `mod ${(toks[i + 1] as Tok).text.toLowerCase()}`, bare: false });
    } else if (t.text === "path" && toks[i - 1]?.text === "[" && toks[i + 1]?.text === "=" && toks[i + 2]?.kind === "string") {
      // `#[path = "util/clock_impl.rs"] mod clock;` picks the module's file by this string.
      imports.push({ text: (toks[i + 2] as Tok).text.toLowerCase(), bare: false });
    }
  }
  return { imports, open };
}

// ---------------------------------------------------------------------------------------------
// JavaScript / TypeScript

/** Words after which a `/` starts a regular expression (they cannot end an expression). */
const REGEX_AFTER_WORD = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);
/** Punctuation after which a `/` is division (it ends an expression). */
const DIVISION_AFTER_PUNCT = new Set([")", "]", "}"]);

/** Specifiers made only of dots and slashes (`.`, `../..`, `./`). */
const DOTS_ONLY = /^\.\.?(\/\.\.)*\/?$/;

function scanJs(s: string): ImportScan {
  const toks: Tok[] = [];
  /** Brace depth at which each open template's `${` started. */
  const templates: number[] = [];
  let braces = 0;
  let open = false;
  let i = 0;
  const n = s.length;
  /** Reads template characters from `i` (just after a backtick or a closing `}` of `${`): a string token, or a template part. */
  const template = (start: number, first: boolean): number => {
    let j = start;
    while (j < n) {
      const c = s.charCodeAt(j);
      if (c === 92) j += 2;
      else if (c === 96) {
        toks.push({ kind: first ? "string" : "template", text: s.slice(start, j) });
        return j + 1;
      } else if (c === 36 /* $ */ && s.charCodeAt(j + 1) === 123 /* { */) {
        toks.push({ kind: "template", text: s.slice(start, j) });
        templates.push(braces);
        braces++;
        return j + 2;
      } else j++;
    }
    open = true;
    return n;
  };
  const regexAllowed = (): boolean => {
    const prev = toks[toks.length - 1];
    if (prev === undefined) return true;
    if (prev.kind === "string" || prev.kind === "template") return false;
    if (prev.kind === "word") return REGEX_AFTER_WORD.has(prev.text);
    return !DIVISION_AFTER_PUNCT.has(prev.text);
  };
  while (i < n && !open) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 47 /* / */) {
      const d = s.charCodeAt(i + 1);
      if (d === 47) {
        i = lineEnd(s, i);
        continue;
      }
      if (d === 42) {
        const end = s.indexOf("*/", i + 2);
        if (end < 0) {
          open = true;
          break;
        }
        i = end + 2;
        continue;
      }
      if (regexAllowed()) {
        // A regular expression literal: `/` inside a class `[…]` does not end it; a newline does.
        let j = i + 1;
        let cls = false;
        while (j < n) {
          const e = s.charCodeAt(j);
          if (e === 92) j += 2;
          else if (e === 10) break;
          else if (cls) {
            if (e === 93) cls = false;
            j++;
          } else if (e === 91) {
            cls = true;
            j++;
          } else if (e === 47) break;
          else j++;
        }
        j++;
        while (j < n && isIdPart(s.charCodeAt(j))) j++;
        toks.push({ kind: "punct", text: "/re/" });
        i = j;
        continue;
      }
      toks.push({ kind: "punct", text: "/" });
      i++;
      continue;
    }
    if (c === 34 || c === 39) {
      const end = quoted(s, i, s[i] as string, false);
      if (end < 0) {
        open = true;
        break;
      }
      const closed = s.charCodeAt(end - 1) === c && end - 1 > i;
      toks.push({ kind: "string", text: s.slice(i + 1, closed ? end - 1 : end) });
      i = end;
      continue;
    }
    if (c === 96) {
      i = template(i + 1, true);
      continue;
    }
    if (c === 123) {
      braces++;
      toks.push({ kind: "punct", text: "{" });
      i++;
      continue;
    }
    if (c === 125) {
      braces--;
      if (templates.length > 0 && templates[templates.length - 1] === braces) {
        templates.pop();
        i = template(i + 1, false);
        continue;
      }
      toks.push({ kind: "punct", text: "}" });
      i++;
      continue;
    }
    if (isIdStart(c) || c === 35 /* # */ || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < n && (isIdPart(s.charCodeAt(j)) || (c >= 48 && c <= 57 && s.charCodeAt(j) === 46))) j++;
      toks.push({ kind: "word", text: s.slice(i, j) });
      i = j;
      continue;
    }
    toks.push({ kind: "punct", text: s[i] as string });
    i++;
  }
  if (templates.length > 0 || braces !== 0) open = true;
  const imports: ScannedImport[] = [];
  const spec = (text: string) => imports.push({ text: text.toLowerCase(), bare: DOTS_ONLY.test(text) });
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k] as Tok;
    const prev = toks[k - 1];
    if (t.kind === "string") {
      if (prev?.kind === "word" && (prev.text === "from" || prev.text === "import")) spec(t.text);
      else if (prev?.kind === "word" && prev.text === "module" && toks[k - 2]?.text === "declare") spec(t.text);
    } else if (t.kind === "punct" && t.text === "(" && prev?.kind === "word" && (prev.text === "require" || prev.text === "import")) {
      const arg = toks[k + 1];
      const after = toks[k + 2];
      if (arg?.kind === "string" && (after?.text === ")" || after?.text === ",")) spec(arg.text);
      else open = true; // a computed specifier (or none): which file it loads is decided at run time
    }
  }
  return { imports, open };
}

// ---------------------------------------------------------------------------------------------
// Python

/** String prefixes (any case): r, u, b, f, t and their two-letter combinations. */
const PY_PREFIX = /^(?:[rRuUbBfFtT]|[rR][bBfFtT]|[bBfFtT][rR])$/;
/** Names that start an import statement or a dynamic import call, and their lengths. */
const PY_IMPORT_WORDS = new Set(["import", "from", "import_module", "__import__"]);
const PY_IMPORT_LENGTHS = new Set([...PY_IMPORT_WORDS].map((w) => w.length));

/** Whether the scan of Python text reads `word` right before a quote as a string prefix (one of {@link PY_PREFIX}). */
export function isScanStringPrefix(word: string): boolean {
  return word.length <= 2 && PY_PREFIX.test(word);
}

/** The scanned import of one Python statement, from its text's parts (see {@link pushScanToken}). */
export function pythonScanStatement(parts: readonly string[]): ScannedImport {
  const text = parts.join("");
  return { text, bare: /^from\.+import/.test(text) };
}

/**
 * The Python scan of text `lang/python-imports.ts` does not read (it gives the same scan for the
 * text it reads, in its own pass: `pythonImports`'s `onScan`).
 */
function scanPython(s: string): ImportScan {
  const n = s.length;
  /** Current logical statement's tokens (lower-cased text). */
  let stmt: string[] = [];
  /** 0 once the statement's import keyword was read (then `stmt` holds its tokens from it on), else -1. */
  let from = -1;
  let depth = 0;
  let open = false;
  const imports: ScannedImport[] = [];
  const endStatement = () => {
    if (from >= 0) {
      imports.push(pythonScanStatement(stmt));
      stmt = [];
    }
    from = -1;
  };
  /** Index after a string whose opening quote is at `i` (`prefix`: its prefix letters); -1 at an unterminated triple-quoted string. */
  const str = (i: number, prefix: string): number => {
    const q = s[i] as string;
    const triple = s.startsWith(q.repeat(3), i);
    const close = triple ? q.repeat(3) : q;
    const f = /[fFtT]/.test(prefix);
    let j = i + close.length;
    const start = j;
    while (j < n) {
      const c = s.charCodeAt(j);
      if (c === 92) {
        j += 2;
        continue;
      }
      if (s.startsWith(close, j)) {
        if (from >= 0) pushScanToken(stmt, s.slice(start, j).toLowerCase());
        return j + close.length;
      }
      if (c === 10 && !triple) {
        if (from >= 0) pushScanToken(stmt, s.slice(start, j).toLowerCase());
        return j; // unterminated: ends at the line's end
      }
      if (f && c === 123 /* { */) {
        if (s.charCodeAt(j + 1) === 123) {
          j += 2;
          continue;
        }
        // A replacement field: code (with its own strings and brackets) up to the matching `}`.
        j = code(j + 1, true);
        if (j < 0) return -1;
        continue;
      }
      j++;
    }
    return -1;
  };
  /** Lexes code from `i`; inside an f-string field (`field`) returns after its closing `}`. Returns -1 at an unterminated string. */
  const code = (i0: number, field: boolean): number => {
    let i = i0;
    let local = 0;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 35 /* # */) {
        i = lineEnd(s, i);
        continue;
      }
      if (c === 10) {
        if (!field && depth === 0) endStatement();
        i++;
        continue;
      }
      if (c === 92 /* \ */ && (s.charCodeAt(i + 1) === 10 || (s.charCodeAt(i + 1) === 13 && s.charCodeAt(i + 2) === 10))) {
        i += s.charCodeAt(i + 1) === 13 ? 3 : 2; // a backslash-continued line
        continue;
      }
      if (isSpace(c)) {
        i++;
        continue;
      }
      if (c === 34 || c === 39) {
        i = str(i, "");
        if (i < 0) return -1;
        continue;
      }
      if (isIdStart(c) || (c >= 48 && c <= 57)) {
        let j = i + 1;
        while (j < n && isIdPart(s.charCodeAt(j))) j++;
        const q = s.charCodeAt(j);
        if ((q === 34 || q === 39) && isScanStringPrefix(s.slice(i, j))) {
          i = str(j, s.slice(i, j));
          if (i < 0) return -1;
          continue;
        }
        if (from < 0 && !field && PY_IMPORT_LENGTHS.has(j - i) && PY_IMPORT_WORDS.has(s.slice(i, j))) from = 0;
        if (from >= 0) pushScanToken(stmt, s.slice(i, j).toLowerCase());
        i = j;
        continue;
      }
      if (c === 40 || c === 91 || c === 123) {
        if (field) local++;
        else depth++;
      } else if (c === 41 || c === 93 || c === 125) {
        if (field) {
          if (local === 0 && c === 125) return i + 1;
          local--;
        } else depth = Math.max(0, depth - 1);
      } else if (c === 59 /* ; */ && !field && depth === 0) {
        endStatement();
        i++;
        continue;
      }
      if (from >= 0) pushScanToken(stmt, s[i] as string);
      i++;
    }
    return field ? -1 : n;
  };
  if (code(0, false) < 0) open = true;
  if (depth !== 0) open = true;
  endStatement();
  return { imports, open };
}
