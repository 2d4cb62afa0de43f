/**
 * DeepSeek V3.2 / V4 DSML (`deepseek_v32_dsml`; seen in XNet-NGO/aiope issue #119;
 * shape from sglang's `deepseekv32_detector`):
 * `<｜DSML｜function_calls>\n<｜DSML｜invoke name="NAME">\n<｜DSML｜parameter name="k" string="true">v</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>`.
 * `string="false"` values are JSON; an invoke body may instead be one JSON object. The bars are
 * full-width (U+FF5C) as in DeepSeek's other tokens; the ASCII-bar spelling that leaks through
 * reasoning fields (`<|DSML|function_calls>`) is accepted too, and so are the doubled bars and
 * the U+2016 bar that DeepSeek replies leak (`<｜｜DSML｜｜parameter …>`, `<‖DSML‖tool_calls>`;
 * lsdefine/GenericAgent issue #804, from 911 leaked markers in real responses).
 * DeepSeek-V4 names the block `tool_calls` (vLLM `deepseekv4_tool_parser`; a real V4 reply
 * in sgl-project/sglang issue #35736) and may write the inner tags without the prefix
 * (`<｜DSML｜tool_calls>\n<invoke name="…">\n<parameter …>`; OpenHands software-agent-sdk
 * pull #4845, from DeepSeek-V4 benchmark completions); the block opener must carry the prefix.
 * GigaChat 3.5 writes the same grammar in its own namespace, `｜GCML｜` (`<｜GCML｜tool_calls><｜GCML｜invoke
 * name="f"><｜GCML｜parameter name="k" string="true">v</｜GCML｜parameter>…`, vLLM `gigachat35` tool parser;
 * https://github.com/vllm-project/vllm/blob/053521db5e1807004c5e89d03c75b93b3974c7c7/tests/tool_parsers/test_gigachat35_tool_parser.py).
 * Block rules (dropped closers, cut values): `invoke-block.ts`.
 */
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanInvokeBlocks } from "./invoke-block.js";

const BAR = "[｜|‖]{1,2}";
const PREFIX = `${BAR}(?:DSML|GCML)${BAR}`;
const DETECT = new RegExp(`<${PREFIX}(?:function_calls|tool_calls)`);

/** Dialect `deepseek_v32_dsml`. */
export const deepseekV32Dsml = defineDialect({
  family: "deepseek_v32_dsml",
  example: "Sure, let me check! <｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"location\" string=\"true\">NYC</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
  source: "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_deepseekv32_tool_parser.py",
  markers: ["<｜DSML｜function_calls>", "<|DSML|function_calls>", "<｜DSML｜tool_calls>", "<|DSML|tool_calls>", "<｜GCML｜tool_calls>"],
  detect: (text) => DETECT.test(text),
  parse(text, _tools, context) {
    const out = new MatchBuilder(text);
    scanInvokeBlocks(text, { prefix: PREFIX, optionalInnerPrefix: true, blocks: "function_calls|tool_calls" }, out, context?.endIsCut === true);
    return out.result();
  },
});
