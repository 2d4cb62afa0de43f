/**
 * Small text-scanning helpers shared by the dialect parsers and the pipeline stages (inline JSON,
 * residue, stream filter). All indices are UTF-16 offsets.
 */

import type { Span } from "../types.js";

/** Index of the first non-whitespace character at or after `i`, or `limit` (default `text.length`) if none before it. */
export function skipWs(text: string, i: number, limit = text.length): number {
  while (i < limit && /\s/.test(text[i]!)) i++;
  return i;
}

/** Index just after the last non-whitespace character before `i`, or `limit` (default 0) if none after it. */
export function skipWsBack(text: string, i: number, limit = 0): number {
  while (i > limit && /\s/.test(text[i - 1]!)) i--;
  return i;
}

/** The earliest occurrence at or after `from` of any of `tokens` (ties: the longest token). */
export function findEarliest(
  text: string,
  tokens: readonly string[],
  from = 0,
): { index: number; token: string } | undefined {
  let best: { index: number; token: string } | undefined;
  for (const token of tokens) {
    const index = text.indexOf(token, from);
    if (index < 0) continue;
    if (!best || index < best.index || (index === best.index && token.length > best.token.length)) best = { index, token };
  }
  return best;
}

/**
 * {@link findEarliest} for many searches of one text: each token's next occurrence is remembered
 * with the position it was searched from, and searched again only when a search starts past it
 * (or before where it was searched from). A scan that asks from ever later positions, for a
 * token that is absent or far away, costs one pass per token, not one pass per question.
 */
export function earliestFinder(
  text: string,
  tokens: readonly string[],
): (from?: number) => { index: number; token: string } | undefined {
  const searched = tokens.map(() => ({ from: -1, index: -1 }));
  return (from = 0) => {
    let best: { index: number; token: string } | undefined;
    tokens.forEach((token, k) => {
      const memo = searched[k]!;
      if (memo.from < 0 || from < memo.from || (memo.index >= 0 && memo.index < from)) {
        memo.from = from;
        memo.index = text.indexOf(token, from);
      }
      const index = memo.index;
      if (index < 0) return;
      if (!best || index < best.index || (index === best.index && token.length > best.token.length)) best = { index, token };
    });
    return best;
  };
}

/**
 * `text` with every span's characters replaced by spaces (same length, so offsets stay valid).
 * Built in one pass over the spans in text order (overlapping spans are merged first), so many
 * spans cost one copy of the text, not one per span.
 */
export function blankSpans(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const s of mergeRanges(spans)) {
    const start = Math.max(s.start, at);
    const end = Math.min(s.end, text.length);
    if (end <= start) continue;
    parts.push(text.slice(at, start), " ".repeat(end - start));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/** The first of `tokens` that `text` has at position `i`, if any (longest first). */
export function tokenAt(text: string, i: number, tokens: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const t of tokens) if (text.startsWith(t, i) && (!best || t.length > best.length)) best = t;
  return best;
}

/** Whether `text` contains any of `tokens`. */
export function containsAny(text: string, tokens: readonly string[]): boolean {
  return tokens.some((t) => text.includes(t));
}

/** Escape a literal for use inside a `RegExp`. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * All spellings of a DeepSeek/Step-style special token: the full-width bar `｜` (U+FF5C) and the
 * ASCII `|`, and for `▁` (U+2581) also `_` and a plain space when `lowLine` is set.
 * `token` is written with ASCII `|` and `▁`, e.g. `<|tool▁calls▁begin|>`.
 */
export function tokenSpellings(token: string, opts: { lowLine?: boolean } = {}): string[] {
  const bars = [token, token.replace(/\|/g, "｜")];
  if (!opts.lowLine || !token.includes("▁")) return bars;
  return bars.flatMap((t) => [t, t.replace(/▁/g, "_")]);
}

/**
 * Parse XML-ish attributes (`name="x" id='y' flag`) into a map; values unquoted and not
 * entity-decoded (models write raw text). Later duplicates win.
 */
export function parseAttributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([\w:.-]+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(source)) !== null) out[m[1]!] = m[2] ?? m[3] ?? m[4] ?? "";
  return out;
}

/**
 * Clean a raw XML-ish value the way Qwen3-Coder/GLM/MiniMax parsers do: drop one leading line
 * break (and spaces before it) and one trailing line break (and the indentation after it); a
 * value on a single line is trimmed. Backslashes, quotes, `&`, `<`, `>` stay literal
 * (in XML formats backslashes are literal: vLLM `qwen3_coder` tool parser).
 */
export function cleanXmlValue(raw: string): string {
  let v = raw.replace(/^[ \t]*\r?\n/, "").replace(/\r?\n[ \t]*$/, "");
  if (!/[\r\n]/.test(v)) v = v.trim();
  return v;
}

/** A run of backticks: where it starts and how many backticks it has. */
export interface BacktickRun {
  at: number;
  length: number;
}

/**
 * The backtick runs of `text[from, to)` (CommonMark 0.31 §6.1 "backtick strings": maximal runs),
 * in text order. One pass.
 */
export function backtickRuns(text: string, from = 0, to = text.length): BacktickRun[] {
  const out: BacktickRun[] = [];
  let i = text.indexOf("`", from);
  while (i >= 0 && i < to) {
    let j = i + 1;
    while (j < to && text[j] === "`") j++;
    out.push({ at: i, length: j - i });
    i = text.indexOf("`", j);
  }
  return out;
}

/**
 * Pairs backtick runs into code spans the CommonMark way (§6.1: a span begins with a backtick
 * string and ends with the next backtick string of equal length; a string without one is
 * literal): for each opener (left to right, outside spans already taken) the next run of the
 * same length, kept when `accept` agrees; a refused or unmatched opener is literal and the scan
 * goes on after it. Linear: the next run of each length is precomputed, and `accept` sees
 * openers in increasing order.
 * @returns `[open, close]` index pairs into `runs`.
 */
export function pairBacktickRuns(runs: readonly BacktickRun[], accept: (open: BacktickRun, close: BacktickRun) => boolean): [number, number][] {
  const nextSame = new Array<number>(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    const len = runs[k]!.length;
    nextSame[k] = seen.get(len) ?? -1;
    seen.set(len, k);
  }
  const out: [number, number][] = [];
  for (let k = 0; k < runs.length; k++) {
    const close = nextSame[k]!;
    if (close < 0 || !accept(runs[k]!, runs[close]!)) continue;
    out.push([k, close]);
    k = close;
  }
  return out;
}

/**
 * Markdown inline code spans on one line: a run of one or two backticks up to the next run of
 * the same length on the same line. Runs of three or more are fences, not inline code.
 * Linear in the text length ({@link pairBacktickRuns}).
 * @returns the spans' inner ranges `[start, end)`, in text order.
 */
export function inlineCodeRanges(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  if (!text.includes("`")) return out;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const nl = text.indexOf("\n", lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    const runs = backtickRuns(text, lineStart, lineEnd);
    for (const [o, c] of pairBacktickRuns(runs, (open) => open.length < 3)) {
      out.push({ start: runs[o]!.at + runs[o]!.length, end: runs[c]!.at });
    }
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return out;
}

/**
 * Whether a lone marker at `[start, end)` — one with no call after it — stands inside a line of
 * prose: the same line has text on both sides that is not another special token (a table cell
 * `| Kimi | <|tool_calls_section_begin|> |`, a sentence naming the token). Such a marker is quoted,
 * not leaked markup, and stays visible (quoted markers: aosama/astronomical issue #346).
 */
export function standsInProse(text: string, start: number, end: number): boolean {
  // Only the nearest non-blank character on each side within the line is looked at (and the token
  // it ends or starts), not the whole line: a line of many markers costs one pass, not one per marker.
  let b = start - 1;
  while (b >= 0 && text[b] !== "\n" && /\s/.test(text[b]!)) b--;
  let a = end;
  while (a < text.length && text[a] !== "\n" && /\s/.test(text[a]!)) a++;
  if (b < 0 || text[b] === "\n" || a >= text.length || text[a] === "\n") return false;
  return !endsInToken(text, b) && !AFTER_IS_TOKEN.test(text.slice(a, a + 2)) && !startsBracketToken(text, a);
}

/** `<|`, `</|` (or full-width bars) opening the text after a marker. */
const AFTER_IS_TOKEN = /^<\/?[|｜]/;

/** Whether the text through `b` ends in a special token: `|>` or `[NAME]`/`[/NAME]` (NAME of `A-Z_`). */
function endsInToken(text: string, b: number): boolean {
  if (text[b] === ">") return text[b - 1] === "|" || text[b - 1] === "｜";
  if (text[b] !== "]") return false;
  let j = b - 1;
  while (j >= 0 && /[A-Z_]/.test(text[j]!)) j--;
  if (j === b - 1) return false;
  if (text[j] === "/") j--;
  return text[j] === "[";
}

/** Whether `[NAME]` or `[/NAME]` (NAME of `A-Z_`) starts at `a`. */
function startsBracketToken(text: string, a: number): boolean {
  if (text[a] !== "[") return false;
  let j = a + 1;
  if (text[j] === "/") j++;
  const first = j;
  while (j < text.length && /[A-Z_]/.test(text[j]!)) j++;
  return j > first && text[j] === "]";
}

/** Text ending in another format's opening marker: a special token, a tag, `[TOOL_CALLS]`, `functools`. */
const FRAMED = /(?:<[|｜][^<>\n]{1,40}[|｜]>|<[\w:.-]+(?:\s[^<>]*)?>|\[TOOL_CALLS\]|functools)\s*$/;

/**
 * Whether the payload starting at `start` directly follows another format's opening marker
 * (`<|tool_call_start|>`, `[TOOL_CALLS]`, `functools`, `<tool_calls>` …). Dialects that also read
 * bare, marker-less payloads (pythonic lists, Python-dict lists) leave such a payload to the
 * format whose marker it is, which removes the marker with it.
 */
export function framedByMarker(text: string, start: number): boolean {
  return FRAMED.test(text.slice(Math.max(0, start - 80), start));
}

/** `ranges` sorted by start, overlapping or touching ones merged (new objects; the input is not changed). */
export function mergeRanges(ranges: readonly Span[]): Span[] {
  const merged: Span[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ start: r.start, end: r.end });
  }
  return merged;
}

/**
 * A growing set of text positions, kept as sorted disjoint ranges: whether a span shares a
 * character with the set is a binary search, so checking many spans against many is not a scan of
 * one list per span.
 */
export class SpanSet {
  private readonly ranges: Span[] = [];

  constructor(spans: readonly Span[] = []) {
    this.ranges = mergeRanges(spans.filter((s) => s.end > s.start));
  }

  /** Index of the first range that ends after `pos`. */
  private firstEndingAfter(pos: number): number {
    let lo = 0;
    let hi = this.ranges.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ranges[mid]!.end <= pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Whether `span` shares at least one character with the set. */
  overlaps(span: Span): boolean {
    if (span.end <= span.start) return false;
    const r = this.ranges[this.firstEndingAfter(span.start)];
    return r !== undefined && r.start < span.end;
  }

  /** The last range of the set that ends at or before `pos`. */
  endingBy(pos: number): Span | undefined {
    const k = this.firstEndingAfter(pos) - 1;
    return k >= 0 ? { ...this.ranges[k]! } : undefined;
  }

  /** The first range of the set that starts at or after `pos`. */
  startingFrom(pos: number): Span | undefined {
    const k = this.firstEndingAfter(pos);
    const r = this.ranges[k];
    const next = r !== undefined && r.start < pos ? this.ranges[k + 1] : r;
    return next === undefined ? undefined : { ...next };
  }

  add(span: Span): void {
    if (span.end <= span.start) return;
    // Ranges that overlap or touch the span are merged into it.
    const i = this.firstEndingAfter(span.start - 1);
    let start = span.start;
    let end = span.end;
    let j = i;
    while (j < this.ranges.length && this.ranges[j]!.start <= end) {
      start = Math.min(start, this.ranges[j]!.start);
      end = Math.max(end, this.ranges[j]!.end);
      j++;
    }
    this.ranges.splice(i, j - i, { start, end });
  }
}

