import { describe, expect, it } from "vitest";
import { glm45ArgKv } from "../../../src/toolshim/dialects/glm45-arg-kv.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("glm45_arg_kv", () => {
  itParsesCorpusCases(glm45ArgKv, "glm45_arg_kv");

  it("reads the GLM-4.7 compact form", () => {
    const r = run(glm45ArgKv, "Sure.<tool_call>read_evidence<arg_key>path</arg_key><arg_value>src/a.ts</arg_value><arg_key>line</arg_key><arg_value>3</arg_value></tool_call>");
    expect(r.calls).toEqual([{ name: "read_evidence", arguments: { path: "src/a.ts", line: "3" }, untyped: true }]);
    expect(r.content).toBe("Sure.");
  });

  it("reads a zero-argument call and two calls with content between", () => {
    const r = run(glm45ArgKv, "A <tool_call>list_tools</tool_call> B <tool_call>f\n<arg_key>q</arg_key>\n<arg_value>a & b < c</arg_value>\n</tool_call> C");
    expect(r.calls).toEqual([
      { name: "list_tools", arguments: {}, untyped: true },
      { name: "f", arguments: { q: "a & b < c" }, untyped: true },
    ]);
    expect(r.content).toBe("A B C");
  });

  it("leaves Hermes JSON, Qwen3-Coder XML and non-name bodies alone", () => {
    expect(run(glm45ArgKv, '<tool_call>{"name": "f", "arguments": {}}</tool_call>').match).toBeNull();
    expect(run(glm45ArgKv, "<tool_call><function=f></function></tool_call>").match).toBeNull();
    expect(run(glm45ArgKv, "<tool_call>nah uhg</tool_call>").match).toBeNull();
  });

  it("does not read tags named in prose as a zero-argument call", () => {
    expect(run(glm45ArgKv, "Put calls between <tool_call> and </tool_call> tags.").match).toBeNull();
    const offered = run(glm45ArgKv, "<tool_call> read_git_diff </tool_call>", ["read_git_diff"]);
    expect(offered.calls).toEqual([{ name: "read_git_diff", arguments: {}, untyped: true }]);
  });

  it("keeps a value's whitespace, except the line breaks that put it on lines of its own", () => {
    const r = run(
      glm45ArgKv,
      "<tool_call>write_file\n<arg_key>content</arg_key>\n<arg_value>    def f():\n        return 1\n</arg_value>\n<arg_key>pad</arg_key><arg_value>  x  </arg_value>\n<arg_key>own</arg_key><arg_value>\nclass A:\n    pass\n</arg_value></tool_call>",
    );
    expect(r.calls).toEqual([
      { name: "write_file", arguments: { content: "    def f():\n        return 1\n", pad: "  x  ", own: "class A:\n    pass" }, untyped: true },
    ]);
  });
});
