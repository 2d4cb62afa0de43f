/**
 * Building blocks every dialect module uses: {@link defineDialect} (the never-throws wrapper
 * behind each exported `Dialect`) and {@link MatchBuilder} (collects calls and the spans of text
 * to remove, in text order).
 */
import type { BrokenBlock, Dialect, DialectMatch, OfferedTool, ParseContext, RawCall, Span } from "../types.js";
import { sniffToolName } from "./broken-block.js";
import { findFences } from "./fence.js";
import { inlineCodeRanges, mergeRanges } from "./text-scan.js";

/**
 * Wrap a dialect so that `parse` never throws (an unexpected exception means "not this dialect",
 * `null`) and skips texts that `detect` rejects.
 */
export function defineDialect(spec: Dialect): Dialect {
  return {
    ...spec,
    parse(text: string, tools: readonly OfferedTool[], context?: ParseContext): DialectMatch | null {
      try {
        return spec.detect(text) ? spec.parse(text, tools, context) : null;
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

/**
 * Info strings of fenced code blocks that hold program code, templates or data in some language:
 * markup inside their body is quoted (a chat template, a parser test, a log), never a call. JSON,
 * XML, plain and `tool*` fences are not here: models do wrap real calls in those
 * (llama.cpp `tests/test-chat.cpp` HERMES_2_PRO fence fixtures).
 */
const CODE_LANGS = new Set([
  "python", "py", "python3", "javascript", "js", "mjs", "typescript", "ts", "tsx", "jsx", "jinja", "jinja2", "j2",
  "django", "bash", "sh", "shell", "zsh", "console", "powershell", "ps1", "bat", "cmd", "go", "rust", "rs", "java",
  "kotlin", "c", "cpp", "c++", "csharp", "cs", "ruby", "rb", "php", "swift", "scala", "html", "yaml", "yml", "toml",
  "ini", "diff", "patch", "sql", "lua", "perl", "r", "dockerfile", "makefile", "markdown", "md", "rst", "log",
]);

/** Body ranges of fenced code blocks in a programming or template language ({@link CODE_LANGS}). */
function codeFenceBodies(text: string): Span[] {
  if (!text.includes("```")) return [];
  return findFences(text)
    .filter((f) => CODE_LANGS.has(f.lang))
    .map((f) => ({ start: f.bodyStart, end: f.bodyEnd }));
}

/**
 * Accumulates what one parse found. Markup that starts inside Markdown inline code
 * (`` `<tool_call>{…}</tool_call>` ``) or inside the body of a fenced block of program code
 * (```` ```jinja ````, ```` ```python ```` …: a chat template, a test fixture) is quoted, not
 * called: such spans and the calls in them are dropped when the builder knows the text (the same
 * rule as the inline JSON stage's decoys; aosama/astronomical issue#346, continuedev/continue
 * issue#11070, goose#1857). A span that starts at the fence itself (a ```` ```tool_code ````
 * block the pythonic dialect reads) is not inside the body.
 */
export class MatchBuilder {
  private readonly found: { call: RawCall; at: number; seq: number }[] = [];
  private readonly reasons: { at: number; reason: string; name?: string }[] = [];
  /** Spans of markup that is not a call (headers, reasoning messages, wrapper tags): never broken. */
  private readonly plain: Span[] = [];
  readonly spans: Span[] = [];
  readonly reasoning: string[] = [];

  /** @param text the parsed text, for the inline-code rule (omit to keep everything). */
  constructor(private readonly text?: string) {}

  /** Record a call found at text index `at` (calls are returned sorted by `at`, ties in insertion order). */
  call(call: RawCall, at: number): this {
    this.found.push({ call, at, seq: this.found.length });
    return this;
  }


  /**
   * Say why the markup at `at` holds no call (`"cut by the end of the text"`, `"the JSON is
   * broken"`), optionally with the tool name it shows. Without it, a removed span that holds no
   * call is reported as unreadable markup with the name read by `sniffToolName`.
   */
  unreadable(at: number, reason: string, name?: string): this {
    this.reasons.push(name === undefined ? { at, reason } : { at, reason, name });
    return this;
  }

  /**
   * Record a span of markup to remove that is not call markup (a channel header, a reasoning
   * message, a wrapper tag): it is never reported as an unreadable call.
   */
  markup(start: number, end: number): this {
    if (end > start) this.plain.push({ start, end });
    return this.span(start, end);
  }

  /**
   * Take over what `part` found in a piece of this text that starts at `offset` (a dialect that
   * reads a message body with another block reader), positions moved by `offset`.
   */
  absorb(part: MatchBuilder, offset: number): this {
    for (const f of part.found) this.found.push({ call: f.call, at: f.at + offset, seq: this.found.length });
    for (const r of part.reasons) this.reasons.push({ ...r, at: r.at + offset });
    for (const s of part.plain) this.plain.push({ start: s.start + offset, end: s.end + offset });
    for (const s of part.spans) this.spans.push({ start: s.start + offset, end: s.end + offset });
    this.reasoning.push(...part.reasoning);
    return this;
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
    let found = this.found;
    let raw = this.spans;
    const quoted = this.text === undefined ? [] : [...inlineCodeRanges(this.text), ...codeFenceBodies(this.text)];
    if (quoted.length > 0) {
      const isQuoted = (s: Span) => quoted.some((q) => s.start >= q.start && s.start < q.end);
      const dropped = raw.filter(isQuoted);
      raw = raw.filter((s) => !isQuoted(s));
      found = found.filter((f) => !dropped.some((s) => f.at >= s.start && f.at < s.end));
    }
    if (found.length === 0 && raw.length === 0) return null;
    const spans = mergeRanges(raw);
    const calls = [...found].sort((a, b) => a.at - b.at || a.seq - b.seq).map((f) => f.call);
    const match: DialectMatch = { calls, spans };
    if (this.text !== undefined) {
      // A span that holds no call is markup the dialect could not read (the broken-block rule).
      // Spans, call positions and plain markup are each walked once in text order (spans are
      // sorted and disjoint, and every plain range lies in one span), so many markers cost one pass.
      const broken: BrokenBlock[] = [];
      const ats = found.map((f) => f.at).sort((a, b) => a - b);
      const plain = mergeRanges(this.plain);
      let nextAt = 0;
      let nextPlain = 0;
      for (const s of spans) {
        while (nextAt < ats.length && ats[nextAt]! < s.start) nextAt++;
        if (nextAt < ats.length && ats[nextAt]! < s.end) continue;
        while (nextPlain < plain.length && plain[nextPlain]!.end <= s.start) nextPlain++;
        const pieces: string[] = [];
        let at = s.start;
        for (let k = nextPlain; k < plain.length && plain[k]!.start < s.end; k++) {
          const a = Math.max(plain[k]!.start, s.start);
          const b = Math.min(plain[k]!.end, s.end);
          pieces.push(this.text.slice(at, a), " ".repeat(b - a));
          at = b;
        }
        pieces.push(this.text.slice(at, s.end));
        const own = pieces.join("");
        if (own.trim() === "") continue;
        const said = this.reasons.find((r) => r.at >= s.start && r.at < s.end);
        const name = said?.name ?? sniffToolName(own);
        const block: BrokenBlock = { span: { ...s }, reason: said?.reason ?? "the call markup could not be read" };
        if (name !== undefined) block.name = name;
        broken.push(block);
      }
      if (broken.length > 0) match.broken = broken;
    }
    const reasoning = this.reasoning.map((r) => r.trim()).filter((r) => r !== "");
    if (reasoning.length > 0) match.reasoning = reasoning.join("\n\n");
    return match;
  }
}
