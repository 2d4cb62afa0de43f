/**
 * A reply that the token limit stopped (finish reason `length`, `AssistantTurn.finish_reason`) never
 * yields a call the model had not finished writing. Every corpus case with calls is cut at many
 * places (every place next to markup, and every seventh character) and recovered as the server would
 * hand it over with `length`: each call returned must be the case's own call at that position,
 * deep-equal — never one with arguments missing (a DSML or MiniMax invoke whose next `<parameter`
 * tag the limit cut, a Qwen3-Coder function without its `</function>`, a Mistral name without its
 * arguments, a Harmony message with an empty body, raw Python code, a Continue block without its
 * closing fence), and never a call from reasoning the limit left open. With `stop` (or no reason)
 * the same texts are judged from the text alone, so a closer that a stop token swallowed is still
 * tolerated.
 */
import { describe, expect, it } from "vitest";
import { schemaValidator } from "../../src/tools/schema-validator.js";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import { readCases, toolsOf, type CorpusCase } from "./corpus-cases.js";

const FILES = ["toolcalls.jsonl", "toolcalls-new.jsonl", "toolcalls-extra.jsonl"];
const MARKUP = /[<>{}[\]|"\n=:]/;

/** The places where `raw` is cut: next to markup, and every seventh character. */
function cutPlaces(raw: string): number[] {
  const out: number[] = [];
  for (let p = 1; p < raw.length; p++) if (p % 7 === 0 || MARKUP.test(raw[p - 1]!) || MARKUP.test(raw[p]!)) out.push(p);
  return out;
}

const calls = (c: CorpusCase, content: string, finish?: "stop" | "length") => {
  const tools = toolsOf(c);
  const turn = finish === undefined ? { content } : { content, finish_reason: finish };
  return recoverDeterministic(turn, tools, { validate: schemaValidator(tools) }).tool_calls.map((t) => ({ name: t.name, arguments: t.arguments }));
};

describe("a reply the token limit stopped", () => {
  for (const file of FILES) {
    it(`yields only calls the model finished, over every cut of ${file}`, () => {
      const bad: string[] = [];
      let cuts = 0;
      for (const c of readCases(file)) {
        if (c.expected.length === 0) continue;
        for (const p of cutPlaces(c.raw)) {
          cuts++;
          const got = calls(c, c.raw.slice(0, p), "length");
          if (got.some((g, i) => JSON.stringify(g) !== JSON.stringify(c.expected[i]))) {
            bad.push(`${c.id} cut at ${p}: …${JSON.stringify(c.raw.slice(Math.max(0, p - 40), p))} -> ${JSON.stringify(got)}`);
            break;
          }
        }
      }
      expect(cuts).toBeGreaterThan(1000);
      expect(bad).toEqual([]);
    });
  }

  // Real outputs cut where a stop token can end them too: `stop` keeps the call, `length` does not.
  const cases: { family: string; raw: string; tools: string[]; expected: Record<string, unknown> }[] = [
    {
      // DeepSeek V3.2 DSML without its closers (sglang deepseekv32_detector's format).
      family: "deepseek_v32_dsml",
      raw: '<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="location" string="true">NYC</｜DSML｜parameter>\n',
      tools: ["get_weather"],
      expected: { location: "NYC" },
    },
    {
      // MiniMax-M2 (vLLM test_minimax_m2_tool_parser.py), `</invoke>` not written.
      family: "minimax_m2_invoke",
      raw: '<minimax:tool_call><invoke name="test_func"><parameter name="arg1">value1</parameter>',
      tools: ["test_func"],
      expected: { arg1: "value1" },
    },
    {
      // Mistral v11 zero-argument call (ollama model/parsers/ministral_test.go shape).
      family: "mistral_v11_args",
      raw: "[TOOL_CALLS]get_time",
      tools: ["get_time"],
      expected: {},
    },
    {
      // gpt-oss python tool with raw code (openai/harmony `to=python`).
      family: "harmony_gptoss",
      raw: "<|channel|>analysis to=python code<|message|>print(1 + 1)",
      tools: ["python"],
      expected: { code: "print(1 + 1)" },
    },
  ];
  for (const c of cases) {
    it(`${c.family}: a closer-less end is a call after 'stop', none after 'length'`, () => {
      const tools = c.tools.map((name) => ({ name }));
      const stop = recoverDeterministic({ content: c.raw, finish_reason: "stop" }, tools);
      expect(stop.tool_calls.map((t) => t.arguments)).toEqual([c.expected]);
      const cut = recoverDeterministic({ content: c.raw, finish_reason: "length" }, tools);
      expect(cut.tool_calls).toEqual([]);
      expect(cut.rejected.map((r) => r.name)).toEqual(c.tools);
      expect(cut.content).toBe("");
    });
  }

  it("runs no call from reasoning that the limit left open", () => {
    const raw = "<think>I could read it: <tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.ts\"}}\n</tool_call>";
    const tools = [{ name: "read_file" }];
    expect(recoverDeterministic({ content: raw }, tools).tool_calls).toHaveLength(1);
    const cut = recoverDeterministic({ content: raw, finish_reason: "length" }, tools);
    expect(cut.tool_calls).toEqual([]);
    expect(cut.thinking).toContain("I could read it");
    expect(cut.content).toBe("");
  });
});
