import { describe, expect, it } from "vitest";
import { kimiHeaderName, kimiK2 } from "../../../src/toolshim/dialects/kimi-k2.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("kimi_k2", () => {
  itParsesCorpusCases(kimiK2, "kimi_k2");

  it("declares that its calls inside reasoning are real", () => {
    expect(kimiK2.callsInReasoning).toBe(true);
  });

  it("reads calls with newlines between tokens and keeps the raw id", () => {
    const text =
      '<|tool_calls_section_begin|>\n<|tool_call_begin|>functions.read_file:0\n<|tool_call_argument_begin|>{"path":"a.ts"}\n<|tool_call_end|>\n<|tool_calls_section_end|>';
    const r = run(kimiK2, text);
    expect(r.calls).toEqual([{ name: "read_file", arguments: { path: "a.ts" }, id: "functions.read_file:0" }]);
    expect(r.content).toBe("");
  });

  it("reads the singular section token, a section-less call without index, and a missing argument marker", () => {
    const r = run(
      kimiK2,
      'x <|tool_call_section_begin|><|tool_call_begin|>functions.web_search<|tool_call_argument_begin|>{"q":"x"}<|tool_call_end|><|tool_call_section_end|> y <|tool_call_begin|>functions.usage:1  {"period": "24h"}<|tool_call_end|>',
    );
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([
      ["web_search", { q: "x" }],
      ["usage", { period: "24h" }],
    ]);
    expect(r.content).toBe("x y");
  });

  it("repairs raw Windows paths and ignores an argument-end token", () => {
    const r = run(
      kimiK2,
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.read:0<|tool_call_argument_begin|>{"path": "C:\\Users\\eugen\\notes.txt"}<|tool_call_argument_end|><|tool_call_end|><|tool_calls_section_end|>',
    );
    expect(r.calls).toEqual([{ name: "read", arguments: { path: "C:\\Users\\eugen\\notes.txt" }, id: "functions.read:0" }]);
  });

  it("drops a call whose JSON is broken and keeps the others", () => {
    const r = run(
      kimiK2,
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"x": <|tool_call_end|><|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{"y": 1}<|tool_call_end|><|tool_calls_section_end|>',
    );
    expect(r.calls.map((c) => c.name)).toEqual(["b"]);
    expect(r.content).toBe("");
  });

  it("yields no call for an unterminated call and removes its section, keeping earlier calls", () => {
    const r = run(
      kimiK2,
      'Plan. <|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"x": 1}<|tool_call_end|><|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{"y": 2}',
    );
    expect(r.calls.map((c) => c.name)).toEqual(["a"]);
    expect(r.content).toBe("Plan.");
    const only = run(kimiK2, 'Plan. <|tool_calls_section_begin|><|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{"y": 2}');
    expect(only.calls).toEqual([]);
    expect(only.content).toBe("Plan.");
  });

  it("strips the format's id syntax from names but leaves malformed ids unresolvable", () => {
    expect(kimiHeaderName("functions.read_file:0")).toBe("read_file");
    expect(kimiHeaderName(" functions.web_search ")).toBe("web_search");
    expect(kimiHeaderName("emoji_functions.emoji_function:3")).toBe("emoji_function");
    expect(kimiHeaderName("functions.invalid_get_weather.0")).toBeUndefined();
    expect(kimiHeaderName("developer__shell:2")).toBe("developer__shell");
    // A client-sanitised id (exo-explore/exo issue #2281): the name between `functions_` and `_N`.
    expect(kimiHeaderName("functions_get_weather_1")).toBe("get_weather");
    expect(kimiHeaderName("functions_read-file_12")).toBe("read-file");
    expect(kimiHeaderName("functions_get_weather")).toBe("functions_get_weather");
  });

  it("reads a call whose begin token was dropped when its end token is there (junk header prefix)", () => {
    const r = run(kimiK2, 'emoji_functions.search_code:0 <|tool_call_argument_begin|> {"query": "x"} <|tool_call_end|>');
    expect(r.calls).toEqual([{ name: "search_code", arguments: { query: "x" }, id: "emoji_functions.search_code:0" }]);
    expect(r.content).toBe("");
    // Without the end token it stays unterminated (no call), and a plain word header is not taken.
    expect(run(kimiK2, 'functions.search_code:0 <|tool_call_argument_begin|> {"query": "x"}').calls).toEqual([]);
    expect(run(kimiK2, 'note <|tool_call_argument_begin|> {"query": "x"} <|tool_call_end|>').calls).toEqual([]);
  });

  it("decodes string arguments and passes array arguments on for a tool error", () => {
    const s = run(kimiK2, '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>"{\\"a\\": 1}"<|tool_call_end|>');
    expect(s.calls.map((c) => c.arguments)).toEqual([{ a: 1 }]);
    const a = run(kimiK2, '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>["x"]<|tool_call_end|>');
    expect(a.calls.map((c) => c.arguments)).toEqual([["x"]]);
  });

  it("keeps a section token quoted in a line of prose", () => {
    const t = "| Kimi | <|tool_calls_section_begin|> |";
    expect(run(kimiK2, t).match).toBeNull();
  });
});
