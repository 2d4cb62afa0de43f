/**
 * The pipeline (`recover`, `recoverDeterministic`): the behaviours behind goose's 40 shim tests
 * that apply to a read-only toolset (the `tests` module of aaif-goose/goose
 * `crates/goose/src/providers/toolshim.rs`; each test names the behaviour and the goose test it
 * stands for), proofs that goose's weaknesses are absent, and the pipeline rules (native calls win,
 * stage order, fail closed).
 */
import { describe, expect, it } from "vitest";
import { recover, recoverDeterministic, showsToolIntent, type Interpreter } from "../../src/toolshim/index.js";
import type { OfferedTool, RawCall } from "../../src/toolshim/types.js";
import { schemaValidator } from "../../src/tools/schema-validator.js";

const READ_TOOLS: OfferedTool[] = [
  { name: "search_code", parameters: { type: "object", properties: { query: { type: "string" }, max_results: { type: "integer" } }, required: ["query"] } },
  { name: "read_evidence", parameters: { type: "object", properties: { path: { type: "string" }, start_line: { type: "integer" } }, required: ["path"] } },
];
/** The one argument validator, over the JSON Schemas of {@link READ_TOOLS}. */
const validate = schemaValidator(READ_TOOLS);
const section = (body: string) => `<|tool_calls_section_begin|> <|tool_call_begin|> ${body} <|tool_call_end|> <|tool_calls_section_end|>`;

/** An interpreter that records its calls and answers with scripted calls (or throws). */
function fakeInterpreter(answer: RawCall[] | Error): Interpreter & { texts: string[] } {
  const texts: string[] = [];
  return {
    texts,
    interpret(text) {
      texts.push(text);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
}

describe("goose shim behaviours (goose toolshim.rs tests)", () => {
  it("a Kimi section with a functions.NAME:0 header becomes a call (goose 6, 13)", async () => {
    const interp = fakeInterpreter(new Error("must not be called"));
    const r = await recover({ content: section('functions.search_code:0 <|tool_call_argument_begin|> {"query":"cat Cargo.toml"}') }, READ_TOOLS, { interpreter: interp });
    expect(r.tool_calls).toEqual([{ id: "functions.search_code:0", name: "search_code", arguments: { query: "cat Cargo.toml" } }]);
    expect(r.content).toBe("");
    expect(r.recovered_by).toBe("dialect:kimi_k2");
    expect(interp.texts).toEqual([]);
  });

  it("a code-mode execute envelope is refused as read-only, never converted to a call (goose 7-10, 14, 16)", async () => {
    const interp = fakeInterpreter([{ name: "search_code", arguments: { query: "x" } }]);
    const bodies = [
      'functions.execute:0 <|tool_call_argument_begin|> {"code":"async function run() { return await Developer.shell({ command: \\"pwd\\" }); }"}',
      "functions.execute:0 <|tool_call_argument_begin|> {\"code\":\"Developer.shell({ command: getCommand() });\"}",
      'functions.execute():0 <|tool_call_argument_begin|> {"code":"Developer.shell({ command: \'id\' })"}',
    ];
    for (const body of bodies) {
      const r = await recover({ content: section(body) }, READ_TOOLS, { interpreter: interp });
      expect(r.tool_calls).toEqual([]);
      expect(r.content).toBe("");
      expect(r.rejected).toHaveLength(1);
      expect(r.rejected[0]!.code).toBe("UNKNOWN_TOOL");
      expect(r.rejected[0]!.message).toMatch(/is not available: the tools here are read-only .* Available tools: search_code, read_evidence\.$/);
    }
    expect(interp.texts).toEqual([]);
  });

  it("truncated or argument-less side-effect calls are removed and never interpreted (goose 14.3, 14.4, 14.6)", async () => {
    const interp = fakeInterpreter([{ name: "search_code", arguments: { query: "x" } }]);
    for (const content of [
      section('functions.execute:0 <|tool_call_argument_begin|> {"code":'),
      section("functions.execute:0"),
      '<|tool_calls_section_begin|> <|tool_call_begin|> functions.execute:0 <|tool_call_argument_begin|> {"code":"Developer.shell({ command: \'pwd\' });"}',
    ]) {
      const r = await recover({ content }, READ_TOOLS, { interpreter: interp });
      expect(r.tool_calls).toEqual([]);
      expect(r.content).toBe("");
    }
    expect(interp.texts).toEqual([]);
  });

  it("a header whose pre-colon part names a tool is not resolved by that part (goose 15)", () => {
    const r = recoverDeterministic(
      { content: section('search_code:functions.execute:0 <|tool_call_argument_begin|> {"query":"id"}') },
      READ_TOOLS,
    );
    expect(r.tool_calls).toEqual([]);
    expect(r.rejected).toHaveLength(1);
    expect(r.rejected[0]!.code).toBe("UNKNOWN_TOOL");
    expect(r.rejected[0]!.message).toMatch(/read-only/);
  });

  it("an offered tool's arguments may hold execute-shaped data (goose 22, 28, 29)", () => {
    const tools: OfferedTool[] = [{ name: "workflow" }];
    const args = '{"name":"functions.execute:0","arguments":{"code":"Developer.shell({ command: \'id\' })"}}';
    const r = recoverDeterministic({ content: section(`functions.workflow:0 <|tool_call_argument_begin|> ${args}`) }, tools);
    expect(r.tool_calls).toEqual([
      { id: "functions.workflow:0", name: "workflow", arguments: JSON.parse(args) as Record<string, unknown> },
    ]);
  });

  it("execute envelopes under an unknown header (flat, nested, in arrays, duplicate keys, broken) never become calls or reach the interpreter (goose 19-21, 23-26, 32)", async () => {
    const interp = fakeInterpreter([{ name: "search_code", arguments: { query: "x" } }]);
    const env = '{"name":"functions.execute:0","arguments":{"code":"Developer.shell({ command: \'id\' })"}}';
    const contents = [
      section(`label <|tool_call_argument_begin|> ${env}`),
      section(`label <|tool_call_argument_begin|> [${env}]`),
      section(`label <|tool_call_argument_begin|> {"payload":${env}}`),
      section(`label <|tool_call_argument_begin|> ${env} x`),
      section('label <|tool_call_argument_begin|> {"name":"functions.execute:0","name":"transform","arguments":{"code":"x"}}'),
      section(`label <|tool_call_argument_begin|> {] functions.execute:0 ${env}}`),
      `<|tool_calls_section_begin|> <|tool_call_begin|> label {] functions.execute:0 {"code":"Developer.shell({ command: 'id' })"}`,
    ];
    for (const content of contents) {
      const r = await recover({ content }, READ_TOOLS, { interpreter: interp });
      expect(r.tool_calls, content).toEqual([]);
      expect(r.content, content).toBe("");
    }
    expect(interp.texts).toEqual([]);
  });

  it("an unknown header with benign JSON gives no call and no rejection of an offered tool (goose 17, 27, 30, 31)", () => {
    const r = recoverDeterministic({ content: section('label <|tool_call_argument_begin|> {"payload":{"name":"transform"}}') }, READ_TOOLS);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe("");
  });

  it("a call whose closer is missing at the end but whose body is complete is a call (Kimi: an unterminated call is no call)", () => {
    const hermes = recoverDeterministic({ content: 'Searching.\n<tool_call>{"name": "search_code", "arguments": {"query": "id"}}' }, READ_TOOLS);
    expect(hermes.tool_calls).toEqual([{ name: "search_code", arguments: { query: "id" } }]);
    expect(hermes.content).toBe("Searching.");
    const gemma = recoverDeterministic({ content: '<|tool_call>call:read_evidence{path:<|"|>a.py<|"|>}' }, READ_TOOLS);
    expect(gemma.tool_calls).toEqual([{ name: "read_evidence", arguments: { path: "a.py" } }]);
  });

  it("Using tool: plus pretty-printed JSON is a call and the directive is removed (goose 11)", () => {
    const content = 'Using tool: search_code\n{\n  "name": "search_code",\n  "arguments": {\n    "query": "type Cargo.toml"\n  }\n}';
    const r = recoverDeterministic({ content }, READ_TOOLS);
    expect(r.tool_calls).toEqual([{ name: "search_code", arguments: { query: "type Cargo.toml" } }]);
    expect(r.content).toBe("");
  });

  it("single-backslash Windows paths keep their backslashes (goose 12)", () => {
    const tools: OfferedTool[] = [{ name: "tree" }];
    const r = recoverDeterministic(
      { content: section('functions.tree:0 <|tool_call_argument_begin|> {"path": "C:\\Users\\eugen\\programmazione\\goose-fork", "depth": 1}') },
      tools,
    );
    expect(r.tool_calls[0]!.arguments).toEqual({ path: "C:\\Users\\eugen\\programmazione\\goose-fork", depth: 1 });
  });

  it("native calls win over text calls; the text markup is still removed (goose 34, by design different)", () => {
    const r = recoverDeterministic(
      {
        content: 'Also: {"name": "search_code", "arguments": {"query": "b"}}',
        tool_calls: [{ name: "read_evidence", arguments: { path: "a.py" } }],
      },
      READ_TOOLS,
    );
    expect(r.tool_calls).toEqual([{ name: "read_evidence", arguments: { path: "a.py" } }]);
    expect(r.recovered_by).toBe("native");
  });

  it("a call in a later text part is found once the parts are joined (goose 35)", () => {
    const r = recoverDeterministic(
      { content: `I will inspect the file now.\n${section('functions.read_evidence:0 <|tool_call_argument_begin|> {"path":"Cargo.toml"}')}` },
      READ_TOOLS,
    );
    expect(r.tool_calls.map((c) => c.name)).toEqual(["read_evidence"]);
    expect(r.content).toBe("I will inspect the file now.");
  });

  it("malformed tokenized markers are removed, prose before them kept (goose 36)", () => {
    const r = recoverDeterministic(
      { content: `Here is the result.\n${section("functions.search_code:0 GARBAGE")}` },
      READ_TOOLS,
    );
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe("Here is the result.");
  });

  it("an unparseable directive keeps the prose; nothing is wiped (goose 37, by design different)", () => {
    const content = "I will run the command.\nUsing tool: search_code\n{invalid json that won't parse}";
    const r = recoverDeterministic({ content }, READ_TOOLS);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe(content);
  });

  it("tool intent: markers, braces and offered tool names; not plain prose (goose 38, 39)", () => {
    expect(showsToolIntent("hello <|tool_calls_section_begin|> world", READ_TOOLS)).toBe(true);
    expect(showsToolIntent("text <|tool_call_begin|> more", READ_TOOLS)).toBe(true);
    expect(showsToolIntent("Using tool: shell\n{...}", READ_TOOLS)).toBe(true);
    expect(showsToolIntent("I should run search_code on it", READ_TOOLS)).toBe(true);
    expect(showsToolIntent("clean assistant text with no markers", READ_TOOLS)).toBe(false);
    expect(showsToolIntent("the research_code_base is fine", READ_TOOLS)).toBe(false);
  });

  it("a tokenized call without the argument marker, dotted name mapped to __ (goose 40)", () => {
    const tools: OfferedTool[] = [{ name: "Nadirclawusage__usageSummary" }];
    const r = recoverDeterministic({ content: section('functions.Nadirclawusage.usageSummary:1  {"period": "24h"}') }, tools);
    expect(r.tool_calls).toEqual([
      { id: "functions.Nadirclawusage.usageSummary:1", name: "Nadirclawusage__usageSummary", arguments: { period: "24h" } },
    ]);
  });
});

describe("goose weaknesses are absent", () => {
  it("deterministic parsing runs even when the interpreter fails", async () => {
    const interp = fakeInterpreter(new Error("ECONNREFUSED"));
    const r = await recover({ content: '<tool_call>{"name": "search_code", "arguments": {"query": "a"}}</tool_call>' }, READ_TOOLS, { interpreter: interp });
    expect(r.tool_calls).toEqual([{ name: "search_code", arguments: { query: "a" } }]);
    expect(interp.texts).toEqual([]);
  });

  it("<|tool_call_argument_end|> is not part of the arguments", () => {
    const r = recoverDeterministic(
      { content: section('functions.search_code:0 <|tool_call_argument_begin|> {"query":"a"} <|tool_call_argument_end|>') },
      READ_TOOLS,
    );
    expect(r.tool_calls).toEqual([{ id: "functions.search_code:0", name: "search_code", arguments: { query: "a" } }]);
  });

  it("calls with array or scalar arguments are rejected with a tool error, not dropped silently", () => {
    const r = recoverDeterministic({ content: '<tool_call>{"name": "search_code", "arguments": ["a"]}</tool_call>' }, READ_TOOLS, { validate });
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe("");
    expect(r.rejected).toEqual([
      {
        name: "search_code",
        arguments: ["a"],
        code: "INVALID_ARGUMENT",
        message: "invalid arguments for search_code: ✖ Invalid input: expected object, received array",
        hint: 'Expected parameters: {"query":{"type":"string"},"max_results":{"type":"integer"}}',
      },
    ]);
    const inline = recoverDeterministic({ content: '{"name": "read_evidence", "arguments": 42}' }, READ_TOOLS);
    expect(inline.rejected.map((x) => [x.name, x.code])).toEqual([["read_evidence", "INVALID_ARGUMENT"]]);
  });

  it("the inline parser looks inside non-matching outer objects (OpenAI envelopes)", () => {
    const r = recoverDeterministic({ content: '{"tool_calls": [{"type": "function", "function": {"name": "read_evidence", "arguments": "{\\"path\\": \\"x.py\\"}"}}]}' }, READ_TOOLS);
    expect(r.tool_calls).toEqual([{ name: "read_evidence", arguments: { path: "x.py" } }]);
  });

  it("Windows paths in tolerant JSON keep \\n and \\t as backslashes", () => {
    const r = recoverDeterministic({ content: '{"name": "read_evidence", "arguments": {"path": "C:\\Users\\me\\new\\tmp.txt"}}' }, READ_TOOLS);
    expect(r.tool_calls[0]!.arguments).toEqual({ path: "C:\\Users\\me\\new\\tmp.txt" });
  });

  it("an empty tool list still returns sanitised content", () => {
    const r = recoverDeterministic({ content: "Answer.<|im_end|>" }, []);
    expect(r).toEqual({ tool_calls: [], content: "Answer.", recovered_by: "none", rejected: [], diagnostics: [] });
  });

  it("markup in a fence introduced as an example is not executed, even with a strong marker", () => {
    const content = 'Here is an example of the format:\n\n```xml\n<tool_call>\n{"name": "search_code", "arguments": {"query": "TODO"}}\n</tool_call>\n```';
    const r = recoverDeterministic({ content }, READ_TOOLS);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe(content);
  });

  it("an answer that explains tool-call JSON is not wiped and not executed (goose#1857)", () => {
    const content =
      'A tool call is a JSON object with "name" and "arguments". For example:\n```json\n{"name": "search_code", "arguments": {"query": "TODO"}}\n```';
    const r = recoverDeterministic({ content }, READ_TOOLS);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe(content);
  });
});

describe("pipeline rules", () => {
  it("native calls are still resolved and validated against the whitelist", () => {
    const r = recoverDeterministic(
      {
        content: "",
        tool_calls: [
          { id: "c1", name: "functions.search_code", arguments: { query: "a", max_results: "3" } },
          { id: "c2", name: "bash", arguments: { command: "ls" } },
          { id: "c3", name: "read_evidence", arguments: {} },
        ],
      },
      READ_TOOLS,
      { validate },
    );
    expect(r.tool_calls).toEqual([{ id: "c1", name: "search_code", arguments: { query: "a", max_results: 3 } }]);
    expect(r.rejected.map((x) => [x.name, x.code])).toEqual([
      ["bash", "UNKNOWN_TOOL"],
      ["read_evidence", "INVALID_ARGUMENT"],
    ]);
    expect(r.recovered_by).toBe("native");
  });

  it("a dialect call with invalid arguments becomes INVALID_ARGUMENT and its markup is removed", () => {
    const r = recoverDeterministic({ content: 'Reading.<tool_call>{"name": "read_evidence", "arguments": {"start_line": "ten"}}</tool_call>' }, READ_TOOLS, { validate });
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe("Reading.");
    expect(r.rejected).toEqual([
      {
        name: "read_evidence",
        arguments: { start_line: "ten" },
        code: "INVALID_ARGUMENT",
        message:
          "invalid arguments for read_evidence: ✖ Invalid input: expected string, received undefined\n  → at path\n" +
          "✖ Invalid input: expected number, received string\n  → at start_line",
        hint: 'Expected parameters: {"path":{"type":"string"},"start_line":{"type":"integer"}}',
      },
    ]);
  });

  it("a call to a side-effect tool in markup is refused and its markup removed", () => {
    const r = recoverDeterministic({ content: 'Let me list files.\n<tool_call>{"name": "run_shell_command", "arguments": {"command": "ls"}}</tool_call>' }, READ_TOOLS);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe("Let me list files.");
    expect(r.rejected[0]).toMatchObject({ name: "run_shell_command", code: "UNKNOWN_TOOL" });
    expect(r.diagnostics).toContainEqual({ stage: "policy", message: '"run_shell_command" is not an offered tool; rejected' });
  });
});

describe("an answer tag's orphan closer after a call block", () => {
  // openPangu writes `</answer>` after its `<|tool_call_end|>` with no `<answer>` before it: the
  // closer of a tag that wraps a whole answer, left behind once the call block is removed.
  const tools: OfferedTool[] = [{ name: "get_weather" }];
  const pangu = '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Beijing"}}]<|tool_call_end|>';
  const hermes = '<tool_call>{"name": "get_weather", "arguments": {"city": "Beijing"}}</tool_call>';
  const call = [{ name: "get_weather", arguments: { city: "Beijing" } }];

  it("goes with the call block it follows (whitespace between allowed), for </answer> and </response>", () => {
    for (const text of [`Let me check.${pangu}</answer>`, `Let me check.${pangu}\n</answer>`, `Let me check.${pangu}</response>`, `Let me check.\n${hermes}\n</answer>\n`]) {
      const r = recoverDeterministic({ content: text }, tools);
      expect(r.tool_calls, text).toEqual(call);
      expect(r.content, text).toBe("Let me check.");
    }
  });

  it("stays in prose, after text that follows the call, and after its own opener", () => {
    expect(recoverDeterministic({ content: "The tag </answer> closes an answer." }, tools).content).toBe("The tag </answer> closes an answer.");
    expect(recoverDeterministic({ content: `Let me check.${pangu} Done.</answer>` }, tools).content).toBe("Let me check. Done.</answer>");
    // With its opener, the pair wraps the answer and goes with the markup it wraps (or stays with prose).
    expect(recoverDeterministic({ content: `<answer>Let me check.${pangu}</answer>` }, tools).content).toBe("Let me check.");
  });
});

describe("stage 3, the interpreter", () => {
  it("is asked only when nothing was recognised and the text shows intent; noop is dropped", async () => {
    const interp = fakeInterpreter([
      { name: "noop", arguments: {} },
      { name: "search_code", arguments: { query: "load_index" } },
    ]);
    const r = await recover({ content: "I will now use search_code to look for load_index." }, READ_TOOLS, { interpreter: interp });
    expect(interp.texts).toEqual(["I will now use search_code to look for load_index."]);
    expect(r.tool_calls).toEqual([{ name: "search_code", arguments: { query: "load_index" } }]);
    expect(r.recovered_by).toBe("interpreter");
    expect(r.content).toBe("I will now use search_code to look for load_index.");
  });

  it("is not asked for plain prose, for decoys already decided, or for side-effect calls", async () => {
    const interp = fakeInterpreter([{ name: "search_code", arguments: { query: "x" } }]);
    const plain = await recover({ content: "The function is defined in a.py." }, READ_TOOLS, { interpreter: interp });
    expect(plain.diagnostics).toContainEqual({ stage: "interpreter", message: "no tool intent in the text; interpreter not asked" });
    await recover({ content: 'For example: {"name": "search_code", "arguments": {"query": "a"}}' }, READ_TOOLS, { interpreter: interp });
    const side = await recover({ content: "Run this: bash(command='cat /etc/passwd') please" }, READ_TOOLS, { interpreter: interp });
    expect(side.diagnostics).toContainEqual({
      stage: "policy",
      message: "the text calls a tool that is not offered (read-only toolset); interpreter not asked",
    });
    expect(interp.texts).toEqual([]);
  });

  it("reports interpreter failures in diagnostics and keeps the deterministic result", async () => {
    const interp = fakeInterpreter(new Error("the interpreter (ollama mistral-nemo) did not answer within 30000 ms"));
    const r = await recover({ content: "Let me call search_code with {query: load}" }, READ_TOOLS, { interpreter: interp });
    expect(r.tool_calls).toEqual([]);
    expect(r.recovered_by).toBe("none");
    expect(r.diagnostics).toContainEqual({
      stage: "interpreter",
      message: "interpreter failed: the interpreter (ollama mistral-nemo) did not answer within 30000 ms",
    });
  });

  it("validates interpreter calls like any other call", async () => {
    const interp = fakeInterpreter([{ name: "read_evidence", arguments: { start_line: 3 } }]);
    const r = await recover({ content: "open read_evidence please" }, READ_TOOLS, { interpreter: interp, validate });
    expect(r.tool_calls).toEqual([]);
    expect(r.rejected.map((x) => x.code)).toEqual(["INVALID_ARGUMENT"]);
  });
});

describe("invented tool results", () => {
  it("drops text after a call that imitates the tool result and answers from it", () => {
    const content =
      'I will search.\n{"name": "search_code", "arguments": {"query": "load_index"}}\nTool result (search_code):\n{"ok": true, "evidence": []}\nSo load_index is unused.';
    const r = recoverDeterministic({ content }, READ_TOOLS);
    expect(r.tool_calls).toEqual([{ name: "search_code", arguments: { query: "load_index" } }]);
    expect(r.content).toBe("I will search.");
    expect(r.diagnostics).toContainEqual({
      stage: "inline_json",
      message: "text after the call imitates a tool result; it was dropped (the real result comes next)",
    });
  });
  it("keeps such text when there is no call", () => {
    const content = "The log said:\nTool result (search_code): 3 matches.";
    expect(recoverDeterministic({ content }, READ_TOOLS).content).toBe(content);
  });
});

describe("reasoning that ends in call markup without spans", () => {
  it("a closed reasoning block whose dialect reads give no span is reasoning, not a crash", () => {
    // Found by a differential run of the stream filter over random markup: the trailing-call rule
    // read the last span of an empty list.
    const raw = 'python\nfunctions.search_code:0```json\n foofunctions.search_code:0</parameter>{"name": "search_code", "arguments": {"q": "a"}}(</think>';
    const r = recoverDeterministic({ content: raw }, []);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe("");
    expect(r.thinking).toBe(raw.slice(0, -"</think>".length));
  });
});
