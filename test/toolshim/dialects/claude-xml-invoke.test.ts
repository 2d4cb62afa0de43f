import { describe, expect, it } from "vitest";
import { claudeXmlInvoke } from "../../../src/toolshim/dialects/claude-xml-invoke.js";
import { olmo3FunctionCalls } from "../../../src/toolshim/dialects/olmo3-function-calls.js";
import { run } from "./corpus-helper.js";

describe("claude_xml_invoke", () => {
  it("reads invokes with untyped parameters and keeps prose on both sides", () => {
    const r = run(
      claudeXmlInvoke,
      'Let me look.\n<function_calls>\n<invoke name="search_code">\n<parameter name="query">a < b && c</parameter>\n<parameter name="max_results">5</parameter>\n</invoke>\n<invoke name="read_git_diff">\n</invoke>\n</function_calls>\nBack soon.',
    );
    expect(r.calls).toEqual([
      { name: "search_code", arguments: { query: "a < b && c", max_results: "5" }, untyped: true },
      { name: "read_git_diff", arguments: {}, untyped: true },
    ]);
    expect(r.content).toBe("Let me look. Back soon.");
  });

  it("accepts the antml: prefix, a JSON invoke body and a dropped </parameter>", () => {
    const r = run(
      claudeXmlInvoke,
      '<function_calls><invoke name="f">{"path": "a.py"}</invoke><invoke name="g"><parameter name="x">1<parameter name="y">2</invoke></function_calls>',
    );
    expect(r.calls).toEqual([
      { name: "f", arguments: { path: "a.py" } },
      { name: "g", arguments: { x: "1", y: "2" }, untyped: true },
    ]);
    expect(r.content).toBe("");
  });

  it("yields no call for a cut value and leaves OLMo 3 bodies and quoted markup alone", () => {
    const cut = run(claudeXmlInvoke, 'Reading.\n<function_calls>\n<invoke name="read_evidence">\n<parameter name="path">lib/d');
    expect(cut.calls).toEqual([]);
    expect(cut.content).toBe("Reading.");
    const olmo = '<function_calls>get_weather(city="Paris")</function_calls>';
    expect(claudeXmlInvoke.detect(olmo)).toBe(false);
    expect(run(olmo3FunctionCalls, olmo, ["get_weather"]).calls).toEqual([{ name: "get_weather", arguments: { city: "Paris" } }]);
    expect(run(claudeXmlInvoke, 'Use `<function_calls><invoke name="x"></invoke></function_calls>`.').match).toBeNull();
  });

  it("reads an invoke name with a special token fumbled into it or in place of its closing quote", () => {
    for (const head of ['name="read<|message|>">', 'name="re<|message|>ad">', 'name="read<|message|><|message|>">', 'name="read<|message|>']) {
      const r = run(claudeXmlInvoke, `<function_calls>\n<invoke ${head}<parameter name="path">go.mod</parameter>\n</invoke>\n</function_calls>`);
      expect(r.calls, head).toEqual([{ name: "read", arguments: { path: "go.mod" }, untyped: true }]);
      expect(r.content, head).toBe("");
    }
    const value = run(claudeXmlInvoke, '<function_calls><invoke name="echo"><parameter name="text">keep <|message|> literal</parameter></invoke></function_calls>');
    expect(value.calls).toEqual([{ name: "echo", arguments: { text: "keep <|message|> literal" }, untyped: true }]);
  });
});
