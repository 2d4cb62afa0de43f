/**
 * DeepSeek V3 / R1 (`deepseek_v3`; vLLM `deepseek_v3` tool parser, llama.cpp `COMMON_CHAT_FORMAT_DEEPSEEK_R1`): call bodies
 * `function<｜tool▁sep｜>NAME\n```json\n{args}\n```` inside DeepSeek sections (`deepseek-tokens.ts`).
 * The type word before the separator is usually `function`; the fence is optional and a stray
 * `json` header line is tolerated (tenstorrent issue#3683). JSON that is cut or does not parse
 * (`deepseek-v3-missing-brace`) yields no call; the section is still removed. Bodies written as
 * `NAME<｜tool▁sep｜>{args}` are DeepSeek V3.1.
 */
import { isPlainObject, matchBalanced, parseJsonTolerant } from "../json.js";
import { defineDeepseekDialect, splitAtSep, type BodyReading } from "./deepseek-tokens.js";

function readBody(body: string): BodyReading {
  const parts = splitAtSep(body);
  if (!parts) return "broken";
  const after = parts.after;
  if (/^\s*(?:```\s*(?:json)?\s*)?\{/.test(after)) return "other-version";
  const head = /^\s*([^\s`{]+)[ \t]*/.exec(after);
  if (!head) return "broken";
  const name = head[1]!;
  const brace = after.indexOf("{", head[0].length);
  if (brace < 0 || !/^\s*(?:```)?\s*(?:json)?\s*$/.test(after.slice(head[0].length, brace))) return "broken";
  const m = matchBalanced(after, brace);
  if (!m.ok || !/^\s*(?:```)?\s*$/.test(after.slice(m.end))) return "broken";
  const args = parseJsonTolerant(after.slice(brace, m.end));
  return isPlainObject(args) ? { name, arguments: args } : "broken";
}

/** Dialect `deepseek_v3`. */
export const deepseekV3 = defineDeepseekDialect("deepseek_v3", readBody, {
  example: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Tokyo\", \"unit\": \"celsius\"}\n```<｜tool▁call▁end｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search_hotels\n```json\n{\"location\": \"Tokyo\", \"check_in\": \"2025-01-15\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
  source: "https://github.com/vllm-project/vllm/blob/HEAD/tests/entrypoints/openai/tool_parsers/test_deepseekv3_tool_parser.py",
});
