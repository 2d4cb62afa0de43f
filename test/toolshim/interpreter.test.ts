/**
 * The interpreter (`src/toolshim/interpreter.ts`): request shape and reply parsing in process,
 * and the real HTTP path through `OllamaProvider` against the fake Ollama server (the `format`
 * schema, temperature and prompt that reach the wire; timeouts and bad replies as diagnostics).
 */
import { afterEach, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import type { ChatRequest, ChatTurn, Provider } from "../../src/llm/types.js";
import {
  createInterpreter,
  interpreterFormat,
  interpreterRequest,
  parseInterpreterReply,
  recover,
} from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

const TOOLS: OfferedTool[] = [
  {
    name: "search_code",
    description: "Search file contents with ripgrep. Returns matching lines.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  },
  { name: "read_evidence", description: "Read exact lines of a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
];

const FORMAT = {
  type: "object",
  properties: {
    tool_calls: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string", enum: ["search_code", "read_evidence", "noop"] },
          arguments: { type: "object" },
        },
        required: ["name", "arguments"],
      },
    },
  },
  required: ["tool_calls"],
};

describe("interpreter request and reply", () => {
  it("constrains the name to the offered tools plus noop", () => {
    expect(interpreterFormat(TOOLS)).toEqual(FORMAT);
  });

  it("puts the tools with their schemas and the text in the prompt, at temperature 0", () => {
    const req = interpreterRequest("mistral-nemo", "I'll look for load_index.", TOOLS);
    expect(req.model).toBe("mistral-nemo");
    expect(req.temperature).toBe(0);
    expect(req.format).toEqual(FORMAT);
    expect(req.messages[0]!.role).toBe("system");
    expect(req.messages[0]!.content).toContain('{"tool_calls": [{"name": "noop", "arguments": {}}]}');
    expect(req.messages[0]!.content).not.toContain("{{");
    expect(req.messages[1]).toEqual({
      role: "user",
      content:
        "Tools:\n" +
        '- search_code: Search file contents with ripgrep. Returns matching lines.\n  arguments schema: {"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}\n' +
        '- read_evidence: Read exact lines of a file.\n  arguments schema: {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}\n\n' +
        "Assistant message:\n<<<\nI'll look for load_index.\n>>>",
    });
  });

  it("reads tool_calls, drops noop, and refuses replies that are not JSON", () => {
    expect(
      parseInterpreterReply('{"tool_calls": [{"name": "noop", "arguments": {}}, {"name": "search_code", "arguments": {"query": "x"}}]}'),
    ).toEqual([{ name: "search_code", arguments: { query: "x" } }]);
    expect(parseInterpreterReply('{"name": "read_evidence", "arguments": {"path": "a"}}')).toEqual([{ name: "read_evidence", arguments: { path: "a" } }]);
    expect(() => parseInterpreterReply("Sure! Here you go.")).toThrow('the interpreter returned invalid JSON: "Sure! Here you go."');
    expect(() => parseInterpreterReply('{"answer": 1}')).toThrow(/has no tool_calls/);
  });

  it("passes the caller's signal and a timeout to the provider", async () => {
    let seen: AbortSignal | undefined;
    const provider: Provider = {
      id: "fake",
      location: "memory",
      chat(_req: ChatRequest, opts): Promise<ChatTurn> {
        seen = opts?.signal;
        return new Promise((_resolve, reject) => {
          opts?.signal?.addEventListener("abort", () => reject(new Error("aborted")));
        });
      },
    };
    const interp = createInterpreter(provider, "m", { timeoutMs: 20 });
    await expect(interp.interpret("x", TOOLS)).rejects.toThrow("the interpreter (fake m) did not answer within 20 ms");
    expect(seen).toBeInstanceOf(AbortSignal);
  });
});

describe("interpreter over HTTP (OllamaProvider against the fake Ollama server)", () => {
  let server: FakeOllama | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("sends the format schema, temperature 0 and no tools, and the recovered call is validated", async () => {
    server = await startFakeOllama({
      models: [{ name: "mistral-nemo", capabilities: ["completion", "tools"] }],
      turns: [{ content: '{"tool_calls": [{"name": "search_code", "arguments": {"query": "load_index"}}, {"name": "noop", "arguments": {}}]}' }],
    });
    const interpreter = createInterpreter(new OllamaProvider({ host: server.host }), "mistral-nemo", { timeoutMs: 60_000 });
    const r = await recover({ content: "Next I will use search_code for load_index." }, TOOLS, { interpreter });
    expect(r.tool_calls).toEqual([{ name: "search_code", arguments: { query: "load_index" } }]);
    expect(r.recovered_by).toBe("interpreter");
    const [req] = server.chatRequests();
    expect(req!.model).toBe("mistral-nemo");
    expect(req!.format).toEqual(FORMAT);
    expect(req!.options).toEqual({ temperature: 0, num_ctx: 8192 });
    expect(req!.tools).toBeUndefined();
    expect(req!.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(req!.messages[1]!.content).toContain("Next I will use search_code for load_index.");
  });

  it("reports a server that does not answer in time, and a model that is not installed, in diagnostics", async () => {
    server = await startFakeOllama({ models: [{ name: "mistral-nemo" }], turns: [{ hang: true }] });
    const slow = createInterpreter(new OllamaProvider({ host: server.host }), "mistral-nemo", { timeoutMs: 200 });
    const r1 = await recover({ content: "call search_code {query: x}" }, TOOLS, { interpreter: slow });
    expect(r1.tool_calls).toEqual([]);
    expect(r1.diagnostics).toContainEqual({
      stage: "interpreter",
      message: "interpreter failed: the interpreter (ollama mistral-nemo) did not answer within 200 ms",
    });

    const missing = createInterpreter(new OllamaProvider({ host: server.host }), "not-pulled", { timeoutMs: 60_000 });
    const r2 = await recover({ content: "call search_code {query: x}" }, TOOLS, { interpreter: missing });
    const msg = r2.diagnostics.find((d) => d.stage === "interpreter")?.message ?? "";
    expect(msg).toMatch(/^interpreter failed: the interpreter \(ollama not-pulled at http:\/\/127\.0\.0\.1:\d+\) failed: /);
    expect(msg).toMatch(/not-pulled/);
  });

  it("reports a reply that is not JSON", async () => {
    server = await startFakeOllama({ models: [{ name: "mistral-nemo" }], turns: [{ content: "I think you want search_code." }] });
    const interpreter = createInterpreter(new OllamaProvider({ host: server.host }), "mistral-nemo", { timeoutMs: 60_000 });
    const r = await recover({ content: "search_code maybe?" }, TOOLS, { interpreter });
    expect(r.diagnostics).toContainEqual({
      stage: "interpreter",
      message: 'interpreter failed: the interpreter returned invalid JSON: "I think you want search_code."',
    });
  });
});
