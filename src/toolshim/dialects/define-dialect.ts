/**
 * Building blocks every dialect module uses: {@link defineDialect} (the never-throws wrapper
 * behind each exported `Dialect`) and {@link MatchBuilder} (collects calls and the spans of text
 * to remove, in text order).
 */
import type { Dialect, DialectMatch, OfferedTool, RawCall, Span } from "../types.js";

/**
 * Wrap a dialect so that `parse` never throws (an unexpected exception means "not this dialect",
 * `null`) and skips texts that `detect` rejects.
 */
export function defineDialect(spec: Dialect): Dialect {
  return {
    ...spec,
    parse(text: string, tools: readonly OfferedTool[]): DialectMatch | null {
      try {
        return spec.detect(text) ? spec.parse(text, tools) : null;
      } catch {
        return null;
      }
    },
    detect(text: string): boolean {
      try {
        return spec.detect(text);
      } catch {
        return false;
      }
    },
  };
}

/** Accumulates what one parse found. */
export class MatchBuilder {
  private readonly found: { call: RawCall; at: number; seq: number }[] = [];
  readonly spans: Span[] = [];
  readonly reasoning: string[] = [];

  /** Record a call found at text index `at` (calls are returned sorted by `at`, ties in insertion order). */
  call(call: RawCall, at: number): this {
    this.found.push({ call, at, seq: this.found.length });
    return this;
  }

  /** Number of calls recorded so far. */
  get callCount(): number {
    return this.found.length;
  }

  /** Record a span `[start, end)` of markup to remove; empty spans are ignored. */
  span(start: number, end: number): this {
    if (end > start) this.spans.push({ start, end });
    return this;
  }

  /**
   * The match, or `null` when nothing was found (no call and no span). Spans are sorted and
   * overlapping or touching spans merged.
   */
  result(): DialectMatch | null {
    if (this.found.length === 0 && this.spans.length === 0) return null;
    const sorted = [...this.spans].sort((a, b) => a.start - b.start || a.end - b.end);
    const spans: Span[] = [];
    for (const s of sorted) {
      const last = spans[spans.length - 1];
      if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
      else spans.push({ ...s });
    }
    const calls = [...this.found].sort((a, b) => a.at - b.at || a.seq - b.seq).map((f) => f.call);
    const match: DialectMatch = { calls, spans };
    const reasoning = this.reasoning.map((r) => r.trim()).filter((r) => r !== "");
    if (reasoning.length > 0) match.reasoning = reasoning.join("\n\n");
    return match;
  }
}
