/**
 * Small helpers over web-tree-sitter syntax nodes shared by the language modules:
 * 1-based line ranges and compiled queries cached per grammar.
 */
import { Query, type Language, type Node as SyntaxNode } from "web-tree-sitter";

/** A 1-based, inclusive line range. */
export interface LineRange {
  start_line: number;
  end_line: number;
}

/**
 * The 1-based inclusive lines a node covers. A node that ends at column 0 of a later row
 * (a token that swallowed its trailing newline, e.g. a Rust `///` doc comment) ends on
 * the row before.
 */
export function nodeLines(node: SyntaxNode): LineRange {
  const start = node.startPosition.row;
  let end = node.endPosition.row;
  if (end > start && node.endPosition.column === 0) end -= 1;
  return { start_line: start + 1, end_line: end + 1 };
}

/** The range from the first line of `first` to the last line of `last`. */
export function spanLines(first: SyntaxNode, last: SyntaxNode): LineRange {
  return { start_line: nodeLines(first).start_line, end_line: nodeLines(last).end_line };
}

const queries = new WeakMap<Language, Map<string, Query>>();

/**
 * A query compiled once per grammar and query text (tree-sitter query syntax:
 * https://tree-sitter.github.io/tree-sitter/using-parsers/queries). Throws the grammar's
 * `QueryError` when the text does not compile, which is a programming error.
 */
export function cachedQuery(language: Language, source: string): Query {
  let byText = queries.get(language);
  if (byText === undefined) {
    byText = new Map();
    queries.set(language, byText);
  }
  let query = byText.get(source);
  if (query === undefined) {
    query = new Query(language, source);
    byText.set(source, query);
  }
  return query;
}

/** The named children of a node, without the `null`s the binding may hand back. */
export function namedChildren(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((n): n is SyntaxNode => n !== null);
}

/** The children of a node (named and anonymous), without `null`s. */
export function allChildren(node: SyntaxNode): SyntaxNode[] {
  return node.children.filter((n): n is SyntaxNode => n !== null);
}
