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

/** The arguments of a call `File.<method>(…)`, or `undefined` for any other node. */
function fileCallArgs(node: SyntaxNode, method: string): SyntaxNode[] | undefined {
  if (node.type !== "call" || node.childForFieldName("receiver")?.text !== "File" || node.childForFieldName("method")?.text !== method) return undefined;
  return namedChildren(node.childForFieldName("arguments") ?? node);
}

/** Whether a node names the current file's folder: `__dir__` or `File.dirname(__FILE__)`. */
function isFileFolder(node: SyntaxNode | undefined): boolean {
  if (node === undefined) return false;
  if (node.type === "identifier" && node.text === "__dir__") return true;
  const args = fileCallArgs(node, "dirname");
  return args?.length === 1 && args[0]?.text === "__FILE__";
}

/**
 * The path, relative to the requiring file's folder, that a path built from the file's own place
 * names: `File.expand_path("x", __dir__)`, `File.expand_path("x", File.dirname(__FILE__))`,
 * `File.expand_path("../x", __FILE__)` (relative to the file itself: one `../` less), and
 * `File.join(__dir__, "a", "b")` / `File.join(File.dirname(__FILE__), "a")`. `undefined` for anything else.
 */
function fileRelativePath(node: SyntaxNode): string | undefined {
  const expand = fileCallArgs(node, "expand_path");
  if (expand?.length === 2) {
    const text = stringText(expand[0] as SyntaxNode);
    if (text === undefined) return undefined;
    if (isFileFolder(expand[1])) return text;
    if (expand[1]?.text === "__FILE__" && text.startsWith("../")) return text.slice(3);
    return undefined;
  }
  const join = fileCallArgs(node, "join");
  if (join === undefined || join.length < 2 || !isFileFolder(join[0])) return undefined;
  const parts = join.slice(1).map(stringText);
  return parts.every((t) => t !== undefined) ? parts.join("/") : undefined;
}

/** The import a `require`-like call makes, or `undefined` for any other node. */
function requireRef(node: SyntaxNode): ImportRef | undefined {
  if (node.type !== "call" || node.childForFieldName("receiver") !== null) return undefined;
  const method = node.childForFieldName("method")?.text ?? "";
  if (!REQUIRES.has(method)) return undefined;
  const arg = namedChildren(node.childForFieldName("arguments") ?? node)[method === "autoload" ? 1 : 0];
  if (arg === undefined) return undefined;
  const relative = method === "require_relative" ? undefined : fileRelativePath(arg);
  const text = relative ?? stringText(arg);
  const ref: ImportRef = { specifier: text ?? arg.text.split("\n")[0] ?? "", ...nodeLines(node) };
  const flags: string[] = [];
  if (method === "require_relative" || relative !== undefined) flags.push(RELATIVE_REQUIRE_FLAG);
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

