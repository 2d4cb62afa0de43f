/**
 * Kotlin text the tree-sitter-kotlin grammar (@tree-sitter-grammars/tree-sitter-kotlin 1.1) misreads,
 * rearranged before parsing (`LanguageSpec.prepare`): the length and the number of lines stay the
 * file's, and so does the line every declaration starts on.
 * - A nested class whose primary constructor starts on the next line (Kotlin grammar,
 *   https://kotlinlang.org/docs/classes.html#constructors: `class Builder` ⏎ `internal constructor(…)`):
 *   inside a class body the grammar ends the class at the line break and loses the rest of the
 *   enclosing class. The line break moves from before the constructor's modifiers to after its
 *   `(` (one indentation space fewer on the next line keeps the length).
 */

/** `class|object|interface Name[<…>]` ending a line, then an indented `[modifiers|@Annotation] constructor(`. */
const SPLIT_CONSTRUCTOR = /(\b(?:class|object|interface)\s+[A-Za-z_]\w*(?:<[^\n{}()]*>)?)[ \t]*\n([ \t]+)((?:(?:@[\w.]+(?:\([^()\n]*\))?|public|private|internal|protected)[ \t]+)*constructor[ \t]*\()/g;

/** The source with the forms of the module comment rearranged; the same length and line count. */
export function joinKotlinConstructors(source: string): string {
  if (!source.includes("constructor")) return source;
  return source.replace(SPLIT_CONSTRUCTOR, (m: string, head: string, indent: string, ctor: string) => {
    // head + spaces + "\n" + indent + ctor  →  head + " " + ctor + "\n" + indent minus one, padded.
    const joined = `${head} ${ctor}\n${indent.slice(1)}`;
    return joined.padEnd(m.length, " ");
  });
}
