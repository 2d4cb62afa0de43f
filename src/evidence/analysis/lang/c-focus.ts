/**
 * C and C++: the parts of a file's text whose parse gives every use and definition of some names
 * (`ReferenceRules.focus`), found by a lexical pass, so that a first `find_references` query parses
 * only the top-level declarations that write one of its names instead of every file whole.
 *
 * The pass reads the text as the preprocessor and the grammar tokenise it (ISO C §6.4, C++
 * [lex]): `//` and `/* *\/` comments, string and character literals (with escapes, prefixes,
 * C++11 raw strings `R"d(…)d"`, C++14 digit separators `1'000`), directive lines (with `\`
 * continuations), and the nesting of `(` `[` `{`. A **top-level item** starts at the first token
 * after the previous item and ends at a `;` outside any bracket, or at a `}` that closes a body
 * opened outside any bracket when no `;`, `,` or `=` follows it (the end of a function body; a
 * class or enum body goes on to its `;`). A directive line outside items is an item of its own.
 * `namespace N {`, `inline namespace N {`, `namespace {` and `extern "C" {` are **transparent**.
 *
 * The ranges are the items holding a word occurrence of a name (as a whole token; one in a comment
 * or string is a harmless excess), plus, whatever they hold, every transparent scope's head and
 * closing brace and the directive lines of every `#if`/`#ifdef`/`#ifndef` … `#endif` block outside
 * items (a header guard): the parse nests each item as the whole file's does, and holds the file's
 * namespaces (`c-family.ts` reads a qualifier naming one as a namespace). Also every `using
 * namespace a;` and `using a::b;`, at any depth: the reference walk reads them file-wide.
 *
 * The pass gives up (`undefined`: the file is parsed whole) where it cannot be sure of the items:
 * unbalanced brackets, a conditional block whose branches open or close brackets differently, one
 * begun outside items that ends inside one (or the reverse), a conditional or `#define` in the
 * head of a top-level item (outside its braces), an unterminated comment,
 * string or raw string, a string over a line end. Whether the ranges' parse equals the whole
 * file's also rests on the grammar: the caller parses them (tree-sitter `includedRanges`, which
 * keeps the file's positions) and parses the whole file when that parse holds an error.
 *
 * `covers` tells the other names whose definitions the ranges hold all of: those each of whose
 * occurrences lies in the ranges, or where no definition's name is written (comments, literals,
 * directives but `#define`, a qualifier `name::`, a function body: `c-family.ts` reads no
 * definition in one but macros). For class bodies (`ReferenceFacts.classes`, which the walk keeps
 * only outside functions), also an occurrence in brackets holding no `{` or before `(`, `;`, `,`,
 * `)`, `*`, `&`, `=` or `>`, which never follow a class's name before its body or bases.
 */

import type { TextFocus } from "./language.js";
import { isWordChar, wordHits } from "./word-hits.js";

/** A range of a text, as UTF-16 indices (`end` exclusive). */
interface TextSpan {
  start: number;
  end: number;
}

/** A transparent scope's head (`namespace a {`) or a conditional block's directive lines, with where the block ends. */
interface Context {
  spans: TextSpan[];
  start: number;
  end: number;
}

/** Heads of transparent scopes: the text of an item up to its `{` (comments blanked). */
const TRANSPARENT_HEAD = /^(?:(?:inline\s+)?namespace(?:\s+[A-Za-z_$][\w$]*(?:\s*::\s*(?:inline\s+)?[A-Za-z_$][\w$]*)*)?|extern\s*"C(?:\+\+)?")\s*$/;

const DIRECTIVE = /^#\s*([A-Za-z]*)/;

/**
 * Where `needle` first occurs in `text` from `from` on, starting before `end`, or -1: a search that
 * reads no further than the line it is about (a search to the end of the text for each line of a
 * file without the needle reads the file once per line).
 */
function indexBefore(text: string, needle: string, from: number, end: number): number {
  const at = text.slice(from, end + needle.length - 1).indexOf(needle);
  return at < 0 ? -1 : from + at;
}

/**
 * `text` with each comment replaced by a blank, read left to right as the compiler does outside
 * literals (`/* … *\/`, `// …` to the line end). Once a `/*` has no `*\/` after it, no later one
 * has: the rest is searched for `//` only, so a text of many unclosed `/*` (in a string literal)
 * is read once, not again from each of them.
 */
function blankComments(text: string): string {
  let out = "";
  let from = 0;
  let closable = true;
  for (let i = text.indexOf("/"); i >= 0 && i + 1 < text.length; i = text.indexOf("/", i + 1)) {
    const c = text.charCodeAt(i + 1);
    let end = -1;
    if (c === 42 && closable) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) closable = false;
      else end = close + 2;
    } else if (c === 47) {
      const e = text.indexOf("\n", i + 2);
      end = e < 0 ? text.length : e;
    }
    if (end < 0) continue;
    out += `${text.slice(from, i)} `;
    from = end;
    i = end - 1;
  }
  return out + text.slice(from);
}

/** The end of the directive line at `i` (`\` continuations and block comments over line ends included), or -1 for an unterminated comment. */
function directiveEnd(text: string, i: number): number {
  let j = i;
  for (;;) {
    let e = text.indexOf("\n", j);
    if (e < 0) e = text.length;
    const open = indexBefore(text, "/*", j, e);
    if (open >= 0) {
      const close = text.indexOf("*/", open + 2);
      if (close < 0) return -1;
      if (close + 2 > e) {
        j = close + 2;
        continue;
      }
      // A comment closed on this line: look again after it for one that is not.
      if (indexBefore(text, "/*", close + 2, e) >= 0) {
        j = close + 2;
        continue;
      }
    }
    if (e < text.length && text.charCodeAt(e - 1) === 92) {
      j = e + 1;
      continue;
    }
    return e;
  }
}

/** The index after the comments and blanks from `i` on the same line (a comment over a line end counts as one). */
function skipBlanksOnLine(text: string, i: number): number {
  let j = i;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === 32 || c === 9 || c === 13) j++;
    else if (c === 47 && text.charCodeAt(j + 1) === 47) return text.indexOf("\n", j) < 0 ? text.length : text.indexOf("\n", j);
    else if (c === 47 && text.charCodeAt(j + 1) === 42) {
      const e = text.indexOf("*/", j + 2);
      if (e < 0) return text.length;
      if (text.slice(j, e).includes("\n")) return j; // a line end inside: the line ended
      j = e + 2;
    } else return j;
  }
}

/**
 * The ranges of `text` whose parse gives every use and definition written with one of `names`
 * (see the module comment), sorted and disjoint; empty when no name occurs; `undefined` when the
 * items cannot be told for sure.
 */
export function cFocus(text: string, names: readonly string[]): TextFocus | undefined {
  const hits = wordHits(text, names);
  if (hits.length === 0) return { ranges: [], covers: remembered((name) => wordHits(text, [name]).length === 0) };
  const n = text.length;
  /** Open braces: a transparent scope (with its context entry) or a body. */
  const braces: (Context | null)[] = [];
  /** Open conditional blocks: their directive lines (kept only when outside items), bracket depths at `#if`. */
  const conds: { context: Context | undefined; braces: number; parens: number }[] = [];
  const contexts: Context[] = [];
  const usings: TextSpan[] = [];
  const items: TextSpan[] = [];
  let parens = 0;
  let bodies = 0; // braces open that are not transparent
  let itemStart = -1;
  /** The start of the item whose head was read at a `{` (see the `{` case). */
  let headRead = -1;
  let next = 0; // index into hits
  let lineStart = true;
  const topLevel = () => bodies === 0 && parens === 0;
  const begin = (i: number) => {
    if (itemStart < 0 && topLevel()) itemStart = i;
  };
  const endItem = (end: number) => {
    if (itemStart < 0) return;
    let holds = false;
    while (next < hits.length && (hits[next] as number) < end) {
      if ((hits[next] as number) >= itemStart) holds = true;
      next++;
    }
    if (holds) items.push({ start: itemStart, end });
    itemStart = -1;
  };
  /** Comments, literals and directive lines but `#define`s (where no definition is written): start, end, … ascending. */
  const quiet: number[] = [];
  /** Function bodies (`) {`, `) const {` …), outermost: start, end, … ascending; the one open, and the brace depth inside it. */
  const fnBodies: number[] = [];
  let fnOpen = -1;
  let fnBraces = 0;
  /** `#define` lines (a macro's name is a definition, also inside a function body): start, end, … ascending. */
  const defines: number[] = [];
  /** Outermost brackets outside function bodies that hold no `{` (no class body is written there): start, end, … ascending. */
  const parenSpans: number[] = [];
  let parenOpen = -1;
  let parenBrace = false;
  /** The last character of the last token read. */
  let last = -1;
  /** Where the `using` being read starts (at any depth), until its `;`. */
  let using = -1;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) {
      i++;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      // A line comment, continued by `\` at line end.
      let j = i;
      for (;;) {
        const e = text.indexOf("\n", j);
        if (e < 0) {
          j = n;
          break;
        }
        if (text.charCodeAt(e - 1) === 92) j = e + 1;
        else {
          j = e;
          break;
        }
      }
      quiet.push(i, j);
      i = j;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const e = text.indexOf("*/", i + 2);
      if (e < 0) return undefined;
      quiet.push(i, e + 2);
      i = e + 2;
      continue;
    }
    if (c === 35 && lineStart) {
      const e = directiveEnd(text, i);
      if (e < 0) return undefined;
      const kind = DIRECTIVE.exec(text.slice(i, Math.min(e, i + 24)))?.[1] ?? "";
      const line = { start: i, end: Math.min(e + 1, n) }; // with its line end: the directive's end
      const outside = itemStart < 0 && topLevel();
      if (kind === "if" || kind === "ifdef" || kind === "ifndef") {
        if (!outside && topLevel()) return undefined; // a conditional inside an item's head
        const context = outside ? { spans: [line], start: i, end: n } : undefined;
        conds.push({ context, braces: braces.length, parens });
      } else if (kind === "else" || kind === "elif" || kind === "elifdef" || kind === "elifndef" || kind === "endif") {
        const top = kind === "endif" ? conds.pop() : conds[conds.length - 1];
        if (top === undefined || top.braces !== braces.length || top.parens !== parens) return undefined;
        if (top.context !== undefined) {
          if (!outside) return undefined; // a block begun outside items ends inside one
          top.context.spans.push(line);
          if (kind === "endif") {
            top.context.end = e;
            contexts.push(top.context);
          }
        } else if (outside) return undefined; // begun inside an item, ends outside
      } else if (outside) {
        itemStart = i;
        endItem(line.end);
      } else if (topLevel() && kind === "define") return undefined; // a macro defined inside an item's head
      if (kind === "define") defines.push(i, e);
      else quiet.push(i, e);
      i = e;
      continue;
    }
    lineStart = false;
    if (c === 34 || c === 39) {
      // A digit separator (`1'000`, `0xFF'FF`): the number began with a digit.
      if (c === 39 && i > 0 && isWordChar(text.charCodeAt(i - 1))) {
        let k = i - 1;
        while (k > 0 && (isWordChar(text.charCodeAt(k - 1)) || text.charCodeAt(k - 1) === 39)) k--;
        const first = text.charCodeAt(k);
        if (first >= 48 && first <= 57) {
          i++;
          continue;
        }
      }
      if (c === 34 && i > 0 && text.charCodeAt(i - 1) === 82) {
        let k = i - 1;
        while (k > 0 && isWordChar(text.charCodeAt(k - 1))) k--;
        if (/^(?:u8|u|U|L)?R$/.test(text.slice(k, i))) {
          const open = text.indexOf("(", i + 1);
          if (open < 0 || open - i - 1 > 16) return undefined;
          const close = `)${text.slice(i + 1, open)}"`;
          const e = text.indexOf(close, open + 1);
          if (e < 0) return undefined;
          begin(k);
          quiet.push(k, e + close.length);
          i = e + close.length;
          last = i - 1;
          continue;
        }
      }
      begin(i);
      let j = i + 1;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 92) j++;
        else if (d === c) break;
        else if (d === 10) return undefined;
      }
      if (j >= n) return undefined;
      quiet.push(i, j + 1);
      i = j + 1;
      last = j;
      continue;
    }
    if (isWordChar(c)) {
      begin(i);
      const word = i;
      i++;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      last = i - 1;
      if (using < 0 && i - word === 5 && text.startsWith("using", word)) using = word;
      else if (using >= 0 && text.charCodeAt(skipBlanksOnLine(text, i)) === 61) using = -1; // `using X = T;`: an alias, read in place
      continue;
    }
    if (c === 123 || c === 125) using = -1; // `using X = struct { … }`: an alias, which the walk reads in place
    if (c === 123) {
      if (parens > 0) parenBrace = true;
      // An item's head is read at its first `{` only: a later one has a brace in its head, which no
      // transparent head has (read again for each, `x = {0}, {0}, …` was read once per brace).
      const head = itemStart >= 0 && itemStart !== headRead && topLevel() ? blankComments(text.slice(itemStart, i)) : undefined;
      if (head !== undefined) headRead = itemStart;
      if (head !== undefined && TRANSPARENT_HEAD.test(head)) {
        const context = { spans: [{ start: itemStart, end: i + 1 }], start: itemStart, end: n };
        braces.push(context);
        itemStart = -1;
      } else {
        begin(i);
        braces.push(null);
        bodies++;
        if (fnOpen < 0 && functionBodyAfter(text, last)) {
          fnOpen = i;
          fnBraces = braces.length;
        }
      }
    } else if (c === 125) {
      if (braces.length === 0) return undefined;
      const scope = braces.pop();
      if (scope !== null && scope !== undefined) {
        if (itemStart >= 0 || parens > 0) return undefined; // an item left open at its scope's end
        scope.spans.push({ start: i, end: i + 1 });
        scope.end = i + 1;
        contexts.push(scope);
      } else {
        bodies--;
        if (fnOpen >= 0 && braces.length === fnBraces - 1) {
          fnBodies.push(fnOpen, i + 1);
          fnOpen = -1;
        }
        if (topLevel()) {
          const j = skipBlanksOnLine(text, i + 1);
          let k = j;
          while (k < n && /\s/.test(text[k] as string)) k++;
          const after = text[k];
          // `} x;`, `} *p, q;` on the line of the `}`, or `;` `,` `=` next: the declaration goes on.
          if ((j >= n || text.charCodeAt(j) === 10) && after !== ";" && after !== "," && after !== "=") endItem(i + 1);
        }
      }
    } else if (c === 40 || c === 91) {
      begin(i);
      if (parens++ === 0) {
        parenOpen = i;
        parenBrace = false;
      }
    } else if (c === 41 || c === 93) {
      parens--;
      if (parens < 0) return undefined;
      if (parens === 0 && fnOpen < 0 && !parenBrace) parenSpans.push(parenOpen, i + 1);
    } else if (c === 59) {
      if (using >= 0) usings.push({ start: using, end: i + 1 });
      using = -1;
      begin(i);
      if (topLevel()) endItem(i + 1);
    } else begin(i);
    last = i;
    i++;
  }
  if (braces.length > 0 || conds.length > 0 || parens !== 0) return undefined;
  if (itemStart >= 0) endItem(n);
  if (items.length === 0) return { ranges: [], covers: remembered((name) => wordHits(text, [name]).length === 0) };
  // Every context and `using`, not only those around an item: the nesting of every scope and block is
  // the file's, and so is the set of the file's namespaces (`c-family.ts` reads a qualifier naming one
  // of them as a namespace) and the `using` directives the walk reads file-wide.
  const spans: TextSpan[] = [...items, ...usings];
  for (const k of contexts) spans.push(...k.spans);
  spans.sort((a, b) => a.start - b.start);
  const out: TextSpan[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last !== undefined && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  const starts = out.flatMap((s) => [s.start, s.end]);
  // Whether every occurrence of `name` is parsed, or is where no definition's name is written: a
  // comment, a literal, a directive but `#define`, a qualifier (`name::`: a definition's name is the
  // last part of its qualified name), a function body (`c-family.ts` reads no definition there but
  // macros; the reference walk keeps no class there). For class bodies only, also a bracket holding
  // no `{`, and a name followed by what never follows a class's name before its body or bases.
  const covers = remembered((name: string, bodies = false) =>
    wordHits(text, [name]).every((at) => {
      if (within(starts, at)) return true;
      if (within(defines, at)) return false;
      if (within(quiet, at) || within(fnBodies, at)) return true;
      const after = text.slice(at + name.length, at + name.length + 8);
      return QUALIFIER.test(after) || (bodies && (within(parenSpans, at) || NO_BODY_NEXT.test(after)));
    }),
  );
  return { ranges: out, covers };
}

/**
 * `covers` answering each question once: the resolver asks it of every focused file for each
 * name a lookup may need (`references.ts` `#mayDefine`), the query's own name thousands of times
 * on the bench's C/C++ tree (5,526 calls for 39 names over 70 files), and each answer is a scan of
 * the whole text.
 */
function remembered(covers: (name: string, bodies?: boolean) => boolean): TextFocus["covers"] {
  const answers = new Map<string, boolean>();
  return (name, bodies = false) => {
    const key = bodies ? `+${name}` : name;
    let answer = answers.get(key);
    if (answer === undefined) answers.set(key, (answer = covers(name, bodies)));
    return answer;
  };
}

/** The text after a qualifier: `::` (after blanks). */
const QUALIFIER = /^\s*::/;

/** The text after a name that no class body or base list follows (`A::A(`, `A *p`, `A;`, `A&`, `A>`). */
const NO_BODY_NEXT = /^\s*[(;,)*&=>]/;

/** Words between a function's parameter list and its body. */
const FUNCTION_QUALIFIERS = new Set(["const", "volatile", "override", "final", "noexcept", "mutable", "try"]);

/**
 * Whether a `{` whose previous token ends at `last` opens a function's body: after the parameter
 * list's `)`, maybe through qualifiers (`) const override {`, `) & {`). A class's `{` follows its
 * name, bases or `final` after its name.
 */
function functionBodyAfter(text: string, last: number): boolean {
  let k = last;
  for (let guard = 0; guard < 8 && k >= 0; guard++) {
    const c = text.charCodeAt(k);
    if (c === 41) return true;
    let start = k;
    if (c === 38) start = k;
    else if (isWordChar(c)) {
      while (start > 0 && isWordChar(text.charCodeAt(start - 1))) start--;
      if (!FUNCTION_QUALIFIERS.has(text.slice(start, k + 1))) return false;
    } else return false;
    k = start - 1;
    while (k >= 0 && /\s/.test(text[k] as string)) k--;
  }
  return false;
}

/** Whether `at` lies in one of the ranges `bounds` (start, end, … ascending, disjoint). */
function within(bounds: readonly number[], at: number): boolean {
  let lo = 0;
  let hi = bounds.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at < (bounds[2 * mid] as number)) hi = mid - 1;
    else if (at >= (bounds[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}
