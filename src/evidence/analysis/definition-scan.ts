/**
 * A lexical screen for `find_symbol`: whether a file's text can hold a definition of a name as the
 * tree-sitter extractor of its language reports definitions (`lang/*.ts`), without parsing it.
 * `find_symbol` parses only the files that mention the name (`text-prefilter.ts`); most of them
 * merely use it (a call, an import, an attribute), and this screen leaves those out.
 *
 * The screen over-approximates: it reads no strings nor comments as such, so an occurrence inside
 * one counts like any other, and it answers "may define" whenever the occurrence stands where the
 * extractor could take it as a definition's name. `test/evidence/definition-scan.test.ts` checks on
 * every fixture repository (and the checkouts in `CODECITE_SCAN_REPOS`) that no definition the
 * extractor finds is in a file the screen rules out.
 *
 * - Python (`lang/python.ts`: `def`/`class` names, assignment targets at module or class level —
 *   a plain name, a name in a `a, b =` or `(a, b) =` target list, an annotated `x: T` — and
 *   `type X = …` aliases): an occurrence of the name, as a whole word, is a possible definition
 *   when the previous token is `def`, `class` or `type`, or when it can be an assignment target:
 *   the previous token can start one (a statement's start, `;`, `:`, `,`, `(`, a plain `=`) and
 *   the next token can follow one (`=` but not `==`, `:`, `,`, `)`). Tokens are separated as tree-sitter-python reads them (its `extras`: whitespace,
 *   newlines, `\` continuations and `#` comments, Python reference "Lexical analysis"): a comment
 *   may stand between `def` and the name, so each `#` of a line is tried as a comment's start.
 *
 * Languages without a screen (and names that are not plain ASCII identifiers) are always kept.
 */

/** Whether `c` (a UTF-16 code unit) is an ASCII identifier character. */
const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;

/** Characters tree-sitter-python skips between tokens (`\s`, U+2060, U+200B, U+FEFF) and the `\` of a continuation. */
const isPythonGap = (c: number): boolean =>
  c < 128 ? c === 32 || (c >= 9 && c <= 13) || c === 92 : c === 0x2060 || c === 0x200b || c === 0xfeff || /\s/.test(String.fromCharCode(c));

/** Keywords after which a Python name is defined. */
const PYTHON_DEFINING = ["def", "class", "type"];

/** True when the text before `end` (exclusive) ends with one of {@link PYTHON_DEFINING} as a whole word. */
function endsWithDefining(s: string, end: number): boolean {
  return PYTHON_DEFINING.some((k) => end >= k.length && s.startsWith(k, end - k.length) && !isWordChar(s.charCodeAt(end - k.length - 1)));
}

/**
 * Whether the token before `at` is `def`, `class` or `type`, skipping gaps and comments. Going back
 * over a line break lands at the end of the line before, whose end may be a comment: each `#` of
 * that line is tried as the comment's start (a `#` inside a string is tried too, which only keeps
 * more). A `#` with only gaps before it on its line makes the whole line a comment: the search
 * goes on from it, to the line before.
 */
function definingBefore(s: string, at: number): boolean {
  let k = at;
  for (;;) {
    let crossed = false;
    while (k > 0 && isPythonGap(s.charCodeAt(k - 1))) {
      if (s.charCodeAt(k - 1) === 10) crossed = true;
      k--;
    }
    if (endsWithDefining(s, k)) return true;
    if (!crossed || k === 0) return false;
    const lineStart = s.lastIndexOf("\n", k - 1) + 1;
    let next = -1;
    for (let p = s.indexOf("#", lineStart); p >= 0 && p < k; p = s.indexOf("#", p + 1)) {
      let q = p;
      while (q > lineStart && isPythonGap(s.charCodeAt(q - 1))) q--;
      if (q === lineStart) next = p; // only gaps before it: a whole-line comment
      else if (endsWithDefining(s, q)) return true;
    }
    if (next < 0) return false;
    k = next;
  }
}

/** Whether the token after `at` is `=` (not `==`), `:`, `,` or `)`, skipping gaps and comments. */
function assignedAfter(s: string, at: number): boolean {
  let k = at;
  const n = s.length;
  while (k < n) {
    const c = s.charCodeAt(k);
    if (c === 35 /* # */) {
      const nl = s.indexOf("\n", k);
      if (nl < 0) return false;
      k = nl + 1;
    } else if (isPythonGap(c)) k++;
    else if (c === 61 /* = */) return s.charCodeAt(k + 1) !== 61;
    else return c === 58 /* : */ || c === 44 /* , */ || c === 41 /* ) */;
  }
  return false;
}

/** Characters before `=` that make it another operator (`==`, `!=`, `<=`, `>=`, `:=`, `+=` …). */
const OPERATOR_BEFORE_EQUALS = new Set([..."=!<>:+-*/%&|^@~"].map((c) => c.charCodeAt(0)));

/**
 * Whether the token before `at` can come before an assignment target: the start of a statement
 * (the text's start, or a line break or `\` continuation crossed), `;`, `:`, `,`, `(`, or a plain
 * `=` (`a = b = 1`).
 */
function targetBefore(s: string, at: number): boolean {
  let k = at;
  while (k > 0) {
    const c = s.charCodeAt(k - 1);
    if (c === 10 || c === 92) return true;
    if (!isPythonGap(c)) break;
    k--;
  }
  if (k === 0) return true;
  const c = s.charCodeAt(k - 1);
  if (c === 59 /* ; */ || c === 58 /* : */ || c === 44 /* , */ || c === 40 /* ( */) return true;
  return c === 61 /* = */ && !OPERATOR_BEFORE_EQUALS.has(s.charCodeAt(k - 2));
}

function pythonMayDefine(source: string, name: string): boolean {
  for (let i = source.indexOf(name); i >= 0; i = source.indexOf(name, i + 1)) {
    const end = i + name.length;
    if (isWordChar(source.charCodeAt(i - 1)) || isWordChar(source.charCodeAt(end))) continue;
    if ((targetBefore(source, i) && assignedAfter(source, end)) || definingBefore(source, i)) return true;
  }
  return false;
}

/** The screens by language family (`LanguageSpec.family ?? id`). */
const SCREENS: Record<string, (source: string, name: string) => boolean> = {
  python: pythonMayDefine,
};

/**
 * Whether `source`, a file of the language family `family`, may hold a definition named `name`
 * (see the module comment); true for a family without a screen and for a `name` that is not an
 * ASCII identifier.
 */
export function mayDefine(family: string, source: string, name: string): boolean {
  if (!Object.hasOwn(SCREENS, family) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return true;
  return (SCREENS[family] as (source: string, name: string) => boolean)(source, name);
}
