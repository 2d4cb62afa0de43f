/**
 * DeepSeek V3.2 DSML (`deepseek_v32_dsml`; seen in XNet-NGO/aiope issue #119;
 * shape from sglang's `deepseekv32_detector`):
 * `<｜DSML｜function_calls>\n<｜DSML｜invoke name="NAME">\n<｜DSML｜parameter name="k" string="true">v</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>`.
 * `string="false"` values are JSON; an invoke body may instead be one JSON object. The bars are
 * full-width (U+FF5C) as in DeepSeek's other tokens; the ASCII-bar spelling that leaks through
 * reasoning fields (`<|DSML|function_calls>`) is accepted too. Block rules: `invoke-block.ts`.
 */
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanInvokeBlocks } from "./invoke-block.js";

const PREFIX = String.raw`(?:｜DSML｜|\|DSML\|)`;
const DETECT = /<[｜|]DSML[｜|]function_calls/;

/** Dialect `deepseek_v32_dsml`. */
export const deepseekV32Dsml = defineDialect({
  family: "deepseek_v32_dsml",
  example: "Sure, let me check! <｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"location\" string=\"true\">NYC</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
  source: "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_deepseekv32_tool_parser.py",
  markers: ["<｜DSML｜function_calls>", "<|DSML|function_calls>"],
  detect: (text) => DETECT.test(text),
  parse(text) {
    const out = new MatchBuilder(text);
    scanInvokeBlocks(text, { prefix: PREFIX }, out);
    return out.result();
  },
});
