/**
 * The line range reported for an import written as a call (`require("x")`, `import("x")`,
 * `importlib.import_module("x")`): the enclosing statement when the call is that statement's
 * substance (`const x = require("x")`), else the call itself, so that one `require` inside a long
 * object literal does not report the whole literal.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import { nodeLines, type LineRange } from "./syntax.js";

/** How many lines a statement may run past the call and still be reported whole. */
const MAX_EXTRA_LINES = 2;

/** Node types that end an upward walk: a block boundary; nothing above is "the statement". */
const BLOCKS = new Set(["program", "module", "statement_block", "block", "class_body", "switch_body"]);

function isStatement(type: string): boolean {
  return type.endsWith("_statement") || type.endsWith("_declaration") || type === "decorated_definition";
}

/**
 * 1-based lines of the statement holding `call` when that statement starts on the call's first line
 * and ends at most {@link MAX_EXTRA_LINES} lines after the call; otherwise the call's own lines.
 * Walks up at most 20 ancestors.
 */
export function callStatementLines(call: SyntaxNode): LineRange {
  const own = nodeLines(call);
  let node: SyntaxNode | null = call.parent;
  for (let depth = 0; node !== null && depth < 20; depth++, node = node.parent) {
    if (BLOCKS.has(node.type)) break;
    if (isStatement(node.type)) {
      const lines = nodeLines(node);
      if (lines.start_line === own.start_line && lines.end_line <= own.end_line + MAX_EXTRA_LINES) return lines;
      break;
    }
  }
  return own;
}

/** The first line of a node's text, cut to `max` characters (for a non-literal specifier). */
export function shortText(node: SyntaxNode, max = 80): string {
  const line = node.text.split("\n", 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
