/**
 * Wrapper markers recognised by their shape, not from a list (issue 12's structural stage): the
 * tokens chat templates and serving stacks put around a tool call, so that a format no dialect
 * lists still has its frame found (a call needs one around it) and stripped from the visible text.
 *
 * Shapes (one regular expression, so matches never overlap):
 * - special tokens with ASCII or full-width bars — `<|tool_call_begin|>`, `<｜tool▁sep｜>`
 *   (Kimi-K2, DeepSeek V3 chat templates), half-bar tokens `<|tool_call>` / `<tool_call|>` (Gemma 4);
 * - tags with a vendor prefix inside the bracket, without attributes — `<｜DSML｜function_calls>`
 *   (DeepSeek V3.2 chat template);
 * - bracketed upper-case tokens — `[TOOL_CALLS]`, `[ARGS]`, `[/TOOL_REQUEST]` (Mistral tokenizer,
 *   LM Studio);
 * - bare tags without attributes — `<tool_call>`, `</function_calls>`, `<start_function_call>`
 *   (Hermes, OLMo 3, FunctionGemma templates) — except a tag named after an offered tool (that is
 *   the structural stage's `element` shape);
 * - `>>>` glued to a name (Functionary v3.2's recipient separator; a Python prompt has a space).
 *
 * Markers are data for the structural stage (`structural.ts`): it needs one next to a call written
 * as a bare name, and it removes the markers that frame an accepted call. A marker on its own is
 * never a call.
 */
import type { Span } from "./types.js";

const MARKER = new RegExp(
  [
    String.raw`<[|｜][^<>|｜\n]{1,60}[|｜]>`,
    String.raw`<\/?[|｜][^<>|｜\s]{1,20}[|｜][A-Za-z_][\w.:-]{0,40}>`,
    String.raw`<\|[A-Za-z_][\w.:-]{0,40}>`,
    String.raw`<\/?[A-Za-z_][\w.:-]{0,40}\|>`,
    String.raw`\[\/?[A-Z][A-Z0-9_]{1,40}\]`,
    String.raw`<\/?([A-Za-z_][\w.:-]{0,40})>`,
    String.raw`>>>(?=[A-Za-z_])`,
  ].join("|"),
  "g",
);

/** The markers of one text, in text order, with lookups by position. */
export class MarkerIndex {
  readonly spans: readonly Span[];
  private readonly byStart = new Map<number, Span>();
  private readonly byEnd = new Map<number, Span>();

  /**
   * @param isTool whether a bare tag's name is an offered tool (such a tag is not a marker).
   * @param extra more markers (vendor prefixes found by the structural stage); overlapping ones are dropped.
   */
  constructor(text: string, isTool: (name: string) => boolean, extra: readonly Span[] = []) {
    const found: Span[] = [];
    for (const m of text.matchAll(MARKER)) {
      if (m[1] !== undefined && isTool(m[1])) continue;
      found.push({ start: m.index, end: m.index + m[0].length });
    }
    const all = [...found, ...extra].sort((a, b) => a.start - b.start || b.end - a.end);
    const spans: Span[] = [];
    for (const s of all) {
      const last = spans[spans.length - 1];
      if (last && s.start < last.end) continue;
      spans.push(s);
    }
    this.spans = spans;
    for (const s of spans) {
      this.byStart.set(s.start, s);
      this.byEnd.set(s.end, s);
    }
  }

  private readonly byText = new Map<string, number[]>();

  /**
   * Where the first marker spelled `spelling` starts at or after `from`, or -1. (Positions per
   * spelling are collected once, then searched by bisection.)
   */
  nextSpelled(text: string, spelling: string, from: number): number {
    let list = this.byText.get(spelling);
    if (list === undefined) {
      list = this.spans.filter((s) => s.end - s.start === spelling.length && text.startsWith(spelling, s.start)).map((s) => s.start);
      this.byText.set(spelling, list);
    }
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length ? list[lo]! : -1;
  }

  /** The marker that starts at `i`, if any. */
  startingAt(i: number): Span | undefined {
    return this.byStart.get(i);
  }

  /** The marker that ends at `i`, if any. */
  endingAt(i: number): Span | undefined {
    return this.byEnd.get(i);
  }

  /**
   * The text with every marker replaced by a line break and spaces (same length, so offsets
   * stay valid): a call framed by markers then stands on its own line.
   */
  mask(text: string): string {
    if (this.spans.length === 0) return text;
    const parts: string[] = [];
    let at = 0;
    for (const s of this.spans) {
      parts.push(text.slice(at, s.start), "\n", " ".repeat(s.end - s.start - 1));
      at = s.end;
    }
    parts.push(text.slice(at));
    return parts.join("");
  }
}

/** At most this many markers (or marker-framed words) are taken on each side of a call. */
const MAX_GROW = 24;
/** A word that stands between two markers (`assistant`, `json`, `function`) is part of the frame. */
const FRAME_WORD = /^[A-Za-z_][\w.-]{0,24}$/;

function isWs(c: string | undefined): boolean {
  return c !== undefined && /\s/.test(c);
}

/**
 * Grow `span` over the markers that frame it: markers separated from it by whitespace only, and
 * a single word standing between two such markers (`<|start|>assistant<|channel|>`), on both
 * sides, never past `lo`/`hi` (the neighbouring calls).
 */
export function growOverMarkers(text: string, span: Span, markers: MarkerIndex, lo = 0, hi = text.length): Span {
  let start = span.start;
  for (let k = 0; k < MAX_GROW; k++) {
    let j = start;
    while (j > lo && j > start - 200 && isWs(text[j - 1])) j--;
    const m = markers.endingAt(j);
    if (m && m.start >= lo) {
      start = m.start;
      continue;
    }
    let w = j;
    while (w > lo && j - w <= 25 && !isWs(text[w - 1]) && !markers.endingAt(w)) w--;
    const word = text.slice(w, j);
    let v = w;
    while (v > lo && w - v < 200 && isWs(text[v - 1])) v--;
    const before = markers.endingAt(v);
    if (word !== "" && FRAME_WORD.test(word) && before && before.start >= lo) {
      start = before.start;
      continue;
    }
    break;
  }
  let end = span.end;
  for (let k = 0; k < MAX_GROW; k++) {
    let j = end;
    while (j < hi && j < end + 200 && isWs(text[j])) j++;
    const m = markers.startingAt(j);
    if (m && m.end <= hi) {
      end = m.end;
      continue;
    }
    let w = j;
    while (w < hi && w - j <= 25 && !isWs(text[w]) && !markers.startingAt(w)) w++;
    const word = text.slice(j, w);
    let v = w;
    while (v < hi && v - w < 200 && isWs(text[v])) v++;
    const after = markers.startingAt(v);
    if (word !== "" && FRAME_WORD.test(word) && after && after.end <= hi) {
      end = after.end;
      continue;
    }
    break;
  }
  return { start, end };
}

/**
 * {@link growOverMarkers} for every span of `spans` (in text order, non-overlapping), each
 * bounded by its neighbours.
 */
export function frameSpans(text: string, spans: readonly Span[], isTool: (name: string) => boolean): Span[] {
  if (spans.length === 0) return [];
  const markers = new MarkerIndex(text, isTool);
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  sorted.forEach((s, k) => {
    const lo = Math.max(out[out.length - 1]?.end ?? 0, 0);
    const hi = sorted[k + 1]?.start ?? text.length;
    out.push(lo <= s.start && s.end <= hi ? growOverMarkers(text, s, markers, lo, hi) : s);
  });
  return out;
}
