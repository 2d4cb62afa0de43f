import { describe, expect, it } from "vitest";
import { llama3BuiltinPythonTag } from "../../../src/toolshim/dialects/llama3-builtin-python-tag.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("llama3_builtin_python_tag", () => {
  itParsesCorpusCases(llama3BuiltinPythonTag, "llama3_builtin_python_tag");

  it("reads a built-in `.call(...)` ending with <|eom_id|>", () => {
    const r = run(llama3BuiltinPythonTag, 'Searching.<|python_tag|>brave_search.call(query="weather in SF")<|eom_id|>');
    expect(r.calls).toEqual([{ name: "brave_search", arguments: { query: "weather in SF" } }]);
    expect(r.content).toBe("Searching.");
  });

  it("reads JSON calls after the tag, several joined by `;`", () => {
    const r = run(llama3BuiltinPythonTag, '<|python_tag|>{"name": "a", "parameters": {"x": 1}}; {"name": "b", "parameters": {}}');
    expect(r.calls).toEqual([
      { name: "a", arguments: { x: 1 } },
      { name: "b", arguments: {} },
    ]);
  });

  it("maps raw code to the python tool and yields no call for cut JSON", () => {
    expect(run(llama3BuiltinPythonTag, "<|python_tag|>import os\nprint(os.getcwd())<|eom_id|>").calls).toEqual([
      { name: "python", arguments: { code: "import os\nprint(os.getcwd())" } },
    ]);
    const cut = run(llama3BuiltinPythonTag, 'Hi <|python_tag|>{"name": "a", "parameters": {"x"');
    expect(cut.calls).toEqual([]);
    expect(cut.content).toBe("Hi");
  });
});
