/**
 * Human renderers. Every record starts with a `path:line` location that terminals and editors
 * can open, followed by its snippet lines numbered with their real (1-based) line numbers:
 *
 * ```
 * src/rag_chat.py:10  import rag_common
 *     10 │ from rag_common import load_index
 * ```
 *
 * Diff hunks are shown as the hunk text, unnumbered. A record flagged `truncated` says so in
 * its header and ends with a marker: `…` after a cut line, or a line naming the lines not
 * shown and the `codecite read` command that shows them. Renderers return strings; callers
 * decide the stream (records → stdout, summaries and notes → stderr).
 *
 * Every value from a repository or a model (paths, names, snippet lines, flags) goes through
 * `visibleText` (`evidence/visible-text.ts`): control characters are shown as escapes, so file
 * content cannot drive the terminal and a file name holding a newline cannot forge a record.
 *
 * Paths go through a {@link RootView}: when `--root` is not the current directory, locations are
 * shown relative to the current directory (or absolute when shorter) and suggested commands carry
 * `--root <dir>`, so both work where the user is. The default view shows paths unchanged.
 */
import type { Evidence } from "../evidence/evidence.js";
import { visibleText } from "../evidence/visible-text.js";
import type { Colors } from "./output.js";
import { SAME_DIR_VIEW, shellQuote, type RootView } from "./root-view.js";

/** The `path:line` location of a record (its first line), with the path as `view` shows it. */
export function location(e: Evidence, view: RootView = SAME_DIR_VIEW): string {
  return `${shownPath(e.path, view)}:${e.start_line}`;
}

/** A repository-relative path as `view` shows it, control characters made visible. */
function shownPath(rel: string, view: RootView): string {
  return visibleText(view.show(rel));
}

function header(e: Evidence, c: Colors, view: RootView): string {
  const parts = [c.bold(c.cyan(location(e, view))), ""];
  let label: string = e.kind;
  if (e.kind === "definition") label = `${e.symbol_kind ?? "definition"} ${visibleText(e.name)}`;
  else if (e.kind === "import") label = `import ${visibleText(e.name)}${e.alias ? ` as ${visibleText(e.alias)}` : ""}`;
  else if (e.kind === "match") label = "match";
  else if (e.kind === "source") label = e.end_line > e.start_line ? `lines ${e.start_line}-${e.end_line}` : `line ${e.start_line}`;
  else if (e.kind === "diff") label = `hunk ${e.start_line}-${e.end_line}`;
  parts.push(c.dim(label));
  if (e.flags && e.flags.length > 0) parts.push(c.yellow(`[${visibleText(e.flags.join(", "))}]`));
  return parts.join(" ").replace(/ {2,}/, "  ");
}

/**
 * One record: header plus snippet lines (`NNNN │ text`), lines exact. When the record is
 * flagged `truncated`: if its snippet holds fewer lines than its range, a last line says which
 * (1-based, inclusive) lines are not shown and the `codecite read` command that shows them
 * (path shell-quoted, `--root` added when the root is not the current directory); otherwise its
 * last line was cut and ends with a dim `…`.
 */
export function renderEvidence(e: Evidence, c: Colors, view: RootView = SAME_DIR_VIEW): string {
  const lines = e.snippet.split("\n").map((l) => visibleText(l, { multiline: true }));
  if (e.kind === "diff") return [header(e, c, view), ...lines.map((l) => `    ${l}`)].join("\n");
  const width = Math.max(String(e.end_line).length, 4);
  const body = lines.map((l, i) => `  ${c.dim(`${String(e.start_line + i).padStart(width)} │`)} ${l}`);
  if (e.flags?.includes("truncated")) {
    const firstHidden = e.start_line + lines.length;
    if (firstHidden <= e.end_line) {
      const hidden = firstHidden === e.end_line ? `line ${firstHidden}` : `lines ${firstHidden}-${e.end_line}`;
      const command = `codecite read ${visibleText(shellQuote(e.path))}${view.rootOption} --start-line ${firstHidden} --end-line ${e.end_line}`;
      body.push(`  ${" ".repeat(width)} ${c.dim(`┆ … ${hidden} not shown: ${command}`)}`);
    } else {
      body[body.length - 1] += c.dim(" …");
    }
  }
  return [header(e, c, view), ...body].join("\n");
}

/** Records separated by blank lines, ending with a newline ("" for none). */
export function renderEvidenceList(records: readonly Evidence[], c: Colors, view: RootView = SAME_DIR_VIEW): string {
  return records.length === 0 ? "" : `${records.map((e) => renderEvidence(e, c, view)).join("\n\n")}\n`;
}

/**
 * The summary line of a result: `4 results`, `showing 50 of 120 results (truncated)` when
 * records were left out, `1 result (snippets cut)` when every record is shown but some
 * snippets were shortened, `no results`.
 */
export function renderSummary(shown: number, total: number, truncated: boolean): string {
  if (total === 0 && shown === 0) return "no results";
  const noun = total === 1 ? "result" : "results";
  if (shown < total) return `showing ${shown} of ${total} ${noun} (truncated)`;
  return truncated ? `${total} ${noun} (snippets cut)` : `${total} ${noun}`;
}

/**
 * Citations, each marked `✓` (verified) or `✗ … unverified`, with a count line first; each
 * `path:line` with the path as `view` shows it.
 */
export function renderCitations(
  citations: ReadonlyArray<{ path: string; line: number; verified: boolean }>,
  c: Colors,
  view: RootView = SAME_DIR_VIEW,
): string {
  if (citations.length === 0) return `${c.bold("Citations:")} none\n`;
  const ok = citations.filter((x) => x.verified).length;
  const lines = [`${c.bold("Citations:")} ${ok} of ${citations.length} verified`];
  for (const x of citations) {
    lines.push(
      x.verified
        ? `  ${c.green("✓")} ${shownPath(x.path, view)}:${x.line}`
        : `  ${c.red("✗")} ${shownPath(x.path, view)}:${x.line}  ${c.red("unverified: not in the evidence gathered")}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

interface SchemaProperty {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
}

/** One tool definition for humans: name, description, one line per parameter. */
export function renderToolDefinition(
  def: { function: { name: string; description: string; parameters: Record<string, unknown> } },
  c: Colors,
): string {
  const params = def.function.parameters;
  const props = (params.properties ?? {}) as Record<string, SchemaProperty>;
  const required = new Set(Array.isArray(params.required) ? (params.required as string[]) : []);
  const lines = [`${c.bold(def.function.name)}  ${def.function.description}`];
  for (const [name, p] of Object.entries(props)) {
    const facts: string[] = [Array.isArray(p.type) ? p.type.join("|") : (p.type ?? "any")];
    if (required.has(name)) facts.push("required");
    if (p.enum) facts.push(`one of ${p.enum.map(String).join("|")}`);
    if (p.minimum !== undefined && p.maximum !== undefined) facts.push(`${p.minimum}..${p.maximum}`);
    if (p.default !== undefined) facts.push(`default ${JSON.stringify(p.default)}`);
    lines.push(`  ${c.cyan(name)} (${facts.join(", ")})${p.description ? `  ${p.description}` : ""}`);
  }
  return lines.join("\n");
}
