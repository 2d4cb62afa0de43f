/**
 * Human renderers. Every record starts with a `path:line` location that terminals and editors
 * can open, followed by its snippet lines numbered with their real (1-based) line numbers:
 *
 * ```
 * src/rag_chat.py:10  import rag_common
 *     10 │ from rag_common import load_index
 * ```
 *
 * A `reference` record names its caller (`reference in Session.request [call]`), or says
 * `reference at top level`.
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
import { CONCERN_WORDS, type ClaimConcern } from "../agent/claim-concern.js";
import { referencePlace, type Evidence } from "../evidence/evidence.js";
import { visibleText } from "../evidence/visible-text.js";
import type { Colors } from "./output.js";
import { SAME_DIR_VIEW, shellQuote, type RootView } from "./root-view.js";

/** The `path:line` location of a record (its first line), with the path as `view` shows it. */
function location(e: Evidence, view: RootView = SAME_DIR_VIEW): string {
  return `${shownPath(e.path, view)}:${e.start_line}`;
}

/** A repository-relative path as `view` shows it, control characters made visible. */
function shownPath(rel: string, view: RootView): string {
  return visibleText(view.show(rel));
}

function header(e: Evidence, c: Colors, view: RootView): string {
  const parts = [c.bold(c.cyan(location(e, view))), ""];
  let label: string = e.kind;
  // The caller is what a person asks of a use ("who calls it?").
  const place = referencePlace(e);
  if (e.kind === "definition") label = `${e.symbol_kind ?? "definition"} ${visibleText(e.name)}`;
  else if (e.kind === "import") label = `import ${visibleText(e.name)}${e.alias ? ` as ${visibleText(e.alias)}` : ""}`;
  else if (e.kind === "match") label = "match";
  else if (e.kind === "source") label = e.end_line > e.start_line ? `lines ${e.start_line}-${e.end_line}` : `line ${e.start_line}`;
  else if (e.kind === "diff") label = `hunk ${e.start_line}-${e.end_line}`;
  else if (place !== undefined) label = `reference ${visibleText(place)}`;
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
 * The summary line of a result: `4 results`, `showing 50 of 120 results` when records were left
 * out, `no results`. Cut snippets are marked on their records and said once in the command's note.
 */
export function renderSummary(shown: number, total: number): string {
  if (total === 0 && shown === 0) return "no results";
  const noun = total === 1 ? "result" : "results";
  return shown < total ? `showing ${shown} of ${total} ${noun}` : `${total} ${noun}`;
}

/** The sign and words of each citation status in human output. */
const STATUS_SIGNS = {
  supported: { sign: "✓", words: "supported" },
  seen: { sign: "~", words: "seen: shown to the model, but the sentence names nothing in these lines" },
  unseen: { sign: "?", words: "unseen: never shown to the model" },
  invalid: { sign: "✗", words: "invalid" },
  unchecked: { sign: "-", words: "unchecked" },
} as const;

type Status = keyof typeof STATUS_SIGNS;

/** A citation as the renderers read it (`ask --json` `citations[]`). */
interface RenderedCitation {
  path: string;
  line: number;
  end_line?: number;
  verified: boolean;
  status?: Status;
  resolved_from?: string;
  reason?: string;
  candidates?: string[];
  concern?: ClaimConcern;
}

function statusOf(x: RenderedCitation): Status {
  return x.status ?? (x.verified ? "supported" : "unseen");
}

/**
 * The citations block of `ask`: a heading with how many are verified (supported or seen), one
 * line per citation with its status sign (`✓` supported, `~` seen, `?` unseen, `✗` invalid,
 * `-` unchecked: past the grounding check's limits) and, for the last four, why (for a supported one with a `concern`, what to check); then a one-line summary (`3 supported · 1 seen · 1 invalid`).
 * Locations are shown as seen from the current directory.
 */
export function renderCitations(citations: ReadonlyArray<RenderedCitation>, c: Colors, view: RootView = SAME_DIR_VIEW): string {
  if (citations.length === 0) return `${c.bold("Citations:")} none\n`;
  const counts: Record<Status, number> = { supported: 0, seen: 0, unseen: 0, invalid: 0, unchecked: 0 };
  const verified = citations.filter((x) => x.verified).length;
  const lines = [`${c.bold("Citations:")} ${verified} of ${citations.length} verified`];
  for (const x of citations) {
    const status = statusOf(x);
    counts[status]++;
    const range = x.end_line !== undefined && x.end_line !== x.line ? `${x.line}-${x.end_line}` : `${x.line}`;
    const shown = shownPath(x.path, view);
    const where = `${shown}:${range}`;
    // How the model wrote a path resolved to another file, unless it wrote what is shown (a model asked from a
    // subfolder writes paths as seen from there, which is how they are shown).
    const from = x.resolved_from !== undefined && x.resolved_from !== shown ? c.dim(` (written ${visibleText(x.resolved_from)})`) : "";
    const { sign, words } = STATUS_SIGNS[status];
    if (status === "supported") {
      const check = x.concern !== undefined ? `  ${c.yellow(`supported, but check: ${CONCERN_WORDS[x.concern]}`)}` : "";
      lines.push(`  ${c.green(sign)} ${where}${from}${check}`);
    }
    else if (status === "seen") lines.push(`  ${c.yellow(sign)} ${where}${from}  ${c.yellow(words)}`);
    else {
      const why = x.reason !== undefined ? `: ${visibleText(x.reason)}` : "";
      lines.push(`  ${c.red(sign)} ${where}${from}  ${c.red(status === "invalid" || status === "unchecked" ? `${words}${why}` : words)}`);
    }
  }
  const summary = (Object.keys(counts) as Status[]).filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`);
  lines.push(summary.join(" · "));
  return `${lines.join("\n")}\n`;
}

/**
 * The plain warning `ask` prints on stderr when an answer's citations failed the check (after
 * the one re-ask): `undefined` when the grounding is `ok` or `none` and nothing is unseen or
 * invalid.
 */
export function groundingWarning(grounding: string, citations: ReadonlyArray<RenderedCitation>): string | undefined {
  const bad = citations.filter((x) => statusOf(x) === "unseen" || statusOf(x) === "invalid").length;
  if (grounding === "failed") {
    return citations.length === 0
      ? "this answer makes claims about the code but cites no location; do not trust it without checking"
      : "none of this answer's citations was shown to the model; do not trust it without checking";
  }
  if (bad > 0) return `${bad} of ${citations.length} citations of this answer were never shown to the model or do not exist; check them before trusting the answer`;
  return undefined;
}

/** `--verbose` details: the candidates of an ambiguous file name, and how bare names were resolved. */
export function citationDetails(citations: ReadonlyArray<RenderedCitation>): string[] {
  const out: string[] = [];
  for (const x of citations) {
    if (x.candidates && x.candidates.length > 0) out.push(`${visibleText(x.path)}:${x.line} could be: ${x.candidates.map((p) => visibleText(p)).join(", ")}`);
    else if (x.resolved_from !== undefined) out.push(`${visibleText(x.resolved_from)} resolved to ${visibleText(x.path)} (the only file with that name)`);
  }
  return out;
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
