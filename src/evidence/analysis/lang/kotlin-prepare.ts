/**
 * Kotlin text the tree-sitter-kotlin grammar (@tree-sitter-grammars/tree-sitter-kotlin 1.1) misreads,
 * rearranged before parsing (`LanguageSpec.prepare`): the length and the number of lines stay the
 * file's, and so does the line every declaration starts on.
 * - A nested class whose primary constructor starts on the next line (Kotlin grammar,
 *   https://kotlinlang.org/docs/classes.html#constructors: `class Builder` ⏎ `internal constructor(…)`):
 *   inside a class body the grammar ends the class at the line break and loses the rest of the
 *   enclosing class. The line break moves from before the constructor's modifiers to after its
 *   `(` (one indentation space fewer on the next line keeps the length).
 * - A visibility modifier of a primary constructor (`open class KoinApplication protected constructor()`):
 *   after two annotation lines the grammar reads the whole class as an expression and loses it
 *   (koin's `KoinApplication`). The modifier is blanked: it changes no definition and no use.
 * - A modifier keyword right after the annotations of a declaration (`@DslMarker` ⏎
 *   `annotation class KoinDslMarker`, `@KoinInternalApi` ⏎ `expect object Tools { … }`, also
 *   `enum`, `actual`, `data`, `value`, `operator`, `inner`; modifier keywords:
 *   https://kotlinlang.org/docs/keyword-reference.html#modifier-keywords): the grammar reads the
 *   annotation and the words after it as an expression at file level (not in class bodies) and loses the declaration (koin's
 *   `Markers.kt`, `KoinPlatformCoroutinesTools.kt`). The first modifier moves in front of the
 *   annotations (`annotation @DslMarker` ⏎ `class KoinDslMarker`), a form the grammar reads; Kotlin
 *   allows annotations and modifiers in any order. Lines and length stay the file's.
 * - A guard on a `when` branch (Kotlin 2.1, https://kotlinlang.org/docs/control-flow.html#guard-conditions-in-when-expressions:
 *   `is String if value.isEmpty() -> …`): the grammar does not know the form and loses the whole
 *   file (JetBrains/Exposed's ColumnType.kt). The guard's `if` becomes `,` (a branch with two
 *   conditions, `is String, value.isEmpty() -> …`, which the grammar reads), so the guard's
 *   expression stays for references. Only a line that starts with a type or range test (`is`,
 *   `!is`, `in`, `!in`) followed by ` if ` or ` if(` is changed; the guard may go on over lines.
 * - An annotated accessor of a property without a type (`val identifier` ⏎ `@OptIn(X::class)` ⏎
 *   `get() = …`, Exposed's Schema.kt and VendorDialect.kt): inside a class body the grammar reads the
 *   annotation as the start of the next declaration and loses the rest of the class. The accessor's
 *   annotations move in front of `val`/`var` on the property's line (where Kotlin applies them to
 *   the property, https://kotlinlang.org/docs/annotations.html#annotation-use-site-targets); the
 *   accessor's line gives up one indentation space for the blank that joins them.
 * - `where` starting a statement (`where?.let { … }`, `where = predicate`: a property named `where`,
 *   a soft keyword, https://kotlinlang.org/docs/keyword-reference.html#soft-keywords): after
 *   another statement the grammar reads it as a type-constraint clause and loses the file
 *   (Exposed's Query.kt, FunctionProvider.kt). It is put in parentheses, `(where)?.let`, taking two
 *   indentation spaces; `where T : A` (a name after it) and `where` ending a line are constraints
 *   and left alone.
 * - An infix call of a function named `get` (`val id = t.insert { } get t.id`, `} get (T.id)`):
 *   in a property's initializer the grammar reads `get` as the property's getter and loses the
 *   file. ` get ` becomes `` `get` `` (the same call, the name quoted) where an operand ends just
 *   before it on its line (a name that is no modifier, `)`, `]`, `}`) and a name or `(` follows
 *   after a blank (a getter is written `get(` or `get` ending the line).
 */

/** `class|object|interface Name[<…>]` ending a line, then an indented `[modifiers|@Annotation] constructor(`. */
const SPLIT_CONSTRUCTOR = /(\b(?:class|object|interface)\s+[A-Za-z_]\w*(?:<[^\n{}()]*>)?)[ \t]*\n([ \t]+)((?:(?:@[\w.]+(?:\([^()\n]*\))?|public|private|internal|protected)[ \t]+)*constructor[ \t]*\()/g;

/** `class|object Name[<…>] [@Annotation…]` then a visibility modifier and `constructor(` on the same line. */
const CONSTRUCTOR_VISIBILITY = /(\b(?:class|object)\s+[A-Za-z_]\w*(?:<[^\n{}()]*>)?[ \t]+(?:@[\w.]+(?:\([^()\n]*\))?[ \t]+)*)(public|private|internal|protected)(?=[ \t]+constructor[ \t]*\()/g;

/** Kotlin's modifier keywords (https://kotlinlang.org/docs/keyword-reference.html#modifier-keywords). */
const MODIFIER = "(?:abstract|actual|annotation|companion|const|data|enum|expect|external|final|infix|inline|inner|internal|lateinit|open|operator|override|private|protected|public|sealed|suspend|tailrec|value)";

/**
 * The modifiers the grammar misreads right after a file-level annotation (tried one by one: the
 * others, `open`, `private`, `sealed`, `suspend`, `inline`, …, are read).
 */
const MISREAD_MODIFIER = "(?:actual|annotation|data|enum|expect|inner|operator|value)";

/**
 * At the start of a line, not indented (a file-level declaration; in a class body the grammar reads
 * these, and an indented `@A` ⏎ `companion object {` would be misread once moved): annotations (`@A`, `@a.B(args)`, arguments with one level of nested parentheses,
 * possibly over lines), then a modifier and the rest of a declaration head (more modifiers, then
 * `class`, `interface`, `object`, `fun`, `val`, `var` or `typealias`).
 */
const ANNOTATED_MODIFIER = new RegExp(
  String.raw`^((?:@[\w.:]+(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?[ \t]*\n?[ \t]*)+)(${MISREAD_MODIFIER}[ \t]+)(?=(?:${MODIFIER}[ \t]+)*(?:class|interface|object|fun|val|var|typealias)\b)`,
  "gm",
);

/**
 * A `when` branch line with a guard: indentation, a type or range test (no `->` nor `if` in it),
 * then the guard's `if` followed by a blank or `(`. The guard may go on over lines
 * (`is A if (` ⏎ `x &&` ⏎ `y` ⏎ `) -> {`).
 */
const WHEN_GUARD = /^([ \t]*!?(?:is|in)[ \t](?:(?!->|\bif\b)[^\n])*?[ \t])if(?=[ \t(])/gm;

/**
 * A `val`/`var` line holding only modifiers (lower-case words) and the name (no type, no initializer), then a line of
 * annotations on one line (`@A`, `@a.B(args)`) before an accessor (`get`/`set`, possibly after a
 * visibility modifier, on that line or the next).
 */
const ANNOTATED_ACCESSOR = new RegExp(
  String.raw`^([ \t]*)((?:[a-z]+[ \t]+)*va[lr][ \t]+[A-Za-z_]\w*)([ \t]*\n[ \t])([ \t]*)((?:@[\w.:]+(?:\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))?[ \t]*)+)(?=(?:\n[ \t]*)?(?:(?:private|protected|internal|public)[ \t]+)?[gs]et\b)`,
  "gm",
);

/**
 * `where` starting a line (two indentation spaces or more) as the receiver of `.`, `?.`, `!!` or
 * `[…]`, or assigned (`where = x`; group 2) — the latter only after a line that does not end with
 * `(` or `,` (there it would be a named argument; checked by {@link unwhere}).
 */
const STATEMENT_WHERE = /^([ \t]*)[ \t]{2}where(?=[ \t]*(?:\??\.|!!|\[|(=)[^=]))/gm;

/**
 * ` get ` before a name or `(` after a blank (a getter is `get(`); {@link quoteInfixGet} checks
 * that an operand ends just before it on its line (a name that is no modifier, `)`, `]`, `}`).
 */
const INFIX_GET = /[ \t]get[ \t]+(?=[A-Za-z_(])/g;

/** A modifier keyword ending the text before an infix-looking ` get ` (`private get`: a getter). */
const ENDS_WITH_MODIFIER = new RegExp(String.raw`\b${MODIFIER}$`);

/** `(where)` for a {@link STATEMENT_WHERE} match; an assignment after `(` or `,` ending the line before is left alone. */
function unwhere(source: string, m: string, indent: string, assigned: string | undefined, offset: number): string {
  if (assigned !== undefined && /[\s(,]$/.test(source.slice(Math.max(0, offset - 200), offset).replace(/[ \t]*\n?$/, ""))) return m;
  return `${indent}(where)`;
}

/** `` `get` `` (blank-padded) for an {@link INFIX_GET} match that follows an operand. */
function quoteInfixGet(source: string, m: string, offset: number): string {
  const before = source.slice(Math.max(0, offset - 16), offset);
  if (!/[\w)}\]]$/.test(before) || ENDS_WITH_MODIFIER.test(before)) return m;
  return `\`get\`${" ".repeat(m.length - 5)}`;
}

/** The source with the forms of the module comment rearranged; the same length and line count. */
export function joinKotlinConstructors(source: string): string {
  let text = source.includes("@") ? source.replace(ANNOTATED_MODIFIER, (_m: string, annotations: string, modifier: string) => modifier + annotations) : source;
  text = text.replace(WHEN_GUARD, (_m: string, test: string) => `${test}, `);
  if (text.includes("@")) {
    text = text.replace(ANNOTATED_ACCESSOR, (_m: string, indent: string, head: string, gap: string, rest: string, annotations: string) => {
      const moved = annotations.trimEnd();
      // indent + annotations + " " + head, then the accessor's line without the annotations and one blank.
      return `${indent}${moved} ${head}${gap.slice(0, -1)}${rest}${" ".repeat(annotations.length - moved.length)}`;
    });
  }
  if (text.includes("where")) {
    const from = text;
    text = text.replace(STATEMENT_WHERE, (m: string, indent: string, assigned: string | undefined, offset: number) => unwhere(from, m, indent, assigned, offset));
  }
  if (text.includes("get")) {
    const from = text;
    text = text.replace(INFIX_GET, (m: string, offset: number) => quoteInfixGet(from, m, offset));
  }
  return joinConstructors(text);
}

function joinConstructors(source: string): string {
  if (!source.includes("constructor")) return source;
  const joined = source.replace(SPLIT_CONSTRUCTOR, (m: string, head: string, indent: string, ctor: string) => {
    // head + spaces + "\n" + indent + ctor  →  head + " " + ctor + "\n" + indent minus one, padded.
    const line = `${head} ${ctor}\n${indent.slice(1)}`;
    return line.padEnd(m.length, " ");
  });
  return joined.replace(CONSTRUCTOR_VISIBILITY, (_m: string, head: string, modifier: string) => head + " ".repeat(modifier.length));
}
