/**
 * Nested XML-ish elements as call arguments: `<city>Paris</city>`, `<shipping><zip>1</zip></shipping>`,
 * repeated `<item>` children for a list. Shared by MiniMax-M3 (every tag carries the vendor
 * prefix `]<]minimax[>[`; vLLM `minimax_m3` tool parser and its tests,
 * https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_minimax_m3_tool_parser.py)
 * and the structural stage (`../structural.ts`), which reads elements named after parameters.
 *
 * Grammar (deliberately small): an element is `PREFIX<tag attrs>` … `PREFIX</tag>`; its body is
 * either child elements (whitespace between them is ignored) or raw text up to the closer (no
 * entities; a `<![CDATA[…]]>` body is unwrapped). Leaf values stay strings: the pipeline types
 * them by the tool schema (`RawCall.untyped`).
 *
 * Dropped closers: an opening tag of the element's own name or of an enclosing element's name
 * ends the element where it stands, as HTML's optional end tags do for `<li>` and `<p>`
 * (WHATWG HTML, "Optional tags"): `<invoke name="a"><parameter name="k">v<invoke name="b">…`
 * reads `k` = `v` and closes the first invoke before the second (models drop `</parameter>` and
 * `</invoke>`; OpenHands software-agent-sdk pull #4845 reads DeepSeek-V4 replies so).
 */
import { isPlainObject } from "../json.js";
import type { JsonSchema } from "../../llm/types.js";
import { cleanXmlValue, escapeRegExp, parseAttributes } from "./text-scan.js";

const PARAM_TAGS: ReadonlySet<string> = new Set(["parameter", "param", "arg", "argument", "property", "field", "value"]);

/**
 * Whether an element of this tag carries one parameter in its `name` attribute (`<parameter name="k">`,
 * `<param …>`, `<arg …>`; compared without a namespace and case: `steptml:parameter`).
 */
export function isParamTag(tag: string): boolean {
  return PARAM_TAGS.has(tag.toLowerCase().replace(/^.*:/, ""));
}

/** One element. Indices are UTF-16 offsets into the text. */
export interface XmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The raw text body of a leaf (`""` for an element with children). */
  text: string;
  start: number;
  end: number;
  /** Its closer was dropped: an opener of its own or an enclosing element's name ended it. */
  implicit?: boolean;
}

/** Result of {@link readElement}: the element, or why not (`truncated`: the text ends inside it). */
export type ElementRead = { ok: true; element: XmlElement } | { ok: false; reason: "truncated" | "invalid"; end: number };

/** Deepest nesting read; deeper markup is refused as invalid (no unbounded recursion). */
const MAX_DEPTH = 16;

/**
 * Read the element whose opening tag starts at `at` (the prefix included).
 * @param prefix text every tag starts with (`"]<]minimax[>["`), or `""`.
 * @param limit where the enclosing block ends; nothing past it is read.
 */
export function readElement(text: string, at: number, prefix = "", limit = text.length, depth = 0, enclosing: readonly string[] = []): ElementRead {
  const head = new RegExp(`${escapeRegExp(prefix)}<([A-Za-z_][\\w.:-]*)((?:\\s[^<>]*?)?)(/?)>`, "y");
  head.lastIndex = at;
  const h = head.exec(text);
  if (!h || head.lastIndex > limit) {
    const cut = text.indexOf(">", at) < 0 && limit >= text.length;
    return { ok: false, reason: cut ? "truncated" : "invalid", end: at + 1 };
  }
  const tag = h[1]!;
  const attrs = parseAttributes(h[2] ?? "");
  const bodyStart = head.lastIndex;
  if (h[3] === "/") return { ok: true, element: { tag, attrs, children: [], text: "", start: at, end: bodyStart } };
  if (depth >= MAX_DEPTH) return { ok: false, reason: "invalid", end: bodyStart };
  const closer = `${prefix}</${tag}>`;
  // An opener of this element's name or of an enclosing one ends it (dropped closer).
  const names = [tag, ...enclosing];
  const ender = new RegExp(`${escapeRegExp(prefix)}<(?:${names.map(escapeRegExp).join("|")})[\\s/>]`, "g");
  const child = new RegExp(`\\s*${escapeRegExp(prefix)}<[A-Za-z_]`, "y");
  child.lastIndex = bodyStart;
  if (child.exec(text) && child.lastIndex <= limit) {
    const children: XmlElement[] = [];
    let i = bodyStart;
    for (;;) {
      while (i < limit && /\s/.test(text[i]!)) i++;
      if (i >= limit) return { ok: false, reason: limit >= text.length ? "truncated" : "invalid", end: limit };
      if (text.startsWith(closer, i)) return { ok: true, element: { tag, attrs, children, text: "", start: at, end: i + closer.length } };
      ender.lastIndex = i;
      if (children.length > 0 && ender.exec(text)?.index === i) return { ok: true, element: { tag, attrs, children, text: "", start: at, end: i, implicit: true } };
      const r = readElement(text, i, prefix, limit, depth + 1, names);
      if (!r.ok) return r;
      children.push(r.element);
      i = r.element.end;
    }
  }
  // Searched within the limit only (a bounded block costs its own length, not the rest of the text).
  const within = limit >= text.length ? text.indexOf(closer, bodyStart) : text.slice(bodyStart, limit).indexOf(closer);
  let close = within < 0 ? -1 : limit >= text.length ? within : bodyStart + within;
  ender.lastIndex = bodyStart;
  const early = ender.exec(text);
  const implicit = early !== null && early.index < (close < 0 ? limit : close) && early.index < limit;
  if (implicit) close = early.index;
  if (close < 0 || (!implicit && close + closer.length > limit)) {
    return { ok: false, reason: close < 0 && limit >= text.length ? "truncated" : "invalid", end: limit };
  }
  let body = text.slice(bodyStart, close);
  const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(body);
  body = cdata ? cdata[1]! : cleanXmlValue(body);
  const element: XmlElement = { tag, attrs, children: [], text: body, start: at, end: implicit ? close : close + closer.length };
  if (implicit) element.implicit = true;
  return { ok: true, element };
}

function typeOf(schema: JsonSchema | undefined): string | undefined {
  const t = schema?.type;
  return typeof t === "string" ? t : Array.isArray(t) ? (t.find((x) => x !== "null") as string | undefined) : undefined;
}

/**
 * The value an element stands for, shaped by `schema`: a leaf is its text; an element whose
 * schema is an array is the list of its children's values; otherwise an object of its children,
 * where a tag that repeats becomes a list.
 */
export function elementValue(el: XmlElement, schema?: JsonSchema): unknown {
  if (el.children.length === 0) return el.text;
  if (typeOf(schema) === "array") {
    const items = isPlainObject(schema?.items) ? (schema.items as JsonSchema) : undefined;
    return el.children.map((c) => elementValue(c, items));
  }
  return elementsToObject(el.children, schema);
}

/** Children as an object (see {@link elementValue}); a repeated tag becomes a list. */
export function elementsToObject(children: readonly XmlElement[], schema?: JsonSchema): Record<string, unknown> {
  const props = isPlainObject(schema?.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  const extra = isPlainObject(schema?.additionalProperties) ? (schema.additionalProperties as JsonSchema) : undefined;
  const out: Record<string, unknown> = {};
  const counts = new Map<string, number>();
  for (const c of children) counts.set(c.tag, (counts.get(c.tag) ?? 0) + 1);
  for (const c of children) {
    const s = props[c.tag] ?? extra;
    if ((counts.get(c.tag) ?? 0) > 1) {
      const items = isPlainObject(s?.items) ? (s.items as JsonSchema) : undefined;
      const list = (out[c.tag] as unknown[] | undefined) ?? [];
      list.push(elementValue(c, typeOf(s) === "array" ? items : s));
      out[c.tag] = list;
    } else {
      out[c.tag] = elementValue(c, s);
    }
  }
  return out;
}
