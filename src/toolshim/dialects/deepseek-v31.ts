/**
 * DeepSeek V3.1 / V3.1-Terminus (`deepseek_v31`; vLLM `deepseek_v31` tool parser, llama.cpp `COMMON_CHAT_FORMAT_DEEPSEEK_V3_1`): call bodies
 * `NAME<｜tool▁sep｜>{args}` (no type word, no fence) inside DeepSeek sections
 * (`deepseek-tokens.ts`). Text before and after the section stays (vLLM keeps only the prefix;
 * `content_after` keeps both). Reasoning policy (calls inside a closed `<think>` are rehearsals,
 * inside a never-closed one they are real) is the pipeline's default (as llama.cpp `COMMON_CHAT_FORMAT_DEEPSEEK_V3_1` does).
 */
import { isPlainObject, matchBalanced, parseJsonTolerant } from "../json.js";
import { defineDeepseekDialect, splitAtSep, type BodyReading } from "./deepseek-tokens.js";

function readBody(body: string): BodyReading {
  const parts = splitAtSep(body);
  if (!parts) return "broken";
  const name = parts.before.trim();
  const fence = /^\s*(?:```\s*(?:json)?\s*)?/.exec(parts.after)![0];
  const rest = parts.after.slice(fence.length);
  if (!rest.startsWith("{")) return /\S/.test(rest) ? "other-version" : "broken";
  if (name === "" || /\s/.test(name)) return "broken";
  const m = matchBalanced(rest, 0);
  if (!m.ok || !/^\s*(?:```)?\s*$/.test(rest.slice(m.end))) return "broken";
  const args = parseJsonTolerant(rest.slice(0, m.end));
  return isPlainObject(args) ? { name, arguments: args } : "broken";
}

/** Dialect `deepseek_v31`. */
export const deepseekV31 = defineDeepseekDialect("deepseek_v31", readBody, {
  example: "REASONING<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{\"city\": \"Tokyo\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
});
