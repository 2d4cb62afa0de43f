import { describe, expect, it } from "vitest";
import { seedOss } from "../../../src/toolshim/dialects/seed-oss.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("seed_oss", () => {
  itParsesCorpusCases(seedOss, "seed_oss");

  it("reads the call after reasoning that rehearses the syntax (the rehearsal is the pipeline's to drop)", () => {
    const text =
      "<seed:think>I will write <seed:tool_call>\n<function=get_weather>\n<parameter=location>X</parameter>\n</function>\n</seed:tool_call> next.</seed:think><seed:tool_call>\n<function=get_weather>\n<parameter=location>Paris</parameter>\n</function>\n</seed:tool_call>";
    const r = run(seedOss, text);
    expect(r.calls.map((c) => c.arguments)).toEqual([{ location: "X" }, { location: "Paris" }]);
  });

  it("refuses a cut value", () => {
    const r = run(seedOss, "Hi <seed:tool_call>\n<function=f>\n<parameter=a>va");
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Hi");
  });
});
