import { describe, expect, it } from "vitest";
import { step3Steptml } from "../../../src/toolshim/dialects/step3-steptml.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("step3_steptml", () => {
  itParsesCorpusCases(step3Steptml, "step3_steptml");

  it("keeps prose around the section and ignores a `function<｜tool_sep｜>` prefix", () => {
    const r = run(
      step3Steptml,
      'Let me check. <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather"><steptml:parameter name="city">Tokyo</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜> Anything else?',
    );
    expect(r.calls).toEqual([{ name: "get_weather", arguments: { city: "Tokyo" }, untyped: true }]);
    expect(r.content).toBe("Let me check. Anything else?");
  });
});
