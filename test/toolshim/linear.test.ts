/**
 * Parsing stays linear in the input length (issue 12): 1 MB of repeated markers of the issue 12
 * dialects and of the structural stage's shapes is recovered in time that grows like the input,
 * compared by growth (1 MB against 256 KB; linear is ×4, quadratic ×16), not by a wall-clock
 * limit.
 */
import { describe, expect, it } from "vitest";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const tools: OfferedTool[] = [{ name: "search_code" }, { name: "get_weather" }];
const NS = "]<]minimax[>[";
const UNITS: Record<string, string> = {
  lmstudio_tool_request: "[TOOL_REQUEST]",
  minimax_m1_tool_calls: '<tool_calls>\n{"name": "x"',
  longcat_tool_call: "<longcat_tool_call>",
  minicpm_xml: '<function name="get_weather"><param name="city">x</param>',
  minimax_m3: `${NS}<tool_call>`,
  gigachat3: "function call<|role_sep|>\n",
  gemma4_tool_call: "call:get_weather{city:",
  granite_tool_call: '<tool_call>[{"name": "get_weather", "arguments": {}}, ',
  "structural element": "<search_code><query>x</query>",
  "structural bracket-block": '[search_code]{"query": "x"} ',
  "structural keyword-call": 'search_code(query="x")\n',
};

function millis(unit: string, size: number): number {
  const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const start = performance.now();
  recoverDeterministic({ content: text }, tools);
  return performance.now() - start;
}

describe("linear parsing on 1 MB inputs of repeated markers", () => {
  for (const [name, unit] of Object.entries(UNITS)) {
    it(`${name}: 4× the input costs well under 16× the time`, { timeout: 120_000 }, () => {
      millis(unit, 16_384); // warm-up
      const small = Math.max(millis(unit, 262_144), 1);
      const large = millis(unit, 1_048_576);
      expect(large / small).toBeLessThan(10);
    });
  }
});
