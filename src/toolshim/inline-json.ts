/**
 * Stage 2, inline JSON: tool calls written as JSON without any dialect marker —
 * bare or fenced, one or several per message, embedded in prose.
 *
 * Shapes recognised in each JSON value that `json.ts`'s balanced scanner finds:
 * - a call object: the name under `name` (or `tool_name`, `tool`, `function`, `function_name`)
 *   plus `arguments` | `parameters` | `args` | `input` (an object, or a JSON string —
 *   double-encoded arguments, ollama pull #12413);
 * - OpenAI envelopes: `{"type": "function", "function": {…}}`, `{"function": {…}}`,
 *   `{"function_call": {…}}`, `{"tool_call": {…}}`, `{"tool_calls": [ … ]}`;
 * - an array whose every element is one of the above (xLAM, Sarashina Python dicts);
 * - an arguments object named by what surrounds it: `<tool_call name="x">{…}</tool_call>`,
 *   `<function name="x">{…}</function>`, `<function=x>{…}</function>` (DeepSeek V4 fallback,
 *   Hermes wrapper drift, Functionary v3.1), `x({…})` (Kimi plain text, openclaw#41297), and
 *   ReAct lines `Action: x` / `Action Input: {…}` (LangChain-trained models);
 * - the flat form `{"tool": "x", "a": 1}`, only for an offered tool whose schema has every other
 *   key as a parameter.
 *
 * The removed span of a call grows over what wraps only the call: wrapper tags
 * (`<response>`, `<function_call>`, `<JSON>` …), a code fence whose body is nothing but calls,
 * a `Using tool: x` line just before it, `;`/`,` separators between calls.
 *
 * Decoys that are not calls (aaif-goose/goose issue #1857): JSON in inline code; JSON inside a code
 * block in a programming language or mixed with code; JSON introduced as an example
 * ("for example", "e.g.", "such as", "look like", "syntax", "schema", "template");
 * arguments that are all placeholders (`"<path>"`, `"..."`); tool definitions echoed back
 * (`description` + JSON Schema `parameters`); name-only or argument-less objects;
 * truncated values (the scanner's `truncated`); values nested in a truncated value (`enclosed`).
 * Whether the name is offered is decided by the pipeline (`names.ts`), not here (except for the
 * flat form, which needs the schema to be told from data).
 */
import { CALL_FENCE_LANGS } from "./dialects/fence.js";
import { escapeRegExp } from "./dialects/text-scan.js";
import { isParamTag } from "./dialects/xml-elements.js";
import { isPlainObject, scanJsonValues } from "./json.js";
import { CALL_DIRECTIVE_LINE, findCodeRegions, overlaps, type CodeRegion } from "./residue.js";
import { resolveToolName } from "./names.js";
import type { OfferedTool, RawCall, Span } from "./types.js";

/** One JSON value that holds calls. */
export interface InlineGroup {
  calls: RawCall[];
  /** What to remove when the group is accepted (the value plus what wraps only it). */
  span: Span;
  /**
   * The model clearly meant a call (the whole message, an envelope, a wrapper tag, a
   * `Using tool:` line, `x({…})`): an unknown name then deserves a tool error, not silence.
   */
  clearlyTried: boolean;
}

/** Result of {@link scanInlineCalls}. */
export interface InlineScan {
  groups: InlineGroup[];
  /** Why candidate values were not taken as calls (for `RecoverResult.diagnostics`). */
  notes: string[];
}

const ARG_KEYS = ["arguments", "parameters", "args", "input"] as const;
/** Keys that may hold the tool name (with an arguments key beside it), in priority order. */
const NAME_KEYS = ["name", "tool_name", "tool", "function", "function_name"] as const;
/** Keys that are never arguments in the flat form `{"tool": "x", "a": 1}`. */
const FLAT_META = new Set(["type", "id", "tool_call_id", "call_id"]);
const EXAMPLE_CUE =
  /\b(?:for example|for instance|e\.g\.|examples?|such as|would look like|looks? like|syntax|schema|template|placeholder)\b/i;
const PLACEHOLDER = /^(?:<[^<>]+>|\.\.\.|…|\{\{?\s*\w+\s*\}?\}|\$\{?\w+\}?|your_\w+|x{3,})$/i;

interface Extracted {
  calls: RawCall[];
  envelope: boolean;
  /** Every call is a tool definition echoed back ({@link isToolDefinitionEcho}), not a call. */
  echo?: boolean;
}

function callFrom(obj: Record<string, unknown>, depth = 0): Extracted | undefined {
  for (const key of ["function", "function_call", "tool_call"] as const) {
    const inner = obj[key];
    if (isPlainObject(inner) && depth < 2) {
      const r = callFrom(inner, depth + 1);
      if (r) return { ...r, envelope: true };
    }
  }
  const name = NAME_KEYS.map((k) => obj[k]).find((v): v is string => typeof v === "string" && v.trim() !== "");
  if (name === undefined) return undefined;
  const key = ARG_KEYS.find((k) => k in obj);
  if (key === undefined) return undefined;
  const call: RawCall = { name, arguments: obj[key] };
  if (typeof obj.id === "string") call.id = obj.id;
  return { calls: [call], envelope: false, echo: isToolDefinitionEcho(call, obj) };
}

/**
 * A tool definition echoed back (the catalogue a model saw: `description` beside the name, or
 * `parameters` that are a JSON Schema `{"type": "object", "properties": {…}}`) is not a call
 * (goose#7235: small models regurgitate the tool list).
 */
export function isToolDefinitionEcho(call: RawCall, holder?: Record<string, unknown>): boolean {
  const a = call.arguments;
  const schemaLike =
    isPlainObject(a) && isPlainObject(a.properties) && (a.type === "object" || Array.isArray(a.required)) && Object.keys(a).every((k) => SCHEMA_KEYS.has(k));
  return schemaLike || (holder !== undefined && typeof holder.description === "string" && isPlainObject(holder.parameters));
}

const SCHEMA_KEYS = new Set(["type", "properties", "required", "additionalProperties", "description", "title", "$schema", "$defs", "definitions"]);

/** The calls a parsed JSON value holds, if it is call-shaped. */
export function extractCalls(value: unknown): Extracted | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const parts = value.map((v) => (isPlainObject(v) ? extractCalls(v) : undefined));
    if (parts.some((p) => p === undefined)) return undefined;
    return { calls: parts.flatMap((p) => p!.calls), envelope: parts.some((p) => p!.envelope), echo: parts.every((p) => p!.echo === true) };
  }
  if (!isPlainObject(value)) return undefined;
  if (Array.isArray(value.tool_calls)) {
    const inner = extractCalls(value.tool_calls);
    return inner ? { ...inner, envelope: true } : undefined;
  }
  return callFrom(value);
}

const TAIL = 400;

/** `<tag …>` directly before `start` and `</tag>` directly after `end`: the name it gives, if any. */
function wrapperAround(text: string, start: number, end: number): { start: number; end: number; name?: string } | undefined {
  const before = text.slice(Math.max(0, start - TAIL), start);
  const after = text.slice(end, end + TAIL);
  const eq = /<function=([^<>\s]+)>\s*$/.exec(before);
  if (eq) {
    const close = /^\s*<\/function\s*>/.exec(after);
    if (close) return { start: start - eq[0].length, end: end + close[0].length, name: eq[1]! };
  }
  const open = /<([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"']+))?)*)\s*>\s*$/.exec(before);
  if (!open) return undefined;
  const tag = open[1]!;
  const close = new RegExp(`^\\s*</${escapeRegExp(tag)}\\s*>`).exec(after);
  if (!close) return undefined;
  const attr = /\sname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/.exec(open[2] ?? "");
  const out: { start: number; end: number; name?: string } = { start: start - open[0].length, end: end + close[0].length };
  // A parameter element (`<parameter name="metadata">{…}</parameter>` inside a call whose wrapper
  // no dialect read) names a parameter, not a tool.
  if (isParamTag(tag)) return out;
  const name = attr ? (attr[1] ?? attr[2] ?? attr[3]) : undefined;
  if (name) out.name = name;
  return out;
}

/**
 * ReAct-style lines directly before the JSON (LangChain agents; small models trained on them):
 * `Action: NAME` then `Action Input:` (also `Tool:`/`Function:` with `Arguments:`/`Input:`/
 * `Parameters:`), the JSON optionally in a fence.
 */
const REACT = /(?:^|\n)([ \t]*(?:Action|Tool|Tool name|Function|Tool call)[ \t]*:[ \t]*`?([\w.:-]+)`?[ \t]*\n[ \t]*(?:Action[ _]Input|Tool[ _]Input|Arguments|Args|Input|Parameters)[ \t]*:[ \t]*(?:\n[ \t]*)?(?:(`{3,})[\w-]*[ \t]*\n[ \t]*)?)$/i;

function reactAround(text: string, start: number, end: number): { start: number; end: number; name: string } | undefined {
  const base = Math.max(0, start - TAIL);
  const m = REACT.exec(text.slice(base, start));
  if (!m) return undefined;
  let stop = end;
  if (m[3]) {
    const close = new RegExp(`^\\s*${m[3]}[ \\t]*(?=\\n|$)`).exec(text.slice(end, end + TAIL));
    if (!close) return undefined;
    stop = end + close[0].length;
  }
  return { start: base + m.index + (m[0].length - m[1]!.length), end: stop, name: m[2]! };
}

/**
 * The flat form `{"tool": "x", "module_name": "y"}`: the name under a name key and the other
 * keys as the arguments. Accepted only for an offered tool with a schema that has every other
 * key as a property (otherwise it is data such as `{"name": "Alice", "age": 3}`).
 */
function flatCall(value: unknown, tools: readonly OfferedTool[]): RawCall | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const key of NAME_KEYS) {
    const name = value[key];
    if (typeof name !== "string") continue;
    const resolved = resolveToolName(name, tools);
    const props = resolved === undefined ? undefined : tools.find((t) => t.name === resolved)?.parameters?.properties;
    if (!isPlainObject(props)) return undefined;
    const args = Object.fromEntries(Object.entries(value).filter(([k]) => k !== key && !FLAT_META.has(k)));
    if (Object.keys(args).length === 0 || !Object.keys(args).every((k) => k in props)) return undefined;
    return { name, arguments: args };
  }
  return undefined;
}

/** `name(` directly before `start` and `)` directly after `end` (`exec({…})`). */
function callSyntaxAround(text: string, start: number, end: number): { start: number; end: number; name: string } | undefined {
  const base = Math.max(0, start - TAIL);
  const before = /([A-Za-z_][\w.]{0,80})\(\s*$/.exec(text.slice(base, start));
  const after = /^\s*\)/.exec(text.slice(end, end + TAIL));
  if (!before || !after) return undefined;
  return { start: base + before.index, end: end + after[0].length, name: before[1]! };
}

interface Grown {
  span: Span;
  wrapped: boolean;
  directive: boolean;
}

/** Grow a call span over wrapper tags, a call-only fence and a directive line (`Using tool:`, `Tool call:`). */
function grow(text: string, span: Span, regions: readonly CodeRegion[]): Grown {
  let { start, end } = span;
  let wrapped = false;
  let directive = false;
  for (let changed = true; changed; ) {
    changed = false;
    const w = wrapperAround(text, start, end);
    if (w) {
      ({ start, end } = w);
      wrapped = changed = true;
      continue;
    }
    const fence = regions.find((r) => r.fenced && r.bodyStart <= start && end <= r.bodyEnd);
    if (fence && text.slice(fence.bodyStart, start).trim() === "" && text.slice(end, fence.bodyEnd).trim() === "") {
      if (fence.start < start || fence.end > end) {
        ({ start, end } = fence);
        changed = true;
        continue;
      }
    }
    const line = CALL_DIRECTIVE_LINE.exec(text.slice(Math.max(0, start - TAIL), start));
    if (line) {
      start -= line[1]!.length;
      directive = changed = true;
    }
  }
  return { span: { start, end }, wrapped, directive };
}

function isPlaceholderArgs(args: unknown): boolean {
  if (!isPlainObject(args)) return false;
  const values = Object.values(args);
  return values.length > 0 && values.every((v) => typeof v === "string" && PLACEHOLDER.test(v.trim()));
}

/** The last one or two sentences of the paragraph before `start`. */
function introduction(text: string, start: number): string {
  const paras = text.slice(Math.max(0, start - TAIL), start).split(/\n[ \t]*\n/);
  let para = paras.pop() ?? "";
  // What follows starts a paragraph (a fence or an indented block after a blank line): the
  // paragraph before introduces it.
  if (para.trim() === "" && paras.length > 0) para = paras.pop() ?? "";
  const sentences = para.split(/(?<=[.!?])\s+(?=\S)/);
  return sentences.slice(-2).join(" ");
}

/**
 * Whether the text right before `start` introduces what follows as an example ("for example",
 * "e.g.", "such as", "look(s) like", "syntax", "schema", "template" in the last one or two
 * sentences of the paragraph). Used for inline JSON and for dialects with weak markers.
 */
export function introducedAsExample(text: string, start: number): boolean {
  return EXAMPLE_CUE.test(introduction(text, start));
}

/**
 * Find call-shaped JSON in `text` (see the module comment for shapes and decoys).
 * @param tools the offered tools; only the flat form uses them.
 * @returns the groups in text order with the spans to remove, and notes on rejected candidates.
 */
export function scanInlineCalls(text: string, tools: readonly OfferedTool[] = []): InlineScan {
  const regions = findCodeRegions(text);
  const scanned = scanJsonValues(text);
  const groups: InlineGroup[] = [];
  const notes: string[] = [];
  for (const v of scanned) {
    if (v.enclosed) continue;
    if (v.truncated) {
      if (/"(?:name|function|tool_calls)"\s*:/.test(text.slice(v.start, v.start + 200))) {
        notes.push(`a call-shaped JSON value at offset ${v.start} is cut off before it closes; not a call`);
      }
      continue;
    }
    let extracted = extractCalls(v.value);
    let start = v.start;
    let end = v.end;
    let named = false;
    if (!extracted && isPlainObject(v.value)) {
      const w = wrapperAround(text, v.start, v.end);
      const named2 = w?.name ? w : (reactAround(text, v.start, v.end) ?? callSyntaxAround(text, v.start, v.end));
      if (named2?.name !== undefined) {
        extracted = { calls: [{ name: named2.name, arguments: v.value }], envelope: false };
        ({ start, end } = named2);
        named = true;
      }
    }
    if (!extracted) {
      const flat = flatCall(v.value, tools);
      if (flat) extracted = { calls: [flat], envelope: false };
    }
    if (!extracted) continue;
    if (extracted.echo === true) {
      notes.push(`JSON for ${extracted.calls[0]!.name} is a tool definition, not a call`);
      continue;
    }
    const region = regions.find((r) => r.start <= v.start && v.end <= r.end);
    if (region && !region.fenced) {
      notes.push(`JSON for ${extracted.calls[0]!.name} is inside inline code (an example); not a call`);
      continue;
    }
    if (region && !CALL_FENCE_LANGS.has(region.info)) {
      notes.push(`JSON for ${extracted.calls[0]!.name} is inside a ${region.info} code block; not a call`);
      continue;
    }
    if (region) {
      let body = text.slice(region.bodyStart, region.bodyEnd);
      for (const o of scanned) {
        if (o.start >= region.bodyStart && o.end <= region.bodyEnd) {
          body = body.slice(0, o.start - region.bodyStart) + " ".repeat(o.end - o.start) + body.slice(o.end - region.bodyStart);
        }
      }
      if (!/^(?:[\s;,]|<\/?[A-Za-z][^<>]*>|[A-Za-z_][\w.]*\(|\))*$/.test(body)) {
        notes.push(`JSON for ${extracted.calls[0]!.name} is part of a larger code block; not a call`);
        continue;
      }
    }
    const grown = grow(text, { start, end }, regions);
    if (!named) {
      const c = callSyntaxAround(text, grown.span.start, grown.span.end);
      if (c) grown.span = { start: c.start, end: c.end };
    }
    if (introducedAsExample(text, grown.span.start)) {
      notes.push(`JSON for ${extracted.calls[0]!.name} is introduced as an example; not a call`);
      continue;
    }
    if (extracted.calls.every((c) => isPlaceholderArgs(c.arguments))) {
      notes.push(`JSON for ${extracted.calls[0]!.name} has only placeholder arguments; not a call`);
      continue;
    }
    const whole = text.slice(0, grown.span.start).trim() === "" && text.slice(grown.span.end).trim() === "";
    groups.push({
      calls: extracted.calls,
      span: grown.span,
      clearlyTried: whole || extracted.envelope || grown.wrapped || grown.directive || named,
    });
  }
  // Separators between consecutive groups (`{…}; {…}`) belong to the calls.
  for (let i = 1; i < groups.length; i++) {
    const a = groups[i - 1]!.span;
    const b = groups[i]!.span;
    if (!overlaps(a, b) && /^[\s;,]*$/.test(text.slice(a.end, b.start)) && /[;,]/.test(text.slice(a.end, b.start))) {
      b.start = a.end;
    }
  }
  return { groups, notes };
}
