/**
 * Small helpers over web-tree-sitter syntax nodes shared by the language modules:
 * 1-based line ranges and a selective, iterative walk.
 */
import type { Node as SyntaxNode, TreeCursor } from "web-tree-sitter";

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
export function nodeLines(node: Pick<SyntaxNode, "startPosition" | "endPosition">): LineRange {
  const start = node.startPosition.row;
  let end = node.endPosition.row;
  if (end > start && node.endPosition.column === 0) end -= 1;
  return { start_line: start + 1, end_line: end + 1 };
}

/** The range from the first line of `first` to the last line of `last`. */
export function spanLines(first: SyntaxNode, last: SyntaxNode): LineRange {
  return { start_line: nodeLines(first).start_line, end_line: nodeLines(last).end_line };
}

/**
 * Visits `root` and every node below it in document order with one tree cursor (iterative, so a deep
 * tree cannot overflow the stack; `maxDepth` bounds the descent). `visit` gets the cursor on each
 * node (its `currentNode`, `currentFieldName`, `startPosition`) and returns `false` to skip the
 * children of a node it has taken whole (a `require` call whose arguments need no second look).
 */
export function visitNodes(root: SyntaxNode, visit: (cursor: TreeCursor) => boolean, maxDepth = 256): void {
  const cursor = root.walk();
  try {
    let depth = 0;
    for (;;) {
      if (visit(cursor) && depth < maxDepth && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (depth === 0 || !cursor.gotoParent()) return;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/**
 * The nodes of the `collect` types below `root`, in document order, found with a tree cursor that
 * descends only into nodes of the `enter` types (the root is always entered), so the bodies of
 * functions and expressions are skipped unless asked for. Iterative; `maxDepth` bounds the descent.
 * Cheaper than a query over the whole tree when definitions sit near the top.
 */
export function selectNodes(
  root: SyntaxNode,
  collect: ReadonlySet<string>,
  enter: ReadonlySet<string>,
  maxDepth = 256,
): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const cursor = root.walk();
  try {
    if (!cursor.gotoFirstChild()) return out;
    let depth = 1;
    for (;;) {
      const type = cursor.nodeType;
      if (collect.has(type)) out.push(cursor.currentNode);
      if (enter.has(type) && depth < maxDepth && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || --depth === 0) return out;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The named children of a node (a web-tree-sitter `Node` or a `plain-tree.ts` copy), without the `null`s the binding may hand back. */
export function namedChildren<N>(node: { readonly namedChildren: readonly (N | null)[] }): N[] {
  return node.namedChildren.filter((n): n is N => n !== null);
}

/** The children of a node (named and anonymous), without `null`s. */
export function allChildren(node: SyntaxNode): SyntaxNode[] {
  return node.children.filter((n): n is SyntaxNode => n !== null);
}

/**
 * Visits `roots` and the nodes below them, depth first (a node's last named child first), at most
 * `limit` nodes (guards against pathological trees). `visit` returning `"skip"` leaves the node's
 * children out; it may add nodes to visit with `push` (a declarator inside a skipped node).
 */
export function walkNodes(
  roots: readonly SyntaxNode[],
  visit: (node: SyntaxNode, push: (node: SyntaxNode) => void) => "skip" | undefined,
  limit = 200_000,
): void {
  const stack: SyntaxNode[] = [...roots];
  const push = (node: SyntaxNode) => {
    stack.push(node);
  };
  for (let steps = 0; stack.length > 0 && steps < limit; steps++) {
    const n = stack.pop() as SyntaxNode;
    if (visit(n, push) === "skip") continue;
    for (const c of namedChildren(n)) stack.push(c);
  }
}
