/**
 * Swiss AI Apertus (`apertus_tools_prefix`; vLLM `apertus` tool parser, llama.cpp `COMMON_CHAT_FORMAT_APERTUS`):
 * `<|tools_prefix|>[{NAME: {args}}, …]<|tools_suffix|>` — the tool name is the object's only key.
 * Objects in the usual `{"name", "arguments"}` shape are accepted too. Reasoning
 * (`<|inner_prefix|>…<|inner_suffix|>`) is the pipeline's reasoning split.
 *
 * A server that skips special tokens drops both markers (`[{"get_weather": {"location":
 * "London"}}]`, the shape of ml-explore/mlx-lm pull #1663): such a list is a call only when it
 * starts a line and ends one, holds nothing but `{NAME: {args}}` objects, every NAME could be an
 * offered tool (`tool-gate.ts`), and it is not introduced as an example. (The `{"name",
 * "arguments"}` list without markers is `xlam_json_list`, read under the same gate.)
 */
import { introducedAsExample } from "../inline-json.js";
import { balancedMatcher, isPlainObject, parseJsonTolerant } from "../json.js";
import type { OfferedTool, RawCall } from "../types.js";
import { callFromObject } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";
import { plausiblyOffered } from "./tool-gate.js";

function nameAsKey(item: unknown): RawCall | undefined {
  const shaped = callFromObject(item, { requireArguments: true });
  if (shaped) return shaped;
  if (!isPlainObject(item)) return undefined;
  const keys = Object.keys(item);
  if (keys.length !== 1) return undefined;
  const args = item[keys[0]!];
  return isPlainObject(args) ? { name: keys[0]!, arguments: args } : undefined;
}

/** `[{NAME: {args}}, …]` with every NAME plausibly offered: the calls, else undefined. */
function keyedCalls(v: unknown, tools: readonly OfferedTool[]): RawCall[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const calls: RawCall[] = [];
  for (const item of v) {
    if (!isPlainObject(item) || callFromObject(item, { requireArguments: true })) return undefined;
    const call = nameAsKey(item);
    if (!call || !plausiblyOffered(call.name, tools)) return undefined;
    calls.push(call);
  }
  return calls;
}

/** Marker-less lists on lines of their own (module rules), recorded into `out`. */
function strippedLists(text: string, tools: readonly OfferedTool[], out: MatchBuilder): void {
  const balanced = balancedMatcher(text);
  let from = 0;
  for (const m of text.matchAll(/(?:^|\n)[ \t]*(?=\[\s*\{\s*")/g)) {
    const at = m.index + m[0].length;
    if (at < from) continue;
    const bm = balanced(at);
    if (!bm.ok || !/^[ \t]*(?:\r?\n|$)/.test(text.slice(bm.end, bm.end + 80))) continue;
    const calls = keyedCalls(parseJsonTolerant(text.slice(at, bm.end)), tools);
    if (!calls || introducedAsExample(text, at)) continue;
    for (const call of calls) out.call(call, at);
    out.span(at, bm.end);
    from = bm.end;
  }
}

function toCalls(v: unknown): RawCall[] | undefined {
  const items = Array.isArray(v) ? v : [v];
  const calls = items.map(nameAsKey);
  return calls.length > 0 && calls.every((c) => c !== undefined) ? (calls as RawCall[]) : undefined;
}

/** Dialect `apertus_tools_prefix`. */
export const apertusToolsPrefix = defineDialect({
  family: "apertus_tools_prefix",
  example: "<|inner_prefix|>I'm\nthinking<|inner_suffix|><|tools_prefix|>[{\"special_function\": {\"arg1\": 1}}]<|tools_suffix|>Hello, world!\nWhat's up?",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: ["<|tools_prefix|>"],
  detect: (text) => text.includes("<|tools_prefix|>") || /\[\s*\{\s*"/.test(text),
  parse(text, tools) {
    const out = new MatchBuilder(text);
    if (text.includes("<|tools_prefix|>")) scanEnvelopes(text, { open: /<\|tools_prefix\|>/, close: ["<|tools_suffix|>"], toCalls }, out);
    else strippedLists(text, tools, out);
    return out.result();
  },
});
