/**
 * Parsing stays linear in the input length (issue 12): 1 MB of repeated markers of the issue 12
 * dialects and of the structural stage's shapes is recovered in time that grows like the input,
 * compared by growth (1 MB against 256 KB; linear is ×4, quadratic ×16), not by a wall-clock
 * limit. The cost is this process's CPU time (`process.cpuUsage`, so other processes on a loaded
 * machine do not count), the least of five runs at each size after a warm-up at both sizes (a garbage collection or a
 * descheduled run only ever adds time). `npm test` compares 256 KB against 64 KB; the full run
 * (`npm run test:e2e`, `test/helpers/thoroughness.ts`) 1 MB against 256 KB.
 */
import { describe, expect, it } from "vitest";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";
import { thorough } from "../helpers/thoroughness.js";

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

/** CPU microseconds (user + system) of recovering `size` characters of `unit` repeated, least of `runs`. */
function cpuMicros(unit: string, size: number, runs = 3): number {
  const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    recoverDeterministic({ content: text }, tools);
    const used = process.cpuUsage(start);
    least = Math.min(least, used.user + used.system);
  }
  return least;
}

/** The larger input, in characters: 1 MiB in the full run, 256 KiB in the sampled one. */
const LARGE = thorough(262_144, 1_048_576);

describe(`linear parsing on ${LARGE / 1024} KB inputs of repeated markers`, () => {
  for (const [name, unit] of Object.entries(UNITS)) {
    it(`${name}: 4× the input costs well under 16× the time`, { timeout: 120_000 }, () => {
      // Warm-up at both sizes first, so neither measurement pays for compiling the parser or growing the heap.
      cpuMicros(unit, LARGE / 4, 1);
      cpuMicros(unit, LARGE, 1);
      const small = Math.max(cpuMicros(unit, LARGE / 4, 5), 1000);
      const large = cpuMicros(unit, LARGE, 5);
      expect(large / small).toBeLessThan(10);
    });
  }
});
