/**
 * Preprocessor conditionals inside a list (a C/C++ constructor's initializer list or argument list,
 * a C# switch expression's arms or an initializer), which the tree-sitter grammars of C, C++ and C#
 * read only between declarations and statements: a group `#if …` opened after a code line ending in
 * `:`, `,`, `(`, or `<` or `>` (a template's parameter list or head: nlohmann/json's `template <…>` ⏎
 * `#if defined(JSON_HAS_CPP_14)` ⏎ `constexpr` ⏎ `#endif` ⏎ `auto get() const …`) is read as if its first condition held. Its `#if` and `#endif` lines are blanked
 * and the first branch's text kept; with `"with-else"` the `#elif`/`#else` branches are blanked
 * too (their lines become spaces), with `"without-else"` a group that has them is left alone.
 * With the trigger `"inside-code"` (C#) a group is also blanked when it opens inside a declaration
 * or a statement: the last code line before it does not end in `;`, `{` or `}` (`class A` followed
 * by `#if X` / `: IAsyncDisposable` / `#endif`), or its first code line continues one (starts with
 * `else`, `:`, `,`, `.`, `&&`, `||`, `?`, `+` or `=>`: `#if X` / `else if (b) { … }` / `#endif`
 * after an `if` block), or when its first branch ends inside one (its last code line does not end in `;`, `{` or `}`:
 * two signatures of one method before one body).
 * With `"list"` (C/C++) a group without `#elif`/`#else` is also blanked when its text opens more blocks than it closes
 * or the reverse (a block split over two groups of the same condition, {@link opensOrClosesBlock}).
 * Only characters are replaced by spaces: lines and columns stay the file's. A group is looked for
 * up to {@link MAX_GROUP_LINES} lines after its `#if`.
 * Sources of the directive forms: https://gcc.gnu.org/onlinedocs/cpp/Conditional-Syntax.html and
 * https://learn.microsoft.com/dotnet/csharp/language-reference/preprocessor-directives.
 */

const DIRECTIVE = /^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b/;

/** Most lines between a group's `#if` and its `#endif`. */
const MAX_GROUP_LINES = 200;

const blank = (text: string): string => text.replace(/[^\n]/g, " ");

/** Which groups are blanked: only those without `#elif`/`#else`, or all (the other branches blanked). */
export type ListConditionals = "without-else" | "with-else";

/** Where a group opens to be blanked: inside a list only, or anywhere inside code (module comment). */
export type ConditionalTrigger = "list" | "inside-code";

/** A code line (comments stripped) that ends a declaration or statement, or opens or closes a block. */
const COMPLETE = /[;{}]$/;

/** A first code line that continues the statement or declaration before it. */
const CONTINUATION = /^(?:else\b|[:,.?+]|&&|\|\||=>)/;

/** The source with the list conditionals of the module comment blanked; the same length and line breaks. */
export function blankListConditionals(source: string, mode: ListConditionals, trigger: ConditionalTrigger = "list"): string {
  if (!source.includes("#")) return source;
  const lines = source.split("\n");
  let changed = false;
  let lastCode = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = DIRECTIVE.exec(line);
    const opens = m !== null && m[1]?.startsWith("if") === true;
    const group = opens ? groupOf(lines, i) : undefined;
    const split = group !== undefined && trigger === "list" && opensOrClosesBlock(lines, i, group);
    if (group !== undefined && (/[:,(<>]$/.test(lastCode) || split || (trigger === "inside-code" && insideCode(lastCode, lines, i, group)))) {
      if (mode === "with-else" || group.firstElse === undefined || split) {
        lines[i] = blank(line);
        for (let k = group.firstElse ?? group.end; k <= group.end; k++) lines[k] = blank(lines[k] as string);
        changed = true;
        continue;
      }
    }
    const code = line.replace(/\/\/.*$/, "").trim();
    if (code !== "" && !code.startsWith("#")) lastCode = code;
  }
  return changed ? lines.join("\n") : source;
}

/** A line's code: `//` comments are stripped; a line of a block comment (opening, `*`-led or closing it) counts as none. */
function codeOf(line: string): string {
  const code = line.replace(/\/\/.*$/, "").trim();
  return code.startsWith("/*") || code.startsWith("*") || code.endsWith("*/") ? "" : code;
}

/**
 * Whether the group opened at line `at` lies inside a declaration or statement (module comment); `lastCode` is the code line before it.
 * So does a group whose first branch ends inside one: its last code line does not end in `;`, `{` or `}` (two signatures
 * of one method, `#if X` / `T M(ReadOnlySpan<object?> a)` / `#else` / `T M(object?[] a)` / `#endif` / `{ … }`:
 * serilog/serilog's `PropertyBinder.cs`, where the grammar lost the whole class).
 */
function insideCode(lastCode: string, lines: readonly string[], at: number, group: { firstElse: number | undefined; end: number }): boolean {
  const last = codeOf(lastCode);
  if (last !== "" && !COMPLETE.test(last)) return true;
  for (let i = (group.firstElse ?? group.end) - 1; i > at; i--) {
    const code = codeOf(lines[i] as string);
    if (code === "" || code.startsWith("#")) continue;
    if (!COMPLETE.test(code)) return true;
    break;
  }
  for (let i = at + 1; i < lines.length; i++) {
    const code = codeOf(lines[i] as string);
    if (code === "") continue;
    return !code.startsWith("#") && CONTINUATION.test(code);
  }
  return false;
}

/**
 * Whether the group opened at line `at` opens more blocks than it closes or closes more than it opens (trigger `"list"`,
 * C/C++): `#if DECSUBSET` ⏎ `if (set->extended) {` ⏎ `#endif` … `#if DECSUBSET` ⏎ `}` ⏎ `#endif` (jq's
 * vendor/decNumber/decNumber.c, src/jv_print.c), or, with one `#else`, both branches by the same count (`#if DECDPUN==1` ⏎
 * `if (a) {` ⏎ `#else` ⏎ `if (b) {` ⏎ `#endif`, one `}` after). The grammar reads a group as a whole, so a block
 * split over groups ended the function early or ran it on over the functions after it; with the first branch kept
 * (the other blanked) the halves pair up again. The two halves of a C header's `extern "C"` wrapper are left alone
 * (`#ifdef __cplusplus` ⏎ `extern "C" {` ⏎ `#endif` … `#ifdef __cplusplus` ⏎ `}` ⏎ `#endif`: C has no `extern "C"`):
 * a group whose condition names `__cplusplus` or that holds `extern`; so is one with `#elif` or with directives
 * inside a branch of a group with `#else`. Braces in string and character literals and in comments do not count.
 */
function opensOrClosesBlock(lines: readonly string[], at: number, group: { firstElse: number | undefined; end: number }): boolean {
  if ((lines[at] as string).includes("__cplusplus")) return false;
  const first = blockBalance(lines, at + 1, group.firstElse ?? group.end, group.firstElse !== undefined);
  if (first === undefined || first === 0 || group.firstElse === undefined) return first !== undefined && first !== 0;
  if (!/^\s*#\s*else\b/.test(lines[group.firstElse] as string)) return false;
  return blockBalance(lines, group.firstElse + 1, group.end, true) === first;
}

/**
 * Blocks opened less blocks closed by the code of lines `from` to `to` (exclusive); `undefined` when a line holds
 * `extern`, or a directive and `plain` is set.
 */
function blockBalance(lines: readonly string[], from: number, to: number, plain: boolean): number | undefined {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const code = codeOf(lines[i] as string).replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, "");
    if (code.startsWith("#")) {
      if (plain) return undefined;
      continue;
    }
    if (/\bextern\b/.test(code)) return undefined;
    for (const c of code) depth += c === "{" ? 1 : c === "}" ? -1 : 0;
  }
  return depth;
}

/** The lines of the first `#elif`/`#else` (if any) and of the `#endif` of the group opened at `start`. */
function groupOf(lines: readonly string[], start: number): { firstElse: number | undefined; end: number } | undefined {
  let depth = 0;
  let firstElse: number | undefined;
  for (let i = start + 1; i < lines.length && i <= start + MAX_GROUP_LINES; i++) {
    const m = DIRECTIVE.exec(lines[i] as string);
    if (m === null) continue;
    const d = m[1] as string;
    if (d.startsWith("if")) depth++;
    else if (d === "endif") {
      if (depth === 0) return { firstElse, end: i };
      depth--;
    } else if (depth === 0) firstElse ??= i;
  }
  return undefined;
}
