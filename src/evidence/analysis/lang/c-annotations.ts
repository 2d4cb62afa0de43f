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
 *   `void f() LOCKS_EXCLUDED(mu_) {`, `Lock() EXCLUSIVE_LOCK_FUNCTION() {`): without the blanking
 *   the grammar names the function after the macro.
 * - A `#if`/`#ifdef`/`#ifndef` … `#endif` without `#else`/`#elif` that opens after a line ending in
 *   `:`, `,` or `(` (inside a constructor's initializer list or an argument list): the directive
 *   lines are blanked and the guarded text kept, as if the condition held; otherwise the grammar
 *   loses the rest of the enclosing class.
 */

const MACRO = String.raw`[A-Z][A-Z0-9_]*[A-Z0-9]`;
/** One macro argument list, one level of nested parentheses. */
const ARGS = String.raw`\((?:[^()\n]|\([^()\n]*\))*\)`;

/** `class|struct|union MACRO… Name` followed by `{`, `:` (not `::`) or `final`. */
const TYPE_HEAD = new RegExp(String.raw`\b(?:class|struct|union)\s+((?:${MACRO}\s+)+)(?=[A-Za-z_]\w*\s*(?:final\b\s*)?(?:\{|:(?!:)))`, "g");
/** `)` [qualifiers] `MACRO(args)`… followed by `{` or a constructor's `:`. */
const AFTER_PARAMS = new RegExp(String.raw`\)((?:\s*(?:const|noexcept|override|final|volatile))*)((?:\s*${MACRO}\s*${ARGS})+)(?=\s*(?:\{|:(?!:)))`, "g");

const blank = (text: string): string => text.replace(/[^\n]/g, " ");

/** The source with the forms of the module comment blanked; the same length and line breaks. */
export function blankCMacros(source: string): string {
  let out = source;
  if (/[A-Z]{2}/.test(out)) {
    out = out.replace(TYPE_HEAD, (m: string, macros: string) => m.slice(0, m.length - macros.length) + blank(macros));
    out = out.replace(AFTER_PARAMS, (_m: string, quals: string, macros: string) => `)${quals}${blank(macros)}`);
  }
  return out.includes("#") ? blankListConditionals(out) : out;
}

const DIRECTIVE = /^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b/;

/** Blanks `#if … #endif` pairs (no `#else`) opened inside a list (module comment, third rule). */
function blankListConditionals(source: string): string {
  const lines = source.split("\n");
  let changed = false;
  let lastCode = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = DIRECTIVE.exec(line);
    if (m !== null && m[1]?.startsWith("if") === true && /[:,(]$/.test(lastCode)) {
      const end = matchingEndif(lines, i);
      if (end !== undefined) {
        lines[i] = blank(line);
        lines[end] = blank(lines[end] as string);
        changed = true;
        continue;
      }
    }
    const code = line.replace(/\/\/.*$/, "").trim();
    if (code !== "" && !code.startsWith("#")) lastCode = code;
  }
  return changed ? lines.join("\n") : source;
}

/** The line of the `#endif` closing the conditional opened at `start`, when it has no `#else`/`#elif`. */
function matchingEndif(lines: readonly string[], start: number): number | undefined {
  let depth = 0;
  for (let i = start + 1; i < lines.length && i < start + 200; i++) {
    const m = DIRECTIVE.exec(lines[i] as string);
    if (m === null) continue;
    const d = m[1] as string;
    if (d.startsWith("if")) depth++;
    else if (d === "endif") {
      if (depth === 0) return i;
      depth--;
    } else if (depth === 0) return undefined;
  }
  return undefined;
}
