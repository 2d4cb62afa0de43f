/**
 * Liquid AI LFM2 (`lfm2_tool_call_tokens`; vLLM `lfm2` tool parser, llama.cpp `COMMON_CHAT_FORMAT_LFM2_WITH_JSON_TOOLS`):
 * `<|tool_call_start|>[f(a="x")]<|tool_call_end|>` — a pythonic list (Python literals allowed),
 * or, in llama.cpp's forced-JSON mode, a JSON array/object of calls between the same tokens.
 * Blocks may be back to back. The closer may be missing at the end of the text when the body is
 * complete; a JSON body short of its last `]` before the closer is completed (openPangu V2 writes
 * the same tokens around a JSON list); a cut or unparsable body yields no call and the block is removed.
 */
import { parseJsonEndedByMarker, parseJsonTolerant } from "../json.js";
import { parsePythonCallSequence } from "../python-literal.js";
import type { RawCall } from "../types.js";
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { toRawCalls } from "./pythonic.js";
import { scanWrapperBlocks } from "./wrapper-block.js";

const OPEN = "<|tool_call_start|>";

function bodyCalls(text: string, start: number, end: number, closed: boolean): RawCall[] | undefined {
  const body = text.slice(start, end).trim();
  // A closed block's list may lack its last `]` (vLLM openpangu_v2 tests): the end token says it is whole.
  if (body.startsWith("{") || body.startsWith("[{")) return callsFromValue(closed ? parseJsonEndedByMarker(body) : parseJsonTolerant(body));
  const calls = parsePythonCallSequence(text, start, end);
  return calls && toRawCalls(calls);
}

/** Dialect `lfm2_tool_call_tokens`. */
export const lfm2ToolCallTokens = defineDialect({
  family: "lfm2_tool_call_tokens",
  example: "<think>Let me check the weather...</think>I'll get that for you.<|tool_call_start|>[get_weather(location=\"Paris\")]<|tool_call_end|>",
  source: "https://github.com/ollama/ollama/blob/HEAD/model/parsers/lfm2_test.go",
  markers: [OPEN],
  detect: (text) => text.includes(OPEN),
  parse(text) {
    const out = new MatchBuilder(text);
    const spec = { open: OPEN, close: "<|tool_call_end|>", nextOpenEndsBody: true };
    scanWrapperBlocks(text, spec, out, ({ start, bodyStart, bodyEnd, closed }) => {
      for (const c of bodyCalls(text, bodyStart, bodyEnd, closed) ?? []) out.call(c, start);
      return "complete";
    });
    return out.result();
  },
});
