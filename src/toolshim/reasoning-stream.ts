/**
 * Streamed reasoning: while a model streams its content, the reasoning written in it (the blocks
 * `reasoning.ts` splits out: `<think>…</think>` and every other tag pair there, an opener that has
 * not closed yet, text before a closer that no opener precedes) is passed on as reasoning while it
 * arrives, before the answer after it. `StreamFilter` holds the same blocks back from the content.
 *
 * What is passed on is always a prefix of the turn's whole `thinking` (`recoverDeterministic`):
 * closed blocks, in order, each tidied (`residue.ts` `tidy`), the non-empty ones joined by a blank
 * line; the concatenation of every piece, with {@link ReasoningStream.end}'s, equals it. So a
 * block is passed on only while the recovery's reading of it cannot change:
 * - a call written inside reasoning follows the recovery's rule (`recover.ts` step 0): in a closed
 *   block it is a rehearsal and stays reasoning, unless it ends the last block with nothing but an
 *   announcement after the closer; after an opener that never closes, it ends the reasoning. Both
 *   depend on text still to come, so text of an open block is passed on only up to where call
 *   markup could start ({@link SUSPECT}, the message lead of a header dialect, and the runs of
 *   words before them that a call's header may use), and its last {@link TAIL_RUNS} runs of
 *   non-space characters wait (a marker or a header may still be cut there);
 * - at the block's closer, the block's text is decided (`settledReasoning`) unless it ends with
 *   call markup; then it and everything after it wait for the end of the turn;
 * - Harmony's `analysis` messages (`<|channel|>analysis<|message|>…`, no recipient; the dialect
 *   `harmony-gptoss.ts` makes their bodies reasoning) are passed on the same way, up to the token
 *   that ends the message, when the message has no reasoning tags (the tagged blocks come first in
 *   the whole `thinking`) and each header follows the previous message's end with at most
 *   `<|start|>assistant` between; a body holding `<` (an invoke block, a stray token) waits;
 * - Harmony without its special tokens, Glimmer's `to=self`, and DeepSeek's forced-open reasoning,
 *   which the dialects read from the whole message, come at the end.
 *
 * Cost: each piece is searched from its start less a tag's length, in a window of the message's
 * end (a string built by appending is copied whole when a search reads it), and the text passed
 * on is tidied once; a block held back costs nothing more until its closer, where its text is read
 * once.
 */
import { REASONING_TAGS, type TagPair } from "./reasoning.js";
import { settledReasoning } from "./recover.js";
import { tidy } from "./residue.js";
import type { OfferedTool } from "./types.js";

/**
 * Where call markup can start in reasoning: the characters every marker, tag, JSON value and
 * pythonic call list starts with (`<`, `{`, `[`, `|`, the fullwidth bar of DeepSeek's tokens,
 * `◁`), fences, Functionary's `>>>`, and the plain words some dialects read: ReAct and Command R
 * `Action:`/`Observation:`, `Tool …` headers, `functools`, GigaChat's `function call`, Gemma's
 * `call:` and `tool_code =`, Harmony's recipients (`to=`) and channel words glued to `assistant`
 * (`dialects/*.ts` `detect`).
 */
const SUSPECT = /[<{[|｜◁]|```|~~~|>>>|Action:|Observation:|Thought:|Tool|Function:|[Uu]sing tool|functools|function call|call:|tool_code|to\s*=|assistant(?:analysis|commentary|final)/g;
/** How far back from a piece's start a {@link SUSPECT} match may begin (its longest fixed part, less one). */
const SUSPECT_REACH = 24;
/** The lead of a Functionary v3.2 header (a first line of one token) or of a Harmony channel without its tokens. */
const LEAD_SUSPECT = /^(?:[\p{L}_][\p{L}\p{N}_.-]*[ \t]*\r?\n|analysis|commentary|final)/u;
/** A lead that may still become one of {@link LEAD_SUSPECT}'s: one token, its line not ended. */
const LEAD_OPEN = /^[\p{L}_][\p{L}\p{N}_.-]*[ \t]*\r?$/u;
/** Runs of non-space characters held back at the end of an open block (a marker of two words, and the two runs a header may put before it). */
const TAIL_RUNS = 5;
/** Runs before the run where markup may start that its call may begin with (`function call{`, `commentary to=…`, a lone `functions.x:0` line). */
const HEADER_RUNS = 2;
/** How far back a held tail or a header is looked for: past it, nothing more is passed on until the block closes. */
const RUN_REACH = 1024;
/** How far back from a piece's start a reasoning tag may begin (a `<think …>` opener with attributes longer than this is not seen while streaming). */
const TAG_REACH = 256;
/** How far back from a piece's start a closer or a Harmony token may begin (the longest is 21 characters; `</think >` may hold spaces). */
const CLOSE_REACH = 32;

const WS = /\s/;

/** Patterns of each tag pair that search from `lastIndex`. */
const SEARCH = REASONING_TAGS.map((pair) => ({
  pair,
  open: new RegExp(pair.open.source, `${pair.open.flags}g`),
  close: new RegExp(pair.close.source, `${pair.close.flags}g`),
}));

/** A tag found: where it starts and ends, its pair, and whether it closes. */
interface Tag {
  index: number;
  end: number;
  pair: TagPair;
  close: boolean;
}

/** The first characters of every reasoning tag and Harmony header. */
const TAG_START = /[<[◁]/g;

/** The earliest tag at or after `from` (ties: the earlier pair, opener first: `reasoning.ts` `tagFinder`). */
function nextTag(text: string, from: number): Tag | undefined {
  // One pass over the text for a tag's first character; the tags' patterns from there.
  TAG_START.lastIndex = from;
  if (TAG_START.exec(text) === null) return undefined;
  from = TAG_START.lastIndex - 1;
  let best: Tag | undefined;
  for (const s of SEARCH) {
    for (const [re, close] of [[s.open, false], [s.close, true]] as const) {
      re.lastIndex = from;
      const m = re.exec(text);
      if (m && (!best || m.index < best.index)) best = { index: m.index, end: m.index + m[0].length, pair: s.pair, close };
    }
  }
  return best;
}

/** A Harmony `analysis` message's header without recipient, up to its body (`dialects/harmony-gptoss.ts`). */
const HARMONY_OPEN = /<\|channel\|>analysis<\|message\|>/g;
/** What may stand between a Harmony message's end (or the message's start) and the next header. */
const HARMONY_GAP = /^\s*(?:<\|start\|>assistant\s*)?$/;
/** The tokens that end a Harmony message's body: the ends, or the next header (`harmony-gptoss.ts` `ENDS`, `START`, `CHANNEL`). */
const HARMONY_STOP = /<\|(?:end|call|return|eom|eot|start|channel)\|>/g;
/** The stops that belong to the message they end (a next header does not). */
const HARMONY_ENDS = new Set(["<|end|>", "<|call|>", "<|return|>", "<|eom|>", "<|eot|>"]);

/** The end of an open block: the closer of `pair`, or the token that ends a Harmony message (`pair` undefined), at or after `from`. */
function closerOf(text: string, pair: TagPair | undefined, from: number): { index: number; end: number; next: number } | undefined {
  const re = pair === undefined ? HARMONY_STOP : SEARCH.find((s) => s.pair === pair)!.close;
  re.lastIndex = from;
  const m = re.exec(text);
  if (!m) return undefined;
  const end = m.index + m[0].length;
  return { index: m.index, end, next: pair === undefined && !HARMONY_ENDS.has(m[0]) ? m.index : end };
}

/** The next Harmony `analysis` header at or after `from`. */
function nextHarmony(text: string, from: number): { index: number; end: number } | undefined {
  HARMONY_OPEN.lastIndex = from;
  const m = HARMONY_OPEN.exec(text);
  return m ? { index: m.index, end: m.index + m[0].length } : undefined;
}

/**
 * `tidy` (`residue.ts`) of a stretch that starts and ends with a non-space character, without its
 * final trim: every line's trailing blanks removed, three or more line breaks made two. Tidying
 * stretches cut after non-space characters and joining them gives the tidied whole.
 */
function tidyStretch(s: string): string {
  return s
    .split("\n")
    .map((line) => line.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n");
}

/**
 * The start of the `runs`-th run of non-space characters that ends at or before `end` (counting
 * from the last), never before `floor`; `undefined` when that run starts before `floor` or more
 * than {@link RUN_REACH} characters back.
 */
function runsBack(text: string, end: number, runs: number, floor: number): number | undefined {
  let k = end;
  const stop = Math.max(floor, end - RUN_REACH);
  for (let r = 0; r < runs; r++) {
    while (k > stop && WS.test(text[k - 1]!)) k--;
    while (k > stop && !WS.test(text[k - 1]!)) k--;
    if (k <= stop) return undefined;
  }
  return k;
}

/** The window's length after trimming, and the length past which it is trimmed (before a piece is added). */
const WINDOW_KEEP = 2048;
const WINDOW_MAX = 4096;

/**
 * Follows one streamed assistant message and tells the reasoning in it (see the module comment).
 *
 * Use: `push(delta)` for every content delta, in order, and pass on what it returns as
 * reasoning; `end(thinking)` once with the whole recovery's `thinking` and pass on what it returns.
 */
export class ReasoningStream {
  readonly #tools: readonly OfferedTool[];
  /** The message so far (read only where a block closes). */
  #text = "";
  /** The message's end, from `#windowAt`: every search reads it (see the module comment). */
  #window = "";
  #windowAt = 0;
  /** All reasoning passed on. */
  #shown = "";
  /** `outside`: between blocks; `inside`: in an open block; `waiting`: the rest waits for the end. */
  #state: "outside" | "inside" | "waiting" = "outside";
  /** Outside: where the next tag search may start. */
  #from = 0;
  /** A tag was seen (a closer after one is stray, not the end of prefilled reasoning). */
  #tagged = false;
  /** A Harmony `analysis` message was passed on (a reasoning tag after it would come before it in the whole reasoning). */
  #harmony = false;
  /** Inside: the open block's pair (undefined: a Harmony `analysis` message) and where its text starts. */
  #pair: TagPair | undefined;
  #body = 0;
  /** Inside: what the block has passed on (tidied), and the raw index after its last character (-1: nothing yet). */
  #partShown = "";
  #cut = -1;
  /** Inside: the first index where call markup may start (-1: none seen); once the text before it is passed on, the block waits for its closer. */
  #suspect = -1;
  #held = false;
  /** Inside: the block's lead was read ({@link LEAD_SUSPECT}). */
  #leadRead = false;

  /** @param tools the offered tools (the recovery reads calls with them). */
  constructor(tools: readonly OfferedTool[] = []) {
    this.#tools = tools;
  }

  /** All reasoning passed on so far. */
  get shown(): string {
    return this.#shown;
  }

  /** Add a content delta; returns reasoning newly decided (possibly `""`). */
  push(delta: string): string {
    const scannedFrom = this.#text.length;
    this.#text += delta;
    if (this.#state === "waiting") return "";
    if (this.#window.length > WINDOW_MAX) {
      this.#windowAt += this.#window.length - WINDOW_KEEP;
      this.#window = this.#window.slice(-WINDOW_KEEP);
    }
    this.#window += delta;
    let out = "";
    let scanned = scannedFrom;
    for (;;) {
      // `#settle` may have made the rest wait for the end.
      if ((this.#state as string) === "waiting") return out;
      const from = Math.max(this.#windowAt, scanned - (this.#state === "outside" ? TAG_REACH : CLOSE_REACH));
      if (this.#state === "outside") {
        const tag = nextTag(this.#window, Math.max(this.#from, from) - this.#windowAt);
        const harmony = nextHarmony(this.#window, Math.max(this.#from, scanned - CLOSE_REACH, this.#windowAt) - this.#windowAt);
        if (harmony !== undefined && (tag === undefined || harmony.index < tag.index)) {
          this.#openHarmony(harmony.index + this.#windowAt, harmony.end + this.#windowAt);
          scanned = harmony.end + this.#windowAt;
          continue;
        }
        if (tag === undefined) return out;
        if (this.#harmony) {
          this.#state = "waiting";
          return out;
        }
        const index = tag.index + this.#windowAt;
        const end = tag.end + this.#windowAt;
        if (!tag.close) {
          this.#tagged = true;
          this.#open(tag.pair, end);
        } else {
          // A closer that no tag precedes ends prefilled reasoning: the text before it; a later one is stray.
          if (!this.#tagged) out += this.#settle(settledReasoning(this.#text.slice(0, index), this.#tools), "");
          this.#tagged = true;
          this.#from = end;
        }
        scanned = end;
        continue;
      }
      const close = closerOf(this.#window, this.#pair, Math.max(this.#body, from) - this.#windowAt);
      if (close === undefined) return out + this.#advance(scanned);
      const closeAt = close.index + this.#windowAt;
      const block = this.#text.slice(this.#body, closeAt);
      // A Harmony body is reasoning whole when it holds no markup (`<`: an invoke block, a stray token).
      out += this.#settle(this.#pair === undefined ? (block.includes("<") ? undefined : block) : settledReasoning(block, this.#tools), this.#partShown);
      if (this.#state === "inside") this.#state = "outside";
      this.#from = close.next + this.#windowAt;
      scanned = close.end + this.#windowAt;
    }
  }

  /**
   * End of the message: the rest of the turn's reasoning. `thinking` is the whole recovery's
   * (`RecoverResult.thinking`); what was passed on is always a prefix of it (see the module
   * comment). Were it not, the whole reasoning is passed on again after a blank line, so that
   * nothing of it is lost.
   */
  end(thinking: string | undefined): string {
    const whole = thinking ?? "";
    this.#state = "waiting";
    const rest = whole.startsWith(this.#shown) ? whole.slice(this.#shown.length) : `\n\n${whole}`;
    this.#shown += rest;
    return rest;
  }

  /**
   * A Harmony `analysis` header from `index` to `body`: its body is reasoning when no reasoning tag
   * came before and only `<|start|>assistant` stands between it and the previous message's end.
   */
  #openHarmony(index: number, body: number): void {
    const gapFrom = Math.max(this.#from, this.#windowAt);
    if (this.#tagged || this.#from < this.#windowAt || !HARMONY_GAP.test(this.#window.slice(gapFrom - this.#windowAt, index - this.#windowAt))) {
      this.#state = "waiting";
      return;
    }
    this.#harmony = true;
    this.#open(undefined, body);
  }

  #open(pair: TagPair | undefined, body: number): void {
    this.#state = "inside";
    this.#pair = pair;
    this.#body = body;
    this.#partShown = "";
    this.#cut = -1;
    this.#suspect = -1;
    this.#held = false;
    this.#leadRead = false;
  }

  /** A block closed whose reasoning is `settled` (undefined: not decided yet), of which `shown` was passed on: its rest, else wait for the end. */
  #settle(settled: string | undefined, shown: string): string {
    const whole = settled === undefined ? undefined : tidy(settled);
    if (whole === undefined || !whole.startsWith(shown)) {
      this.#state = "waiting";
      return "";
    }
    return this.#emit(whole.slice(shown.length), shown === "");
  }

  /** Passes on `piece` of the current block (`first`: the block's first text, after a blank line when reasoning came before). */
  #emit(piece: string, first: boolean): string {
    if (piece === "") return "";
    const out = first && this.#shown !== "" ? `\n\n${piece}` : piece;
    this.#shown += out;
    this.#partShown += piece;
    return out;
  }

  /** The open block's text decided so far; `scanned`: where this push's new text starts (or the block's text). */
  #advance(scanned: number): string {
    if (this.#held) return "";
    const w = this.#window;
    const at = this.#windowAt;
    const n = at + w.length;
    if (!this.#leadRead) {
      if (this.#body < at) {
        // The lead left the window before it was read (a block of whitespace): wait for the closer.
        this.#held = true;
        return "";
      }
      let lead = this.#body;
      while (lead < n && WS.test(w[lead - at]!)) lead++;
      const head = w.slice(lead - at, lead - at + 80);
      if (LEAD_SUSPECT.test(head)) this.#suspect = lead;
      else if (lead === n || (LEAD_OPEN.test(head) && head.length < 80)) return "";
      this.#leadRead = true;
    }
    if (this.#suspect < 0) {
      SUSPECT.lastIndex = Math.max(this.#body, scanned - SUSPECT_REACH, this.#cut, at) - at;
      const m = SUSPECT.exec(w);
      if (m) this.#suspect = m.index + at;
    }
    const floor = Math.max(this.#body, this.#cut, at);
    const end = this.#suspect >= 0 ? runsBack(w, this.#suspect + 1 - at, HEADER_RUNS + 1, floor - at) : runsBack(w, w.length, TAIL_RUNS, floor - at);
    // With markup ahead, the text before it is passed on once; the rest waits for the closer.
    if (this.#suspect >= 0) this.#held = true;
    if (end === undefined || end + at <= floor) return "";
    // The stretch from the first (or next) non-space character to the last one before `end`.
    let start = (this.#cut < 0 ? this.#body : this.#cut) - at;
    if (start < 0) {
      // Text held back past the window's start (a run longer than RUN_REACH): wait for the closer.
      this.#held = true;
      return "";
    }
    if (this.#cut < 0) while (start < end && WS.test(w[start]!)) start++;
    let last = end;
    while (last > start && WS.test(w[last - 1]!)) last--;
    if (last <= start) return "";
    const first = this.#partShown === "";
    this.#cut = last + at;
    return this.#emit(tidyStretch(w.slice(start, last)), first);
  }
}
