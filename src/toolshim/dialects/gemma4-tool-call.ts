/**
 * Gemma 4 (`gemma4_tool_call`; vLLM `gemma4` tool parser, ollama `model/parsers/gemma4.go`):
 * `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:42,b:true}<tool_call|>` — bare keys, `<|"|>`-delimited
 * raw strings (`brace-call.ts`). Reasoning (`<|channel>thought…<channel|>`) is the pipeline's.
 * The closer may be missing at the end of the text when the braces are complete
 * (`gemma4-unescaped-quotes-no-close`); a body cut by the end of the text yields no call and is
 * removed from the marker on. Several `call:` bodies in one block are several calls.
 */
import { scanBraceCallBlocks } from "./brace-call.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";

/** Dialect `gemma4_tool_call`. */
export const gemma4ToolCall = defineDialect({
  family: "gemma4_tool_call",
  markers: ["<|tool_call>"],
  detect: (text) => text.includes("<|tool_call>"),
  parse(text) {
    const out = new MatchBuilder(text);
    scanBraceCallBlocks(text, "<|tool_call>", "<tool_call|>", '<|"|>', out);
    return out.result();
  },
});
