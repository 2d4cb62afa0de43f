/**
 * Residue cleanup: remove exactly the parsed spans and stray special tokens,
 * keep the prose around them, tidy whitespace. Nothing is ever wiped because it mentions
 * `"name"` and `"arguments"` (the false positive of goose's `sanitize_residual_markers` in `toolshim.rs`).
 */
import { backtickRuns, escapeRegExp, mergeRanges, pairBacktickRuns, skipWs, skipWsBack, SpanSet } from "./dialects/text-scan.js";
import type { Span } from "./types.js";

/** Merge overlapping or touching spans and clamp them to `[0, length)`. */
export function mergeSpans(spans: readonly Span[], length: number): Span[] {
  return mergeRanges(
    spans
      .map((s) => ({ start: Math.max(0, Math.min(length, s.start)), end: Math.max(0, Math.min(length, s.end)) }))
      .filter((s) => s.end > s.start),
  );
}

/** Whether two spans overlap (share at least one character). */
export function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}


/**
 * Remove `spans` from `text`. Where a span is cut out, the whitespace on both sides collapses
 * to one separator (a blank line, a newline or a space, the strongest on either side), so prose keeps
 * its paragraphs and no double spaces appear; text glued to a span on both sides is joined with
 * one space.
 */
export function removeSpans(text: string, spans: readonly Span[]): string {
  const merged = mergeSpans(spans, text.length);
  if (merged.length === 0) return text;
  // Built as a list of pieces (joining strings at every cut would copy the text once per span).
  const parts: string[] = [text.slice(0, merged[0]!.start)];
  let built = parts[0]!.length;
  merged.forEach((s, i) => {
    const right = text.slice(s.end, merged[i + 1]?.start ?? text.length);
    let trail = "";
    while (parts.length > 0) {
      const last = parts[parts.length - 1]!;
      let k = last.length;
      while (k > 0 && /\s/.test(last[k - 1]!)) k--;
      trail = last.slice(k) + trail;
      built -= last.length - k;
      if (k > 0) {
        parts[parts.length - 1] = last.slice(0, k);
        break;
      }
      parts.pop();
    }
    let ri = 0;
    while (ri < right.length && /\s/.test(right[ri]!)) ri++;
    const lead = right.slice(0, ri);
    let piece: string;
    if (trail === "" && lead === "") {
      // Text glued to markup on both sides (`I'll look.<block>Then…`) gets a space in its place.
      piece = built === 0 || right === "" ? right : ` ${right}`;
    } else {
      const newlines = Math.max((trail.match(/\n/g) ?? []).length, (lead.match(/\n/g) ?? []).length);
      piece = (newlines >= 2 ? "\n\n" : newlines === 1 ? "\n" : " ") + right.slice(ri);
    }
    parts.push(piece);
    built += piece.length;
  });
  return parts.join("");
}

/** A Markdown code region: a fenced block or an inline code span. */
export interface CodeRegion extends Span {
  /** `true` for a fenced block (``` or ~~~), `false` for an inline code span. */
  fenced: boolean;
  /** Info string of a fenced block (`json`, `python` …), lower-cased; `""` when absent or inline. */
  info: string;
  /** The body between the fences (or backticks): `[bodyStart, bodyEnd)`. */
  bodyStart: number;
  bodyEnd: number;
}

/**
 * Code regions of Markdown text (CommonMark shapes, simplified): fenced blocks (``` or ~~~ at a
 * line start, to the closing fence or the end of the text) and inline code spans (matching
 * backtick runs within one paragraph). Tokens inside them are quoted, not stray.
 */
export function findCodeRegions(text: string): CodeRegion[] {
  const out: CodeRegion[] = [];
  const fence = /(^|\n)[ \t]*(`{3,}|~{3,})([^\n]*)(\n|$)/g;
  let m: RegExpExecArray | null;
  while ((m = fence.exec(text))) {
    const start = m.index + m[1]!.length;
    const marker = m[2]!;
    const bodyStart = m.index + m[0].length;
    const close = new RegExp(`(^|\\n)[ \\t]*${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*(?=\\n|$)`, "g");
    close.lastIndex = text[bodyStart - 1] === "\n" ? bodyStart - 1 : bodyStart;
    const c = close.exec(text);
    const bodyEnd = c ? Math.max(bodyStart, c.index) : text.length;
    const end = c ? c.index + c[0].length : text.length;
    out.push({ start, end, fenced: true, info: m[3]!.trim().toLowerCase(), bodyStart, bodyEnd });
    fence.lastIndex = Math.max(end, fence.lastIndex);
  }
  // Inline spans (CommonMark §6.1), linear: openers are met left to right, so the next paragraph
  // break and the next fenced block after an opener are found by pointers that only move forward.
  const fenced = out.slice();
  let nextFenced = 0;
  let paragraphBreak = text.indexOf("\n\n");
  const runs = backtickRuns(text);
  for (const [o, c] of pairBacktickRuns(runs, (open, close) => {
    const end = close.at + close.length;
    while (paragraphBreak >= 0 && paragraphBreak < open.at) paragraphBreak = text.indexOf("\n\n", open.at);
    if (paragraphBreak >= 0 && paragraphBreak < end) return false;
    while (nextFenced < fenced.length && fenced[nextFenced]!.end <= open.at) nextFenced++;
    return !(nextFenced < fenced.length && fenced[nextFenced]!.start < end);
  })) {
    const open = runs[o]!;
    const close = runs[c]!;
    const end = close.at + close.length;
    out.push({ start: open.at, end, fenced: false, info: "", bodyStart: open.at + open.length, bodyEnd: close.at });
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * A line that introduces a call written right after it: goose's directive `Using tool: x`
 * (`toolshim.rs` `convert_tool_messages_to_text`), a label line `Tool call:` / `**Tool Call:**`
 * (RWKV's template: vLLM `rwkv` tool parser tests), or HyperCLOVAX-SEED-Think's role header
 * ` -> tool/function_call` before its list of calls (vLLM
 * tests/tool_parsers/test_hyperclovax_seed_think_14b_tool_parser.py; the header continues the
 * assistant's role line, so text may come before it on its line). Group 1 is the line (the
 * header: from its arrow) with the whitespace up to the call; the pattern is anchored at the end
 * of the text before the call; the header's blanks are matched from the start of their run only
 * (the same match, found in one pass over a long run). The spellings are the stream filter's markers
 * (`stream-filter.ts` `OWN_MARKERS`), so the filter holds such a line.
 */
export const CALL_DIRECTIVE_LINE =
  /((?:(?<=^|\n)[ \t]*(?:[Uu]sing [Tt]ool:[^\n]*|(?:\*\*)?Tool [Cc]all(?::(?:\*\*)?|\*\*:))|(?<![ \t])[ \t]*-> ?tool\/function_call)[ \t]*\n\s*)$/;

/**
 * Stray special tokens: chat-template control tokens with ASCII or full-width bars and Gemma's
 * half-bar tokens. A leaked token is glued to text, alone on its line, at the end or next to
 * removed markup, and is removed; one standing between spaces inside a line is named by prose
 * (a table of formats) and stays. Tokens in code are always kept.
 */
const STRAY_TOKEN = new RegExp(
  [
    // Role headers leak as one unit: the role name goes with the tokens around it.
    String.raw`<\|start_header_id\|>[a-z_]{1,20}<\|end_header_id\|>`, // Llama 3: <|start_header_id|>assistant<|end_header_id|>
    String.raw`<\|im_start\|>(?:assistant|user|system|tool)\b`, // ChatML: <|im_start|>assistant
    // Kimi K3 XTML channel markers (`dialects/kimi-k3-xtml.ts`): <|open|>response<|sep|>, <|close|>message<|sep|>.
    String.raw`<\|(?:open|close)\|>[a-z_]{1,20}<\|sep\|>`,
    String.raw`<[|｜][A-Za-z0-9_▁.:"\- ]{1,40}[|｜]>`, // <|im_end|>, <｜end▁of▁sentence｜>, <|"|>
    String.raw`<\|[a-z_]{2,30}>`, // <|tool_call>, <|turn>
    String.raw`<[a-z_]{2,30}\|>`, // <tool_call|>, <turn|>
  ].join("|"),
  "g",
);

/**
 * Stray closers: the closers of call wrappers whose opener was consumed or dropped by the model
 * (`</tool_call>` after a bare Qwen3-Coder `<function=…>`, ollama#13093) and end-of-turn tags.
 * Prose may name them (`between <tool_call> and </tool_call> tags`), so they are removed only
 * where markup stands: alone on their line, at the end of the text, or next to removed markup.
 */
const STRAY_CLOSER = new RegExp(
  [
    // A wrapper's closer may carry a vendor namespace: </minimax:tool_call>, </seed:tool_call>, </ifm|tool_calls>.
    String.raw`</(?:(?:[a-z]{1,12}[|:])?tool_calls?|function_calls|TOOLCALL|tools)>`,
    String.raw`\[/TOOL_CALLS\]`,
    String.raw`<(?:end_of_turn|start_of_turn|eos|bos)>`,
    String.raw`</s>`,
  ].join("|"),
  "g",
);

/**
 * Stray openers: a run of call-wrapper openers that wraps no call (a block whose body is prose:
 * `<tool_call><tool_call>\nNow I'll create the server…\n</tool_call>`, a real Qwen3-Coder reply
 * through OpenRouter, RooCodeInc/Roo-Code#6630). Removed where markup stands, as the closers are;
 * an opener named inside a sentence stays.
 */
const ONE_STRAY_OPENER = String.raw`<(?:(?:[a-z]{1,12}[|:])?tool_calls?|function_calls|TOOLCALL)>`;
const STRAY_OPENER = new RegExp(`(?:${ONE_STRAY_OPENER}[ \\t]*)+`, "g");
const STRAY_OPENER_AT = new RegExp(ONE_STRAY_OPENER, "y");

/**
 * Whether a stray-opener tag ({@link STRAY_OPENER}: `<tool_call>`, a vendor-namespaced
 * `<ns|tool_call>` / `<ns:tool_calls>`, …) starts at `i` of `text`. Whether one is removed depends
 * on what comes after it (removed markup, the end of the text), so the stream filter holds one
 * until the end of the message (`stream-filter.ts`), as it holds the call markers.
 */
export function strayOpenerAt(text: string, i: number): boolean {
  STRAY_OPENER_AT.lastIndex = i;
  return STRAY_OPENER_AT.test(text);
}

/**
 * Orphan closers of a call's inner tags: a run of `</parameter>`, `</invoke>`, `</function>` or a
 * vendor wrapper's `</…_tool_call>` or `</…_function_call>` with no opener, which a model that dropped the call format
 * still writes after its prose (`Done.\n</parameter>\n</invoke>`, QwenLM/qwen-code issue#10700;
 * `…</parameter></function></zyphra_tool_call>`, osaurus-ai/vmlx-swift pull#115). Removed where
 * markup stands, as the other closers are, and only before any opener of those tags (after one,
 * they close that markup); a run named inside a sentence stays.
 */
const STRAY_INNER_CLOSERS = /(?:<\/(?:parameter|invoke|function|[a-z]+_(?:tool|function)_call)>[ \t]*)+/g;
/** An opener of those tags: closers after one are that markup's, not orphans. */
const INNER_OPENER = /<(?:parameter|invoke|function|[a-z]+_(?:tool|function)_call)\b/;

/**
 * Orphan closers of the tag that wraps a whole answer (`</answer>`, `</response>`: Hunyuan's
 * `<answer>`, `dialects/hunyuan-tool-calls.ts`; the `<response>` of `dialects/fenced-json.ts`)
 * written right after a call block whose opener tag never came (openPangu's
 * `<|tool_call_end|></answer>`). Removed only when removed markup comes right before it (only
 * whitespace between) and no opener of the tag comes before it (after one, it closes that answer,
 * and the tag pair goes with the markup it wraps: `growOverWrappers`); a closer in prose stays.
 */
const ANSWER_CLOSER = /<\/(?:answer|response)>/g;
/** An opener of those tags. */
const ANSWER_OPENER = /<(?:answer|response)\b/;

/**
 * The stray markers of `text` to remove, given the spans already removed (a closer next to one
 * of them is markup).
 */
function strayMarkerSpans(text: string, removed: readonly Span[] = []): Span[] {
  // Code regions and removed spans as position sets: each token is a lookup, not a scan of both
  // lists (many tokens beside many removed spans used to cost their product).
  const code = new SpanSet(findCodeRegions(text));
  const gone = new SpanSet(removed);
  const outside = (s: Span) => !code.overlaps(s) && !gone.overlaps(s);
  const spans: Span[] = [];
  // Where the text's trailing whitespace starts (computed once: the check runs per token).
  const contentEnd = text.trimEnd().length;
  const standsAsMarkup = (s: Span): boolean => {
    const lineBefore = /(?:^|\n)[ \t]*$/.test(text.slice(Math.max(0, s.start - 200), s.start));
    const lineAfter = /^[ \t]*(?:\n|$)/.test(text.slice(s.end, s.end + 200));
    const atEnd = s.end >= contentEnd;
    // Only whitespace between the token and removed markup: the nearest removed span on either
    // side decides (any farther one has the nearer one between).
    const before = gone.endingBy(s.start);
    const after = gone.startingFrom(s.end);
    // Read from the token outwards: each token reads only the whitespace next to it.
    const nextToRemoved =
      (before !== undefined && skipWsBack(text, s.start, before.end) <= before.end) || (after !== undefined && skipWs(text, s.end, after.start) >= after.start);
    return (lineBefore && lineAfter) || atEnd || nextToRemoved;
  };
  for (const m of text.matchAll(STRAY_TOKEN)) {
    const s = { start: m.index, end: m.index + m[0].length };
    // A token glued to text leaked from the template; one between spaces inside a line is named.
    const glued = /\S/.test(text[s.start - 1] ?? " ") || /\S/.test(text[s.end] ?? " ");
    if (outside(s) && (glued || standsAsMarkup(s))) spans.push(s);
  }
  // Where each removed stray closer starts: an opener with only blanks before one wraps nothing.
  const closerAt = new Set<number>();
  for (const m of text.matchAll(STRAY_CLOSER)) {
    const s = { start: m.index, end: m.index + m[0].length };
    if (outside(s) && standsAsMarkup(s)) {
      spans.push(s);
      closerAt.add(s.start);
    }
  }
  const firstAnswer = text.search(ANSWER_OPENER);
  for (const m of text.matchAll(ANSWER_CLOSER)) {
    const s = { start: m.index, end: m.index + m[0].length };
    if (firstAnswer >= 0 && firstAnswer < s.start) break;
    const before = gone.endingBy(s.start);
    if (before !== undefined && skipWsBack(text, s.start, before.end) <= before.end && outside(s)) spans.push(s);
  }
  // Only orphans: a closer after an opener of the same kind belongs to that markup (a block left as text).
  const firstOpener = text.search(INNER_OPENER);
  for (const m of text.matchAll(STRAY_INNER_CLOSERS)) {
    const s = { start: m.index, end: m.index + m[0].trimEnd().length };
    if ((firstOpener < 0 || firstOpener > s.start) && outside(s) && standsAsMarkup(s)) spans.push(s);
  }
  for (const m of text.matchAll(STRAY_OPENER)) {
    const s = { start: m.index, end: m.index + m[0].trimEnd().length };
    // A run that reaches removed markup (`<tool_calls><tool_call>…` whose inner opener went with
    // the call) is stray up to that markup.
    const next = gone.startingFrom(s.start);
    if (next !== undefined && next.start > s.start && next.start < s.end) s.end = skipWsBack(text, next.start, s.start);
    // An empty wrapper (`<tool_call>   </tool_call>`: a call without a name) goes with its closer.
    const empty = closerAt.has(skipWs(text, s.end, text.length));
    if (outside(s) && (empty || standsAsMarkup(s))) spans.push(s);
  }
  return spans;
}

/** Remove stray markers ({@link strayMarkerSpans}) from `text`. */
export function stripStrayMarkers(text: string): string {
  const spans = strayMarkerSpans(text);
  return spans.length === 0 ? text : removeSpans(text, spans);
}

/**
 * Grow removed spans over what wraps nothing but them: a tag pair (`<response>` … `</response>`)
 * directly around a span, a code fence whose body is only removed spans and whitespace, and a
 * call's directive line right before either ({@link CALL_DIRECTIVE_LINE}).
 * Dialects remove the call markup they know; a wrapper they do not know would otherwise stay
 * behind empty (`wrap-json-fence-function-call`).
 */
export function growOverWrappers(text: string, spans: readonly Span[]): Span[] {
  let merged = mergeSpans(spans, text.length);
  if (merged.length === 0) return merged;
  for (let changed = true; changed; ) {
    changed = false;
    merged = merged.map((s) => {
      const directive = CALL_DIRECTIVE_LINE.exec(text.slice(Math.max(0, s.start - 300), s.start));
      if (directive) {
        changed = true;
        return { start: s.start - directive[1]!.length, end: s.end };
      }
      // A tag name may carry a vendor namespace (`<ifm|tool_calls>`, K2 Horizon).
      const before = /<([A-Za-z][\w:.-]*(?:\|[\w:.-]+)?)(?:\s[^<>]*)?>\s*$/.exec(text.slice(Math.max(0, s.start - 300), s.start));
      if (!before) return s;
      const tag = escapeRegExp(before[1]!);
      const after = new RegExp(`^\\s*</${tag}\\s*>`).exec(text.slice(s.end, s.end + 300));
      if (!after) return s;
      changed = true;
      return { start: s.start - before[0].length, end: s.end + after[0].length };
    });
    merged = mergeSpans(merged, text.length);
  }
  const fences = findCodeRegions(text).filter((r) => r.fenced);
  const grown = [...merged];
  // Fences and spans are both in text order: one pointer walks the spans (a filter per fence cost
  // fences × spans).
  let next = 0;
  for (const f of fences) {
    while (next < merged.length && merged[next]!.start < f.bodyStart) next++;
    const inside: Span[] = [];
    for (let k = next; k < merged.length && merged[k]!.start < f.bodyEnd; k++) if (merged[k]!.end <= f.bodyEnd) inside.push(merged[k]!);
    if (inside.length === 0) continue;
    if (removeSpans(text.slice(f.bodyStart, f.bodyEnd), inside.map((s) => ({ start: s.start - f.bodyStart, end: s.end - f.bodyStart }))).trim() === "") {
      const directive = CALL_DIRECTIVE_LINE.exec(text.slice(Math.max(0, f.start - 300), f.start));
      grown.push({ start: f.start - (directive ? directive[1]!.length : 0), end: f.end });
    }
  }
  return mergeSpans(grown, text.length);
}

/** Where a model starts imitating a tool result: our shim-history label, Hermes/Qwen `<tool_response>`, ReAct `Observation:`. */
const IMITATED_RESULT = /(?:^|\n)[ \t]*(?:Tool result \(|Tool result:|Tool error:|<tool_response>|Observation:)/;

/**
 * After a call, text that imitates the tool result (a small model writing the
 * `Tool result (name):` block it saw in the shim history, or Qwen's `<tool_response>`, and then an
 * answer built on it) is invented: cut the content there.
 * @returns the content before the imitation, or `undefined` when there is none.
 */
export function cutImitatedResult(text: string): string | undefined {
  const m = IMITATED_RESULT.exec(text);
  return m ? text.slice(0, m.index) : undefined;
}

/**
 * Whitespace tidy: no trailing spaces on lines, at most one blank line in a row, trimmed.
 * Linear in the text length (a `/[ \t]+$/gm` replace re-reads every run of spaces from each of
 * its positions when the run does not end a line: quadratic on `<a` and 200k spaces).
 */
export function tidy(text: string): string {
  return text
    .split("\n")
    .map(trimLineEnd)
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\t")) end--;
  return end === line.length ? line : line.slice(0, end);
}

/**
 * End-of-turn tokens: the model's turn is over (ChatML `<|im_end|>`, Llama 3 `<|eot_id|>`, `<|endoftext|>`,
 * `<|end_of_text|>`, DeepSeek `<｜end▁of▁sentence｜>`, PLaMo 3 `<|plamo:tag|>`). Harmony's and Glimmer's
 * message ends (`<|end|>`, `<|eot|>`) separate messages of one turn and are not here (`harmony-gptoss.ts`).
 */
const END_OF_TURN = /<\|(?:im_end|eot_id|endoftext|end_of_text|plamo:tag)\|>|<[|｜]end▁of▁sentence[|｜]>/g;
/** A next assistant message right after the end of a turn: the model's turn goes on. */
const ASSISTANT_AGAIN = /^\s*<\|im_start\|>assistant\b/;

/**
 * Where the visible text stops: at the first end-of-turn token written as markup, when a server
 * that does not stop on it lets the model go on (a next user turn, PLaMo 3's text after its end tag:
 * vLLM `plamo3` tool parser drops everything after it). Calls written after it are still read (the
 * dialects see the whole text); only prose after it is not the answer. A token inside removed markup
 * (an argument value) or in code is text, so is one standing between spaces inside a line (prose
 * naming it); one followed by a new assistant header does not end the turn.
 * @returns the span from the token to the end of the text, or `undefined`.
 */
function afterEndOfTurn(text: string, removed: readonly Span[]): Span | undefined {
  END_OF_TURN.lastIndex = 0;
  if (!END_OF_TURN.test(text)) return undefined;
  const skip = new SpanSet([...removed, ...findCodeRegions(text)]);
  END_OF_TURN.lastIndex = 0;
  for (let m = END_OF_TURN.exec(text); m !== null; m = END_OF_TURN.exec(text)) {
    const s = { start: m.index, end: m.index + m[0].length };
    if (skip.overlaps(s)) continue;
    if (/[ \t]/.test(text[s.start - 1] ?? "") && /[ \t]/.test(text[s.end] ?? "")) continue;
    if (ASSISTANT_AGAIN.test(text.slice(s.end, s.end + 40))) continue;
    return { start: s.start, end: text.length };
  }
  return undefined;
}

/**
 * The visible content: `spans` (grown over empty wrappers) removed, stray markers stripped, text
 * after the end of the turn dropped, whitespace tidied.
 */
export function cleanContent(text: string, spans: readonly Span[]): string {
  const grown = growOverWrappers(text, spans);
  const tail = afterEndOfTurn(text, grown);
  return tidy(removeSpans(text, [...grown, ...strayMarkerSpans(text, grown), ...(tail ? [tail] : [])]));
}
