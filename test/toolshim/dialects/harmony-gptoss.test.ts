import { describe, expect, it } from "vitest";
import { harmonyGptoss } from "../../../src/toolshim/dialects/harmony-gptoss.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("harmony_gptoss", () => {
  itParsesCorpusCases(harmonyGptoss, "harmony_gptoss");

  it("returns analysis text as reasoning and keeps the final answer", () => {
    const r = run(
      harmonyGptoss,
      "<|channel|>analysis<|message|>User wants 2+2.<|end|><|start|>assistant<|channel|>final<|message|>4<|return|>",
    );
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("4");
    expect(r.match?.reasoning).toBe("User wants 2+2.");
  });

  it("accepts a call without <|call|>, with line breaks in the header", () => {
    const r = run(harmonyGptoss, '<|channel|>commentary to=functions.get_weather\n<|constrain|>json\n<|message|>{"location": "San Francisco", "unit": "celsius"}\n');
    expect(r.calls).toEqual([{ name: "get_weather", arguments: { location: "San Francisco", unit: "celsius" } }]);
    expect(r.content).toBe("");
  });

  it("drops a `json` glued to the recipient when <|constrain|> was lost", () => {
    const r = run(harmonyGptoss, '<|channel|>commentary to=functions.shelljson<|message|>{"cmd": "ls"}<|call|>', ["shell"]);
    expect(r.calls).toEqual([{ name: "shell", arguments: { cmd: "ls" } }]);
  });

  it("yields no call for cut arguments", () => {
    const r = run(harmonyGptoss, '<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": ');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("");
  });

  it("handles text whose special tokens were stripped", () => {
    const soup = 'analysisWe need to answer "What is 2+2?" The answer is "four".assistantfinalfour';
    const a = run(harmonyGptoss, soup);
    expect(a.calls).toEqual([]);
    expect(a.content).toBe("four");
    const call = run(harmonyGptoss, 'commentary to=functions.get_weather json{"city":"Paris"}');
    expect(call.calls).toEqual([{ name: "get_weather", arguments: { city: "Paris" } }]);
    expect(call.content).toBe("");
  });

  it("does not fire on ordinary prose", () => {
    expect(harmonyGptoss.detect("An analysis of the final commentary.")).toBe(false);
  });

  it("reads the built-in python tool's raw code body as {code}", () => {
    const r = run(harmonyGptoss, "<|channel|>analysis to=python code<|message|>print(1 + 1)<|call|>");
    expect(r.calls).toEqual([{ name: "python", arguments: { code: "print(1 + 1)" } }]);
    expect(r.content).toBe("");
  });
});
