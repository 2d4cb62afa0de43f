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

/** The source with the forms of the module comment rearranged; the same length and line count. */
export function joinKotlinConstructors(source: string): string {
  const moved = source.includes("@") ? source.replace(ANNOTATED_MODIFIER, (_m: string, annotations: string, modifier: string) => modifier + annotations) : source;
  return joinConstructors(moved);
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
