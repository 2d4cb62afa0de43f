/**
 * Shim `on` mode rendering (`src/toolshim/prompt.ts`): the catalogue prompt and the history, and
 * the round trip history → stage 2 (the same JSON shape both ways).
 */
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/llm/types.js";
import { recoverDeterministic, renderCatalogPrompt, renderHistoryForShim } from "../../src/toolshim/index.js";
import { oneLine } from "../../src/toolshim/prompt.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const SEARCH_SCHEMA = {
  type: "object",
  properties: { query: { type: "string", description: "café 工" }, options: { type: "object", properties: {} } },
  required: ["query"],
};
const TOOLS: OfferedTool[] = [
  { name: "search_code", description: "Search file contents with ripgrep. Returns matching lines as evidence.", parameters: SEARCH_SCHEMA },
  { name: "read_evidence", description: "Read exact lines of a file (1-based, inclusive).\nUse it after a search.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
];

describe("renderCatalogPrompt", () => {
  const prompt = renderCatalogPrompt(TOOLS);

  it("lists each tool with a one-line description and its compact, lossless JSON Schema (goose 1)", () => {
    const lines = prompt.split("\n");
    expect(lines).toContain("search_code - Search file contents with ripgrep.");
    expect(lines).toContain("read_evidence - Read exact lines of a file (1-based, inclusive).");
    const schemaLine = lines[lines.indexOf("search_code - Search file contents with ripgrep.") + 1]!;
    expect(schemaLine.startsWith("  parameters: ")).toBe(true);
    expect(JSON.parse(schemaLine.slice("  parameters: ".length))).toEqual(SEARCH_SCHEMA);
    expect(schemaLine).toContain("café 工");
  });

  it("instructs one JSON object per call with an example in the exact parsed shape, and plain text for the answer", () => {
    expect(prompt).toContain("reply with one JSON object per call, each on its own line, and nothing else");
    expect(prompt).toContain('{"name":"search_code","arguments":{"query":"text"}}');
    expect(prompt).toContain("reply with the final answer in plain text, without JSON");
    expect(prompt).toContain('"Tool result (<tool name>):"');
  });

  it("has no debug syntax or template braces (goose toolshim.rs does not)", () => {
    expect(prompt).not.toMatch(/Some\(|None\b|\{\{/);
  });

  it("says nothing of what the tools do: in front of a client (codecite serve) they may write files or run commands", () => {
    const clientTools: OfferedTool[] = [{ name: "write_file", description: "Write a file.", parameters: { type: "object", properties: { path: { type: "string" } } } }];
    expect(renderCatalogPrompt(clientTools).split("\n").slice(0, 4)).toEqual(["# Tools", "", "You can call these tools.", ""]);
  });

  it("is empty when no tool is offered", () => {
    expect(renderCatalogPrompt([])).toBe("");
  });

  it("takes the first sentence of a description", () => {
    expect(oneLine("Find symbols. Also methods.")).toBe("Find symbols.");
    expect(oneLine(undefined)).toBe("");
    expect(oneLine("x".repeat(300))).toHaveLength(200);
  });
});

describe("renderHistoryForShim", () => {
  const history: Message[] = [
    { role: "system", content: "You answer questions about code." },
    { role: "user", content: "Who imports rag_common?" },
    {
      role: "assistant",
      content: "Let me search.",
      tool_calls: [
        { id: "call_1", name: "search_code", arguments: { query: "rag_common" } },
        { id: "call_2", name: "read_evidence", arguments: { path: "src/rag_chat.py" } },
      ],
    },
    { role: "tool", content: '{"ok":true,"evidence":[],"total":0,"truncated":false}', tool_name: "search_code", tool_call_id: "call_1" },
    { role: "tool", content: '{"ok":false,"error":{"code":"NOT_FOUND","message":"no such file"}}', tool_call_id: "call_2" },
    { role: "assistant", content: "Nothing imports it." },
  ];

  it("renders calls as JSON lines and results as labelled user messages, merging consecutive results", () => {
    expect(renderHistoryForShim(history)).toEqual([
      { role: "system", content: "You answer questions about code." },
      { role: "user", content: "Who imports rag_common?" },
      {
        role: "assistant",
        content:
          'Let me search.\n{"name":"search_code","arguments":{"query":"rag_common"}}\n{"name":"read_evidence","arguments":{"path":"src/rag_chat.py"}}',
      },
      {
        role: "user",
        content:
          'Tool result (search_code):\n{"ok":true,"evidence":[],"total":0,"truncated":false}\n\n' +
          'Tool result (read_evidence):\n{"ok":false,"error":{"code":"NOT_FOUND","message":"no such file"}}',
      },
      { role: "assistant", content: "Nothing imports it." },
    ]);
  });

  it("does not mutate its input", () => {
    const copy = structuredClone(history);
    renderHistoryForShim(history);
    expect(history).toEqual(copy);
  });

  it("renders calls in the shape stage 2 reads back (round trip)", () => {
    const assistant = renderHistoryForShim(history)[2]!;
    const r = recoverDeterministic({ content: assistant.content }, TOOLS);
    expect(r.tool_calls).toEqual([
      { name: "search_code", arguments: { query: "rag_common" } },
      { name: "read_evidence", arguments: { path: "src/rag_chat.py" } },
    ]);
    expect(r.content).toBe("Let me search.");
  });
});
