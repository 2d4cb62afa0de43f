import { describe, expect, it } from "vitest";
import { qwen3CoderXml } from "../../../src/toolshim/dialects/qwen3-coder-xml.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("qwen3_coder_xml", () => {
  itParsesCorpusCases(qwen3CoderXml, "qwen3_coder_xml");

  it("marks values untyped and strips one line break on each side", () => {
    const r = run(qwen3CoderXml, "<tool_call>\n<function=read_evidence>\n<parameter=path>\nsrc/a.ts\n</parameter>\n<parameter=line>\n12\n</parameter>\n</function>\n</tool_call>");
    expect(r.calls).toEqual([{ name: "read_evidence", arguments: { path: "src/a.ts", line: "12" }, untyped: true }]);
  });

  it("requires an offered tool for a bare <function=…> and removes the orphan closer", () => {
    const text = "I'll look.\n<function=search_code>\n<parameter=query>\nfoo\n</parameter>\n</function>\n</tool_call>";
    expect(run(qwen3CoderXml, text, ["search_code"]).calls).toEqual([{ name: "search_code", arguments: { query: "foo" }, untyped: true }]);
    expect(run(qwen3CoderXml, text, ["search_code"]).content).toBe("I'll look.");
    const unknown = run(qwen3CoderXml, text, ["find_symbol"]);
    expect(unknown.match).toBeNull();
  });

  it("tolerates Qwen3.6 closing-tag drift", () => {
    const text =
      "<tool_call>\n<function=f>\n<parameter=a>1</parameter/>\n<parameter=b>2</parameter1>\n<parameter=c>\n3\n<parameter=d>4</parameter_function>\n</tool_call>";
    expect(run(qwen3CoderXml, text).calls).toEqual([{ name: "f", arguments: { a: "1", b: "2", c: "3", d: "4" }, untyped: true }]);
  });

  it("recovers a parameter name whose `>` was dropped and ignores a stray </function_invocation>", () => {
    const text = "<tool_call>\n<function=search_code>\n<parameter=query\nneedle\n</parameter>\n</function_invocation>\n</tool_call>";
    const r = run(qwen3CoderXml, text);
    expect(r.calls).toEqual([{ name: "search_code", arguments: { query: "needle" }, untyped: true }]);
    expect(r.content).toBe("");
  });

  it("accepts a missing </function> at the end when every parameter is complete", () => {
    const r = run(qwen3CoderXml, "<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n");
    expect(r.calls).toEqual([{ name: "f", arguments: { a: "x" }, untyped: true }]);
  });

  it("yields no call for a value cut by the end of the text and removes the block", () => {
    const r = run(qwen3CoderXml, "Writing now.\n<tool_call>\n<function=f>\n<parameter=content>\nhalf a fi");
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Writing now.");
  });

  it("reads several functions inside one wrapper without gating their names", () => {
    const r = run(qwen3CoderXml, "<tool_call>\n<function=a>\n<parameter=x>1</parameter>\n</function>\n<function=b>\n</function>\n</tool_call>", []);
    expect(r.calls.map((c) => c.name)).toEqual(["a", "b"]);
    expect(r.content).toBe("");
  });

  it("leaves Functionary's JSON body to that dialect", () => {
    expect(run(qwen3CoderXml, '<function=f>{"a": 1}</function>', ["f"]).match).toBeNull();
  });

  it("removes stray closers after </function> and takes a bare block naming a side-effect tool", () => {
    const s = run(qwen3CoderXml, "<tool_call>\n<function=f>\n<parameter=q>\nx\n</parameter>\n</function>\n</function_invocation>\n</tool_call>", ["f"]);
    expect(s.calls).toEqual([{ name: "f", arguments: { q: "x" }, untyped: true }]);
    expect(s.content).toBe("");
    const b = run(qwen3CoderXml, "Listing.\n<function=developer__shell>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>", ["search_code"]);
    expect(b.calls.map((c) => c.name)).toEqual(["developer__shell"]);
    expect(b.content).toBe("Listing.");
    // An unknown, harmless name without a wrapper is still prose.
    expect(run(qwen3CoderXml, "<function=mystery>\n<parameter=q>\nx\n</parameter>\n</function>", ["search_code"]).match).toBeNull();
  });

  it("ends the last value with the reply when the model writes no closers, and only then", () => {
    const closerless = run(qwen3CoderXml, "Creating it.\n<function=create_new_file>\n<parameter=filepath> t.txt\n<parameter=contents> hello", ["create_new_file"]);
    expect(closerless.calls).toEqual([{ name: "create_new_file", arguments: { filepath: "t.txt", contents: "hello" }, untyped: true }]);
    expect(closerless.content).toBe("Creating it.");
    // The earlier parameter was closed: the open last value is a cut.
    const cut = run(qwen3CoderXml, "<tool_call>\n<function=f>\n<parameter=a>1</parameter>\n<parameter=b>hel", ["f"]);
    expect(cut.calls).toEqual([]);
    // One parameter and no closer: nothing says the model writes none.
    expect(run(qwen3CoderXml, "<tool_call>\n<function=f>\n<parameter=a>hel", ["f"]).calls).toEqual([]);
  });

  it("cuts that last value when the server said the token limit stopped the model (endIsCut)", () => {
    const text = "Creating it.\n<function=create_new_file>\n<parameter=filepath> t.txt\n<parameter=contents> hel";
    const tools = [{ name: "create_new_file" }];
    expect(qwen3CoderXml.parse(text, tools, { endIsCut: true })?.calls).toEqual([]);
    expect(qwen3CoderXml.parse(text, tools, { endIsCut: false })?.calls).toHaveLength(1);
    // Every parameter closed, </function> missing: complete when a stop token may have swallowed
    // the closer (Rapid-MLX pull#1574); cut when the limit stopped the model (a further parameter
    // may have been under way), and so is a parameter tag the limit cut.
    const closed = "<function=f>\n<parameter=a>1</parameter>\n<parameter=b>2</parameter>\n";
    const complete = [{ name: "f", arguments: { a: "1", b: "2" }, untyped: true }];
    expect(qwen3CoderXml.parse(closed, [{ name: "f" }])?.calls).toEqual(complete);
    expect(qwen3CoderXml.parse(closed, [{ name: "f" }], { endIsCut: true })?.calls).toEqual([]);
    expect(qwen3CoderXml.parse(`${closed}<parameter`, [{ name: "f" }])?.calls).toEqual(complete);
    expect(qwen3CoderXml.parse(`${closed}<parameter`, [{ name: "f" }], { endIsCut: true })?.calls).toEqual([]);
    // Inside a closed wrapper the wrapper's closer ends the function, whatever the finish reason.
    expect(qwen3CoderXml.parse(`<tool_call>\n${closed}</tool_call>`, [{ name: "f" }], { endIsCut: true })?.calls).toEqual(complete);
  });
});
