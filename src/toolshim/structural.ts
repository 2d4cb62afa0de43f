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
 * - `named-element`: any element whose `name` (or `tool`, `function` …: {@link TOOL_NAME_ATTR})
 *   attribute is the tool name, arguments as children
 *   (`<parameter name="k">v</parameter>`, `<param …>`, `<arg …>`, or `<k>v</k>`) or a JSON
 *   body — `<invoke name="search_code">…</invoke>`. A run of punctuation glued before every tag
 *   (a vendor prefix such as MiniMax-M3's `]<]minimax[>[`) is read as part of the tags;
 * - `bracket-block`: `[NAME]{json}[/NAME]` or `[NAME]{json}[END…]` (also at the end of the text);
 * - `keyword-call`: a line that is only `NAME(key=value, …)` (Python literals);
 * - `name-colon-json`: a line `NAME: {json}`;
 * - `brace-call`: `call:NAME{key:value,…}` (Gemma's body syntax without its markers; the string
 *   delimiter is whichever token opens the first value: `<|"|>`, `<escape>`);
 * - `framed-name`: a tool name framed by wrapper markers (`markers.ts`: special tokens, bracketed
 *   upper-case tokens, bare tags) — `<|tool_call_begin|>functions.NAME:0<|…|>{json}`,
 *   `[TOOL_CALLS]NAME[ARGS]{json}`, `function<｜tool▁sep｜>NAME` + a fenced JSON body,
 *   `to=functions.NAME <|constrain|>json<|message|>{json}`, `<function=NAME>` — followed by a JSON
 *   object (or a JSON string holding one), a run of parameter elements (`<parameter=k>v`,
 *   `<arg_key>k</arg_key><arg_value>v</arg_value>`, `<k>v</k>`), or nothing when only markers
 *   follow (a call without arguments);
 * - `name-keyed-json`: right after a marker, `{"NAME": {…}}` or a list of such objects.
 *
 * Line shapes count a marker as a line break (the text is searched with its markers masked, the
 * original is parsed), and the markers that frame an accepted call are removed with it (a word
 * standing between two of them, such as `assistant` or `json`, too). A framed call of an offered
 * tool whose JSON is invalid or cut off is reported as a broken block (`StructuralScan.broken`).
 *
 * Never: prose that merely names a tool (every shape needs its structure; a bare name needs a
 * marker next to it or parameter elements after it), markup inside inline
 * code or a code block in a programming language, markup the text introduces as an example
 * ("for example", "e.g." …: `inline-json.ts` `introducedAsExample`), tools that are not offered,
 * and arguments that fail the schema (then nothing is read; the interpreter may still run).
 * Values written as text are typed by the schema (`RawCall.untyped`).
 */
import { prepareArguments } from "./arguments.js";
import { fitsSchema } from "./schema.js";
import { parseBraceCall } from "./dialects/brace-call.js";
import { elementsToObject, elementValue, isParamTag, readElement, type XmlElement } from "./dialects/xml-elements.js";
import { cleanXmlValue, escapeRegExp, skipWs } from "./dialects/text-scan.js";
import { introducedAsExample } from "./inline-json.js";
import { balancedMatcher, isPlainObject, matchBalanced, parseJsonTolerant } from "./json.js";
import { growOverMarkers, MarkerIndex } from "./markers.js";
import { resolveToolName } from "./names.js";
import { parsePythonCallAt } from "./python-literal.js";
import { findCodeRegions } from "./residue.js";
import type { JsonSchema } from "../llm/types.js";
import type { BrokenBlock, OfferedTool, ParseContext, RawCall, Span } from "./types.js";

/** One call the structural stage read. */
export interface StructuralCall {
  call: RawCall;
  /** The markup to remove. */
  span: Span;
  /** Which shape matched (module comment). */
  shape: StructuralShape;
}

/** The shapes of the structural stage (module comment). */
export type StructuralShape =
  | "element"
  | "named-element"
  | "bracket-block"
  | "keyword-call"
  | "name-colon-json"
  | "brace-call"
  | "framed-name"
  | "name-keyed-json";

/** Fenced code whose body may hold a call (the rest is program code: quoted, never called). */
const CALL_FENCE_INFO = /^(?:|json|xml|text|tool|tools|tool_call|tool_calls|tool_code|function|function_call)$/;
/**
 * The attributes of an element that name the tool it calls: `name` (`<invoke name="x">`), or
 * `tool`/`function` with or without `_name` (Gemini 3 writes `<call_record tool="read">` with
 * `<parameter name="path">` children, can1357/oh-my-pi issue#92). Group 1 is the attribute,
 * group 2 the name ({@link TOOL_NAME_ATTR}); a `name` inside another word (`tool_name`) is that word's.
 */
export const TOOL_NAME_ATTRS = "name|tool|tool_name|function|function_name";
const TOOL_NAME_ATTR = new RegExp(`\\b(${TOOL_NAME_ATTRS})\\s*=\\s*["']([^"'\\n]{1,80})["']`);
/** Tag names of a key/value pair of elements (`<arg_key>k</arg_key><arg_value>v</arg_value>`). */
const PAIR_KEY_TAG = /key|name/i;
const PAIR_VALUE_TAG = /val/i;
/** How far after a framed name its arguments may start (markers, a `json` word, a fence between). */
const FRAME_REACH = 400;

interface Candidate {
  calls: { name: string; args: unknown; untyped: boolean }[];
  span: Span;
  shape: StructuralShape;
  /** The vendor prefix glued before every tag of the markup (`]<]minimax[>[`), when there is one. */
  prefix?: string;
}

/**
 * Text glued before the `<` of an element that also comes before its closer, before `limit` (a
 * vendor tag prefix such as `]<]minimax[>[`), or `""`. The glued run may begin with the tag
 * before it when the model writes no whitespace between tags (`<｜GCML｜tool_calls><｜GCML｜invoke …>`,
 * read here as `｜GCML｜<tool_calls>｜GCML｜<invoke …>`): then the prefix starts after one of the
 * run's `>` (the longest that fits).
 */
function tagPrefix(text: string, lt: number, tag: string, limit: number): string {
  let i = lt;
  while (i > 0 && lt - i < 24 && !/\s/.test(text[i - 1]!)) i--;
  const body = text.slice(lt, limit);
  for (let k = i; k < lt; ) {
    const p = text.slice(k, lt);
    if (/[^\w]/.test(p) && !/["'`]/.test(p) && body.includes(`${p}</${tag}>`)) return p;
    const gt = text.indexOf(">", k);
    if (gt < 0) break;
    k = gt + 1;
  }
  return "";
}

/**
 * A parameter that declares its value is not a string (`string="false"`, DeepSeek V3.2's DSML
 * and Doubao-Seed: sglang `deepseekv32_detector`) holds JSON; text that is not JSON stays text.
 */
function declaredJson(text: string): unknown {
  const v = parseJsonTolerant(text.trim());
  return v === undefined ? text : v;
}

/**
 * The text of a parameter element named by its `name` attribute. A value whose closer was dropped
 * and that ends with a tag named after the parameter (`<parameter name="content">…</content>`
 * then the next parameter, anthropics/claude-code issue#83088) ends at that tag, as in
 * `dialects/invoke-block.ts`.
 */
function namedValue(c: XmlElement, key: string): string {
  if (!c.implicit) return c.text;
  const wrong = new RegExp(`</${escapeRegExp(key)}\\s*>\\s*$`).exec(c.text);
  return wrong ? cleanXmlValue(c.text.slice(0, wrong.index)) : c.text;
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
  const named = el.children.filter((c) => isParamTag(c.tag) && c.attrs["name"]);
  if (named.length === el.children.length) {
    const out: Record<string, unknown> = {};
    for (const c of named) {
      const key = c.attrs["name"]!;
      if (key in out) return undefined;
      const text = namedValue(c, key);
      out[key] = c.children.length > 0 ? elementsToObject(c.children) : c.attrs["string"] === "false" ? declaredJson(text) : text;
    }
    return out;
  }
  return elementsToObject(el.children, tool.parameters);
}

/**
 * Tags whose vendor prefix sits inside the bracket (`<｜DSML｜invoke …>`, DeepSeek V3.2) written
 * with the prefix outside (`｜DSML｜<invoke …>`): the same length, so offsets hold, and the
 * element reader's prefix rule reads them.
 */
function prefixOutside(text: string): string {
  return text.replace(/<(\/?)([|｜][^<>|｜\s]{1,20}[|｜])(?=[A-Za-z_])/g, (_m, slash: string, pre: string) => `${pre}<${slash}`);
}

/** A key-in-tag opener (`<parameter=k>`, `<function=NAME>`): the next parameter or the next call. */
const KEYED_OPENER = /<[A-Za-z_][\w.:-]*=/y;
/** A closing tag (drifted ones too: `</parameter/>`, `</parameter1>`); group 1 is its name. */
const ANY_CLOSER = /<\/([A-Za-z_][\w.:-]*)[^<>\n]{0,20}>/y;

/**
 * Where the value of `<T=k>` that starts at `from` ends (the rule of `dialects/xml-function.ts`,
 * for tags no dialect lists): at a closer that markup follows — the value's own closer `</T>`
 * (drifted, or the wrong closer `</k>` named after the parameter, anthropics/claude-code
 * issue#83088) followed by the next `<T=`, another closer, the next `<X=` call, a special token or
 * the end; or another tag's closer (`</function>` when `</T>` was dropped) followed by the same
 * except `</T>` itself. A closer that prose follows (a file that mentions `</parameter>` or
 * `</tool_call>`, raullenchai/Rapid-MLX issue#1515) is literal text of the value. Without a
 * closer followed by markup, the value ends as before: at its first own closer or the next `<T=`
 * (a dropped closer), else at the first closer (a model that dropped closers); when the token
 * limit cut the text inside the value (`endIsCut`), nothing before the cut ends it.
 * @returns `valueEnd` and `after` (past the value's own closer), or `undefined` when the value is cut off.
 */
function keyedValueEnd(
  text: string,
  from: number,
  limit: number,
  tag: string,
  key: string,
  endIsCut: boolean,
): { valueEnd: number; after: number } | undefined {
  const ownNames = new Set([tag, key]);
  let firstOwn: { valueEnd: number; after: number } | undefined;
  let firstAny: { valueEnd: number; after: number } | undefined;
  const markupAfter = (i: number, own: boolean): boolean => {
    const k = skipWs(text, i, limit);
    if (k >= limit) return !(endIsCut && limit >= text.length);
    KEYED_OPENER.lastIndex = k;
    if (KEYED_OPENER.test(text)) return true;
    if (/^<[|｜]|^\[\/?[A-Z][A-Z0-9_]{1,40}\]/.test(text.slice(k, k + 42))) return true;
    ANY_CLOSER.lastIndex = k;
    const c = ANY_CLOSER.exec(text);
    return c !== null && (own || !c[1]!.startsWith(tag));
  };
  for (let lt = text.indexOf("<", from); lt >= 0 && lt < limit; lt = text.indexOf("<", lt + 1)) {
    if (text.startsWith(`<${tag}=`, lt)) return firstOwn ?? { valueEnd: lt, after: lt };
    ANY_CLOSER.lastIndex = lt;
    const c = ANY_CLOSER.exec(text);
    if (!c || ANY_CLOSER.lastIndex > limit) continue;
    const name = c[1]!;
    const own = name.startsWith(tag) || (ownNames.has(name) && c[0] === `</${name}>`);
    // The value's own closer goes with it; another tag's closer is that tag's.
    const candidate = { valueEnd: lt, after: own ? ANY_CLOSER.lastIndex : lt };
    if (markupAfter(ANY_CLOSER.lastIndex, own)) return candidate;
    if (own) firstOwn ??= candidate;
    else firstAny ??= candidate;
  }
  if (endIsCut && limit >= text.length) return undefined;
  return firstOwn ?? firstAny;
}

/**
 * Arguments written as a run of elements right after a framed name, from `at` (whitespace
 * first), not past `limit`: `<parameter=k>v</parameter>` (the key in the tag), `<arg name="k">v</arg>`
 * (a `name` attribute), `<arg_key>k</arg_key><arg_value>v</arg_value>` (key/value pairs) or
 * `<k>v</k>` for a parameter of the tool's schema. Values stay text (typed by the schema later).
 */
function readElementArgs(
  text: string,
  at: number,
  limit: number,
  tool: OfferedTool,
  endIsCut = false,
): { args: Record<string, unknown>; end: number; cut: boolean } | undefined {
  const props = isPlainObject(tool.parameters?.properties) ? (tool.parameters.properties as Record<string, JsonSchema>) : {};
  const args: Record<string, unknown> = {};
  let end = at;
  let count = 0;
  let pairTags: [string, string] | undefined;
  let cut = false;
  // `<parameter=k>` (a trailing space or a dropped `>` before the line break are tolerated).
  const keyIn = /<([A-Za-z_][\w.:-]*)=([^<>\s"']{1,80})(?:[ \t]*>|(?=\r?\n))/y;
  for (let guard = 0; guard < 256; guard++) {
    const i = skipWs(text, end, limit);
    if (i >= limit || text[i] !== "<") break;
    keyIn.lastIndex = i;
    const k = keyIn.exec(text);
    if (k) {
      const from = keyIn.lastIndex;
      const value = keyedValueEnd(text, from, limit, k[1]!, k[2]!, endIsCut);
      if (!value) {
        // The value runs into the end of the text (or the next call): cut off.
        cut = true;
        break;
      }
      args[k[2]!] = cleanXmlValue(text.slice(from, value.valueEnd));
      end = value.after;
      count++;
      continue;
    }
    const r = readElement(text, i, "", limit);
    if (!r.ok) {
      // Cut off only when the unfinished element is one more argument.
      const tag = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(i, i + 100))?.[1] ?? "";
      cut = r.reason === "truncated" && count > 0 && (tag in props || tag === pairTags?.[0] || isParamTag(tag));
      break;
    }
    const el = r.element;
    const key = el.attrs["name"];
    if (key !== undefined && el.children.length === 0) {
      args[key] = namedValue(el, key);
    } else if (el.children.length === 0 && PAIR_KEY_TAG.test(el.tag) && /^[A-Za-z_][\w.-]{0,60}$/.test(el.text.trim())) {
      const v = readElement(text, skipWs(text, el.end, limit), "", limit);
      if (!v.ok) {
        cut = v.reason === "truncated";
        break;
      }
      if (v.element.tag === el.tag || !PAIR_VALUE_TAG.test(v.element.tag)) break;
      if (pairTags && (pairTags[0] !== el.tag || pairTags[1] !== v.element.tag)) break;
      pairTags = [el.tag, v.element.tag];
      const name = el.text.trim();
      args[name] = elementValue(v.element, props[name]);
      end = v.element.end;
      count++;
      continue;
    } else if (el.tag in props) {
      args[el.tag] = elementValue(el, props[el.tag]);
    } else break;
    end = el.end;
    count++;
  }
  return count > 0 || cut ? { args, end, cut } : undefined;
}

/** A marker that opens a frame which must close: `<tag>` (closed by `</tag>`) or a begin/start token. */
const BEGIN_TOKEN = /begin|start|open/i;
const END_TOKEN = /end|close|stop|finish/i;

/**
 * Whether the frame opened by the marker `opener` closes after a call that ends at `end`: a bare
 * tag's closer follows before the tag opens again (`<tool_call>` … `</tool_call>`), or, for a
 * begin/start opener (`<|tool_call_begin|>`, `<start_of_call>`), one of the markers right after
 * the call (whitespace between) is an end token (`<|tool_call_end|>`, `<end_of_call>`). Other
 * openers (`[TOOL_CALLS]`, `<|tool_sep|>`) need no closer.
 */
function frameCloses(text: string, end: number, limit: number, opener: string, markers: MarkerIndex): boolean {
  const tag = /^<([A-Za-z_][\w.:-]*)>$/.exec(opener)?.[1];
  if (tag !== undefined) {
    // The tag's closer comes before the tag opens again (one wrapper may hold several calls).
    const close = markers.nextSpelled(text, `</${tag}>`, end);
    const again = markers.nextSpelled(text, opener, end);
    if (close >= 0 && (again < 0 || close < again)) return true;
    // `<start_of_call>` may close with `<end_of_call>` instead.
    if (!BEGIN_TOKEN.test(tag)) return false;
  } else if (!(/^<[|｜]/.test(opener) && BEGIN_TOKEN.test(opener))) return true;
  let j = end;
  for (let k = 0; k < 8; k++) {
    j = skipWs(text, j, Math.min(limit, j + 200));
    const m = markers.startingAt(j);
    if (!m) return false;
    const mk = text.slice(m.start, m.end);
    if (END_TOKEN.test(mk)) return true;
    j = m.end;
  }
  return false;
}

/** `{"name": NAME, "arguments": {…}}` around the arguments of NAME is an envelope: its arguments. */
function unwrapEnvelope(v: Record<string, unknown>, tool: OfferedTool, tools: readonly OfferedTool[]): unknown {
  const name = v["name"];
  const inner = v["arguments"] ?? v["parameters"];
  if (typeof name === "string" && isPlainObject(inner) && resolveToolName(name, tools) === tool.name) return inner;
  return v;
}

/** Result of {@link scanStructural}. */
export interface StructuralScan {
  /** Accepted calls in text order. */
  found: StructuralCall[];
  /**
   * Framed calls of an offered tool whose arguments cannot be read (invalid or cut-off JSON), not
   * overlapping an accepted call: the pipeline's broken-block rule removes and refuses them.
   */
  broken: BrokenBlock[];
  /** Why candidates were refused. */
  notes: string[];
}

/**
 * Find structural calls in `text` (see the module comment).
 * @param tools the offered tools; only their names are read as calls.
 * @param context where the text ends ({@link ParseContext.endIsCut}: a framed name that the token
 *   limit left without arguments is a broken block, not a call without arguments).
 * @returns the accepted calls in text order (each span grown over the markers that frame it), and
 *   notes on candidates that were refused.
 */
export function scanStructural(text: string, tools: readonly OfferedTool[], context?: ParseContext): StructuralScan {
  const notes: string[] = [];
  if (tools.length === 0 || text.trim() === "") return { found: [], broken: [], notes };
  const names = [...new Set(tools.map((t) => t.name))].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const N = `(${names.join("|")})`;
  const candidates: Candidate[] = [];
  const broken: BrokenBlock[] = [];
  // Memoised: markup repeats the same tag names many times.
  const resolved = new Map<string, OfferedTool | undefined>();
  const offered = (name: string): OfferedTool | undefined => {
    if (resolved.has(name)) return resolved.get(name);
    const r = resolveToolName(name, tools);
    const tool = r === undefined ? undefined : tools.find((t) => t.name === r);
    resolved.set(name, tool);
    return tool;
  };
  const markers = new MarkerIndex(text, (name) => offered(name) !== undefined);
  const endIsCut = context?.endIsCut === true;
  const masked = markers.mask(text);
  const elemText = prefixOutside(text);

  // element / named-element. An element of a tool never holds the next element of the same tool:
  // each one is read only up to there (so many unclosed openers cost one pass, not one each).
  const opens: { at: number; tag: string; attrs: string; tool: OfferedTool; byTag: boolean; nameKey: string | undefined }[] = [];
  for (const m of elemText.matchAll(/<([A-Za-z_][\w.:-]*)([^<>]*)>/g)) {
    const attrs = m[2] ?? "";
    const named = TOOL_NAME_ATTR.exec(attrs);
    const byTag = offered(m[1]!);
    const byAttr = named === null ? undefined : offered(named[2]!);
    const tool = byTag ?? byAttr;
    if (tool) opens.push({ at: m.index, tag: m[1]!, attrs, tool, byTag: byTag !== undefined, nameKey: byAttr !== undefined ? named![1]! : undefined });
  }
  const nextOfTool = new Map<string, number>();
  const limits = new Array<number>(opens.length);
  for (let k = opens.length - 1; k >= 0; k--) {
    limits[k] = nextOfTool.get(opens[k]!.tool.name) ?? text.length;
    nextOfTool.set(opens[k]!.tool.name, opens[k]!.at);
  }
  opens.forEach((o, k) => {
    const prefix = tagPrefix(elemText, o.at, o.tag, limits[k]!);
    const r = readElement(elemText, o.at - prefix.length, prefix, Math.max(limits[k]! - prefix.length, o.at));
    if (!r.ok) return;
    const el = r.element;
    // An element named by `tool=`/`function=` alone is a call only with a body: a self-closing
    // `<widget tool="read"/>` is markup that mentions a tool (`name=` keeps its older rule).
    if (!o.byTag && o.nameKey !== "name" && el.children.length === 0 && el.text.trim() === "") return;
    let args: Record<string, unknown> | undefined;
    if (o.byTag) {
      const own = Object.fromEntries(Object.entries(el.attrs).filter(([key]) => key !== o.nameKey));
      const inner = childArgs(el, o.tool);
      args = inner === undefined ? undefined : { ...own, ...inner };
    } else {
      args = childArgs(el, o.tool);
    }
    if (args === undefined) return;
    candidates.push({
      calls: [{ name: o.tool.name, args, untyped: true }],
      span: { start: o.at - prefix.length, end: el.end },
      shape: o.byTag ? "element" : "named-element",
      ...(prefix !== "" ? { prefix } : {}),
    });
  });

  // Each opener's bracket match is found once per text (many unclosed `[NAME]{` used to read the
  // rest of the text once each).
  const balanced = balancedMatcher(text);

  // bracket-block: [NAME]{json}[/NAME] | [NAME]{json}[END…]
  for (const m of text.matchAll(new RegExp(`\\[${N}\\]`, "g"))) {
    const p = skipWs(text, m.index + m[0].length);
    if (text[p] !== "{") continue;
    const bm = balanced(p);
    if (!bm.ok) continue;
    const v = parseJsonTolerant(text.slice(p, bm.end));
    if (!isPlainObject(v)) continue;
    const close = new RegExp(`^\\s*\\[(?:\\/${escapeRegExp(m[1]!)}|END[A-Z_]*)\\]`).exec(text.slice(bm.end, bm.end + 80));
    if (!close && text.slice(bm.end).trim() !== "") continue;
    const args = isPlainObject(v["arguments"]) && v["name"] === m[1] ? v["arguments"] : v;
    candidates.push({ calls: [{ name: m[1]!, args, untyped: false }], span: { start: m.index, end: close ? bm.end + close[0].length : bm.end }, shape: "bracket-block" });
  }

  // keyword-call / name-colon-json / brace-call: a line that is only the call (markers count as
  // line breaks: the masked text is searched, the original is parsed).
  for (const m of masked.matchAll(new RegExp(`(?:^|\\n)([ \\t]*)(call:\\s*)?${N}([ \\t]*)([({:])`, "g"))) {
    const at = m.index + (m[0].startsWith("\n") ? 1 : 0) + m[1]!.length;
    const name = m[3]!;
    const opener = m[5]!;
    const openAt = m.index + m[0].length - 1;
    let end: number;
    let args: unknown;
    let shape: StructuralShape;
    if (m[2] !== undefined) {
      if (opener !== "{" && opener !== "(") continue;
      // The raw-string delimiter is whatever token opens the first value (`<|"|>`, `<escape>`).
      const quote = /\s*[^\s:{}"<]+\s*:\s*(<[^<>\s]{1,20}>)/y;
      quote.lastIndex = openAt + 1;
      const r = parseBraceCall(text, at, quote.exec(text)?.[1] ?? '<|"|>');
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
      const bm = balanced(p);
      if (!bm.ok) continue;
      const v = parseJsonTolerant(text.slice(p, bm.end));
      if (!isPlainObject(v)) continue;
      ({ end, args } = { end: bm.end, args: v });
      shape = "name-colon-json";
    } else continue;
    const rest = /^[ \t;\r]*(?:\n|$)/.exec(masked.slice(end, end + 200));
    if (!rest) continue;
    candidates.push({ calls: [{ name, args, untyped: false }], span: { start: at, end }, shape });
  }

  // framed-name: a tool name framed by markers (`<|tool_call_begin|>functions.NAME:0`,
  // `[TOOL_CALLS]NAME[ARGS]`, `function<｜tool▁sep｜>NAME`, `to=functions.NAME`, `<function=NAME>`),
  // then its arguments after more markers, a `json` word or a fence: a JSON object, a run of
  // parameter elements, or nothing at all when only markers or the end follow.
  const refs = [
    ...masked.matchAll(
      new RegExp(`<[A-Za-z_][\\w.:-]*=(?:[A-Za-z_][\\w-]*\\.)?${N}[ \\t]*>|(?<![\\w.:=-])(?:to=)?(?:[A-Za-z_][\\w-]*\\.)?${N}(?::\\d+)?(?![\\w-])`, "g"),
    ),
  ];
  refs.forEach((m, k) => {
    const tool = offered(m[1] ?? m[2]!);
    if (!tool) return;
    const a = m.index;
    const b = a + m[0].length;
    const limit = refs[k + 1]?.index ?? text.length;
    const back = masked.slice(Math.max(0, a - 120), a);
    const nl = back.lastIndexOf("\n");
    if (nl < 0 && a > 120) return;
    const lineStart = nl < 0 ? 0 : a - back.length + nl + 1;
    const left = masked.slice(lineStart, a);
    let q = lineStart;
    while (q > 0 && /\s/.test(text[q - 1]!) && !markers.startingAt(q - 1)) q--;
    const tagRef = m[1] !== undefined;
    // The marker right before the line (a masked marker is the line break itself).
    const openMarker = (lineStart > 0 ? markers.startingAt(lineStart - 1) : undefined) ?? markers.endingAt(q);
    const leftMarker = openMarker !== undefined;
    let opener = openMarker ? text.slice(openMarker.start, openMarker.end) : undefined;
    if (tagRef) {
      // `<function=NAME>`: the frame is the wrapper before it, if any.
      let t = a;
      while (t > 0 && /\s/.test(text[t - 1]!)) t--;
      const wrap = markers.endingAt(t);
      opener = wrap ? text.slice(wrap.start, wrap.end) : undefined;
    }
    if (!/^[ \t]*$/.test(left) && !(leftMarker && /^[ \t]*(?:[A-Za-z]+[ \t]+){1,2}$/.test(left))) return;
    let i = b;
    let crossed = 0;
    let fence = false;
    let jsonWord = false;
    for (let guard = 0; guard < 12 && i < limit && i - b < FRAME_REACH; guard++) {
      const j = skipWs(text, i, limit);
      const mk = markers.startingAt(j);
      if (mk && !(text[j] === "<" && readElementArgs(text, j, limit, tool, endIsCut))) {
        i = mk.end;
        crossed++;
        continue;
      }
      if (!jsonWord && /^json(?![\w])/i.test(text.slice(j, j + 5))) {
        i = j + 4;
        jsonWord = true;
        continue;
      }
      if (!fence && text.startsWith("```", j)) {
        const eol = text.indexOf("\n", j);
        if (eol < 0 || eol > limit || !/^```[ \t]*(?:json)?[ \t]*$/i.test(text.slice(j, eol))) break;
        i = eol + 1;
        fence = true;
        continue;
      }
      i = j;
      break;
    }
    let args: unknown;
    let end: number;
    let untyped = false;
    let kvRun = false;
    const framed = leftMarker || crossed > 0 || tagRef;
    const start = lineStart + (left.length - left.trimStart().length);
    if (text[i] === "{") {
      const bm = matchBalanced(text.slice(0, limit), i);
      if (!bm.ok) {
        // A framed call cut off by the end of the text is a broken block (removed and refused).
        if (framed && bm.reason === "eof" && limit >= text.length) broken.push({ span: { start, end: limit }, name: tool.name, reason: "its arguments are cut off" });
        return;
      }
      const v = parseJsonTolerant(text.slice(i, bm.end));
      if (!isPlainObject(v)) {
        // Up to the next marker on the same line (`{"a",,}}<|tool_call_end|>`).
        const tail = /^[^\n]{0,40}?(?=<|\[)/.exec(text.slice(bm.end, limit));
        const stop = tail && markers.startingAt(bm.end + tail[0].length) ? bm.end + tail[0].length : bm.end;
        if (framed) broken.push({ span: { start, end: stop }, name: tool.name, reason: "its arguments are not valid JSON" });
        return;
      }
      args = unwrapEnvelope(v, tool, tools);
      end = bm.end;
    } else if (text[i] === '"' && framed) {
      // Arguments written as a JSON string holding the object (double-encoded).
      const lit = /"(?:[^"\\\n]|\\.)*"/y;
      lit.lastIndex = i;
      const sm = lit.exec(text);
      if (!sm || lit.lastIndex > limit) return;
      let inner: unknown;
      try {
        inner = parseJsonTolerant(JSON.parse(sm[0]) as string);
      } catch {
        return;
      }
      if (!isPlainObject(inner)) return;
      args = inner;
      end = lit.lastIndex;
    } else if (text[i] === "<" && readElementArgs(text, i, limit, tool, endIsCut)) {
      const r = readElementArgs(text, i, limit, tool, endIsCut)!;
      if (r.cut) {
        if (framed || r.args !== undefined) broken.push({ span: { start, end: limit }, name: tool.name, reason: "its arguments are cut off" });
        return;
      }
      ({ args, end } = r);
      untyped = true;
      kvRun = true;
    } else {
      // No arguments: a name that a marker or its own tag opens, with only markers up to the next
      // name or the end.
      if (!(leftMarker || tagRef) || !/^[ \t]*$/.test(left) || skipWs(text, i) < limit) return;
      if (limit >= text.length && context?.endIsCut === true) {
        // The token limit stopped the model right after the name: its arguments may have followed.
        broken.push({ span: { start, end: limit }, name: tool.name, reason: "its arguments are cut off" });
        return;
      }
      args = {};
      end = b;
    }
    if (fence) {
      const q = skipWs(text, end, limit);
      if (!text.startsWith("```", q)) return;
      end = q + 3;
    }
    if (!framed && !kvRun) return;
    if (opener !== undefined && !frameCloses(text, end, limit, opener, markers)) {
      // A frame that opens with a begin token or a tag must close; one that never does was cut off.
      broken.push({ span: { start, end: limit }, name: tool.name, reason: "its markup is not closed" });
      return;
    }
    if (!/^[ \t;\r]*(?:\n|$)/.test(masked.slice(end, end + 200))) return;
    candidates.push({ calls: [{ name: tool.name, args, untyped }], span: { start, end }, shape: "framed-name" });
  });

  // name-keyed-json: right after a marker, `{"NAME": {…}}` or a list of them (Apertus).
  markers.spans.forEach((mk, k) => {
    const p = skipWs(text, mk.end);
    if (text[p] !== "{" && text[p] !== "[") return;
    const limit = markers.spans[k + 1]?.start ?? text.length;
    const bm = matchBalanced(text.slice(0, limit), p);
    if (!bm.ok) return;
    const v = parseJsonTolerant(text.slice(p, bm.end));
    const items = Array.isArray(v) ? v : [v];
    const calls: Candidate["calls"] = [];
    for (const item of items) {
      if (!isPlainObject(item)) return;
      const keys = Object.keys(item);
      const tool = keys.length === 1 ? offered(keys[0]!) : undefined;
      if (!tool || !isPlainObject(item[keys[0]!])) return;
      calls.push({ name: tool.name, args: item[keys[0]!], untyped: false });
    }
    if (calls.length === 0) return;
    if (!/^[ \t;\r]*(?:\n|$)/.test(masked.slice(bm.end, bm.end + 200))) return;
    candidates.push({ calls, span: { start: p, end: bm.end }, shape: "name-keyed-json" });
  });

  const regions = findCodeRegions(text);
  const taken: Candidate[] = [];
  let takenEnd = -1;
  for (const c of candidates.sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end)) {
    // Candidates come in text order: one overlapping a call already taken starts before its end.
    if (c.span.start < takenEnd) continue;
    const what = `${c.shape} markup for ${c.calls.map((x) => x.name).join(", ")}`;
    const region = regions.find((r) => r.start <= c.span.start && c.span.end <= r.end);
    if (region && (!region.fenced || !CALL_FENCE_INFO.test(region.info))) {
      notes.push(`${what} is quoted in code; not a call`);
      continue;
    }
    if (introducedAsExample(text, region ? region.start : c.span.start)) {
      notes.push(`${what} is introduced as an example; not a call`);
      continue;
    }
    // Whether the markup is a call is decided by its fit to the schema here; the validator judges it later.
    const misfit = c.calls
      .map((x) => {
        const tool = offered(x.name)!;
        const prepared = prepareArguments(x.args, tool, { untyped: x.untyped });
        return prepared.ok ? (fitsSchema(prepared.arguments, tool.parameters) ? undefined : "") : ` (${prepared.message})`;
      })
      .find((m) => m !== undefined);
    if (misfit !== undefined) {
      notes.push(`${what} does not fit its parameters${misfit}; not a call`);
      continue;
    }
    let span = c.span;
    if (region && region.fenced && text.slice(region.bodyStart, span.start).trim() === "" && text.slice(span.end, region.bodyEnd).trim() === "") {
      span = { start: region.start, end: region.end };
    }
    taken.push({ ...c, span });
    takenEnd = Math.max(takenEnd, span.end);
  }

  // The markers that frame each call go with it (a vendor prefix found on its tags is a marker too).
  const prefixes = [...new Set(taken.flatMap((c) => (c.prefix ? [c.prefix] : [])))];
  const frame =
    prefixes.length === 0
      ? markers
      : new MarkerIndex(
          text,
          (name) => offered(name) !== undefined,
          prefixes.flatMap((p) =>
            [...text.matchAll(new RegExp(`${escapeRegExp(p)}(?:<\\/?[A-Za-z_][\\w.:-]*>)?`, "g"))].map((m) => ({ start: m.index, end: m.index + m[0].length })),
          ),
        );
  const found: StructuralCall[] = [];
  taken.forEach((c, k) => {
    const lo = found.length > 0 ? found[found.length - 1]!.span.end : 0;
    const hi = taken[k + 1]?.span.start ?? text.length;
    const span = growOverMarkers(text, c.span, frame, lo, hi);
    for (const x of c.calls) found.push({ call: { name: x.name, arguments: x.args, ...(x.untyped ? { untyped: true } : {}) }, span, shape: c.shape });
  });
  const free = broken.filter((b) => !found.some((f) => f.span.start < b.span.end && b.span.start < f.span.end) && !regions.some((r) => r.start <= b.span.start && b.span.start < r.end));
  return {
    found,
    broken: free.map((b) => ({ ...b, span: growOverMarkers(text, b.span, frame) })),
    notes,
  };
}
