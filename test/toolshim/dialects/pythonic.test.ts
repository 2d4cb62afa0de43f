import { describe, expect, it } from "vitest";
import { pythonic } from "../../../src/toolshim/dialects/pythonic.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("pythonic", () => {
  itParsesCorpusCases(pythonic, "pythonic");

  it("maps Python literals and escaped quotes", () => {
    const r = run(
      pythonic,
      "[register_user(name='John \\'Doe\\'', age=37, address={'city': 'SF'}, role=None, passed_test=True, aliases=['John', \"Johnny\"])]",
      ["register_user"],
    );
    expect(r.calls).toEqual([
      {
        name: "register_user",
        arguments: { name: "John 'Doe'", age: 37, address: { city: "SF" }, role: null, passed_test: true, aliases: ["John", "Johnny"] },
      },
    ]);
  });

  it("reads a Gemma 3 ```tool_code fence and keeps the prose before it", () => {
    const r = run(
      pythonic,
      "The column is Division.\n```tool_code\n[filter_dataframe(column_name='Division', search_terms=['tech experts'])]\n```",
      ["filter_dataframe"],
    );
    expect(r.calls).toEqual([{ name: "filter_dataframe", arguments: { column_name: "Division", search_terms: ["tech experts"] } }]);
    expect(r.content).toBe("The column is Division.");
  });

  it("does not claim bracketed prose, unknown callees or positional calls", () => {
    expect(run(pythonic, "See [note(1)] and [print(x)].", ["search_code"]).match).toBeNull();
    expect(run(pythonic, "[search_code('main')]", ["search_code"]).match).toBeNull();
  });

  it("removes a <|python_start|> block that does not parse, with no call", () => {
    const r = run(pythonic, "Hi <|python_start|>[get_weather(city='L", ["get_weather"]);
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Hi");
  });

  it("reads a ```tool_code fence without list brackets", () => {
    const r = run(pythonic, '```tool_code\nfind_importers(module_name="rag.common")\n```', ["find_importers"]);
    expect(r.calls).toEqual([{ name: "find_importers", arguments: { module_name: "rag.common" } }]);
    expect(r.content).toBe("");
  });

  it("returns a bare list of side-effect calls for refusal without removing its text, unless another format frames it", () => {
    const r = run(pythonic, '[bash(command="ls")]', ["search_code"]);
    expect(r.calls).toEqual([{ name: "bash", arguments: { command: "ls" } }]);
    expect(r.content).toBe('[bash(command="ls")]');
    expect(run(pythonic, '<|tool_call_start|>[bash(command="ls")]<|tool_call_end|>', ["search_code"]).match).toBeNull();
  });
});
