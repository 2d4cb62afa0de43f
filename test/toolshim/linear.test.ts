/**
 * Parsing stays linear in the input length (issue 12): 1 MB of repeated markers of the issue 12
 * dialects and of the structural stage's shapes is recovered in time that grows like the input,
 * compared by growth over a factor of 16 (1 MB against 64 KB): linear is ×16, quadratic ×256, and
 * the bound is ×100 (an exponent of 1.66), not a wall-clock limit. The wide factor leaves room for
 * what is not the parser: on an idle machine the growth measured 19–28 (garbage collection of a
 * larger heap, cache misses), and a loaded CI machine once stretched a ×4 comparison to ×12 (that
 * comparison's bound of ×10 was too close to linear to tell the two apart under load).
 * The cost is this process's CPU time (`process.cpuUsage`, so other processes on a loaded machine
 * do not count), the least of five runs at each size after a warm-up at both sizes (a garbage
 * collection or a descheduled run only ever adds time). `npm test` compares 512 KB against 32 KB;
 * the full run (`npm run test:e2e`, `test/helpers/thoroughness.ts`) 1 MB against 64 KB.
 */
import { describe, expect, it } from "vitest";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";
import { thorough } from "../helpers/thoroughness.js";

const tools: OfferedTool[] = [{ name: "search_code" }, { name: "get_weather" }];
const NS = "]<]minimax[>[";
const UNITS: Record<string, string> = {
  lmstudio_tool_request: "[TOOL_REQUEST]",
  minimax_m1_tool_calls: '<tool_calls>\n{"name": "x"',
  longcat_tool_call: "<longcat_tool_call>",
  minicpm_xml: '<function name="get_weather"><param name="city">x</param>',
  minimax_m3: `${NS}<tool_call>`,
  gigachat3: "function call<|role_sep|>\n",
  gemma4_tool_call: "call:get_weather{city:",
  granite_tool_call: '<tool_call>[{"name": "get_weather", "arguments": {}}, ',
  // A name read up to the next `>`: without one, every marker read the rest of the text (issue 13, session 30).
  "functionary_v3.1_function_tag": "<function=",
  "structural element": "<search_code><query>x</query>",
  "structural bracket-block": '[search_code]{"query": "x"} ',
  "structural keyword-call": 'search_code(query="x")\n',
  // One marker repeated with no closer, where each marker's body or closer search read the rest
  // of the text (issue 13, session 30): the closer, bracket and token searches are made once per text.
  "hermes_wrapper_variant <json>": "<json>{",
  "tool_call_attr_json attribute": "<tool_call a",
  deepseek_v3: "<|tool▁call▁begin|>",
  "kimi_k2 section": "<|tool_calls_section_begin|>a",
  "kimi_k2 argument": "<|tool_call_argument_begin|>",
  kimi_k3_xtml: "<|open|>tools<|sep|>",
  "cohere_action text": "<|START_TEXT|>",
  "gemma4_tool_call opener": "<|tool_call>",
  functiongemma: "<start_function_call>",
  llama3_builtin_python_tag: "<|python_tag|>",
  "pythonic python_start": "<|python_start|>",
  // Many spans of markup removed (issue 13, session 31): the inline-JSON stage blanked each span by
  // copying the whole text, and stages compared every span with every other (taken markup, broken
  // blocks, stray tokens beside removed spans): spans are now blanked in one pass and looked up in a
  // sorted set.
  "gemma4_tool_call opener and a blank": "<|tool_call> ",
  "functiongemma opener and a letter": "<start_function_call>a",
  "cohere_action response opener and a brace": "<|START_RESPONSE|>{",
  "kimi_k3_xtml tools opener and a tag": "<|open|>tools<|sep|><",
  "mistral [TOOL_CALLS] and a line break": "[TOOL_CALLS]\n",
  "stray tokens beside removed markup": "<|START_TEXT|><",
  // A reasoning closer repeated with no opener: every other reasoning tag was searched to the end
  // of the text once per closer (reasoning.ts).
  "reasoning closer </think>": "</think>",
  "reasoning closer [/THINK]": "[/THINK]\n",
  // The structural stage matched the brackets of every unclosed `[NAME]{` to the end of the text.
  "structural bracket-block unclosed": "[search_code]{",
  // Harmony messages: a token absent after them was searched to the end once per message.
  harmony_gptoss: "<|channel|>commentary to=functions.search_code <|constrain|>json<|message|>{\"query\": \"x\"}<|call|>",
  // Marker-less Mistral runs and Apertus lists (a server that skips special tokens): every line
  // starts a candidate whose braces never close.
  "mistral_v11_args without markers": 'get_weather{"city": [\n',
  "apertus_tools_prefix without markers": '[{"get_weather": {"city": "\n',
};

/** CPU microseconds (user + system) of recovering `size` characters of `unit` repeated, least of `runs`. */
function cpuMicros(unit: string, size: number, runs = 3): number {
  const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    recoverDeterministic({ content: text }, tools);
    const used = process.cpuUsage(start);
    least = Math.min(least, used.user + used.system);
  }
  return least;
}

/** The larger input, in characters: 1 MiB in the full run, 512 KiB in the sampled one. */
const LARGE = thorough(524_288, 1_048_576);
/** How many times larger the larger input is. */
const FACTOR = 16;
/** The bound on growth: FACTOR ** 1.66; linear parsing grows by FACTOR, quadratic by FACTOR ** 2. */
const BOUND = 100;

describe(`linear parsing on ${LARGE / 1024} KB inputs of repeated markers`, () => {
  for (const [name, unit] of Object.entries(UNITS)) {
    it(`${name}: ${FACTOR}× the input costs well under ${FACTOR ** 2}× the time`, () => {
      // Warm-up at both sizes first, so neither measurement pays for compiling the parser or growing the heap.
      cpuMicros(unit, LARGE / FACTOR, 1);
      cpuMicros(unit, LARGE, 1);
      // A floor of 500 µs keeps a tiny small-input figure from inflating the growth; a quadratic parser
      // still shows: from 500 µs it would reach 128 ms at the larger size, a growth of 256.
      const small = Math.max(cpuMicros(unit, LARGE / FACTOR, 5), 500);
      const large = cpuMicros(unit, LARGE, 5);
      expect(large / small).toBeLessThan(BOUND);
    });
  }
});
