/**
 * The parts of a qualified name as a syntax tree writes it (`a.b.c`, `a::b::c`, `pkg.Type`,
 * `this.m`), read from its last part towards its head: one walk for every language's reference
 * extractor, each giving only the step rule of its own grammar's node types.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";

/** Longest qualified name read, in parts (guards against pathological trees). */
const MAX_PARTS = 64;

/**
 * What a grammar's step rule says of one node of a name chain:
 * - `{ head }`: the node is the name's head (`a` of `a.b.c`), or its head parts at once (`pkg.Type`);
 * - `{ part, next }`: the node adds `part` before those read so far and the name goes on at `next`
 *   (`null`: nothing more can be read, so the node is no name);
 * - `{ through, headOnly }`: a wrapper (a generic or pointer type, parentheses) whose inner node is
 *   read instead; with `headOnly` only when nothing has been read yet (`*T` but not `(*a).b`);
 * - `undefined`: not part of a name.
 */
export type NameStep =
  | { head: string | readonly string[] }
  | { part: string; next: SyntaxNode | null }
  | { through: SyntaxNode | null; headOnly?: boolean }
  | undefined;

/** The parts of the name `node` writes, head first, or `undefined` when it is no name (see {@link NameStep}). */
export function namePath(node: SyntaxNode, step: (n: SyntaxNode) => NameStep): string[] | undefined {
  const parts: string[] = [];
  let n: SyntaxNode | null = node;
  for (let i = 0; n !== null && i < MAX_PARTS; i++) {
    const s = step(n);
    if (s === undefined) return undefined;
    if ("head" in s) return typeof s.head === "string" ? [s.head, ...parts] : [...s.head, ...parts];
    if ("part" in s) {
      parts.unshift(s.part);
      n = s.next;
    } else {
      if (s.headOnly === true && parts.length > 0) return undefined;
      n = s.through;
    }
  }
  return undefined;
}
