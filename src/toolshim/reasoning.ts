/**
 * Reasoning split: separates reasoning blocks from the visible text of an assistant turn before
 * any call parsing, so that calls rehearsed inside reasoning are not dispatched
 * and reasoning is never shown as content.
 *
 * Tag pairs (the models' chat templates): `<think>…</think>` (Qwen3, QwQ, DeepSeek-R1,
 * GLM, MiniMax, Kimi, Nemotron; attributes allowed, case-insensitive), `<thinking>…</thinking>`,
 * `<seed:think>…</seed:think>` (Seed-OSS), `<|START_THINKING|>…<|END_THINKING|>` (Cohere),
 * `<|inner_prefix|>…<|inner_suffix|>` (Apertus), `<|channel>thought…<channel|>` (Gemma 4),
 * `[THINK]…[/THINK]` (Magistral), `◁think▷…◁/think▷` (Kimi-VL), `<ifm|think>…</ifm|think>` and its
 * `_fast`/`_faster` efforts (K2 V3). Harmony's `analysis` channel
 * is split by the Harmony dialect, which sees the whole channel structure (`DialectMatch.reasoning`).
 *
 * Rules:
 * - A closed block is reasoning. Its text is returned in `closed` so that families whose real
 *   calls live inside reasoning (Kimi-K2-Thinking, `Dialect.callsInReasoning`) can be parsed there.
 * - Prefilled opener (QwQ, Qwen3-thinking, GLM-4.7, Nemotron 3 Nano, Cohere, DeepSeek-V3.1
 *   templates end the prompt with the opener): a closer that comes before
 *   any opener makes everything before it reasoning (`prefilled: true`).
 * - An opener that never closes: the rest of the text is returned in `unclosed`, not in
 *   `content`; the pipeline decides (a complete call inside it ends the reasoning, ollama's qwen3
 *   rule; otherwise it all stays reasoning, llama.cpp's rule).
 * - A closer after content that follows a closed block is a stray marker and is dropped.
 */

/** A reasoning opener and its closer (unanchored patterns, no `g` flag). */
export interface TagPair {
  open: RegExp;
  close: RegExp;
}

/** Every reasoning tag pair (see the module comment for the families). */
export const REASONING_TAGS: readonly TagPair[] = [
  { open: /<think(?:\s[^<>]*)?>/i, close: /<\/think\s*>/i },
  { open: /<thinking(?:\s[^<>]*)?>/i, close: /<\/thinking\s*>/i },
  { open: /<seed:think>/, close: /<\/seed:think>/ },
  { open: /<\|START_THINKING\|>/, close: /<\|END_THINKING\|>/ },
  { open: /<\|inner_prefix\|>/, close: /<\|inner_suffix\|>/ },
  { open: /<\|channel>thought/, close: /<channel\|>/ },
  { open: /\[THINK\]/, close: /\[\/THINK\]/ },
  { open: /◁think▷/, close: /◁\/think▷/ },
  // Kimi K3's XTML think channel (`dialects/kimi-k3-xtml.ts`).
  { open: /<\|open\|>think<\|sep\|>/, close: /<\|close\|>think<\|sep\|>/ },
  // Solar Open 2 (`dialects/solar-open2-tool-arg.ts`).
  { open: /<\|think:start\|>/, close: /<\|think:end\|>/ },
  // K2 V3's IFM tags, one per reasoning effort: `<ifm|think>`, `<ifm|think_fast>`, `<ifm|think_faster>`
  // (sglang `K2V3Detector`: https://github.com/sgl-project/sglang/blob/acc109af699c27103c4c0e188375d5e92de056bc/test/registered/function_call/test_k2v3_tool_parser.py).
  { open: /<ifm\|think(?:_fast|_faster)?>/, close: /<\/ifm\|think(?:_fast|_faster)?>/ },
];

/** Literal prefixes of every opener and closer, for streaming hold-back. */
export const REASONING_MARKERS: readonly string[] = [
  "<think>", "</think>", "<thinking>", "</thinking>", "<seed:think>", "</seed:think>",
  "<|START_THINKING|>", "<|END_THINKING|>", "<|inner_prefix|>", "<|inner_suffix|>",
  "<|channel>thought", "<channel|>", "[THINK]", "[/THINK]", "◁think▷", "◁/think▷",
  "<|open|>think<|sep|>", "<|close|>think<|sep|>", "<|think:start|>", "<|think:end|>", "<ifm|think", "</ifm|think",
];

/** Result of {@link splitReasoning}. */
export interface ReasoningSplit {
  /** The text without reasoning (closed blocks, prefilled reasoning and any unclosed tail removed). */
  content: string;
  /** Texts of closed reasoning blocks (and prefilled reasoning), in order, untrimmed. */
  closed: string[];
  /** Text after an opener that never closes; `undefined` when every opener closes. */
  unclosed?: string;
  /** A closer came before any opener: the template prefilled the opener. */
  prefilled: boolean;
  /** Whether any reasoning tag (opener or closer) was present. */
  tagged: boolean;
}

interface Hit {
  index: number;
  end: number;
  pair: TagPair;
  kind: "open" | "close";
}

/**
 * The next match of one pattern at or after a position, for searches of one text from ever later
 * positions: a match (or its absence) is remembered with the position it was searched from, and
 * searched again only when a search starts past the remembered match or before where it was
 * searched from. Many tags cost one pass per pattern, not one pass per tag (a closer repeated
 * with no opener used to search every other pattern to the end of the text once per closer).
 */
function matchFinder(text: string, pattern: RegExp): (from: number) => { index: number; end: number } | undefined {
  const re = new RegExp(pattern.source, pattern.flags.includes("i") ? "gi" : "g");
  let searchedFrom = -1;
  let found: { index: number; end: number } | undefined;
  return (from) => {
    if (searchedFrom < 0 || from < searchedFrom || (found !== undefined && found.index < from)) {
      searchedFrom = from;
      re.lastIndex = from;
      const m = re.exec(text);
      found = m ? { index: m.index, end: m.index + m[0].length } : undefined;
    }
    return found;
  };
}

/** The earliest reasoning opener or closer at or after a position (ties: the earlier pair, opener first). */
function tagFinder(text: string): (from: number) => Hit | undefined {
  const finders = REASONING_TAGS.flatMap((pair) =>
    (["open", "close"] as const).map((kind) => ({ pair, kind, find: matchFinder(text, pair[kind]) })),
  );
  return (from) => {
    let best: Hit | undefined;
    for (const f of finders) {
      const m = f.find(from);
      if (m && (!best || m.index < best.index)) best = { index: m.index, end: m.end, pair: f.pair, kind: f.kind };
    }
    return best;
  };
}

/**
 * Split reasoning out of `text` (see the module comment for the rules).
 * @param text the assistant content as the model wrote it.
 */
export function splitReasoning(text: string): ReasoningSplit {
  const parts: string[] = [];
  const closed: string[] = [];
  let unclosed: string | undefined;
  let prefilled = false;
  let tagged = false;
  let pos = 0;
  let seen = false;
  const earliest = tagFinder(text);
  const closers = new Map(REASONING_TAGS.map((pair) => [pair, matchFinder(text, pair.close)]));
  for (;;) {
    const hit = earliest(pos);
    if (!hit) {
      parts.push(text.slice(pos));
      break;
    }
    tagged = true;
    if (hit.kind === "close") {
      if (!seen) {
        closed.push(text.slice(0, hit.index));
        prefilled = true;
      } else {
        parts.push(text.slice(pos, hit.index));
      }
      pos = hit.end;
      seen = true;
      continue;
    }
    parts.push(text.slice(pos, hit.index));
    seen = true;
    const close = closers.get(hit.pair)!(hit.end);
    if (!close) {
      unclosed = text.slice(hit.end);
      break;
    }
    closed.push(text.slice(hit.end, close.index));
    pos = close.end;
  }
  const out: ReasoningSplit = { content: parts.join(""), closed, prefilled, tagged };
  if (unclosed !== undefined) out.unclosed = unclosed;
  return out;
}

/** An answer wrapper opening the visible text: Hunyuan-A13B `<answer>`, ERNIE-4.5-Thinking `<response>`. */
const ANSWER_OPENER = /^\s*<(answer|response)>/;

/**
 * The visible text without the answer wrapper some templates put after the reasoning (Hunyuan-A13B
 * `<think>…</think>\n<answer>\n…\n</answer>`, vLLM `hunyuan_a13b` reasoning parser; ERNIE-4.5-Thinking
 * `…</think>\n\n<response>\ndef\n</response>`, vLLM `ernie45` reasoning parser): an opener at the
 * start of `content` and its first closer are removed, the text between and after them kept; an
 * answer cut before its closer loses the opener only (as vLLM's `hunyuan_a13b` parser returns it).
 */
export function unwrapAnswer(content: string): string {
  const m = ANSWER_OPENER.exec(content);
  if (!m) return content;
  const closer = `</${m[1]}>`;
  const end = content.indexOf(closer, m[0].length);
  return end < 0 ? content.slice(m[0].length) : content.slice(m[0].length, end) + content.slice(end + closer.length);
}
