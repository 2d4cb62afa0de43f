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

  it("reads Doubao-Seed's attribute form, string=\"false\" values as JSON, next to the usual form", () => {
    const text =
      '<seed:tool_call>\n  <function name="exec">\n    <parameter name="command" string="true">ls -la /tmp/虎嗅网/</parameter>\n    <parameter name="timeout" string="false">30</parameter>\n  </function>\n<function=f>\n<parameter=a>1</parameter>\n</function>\n</seed:tool_call>Done.';
    const r = run(seedOss, text);
    expect(r.calls).toEqual([
      { name: "exec", arguments: { command: "ls -la /tmp/虎嗅网/", timeout: 30 }, untyped: true },
      { name: "f", arguments: { a: "1" }, untyped: true },
    ]);
    expect(r.content).toBe("Done.");
  });

  it("refuses an attribute-form value cut by the end of the text", () => {
    const r = run(seedOss, 'Hi <seed:tool_call>\n<function name="f">\n<parameter name="a" string="true">va');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Hi");
  });

  it("refuses a cut value", () => {
    const r = run(seedOss, "Hi <seed:tool_call>\n<function=f>\n<parameter=a>va");
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Hi");
  });
});
