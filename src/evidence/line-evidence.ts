/**
 * Builds evidence records from a file's lines, with the exact-snippet rules of ARCHITECTURE.md
 * "Evidence" and the line rules of `text-file.ts` (a lone `\r` is shown as `\n` and flagged
 * `bare_cr`; invisible or bidi characters flag `invisible_unicode`).
 */
import type { Evidence, EvidenceFlag } from "./evidence.js";
import { BARE_CR_FLAG, cutText, hasInvisibleUnicode, snippetLine } from "./sandbox/text-file.js";

/**
 * One record for lines `start_line..end_line` (1-based, inclusive; clamped to the file) of `lines`,
 * with the given kind, name and optional fields. Flags from `fields.flags` come first.
 */
export function linesEvidence(
  path: string,
  lines: readonly string[],
  start_line: number,
  end_line: number,
  fields: Omit<Evidence, "path" | "start_line" | "end_line" | "snippet">,
): Evidence {
  const last = Math.max(1, lines.length);
  const start = Math.min(Math.max(1, start_line), last);
  const end = Math.min(Math.max(start, end_line), last);
  return rangeEvidence(path, lines.slice(start - 1, end), start, end, fields);
}

/**
 * {@link linesEvidence} for a range whose first line is long (minified code): that line is shown
 * as the window of at most `maxChars` characters around `column` (the definition's name sits a
 * quarter into it), exact text, and the record is flagged `truncated`; the other lines are kept
 * (the output budget cuts them as usual).
 * @param column 0-based UTF-16 column on `start_line`.
 */
export function linesEvidenceAround(
  path: string,
  lines: readonly string[],
  start_line: number,
  end_line: number,
  column: number,
  maxChars: number,
  fields: Omit<Evidence, "path" | "start_line" | "end_line" | "snippet">,
): Evidence {
  const last = Math.max(1, lines.length);
  const start = Math.min(Math.max(1, start_line), last);
  const end = Math.min(Math.max(start, end_line), last);
  const range = lines.slice(start - 1, end);
  const cut = cutText(range[0] ?? "", maxChars, column);
  if (!cut.cut) return rangeEvidence(path, range, start, end, fields);
  range[0] = cut.text;
  const flags: EvidenceFlag[] = [...(fields.flags ?? [])];
  if (!flags.includes("truncated")) flags.push("truncated");
  return rangeEvidence(path, range, start, end, { ...fields, flags });
}

/**
 * Like {@link linesEvidence} for a range whose lines are already at hand: `rangeLines[i]` is line
 * `start_line + i` of the file (as `TextFile.lines` gives it), `end_line ≥ start_line`, 1-based.
 */
export function rangeEvidence(
  path: string,
  rangeLines: readonly string[],
  start: number,
  end: number,
  fields: Omit<Evidence, "path" | "start_line" | "end_line" | "snippet">,
): Evidence {
  const flags: EvidenceFlag[] = [...(fields.flags ?? [])];
  const shown: string[] = [];
  for (let i = start; i <= end; i++) {
    const raw = rangeLines[i - start] ?? "";
    const s = snippetLine(raw);
    if (s.bareCr && !flags.includes(BARE_CR_FLAG)) flags.push(BARE_CR_FLAG);
    if (!flags.includes("invisible_unicode") && hasInvisibleUnicode(raw)) flags.push("invisible_unicode");
    shown.push(s.text);
  }
  // contract order: path, start_line, end_line, kind, name, snippet, then optional fields
  const out: Evidence = { path, start_line: start, end_line: end, kind: fields.kind, name: fields.name, snippet: shown.join("\n") };
  if (fields.language !== undefined) out.language = fields.language;
  if (fields.symbol_kind !== undefined) out.symbol_kind = fields.symbol_kind;
  if (fields.alias !== undefined) out.alias = fields.alias;
  if (fields.context !== undefined) out.context = fields.context;
  if (flags.length > 0) out.flags = flags;
  return out;
}
