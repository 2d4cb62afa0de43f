import { describe, expect, it } from "vitest";
import { internlm2Action } from "../../../src/toolshim/dialects/internlm2-action.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("internlm2_action", () => {
  itParsesCorpusCases(internlm2Action, "internlm2_action");

  it("reads a call with prose around it", () => {
    const r = run(internlm2Action, 'I will check.<|action_start|><|plugin|>{"name": "get_weather", "parameters": {"city": "Tokyo"}}<|action_end|>Done.');
    expect(r.calls).toEqual([{ name: "get_weather", arguments: { city: "Tokyo" } }]);
    expect(r.content).toBe("I will check.Done.");
  });
});
