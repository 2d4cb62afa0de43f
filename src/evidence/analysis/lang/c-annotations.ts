/**
 * C/C++ text the tree-sitter grammars cannot read without the preprocessor, blanked before parsing
 * (`LanguageSpec.prepare`): each rule replaces characters with spaces only, so lines and columns
 * stay the file's. Macro names are recognised by the usual convention for macros: upper case,
 * digits and `_` (https://gcc.gnu.org/onlinedocs/cpp/Macros.html does not require it; the rules
 * rely on it so that ordinary code is left alone).
 * - An attribute macro between `class`/`struct`/`union` and the type's name, before the body or
 *   the base list (`class LEVELDB_EXPORT Status {`, `class SCOPED_LOCKABLE MutexLock {`): without
 *   the blanking the grammar reads a function named `Status` and the members are lost.
 * - Annotation macros after a function's parameter list and before its body or constructor
 *   initializers (Clang thread-safety annotations, https://clang.llvm.org/docs/ThreadSafetyAnalysis.html:
 *   `void f() LOCKS_EXCLUDED(mu_) {`, `Lock() EXCLUSIVE_LOCK_FUNCTION() {`; also without arguments,
 *   spdlog's `std::tm localtime() SPDLOG_NOEXCEPT {`): without the blanking the grammar names the
 *   function after the macro or loses it.
 * - (`list-conditionals.ts`) A `#if`/`#ifdef`/`#ifndef` … `#endif` without `#else`/`#elif` that opens after a line ending in
 *   `:`, `,` or `(` (inside a constructor's initializer list or an argument list): the directive
 *   lines are blanked and the guarded text kept, as if the condition held; otherwise the grammar
 *   loses the rest of the enclosing class.
 * - Block comments inside a `#define` continued over several lines (`\` at line end): the grammar
 *   reads the comment as the end of the directive and the rest as a broken definition named after a
 *   later word (fmt's `FMT_ASSERT`). The preprocessor replaces each comment by a space (translation
 *   phase 3, https://en.cppreference.com/w/c/language/translation_phases), so blanking changes nothing.
 * - A macro standing alone on its line, `MACRO` or `MACRO(numbers and macro names)` without `;` (fmt's `FMT_BEGIN_EXPORT`,
 *   googletest's `GTEST_DISABLE_MSC_WARNINGS_PUSH_(4251)`, Qt's `Q_OBJECT`), between declarations:
 *   the code line before it ends a declaration or a directive (`;`, `{`, `}`, an access label's `:`,
 *   `#…`, or nothing before it), and the one after it opens one with `template`, `class`, `struct`,
 *   `union`, `enum`, `namespace`, `typedef`, `using`, `extern`, `inline`, `static`, `constexpr`, an
 *   access label, a directive or another such macro. Without the blanking the grammar reads the macro
 *   as the return type of a function made of everything up to the next `{`, and the class that
 *   follows is lost. A return type on a line of its own (`HRESULT` above `Foo(void) {`), the last of
 *   such a run before a line that opens no declaration, is kept — unless it takes arguments (strings, numbers, macro
 *   names, or a version first: `HEDLEY_DEPRECATED_FOR(3.11.0, …)`; a type takes none) or the next line opens a block
 *   or a statement (`JSON_TRY` ⏎ `{`, `if (…)`). The last line of a continued `#define` counts as a directive line
 *   before it, and so does a template head (`template <…>` ⏎ `JSON_HEDLEY_RETURNS_NON_NULL` ⏎ `static T* create(`).
 * - A type's name followed by a comment before its `{` (`struct DOCTEST_INTERFACE Result // NOLINT` ⏎ `{`): first rule.
 * - A line holding only a macro call one of whose arguments is an operator (doctest's
 *   `DOCTEST_FORBIT_EXPRESSION(Result, &)`): an operator is neither an expression nor a type, so the macro generates
 *   declarations; without the blanking the grammar reads the rest of the file as its parameter list.
 * - A line holding only `MACRO:` (nlohmann/json's `JSON_PRIVATE_UNLESS_TESTED:`, an access label).
 * - Microsoft's calling conventions (`__stdcall`, `__cdecl`, …): the C++ grammar reads
 *   `extern "C" int __stdcall IsDebuggerPresent();` as a function whose body is the rest of the file (spdlog's
 *   msvc_sink.h lost its class); the keyword names no definition and no use.
 * - An indented line holding only `MACRO {` (spdlog's `SPDLOG_TRY {`): a macro standing for `try` before a block.
 * - `}` then `MACRO` or `MACRO(args)` before `{` (nlohmann/json's `JSON_CATCH (std::out_of_range&) {`): a macro
 *   standing for `catch` or `else` between two blocks; with `JSON_TRY` ⏎ `{` (fifth rule) the blocks stay plain blocks.
 * - At a line's start (after `static`, `friend`, `inline`, `extern`, `virtual`, `constexpr`): `MACRO` before a type and
 *   a declarator's name (`DOCTEST_INTERFACE String toString(…)`: no type is followed by another); macros before a
 *   constructor's `name(…) :` (a function with a return type has no initializer list) or before a qualified constructor or
 *   destructor (`SPDLOG_INLINE logger::logger(`, `X<T>::~X(`); `MACRO` between a type and a function's name
 *   (`void SPDLOG_INLINE thread_pool::post_log(`); of two or more macros before
 *   `name(`, all but the last (`static DWORD WINAPI thread_proc(`: the last may be the return type).
 * The rules of the last four bullets leave lines continuing a `#define` alone (a macro's body is the directive's text).
 */

import { blankListConditionals } from "./list-conditionals.js";

const MACRO = String.raw`[A-Z][A-Z0-9_]*[A-Z0-9_]`;
/**
 * Longest comment {@link GAP} steps over, and most annotation macros {@link AFTER_PARAMS} takes
 * after one parameter list. Both rules are tried at every `class`/`)` of a file, and the text one
 * attempt may read must be bounded: with an unbounded comment, every `class AB C /*` of a file
 * that never closes the comment read on to its end (a 100 KB header of them took 16 s, a 1 MB one
 * hours), and with unbounded macros every `)` of `) AB() AB() …` read the rest of the run.
 */
const MAX_GAP_COMMENT = 256;
const MAX_ANNOTATIONS = 8;
/**
 * White space and comments (a `// NOLINT` after a type's name, before its `{` on the next line):
 * a line comment runs to its line's end (so a `{` inside it is no type's body), each comment at
 * most {@link MAX_GAP_COMMENT} characters.
 */
const GAP = String.raw`(?:\s|//[^\n]{0,${MAX_GAP_COMMENT}}(?=\n|$)|/\*(?:[^*]|\*(?!/)){0,${MAX_GAP_COMMENT}}\*/)*`;
/** One macro argument list, one level of nested parentheses. */
const ARGS = String.raw`\((?:[^()\n]|\([^()\n]*\))*\)`;

/** `class|struct|union MACRO… Name` followed by `{`, `:` (not `::`) or `final`. */
const TYPE_HEAD = new RegExp(String.raw`\b(?:class|struct|union)\s+((?:${MACRO}\s+)+)(?=[A-Za-z_]\w*${GAP}(?:final\b${GAP})?(?:\{|:(?!:)))`, "g");
/**
 * `)` [qualifiers] `MACRO(args)` or `MACRO`… [qualifiers] followed by `{` or a constructor's `:`; a macro without arguments
 * on the line of the `)` (on a line of its own, `MACRO:` is an access label).
 */
const AFTER_PARAMS = new RegExp(
  String.raw`\)((?:\s*(?:const|noexcept|override|final|volatile))*)((?:\s*${MACRO}\s*${ARGS}|[ \t]*${MACRO}\b(?!\s*\()){1,${MAX_ANNOTATIONS}})(?=(?:\s*(?:const|noexcept|override|final))*\s*(?:\{|:(?!:)))`,
  "g",
);

/** A line holding only `MACRO:` (then at most a line comment): a macro standing for an access label (nlohmann/json's `JSON_PRIVATE_UNLESS_TESTED:`). */
const ACCESS_MACRO = new RegExp(String.raw`^[ \t]*${MACRO}[ \t]*:(?!:)[ \t]*(?://.*)?$`, "gm");
/**
 * `}` then, on the same line or indented on the next, `MACRO` or `MACRO(args)` followed by `{`: a macro standing for `catch`
 * or `else` between two blocks (nlohmann/json's `JSON_CATCH (std::out_of_range&)`); group 2 is the macro.
 */
const BLOCK_AFTER_BLOCK = new RegExp(String.raw`(\}[ \t]*(?://[^\n]*)?(?:\n[ \t]+)?)(${MACRO}(?:[ \t]*${ARGS})?)(?=[ \t]*(?://[^\n]*)?(?:\n[ \t]*)?\{)`, "g");
/**
 * An indented line holding only `MACRO {` (then at most a line comment): a macro standing for `try` or `do` before a block
 * (spdlog's `SPDLOG_TRY {`); group 2. Without the blanking the grammar reads `MACRO {…}` as a braced initializer whose
 * statement never ends, and a constructor or destructor holding it runs on over the functions after it.
 */
const BLOCK_MACRO = new RegExp(String.raw`^([ \t]+)(${MACRO})(?=[ \t]*\{[ \t]*(?://.*)?\r?$)`, "gm");
/** The start of a line, then optional specifiers. */
const DECLARATION_START = String.raw`[ \t]*(?:(?:static|friend|inline|extern|virtual|constexpr)[ \t]+)*`;
/**
 * At the start of a line, after optional `static`, `friend`, `inline`, `extern`, `virtual`, `constexpr`: `MACRO` followed by a
 * type and a declarator's name (`DOCTEST_INTERFACE String toString(…)`, `static DOCTEST_CONSTEXPR size_type len = 24;`,
 * `JSON_EXPLICIT operator ValueType()`): no type is followed by another type, so the macro is an annotation; group 2.
 */
const DECLARATION_MACRO = new RegExp(
  String.raw`^(${DECLARATION_START})(${MACRO}[ \t]+)(?=(?:const[ \t]+)?(?:::)?[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?(?:[ \t]*[*&]+[ \t]*|[ \t]+)(?:[A-Za-z_~]\w*|operator\b))`,
  "gm",
);
/**
 * The same place, macros before a constructor's `name(…) :` (fmt's `FMT_CONSTEXPR FMT_ALWAYS_INLINE fstring(const S&) : str(S()) {`;
 * a function with a return type has no initializer list): all are annotations; group 2.
 */
const CONSTRUCTOR_MACROS = new RegExp(
  String.raw`^(${DECLARATION_START})((?:${MACRO}[ \t]+)+)(?=[A-Za-z_]\w*[ \t]*${ARGS}[ \t]*(?:noexcept[ \t]*)?:(?!:))`,
  "gm",
);
/**
 * The same place, macros before a qualified constructor or destructor, `Name::Name(` or `Name<T>::~Name(` (spdlog's
 * `SPDLOG_INLINE logger::logger(const logger &other)`, `template <…>` ⏎ `SPDLOG_INLINE ansicolor_sink<M>::ansicolor_sink(`):
 * a constructor has no return type, so all are annotations; group 2.
 */
const QUALIFIED_CONSTRUCTOR_MACROS = new RegExp(
  String.raw`^(${DECLARATION_START})((?:${MACRO}[ \t]+)+)(?=(?:[A-Za-z_]\w*(?:<[^;{}()\n]*>)?::)*([A-Za-z_]\w*)(?:<[^;{}()\n]*>)?::~?\3[ \t]*\()`,
  "gm",
);
/**
 * The same place, a type then `MACRO` before a function's name, plain or qualified (spdlog's
 * `void SPDLOG_INLINE thread_pool::post_log(`, `std::future<void> SPDLOG_INLINE thread_pool::post_flush(`): a declarator
 * name follows its type, so the macro between them is an annotation; group 2. A type written in capitals is left to the
 * rule of two or more macros, and a keyword or specifier (`struct`, `unsigned`, `static`, …) is no type: `static HANDLE f(`
 * keeps its return type.
 */
const TYPE_THEN_MACRO = new RegExp(
  String.raw`^(${DECLARATION_START}(?!(?:struct|union|enum|class|typename|const|volatile|signed|unsigned|long|short|return|else|case|goto|new|delete|throw|static|friend|inline|extern|virtual|constexpr|typedef|register)\b)(?![A-Z][A-Z0-9_]*\b)(?:::)?[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?(?:[ \t]*[*&]+[ \t]*|[ \t]+))(${MACRO}[ \t]+)(?=(?:[A-Za-z_]\w*(?:<[^;{}()\n]*>)?::)*~?[A-Za-z_]\w*[ \t]*\()`,
  "gm",
);
/**
 * The same place, two or more macros before `name(` (`static DWORD WINAPI thread_proc(void* p) {`): all but the last are
 * annotations (the last may be the return type); group 2.
 */
const MACRO_RUN = new RegExp(String.raw`^(${DECLARATION_START})((?:${MACRO}[ \t]+)+)(?=${MACRO}[ \t]+~?[A-Za-z_]\w*[ \t]*\()`, "gm");
const blank = (text: string): string => text.replace(/[^\n]/g, " ");

/** A line holding only `MACRO(args)` (then at most a line comment), one argument made of operator characters only (`&`, `^`, `==`, `<<=`). */
const OPERATOR_CALL = new RegExp(String.raw`^[ \t]*${MACRO}[ \t]*\((?=(?:(?:[^()\n]|\([^()\n]*\))*?,)?[ \t]*[-+*/%^&|<>=!~]+[ \t]*[,)])(?:[^()\n]|\([^()\n]*\))*\)[ \t]*(?://.*)?$`, "gm");

/** Microsoft's calling-convention keywords (https://learn.microsoft.com/cpp/cpp/argument-passing-and-naming-conventions). */
const CALLING_CONVENTION = /\b__(?:cdecl|clrcall|stdcall|fastcall|thiscall|vectorcall)\b/g;

/** The source with the forms of the module comment blanked; the same length and line breaks. */
export function blankCMacros(source: string): string {
  let out = source;
  if (out.includes("__")) out = out.replace(CALLING_CONVENTION, blank);
  if (/[A-Z]{2}/.test(out)) {
    out = out.replace(TYPE_HEAD, (m: string, macros: string) => m.slice(0, m.length - macros.length) + blank(macros));
    out = out.replace(AFTER_PARAMS, (_m: string, quals: string, macros: string) => `)${quals}${blank(macros)}`);
    // Each only outside a macro's body (lines continuing a `#define`): there the text is the directive's.
    out = blankOutsideDirectives(out, OPERATOR_CALL, (m) => blank(m));
    out = blankOutsideDirectives(out, ACCESS_MACRO, (m) => blank(m));
    out = blankOutsideDirectives(out, BLOCK_AFTER_BLOCK, (_m, close, macro) => close + blank(macro));
    out = blankOutsideDirectives(out, BLOCK_MACRO, (_m, indent, macro) => indent + blank(macro));
    out = blankOutsideDirectives(out, CONSTRUCTOR_MACROS, (_m, head, macros) => head + blank(macros));
    out = blankOutsideDirectives(out, QUALIFIED_CONSTRUCTOR_MACROS, (_m, head, macros) => head + blank(macros));
    out = blankOutsideDirectives(out, TYPE_THEN_MACRO, (_m, head, macro) => head + blank(macro));
    out = blankOutsideDirectives(out, MACRO_RUN, (_m, head, macros) => head + blank(macros));
    out = blankOutsideDirectives(out, DECLARATION_MACRO, (_m, head, macro) => head + blank(macro));
  }
  if (STANDALONE_ANY.test(out)) out = blankStandaloneMacros(out);
  if (!out.includes("#")) return out;
  if (out.includes("/*")) out = blankMacroComments(out);
  return blankListConditionals(out, "without-else");
}

const DEFINE = /^[ \t]*#[ \t]*define\b/;

/** Blanks the block comments of `#define`s continued over several lines (module comment, fourth rule). */
function blankMacroComments(source: string): string {
  const lines = source.split("\n");
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    if (!DEFINE.test(lines[i] as string) || !continues(lines[i] as string)) continue;
    let end = i;
    while (end + 1 < lines.length && continues(lines[end] as string)) end++;
    const text = lines.slice(i, end + 1).join("\n");
    const blanked = blankBlockComments(text);
    if (blanked !== text) {
      lines.splice(i, end - i + 1, ...blanked.split("\n"));
      changed = true;
    }
    i = end;
  }
  return changed ? lines.join("\n") : source;
}

/** `text` with each match of `re` (a global regular expression, groups as `replace` gives them) replaced by `f`, except in a line continuing a directive. */
function blankOutsideDirectives(text: string, re: RegExp, f: (m: string, g1: string, g2: string) => string): string {
  return text.replace(re, (m: string, ...rest: unknown[]) => {
    const at = rest[rest.length - 2] as number;
    const lineStart = text.lastIndexOf("\n", at - 1) + 1;
    const before = lineStart === 0 ? "" : text.slice(text.lastIndexOf("\n", lineStart - 2) + 1, lineStart - 1);
    return continues(before) ? m : f(m, rest[0] as string, rest[1] as string);
  });
}

/** True when the line ends in a line splice (`\`, before an optional `\r`). */
function continues(line: string): boolean {
  return /\\\r?$/.test(line);
}

/** `text` with its block comments turned into spaces (line breaks kept); string and character literals are skipped, and so is everything after a `//`. */
function blankBlockComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      return out + text.slice(i); // a line comment runs to the end of the directive: nothing after it is code
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      const stop = close < 0 ? text.length : close + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * A line holding only `MACRO` or `MACRO(args)` whose arguments are numbers and macro names (no
 * code whose uses `find_references` would lose: jemalloc's `CTL_RO_NL_GEN(name, f(tsd), type)`
 * stays), then at most a line comment.
 */
const STANDALONE = new RegExp(String.raw`^[ \t]*${MACRO}[ \t]*(?:\((?:[A-Z0-9_ \t,|]|"(?:[^"\\\n]|\\.)*")*\)|\([ \t]*\d+\.\d+(?:\.\d+)*[ \t]*(?:,(?:[^()\n]|\([^()\n]*\))*)?\))?[ \t]*(?://.*)?\r?$`);
/** A stand-alone macro with an argument list: no return type (a type takes no arguments). */
const WITH_ARGS = /\(/;
const STANDALONE_ANY = new RegExp(STANDALONE.source, "m");
/** How the code line after a stand-alone macro starts when it opens a declaration (fifth rule). */
const OPENS_DECLARATION = /^(?:#|(?:template|class|struct|union|enum|namespace|typedef|using|extern|inline|static|constexpr|public|private|protected)\b)/;

/** How a code line starts when it cannot continue a declaration whose type is the macro before it: a block (`JSON_TRY` ⏎ `{`), a statement keyword, or `}` (unless the line before the macro ends in `{` or `,`: `enum E {` ⏎ `ONLY` ⏎ `};` holds an enumerator). */
const NO_DECLARATOR = /^(?:[{}]|(?:if|else|for|while|do|switch|case|default|return|break|continue|goto|try|catch|throw|delete|co_return|co_yield|co_await)\b)/;

/** Blanks macros standing alone between declarations (module comment, fifth rule). */
function blankStandaloneMacros(source: string): string {
  const lines = source.split("\n");
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    // A line continuing a directive (a macro's body) is the directive's.
    if (!STANDALONE.test(lines[i] as string) || (i > 0 && continues(lines[i - 1] as string))) continue;
    const before = codeLineBefore(lines, i);
    if (before !== undefined && !/(?:[;{}>]|[^:]:)$/.test(before) && !before.startsWith("#")) continue;
    // A run of stand-alone macros (`FMT_END_EXPORT` then `FMT_END_NAMESPACE`) is judged by what follows the run.
    let j = i;
    let after = codeLineAfter(lines, j);
    while (after !== undefined && STANDALONE.test(lines[after.line] as string)) {
      j = after.line;
      after = codeLineAfter(lines, j);
    }
    // Before a line that opens no declaration, the run's last macro may be a return type (`HRESULT` above `Start(void) {`): kept.
    const last = after === undefined || OPENS_DECLARATION.test(after.code) || (NO_DECLARATOR.test(after.code) && !(after.code.startsWith("}") && /[{,]$/.test(before ?? ""))) || (WITH_ARGS.test((lines[j] as string).replace(/\/\/.*$/, "")) && !after.code.startsWith("{")) ? j : j - 1;
    for (let k = i; k <= last; k++) {
      if (!STANDALONE.test(lines[k] as string)) continue;
      lines[k] = blank(lines[k] as string);
      changed = true;
    }
    i = j;
  }
  return changed ? lines.join("\n") : source;
}

/** The code of the nearest line before `i` that is not blank or comment only (`undefined` at the file's start). */
function codeLineBefore(lines: readonly string[], i: number): string | undefined {
  for (let k = i - 1; k >= 0; k--) {
    // The last line of a directive continued over lines (`#define A \` ⏎ `  b`) is the directive's.
    let first = k;
    while (first > 0 && continues(lines[first - 1] as string)) first--;
    if (first < k && /^[ \t]*#/.test(lines[first] as string)) return "#";
    let t = (lines[k] as string).replace(/\/\/.*$/, "").trim();
    if (t.endsWith("*/")) {
      // Back to the line opening this block comment; code before the `/*` counts.
      while (k > 0 && !(lines[k] as string).includes("/*")) k--;
      t = (lines[k] as string).slice(0, (lines[k] as string).indexOf("/*")).trim();
    }
    if (t !== "") return t;
  }
  return undefined;
}

/** The nearest line after `i` that is not blank or comment only, with its code (`undefined` at the file's end). */
function codeLineAfter(lines: readonly string[], i: number): { line: number; code: string } | undefined {
  for (let k = i + 1; k < lines.length; k++) {
    let t = (lines[k] as string).trim();
    if (t.startsWith("/*")) {
      // Past the end of this block comment; code after the `*/` counts.
      while (k < lines.length - 1 && !(lines[k] as string).includes("*/")) k++;
      const line = lines[k] as string;
      t = line.slice(line.indexOf("*/") + 2).trim();
    }
    t = t.replace(/^\/\/.*$/, "");
    if (t !== "") return { line: k, code: t };
  }
  return undefined;
}
