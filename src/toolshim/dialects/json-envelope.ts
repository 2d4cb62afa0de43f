/**
 * The shape most marker formats share: an opening marker, one or more JSON (or Python-literal)
 * payloads, and an optional closing marker. Used by Hermes `<tool_call>`, Granite
 * `<|tool_call|>`, Mistral `[TOOL_CALLS]`, Jamba/Hunyuan `<tool_calls>`, Nemotron `<TOOLCALL>`,
 * `functools[…]`, InternLM2, Cohere, Apertus, Sarashina and others (vLLM tool parsers of the same names).
 *
 * Rules:
 * - a complete payload with the closer missing at the end of the text is accepted; a JSON payload
 *   short of its last closing brackets before the closer is completed (the closer says it is whole);
 * - a payload cut by the end of the text yields no call, and everything from the marker on is
 *   markup (content is the text before the marker); one cut by the next opener (the model started
 *   the call again) ends there and the next envelope is read;
 * - a balanced payload that is not calls (bad JSON, `[]`, data) yields no call; whether its
 *   markup is removed is the dialect's choice (`invalid`);
 * - a Markdown fence around the payload inside the envelope (```` <tool_call>```json {…}```</tool_call> ````)
 *   is tolerated and removed with it.
 */
import { balancedMatcher, parseJsonEndedByMarker, parseJsonTolerant } from "../json.js";
import { parsePythonLiteral } from "../python-literal.js";
import type { RawCall } from "../types.js";
import type { MatchBuilder } from "./define-dialect.js";
import { earliestFinder, skipWs, tokenAt } from "./text-scan.js";

/** How one envelope family is written. */
export interface EnvelopeSpec {
  /** Opening marker; the `g` flag is added when missing. The match starts the removed span. */
  open: RegExp;
  /** Closing markers accepted right after the payloads (whitespace allowed before them). */
  close?: readonly string[] | ((open: RegExpExecArray) => readonly string[]);
  /** Payload syntax: tolerant JSON (default) or a Python literal. */
  syntax?: "json" | "python";
  /** Characters a payload may start with (default `{[`). */
  payloadStart?: string;
  /** Calls in one payload, or `undefined` when the payload is not calls. */
  toCalls(value: unknown, open: RegExpExecArray): RawCall[] | undefined;
  /** Several payloads may follow one marker, separated by whitespace, `,` or `;`. */
  multiple?: boolean;
  /** A marker not followed by a payload: leave the text (`ignore`, default) or remove the marker only (`marker`). */
  nonPayload?: "ignore" | "marker";
  /** A balanced payload that is not calls: remove marker..closer (`remove`, default) or leave the text (`ignore`). */
  invalid?: "remove" | "ignore";
  /**
   * A payload cut by the end of the text: remove marker..end (`remove`, default), leave the text
   * (`ignore`), or remove only when the payload starts like a call (`call-shaped`: `{"name"`,
   * `{"arguments"`, `[{"name"` …), for tags that also wrap ordinary data.
   */
  truncated?: "remove" | "ignore" | "call-shaped";
}

/** The start of a call object or list of calls. */
const CALL_SHAPED_START = /^\[?\s*\{\s*["']?(?:name|tool_name|arguments|parameters|function)\b/;

/** A fence opener right after the marker: three backticks, an optional info word, whitespace. */
const FENCE_OPEN = /^```[\w-]*\s*/;

function parsePayload(slice: string, syntax: "json" | "python"): unknown {
  if (syntax === "python") return parsePythonLiteral(slice) ?? parseJsonTolerant(slice);
  return parseJsonTolerant(slice);
}

/**
 * Find every envelope of `spec` in `text` and record calls and spans into `out`.
 * @returns the number of envelopes recognised (with or without calls).
 */
export function scanEnvelopes(text: string, spec: EnvelopeSpec, out: MatchBuilder): number {
  const flags = spec.open.flags.includes("g") ? spec.open.flags : spec.open.flags + "g";
  const re = new RegExp(spec.open.source, flags);
  const starts = spec.payloadStart ?? "{[";
  const syntax = spec.syntax ?? "json";
  let found = 0;
  // Each bracket's match and each closer's next occurrence are found once for the whole text, so
  // many markers whose payload never closes cost one pass, not one pass each.
  const balanced = balancedMatcher(text);
  const closerFinders = new Map<string, ReturnType<typeof earliestFinder>>();
  const nextCloser = (closers: readonly string[], from: number) => {
    const key = closers.join("\u0000");
    let find = closerFinders.get(key);
    if (!find) closerFinders.set(key, (find = earliestFinder(text, closers)));
    return find(from);
  };
  // The next opener after a position (a second scanner, so `re`'s position is kept).
  const again = new RegExp(spec.open.source, flags);
  const nextOpener = (from: number): number => {
    again.lastIndex = from;
    return again.exec(text)?.index ?? -1;
  };
  /** The payload at `p` read up to the next closer (no opener before it), completed by {@link parseJsonEndedByMarker}. */
  const endedByCloser = (p: number, closers: readonly string[]): { value: unknown; end: number } | undefined => {
    const at = closers.length > 0 ? nextCloser(closers, p) : undefined;
    if (!at) return undefined;
    const o = nextOpener(p);
    if (o >= 0 && o < at.index) return undefined;
    const value = parseJsonEndedByMarker(text.slice(p, at.index));
    return value === undefined ? undefined : { value, end: at.index };
  };
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const ms = m.index;
    const me = ms + m[0].length;
    if (m[0].length === 0) re.lastIndex++;
    const closers = typeof spec.close === "function" ? spec.close(m) : (spec.close ?? []);
    let p = skipWs(text, me);
    const fence = FENCE_OPEN.exec(text.slice(p, p + 24));
    const fenced = fence !== null && starts.includes(text[p + fence[0].length] ?? "\u0000");
    if (fenced) p += fence[0].length;
    if (!starts.includes(text[p] ?? "\u0000")) {
      if (spec.nonPayload === "marker") {
        const closer = tokenAt(text, p, closers);
        out.span(ms, closer ? p + closer.length : me);
        found++;
      }
      continue;
    }
    const calls: { call: RawCall; at: number }[] = [];
    let end = p;
    let invalid = false;
    let truncated = false;
    for (;;) {
      const bm = balanced(p);
      if (!bm.ok) {
        // A payload short of its last closing brackets that the closer ends is whole (the model
        // wrote the closer): it gets them.
        const closed = bm.reason === "eof" && syntax === "json" ? endedByCloser(p, closers) : undefined;
        if (closed) {
          const cs = spec.toCalls(closed.value, m);
          if (cs) for (const call of cs) calls.push({ call, at: p });
          else invalid = true;
          end = closed.end;
          break;
        }
        if (bm.reason === "eof") truncated = true;
        else {
          // Mismatched brackets: the payload is broken; it ends at the closer if there is one.
          invalid = true;
          const at = nextCloser(closers, p);
          if (at) end = at.index;
          else truncated = true;
        }
        break;
      }
      const value = parsePayload(text.slice(p, bm.end), syntax);
      const cs = value === undefined ? undefined : spec.toCalls(value, m);
      if (cs) for (const call of cs) calls.push({ call, at: p });
      else invalid = true;
      end = bm.end;
      if (!spec.multiple) break;
      let q = skipWs(text, end);
      while (text[q] === ";" || text[q] === ",") q = skipWs(text, q + 1);
      if (!starts.includes(text[q] ?? "\u0000")) break;
      p = q;
    }
    if (truncated) {
      if (spec.truncated === "ignore") continue;
      if (spec.truncated === "call-shaped" && !CALL_SHAPED_START.test(text.slice(p, p + 40))) continue;
      // A payload cut by the next opener inside it (the model started the call again): this
      // envelope ends there, and the next one is read. Only an opener after the cut payload's start:
      // the payloads before it are this envelope's, and no text is read twice.
      const restart = nextOpener(p + 1);
      if (restart >= 0) {
        for (const c of calls) out.call(c.call, c.at);
        out.span(ms, restart);
        found++;
        re.lastIndex = restart;
        continue;
      }
      for (const c of calls) out.call(c.call, c.at);
      out.span(ms, text.length);
      found++;
      break;
    }
    let q = skipWs(text, end);
    if (fenced && text.startsWith("```", q)) {
      end = q + 3;
      q = skipWs(text, end);
    }
    const closer = tokenAt(text, q, closers);
    if (closer) end = q + closer.length;
    if (invalid && calls.length === 0 && spec.invalid === "ignore") continue;
    for (const c of calls) out.call(c.call, c.at);
    out.span(ms, end);
    found++;
    re.lastIndex = end;
  }
  return found;
}
