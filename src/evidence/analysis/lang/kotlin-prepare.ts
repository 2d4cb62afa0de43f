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
 */

/** `class|object|interface Name[<…>]` ending a line, then an indented `[modifiers|@Annotation] constructor(`. */
const SPLIT_CONSTRUCTOR = /(\b(?:class|object|interface)\s+[A-Za-z_]\w*(?:<[^\n{}()]*>)?)[ \t]*\n([ \t]+)((?:(?:@[\w.]+(?:\([^()\n]*\))?|public|private|internal|protected)[ \t]+)*constructor[ \t]*\()/g;

/** `class|object Name[<…>] [@Annotation…]` then a visibility modifier and `constructor(` on the same line. */
const CONSTRUCTOR_VISIBILITY = /(\b(?:class|object)\s+[A-Za-z_]\w*(?:<[^\n{}()]*>)?[ \t]+(?:@[\w.]+(?:\([^()\n]*\))?[ \t]+)*)(public|private|internal|protected)(?=[ \t]+constructor[ \t]*\()/g;

/** The source with the forms of the module comment rearranged; the same length and line count. */
export function joinKotlinConstructors(source: string): string {
  if (!source.includes("constructor")) return source;
  const joined = source.replace(SPLIT_CONSTRUCTOR, (m: string, head: string, indent: string, ctor: string) => {
    // head + spaces + "\n" + indent + ctor  →  head + " " + ctor + "\n" + indent minus one, padded.
    const line = `${head} ${ctor}\n${indent.slice(1)}`;
    return line.padEnd(m.length, " ");
  });
  return joined.replace(CONSTRUCTOR_VISIBILITY, (_m: string, head: string, modifier: string) => head + " ".repeat(modifier.length));
}
