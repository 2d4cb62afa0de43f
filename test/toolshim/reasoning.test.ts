/** Reasoning split (`src/toolshim/reasoning.ts`) and the reasoning policy of the pipeline. */
import { describe, expect, it } from "vitest";
import { splitReasoning, unwrapAnswer } from "../../src/toolshim/reasoning.js";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";
import { TAG_SAMPLES } from "./reasoning-tags.js";

describe("splitReasoning", () => {
  for (const [open, close] of TAG_SAMPLES) {
    it(`splits ${open}…${close}`, () => {
      const r = splitReasoning(`Before. ${open}plan the search${close}After.`);
      expect(r).toEqual({ content: "Before. After.", closed: ["plan the search"], prefilled: false, tagged: true });
    });
  }

  it("treats text before a closer without an opener as reasoning (prefilled opener)", () => {
    expect(splitReasoning("plan<|END_THINKING|>Answer")).toEqual({ content: "Answer", closed: ["plan"], prefilled: true, tagged: true });
  });

  it("returns the tail of an unclosed opener separately", () => {
    expect(splitReasoning("Hi <think>still going")).toEqual({ content: "Hi ", closed: [], unclosed: "still going", prefilled: false, tagged: true });
  });

  it("drops a stray closer after content and keeps several blocks in order", () => {
    expect(splitReasoning("<think>a</think>b</think>c<think>d</think>e")).toEqual({
      content: "bce",
      closed: ["a", "d"],
      prefilled: false,
      tagged: true,
    });
  });

  it("does not take <thinking-mode> or prose for reasoning", () => {
    expect(splitReasoning("the <thinking-mode> flag and think tags")).toEqual({
      content: "the <thinking-mode> flag and think tags",
      closed: [],
      prefilled: false,
      tagged: false,
    });
  });
});

describe("reasoning policy in the pipeline", () => {
  const tools: OfferedTool[] = [{ name: "search_code" }, { name: "read_evidence" }];
  const call = '<tool_call>{"name": "search_code", "arguments": {"query": "x"}}</tool_call>';

  it("does not dispatch a call rehearsed inside closed reasoning, and never shows reasoning", () => {
    const r = recoverDeterministic({ content: `<think>maybe ${call}</think>The answer is 4.` }, tools);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe("The answer is 4.");
    expect(r.thinking).toBe(`maybe ${call}`);
  });

  it("a complete call after an unclosed opener ends the reasoning (ollama qwen3 rule)", () => {
    const r = recoverDeterministic({ content: `<think>I will search${call}` }, tools);
    expect(r.tool_calls).toEqual([{ name: "search_code", arguments: { query: "x" } }]);
    expect(r.thinking).toBe("I will search");
    expect(r.content).toBe("");
  });

  it("invalid markup after an unclosed opener stays reasoning (llama.cpp rule)", () => {
    const r = recoverDeterministic({ content: "<think><tool_call>nah uhg</tool_call>" }, tools);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe("");
    expect(r.thinking).toBe("<tool_call>nah uhg</tool_call>");
  });

  it("joins the turn's own thinking with reasoning found in the content", () => {
    const r = recoverDeterministic({ content: "<think>second</think>Done.", thinking: "first" }, tools);
    expect(r.thinking).toBe("first\n\nsecond");
    expect(r.content).toBe("Done.");
  });

  it("dispatches Kimi-K2 calls written in the turn's thinking (calls in reasoning)", () => {
    const thinking =
      "Let me look.<|tool_calls_section_begin|><|tool_call_begin|>functions.read_evidence:0<|tool_call_argument_begin|>" +
      '{"path": "a.py"}<|tool_call_end|><|tool_calls_section_end|>';
    const r = recoverDeterministic({ content: "", thinking }, tools);
    expect(r.tool_calls).toEqual([{ id: "functions.read_evidence:0", name: "read_evidence", arguments: { path: "a.py" } }]);
    expect(r.thinking).toBe("Let me look.");
    expect(r.recovered_by).toBe("dialect:kimi_k2");
  });

  it("DeepSeek call tokens with no call and no reasoning tags are forced-open reasoning", () => {
    const r = recoverDeterministic({ content: "It starts with <｜tool▁calls▁begin｜> and ends with" }, tools);
    expect(r.content).toBe("");
    expect(r.thinking).toBe("It starts with <｜tool▁calls▁begin｜> and ends with");
    expect(r.diagnostics.map((d) => d.message)).toContain(
      "prefilled: DeepSeek call tokens mentioned in forced-open reasoning (no call block)",
    );
  });
});

describe("unwrapAnswer (Hunyuan-A13B <answer>, ERNIE-4.5-Thinking <response>)", () => {
  it("removes a wrapper that opens the text, keeping what follows its closer", () => {
    expect(unwrapAnswer("\n<answer>\nThis is the rest\n</answer>")).toBe("\nThis is the rest\n");
    expect(unwrapAnswer("<response>\ndef\n</response>\nMore.")).toBe("\ndef\n\nMore.");
  });

  it("removes the opener of a cut answer; leaves wrappers that do not open the text", () => {
    expect(unwrapAnswer("<answer>\nThis is the rest\nThat")).toBe("\nThis is the rest\nThat");
    expect(unwrapAnswer("Plain <response>x</response> y")).toBe("Plain <response>x</response> y");
    expect(unwrapAnswer("<answers>x</answers>")).toBe("<answers>x</answers>");
  });

  it("in the pipeline: after reasoning, and the wrapper's calls still run", () => {
    const tools: OfferedTool[] = [{ name: "get_weather" }];
    expect(recoverDeterministic({ content: "<think>\nr\n</think>\n<answer>\nIt is sunny.\n</answer>" }, tools).content).toBe("It is sunny.");
    const r = recoverDeterministic({ content: '<think>\nr\n</think>\n<answer>\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]</tool_calls>\n</answer>' }, tools);
    expect(r.tool_calls.map((t) => t.name)).toEqual(["get_weather"]);
    expect(r.content).toBe("");
  });
});
