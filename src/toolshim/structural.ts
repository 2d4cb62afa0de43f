/**
 * The structural stage (issue 12): after the dialect parsers and inline JSON, before the
 * interpreter. It reads a tool call from markup that no dialect lists, by structure alone: the
 * markup must be named after an OFFERED tool and its children, fields or keyword arguments must
 * map onto that tool's parameters, and the arguments must validate against the tool's schema.
 * New models arrive every month; this is what keeps an unlisted format from being lost.
 *
 * Shapes (each a `shape` name in the diagnostics):
 * - `element`: an element whose tag is the tool name, arguments as children or attributes —
 *   `<search_code><query>x</query></search_code>`, `<search_code query="x"/>`;
 * - `named-element`: any element whose `name` attribute is the tool name, arguments as children
 *   (`<parameter name="k">v</parameter>`, `<param …>`, `<arg …>`, or `<k>v</k>`) or a JSON
 *   body — `<invoke name="search_code">…</invoke>`. A run of punctuation glued before every tag
 *   (a vendor prefix such as MiniMax-M3's `]<]minimax[>[`) is read as part of the tags;
 * - `bracket-block`: `[NAME]{json}[/NAME]` or `[NAME]{json}[END…]` (also at the end of the text);
 * - `keyword-call`: a line that is only `NAME(key=value, …)` (Python literals);
 * - `name-colon-json`: a line `NAME: {json}`;
 * - `brace-call`: `call:NAME{key:value,…}` (Gemma's body syntax without its markers).
 *
 * Never: prose that merely names a tool (every shape needs its structure), markup inside inline
 * code or a code block in a programming language, markup the text introduces as an example
 * ("for example", "e.g." …: `inline-json.ts` `introducedAsExample`), tools that are not offered,
 * and arguments that fail the schema (then nothing is read; the interpreter may still run).
 * Values written as text are typed by the schema (`RawCall.untyped`).
 */
import { prepareArguments } from "./arguments.js";
import { fitsSchema } from "./schema.js";
import { parseBraceCall } from "./dialects/brace-call.js";
import { elementsToObject, readElement, type XmlElement } from "./dialects/xml-elements.js";
import { escapeRegExp, skipWs } from "./dialects/text-scan.js";
import { introducedAsExample } from "./inline-json.js";
import { isPlainObject, matchBalanced, parseJsonTolerant } from "./json.js";
import { resolveToolName } from "./names.js";
import { parsePythonCallAt } from "./python-literal.js";
import { findCodeRegions } from "./residue.js";
import type { OfferedTool, RawCall, Span } from "./types.js";

/** One call the structural stage read. */
export interface StructuralCall {
  call: RawCall;
  /** The markup to remove. */
  span: Span;
  /** Which shape matched (module comment). */
  shape: "element" | "named-element" | "bracket-block" | "keyword-call" | "name-colon-json" | "brace-call";
}

/** Fenced code whose body may hold a call (the rest is program code: quoted, never called). */
const CALL_FENCE_INFO = /^(?:|json|xml|text|tool|tools|tool_call|tool_calls|tool_code|function|function_call)$/;
/** Child tags that carry a parameter in their `name` attribute. */
const PARAM_TAGS = new Set(["parameter", "param", "arg", "argument", "property", "field", "value"]);

interface Candidate {
  name: string;
  args: unknown;
  untyped: boolean;
  span: Span;
  shape: StructuralCall["shape"];
}

/**
 * Text glued before the `<` of an element that also comes before its closer, before `limit` (a
 * vendor tag prefix such as `]<]minimax[>[`), or `""`.
 */
function tagPrefix(text: string, lt: number, tag: string, limit: number): string {
  let i = lt;
  while (i > 0 && lt - i < 24 && !/\s/.test(text[i - 1]!)) i--;
  const p = text.slice(i, lt);
  return p !== "" && /[^\w]/.test(p) && !/["'`]/.test(p) && text.slice(lt, limit).includes(`${p}</${tag}>`) ? p : "";
}

function childArgs(el: XmlElement, tool: OfferedTool): Record<string, unknown> | undefined {
  if (el.children.length === 0) {
    const body = el.text.trim();
    if (body === "") return {};
    if (body.startsWith("{")) {
      const v = parseJsonTolerant(body);
      return isPlainObject(v) ? v : undefined;
    }
    return undefined;
  }
  const named = el.children.filter((c) => PARAM_TAGS.has(c.tag.toLowerCase()) && c.attrs["name"]);
  if (named.length === el.children.length) {
    const out: Record<string, unknown> = {};
    for (const c of named) {
      const key = c.attrs["name"]!;
      if (key in out) return undefined;
      out[key] = c.children.length > 0 ? elementsToObject(c.children) : c.text;
    }
    return out;
  }
  return elementsToObject(el.children, tool.parameters);
}

/**
 * Find structural calls in `text` (see the module comment).
 * @param tools the offered tools; only their names are read as calls.
 * @returns the accepted calls in text order, and notes on candidates that were refused.
 */
export function scanStructural(text: string, tools: readonly OfferedTool[]): { found: StructuralCall[]; notes: string[] } {
  const notes: string[] = [];
  if (tools.length === 0 || text.trim() === "") return { found: [], notes };
  const names = [...new Set(tools.map((t) => t.name))].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const N = `(${names.join("|")})`;
  const candidates: Candidate[] = [];
  const offered = (name: string): OfferedTool | undefined => {
    const r = resolveToolName(name, tools);
    return r === undefined ? undefined : tools.find((t) => t.name === r);
  };

  // element / named-element. An element of a tool never holds the next element of the same tool:
  // each one is read only up to there (so many unclosed openers cost one pass, not one each).
  const opens: { at: number; tag: string; attrs: string; tool: OfferedTool; byTag: boolean; byAttr: boolean }[] = [];
  for (const m of text.matchAll(/<([A-Za-z_][\w.:-]*)([^<>]*)>/g)) {
    const attrs = m[2] ?? "";
    const nameAttr = /\bname\s*=\s*["']([^"'\n]{1,80})["']/.exec(attrs)?.[1];
    const byTag = offered(m[1]!);
    const byAttr = nameAttr === undefined ? undefined : offered(nameAttr);
    const tool = byTag ?? byAttr;
    if (tool) opens.push({ at: m.index, tag: m[1]!, attrs, tool, byTag: byTag !== undefined, byAttr: byAttr !== undefined });
  }
  const nextOfTool = new Map<string, number>();
  const limits = new Array<number>(opens.length);
  for (let k = opens.length - 1; k >= 0; k--) {
    limits[k] = nextOfTool.get(opens[k]!.tool.name) ?? text.length;
    nextOfTool.set(opens[k]!.tool.name, opens[k]!.at);
  }
  opens.forEach((o, k) => {
    const prefix = tagPrefix(text, o.at, o.tag, limits[k]!);
    const r = readElement(text, o.at - prefix.length, prefix, Math.max(limits[k]! - prefix.length, o.at));
    if (!r.ok) return;
    const el = r.element;
    let args: Record<string, unknown> | undefined;
    if (o.byTag) {
      const own = Object.fromEntries(Object.entries(el.attrs).filter(([key]) => key !== "name" || !o.byAttr));
      const inner = childArgs(el, o.tool);
      args = inner === undefined ? undefined : { ...own, ...inner };
    } else {
      args = childArgs(el, o.tool);
    }
    if (args === undefined) return;
    candidates.push({ name: o.tool.name, args, untyped: true, span: { start: o.at - prefix.length, end: el.end }, shape: o.byTag ? "element" : "named-element" });
  });

  // bracket-block: [NAME]{json}[/NAME] | [NAME]{json}[END…]
  for (const m of text.matchAll(new RegExp(`\\[${N}\\]`, "g"))) {
    const p = skipWs(text, m.index + m[0].length);
    if (text[p] !== "{") continue;
    const bm = matchBalanced(text, p);
    if (!bm.ok) continue;
    const v = parseJsonTolerant(text.slice(p, bm.end));
    if (!isPlainObject(v)) continue;
    const close = new RegExp(`^\\s*\\[(?:\\/${escapeRegExp(m[1]!)}|END[A-Z_]*)\\]`).exec(text.slice(bm.end, bm.end + 80));
    if (!close && text.slice(bm.end).trim() !== "") continue;
    const args = isPlainObject(v["arguments"]) && v["name"] === m[1] ? v["arguments"] : v;
    candidates.push({ name: m[1]!, args, untyped: false, span: { start: m.index, end: close ? bm.end + close[0].length : bm.end }, shape: "bracket-block" });
  }

  // keyword-call / name-colon-json / brace-call: a line that is only the call.
  for (const m of text.matchAll(new RegExp(`(?:^|\\n)([ \\t]*)(call:\\s*)?${N}([ \\t]*)([({:])`, "g"))) {
    const at = m.index + (m[0].startsWith("\n") ? 1 : 0) + m[1]!.length;
    const name = m[3]!;
    const opener = m[5]!;
    const openAt = m.index + m[0].length - 1;
    let end: number;
    let args: unknown;
    let shape: StructuralCall["shape"];
    if (m[2] !== undefined) {
      if (opener !== "{" && opener !== "(") continue;
      const r = parseBraceCall(text, at, '<|"|>');
      if (!r.ok) continue;
      ({ end, args } = { end: r.end, args: r.args });
      shape = "brace-call";
    } else if (opener === "(") {
      const r = parsePythonCallAt(text, at);
      if (!r || r.call.positional.length > 0) continue;
      ({ end, args } = { end: r.end, args: r.call.kwargs });
      shape = "keyword-call";
    } else if (opener === ":") {
      const p = skipWs(text, openAt + 1);
      if (text[p] !== "{") continue;
      const bm = matchBalanced(text, p);
      if (!bm.ok) continue;
      const v = parseJsonTolerant(text.slice(p, bm.end));
      if (!isPlainObject(v)) continue;
      ({ end, args } = { end: bm.end, args: v });
      shape = "name-colon-json";
    } else continue;
    const rest = /^[ \t;]*(?:\n|$)/.exec(text.slice(end, end + 200));
    if (!rest) continue;
    candidates.push({ name, args, untyped: false, span: { start: at, end }, shape });
  }

  const regions = findCodeRegions(text);
  const found: StructuralCall[] = [];
  let takenEnd = -1;
  for (const c of candidates.sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end)) {
    // Candidates come in text order: one overlapping a call already taken starts before its end.
    if (c.span.start < takenEnd) continue;
    const region = regions.find((r) => r.start <= c.span.start && c.span.end <= r.end);
    if (region && (!region.fenced || !CALL_FENCE_INFO.test(region.info))) {
      notes.push(`${c.shape} markup for ${c.name} is quoted in code; not a call`);
      continue;
    }
    if (introducedAsExample(text, region ? region.start : c.span.start)) {
      notes.push(`${c.shape} markup for ${c.name} is introduced as an example; not a call`);
      continue;
    }
    const tool = offered(c.name)!;
    // Whether the markup is a call is decided by its fit to the schema here; the validator judges it later.
    const prepared = prepareArguments(c.args, tool, { untyped: c.untyped });
    if (!prepared.ok || !fitsSchema(prepared.arguments, tool.parameters)) {
      notes.push(`${c.shape} markup for ${c.name} does not fit its parameters${prepared.ok ? "" : ` (${prepared.message})`}; not a call`);
      continue;
    }
    let span = c.span;
    if (region && region.fenced && text.slice(region.bodyStart, span.start).trim() === "" && text.slice(span.end, region.bodyEnd).trim() === "") {
      span = { start: region.start, end: region.end };
    }
    found.push({ call: { name: c.name, arguments: c.args, ...(c.untyped ? { untyped: true } : {}) }, span, shape: c.shape });
    takenEnd = Math.max(takenEnd, span.end);
  }
  return { found, notes };
}
