/**
 * Whole-word occurrences of names in source text, without a parse: a hit is not preceded nor
 * followed by an identifier character. Read by `c-focus.ts` (the declarations a name is written in)
 * and by `references.ts` (a declaration's head up to its name).
 */

/** A character of an identifier (UTF-16 code unit): ASCII letters, digits, `_`, `$`, and every non-ASCII unit, as the C-family grammars accept them. */
export function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c > 127;
}

/** Start indices (UTF-16) of whole-word occurrences of `names` in `text`, ascending; empty names are skipped. */
export function wordHits(text: string, names: readonly string[]): number[] {
  const hits: number[] = [];
  for (const name of names) {
    if (name === "") continue;
    for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
      if (i > 0 && isWordChar(text.charCodeAt(i - 1))) continue;
      const after = i + name.length;
      if (after < text.length && isWordChar(text.charCodeAt(after))) continue;
      hits.push(i);
    }
  }
  return hits.sort((a, b) => a - b);
}
