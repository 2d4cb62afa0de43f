/**
 * The structural stage (issue 12): calls in markup no dialect lists, read when the markup is named
 * after an offered tool and its arguments fit the tool's schema; never prose, examples, quoted
 * code or tools that are not offered.
 */
import { describe, expect, it } from "vitest";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import { scanStructural } from "../../src/toolshim/structural.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const tools: OfferedTool[] = [
  {
    name: "search_code",
    parameters: { type: "object", properties: { query: { type: "string" }, max_results: { type: "integer" } }, required: ["query"] },
  },
  {
    name: "read_evidence",
    parameters: { type: "object", properties: { path: { type: "string" }, start_line: { type: "integer" } }, required: ["path"] },
  },
];

function recover(text: string) {
  const r = recoverDeterministic({ content: text }, tools);
  return { calls: r.tool_calls.map((c) => ({ name: c.name, arguments: c.arguments })), content: r.content, by: r.recovered_by, r };
}

describe("structural stage: shapes", () => {
  it("reads an element named after the tool, typing children by the schema", () => {
    const r = recover("Let me look.\n<search_code>\n<query>load_index</query>\n<max_results>5</max_results>\n</search_code>");
    expect(r.calls).toEqual([{ name: "search_code", arguments: { query: "load_index", max_results: 5 } }]);
    expect(r.content).toBe("Let me look.");
    expect(r.by).toBe("structural");
    expect(r.r.diagnostics).toContainEqual({ stage: "structural", message: "search_code read from element markup" });
  });

  it("reads attributes of a self-closing element", () => {
    expect(recover('<read_evidence path="src/a.py" start_line="7"/>').calls).toEqual([
      { name: "read_evidence", arguments: { path: "src/a.py", start_line: 7 } },
    ]);
  });

  it("reads an element whose name attribute is the tool, with named parameter children", () => {
    const r = recover('Reading it.\n<call name="read_evidence"><arg name="path">src/a.py</arg><arg name="start_line">3</arg></call>\nDone.');
    expect(r.calls).toEqual([{ name: "read_evidence", arguments: { path: "src/a.py", start_line: 3 } }]);
    expect(r.content).toBe("Reading it.\nDone.");
  });

  it("reads a vendor-prefixed invoke (MiniMax-M3 tags without the dialect)", () => {
    const NS = "]<]minimax[>[";
    const text = `${NS}<invoke name="search_code">${NS}<query>x${NS}</query>${NS}</invoke>`;
    const found = scanStructural(text, tools).found;
    expect(found.map((f) => [f.shape, f.call.name, f.call.arguments])).toEqual([["named-element", "search_code", { query: "x" }]]);
    expect(found[0]!.span).toEqual({ start: 0, end: text.length });
  });

  it("reads [name]{json}[END…] and [name]{json}[/name] blocks", () => {
    expect(recover('[search_code]{"query": "def main"}[END_TOOL_REQUEST]').calls).toEqual([{ name: "search_code", arguments: { query: "def main" } }]);
    const r = recover('Ok [read_evidence]{"path": "a.py"}[/read_evidence] then.');
    expect(r.calls).toEqual([{ name: "read_evidence", arguments: { path: "a.py" } }]);
    expect(r.content).toBe("Ok then.");
  });

  it("reads a line that is only name(key=value)", () => {
    const r = recover('First:\nread_evidence(path="src/a.py", start_line=10)\nthen I answer.');
    expect(r.calls).toEqual([{ name: "read_evidence", arguments: { path: "src/a.py", start_line: 10 } }]);
    expect(r.content).toBe("First:\nthen I answer.");
  });

  it("reads name: {json} and call:name{…}", () => {
    expect(recover('search_code: {"query": "TODO"}').calls).toEqual([{ name: "search_code", arguments: { query: "TODO" } }]);
    expect(recover('call:search_code{query:<|"|>parse_args<|"|>}').calls).toEqual([{ name: "search_code", arguments: { query: "parse_args" } }]);
  });
});

describe("structural stage: never", () => {
  const never: [string, string][] = [
    ["prose naming a tool", "search_code is the tool that finds text; read_evidence reads a file."],
    ["a call inside a sentence", "You can call read_evidence(path=\"a.py\") to see it, and then carry on."],
    ["an example", 'For example:\n<search_code><query>x</query></search_code>'],
    ["inline code", "Write `<search_code><query>x</query></search_code>` to search."],
    ["a code block in a programming language", '```yaml\nsearch_code: {"query": "x"}\n```'],
    ["a tool that is not offered", '<delete_file><path>a.py</path></delete_file>'],
    ["arguments that fail the schema", "<search_code><max_results>5</max_results></search_code>"],
    ["a parameter the tool does not have in a keyword call", 'read_evidence(file="a.py")'],
  ];
  for (const [what, text] of never) {
    it(what, () => {
      const r = recover(text);
      expect(r.calls).toEqual([]);
      expect(r.by).toBe("none");
    });
  }

  it("says why a candidate was refused", () => {
    const r = recover("<search_code><max_results>5</max_results></search_code>");
    expect(r.r.diagnostics.some((d) => d.stage === "structural" && /does not fit its parameters/.test(d.message))).toBe(true);
  });
});
