/**
 * Kimi K3 XTML (`kimi_k3_xtml`): Moonshot's K3 replaced the K2 section tokens with channels built
 * from four special tokens (`<|open|>`, `<|close|>`, `<|sep|>`, `<|end_of_msg|>`) around ordinary
 * text tags (mlc-ai/xgrammar pull#806, ggml-org/llama.cpp fork pwilkin/llama.cpp pull#20,
 * JustVugg/colibri issue#1143, which checked it against Moonshot's reference renderer):
 *
 * ```
 * <|open|>tools<|sep|>
 *   <|open|>call tool="NAME" index="1"<|sep|>
 *     <|open|>argument key="K" type="string"<|sep|>VALUE<|close|>argument<|sep|>
 *   <|close|>call<|sep|>
 * <|close|>tools<|sep|><|close|>message<|sep|><|end_of_msg|>
 * ```
 *
 * - An argument's `type` is `string` (the value is the text as written, typed later by the schema
 *   like other untyped text) or `number`/`boolean`/`null`/`object`/`array` (the value is a JSON
 *   literal; one that does not parse is kept as text for the schema to judge).
 * - A call without arguments is `<|open|>call …<|sep|><|close|>call<|sep|>`. A call closer (or the
 *   `tools` closer) the model dropped is implied by the next call, the `tools` closer or the end of
 *   the text, as for the other XML families; an argument cut by the end of the text makes its call
 *   truncated: no call, and the markup from the call on is removed; calls before it stand. When
 *   the server said the token limit stopped the model (`endIsCut`), a last call without its
 *   closer is cut too.
 * - A `call` outside a `tools` channel (the channel opener dropped) is read the same way.
 * - The other channels are not calls: `think` is a reasoning tag pair (`reasoning.ts`; the
 *   prompt opens it, so a reply often holds only its closer) and the `response`/`message`
 *   markers are stray markers (`residue.ts`).
 */
import { parseJsonTolerant } from "../json.js";
import type { RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { earliestFinder, parseAttributes, skipWs } from "./text-scan.js";

const TOOLS_OPEN = "<|open|>tools<|sep|>";
const TOOLS_CLOSE = "<|close|>tools<|sep|>";
const CALL_CLOSE = "<|close|>call<|sep|>";
const ARG_CLOSE = "<|close|>argument<|sep|>";
/** A channel opener with its attributes: `<|open|>call tool="x" index="1"<|sep|>` (group 1: the attributes). */
const openerOf = (tag: string) => new RegExp(`<\\|open\\|>${tag}((?:\\s[^<>|]*)?)<\\|sep\\|>`, "y");
const CALL_OPEN = openerOf("call");
const ARG_OPEN = openerOf("argument");
/** Any call opener, to find calls outside a `tools` channel. */
const ANY_CALL = /<\|open\|>call[\s<]/g;

/** The value of one argument, by its declared type. */
function typedValue(raw: string, type: string | undefined): unknown {
  if (type === undefined || type === "string") return raw;
  const v = parseJsonTolerant(raw.trim());
  return v === undefined ? raw : v;
}

type CallRead = { ok: true; call?: RawCall; end: number; reason?: string } | { ok: false; end: number };

/** Read the call whose opener is at `at`; `limit` is where its channel ends. */
function readCall(text: string, at: number, limit: number, endIsCut: boolean): CallRead | undefined {
  CALL_OPEN.lastIndex = at;
  const head = CALL_OPEN.exec(text);
  if (!head) return undefined;
  const attrs = parseAttributes(head[1] ?? "");
  const args: Record<string, unknown> = {};
  let i = CALL_OPEN.lastIndex;
  for (;;) {
    i = skipWs(text, i, limit);
    if (text.startsWith(CALL_CLOSE, i)) {
      i += CALL_CLOSE.length;
      break;
    }
    ARG_OPEN.lastIndex = i;
    const arg = i < limit ? ARG_OPEN.exec(text) : null;
    if (!arg) {
      // No closer: the next call, the channel's end or the text's end implies it (unless the token
      // limit cut the text there); anything else is not this format.
      const implied = i >= limit || text.startsWith("<|open|>call", i) || text.startsWith(TOOLS_CLOSE, i) || text.startsWith("<|close|>", i);
      if (!implied) return { ok: true, end: i, reason: "text stands where an argument or the call's closer should" };
      if (i >= text.length && endIsCut) return { ok: false, end: i };
      break;
    }
    const valueStart = ARG_OPEN.lastIndex;
    const close = text.indexOf(ARG_CLOSE, valueStart);
    if (close < 0 || close > limit) return { ok: false, end: limit };
    const a = parseAttributes(arg[1] ?? "");
    if (a["key"] !== undefined) args[a["key"]] = typedValue(text.slice(valueStart, close), a["type"]);
    i = close + ARG_CLOSE.length;
  }
  const name = attrs["tool"] ?? attrs["name"];
  if (name === undefined || name.trim() === "") return { ok: true, end: i, reason: "the call names no tool" };
  return { ok: true, call: { name: name.trim(), arguments: args, untyped: true }, end: i };
}

/** Read the calls of `text[from, limit)` into `out`; the index where reading stopped, or `undefined` when a call was cut. */
function readCalls(text: string, from: number, limit: number, out: MatchBuilder, endIsCut: boolean): number | undefined {
  let i = from;
  for (;;) {
    i = skipWs(text, i, limit);
    const r = i < limit ? readCall(text, i, limit, endIsCut) : undefined;
    if (!r) return i;
    if (!r.ok) {
      out.unreadable(i, "cut by the end of the text");
      return undefined;
    }
    if (r.call) out.call(r.call, i);
    else out.unreadable(i, r.reason ?? "the call could not be read");
    if (r.end <= i) return i;
    i = r.end;
  }
}

/** Dialect `kimi_k3_xtml`. */
export const kimiK3Xtml = defineDialect({
  family: "kimi_k3_xtml",
  example:
    '<|open|>tools<|sep|><|open|>call tool="str_replace_editor" index="1"<|sep|><|open|>argument key="command" type="string"<|sep|>str_replace<|close|>argument<|sep|><|open|>argument key="path" type="string"<|sep|>/app/dummy<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool="read" index="2"<|sep|><|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|>',
  source: "https://github.com/mlc-ai/xgrammar/pull/806",
  markers: [TOOLS_OPEN, "<|open|>call"],
  detect: (text) => text.includes("<|open|>call") || text.includes(TOOLS_OPEN),
  parse(text, _tools, context) {
    const out = new MatchBuilder(text);
    const endIsCut = context?.endIsCut === true;
    // Channels are taken in text order and do not overlap, and the closer is searched again only
    // once the scan has passed it: many openers without a closer cost one pass, not one each.
    const taken: { start: number; end: number }[] = [];
    const nextClose = earliestFinder(text, [TOOLS_CLOSE]);
    for (let at = text.indexOf(TOOLS_OPEN); at >= 0; at = text.indexOf(TOOLS_OPEN, at + 1)) {
      if (taken.length > 0 && at < taken[taken.length - 1]!.end) continue;
      const bodyStart = at + TOOLS_OPEN.length;
      const close = nextClose(bodyStart)?.index ?? -1;
      const limit = close >= 0 ? close : text.length;
      const stop = readCalls(text, bodyStart, limit, out, endIsCut);
      // The channel is removed whole; a cut call takes the rest of the text with it.
      const end = stop === undefined ? text.length : close >= 0 && skipWs(text, stop, close) >= close ? close + TOOLS_CLOSE.length : stop;
      out.span(at, end);
      taken.push({ start: at, end });
    }
    // Calls whose `tools` opener was dropped (`taken` is walked once, and calls read here end at `lastEnd`).
    let t = 0;
    let lastEnd = 0;
    for (const m of text.matchAll(ANY_CALL)) {
      while (t < taken.length && taken[t]!.end <= m.index) t++;
      if ((t < taken.length && taken[t]!.start <= m.index) || m.index < lastEnd) continue;
      const stop = readCalls(text, m.index, text.length, out, endIsCut);
      const end = stop ?? text.length;
      if (end <= m.index) continue;
      const closer = text.startsWith(TOOLS_CLOSE, skipWs(text, end)) ? skipWs(text, end) + TOOLS_CLOSE.length : end;
      out.span(m.index, closer);
      lastEnd = Math.max(lastEnd, closer);
    }
    return out.result();
  },
});
