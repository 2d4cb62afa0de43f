/** Stage 2, inline JSON (`src/toolshim/inline-json.ts`) through the pipeline: shapes, spans, decoys. */
import { describe, expect, it } from "vitest";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import { extractCalls, scanInlineCalls } from "../../src/toolshim/inline-json.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const tools: OfferedTool[] = [{ name: "search_code" }, { name: "read_evidence" }, { name: "find_symbol" }];
const calls = (text: string) => recoverDeterministic({ content: text }, tools);

describe("call shapes", () => {
  const table: [string, string, { name: string; arguments: Record<string, unknown> }[]][] = [
    ["arguments object", '{"name": "search_code", "arguments": {"query": "a"}}', [{ name: "search_code", arguments: { query: "a" } }]],
    ["parameters key", '{"name": "find_symbol", "parameters": {"name": "Foo"}}', [{ name: "find_symbol", arguments: { name: "Foo" } }]],
    ["args key", '{"name": "search_code", "args": {"query": "a"}}', [{ name: "search_code", arguments: { query: "a" } }]],
    ["input key", '{"name": "search_code", "input": {"query": "a"}}', [{ name: "search_code", arguments: { query: "a" } }]],
    ["arguments as a JSON string", '{"name": "search_code", "arguments": "{\\"query\\": \\"a\\"}"}', [{ name: "search_code", arguments: { query: "a" } }]],
    [
      "OpenAI function envelope",
      '{"type": "function", "function": {"name": "read_evidence", "arguments": "{\\"path\\": \\"a.py\\"}"}}',
      [{ name: "read_evidence", arguments: { path: "a.py" } }],
    ],
    [
      "tool_calls wrapper with two calls",
      '{"tool_calls": [{"function": {"name": "search_code", "arguments": {"query": "a"}}}, {"name": "find_symbol", "arguments": {"name": "B"}}]}',
      [
        { name: "search_code", arguments: { query: "a" } },
        { name: "find_symbol", arguments: { name: "B" } },
      ],
    ],
    [
      "array of calls",
      '[{"name": "search_code", "arguments": {"query": "a"}}, {"name": "read_evidence", "arguments": {"path": "b"}}]',
      [
        { name: "search_code", arguments: { query: "a" } },
        { name: "read_evidence", arguments: { path: "b" } },
      ],
    ],
    ["single-quoted Python dict", "{'name': 'search_code', 'arguments': {'query': 'a'}}", [{ name: "search_code", arguments: { query: "a" } }]],
    ["name given by a wrapper attribute", '<tool_call name="read_evidence">{"path": "c.py"}</tool_call>', [{ name: "read_evidence", arguments: { path: "c.py" } }]],
    ["function-call syntax around an object", 'search_code({"query": "a"})', [{ name: "search_code", arguments: { query: "a" } }]],
    ["name under a tool key", '{"tool": "search_code", "arguments": {"query": "a"}}', [{ name: "search_code", arguments: { query: "a" } }]],
    ["name under a function key", '{"function": "read_evidence", "args": {"path": "b"}}', [{ name: "read_evidence", arguments: { path: "b" } }]],
    ["ReAct Action / Action Input", 'Action: find_symbol\nAction Input: {"name": "Foo"}', [{ name: "find_symbol", arguments: { name: "Foo" } }]],
    [
      "ReAct with a fenced input and an invented observation",
      'Action: search_code\nAction Input:\n```json\n{"query": "a"}\n```\nObservation: 2 matches',
      [{ name: "search_code", arguments: { query: "a" } }],
    ],
  ];
  for (const [what, text, want] of table) {
    it(`${what} → a call, markup removed`, () => {
      const r = calls(text);
      expect(r.tool_calls).toEqual(want);
      expect(r.content).toBe("");
    });
  }
});

describe("the flat form {\"tool\": x, …arguments}", () => {
  const schemaTools: OfferedTool[] = [
    { name: "find_importers", parameters: { type: "object", properties: { module_name: { type: "string" } }, required: ["module_name"] } },
  ];
  it("is a call when every other key is a parameter of the offered tool's schema", () => {
    const r = recoverDeterministic({ content: '```json\n{\n  "tool": "find_importers",\n  "module_name": "rag_common"\n}\n```' }, schemaTools);
    expect(r.tool_calls).toEqual([{ name: "find_importers", arguments: { module_name: "rag_common" } }]);
    expect(r.content).toBe("");
  });
  it("is data otherwise", () => {
    for (const text of ['{"name": "find_importers", "age": 3}', '{"tool": "find_importers"}', '{"name": "Alice", "module_name": "x"}']) {
      expect(recoverDeterministic({ content: text }, schemaTools).tool_calls).toEqual([]);
    }
    expect(recoverDeterministic({ content: '{"tool": "find_importers", "module_name": "x"}' }, [{ name: "find_importers" }]).tool_calls).toEqual([]);
  });
});

describe("spans and prose", () => {
  it("keeps prose around several calls in order", () => {
    const r = calls('First {"name": "search_code", "arguments": {"query": "a"}} and then {"name": "read_evidence", "arguments": {"path": "b"}} done.');
    expect(r.tool_calls.map((c) => c.name)).toEqual(["search_code", "read_evidence"]);
    expect(r.content).toBe("First and then done.");
    expect(r.recovered_by).toBe("inline_json");
  });
  it("removes a fence that holds only the call, and a Using tool: line before it", () => {
    const r = calls('I will search.\nUsing tool: search_code\n```json\n{"name": "search_code", "arguments": {"query": "a"}}\n```\n');
    expect(r.tool_calls).toEqual([{ name: "search_code", arguments: { query: "a" } }]);
    expect(r.content).toBe("I will search.");
  });
  it("keeps scanning after an unbalanced brace and after non-call JSON (goose toolshim.rs does not)", () => {
    const r = calls('Config { broken, and {"a": 1} then {"name": "search_code", "arguments": {"query": "z"}}');
    expect(r.tool_calls).toEqual([{ name: "search_code", arguments: { query: "z" } }]);
    expect(r.content).toBe('Config { broken, and {"a": 1} then');
  });
});

describe("decoys are not calls", () => {
  const decoys: [string, string][] = [
    ["an example the text introduces", 'Tool calls look like this, for example: {"name": "search_code", "arguments": {"query": "a"}}'],
    ["an example in a fenced block", 'Here is an example of the syntax:\n```json\n{"name": "search_code", "arguments": {"query": "a"}}\n```'],
    ["JSON in inline code", 'Write `{"name": "search_code", "arguments": {"query": "a"}}` to search.'],
    ["JSON inside a Python code block", '```python\nclient.call({"name": "search_code", "arguments": {"query": "a"}})\n```'],
    ["JSON that is part of a larger code block", '```\nconst payload = {"name": "search_code", "arguments": {"query": "a"}};\nsend(payload);\n```'],
    ["placeholder arguments", '{"name": "read_evidence", "arguments": {"path": "<path>"}}'],
    ["name-only object", 'Here is a user: {"name": "Alice"}'],
    ["empty object in a fence", "```json\n{}\n```"],
    ["truncated call", '{"name": "search_code", "arguments": {"query": "a'],
    ["unknown tool", '{"name": "search", "arguments": {"q": "a"}}'],
    ["an example in an indented block after a blank line", 'Each line looks like:\n\n    {"name": "search_code", "arguments": {"query": "a"}}\n\nand so on.'],
    [
      "a tool definition echoed back",
      '{"type": "function", "function": {"name": "find_symbol", "description": "Find it", "parameters": {"type": "object", "properties": {"name": {"type": "string"}}}}}',
    ],
  ];
  for (const [what, text] of decoys) {
    it(`${what}: no call, text unchanged`, () => {
      const r = calls(text);
      expect(r.tool_calls).toEqual([]);
      expect(r.content).toBe(text.trim());
    });
  }
  it("explains each decision in diagnostics", () => {
    expect(calls('Write `{"name": "search_code", "arguments": {"query": "a"}}` to search.').diagnostics).toEqual([
      { stage: "inline_json", message: "JSON for search_code is inside inline code (an example); not a call" },
    ]);
  });
});

describe("unknown names", () => {
  it("a whole-message call to an unknown tool is rejected with the available tools, text kept", () => {
    const text = '{"name": "todorantum", "arguments": {"input": "hi"}}';
    const r = calls(text);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe(text);
    expect(r.rejected).toEqual([
      {
        name: "todorantum",
        arguments: { input: "hi" },
        code: "UNKNOWN_TOOL",
        message: 'no tool named "todorantum". The available tools are: search_code, read_evidence, find_symbol.',
      },
    ]);
  });
  it("an unknown name embedded in prose is only noted", () => {
    const r = calls('The config says {"name": "app", "args": {"debug": true}} today.');
    expect(r.rejected).toEqual([]);
    expect(r.diagnostics).toEqual([{ stage: "names", message: '"app" is not an offered tool; left as text' }]);
  });
});

describe("extractCalls and scanInlineCalls", () => {
  it("extracts nothing from non-call values", () => {
    expect(extractCalls([])).toBeUndefined();
    expect(extractCalls([{ name: "a", arguments: {} }, 3])).toBeUndefined();
    expect(extractCalls({ name: "a" })).toBeUndefined();
    expect(extractCalls({ arguments: {} })).toBeUndefined();
  });
  it("reports the span that includes the wrapper and the separator between calls", () => {
    const text = '{"name": "a", "parameters": {}}; {"name": "b", "parameters": {}}';
    const scan = scanInlineCalls(text);
    expect(scan.groups.map((g) => g.span)).toEqual([
      { start: 0, end: 31 },
      { start: 31, end: text.length },
    ]);
  });
});
