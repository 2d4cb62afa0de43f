/**
 * Bracket-arrow blocks (`bracket_arrow_tool_call`): `[TOOL_CALL]\n{tool => "NAME", args => {\n  --key "value"\n}}\n[/TOOL_CALL]`,
 * a Perl-hash-like call with command-line style arguments, which models behind Hermes Agent send
 * as their whole reply instead of a structured call (NousResearch/hermes-agent issue#11994: the
 * real reply quoted verbatim, the agent stops; a second user reports the same block for
 * `web_search`). Rules:
 * - `tool => "NAME"` then `args => ARGS`, separated by optional `,`, inside one brace pair; or the
 *   same as JSON, `{ "tool": "write", "args": {…} }` (MiniMax-M2 through LM Studio,
 *   lmstudio-ai/lmstudio-bug-tracker#1177, which names the `[TOOL_CALL]…[/TOOL_CALL]` blocks MiniMax-M2's);
 * - ARGS is `{ --key VALUE … }` (a `:` after the key tolerated), `{ key => VALUE, … }`, or a JSON
 *   object; VALUE is a double-quoted string (JSON escapes), a number, `true`/`false`/`null`, or a
 *   bare word up to whitespace (kept as text);
 * - the closer `[/TOOL_CALL]` may be missing at the end of the text when the block is complete;
 *   a block cut by the end of the text yields no call and is removed from the marker on (the
 *   rule of `json-envelope.ts`); a block whose body is not of this shape is left as text.
 */
import type { RawCall } from "../types.js";
import { isPlainObject, matchBalanced, parseJsonTolerant } from "../json.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { skipWs, tokenAt } from "./text-scan.js";

const OPEN = "[TOOL_CALL]";
const CLOSE = "[/TOOL_CALL]";

/** A double-quoted string starting at `i` (JSON escapes; raw newlines tolerated): its value and end. */
function readString(s: string, i: number): { value: string; end: number } | undefined {
  if (s[i] !== '"') return undefined;
  let j = i + 1;
  while (j < s.length && s[j] !== '"') j += s[j] === "\\" ? 2 : 1;
  if (j >= s.length) return undefined;
  const literal = s.slice(i, j + 1);
  let value: unknown;
  try {
    value = JSON.parse(literal.replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t"));
  } catch {
    value = literal.slice(1, -1);
  }
  return typeof value === "string" ? { value, end: j + 1 } : undefined;
}

/** A VALUE at `i` (string, JSON scalar, or a bare word): its value and end. */
function readValue(s: string, i: number): { value: unknown; end: number } | undefined {
  const str = readString(s, i);
  if (str) return str;
  const word = /^[^\s,{}"]+/.exec(s.slice(i));
  if (!word) return undefined;
  const w = word[0];
  let value: unknown = w;
  if (/^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/.test(w)) value = JSON.parse(w) as unknown;
  return { value, end: i + w.length };
}

/** The key=>value or --key value pairs of an ARGS brace pair `s` (`{` … `}`), or `undefined`. */
function readArgs(s: string): Record<string, unknown> | undefined {
  // A JSON object (quoted keys); `--key`/`key =>` pairs are read below, never by JSON repair.
  if (/^\{\s*(?:"|\}$)/.test(s)) {
    const json = parseJsonTolerant(s);
    return isPlainObject(json) ? json : undefined;
  }
  const args: Record<string, unknown> = {};
  let i = skipWs(s, 1);
  const end = s.length - 1;
  while (i < end) {
    const flag = s.startsWith("--", i);
    const key = /^[A-Za-z_][\w.-]*/.exec(s.slice(flag ? i + 2 : i));
    if (!key) return undefined;
    i = skipWs(s, i + (flag ? 2 : 0) + key[0].length);
    if (flag && s[i] === ":") i = skipWs(s, i + 1);
    else if (!flag) {
      if (!s.startsWith("=>", i)) return undefined;
      i = skipWs(s, i + 2);
    }
    const v = readValue(s, i);
    if (!v) return undefined;
    args[key[0]] = v.value;
    i = skipWs(s, v.end);
    if (s[i] === ",") i = skipWs(s, i + 1);
  }
  return args;
}

/** The call written by one block body `{tool => "NAME", args => {…}}` or `{"tool": "NAME", "args": {…}}`, or `undefined`. */
function readBody(body: string): RawCall | undefined {
  if (/^\{\s*"tool"\s*:/.test(body)) {
    const json = parseJsonTolerant(body);
    if (!isPlainObject(json) || typeof json.tool !== "string" || json.tool.trim() === "") return undefined;
    const args = json.args ?? {};
    return isPlainObject(args) ? { name: json.tool, arguments: args } : undefined;
  }
  const head = /^\{\s*tool\s*=>\s*/.exec(body);
  if (!head) return undefined;
  const name = readString(body, head[0].length);
  if (!name || name.value.trim() === "") return undefined;
  const rest = /^\s*,?\s*args\s*=>\s*/.exec(body.slice(name.end));
  if (!rest) return undefined;
  const at = name.end + rest[0].length;
  const m = matchBalanced(body, at);
  if (!m.ok || body[at] !== "{") return undefined;
  if (!/^\s*\}$/.test(body.slice(m.end))) return undefined;
  const args = readArgs(body.slice(at, m.end));
  return args ? { name: name.value, arguments: args } : undefined;
}

/** Dialect `bracket_arrow_tool_call`. */
export const bracketArrowToolCall = defineDialect({
  family: "bracket_arrow_tool_call",
  markers: [OPEN],
  example: '[TOOL_CALL]\n{tool => "skills_list", args => {\n  --category "research"\n}}\n[/TOOL_CALL]',
  source: "https://github.com/NousResearch/hermes-agent/issues/11994",
  detect: (text) => text.includes(OPEN),
  parse(text) {
    const out = new MatchBuilder(text);
    let from = 0;
    for (;;) {
      const start = text.indexOf(OPEN, from);
      if (start < 0) break;
      const p = skipWs(text, start + OPEN.length);
      from = start + OPEN.length;
      if (text[p] !== "{") continue;
      const m = matchBalanced(text, p);
      if (!m.ok) {
        if (m.reason === "eof") out.span(start, text.length);
        if (m.reason === "eof") break;
        continue;
      }
      const call = readBody(text.slice(p, m.end));
      if (!call) continue;
      const q = skipWs(text, m.end);
      const end = tokenAt(text, q, [CLOSE]) ? q + CLOSE.length : m.end;
      out.call(call, p).span(start, end);
      from = end;
    }
    return out.result();
  },
});
