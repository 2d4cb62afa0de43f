import { describe, expect, it } from "vitest";
import { bracketArrowToolCall } from "../../../src/toolshim/dialects/bracket-arrow-tool-call.js";
import { readCases } from "../corpus-cases.js";
import { run } from "./corpus-helper.js";

describe("bracket_arrow_tool_call", () => {
  it("reads the real reply of the corpus", () => {
    const [c] = readCases("toolcalls-new.jsonl").filter((x) => x.family === "bracket_arrow_tool_call");
    const r = run(bracketArrowToolCall, c!.raw);
    expect(r.calls).toEqual([{ name: "skills_list", arguments: { category: "research" } }]);
    expect(r.content).toBe("");
  });

  it("reads --flag values of every kind, two blocks, and a missing closer at the end", () => {
    const text =
      'Two steps.\n[TOOL_CALL]\n{tool => "file_toolkit", args => {\n  --operation "write_file"\n  --content "# Title\\n\\nline \\"q\\""\n  --force true\n  --retries 3\n  --mode fast\n}}\n[/TOOL_CALL]\n' +
      '[TOOL_CALL]{tool => "searchFiles", args => { --pattern: "**/*.ts" }}';
    const r = run(bracketArrowToolCall, text);
    expect(r.calls).toEqual([
      { name: "file_toolkit", arguments: { operation: "write_file", content: '# Title\n\nline "q"', force: true, retries: 3, mode: "fast" } },
      { name: "searchFiles", arguments: { pattern: "**/*.ts" } },
    ]);
    expect(r.content).toBe("Two steps.");
  });

  it("reads JSON arguments, key => value pairs and empty arguments", () => {
    expect(run(bracketArrowToolCall, '[TOOL_CALL]{tool => "web_search", args => {"query":"NET stock price"}}[/TOOL_CALL]').calls).toEqual([
      { name: "web_search", arguments: { query: "NET stock price" } },
    ]);
    expect(run(bracketArrowToolCall, '[TOOL_CALL]\n{tool => "recall", args => {query => "topic", k => 3}}\n[/TOOL_CALL]').calls).toEqual([
      { name: "recall", arguments: { query: "topic", k: 3 } },
    ]);
    expect(run(bracketArrowToolCall, '[TOOL_CALL]{tool => "list", args => {}}[/TOOL_CALL]').calls).toEqual([{ name: "list", arguments: {} }]);
    // The JSON spelling MiniMax-M2 writes through LM Studio (lmstudio-bug-tracker#1177).
    expect(run(bracketArrowToolCall, '[TOOL_CALL] { "tool": "write", "args": { "filePath": "a.html" } } [/TOOL_CALL]').calls).toEqual([
      { name: "write", arguments: { filePath: "a.html" } },
    ]);
    expect(run(bracketArrowToolCall, '[TOOL_CALL] { "tool": "", "args": {} } [/TOOL_CALL]').calls).toEqual([]);
  });

  it("leaves a block whose body is not of the shape as text", () => {
    const text = "[TOOL_CALL] {not => a call} [/TOOL_CALL] and {tool => web_search}";
    const r = run(bracketArrowToolCall, text);
    expect(r.calls).toEqual([]);
    expect(r.content).toBe(text);
  });

  it("removes a block cut by the end of the text and reads no call from it", () => {
    const r = run(bracketArrowToolCall, 'Looking.\n[TOOL_CALL]\n{tool => "web_search", args => {\n  --query "rust');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Looking.");
  });
});
