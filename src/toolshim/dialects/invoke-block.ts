/**
 * The `<function_calls><invoke name="NAME"><parameter name="k">v</parameter></invoke></function_calls>`
 * block shared by DeepSeek V3.2 DSML (every tag prefixed with `｜DSML｜`) and the Claude-style XML
 * that some fine-tunes write (no prefix, or `antml:`). Shape as sglang's `deepseekv32_detector`
 * documents it (four forms: with or without the prefix, parameters as tags or the invoke body as
 * one JSON object); seen in XNet-NGO/aiope issue #119.
 *
 * Rules:
 * - Parameter values are raw text (`cleanXmlValue`), typed later by the tool schema
 *   (`untyped: true`); DSML's `string="false"` marks a JSON value, which is decoded here
 *   (`string="true"` or no attribute: text). An invoke body that is one JSON object is the
 *   arguments.
 * - Closers may carry the prefix or not (`<｜DSML｜parameter …>v</parameter>`, sglang accepts both).
 *   A value closed with a tag named after its parameter instead (`<parameter name="content">…</content>`
 *   then the next parameter, anthropics/claude-code issue#83088) ends at that tag.
 * - A missing `</function_calls>` (or a missing last `</invoke>`) at the end of the text is
 *   tolerated when every parameter is complete (without the outer closer, the block ends after
 *   its last invoke) (a stop token can swallow
 *   the closer); a value cut by the end of the text makes that invoke truncated: no call, and the block
 *   from its opener on is removed; invokes before it stand. When the server said the token limit
 *   stopped the model (`endIsCut`, finish reason `length`), a last invoke without its
 *   `</invoke>` is cut too (the limit, not a stop token, ended it: a further parameter may have
 *   been under way).
 * - Junk between invokes is skipped; an invoke without a name is not a call.
 */
import { isPlainObject, matchBalanced, parseJsonTolerant } from "../json.js";
import type { RawCall } from "../types.js";
import type { MatchBuilder } from "./define-dialect.js";
import { cleanXmlValue, escapeRegExp, parseAttributes, skipWs } from "./text-scan.js";

/** How one family spells the tags. */
export interface InvokeTags {
  /** Regex source of the tag prefix, e.g. `(?:｜DSML｜|\|DSML\|)`; `""` for none. */
  prefix: string;
  /** Whether the prefix is optional on opening tags (closers always accept it or not). */
  optionalPrefix?: boolean;
  /**
   * Whether the prefix is optional on the tags inside the block (`invoke`, `parameter`) while
   * the block opener must carry it (DeepSeek-V4 wrappers with plain inner tags).
   */
  optionalInnerPrefix?: boolean;
  /** Regex source of the block names; default `function_calls`. */
  blocks?: string;
  /** Regex source of the call tag name; default `invoke`. */
  invokeTag?: string;
}

/** One call element read: its call (none when it has no name), or `ok: false` when the text cuts it. */
export type InvokeRead =
  | { ok: true; call?: RawCall; end: number }
  | { ok: false; end: number };

/**
 * A special token written inside an invoke's head: a model that echoes its message header
 * (`to=read<|message|>`) fumbles the token into the name (`name="read<|message|>">`,
 * `name="re<|message|>ad">`), or writes it in place of the name's `">` (`name="read<|message|><parameter …`);
 * ollama `model/parsers/glimmer_test.go` (observed outputs). The head runs over such tokens, and
 * may end at one that a tag follows; the tokens are not part of the name.
 */
const SPECIAL_TOKEN = /<\|[\w:.-]{1,40}\|>/;

function regexps(tags: InvokeTags) {
  const p = tags.prefix === "" ? "" : tags.optionalPrefix ? `(?:${tags.prefix})?` : tags.prefix;
  const c = tags.prefix === "" ? "" : `(?:${tags.prefix})?`;
  // Inner opening tags: the prefix as on the block opener, or optional.
  const q = tags.optionalInnerPrefix ? c : p;
  const blocks = `(?:${tags.blocks ?? "function_calls"})`;
  const inv = tags.invokeTag ?? "invoke";
  return {
    open: new RegExp(`<${p}${blocks}\\s*>`, "g"),
    close: new RegExp(`</${c}${blocks}\\s*>`, "g"),
    invoke: new RegExp(`<${q}${inv}\\b((?:[^<>]|${SPECIAL_TOKEN.source})*)(?:>|(?<=\\|>)(?=<))`, "y"),
    invokeClose: new RegExp(`</${c}${inv}\\s*>`, "y"),
    param: new RegExp(`<${q}parameter\\b([^<>]*)>`, "y"),
    paramClose: new RegExp(`</${c}parameter\\s*>`, "g"),
    anyTag: new RegExp(`<${q}parameter\\b|</${c}${inv}\\s*>|<${q}${inv}\\b`, "g"),
  };
}

type Res = ReturnType<typeof regexps>;

/** A head's attribute text without its special tokens, an attribute's quote left open by one closed. */
function withoutSpecialTokens(head: string): string {
  const bare = head.replace(new RegExp(SPECIAL_TOKEN.source, "g"), "");
  if (bare === head) return head;
  return (bare.match(/"/g)?.length ?? 0) % 2 === 1 ? `${bare}"` : bare;
}

function sticky(re: RegExp, text: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(text);
}

/**
 * Read the invoke whose tag starts at `i` (already matched by `re.invoke`), up to `limit`.
 * @param endIsCut the text ends at a token-limit stop: an invoke that the end of the text ends
 *   without its closer is cut ({@link ParseContext.endIsCut}).
 */
function readInvoke(text: string, i: number, limit: number, re: Res, endIsCut: boolean): InvokeRead {
  // The end of the text, reached before this invoke's closer, cut it.
  const cutAt = (j: number): boolean => endIsCut && limit >= text.length && j >= text.length;
  const head = sticky(re.invoke, text, i)!;
  const name = parseAttributes(withoutSpecialTokens(head[1]!))["name"]?.trim() ?? "";
  let j = skipWs(text, i + head[0].length, limit);
  const params: Record<string, unknown> = {};
  // A JSON body (sglang format 2/4).
  if (text[j] === "{") {
    const m = matchBalanced(text, j);
    if (!m.ok && m.reason === "eof") return { ok: false, end: text.length }; // cut by the end of the text
    if (!m.ok || m.end > limit) return { ok: true, end: limit }; // broken JSON: no call
    const value = parseJsonTolerant(text.slice(j, m.end));
    j = skipWs(text, m.end, limit);
    const close = sticky(re.invokeClose, text, j);
    if (!close && cutAt(j)) return { ok: false, end: text.length };
    const end = close ? j + close[0].length : j;
    return { ok: true, end, ...(name && isPlainObject(value) ? { call: { name, arguments: value } } : {}) };
  }
  for (;;) {
    j = skipWs(text, j, limit);
    if (cutAt(j)) return { ok: false, end: text.length };
    if (j >= limit) break; // missing </invoke> at the end of the block or text
    const close = sticky(re.invokeClose, text, j);
    if (close) {
      j += close[0].length;
      break;
    }
    if (sticky(re.invoke, text, j)) break; // next invoke without this one's closer
    const p = sticky(re.param, text, j);
    if (!p) {
      // Junk: skip to the next tag we know.
      re.anyTag.lastIndex = j + 1;
      const next = re.anyTag.exec(text);
      if (!next || next.index >= limit) {
        if (cutAt(limit)) return { ok: false, end: text.length }; // a tag cut by the end of the text
        j = limit;
        break;
      }
      j = next.index;
      continue;
    }
    const attrs = parseAttributes(p[1]!);
    const valueStart = j + p[0].length;
    re.paramClose.lastIndex = valueStart;
    const pc = re.paramClose.exec(text);
    re.anyTag.lastIndex = valueStart;
    const nextTag = re.anyTag.exec(text);
    let valueEnd: number;
    let dropped = false;
    if (pc && pc.index < limit && (!nextTag || pc.index <= nextTag.index)) {
      valueEnd = pc.index;
      j = pc.index + pc[0].length;
    } else if (nextTag && nextTag.index < limit) {
      valueEnd = nextTag.index; // dropped </parameter>
      j = nextTag.index;
      dropped = true;
    } else if (limit < text.length) {
      valueEnd = limit; // the closed block ends the value
      j = limit;
    } else {
      return { ok: false, end: text.length }; // cut by the end of the text
    }
    const key = attrs["name"]?.trim();
    if (!key) continue;
    let value = text.slice(valueStart, valueEnd);
    // A value closed with a tag named after its parameter (`<parameter name="content">…</content>`,
    // anthropics/claude-code issue#83088): that tag is the closer, not text.
    if (dropped) value = value.replace(new RegExp(`</${escapeRegExp(key)}\\s*>\\s*$`), "");
    const raw = cleanXmlValue(value);
    if (attrs["string"] === "false") {
      const decoded = parseJsonTolerant(raw.trim());
      params[key] = decoded === undefined ? raw : decoded;
    } else {
      params[key] = raw;
    }
  }
  return { ok: true, end: j, ...(name ? { call: { name, arguments: params, untyped: true } } : {}) };
}

/**
 * Read the one call element spelled with `tags` (`<invoke name="…">…</invoke>`, or the tag
 * `tags.invokeTag`) that starts at `i`, outside any block, with the rules above; `limit` is
 * where the enclosing wrapper ends.
 * @returns undefined when no call tag starts at `i`.
 */
export function readInvokeElement(text: string, i: number, limit: number, tags: InvokeTags, endIsCut = false): InvokeRead | undefined {
  const re = regexps(tags);
  return sticky(re.invoke, text, i) ? readInvoke(text, i, limit, re, endIsCut) : undefined;
}

/**
 * Find every `<function_calls>` block spelled with `tags` and record its calls and spans into
 * `out`. A block whose body does not start with an invoke is left alone (OLMo 3 writes Python
 * calls inside the same tag).
 * @param endIsCut the text ends at a token-limit stop (module rules).
 * @returns the number of blocks recognised.
 */
export function scanInvokeBlocks(text: string, tags: InvokeTags, out: MatchBuilder, endIsCut = false): number {
  const re = regexps(tags);
  let found = 0;
  let from = 0;
  for (;;) {
    re.open.lastIndex = from;
    const open = re.open.exec(text);
    if (!open) break;
    const bodyStart = open.index + open[0].length;
    const first = skipWs(text, bodyStart, text.length);
    if (!sticky(re.invoke, text, first)) {
      // Not this format's body; a block cut right after the opener is markup with no call.
      if (first >= text.length) out.span(open.index, text.length);
      from = bodyStart;
      continue;
    }
    re.close.lastIndex = bodyStart;
    const close = re.close.exec(text);
    const limit = close ? close.index : text.length;
    let i = first;
    let lastEnd = first;
    let truncated = false;
    while (i < limit) {
      i = skipWs(text, i, limit);
      if (i >= limit) break;
      if (!sticky(re.invoke, text, i)) {
        re.anyTag.lastIndex = i + 1;
        const next = re.anyTag.exec(text);
        i = next && next.index < limit ? next.index : limit;
        continue;
      }
      const inv = readInvoke(text, i, limit, re, endIsCut);
      if (!inv.ok) {
        truncated = true;
        break;
      }
      if (inv.call) out.call(inv.call, i);
      i = Math.max(inv.end, i + 1);
      lastEnd = i;
    }
    found++;
    if (truncated) {
      out.span(open.index, text.length);
      break;
    }
    if (!close) {
      // Outer closer missing: the block ends after its last invoke; prose after it stays.
      out.span(open.index, lastEnd);
      break;
    }
    const end = close.index + close[0].length;
    out.span(open.index, end);
    from = end;
  }
  return found;
}
