/**
 * Tree-sitter queries compiled once per grammar and query text (query syntax:
 * https://tree-sitter.github.io/tree-sitter/using-parsers/queries). Queries hold WASM memory and
 * live as long as the process, like the grammars.
 */
import { Query, type Language } from "web-tree-sitter";

const cache = new WeakMap<Language, Map<string, Query>>();

/**
 * The compiled query for `source` in `language`.
 * @throws the grammar's `QueryError` when the text does not compile for this grammar.
 */
export function compiledQuery(language: Language, source: string): Query {
  let byText = cache.get(language);
  if (byText === undefined) {
    byText = new Map();
    cache.set(language, byText);
  }
  let query = byText.get(source);
  if (query === undefined) {
    query = new Query(language, source);
    byText.set(source, query);
  }
  return query;
}

/**
 * Compiles the patterns that this grammar supports (a pattern naming a node type or field the
 * grammar lacks is dropped) into one query, once per grammar and pattern list.
 */
export function compiledPatterns(language: Language, patterns: readonly string[]): Query {
  const key = patterns.join("\n");
  let byText = cache.get(language);
  const hit = byText?.get(key);
  if (hit !== undefined) return hit;
  const usable = patterns.filter((p) => {
    try {
      new Query(language, p).delete();
      return true;
    } catch {
      return false;
    }
  });
  const query = new Query(language, usable.join("\n"));
  if (byText === undefined) {
    byText = new Map();
    cache.set(language, byText);
  }
  byText.set(key, query);
  return query;
}
