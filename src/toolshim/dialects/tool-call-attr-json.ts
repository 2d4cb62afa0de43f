/**
 * Attribute-style `<tool_call id=".." name="..">{args}</tool_call>` (`tool_call_attr_json`): the DeepSeek V4 Pro fallback seen in felinics/Memoh issue#435. The
 * name (and id) are XML attributes; the body is the JSON arguments (CJK and `&` unescaped).
 * A closer missing at the end of the text is tolerated when the JSON is complete.
 */
import { callFromObject } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";
import { parseAttributes } from "./text-scan.js";
import type { RawCall } from "../types.js";
import { isPlainObject } from "../json.js";

/** Dialect `tool_call_attr_json`. */
export const toolCallAttrJson = defineDialect({
  family: "tool_call_attr_json",
  example: "<tool_call id=\"call_00_xxx\" name=\"wechat_get_chat_history\">\n{\"chat_name\":\"Aide & GPT-Runner 交流群\",\"limit\":80}\n</tool_call>",
  source: "https://github.com/felinics/Memoh/issues/435",
  markers: ["<tool_call "],
  detect: (text) => /<tool_call\s+[^<>]*name\s*=/.test(text),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(
      text,
      {
        open: /<tool_call\s+([^<>]*\bname\s*=[^<>]*)>/,
        close: ["</tool_call>"],
        payloadStart: "{",
        toCalls(v, m) {
          const attrs = parseAttributes(m[1]!);
          const name = attrs["name"];
          if (!name || !isPlainObject(v)) return undefined;
          const whole = callFromObject(v, { requireArguments: true });
          const call: RawCall = whole && whole.name === name ? whole : { name, arguments: v };
          if (attrs["id"]) call.id = attrs["id"];
          return [call];
        },
      },
      out,
    );
    return out.result();
  },
});
