/**
 * The opener … closer block that some families put their calls in, when the body inside is
 * another format's syntax: MiniMax-M2 `<minimax:tool_call>` (XML invokes), Seed-OSS
 * `<seed:tool_call>` (Qwen3-Coder functions), LFM2 `<|tool_call_start|>` (a pythonic or JSON list)
 * and OLMo 3 `<function_calls>` (Python calls) (vLLM `minimax_m2`, `seed_oss`, `lfm2`, `olmo3` tool parsers).
 *
 * Rules (a stop token can swallow the closer at the end of the text):
 * - a block without its closer runs to the end of the text (or, with `nextOpenEndsBody`, to the
 *   next opener: LFM2 writes blocks back to back);
 * - a body cut by the end of the text (`"truncated"`) or a block without its closer is removed
 *   to the end of the text, and no later block is read;
 * - a complete, closed block is removed through its closer.
 */
import type { MatchBuilder } from "./define-dialect.js";

/** One block: where it starts and where its body is. Indices are UTF-16 offsets into the text. */
export interface WrapperBlock {
  /** Index of the opener. */
  start: number;
  /** Index right after the opener. */
  bodyStart: number;
  /** Index of the closer, or where the body ends without one. */
  bodyEnd: number;
  /** Whether the closer ends this block. */
  closed: boolean;
}

/**
 * What the body reader made of one block: `"complete"` (calls, if any, recorded), `"truncated"`
 * (cut by the end of the text: the block runs to the end and scanning stops), or `"foreign"` (not
 * this family's body: the block is left alone).
 */
export type BodyVerdict = "complete" | "truncated" | "foreign";

/** How one family spells its block. */
export interface WrapperSpec {
  /** Opening marker. */
  open: string;
  /** Closing marker. */
  close: string;
  /** An unclosed body ends at the next opener, and scanning goes on from there (LFM2). */
  nextOpenEndsBody?: boolean;
}

/**
 * Visit every block of `spec` in `text`, in text order: `readBody` records the calls of one body
 * into `out` (at the indices it chooses) and says what it found; this function records the span
 * each block removes (module rules).
 */
export function scanWrapperBlocks(
  text: string,
  spec: WrapperSpec,
  out: MatchBuilder,
  readBody: (block: WrapperBlock) => BodyVerdict,
): void {
  // The next closer and opener are searched again only once the scan has passed them, so many
  // openers without a closer cost one pass, not one pass each.
  let close = -2;
  let next = -2;
  for (let at = text.indexOf(spec.open); at >= 0; at = text.indexOf(spec.open, at + 1)) {
    const bodyStart = at + spec.open.length;
    if (close !== -1 && close < at) close = text.indexOf(spec.close, at);
    if (spec.nextOpenEndsBody && next !== -1 && next < bodyStart) next = text.indexOf(spec.open, bodyStart);
    else if (!spec.nextOpenEndsBody) next = -1;
    const closed = close >= 0 && (next < 0 || close < next);
    const bodyEnd = closed ? close : next >= 0 ? next : text.length;
    const verdict = readBody({ start: at, bodyStart, bodyEnd, closed });
    if (verdict === "foreign") continue;
    if (closed && verdict === "complete") {
      out.span(at, close + spec.close.length);
    } else if (!closed && verdict === "complete" && next >= 0) {
      out.span(at, next);
    } else {
      out.span(at, text.length);
      break;
    }
  }
}
