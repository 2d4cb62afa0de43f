import { describe, expect, it } from "vitest";
import { olmo3FunctionCalls } from "../../../src/toolshim/dialects/olmo3-function-calls.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("olmo3_function_calls", () => {
  itParsesCorpusCases(olmo3FunctionCalls, "olmo3_function_calls");

  it("reads one call per line with JSON-style literals", () => {
    const r = run(olmo3FunctionCalls, '<function_calls>get_weather(location="NYC", detailed=true)\nget_time(tz=null)</function_calls>');
    expect(r.calls).toEqual([
      { name: "get_weather", arguments: { location: "NYC", detailed: true } },
      { name: "get_time", arguments: { tz: null } },
    ]);
  });

  it("accepts a missing closer when complete and refuses a cut call", () => {
    expect(run(olmo3FunctionCalls, '<function_calls>f(a="b")').calls).toEqual([{ name: "f", arguments: { a: "b" } }]);
    const cut = run(olmo3FunctionCalls, 'Ok.<function_calls>f(a="b');
    expect(cut.calls).toEqual([]);
    expect(cut.content).toBe("Ok.");
  });
});

describe("olmo3_function_calls decoys", () => {
  it("leaves the tag alone in prose and in Claude-style XML", () => {
    expect(run(olmo3FunctionCalls, "Wrap calls in <function_calls> tags, then answer.").match).toBeNull();
    expect(run(olmo3FunctionCalls, '<function_calls><invoke name="x"><parameter name="a">1</parameter></invoke></function_calls>').match).toBeNull();
  });
});
