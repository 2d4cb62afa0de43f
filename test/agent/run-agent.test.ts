import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgent, type AgentEvent, type RunAgentOptions } from "../../src/agent/index.js";
import type { Evidence } from "../../src/evidence/evidence.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions } from "../helpers/fake-ollama.js";

/** A tool returning evidence, counting its runs and recording the arguments it got. */
function makeTools() {
  const calls: Array<{ tool: string; args: unknown }> = [];
  const importers: Record<string, Evidence[]> = {
    rag_common: [
      { path: "src/build_index.py", start_line: 4, end_line: 4, kind: "import", name: "rag_common", snippet: "import rag_common" },
      { path: "src/rag_chat.py", start_line: 10, end_line: 10, kind: "import", name: "rag_common", snippet: "from rag_common import load_index" },
    ],
  };
  const findImporters = defineTool({
    name: "find_importers",
    description: "List importers of a module",
    input: z.object({ module_name: z.string().min(1) }),
    run: (args) => {
      calls.push({ tool: "find_importers", args });
      const evidence = importers[args.module_name] ?? [];
      return { evidence, total: evidence.length, truncated: false, ...(evidence.length === 0 ? { note: "no importer found" } : {}) };
    },
  });
  const readEvidence = defineTool({
    name: "read_evidence",
    description: "Read lines",
    input: z.object({ path: z.string(), start_line: z.int().min(1).max(1000), end_line: z.int().min(1).max(1000) }),
    run: (args) => {
      calls.push({ tool: "read_evidence", args });
      const evidence: Evidence[] = [
        { path: args.path, start_line: args.start_line, end_line: args.end_line, kind: "source", name: args.path, snippet: "line" },
      ];
      return { evidence, total: 1, truncated: false };
    },
  });
  return { registry: new ToolRegistry([findImporters, readEvidence]), calls };
}

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const QUESTION = "Which files import rag_common?";

/**
 * Starts the fake Ollama server (kept in `server` for `afterEach`), builds the tools, and returns
 * `ask`, which runs the agent against that server: model `qwen3:8b`, question `QUESTION`, events
 * collected into `events`, each overridable through `options`.
 */
async function startSession(fakeOptions?: FakeOllamaOptions) {
  const fake = await startFakeOllama(fakeOptions);
  server = fake;
  const { registry, calls } = makeTools();
  const provider = new OllamaProvider({ host: fake.host });
  const events: AgentEvent[] = [];
  const ask = (options: Partial<Omit<RunAgentOptions, "provider" | "registry">> = {}) =>
    runAgent({ provider, model: "qwen3:8b", registry, question: QUESTION, reask: false, onEvent: (e) => events.push(e), ...options });
  return { fake, calls, events, ask };
}

describe("runAgent (native tool calls)", () => {
  it("runs every call of a turn in order, appends tool messages, and answers with verified citations", async () => {
    const { fake, calls, ask } = await startSession({
      turns: [
        {
          tool_calls: [
            { name: "find_importers", arguments: { module_name: "rag_common" } },
            { name: "read_evidence", arguments: { path: "src/rag_chat.py", start_line: 9, end_line: 11 } },
          ],
        },
        { content: "Two files: src/build_index.py:4 and src/rag_chat.py:10. Also src/other.py:3." },
      ],
    });
    const result = await ask();

    expect(calls).toEqual([
      { tool: "find_importers", args: { module_name: "rag_common" } },
      { tool: "read_evidence", args: { path: "src/rag_chat.py", start_line: 9, end_line: 11 } },
    ]);
    expect(result.answer).toBe("Two files: src/build_index.py:4 and src/rag_chat.py:10. Also src/other.py:3.");
    expect(result.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line}:${e.kind}`)).toEqual([
      "src/build_index.py:4-4:import",
      "src/rag_chat.py:10-10:import",
      "src/rag_chat.py:9-11:source",
    ]);
    // Shown, but the sentence "Two files: … and …" names nothing in the lines: `seen`.
    expect(result.citations.map(({ path, line, verified, status }) => ({ path, line, verified, status }))).toEqual([
      { path: "src/build_index.py", line: 4, verified: true, status: "seen" },
      { path: "src/rag_chat.py", line: 10, verified: true, status: "seen" },
      { path: "src/other.py", line: 3, verified: false, status: "invalid" },
    ]);
    expect(result.steps.map(({ ms: _ms, ...s }) => s)).toEqual([
      { tool: "find_importers", arguments: { module_name: "rag_common" }, ok: true, total: 2, recovered_by: "native" },
      { tool: "read_evidence", arguments: { path: "src/rag_chat.py", start_line: 9, end_line: 11 }, ok: true, total: 1, recovered_by: "native" },
    ]);
    expect(result.model).toBe("qwen3:8b");
    expect(result.provider).toBe("ollama");
    expect(result.stop_reason).toBe("answer");

    const [first, second] = fake.chatRequests();
    expect(first!.tools!.map((t) => t.function.name)).toEqual(["find_importers", "read_evidence"]);
    expect(first!.messages[0]!.role).toBe("system");
    expect(first!.messages[0]!.content).toContain("path:line");
    expect(first!.messages[1]).toEqual({ role: "user", content: QUESTION });
    const tail = second!.messages.slice(2);
    expect(tail.map((m) => [m.role, m.tool_name])).toEqual([
      ["assistant", undefined],
      ["tool", "find_importers"],
      ["tool", "read_evidence"],
    ]);
    expect(tail[0]!.tool_calls!.map((c) => c.function.name)).toEqual(["find_importers", "read_evidence"]);
    const envelope = JSON.parse(tail[1]!.content) as { ok: boolean; total: number; evidence: Evidence[] };
    expect(envelope.ok).toBe(true);
    expect(envelope.total).toBe(2);
    expect(envelope.evidence[1]!.path).toBe("src/rag_chat.py");
  });

  it("answers an identical repeated call from the first result, with a hint", async () => {
    const { fake, calls, ask } = await startSession({
      turns: [
        { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
        { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
        { content: "src/build_index.py:4" },
      ],
    });
    const result = await ask();
    expect(calls).toHaveLength(1);
    expect(result.steps.map((s) => [s.tool, s.ok, s.total])).toEqual([
      ["find_importers", true, 2],
      ["find_importers", true, 2],
    ]);
    const last = fake.chatRequests()[2]!.messages.at(-1)!;
    expect(last.role).toBe("tool");
    const envelope = JSON.parse(last.content) as { note: string; total: number };
    expect(envelope.total).toBe(2);
    expect(envelope.note).toMatch(/^Repeated call: you already called find_importers/);
    expect(result.evidence).toHaveLength(2);
  });

  it("a model that repeats the same call after the repeat hint is stopped early, not run to the step limit", async () => {
    const { fake, calls, events, ask } = await startSession({
      turns: [{ repeat: true, tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] }],
    });
    const result = await ask({ maxSteps: 8 });
    expect(calls).toHaveLength(1); // the tool ran once
    // Request 1: the call; request 2: the repeat, answered with the hint; request 3: the same again, the end.
    expect(fake.chatRequests()).toHaveLength(3);
    expect(result.steps.map((s) => s.tool)).toEqual(["find_importers", "find_importers"]);
    expect(result.stop_reason).toBe("max_steps");
    expect(result.answer).toBe(
      "[codecite] Stopped after 2 tool steps: the model repeated a call it had already made (find_importers with the same arguments) after being told so, instead of giving a final answer. The evidence gathered so far is listed below.",
    );
    expect(result.grounding).toBe("none"); // codecite's own note is no claim about the code
    expect(result.evidence).toHaveLength(2);
    expect(events.flatMap((e) => (e.type === "notice" ? [e.reason] : []))).toEqual(["max_steps"]);
  });

  it("turns bad arguments and unknown tools into tool error messages, never a crash", async () => {
    const { fake, calls, ask } = await startSession({
      turns: [
        {
          tool_calls: [
            { name: "find_importers", arguments: { module: "rag_common" } },
            { name: "write_file", arguments: { path: "x", content: "y" } },
          ],
        },
        { content: "I could not find it." },
      ],
    });
    const result = await ask();
    expect(calls).toEqual([]);
    expect(result.steps.map((s) => [s.tool, s.ok, s.total])).toEqual([
      ["find_importers", false, 0],
      ["write_file", false, 0],
    ]);
    const messages = fake.chatRequests()[1]!.messages;
    const errors = messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content) as { error: { code: string; message: string } });
    expect(errors.map((e) => e.error.code)).toEqual(["INVALID_ARGUMENT", "UNKNOWN_TOOL"]);
    expect(errors[1]!.error.message).toContain("find_importers, read_evidence");
    expect(result.answer).toBe("I could not find it.");
    expect(result.evidence).toEqual([]);
  });

  it("passes tool_call_id back when the provider gave call ids", async () => {
    const { fake, ask } = await startSession({
      turns: [
        { tool_calls: [{ id: "call_7", name: "find_importers", arguments: { module_name: "nothing" } }] },
        { content: "None." },
      ],
    });
    await ask();
    const toolMessage = fake.chatRequests()[1]!.messages.at(-1)!;
    expect(toolMessage).toMatchObject({ role: "tool", tool_name: "find_importers", tool_call_id: "call_7" });
    expect(fake.chatRequests()[1]!.messages.at(-2)!.tool_calls).toEqual([
      { id: "call_7", function: { name: "find_importers", arguments: { module_name: "nothing" } } },
    ]);
  });

  it("stops at maxSteps with the evidence gathered so far and a clear note", async () => {
    const { fake, calls, events, ask } = await startSession({
      turns: [
        { tool_calls: [{ name: "read_evidence", arguments: { path: "a.py", start_line: 1, end_line: 2 } }] },
        { tool_calls: [{ name: "read_evidence", arguments: { path: "b.py", start_line: 3, end_line: 4 } }] },
        { content: "Still looking", tool_calls: [{ name: "read_evidence", arguments: { path: "c.py", start_line: 5, end_line: 6 } }] },
      ],
    });
    const result = await ask({ maxSteps: 2 });
    expect(calls.map((c) => (c.args as { path: string }).path)).toEqual(["a.py", "b.py"]);
    expect(result.stop_reason).toBe("max_steps");
    expect(result.answer).toBe(
      "Still looking\n\n[codecite] Stopped after 2 tool steps (the step limit) before the model gave a final answer. The evidence gathered so far is listed below.",
    );
    expect(result.evidence.map((e) => e.path)).toEqual(["a.py", "b.py"]);
    expect(events.filter((e) => e.type === "notice")).toHaveLength(1);
    expect(fake.chatRequests()).toHaveLength(3);
  });

  it("a stop at maxSteps with no text of the model's is not graded as uncited claims (grounding none)", async () => {
    const { ask } = await startSession({
      turns: [
        { tool_calls: [{ name: "read_evidence", arguments: { path: "a.py", start_line: 1, end_line: 2 } }] },
        { tool_calls: [{ name: "read_evidence", arguments: { path: "b.py", start_line: 3, end_line: 4 } }] },
      ],
    });
    const result = await ask({ maxSteps: 1 });
    expect(result.stop_reason).toBe("max_steps");
    expect(result.answer).toBe("[codecite] Stopped after 1 tool step (the step limit) before the model gave a final answer. The evidence gathered so far is listed below.");
    expect(result.citations).toEqual([]);
    // The note is codecite's, not a claim about the code: no "cites no location" warning, no --strict exit 3.
    expect(result.grounding).toBe("none");
  });

  it("streams content through onEvent when asked", async () => {
    const { fake, ask } = await startSession({ turns: [{ content: "No tool needed: src/a.py:1 is empty.", chunkSize: 6 }] });
    const deltas: string[] = [];
    const result = await ask({
      question: "q",
      stream: true,
      onEvent: (e) => {
        if (e.type === "content") deltas.push(e.delta);
      },
    });
    expect(fake.chatRequests()[0]!.stream).toBe(true);
    expect(deltas.join("")).toBe("No tool needed: src/a.py:1 is empty.");
    expect(deltas.length).toBeGreaterThan(1);
    expect(result.citations).toMatchObject([{ path: "src/a.py", line: 1, verified: false, status: "invalid" }]);
  });
});

describe("runAgent tool-shim modes", () => {
  it("auto switches to on when /api/show lacks the tools capability, and says so once", async () => {
    const { fake, events, ask } = await startSession({
      models: [{ name: "gemma2", capabilities: ["completion"] }],
      turns: [{ content: "first" }],
    });
    const result = await ask({ model: "gemma2" });
    const req = fake.chatRequests()[0]!;
    expect(req.tools).toBeUndefined();
    expect(req.messages[0]!.content).toContain("find_importers");
    expect(result.toolshim).toBe("on");
    const notices = events.filter((e) => e.type === "notice");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ message: expect.stringContaining("gemma2 lacks the tools capability") });
  });

  it("auto switches to on when the server answers 400 does not support tools, and retries", async () => {
    const { fake, events, ask } = await startSession({
      models: [{ name: "gemma2", capabilities: ["completion", "tools"] }],
      turns: [
        { when: (r) => r.tools !== undefined, error: { status: 400, message: "registry.ollama.ai/library/gemma2 does not support tools" } },
        { when: (r) => r.tools === undefined, content: "answered in shim mode" },
      ],
    });
    const result = await ask({ model: "gemma2" });
    expect(result.answer).toBe("answered in shim mode");
    const [withTools, withoutTools] = fake.chatRequests();
    expect(withTools!.tools).toHaveLength(2);
    expect(withoutTools!.tools).toBeUndefined();
    expect(withoutTools!.messages[0]!.content).toContain("read_evidence");
    expect(events.filter((e) => e.type === "notice")).toHaveLength(1);
  });

  it("off keeps native tools and fails with TOOLS_UNSUPPORTED instead of switching", async () => {
    const { ask } = await startSession({ models: [{ name: "gemma2", capabilities: ["completion"] }] });
    await expect(ask({ model: "gemma2", toolshim: "off" })).rejects.toMatchObject({ code: "TOOLS_UNSUPPORTED" });
  });

  it("fails fast with MODEL_NOT_FOUND when the model is not installed", async () => {
    const { fake, ask } = await startSession();
    await expect(ask({ model: "missing:1b" })).rejects.toMatchObject({ code: "MODEL_NOT_FOUND", hint: "ollama pull missing:1b" });
    expect(fake.chatRequests()).toHaveLength(0);
  });
});

describe("runAgent with the tool shim", () => {
  it("auto: a qwen2.5-coder-style bare JSON reply runs the tool and never reaches the user", async () => {
    const { fake, calls, ask } = await startSession({
      turns: [
        { content: '{"name": "find_importers", "arguments": {"module_name": "rag_common"}}' },
        { when: (r) => r.messages.at(-1)?.role === "tool", content: "src/build_index.py:4 and src/rag_chat.py:10." },
      ],
    });
    const shown: string[] = [];
    const result = await ask({
      stream: true,
      onEvent: (e) => {
        if (e.type === "content") shown.push(e.delta);
      },
    });
    expect(calls).toEqual([{ tool: "find_importers", args: { module_name: "rag_common" } }]);
    expect(result.steps.map((s) => [s.tool, s.ok, s.recovered_by])).toEqual([["find_importers", true, "inline_json"]]);
    expect(shown.join("")).toBe("src/build_index.py:4 and src/rag_chat.py:10.");
    expect(result.citations.every((c) => c.verified)).toBe(true);
    // native tools were still sent; the recovered call is stored as a structured call
    const second = fake.chatRequests()[1]!;
    expect(second.tools).toHaveLength(2);
    expect(second.messages.at(-2)).toMatchObject({
      role: "assistant",
      content: "",
      tool_calls: [{ function: { name: "find_importers", arguments: { module_name: "rag_common" } } }],
    });
  });

  it("on: no tools field, the catalogue in the system prompt, history rendered as text", async () => {
    const { fake, calls, ask } = await startSession({
      turns: [
        { content: 'Let me check.\n{"name": "find_importers", "arguments": {"module_name": "rag_common"}}' },
        { content: "Two importers: src/build_index.py:4, src/rag_chat.py:10" },
      ],
    });
    const result = await ask({ toolshim: "on" });
    expect(calls).toHaveLength(1);
    expect(result.answer).toBe("Two importers: src/build_index.py:4, src/rag_chat.py:10");
    const [first, second] = fake.chatRequests();
    for (const req of [first!, second!]) {
      expect(req.tools).toBeUndefined();
      expect(req.messages[0]!.role).toBe("system");
      expect(req.messages[0]!.content).toContain("find_importers");
      expect(req.messages[0]!.content).toContain('"module_name"');
      expect(req.messages.some((m) => m.role === "tool" || m.tool_calls !== undefined)).toBe(false);
    }
    const rendered = second!.messages.slice(2);
    expect(rendered.map((m) => m.role)).toEqual(["assistant", "user"]);
    expect(rendered[0]!.content).toBe('Let me check.\n{"name":"find_importers","arguments":{"module_name":"rag_common"}}');
    expect(rendered[1]!.content).toMatch(/^Tool result \(find_importers\):\n\{"ok":true/);
  });

  it("a call to a tool that is not offered is refused with a read-only tool error", async () => {
    const { fake, calls, ask } = await startSession({
      turns: [
        { content: '{"name": "bash", "arguments": {"command": "cat /etc/passwd"}}' },
        { content: "I can only read the repository." },
      ],
    });
    const result = await ask({ question: "q" });
    expect(calls).toEqual([]);
    expect(result.steps.map((s) => [s.tool, s.ok, s.total])).toEqual([["bash", false, 0]]);
    const toolMessage = fake.chatRequests()[1]!.messages.at(-1)!;
    const envelope = JSON.parse(toolMessage.content) as { ok: boolean; error: { code: string; hint: string } };
    expect(envelope.ok).toBe(false);
    expect(envelope.error.code).toBe("UNKNOWN_TOOL");
    expect(envelope.error.hint).toBe("The tools are read-only; nothing can be written or executed. Call one of: find_importers, read_evidence.");
    expect(result.answer).toBe("I can only read the repository.");
  });

  it("off: a text call is left as the answer, not run", async () => {
    const { calls, ask } = await startSession({ turns: [{ content: '{"name": "find_importers", "arguments": {"module_name": "rag_common"}}' }] });
    const result = await ask({ toolshim: "off" });
    expect(calls).toEqual([]);
    expect(result.answer).toBe('{"name": "find_importers", "arguments": {"module_name": "rag_common"}}');
  });

  it("asks the interpreter when text shows intent that no parser matched", async () => {
    const { calls, ask } = await startSession({
      turns: [
        { content: "I will now use find_importers on the module rag_common." },
        { when: (r) => r.messages.at(-1)?.role === "tool", content: "src/rag_chat.py:10" },
      ],
    });
    const seen: string[] = [];
    const result = await ask({
      interpreter: {
        interpret: async (text) => {
          seen.push(text);
          return [{ name: "find_importers", arguments: { module_name: "rag_common" } }];
        },
      },
    });
    expect(seen).toEqual(["I will now use find_importers on the module rag_common."]);
    expect(calls).toEqual([{ tool: "find_importers", args: { module_name: "rag_common" } }]);
    expect(result.steps[0]!.recovered_by).toBe("interpreter");
  });
});

describe("runAgent events and steps (audit fixes)", () => {
  it("a refused native call is reported as recovered_by native, not none", async () => {
    const { ask } = await startSession({
      turns: [{ tool_calls: [{ name: "write_file", arguments: { path: "x" } }] }, { content: "Read-only, sorry." }],
    });
    const result = await ask();
    expect(result.steps).toEqual([{ tool: "write_file", arguments: { path: "x" }, ok: false, total: 0, ms: 0, recovered_by: "native" }]);
  });

  it("a refused text call keeps the shim's recovered_by (none)", async () => {
    const { ask } = await startSession({
      turns: [{ content: '{"name": "bash", "arguments": {"command": "ls"}}' }, { content: "Read-only, sorry." }],
    });
    const result = await ask();
    expect(result.steps.map((s) => [s.tool, s.recovered_by])).toEqual([["bash", "none"]]);
  });

  it("without streaming, each turn's reasoning still arrives as one thinking event", async () => {
    const { fake, events, ask } = await startSession({
      turns: [
        { thinking: "Find the importers first.", tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
        { thinking: "Two files.", content: "src/build_index.py:4 and src/rag_chat.py:10" },
      ],
    });
    await ask();
    expect(events.filter((e) => e.type === "thinking")).toEqual([
      { type: "thinking", delta: "Find the importers first." },
      { type: "thinking", delta: "Two files." },
    ]);
    expect(fake.chatRequests().every((r) => r.stream === false)).toBe(true);
  });

  it("streamed: reasoning written in the content arrives as thinking events while it streams, before the answer", async () => {
    const reasoning = "The importers are known from the index, so I answer with both files and their lines.";
    const answer = "src/build_index.py:4 and src/rag_chat.py:10 import it.";
    const { events, ask } = await startSession({
      turns: [
        { content: `<think>Find the importers first.</think><tool_call>{"name": "find_importers", "arguments": {"module_name": "rag_common"}}</tool_call>`, chunkSize: 7 },
        { content: `<think>${reasoning}</think>${answer}`, chunkSize: 7 },
      ],
    });
    await ask({ stream: true });
    const streamed = events.filter((e) => e.type === "thinking" || e.type === "content");
    const second = streamed.slice(streamed.findIndex((e) => e.type === "thinking" && e.delta.startsWith("The importers")));
    const firstContent = second.findIndex((e) => e.type === "content");
    // The second turn's reasoning came in several events, all before its first answer text.
    expect(second.slice(0, firstContent).every((e) => e.type === "thinking")).toBe(true);
    expect(firstContent).toBeGreaterThan(1);
    expect(second.slice(0, firstContent).map((e) => (e as { delta: string }).delta).join("")).toBe(reasoning);
    expect(second.slice(firstContent).filter((e) => e.type === "content").map((e) => (e as { delta: string }).delta).join("")).toBe(answer);
    expect(events.filter((e) => e.type === "thinking").map((e) => (e as { delta: string }).delta).join("")).toBe(`Find the importers first.${reasoning}`);
  });

  it("notices say why: max_steps and toolshim_on", async () => {
    const { events, ask } = await startSession({
      models: [{ name: "gemma2", capabilities: ["completion"] }],
      turns: [{ repeat: true, content: '{"name": "find_importers", "arguments": {"module_name": "rag_common"}}' }],
    });
    await ask({ model: "gemma2", maxSteps: 1 });
    expect(events.flatMap((e) => (e.type === "notice" ? [e.reason] : []))).toEqual(["toolshim_on", "max_steps"]);
  });
});
