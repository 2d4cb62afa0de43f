/**
 * Google FunctionGemma (`functiongemma`; vLLM `functiongemma` tool parser, ollama `model/parsers/functiongemma.go`):
 * `<start_function_call>call:NAME{key:<escape>text<escape>,n:1}<end_function_call>`, the Gemma 4
 * body with `<escape>` as the raw-string delimiter; CJK prose around calls stays; numbers are
 * unquoted. Same completeness rules as Gemma 4.
 */
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanBraceCallBlocks } from "./brace-call.js";

/** Dialect `functiongemma`. */
export const functiongemma = defineDialect({
  family: "functiongemma",
  example: "こんにちは <start_function_call>call:greet{name:<escape>日本語<escape>}<end_function_call>",
  source: "https://github.com/ollama/ollama/blob/HEAD/model/parsers/functiongemma_test.go",
  markers: ["<start_function_call>"],
  detect: (text) => text.includes("<start_function_call>"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanBraceCallBlocks(text, "<start_function_call>", "<end_function_call>", "<escape>", out);
    return out.result();
  },
});
