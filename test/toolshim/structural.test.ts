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

  it("reads vendor-prefixed tags written without whitespace between them (GigaChat 3.5's GCML, no dialect)", () => {
    const G = "｜GCML｜";
    const text = `Checking.<${G}tool_calls><${G}invoke name="search_code"><${G}parameter name="query" string="true">x</${G}parameter></${G}invoke><${G}invoke name="read_evidence"><${G}parameter name="path" string="true">a.py</${G}parameter></${G}invoke></${G}tool_calls>`;
    const found = scanStructural(text, tools).found;
    expect(found.map((f) => [f.shape, f.call.name, f.call.arguments])).toEqual([
      ["named-element", "search_code", { query: "x" }],
      ["named-element", "read_evidence", { path: "a.py" }],
    ]);
    const r = recoverDeterministic({ content: text }, tools, { dialects: [] });
    expect(r.tool_calls.map((c) => c.name)).toEqual(["search_code", "read_evidence"]);
    expect(r.content).toBe("Checking.");
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

describe("structural stage: wrapper markers nobody listed (synthetic formats)", () => {
  // Invented frames: no dialect knows these markers; the structural stage reads the call from the
  // tool name, the frame and the schema, and strips the frame from the visible text.
  const cases: [string, string, { name: string; arguments: Record<string, unknown> }[], string][] = [
    [
      "special tokens around a name and JSON",
      'Looking.<|call_start|>search_code<|call_args|>{"query": "def main"}<|call_end|>',
      [{ name: "search_code", arguments: { query: "def main" } }],
      "Looking.",
    ],
    [
      "full-width tokens, a type word and a fenced body",
      '<｜calls｜><｜call｜>function<｜sep｜>read_evidence\n```json\n{"path": "a.py", "start_line": 4}\n```<｜call_end｜>',
      [{ name: "read_evidence", arguments: { path: "a.py", start_line: 4 } }],
      "",
    ],
    [
      "bracketed tokens, two calls",
      '[CALL]search_code[PARAMS]{"query": "x"}[CALL]read_evidence[PARAMS]{"path": "b.py"}[/CALL]',
      [
        { name: "search_code", arguments: { query: "x" } },
        { name: "read_evidence", arguments: { path: "b.py" } },
      ],
      "",
    ],
    [
      "a bare wrapper tag, a functions. prefix and an index",
      'Now:\n<fn_call>functions.search_code:0 {"query": "TODO", "max_results": 3}</fn_call>\nDone.',
      [{ name: "search_code", arguments: { query: "TODO", max_results: 3 } }],
      "Now:\nDone.",
    ],
    [
      "a name in its tag and key-in-tag parameters",
      "<run>\n<tool=read_evidence>\n<arg=path>\nsrc/x.ts\n</arg>\n<arg=start_line>\n9\n</arg>\n</tool>\n</run>",
      [{ name: "read_evidence", arguments: { path: "src/x.ts", start_line: 9 } }],
      "",
    ],
    [
      "key/value element pairs after a framed name",
      "<start_of_call>search_code<key>query</key><val>a && b</val><key>max_results</key><val>2</val><end_of_call>",
      [{ name: "search_code", arguments: { query: "a && b", max_results: 2 } }],
      "",
    ],
    [
      "a list of name-keyed objects after a token",
      '<|calls|>[{"search_code": {"query": "x"}}, {"read_evidence": {"path": "c.py"}}]<|/calls|>',
      [
        { name: "search_code", arguments: { query: "x" } },
        { name: "read_evidence", arguments: { path: "c.py" } },
      ],
      "",
    ],
  ];
  for (const [what, text, calls, content] of cases) {
    it(what, () => {
      const r = recover(text);
      expect(r.calls).toEqual(calls);
      expect(r.content).toBe(content);
      expect(r.by).toBe("structural");
    });
  }

  it("removes and refuses a framed call whose JSON is cut off", () => {
    const r = recover('Checking.<|call_start|>search_code<|call_args|>{"query": "unfinis');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Checking.");
    expect(r.r.rejected.map((x) => [x.name, x.code])).toEqual([["search_code", "INVALID_ARGUMENT"]]);
  });

  it("reads a framed zero-argument call only when the schema allows no arguments", () => {
    const open: OfferedTool[] = [...tools, { name: "read_git_diff", parameters: { type: "object", properties: {} } }];
    const ok = recoverDeterministic({ content: "[CALL]read_git_diff[/CALL]" }, open);
    expect(ok.tool_calls.map((c) => [c.name, c.arguments])).toEqual([["read_git_diff", {}]]);
    expect(ok.content).toBe("");
    expect(recover("[CALL]search_code[/CALL]").calls).toEqual([]);
  });
});

describe("structural stage: closers inside values (the dialects' rules, for tags no dialect lists)", () => {
  it("keeps a closer that prose follows in a key-in-tag value (a file that mentions it)", () => {
    const r = recover("<run>\n<tool=search_code>\n<arg=query>\nA block ends with </arg> on its own.\n</arg>\n</tool>\n</run>");
    expect(r.calls).toEqual([{ name: "search_code", arguments: { query: "A block ends with </arg> on its own." } }]);
    expect(r.content).toBe("");
    expect(r.by).toBe("structural");
  });

  it("keeps another tag's closer that prose follows, and ends the value at its own closer", () => {
    const r = recover("<run>\n<tool=search_code>\n<arg=query>\n</tool> then </run>\n</arg>\n</tool>\n</run>");
    expect(r.calls).toEqual([{ name: "search_code", arguments: { query: "</tool> then </run>" } }]);
    expect(r.content).toBe("");
  });

  it("ends a value at a closer named after its parameter when the next parameter follows", () => {
    const mem: OfferedTool[] = [
      { name: "remember", parameters: { type: "object", properties: { content: { type: "string" }, metadata: { type: "object" } }, required: ["content"] } },
    ];
    const keyed = recoverDeterministic({ content: "<run>\n<tool=remember>\n<arg=content>\nKeys rotate monthly.</content>\n<arg=metadata>\n{\"tags\": \"ops\"}\n</arg>\n</tool>\n</run>" }, mem);
    expect(keyed.tool_calls.map((c) => [c.name, c.arguments])).toEqual([["remember", { content: "Keys rotate monthly.", metadata: { tags: "ops" } }]]);
    // Named parameters: the JSON of a parameter element is that parameter's, not a call of a tool named like it.
    const named = recoverDeterministic({ content: '<call name="remember">\n<arg name="content">Keys rotate monthly.</content>\n<arg name="metadata">{"tags": "ops"}</arg>\n</call>' }, mem);
    expect(named.tool_calls.map((c) => [c.name, c.arguments])).toEqual([["remember", { content: "Keys rotate monthly.", metadata: { tags: "ops" } }]]);
    expect(named.rejected).toEqual([]);
    expect(named.content).toBe("");
  });

  it("reads no call when the token limit cut the text inside a value after a literal closer", () => {
    const r = recoverDeterministic({ content: "<run>\n<tool=search_code>\n<arg=query>\nA block ends with </arg> on", finish_reason: "length" }, tools);
    expect(r.tool_calls).toEqual([]);
    expect(r.rejected.map((x) => [x.name, x.code])).toEqual([["search_code", "INVALID_ARGUMENT"]]);
  });
});

describe("structural stage: never", () => {
  const never: [string, string][] = [
    ["a tool named before a turn token", "I will use search_code<|im_end|>"],
    ["a bold tool name before JSON in prose", 'Use <b>search_code</b> with {"query": "x"} when you need it.'],
    ["a framed call in a Python code block", '```python\nprompt = "<|call|>search_code<|args|>{\\"query\\": \\"x\\"}"\n```'],
    ["a framed call introduced as an example", 'The format looks like this, for example: <|call|>search_code<|args|>{"query": "x"}<|end|>'],
    ["a framed call of a tool that is not offered", '<|call|>delete_file<|args|>{"path": "a.py"}<|end|>'],
    ["a name between tokens with prose after it", '<|call|>search_code finds text {"query": "x"}'],

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
