/**
 * Swiss AI Apertus (`apertus_tools_prefix`; vLLM `apertus` tool parser, llama.cpp `COMMON_CHAT_FORMAT_APERTUS`):
 * `<|tools_prefix|>[{NAME: {args}}, …]<|tools_suffix|>` — the tool name is the object's only key.
 * Objects in the usual `{"name", "arguments"}` shape are accepted too. Reasoning
 * (`<|inner_prefix|>…<|inner_suffix|>`) is the pipeline's reasoning split.
 */
import type { RawCall } from "../types.js";
import { isPlainObject } from "../json.js";
import { callFromObject } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

function nameAsKey(item: unknown): RawCall | undefined {
  const shaped = callFromObject(item, { requireArguments: true });
  if (shaped) return shaped;
  if (!isPlainObject(item)) return undefined;
  const keys = Object.keys(item);
  if (keys.length !== 1) return undefined;
  const args = item[keys[0]!];
  return isPlainObject(args) ? { name: keys[0]!, arguments: args } : undefined;
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
  detect: (text) => text.includes("<|tools_prefix|>"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(text, { open: /<\|tools_prefix\|>/, close: ["<|tools_suffix|>"], toCalls }, out);
    return out.result();
  },
});
