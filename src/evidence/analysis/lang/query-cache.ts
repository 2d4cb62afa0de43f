/**
 * Tree-sitter queries compiled once per grammar and query text (query syntax:
 * https://tree-sitter.github.io/tree-sitter/using-parsers/queries). Queries hold WASM memory and
 * live as long as the process, like the grammars. This module, and the language modules that use
 * it, load no part of the runtime (a query answered from the fact cache never loads
 * web-tree-sitter): the runtime module (`../tree-sitter.ts`), the only maker of `Language`s, hands
 * over its `Query` class when it loads ({@link useQueryClass}).
 */
import type { Language, Query } from "web-tree-sitter";

let QueryClass: (new (language: Language, source: string) => Query) | undefined;

/** Called once by the tree-sitter runtime module with web-tree-sitter's `Query` class. */
export function useQueryClass(cls: new (language: Language, source: string) => Query): void {
  QueryClass = cls;
}

function newQuery(language: Language, source: string): Query {
  if (QueryClass === undefined) throw new Error("the tree-sitter runtime is not loaded");
  return new QueryClass(language, source);
}

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
    query = newQuery(language, source);
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
      newQuery(language, p).delete();
      return true;
    } catch {
      return false;
    }
  });
  const query = newQuery(language, usable.join("\n"));
  if (byText === undefined) {
    byText = new Map();
    cache.set(language, byText);
  }
  byText.set(key, query);
  return query;
}
