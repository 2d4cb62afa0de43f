/**
 * Hermes wrapper drift (`hermes_wrapper_variant`; llama.cpp `tests/test-chat.cpp` (HERMES_2_PRO wrapper fixtures)): the Hermes JSON
 * wrapped in `<tool>`, `<tools>`, `<response>`, `<JSON>`/`<json>`, `<xml>` or `<function_call>`
 * (any case), or the attribute form `<function name="NAME">{args}</function>` (llama.cpp
 * HERMES_2_PRO tests).
 *
 * These tags also occur in ordinary answers, so the body must be call-shaped (a string name and
 * object arguments); anything else in them is left alone. A body that starts like a call and is
 * cut by the end of the text yields no call and is removed from the opener on.
 */
import { isPlainObject } from "../json.js";
import { callFromObject, callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";
import { parseAttributes } from "./text-scan.js";

const TAGS = ["tool", "tools", "response", "json", "xml", "function_call"];
const TAG_OPEN = new RegExp(`<(${TAGS.join("|")})>`, "i");

function closersFor(tag: string): string[] {
  return [...new Set([`</${tag}>`, `</${tag.toLowerCase()}>`, `</${tag.toUpperCase()}>`])];
}

/** Dialect `hermes_wrapper_variant`. */
export const hermesWrapperVariant = defineDialect({
  family: "hermes_wrapper_variant",
  example: "<response>\n  {\"name\": \"special_function\", \"arguments\": {\"arg1\": 1}}\n</response>",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: ["<tool>", "<tools>", "<response>", "<json>", "<JSON>", "<xml>", "<function_call>", "<function name="],
  detect: (text) => TAG_OPEN.test(text) || /<function\s+name\s*=/.test(text),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(
      text,
      {
        open: TAG_OPEN,
        close: (m) => closersFor(m[1]!),
        multiple: true,
        invalid: "ignore",
        truncated: "call-shaped",
        toCalls: (v) => callsFromValue(v, { requireArguments: true }),
      },
      out,
    );
    scanEnvelopes(
      text,
      {
        open: /<function\s+([^<>]*)>/,
        close: ["</function>"],
        payloadStart: "{",
        invalid: "ignore",
        toCalls(v, m) {
          const name = parseAttributes(m[1]!)["name"];
          if (!name || !isPlainObject(v)) return undefined;
          const whole = callFromObject(v, { requireArguments: true });
          return [whole && whole.name === name ? whole : { name, arguments: v }];
        },
      },
      out,
    );
    return out.result();
  },
});
