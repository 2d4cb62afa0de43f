/**
 * The `<invoke name="NAME"><parameter name="k">v</parameter></invoke>` body shared by MiniMax-M2
 * (no namespace) and Step3 (`steptml:` namespace) (vLLM `minimax_m2` and `step3` tool parsers). Extra attributes
 * are ignored (MiniMax echoes schema text as attributes: vLLM issue#32827). Values are raw text
 * cleaned by `cleanXmlValue`; a missing `</parameter>` ends the value at the next parameter or
 * `</invoke>`; a missing `</invoke>` at the end of the text is tolerated when every parameter is
 * complete; a value cut by the end of the text makes the invoke truncated.
 */
import { cleanXmlValue, escapeRegExp, parseAttributes, skipWs } from "./text-scan.js";

/** A parsed invoke block. */
export type XmlInvoke =
  | { ok: true; name: string; params: Record<string, string>; start: number; end: number }
  | { ok: false; reason: "truncated" | "invalid"; start: number; end: number };

/**
 * Parse the invoke whose `<{ns}invoke` starts at `start`, not reading past `limit`.
 * @param ns tag namespace prefix including the colon (`"steptml:"`), or `""`.
 * @param endIsCut the text ends at a token-limit stop ({@link ParseContext.endIsCut}): an invoke
 *   that the end of the text ends without its `</invoke>` is truncated.
 */
export function parseXmlInvoke(text: string, start: number, ns: string, limit = text.length, endIsCut = false): XmlInvoke {
  const e = escapeRegExp(ns);
  const open = new RegExp(`<${e}invoke\\b([^>]*)>`, "y");
  open.lastIndex = start;
  const head = open.exec(text);
  if (!head) {
    const gt = text.indexOf(">", start);
    return gt < 0 || gt >= limit ? { ok: false, reason: "truncated", start, end: limit } : { ok: false, reason: "invalid", start, end: gt + 1 };
  }
  if (open.lastIndex > limit) return { ok: false, reason: "truncated", start, end: limit };
  const name = parseAttributes(head[1]!)["name"]?.trim();
  if (!name) return { ok: false, reason: "invalid", start, end: open.lastIndex };
  const paramOpen = new RegExp(`<${e}parameter\\b([^>]*)>`, "y");
  const paramClose = `</${ns}parameter>`;
  const invokeClose = `</${ns}invoke>`;
  const params: Record<string, string> = {};
  // The end of the text, reached before `</invoke>`, ends the invoke: complete, unless the limit cut it.
  const unclosed = (end: number): XmlInvoke =>
    endIsCut && limit >= text.length ? { ok: false, reason: "truncated", start, end: text.length } : { ok: true, name, params, start, end };
  let i = open.lastIndex;
  for (;;) {
    i = skipWs(text, i, limit);
    if (i >= limit) return unclosed(i);
    if (text.startsWith(invokeClose, i)) return { ok: true, name, params, start, end: i + invokeClose.length };
    paramOpen.lastIndex = i;
    const p = paramOpen.exec(text);
    if (!p || paramOpen.lastIndex > limit) {
      const next = text.indexOf("<", i + 1);
      if (next < 0 || next >= limit) return unclosed(limit);
      if (text.startsWith(`<${ns}invoke`, next)) return { ok: true, name, params, start, end: next };
      i = next;
      continue;
    }
    const key = parseAttributes(p[1]!)["name"]?.trim();
    const valueStart = paramOpen.lastIndex;
    const stops = [paramClose, `<${ns}parameter`, invokeClose]
      .map((t) => ({ t, at: text.indexOf(t, valueStart) }))
      .filter((x) => x.at >= 0 && x.at < limit)
      .sort((a, b) => a.at - b.at);
    const stop = stops[0];
    if (!stop) {
      if (limit < text.length) {
        if (key) params[key] = cleanXmlValue(text.slice(valueStart, limit));
        return { ok: true, name, params, start, end: limit };
      }
      return { ok: false, reason: "truncated", start, end: text.length };
    }
    if (key) params[key] = cleanXmlValue(text.slice(valueStart, stop.at));
    i = stop.t === paramClose ? stop.at + paramClose.length : stop.at;
  }
}
