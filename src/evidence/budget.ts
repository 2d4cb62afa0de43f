/**
 * Output budgets for small models :
 * every tool result should fit an 8K-token context next to the conversation.
 *
 * {@link applyBudget} works on any `Evidence[]` and applies, in order:
 * 1. **records**: at most `maxResults` records (default {@link DEFAULT_MAX_RESULTS});
 * 2. **snippets**: each snippet cut to its first `maxSnippetLines` lines (default
 *    {@link DEFAULT_SNIPPET_LINES}) and each line to `maxLineChars` characters; a cut record gets the
 *    flag `truncated`, keeps its full `start_line`/`end_line`, and the lines shown stay exact
 *    (ARCHITECTURE.md "Evidence");
 * 3. **ladder** when the serialized result is still over `maxBytes` (default
 *    {@link DEFAULT_MAX_BYTES}, UTF-8 bytes of the JSON envelope): every record with the first line
 *    of its snippet only → the first record of each file, then the next records in order while
 *    they fit (first lines only), with the counts of the files whose records are not all shown in
 *    `note` → as many first records as fit. The `note` says which form was used. Nothing is cut
 *    silently.
 *
 * Notes advise only what the calling tool has: raising `max_results` (below {@link MAX_RESULTS_LIMIT}) and
 * the parameters in `narrowWith`; with none, `read_evidence` for the rest of the files.
 *
 * `total` is always the true number of records found (or the caller's larger count).
 */
import { CUT_MARK, advice, joinAdvice, oneClause, param, renderForModel, tool, type AdviceText } from "./advice.js";
import type { Evidence, EvidenceFlag, EvidenceResult } from "./evidence.js";

/** Records returned when the caller gives no `max_results`. */
export const DEFAULT_MAX_RESULTS = 50;
/** Snippet lines kept per record before the ladder. */
const DEFAULT_SNIPPET_LINES = 12;
/** Characters kept per snippet line. */
export const DEFAULT_LINE_CHARS = 300;
/**
 * Characters (UTF-16 code units) of all snippets, paths and names of one `search_code` or `read_git_diff`
 * result together, the tools that cut their own records as they collect them: fits an 8K context.
 */
export const RESULT_TEXT_CHARS = 16_000;
/** Serialized size (UTF-8 bytes of the envelope JSON) above which the ladder starts: about 3–4K tokens. */
const DEFAULT_MAX_BYTES = 12_000;

export interface BudgetOptions {
  maxResults?: number;
  maxSnippetLines?: number;
  maxLineChars?: number;
  maxBytes?: number;
  /** The true count when the caller already stopped collecting early (≥ `evidence.length`). */
  total?: number;
  /** A note to keep in front of the budget's own note (e.g. how a query was read). */
  note?: AdviceText;
  /**
   * Parameters of the calling tool that narrow its query (`["path", "kind"]` for `find_symbol`).
   * Notes advise only these and `max_results`. Absent → none.
   */
  narrowWith?: readonly string[];
}

/**
 * How much of a result the caller wants: the budget above (the default, sized for a model), or
 * with `all` every record with whole snippets and no byte limit (a person at a terminal:
 * `codecite … --all`); `maxSnippetLines` still cuts each snippet to that many lines then.
 * The tools' own caps (records, characters, lines) are lifted the same way.
 */
export interface OutputScope {
  all?: boolean;
  /** With `all`: snippet lines kept per record (default: every line). */
  maxSnippetLines?: number;
}

/** `opts` for {@link applyBudget} under `scope`: unchanged without `all`; with it, no record, byte or line-length limit. */
export function scopedBudget(opts: BudgetOptions, scope: OutputScope | undefined): BudgetOptions {
  if (scope?.all !== true) return opts;
  return { ...opts, maxResults: Infinity, maxBytes: Infinity, maxLineChars: Infinity, maxSnippetLines: scope.maxSnippetLines ?? Infinity };
}

/** The largest `max_results` the tools accept (their schemas in `src/tools/code-tools.ts`, the CLI's `--max-results`). */
export const MAX_RESULTS_LIMIT = 200;

/** The form {@link applyBudget} settled on. */
export type BudgetForm = "full" | "first_lines" | "per_file";

const TRUNCATED: EvidenceFlag = "truncated";

function withFlag(e: Evidence, flag: EvidenceFlag): Evidence {
  if (e.flags?.includes(flag)) return e;
  return { ...e, flags: [...(e.flags ?? []), flag] };
}

/** Cuts a line to `max` UTF-16 code units without splitting a surrogate pair. */
function cutLine(line: string, max: number): { text: string; cut: boolean } {
  if (line.length <= max) return { text: line, cut: false };
  let end = max;
  const c = line.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return { text: line.slice(0, end), cut: true };
}

/**
 * How many leading lines of a definition's snippet it takes to reach the line that names it:
 * the decorator, annotation or attribute lines before it (`@app.route(...)` in Python and
 * TypeScript, `@Override` in Java, `#[derive(...)]` in Rust, also spread over several lines
 * while a bracket they opened is open, with blank and comment lines between), plus that line.
 * 1 when the snippet does not start with one.
 */
export function definitionHeadLines(snippetLines: readonly string[]): number {
  let depth = 0;
  let sawDecorator = false;
  for (let i = 0; i < snippetLines.length; i++) {
    const t = (snippetLines[i] as string).trim();
    const starts = depth === 0 && (t.startsWith("@") || t.startsWith("#[") || t.startsWith("#!["));
    if (depth === 0 && !starts) {
      if (!sawDecorator) return 1;
      if (t === "" || t.startsWith("#") || t.startsWith("//") || t.startsWith("/*") || t.startsWith("*")) continue;
      return i + 1;
    }
    sawDecorator = true;
    for (const ch of t) {
      if (ch === "(" || ch === "[" || ch === "{") depth++;
      else if ((ch === ")" || ch === "]" || ch === "}") && depth > 0) depth--;
    }
  }
  return 1;
}

/**
 * A copy of `e` whose snippet holds at most `lines` lines of at most `chars` characters. A
 * definition keeps at least the lines down to the one that names it ({@link definitionHeadLines}),
 * so a decorated definition always shows its `def`/`class` line.
 */
export function cutSnippet(e: Evidence, lines: number, chars: number): Evidence {
  const all = e.snippet.split("\n");
  if (e.kind === "definition") lines = Math.max(lines, definitionHeadLines(all));
  let cut = all.length > lines;
  const kept = all.slice(0, lines).map((l) => {
    const r = cutLine(l, chars);
    if (r.cut) cut = true;
    return r.text;
  });
  if (!cut) return e;
  return withFlag({ ...e, snippet: kept.join("\n") }, TRUNCATED);
}

function joinNotes(...notes: (AdviceText | undefined)[]): AdviceText | undefined {
  const kept = joinAdvice(...notes);
  return kept.length > 0 ? kept : undefined;
}

function sizeOf(evidence: Evidence[], total: number, truncated: boolean, note: AdviceText | undefined): number {
  const env: Record<string, unknown> = { ok: true, evidence, total, truncated };
  if (note !== undefined) env.note = renderForModel(note);
  return Buffer.byteLength(JSON.stringify(env), "utf8");
}

/**
 * Applies the budget (see the module comment) to records already in their final order.
 * @returns the envelope fields, with `form` telling which rung of the ladder was used.
 */
export function applyBudget(evidence: readonly Evidence[], opts: BudgetOptions = {}): EvidenceResult & { form: BudgetForm } {
  const maxResults = Math.max(1, opts.maxResults ?? DEFAULT_MAX_RESULTS);
  const maxLines = Math.max(1, opts.maxSnippetLines ?? DEFAULT_SNIPPET_LINES);
  const maxChars = Math.max(20, opts.maxLineChars ?? DEFAULT_LINE_CHARS);
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const total = Math.max(opts.total ?? 0, evidence.length);

  const capped = evidence.slice(0, maxResults);
  const narrowList = opts.narrowWith !== undefined && opts.narrowWith.length > 0 ? ({ kind: "param_list", params: opts.narrowWith } as const) : undefined;
  const canRaise = maxResults < MAX_RESULTS_LIMIT;
  const shown = `Showing ${capped.length} of ${total} records`;
  const countNote =
    capped.length >= total
      ? undefined
      : narrowList !== undefined && canRaise
        ? advice`${shown}; narrow the query ${narrowList} or raise ${param("max_results")} to see more.`
        : narrowList !== undefined
          ? advice`${shown}; narrow the query ${narrowList} to see more.`
          : canRaise
            ? advice`${shown}; raise ${param("max_results")} to see more.`
            : advice`${shown} (${param("max_results")} is at its limit, ${MAX_RESULTS_LIMIT}).`;

  let records = capped.map((e) => cutSnippet(e, maxLines, maxChars));
  let cut = records.some((r, i) => r !== capped[i]);
  let note = joinNotes(opts.note, countNote, cut ? oneClause(advice`Snippets longer than ${maxLines} lines were cut ${CUT_MARK}; ${tool("read_evidence")} shows whole ranges.`) : undefined);
  if (sizeOf(records, total, cut || capped.length < total, note) <= maxBytes) {
    return { evidence: records, total, truncated: cut || capped.length < total, ...(note ? { note } : {}), form: "full" };
  }

  // Rung 2: first lines only.
  records = capped.map((e) => cutSnippet(e, 1, maxChars));
  cut = records.some((r, i) => r !== capped[i]);
  note = joinNotes(
    opts.note,
    countNote,
    oneClause(advice`Output was too large, so each snippet shows only its first line ${CUT_MARK}; ${tool("read_evidence")} shows whole ranges.`),
  );
  if (cut && sizeOf(records, total, true, note) <= maxBytes) {
    return { evidence: records, total, truncated: true, ...(note ? { note } : {}), form: "first_lines" };
  }

  // Rung 3: the first record of each file, then the next records (of the first `maxResults`) in
  // order while they fit; first lines only; the files with records not shown, with counts, in the note.
  const perFile = new Map<string, { first: Evidence; count: number }>();
  for (const e of evidence) {
    const slot = perFile.get(e.path);
    if (slot === undefined) perFile.set(e.path, { first: e, count: 1 });
    else slot.count++;
  }
  const files = [...perFile.entries()];
  let listedMax = files.length;
  const buildNote = (kept: readonly Evidence[], firsts: number) => {
    const shownIn = new Map<string, number>();
    for (const e of kept) shownIn.set(e.path, (shownIn.get(e.path) ?? 0) + 1);
    const partial = files.filter(([p, s]) => (shownIn.get(p) ?? 0) < s.count).map(([p, s]) => `${p} (${s.count})`);
    const listed = `${partial.slice(0, listedMax).join(", ")}${listedMax < partial.length ? `, … (${partial.length - listedMax} more files)` : ""}`;
    const extra = kept.length > firsts ? `, then ${kept.length - firsts} more in order` : "";
    return joinNotes(
      opts.note,
      advice`Output was too large: ${total} records in ${files.length} files; showing the first record of ${firsts} files${extra}, with first lines only.`,
      partial.length > 0 ? advice`Records per file where some are not shown: ${listed}.` : undefined,
      partial.length === 0 ? undefined : narrowList !== undefined ? advice`Narrow the query ${narrowList} to see the rest.` : advice`${tool("read_evidence")} shows the rest of those files.`,
    ) as AdviceText;
  };
  const firstRecords = files.slice(0, maxResults).map(([, s]) => s.first);
  let kept = firstRecords.map((e) => cutSnippet(e, 1, maxChars));
  // Shrink the count list first, then the records, until the envelope fits.
  while (listedMax > 10 && sizeOf(kept, total, true, buildNote(kept, kept.length)) > maxBytes) listedMax = Math.max(10, Math.floor(listedMax / 2));
  while (kept.length > 1 && sizeOf(kept, total, true, buildNote(kept, kept.length)) > maxBytes) kept = kept.slice(0, Math.max(1, Math.floor(kept.length * 0.75)));
  const firsts = kept.length;
  if (firsts === firstRecords.length) {
    // Every file's first record fits: add the other records of the first `maxResults`, in order, while they fit.
    const isFirst = new Set<Evidence>(firstRecords);
    const pool = evidence.filter((e, i) => i < maxResults || isFirst.has(e)).map((e) => ({ e, cut: cutSnippet(e, 1, maxChars) }));
    const chosen = new Set<Evidence>(firstRecords);
    for (const e of capped) {
      if (chosen.has(e)) continue;
      chosen.add(e);
      const trial = pool.filter((p) => chosen.has(p.e)).map((p) => p.cut);
      if (sizeOf(trial, total, true, buildNote(trial, firsts)) > maxBytes) break;
      kept = trial;
    }
  }
  return { evidence: kept, total, truncated: true, note: buildNote(kept, firsts), form: "per_file" };
}

/**
 * Which records {@link applyBudget} can show, by index, for records already in evidence order
 * (given as their paths): the first `maxResults` records, and the first record of each of the
 * first `maxResults` files (the per-file rung). Callers read snippets for these only; the other
 * records count in `total` and per-file counts, and their snippets are never shown.
 */
export function recordsShown(paths: readonly string[], maxResults: number = DEFAULT_MAX_RESULTS): Set<number> {
  const max = Math.max(1, maxResults);
  const shown = new Set<number>();
  const files = new Set<string>();
  paths.forEach((p, i) => {
    if (i < max) shown.add(i);
    if (!files.has(p) && files.size < max) {
      files.add(p);
      shown.add(i);
    }
  });
  return shown;
}
