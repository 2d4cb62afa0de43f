/**
 * The text `content` that accompanies each MCP tool result. Many MCP clients hand only the
 * text blocks to their model and ignore `structuredContent`, so the text must carry the
 * evidence itself: a count line, then one `path:line` (or `path:start-end`) heading per record
 * with its kind and name (a reference: its caller), followed by the exact snippet lines, each after two spaces and its line
 * number (`  12 | def f():`, numbers right-aligned within the record; a diff hunk's lines are not
 * file lines and carry none), then the note. Failures read `ERROR CODE: message` plus the hint. The tools already cap their output
 * for small contexts, so nothing is cut here.
 *
 * One-line fields (path, kind, name, flags, note, error message and hint) go through
 * `visibleText`: a file name holding a newline or an escape sequence is shown as `\n` / `\x1b`,
 * so it can never forge a heading or a record. Snippet lines keep their text exactly (the
 * structured content carries the same evidence), except that control characters other than a
 * tab are shown as escapes too.
 */
import { referencePlace, visibleText, type Evidence } from "../tools/index.js";
import type { DispatchResult } from "../tools/registry.js";

/** `path:line` for one-line records, `path:start-end` otherwise (editor-openable). */
function location(e: Evidence): string {
  const p = visibleText(e.path);
  return e.start_line === e.end_line ? `${p}:${e.start_line}` : `${p}:${e.start_line}-${e.end_line}`;
}

/**
 * `path:line kind name [flags]`; a reference names its caller instead, as the CLI does
 * (`reference in Sinatra.Base.head [call]`, `reference at top level`), and the definition it uses
 * too (`reference to X in Y`) when the result holds uses of several definitions.
 */
function heading(e: Evidence, severalTargets: boolean): string {
  const kind = e.symbol_kind ? `${e.kind} ${e.symbol_kind}` : e.kind;
  const flags = e.flags && e.flags.length > 0 ? ` [${visibleText(e.flags.join(", "))}]` : "";
  const place = referencePlace(e);
  if (place === undefined) return `${location(e)} ${kind} ${visibleText(e.name)}${flags}`;
  const target = severalTargets ? ` to ${visibleText(e.name)}` : "";
  return `${location(e)} ${kind}${target} ${visibleText(place)}${flags}`;
}

/** Renders a dispatch result as the text block of an MCP `CallToolResult`. */
export function summarizeResult(result: DispatchResult): string {
  if (!result.ok) {
    const hint = result.error.hint ? `\nHint: ${visibleText(result.error.hint)}` : "";
    return `ERROR ${result.error.code}: ${visibleText(result.error.message)}${hint}`;
  }
  if (!("evidence" in result)) return JSON.stringify(result.result, null, 2);
  const n = result.evidence.length;
  const count =
    n === result.total
      ? `${n} result${n === 1 ? "" : "s"}.`
      : `${n} of ${result.total} results${result.truncated ? " (truncated; narrow the query for the rest)" : ""}.`;
  const lines = [count];
  const severalTargets = new Set(result.evidence.filter((e) => e.kind === "reference").map((e) => e.name)).size > 1;
  for (const e of result.evidence) {
    lines.push(heading(e, severalTargets));
    const snippet = e.snippet.split("\n");
    const width = String(e.start_line + snippet.length - 1).length;
    snippet.forEach((l, i) => {
      const gutter = e.kind === "diff" ? "" : `${String(e.start_line + i).padStart(width)} | `;
      lines.push(`  ${gutter}${visibleText(l, { multiline: true })}`);
    });
  }
  if (result.note) lines.push(`Note: ${visibleText(result.note)}`);
  return lines.join("\n");
}
