/**
 * Ruby: the `require`-like calls of a file (tree-sitter-ruby 0.23 grammar), for `ruby.ts`
 * (imports) and `ruby-references.ts` (the files a file's constants may come from). Rules in
 * `ruby.ts`'s module comment ("Imports").
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ImportRef } from "./language.js";
import { namedChildren, nodeLines, visitNodes } from "./syntax.js";

/** Flag of a `require_relative` import. */
export const RELATIVE_REQUIRE_FLAG = "relative";
/** Flag of a `load` import (the path is a file name, searched from the requiring file's folder too). */
export const LOAD_FLAG = "load";

/** The `Kernel` methods whose string argument names a file to load. */
export const REQUIRES = new Set(["require", "require_relative", "load", "autoload"]);

/** The literal text of a string argument, or `undefined` when it interpolates. */
function stringText(node: SyntaxNode): string | undefined {
  if (node.type !== "string") return undefined;
  const parts = namedChildren(node);
  if (parts.some((p) => p.type !== "string_content" && p.type !== "escape_sequence")) return undefined;
  return parts.map((p) => p.text).join("");
}

/** The import a `require`-like call makes, or `undefined` for any other node. */
function requireRef(node: SyntaxNode): ImportRef | undefined {
  if (node.type !== "call" || node.childForFieldName("receiver") !== null) return undefined;
  const method = node.childForFieldName("method")?.text ?? "";
  if (!REQUIRES.has(method)) return undefined;
  const arg = namedChildren(node.childForFieldName("arguments") ?? node)[method === "autoload" ? 1 : 0];
  if (arg === undefined) return undefined;
  const text = stringText(arg);
  const ref: ImportRef = { specifier: text ?? arg.text.split("\n")[0] ?? "", ...nodeLines(node) };
  const flags: string[] = [];
  if (method === "require_relative") flags.push(RELATIVE_REQUIRE_FLAG);
  if (method === "load") flags.push(LOAD_FLAG);
  if (text === undefined) flags.push("unresolved");
  if (flags.length > 0) ref.flags = flags;
  return ref;
}

/** Every require of the file, wherever it is (conditionals, method bodies, `begin` blocks), in order. */
export function requires(root: SyntaxNode): ImportRef[] {
  const out: ImportRef[] = [];
  visitNodes(root, (cursor) => {
    const ref = requireRef(cursor.currentNode);
    if (ref === undefined) return true;
    out.push(ref);
    return false;
  });
  return out;
}

