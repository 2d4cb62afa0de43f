/**
 * OLMo 3 (`olmo3_function_calls`; vLLM `olmo3` tool parser, ollama `model/parsers/olmo3.go`):
 * `<function_calls>f(k="v")\ng(…)</function_calls>` — Python call syntax, one call per line, no
 * list brackets; JSON spellings `true`/`null` are accepted (ollama `olmo3.go`). The closer may be
 * missing at the end of the text when every call is complete; a cut or unparsable body that
 * starts like a call (`name(`) yields no call, and the block (to the end of the text when
 * unterminated) is removed. The tag is also prose and Claude-style XML
 * (`<function_calls><invoke …>`), so a body that does not start like a call is left alone.
 */
import { parsePythonCallSequence } from "../python-literal.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { toRawCalls } from "./pythonic.js";
import { scanWrapperBlocks } from "./wrapper-block.js";

const OPEN = "<function_calls>";
/** A body that starts like a Python call (optionally inside a list). */
const CALL_START = /^\s*\[?\s*[\p{L}_][\p{L}\p{N}_.-]*\s*\(/u;

/** Dialect `olmo3_function_calls`. */
export const olmo3FunctionCalls = defineDialect({
  family: "olmo3_function_calls",
  example: "Let me check the weather.<function_calls>get_weather(location=\"NYC\")</function_calls>",
  source: "https://github.com/ollama/ollama/blob/HEAD/model/parsers/olmo3_test.go",
  markers: [OPEN],
  detect: (text) => text.includes(OPEN),
  parse(text) {
    const out = new MatchBuilder(text);
    scanWrapperBlocks(text, { open: OPEN, close: "</function_calls>" }, out, ({ start, bodyStart, bodyEnd }) => {
      if (!CALL_START.test(text.slice(bodyStart, bodyStart + 200))) return "foreign";
      const calls = parsePythonCallSequence(text, bodyStart, bodyEnd);
      for (const c of (calls && toRawCalls(calls)) ?? []) out.call(c, start);
      return "complete";
    });
    return out.result();
  },
});
