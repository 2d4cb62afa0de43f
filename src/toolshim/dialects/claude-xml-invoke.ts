/**
 * Claude-style XML calls (`claude_xml_invoke`), written by fine-tunes trained on Anthropic-format
 * transcripts and by DeepSeek V3.2 when its DSML prefix is dropped (sglang `deepseekv32_detector`
 * formats 3 and 4):
 * `<function_calls>\n<invoke name="NAME">\n<parameter name="k">v</parameter>\n</invoke>\n</function_calls>`,
 * optionally with an `antml:` tag prefix. Values are untyped text (the schema types them) or the
 * invoke body is one JSON object. A `<function_calls>` body that does not start with `<invoke` is
 * left alone (OLMo 3 uses the same tag for Python calls). Block rules: `invoke-block.ts`.
 */
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanInvokeBlocks } from "./invoke-block.js";

const DETECT = /<(?:antml:)?function_calls\s*>\s*<(?:antml:)?invoke\b/;

/** Dialect `claude_xml_invoke`. */
export const claudeXmlInvoke = defineDialect({
  family: "claude_xml_invoke",
  example: "<function_calls>\n<invoke name=\"get_weather\">\n<parameter name=\"location\" string=\"true\">NYC</parameter>\n</invoke>\n</function_calls>",
  source: "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/function_call/deepseekv32_detector.py",
  markers: ["<function_calls>"],
  detect: (text) => DETECT.test(text),
  parse(text, _tools, context) {
    const out = new MatchBuilder(text);
    scanInvokeBlocks(text, { prefix: "antml:", optionalPrefix: true }, out, context?.endIsCut === true);
    return out.result();
  },
});
