/**
 * DeepSeek special-token sections, shared by `deepseek_v3` and `deepseek_v31`
 * (vLLM `deepseek_v3` tool parser; the tokens use U+FF5C `｜` and U+2581 `▁`, ollama's
 * template writes ASCII `|`):
 * `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>BODY<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>`.
 *
 * Spellings: full-width `｜` (U+FF5C) or ASCII `|` (ollama's template), `▁` (U+2581); R1-Distill's
 * `<｜tool▁calls｜>` opener. Step3 spells its tokens with ASCII `_` and is a different dialect.
 * Per-call begin/end tokens may be missing (`deepseek-v3-missing-call-begin`); the section end
 * may be missing at the end of the text; `<｜end▁of▁sentence｜>` is removed wherever it appears.
 * A section opener followed by no usable call (reasoning that merely quotes the token) is removed
 * to the end of the text with no call.
 */
import type { Dialect, RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { containsAny, earliestFinder, findEarliest, tokenAt, tokenSpellings } from "./text-scan.js";

/** Every accepted spelling of each DeepSeek token (full-width and ASCII bars). */
const DEEPSEEK_TOKENS = {
  callsBegin: [...tokenSpellings("<|tool▁calls▁begin|>"), ...tokenSpellings("<|tool▁calls|>")],
  callsEnd: tokenSpellings("<|tool▁calls▁end|>"),
  callBegin: tokenSpellings("<|tool▁call▁begin|>"),
  callEnd: tokenSpellings("<|tool▁call▁end|>"),
  sep: tokenSpellings("<|tool▁sep|>"),
  endOfSentence: tokenSpellings("<|end▁of▁sentence|>"),
} as const;

/** What a version-specific body reader made of one call body. */
export type BodyReading = RawCall | "other-version" | "broken";

/** Split a call body at its `<｜tool▁sep｜>`; `undefined` when there is none. */
export function splitAtSep(body: string): { before: string; after: string } | undefined {
  const sep = findEarliest(body, DEEPSEEK_TOKENS.sep);
  if (!sep) return undefined;
  return { before: body.slice(0, sep.index), after: body.slice(sep.index + sep.token.length) };
}

/**
 * Scan DeepSeek sections and record calls read by `readBody` into `out`.
 * @returns whether anything was claimed (a section is claimed unless every body in it belongs to
 *   the other DeepSeek version).
 */
function scanDeepseek(text: string, readBody: (body: string) => BodyReading, out: MatchBuilder): boolean {
  const T = DEEPSEEK_TOKENS;
  let claimed = false;
  let from = 0;
  // Each token is searched again only once the scan has passed it: many call openers with no end
  // cost one pass, not one pass each.
  const nextSection = earliestFinder(text, T.callsBegin);
  const nextCall = earliestFinder(text, T.callBegin);
  const nextSectionEnd = earliestFinder(text, T.callsEnd);
  const nextStop = earliestFinder(text, [...T.callEnd, ...T.callBegin]);
  for (;;) {
    const section = nextSection(from);
    const firstCall = nextCall(from);
    if (!section && !firstCall) break;
    const start = section && (!firstCall || section.index <= firstCall.index) ? section.index : firstCall!.index;
    const regionStart = section && start === section.index ? start + section.token.length : start;
    const sectionEnd = nextSectionEnd(regionStart);
    const regionEnd = sectionEnd ? sectionEnd.index : text.length;
    let end = sectionEnd ? sectionEnd.index + sectionEnd.token.length : text.length;

    const bodies: { at: number; body: string }[] = [];
    let i = regionStart;
    let sawCallBegin = false;
    for (;;) {
      const b = nextCall(i);
      if (!b || b.index >= regionEnd) break;
      sawCallBegin = true;
      const bodyStart = b.index + b.token.length;
      const stop = nextStop(bodyStart);
      const bodyEnd = stop && stop.index < regionEnd ? stop.index : regionEnd;
      bodies.push({ at: b.index, body: text.slice(bodyStart, bodyEnd) });
      i = stop && stop.index < regionEnd && tokenAt(text, stop.index, T.callEnd) ? stop.index + stop.token.length : bodyEnd;
    }
    if (!sawCallBegin) {
      bodies.push({ at: regionStart, body: text.slice(regionStart, regionEnd).split(T.callEnd[0]!).join("").split(T.callEnd[1]!).join("") });
    }
    const readings = bodies.map((b) => ({ at: b.at, r: readBody(b.body) }));
    if (readings.length > 0 && readings.every((x) => x.r === "other-version")) {
      from = end;
      continue;
    }
    for (const x of readings) if (typeof x.r === "object") out.call(x.r, x.at);
    if (!sectionEnd && !section) {
      // Section-less calls: remove up to the last call end.
      let last = -1;
      for (const tok of T.callEnd) last = Math.max(last, text.lastIndexOf(tok) >= 0 ? text.lastIndexOf(tok) + tok.length : -1);
      if (last > start) end = last;
    }
    out.span(start, end);
    claimed = true;
    from = end;
    if (end >= text.length) break;
  }
  for (const tok of T.endOfSentence) {
    for (let k = text.indexOf(tok); k >= 0; k = text.indexOf(tok, k + 1)) out.span(k, k + tok.length);
  }
  return claimed;
}

/**
 * The dialect of one DeepSeek version: sections, markers and detection are shared; `readBody`
 * reads one call body the way that version writes it, and answers `"other-version"` for the
 * other version's bodies (a section whose every body is the other version's is left to it).
 */
export function defineDeepseekDialect(
  family: string,
  readBody: (body: string) => BodyReading,
  doc: { example: string; source: string },
): Dialect {
  const T = DEEPSEEK_TOKENS;
  return defineDialect({
    family,
    ...doc,
    markers: [...T.callsBegin, ...T.callBegin],
    detect: (text) => containsAny(text, T.callsBegin) || containsAny(text, T.callBegin),
    parse(text) {
      const out = new MatchBuilder(text);
      return scanDeepseek(text, readBody, out) ? out.result() : null;
    },
  });
}
