import { afterEach, describe, expect, it } from "vitest";
import {
  OpenAIProvider,
  normalizeOpenAIBaseURL,
  toWireMessages,
  DUMMY_API_KEY,
} from "../../src/llm/openai.js";
import { parseToolArguments } from "../../src/llm/tool-arguments.js";
import { ProviderError, type ToolDefinition } from "../../src/llm/types.js";
import { startFakeOpenAI, type FakeOpenAI } from "../helpers/fake-openai.js";
import { closedPort } from "../helpers/closed-port.js";

const TOOLS: ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "find_importers",
      description: "List the files that import a module",
      parameters: { type: "object", properties: { module_name: { type: "string" } }, required: ["module_name"] },
    },
  },
  {
    type: "function",
    function: {
      name: "search_code",
      description: "Search",
      parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    },
  },
];

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("normalizeOpenAIBaseURL", () => {
  it.each([
    ["http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"],
    ["http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000/v1"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"],
    ["localhost:1234", "http://localhost:1234/v1"],
    ["https://llm.example.com/openai/v1", "https://llm.example.com/openai/v1"],
  ])("%s → %s", (raw, want) => {
    expect(normalizeOpenAIBaseURL(raw)).toBe(want);
  });

  it("says what to set when no URL is configured", () => {
    expect(() => normalizeOpenAIBaseURL("  ")).toThrow(/no OpenAI-compatible server is configured/);
  });

  it("rejects garbage with a ProviderError", () => {
    expect(() => normalizeOpenAIBaseURL("http://exa mple:99999")).toThrow(ProviderError);
  });
});

describe("parseToolArguments", () => {
  it("parses objects, repairs sloppy JSON, unwraps double encoding", () => {
    expect(parseToolArguments('{"module_name":"rag_common"}')).toEqual({ module_name: "rag_common" });
    expect(parseToolArguments("{module_name: 'rag_common',}")).toEqual({ module_name: "rag_common" });
    expect(parseToolArguments(JSON.stringify('{"a":1}'))).toEqual({ a: 1 });
    expect(parseToolArguments("")).toEqual({});
    expect(parseToolArguments("[1,2]")).toEqual({});
  });
});

describe("toWireMessages", () => {
  it("gives shim-recovered calls ids and pairs tool messages with them", () => {
    const wire = toWireMessages([
      { role: "system", content: "sys" },
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { name: "search_code", arguments: { query: "x" } },
          { name: "find_importers", arguments: { module_name: "m" } },
        ],
      },
      { role: "tool", content: '{"ok":true}', tool_name: "find_importers" },
      { role: "tool", content: '{"ok":false}', tool_name: "search_code" },
    ]);
    expect(wire[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_2_0", type: "function", function: { name: "search_code", arguments: '{"query":"x"}' } },
        { id: "call_2_1", type: "function", function: { name: "find_importers", arguments: '{"module_name":"m"}' } },
      ],
    });
    expect(wire[3]).toEqual({ role: "tool", tool_call_id: "call_2_1", content: '{"ok":true}' });
    expect(wire[4]).toEqual({ role: "tool", tool_call_id: "call_2_0", content: '{"ok":false}' });
  });

  it("keeps server ids", () => {
    const wire = toWireMessages([
      { role: "assistant", content: "", tool_calls: [{ id: "abc", name: "search_code", arguments: {} }] },
      { role: "tool", content: "r", tool_call_id: "abc" },
    ]);
    expect(wire[1]).toEqual({ role: "tool", tool_call_id: "abc", content: "r" });
  });
});

describe("OpenAIProvider against the fake server", () => {
  it("streams tool-call argument deltas split across chunks and assembles them by index", async () => {
    fake = await startFakeOpenAI({
      turns: [
        {
          reasoning: "the user wants importers",
          tool_calls: [
            { name: "find_importers", arguments: { module_name: "rag_common", max_results: 10 } },
            { name: "search_code", arguments: { query: "load_index(" } },
          ],
          chunkSize: 2,
          interleave: true,
          splitEvents: true,
        },
      ],
    });
    const provider = new OpenAIProvider({ baseURL: fake.baseURL });
    const content: string[] = [];
    const thinking: string[] = [];
    const turn = await provider.chat(
      { model: "fake-model", messages: [{ role: "user", content: "who imports rag_common?" }], tools: TOOLS },
      { onContent: (d) => content.push(d), onThinking: (d) => thinking.push(d) },
    );
    expect(turn.tool_calls).toEqual([
      { id: "call_1_0", name: "find_importers", arguments: { module_name: "rag_common", max_results: 10 } },
      { id: "call_1_1", name: "search_code", arguments: { query: "load_index(" } },
    ]);
    expect(turn.thinking).toBe("the user wants importers");
    expect(thinking.length).toBeGreaterThan(1);
    expect(turn.content).toBe("");
    expect(turn.done_reason).toBe("tool_calls");
    expect(turn.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7 });
    const sent = fake.chatRequests()[0]!;
    expect(sent.stream).toBe(true);
    expect(sent.tools).toEqual(TOOLS);
    expect(sent.messages).toEqual([{ role: "user", content: "who imports rag_common?" }]);
  });

  it("assembles calls whose deltas carry no index (older servers)", async () => {
    fake = await startFakeOpenAI({
      turns: [
        {
          tool_calls: [
            { name: "search_code", arguments: { query: "a" } },
            { name: "search_code", arguments: { query: "b" } },
          ],
          omitIndex: true,
          chunkSize: 4,
        },
      ],
    });
    const provider = new OpenAIProvider({ baseURL: fake.baseURL });
    const turn = await provider.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }], tools: TOOLS }, { onContent: () => {} });
    expect(turn.tool_calls).toEqual([
      { id: "call_1_0", name: "search_code", arguments: { query: "a" } },
      { id: "call_1_1", name: "search_code", arguments: { query: "b" } },
    ]);
  });

  it("streams content deltas to onContent and leaves text tool calls in content", async () => {
    const text = 'Let me look. {"name": "search_code", "arguments": {"query": "load_index"}}';
    fake = await startFakeOpenAI({ turns: [{ content: text, reasoning: "hm", reasoningField: "reasoning" }] });
    const provider = new OpenAIProvider({ baseURL: fake.origin });
    const deltas: string[] = [];
    const turn = await provider.chat(
      { model: "fake-model", messages: [{ role: "user", content: "q" }], tools: TOOLS },
      { onContent: (d) => deltas.push(d) },
    );
    expect(deltas.join("")).toBe(text);
    expect(deltas.length).toBe(Math.ceil(text.length / 3));
    expect(turn).toEqual({ content: text, thinking: "hm", tool_calls: [], done_reason: "stop", usage: { prompt_tokens: 11, completion_tokens: 7 } });
  });

  it("does not send contextTokens (a server setting) and leaves max_tokens unset", async () => {
    fake = await startFakeOpenAI({ turns: [{ content: "ok" }] });
    const provider = new OpenAIProvider({ baseURL: fake.origin });
    await provider.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }], contextTokens: 8192, temperature: 0 });
    const body = fake.chatRequests()[0]!;
    expect(Object.keys(body).sort()).toEqual(["messages", "model", "temperature"]);
  });

  it("non-streamed: parses tool calls, reasoning and usage; sends response_format for format", async () => {
    fake = await startFakeOpenAI({
      turns: [
        { tool_calls: [{ id: "x1", name: "find_importers", arguments: '{"module_name": "rag_common",}' }], reasoning: "r" },
        { content: '{"name":"noop","arguments":{}}' },
      ],
    });
    const provider = new OpenAIProvider({ baseURL: fake.baseURL, apiKey: "" });
    const turn = await provider.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }], tools: TOOLS, temperature: 0 });
    expect(turn).toEqual({
      content: "",
      thinking: "r",
      tool_calls: [{ id: "x1", name: "find_importers", arguments: { module_name: "rag_common" } }],
      done_reason: "tool_calls",
      usage: { prompt_tokens: 11, completion_tokens: 7 },
    });
    const schema = { type: "object", properties: { name: { enum: ["noop"] } }, required: ["name"] };
    const second = await provider.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }], format: schema });
    expect(second.content).toBe('{"name":"noop","arguments":{}}');
    const [first, sent] = fake.chatRequests();
    expect(first!.stream).toBeUndefined();
    expect(first!.temperature).toBe(0);
    expect(sent!.response_format).toEqual({ type: "json_schema", json_schema: { name: "response", schema } });
    expect(sent!.tools).toBeUndefined();
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${DUMMY_API_KEY}`);
  });

  it("lists models via GET /v1/models", async () => {
    fake = await startFakeOpenAI({ models: ["qwen2.5-coder:7b", "llama3.1"] });
    const provider = new OpenAIProvider({ baseURL: fake.baseURL });
    expect(await provider.listModels()).toEqual(["qwen2.5-coder:7b", "llama3.1"]);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]);
  });

  it("maps 404 for an unknown model to MODEL_NOT_FOUND", async () => {
    fake = await startFakeOpenAI();
    const provider = new OpenAIProvider({ baseURL: fake.baseURL });
    const err = await provider.chat({ model: "nope", messages: [{ role: "user", content: "q" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe("MODEL_NOT_FOUND");
    expect((err as ProviderError).message).toContain('model "nope" not found');
    expect((err as ProviderError).status).toBe(404);
  });

  it("maps a 400 about tools to TOOLS_UNSUPPORTED", async () => {
    fake = await startFakeOpenAI({ turns: [{ error: { status: 400, message: "registry.ollama.ai/library/gemma2:2b does not support tools" } }] });
    const provider = new OpenAIProvider({ baseURL: fake.baseURL });
    const err = (await provider
      .chat({ model: "fake-model", messages: [{ role: "user", content: "q" }], tools: TOOLS }, { onContent: () => {} })
      .catch((e: unknown) => e)) as ProviderError;
    expect(err.code).toBe("TOOLS_UNSUPPORTED");
    expect(err.message).toContain("does not support tools");
    expect(err.hint).toContain("--toolshim on");
  });

  it("maps 401 to an API-key hint", async () => {
    fake = await startFakeOpenAI({ apiKey: "secret" });
    const provider = new OpenAIProvider({ baseURL: fake.baseURL, apiKey: "wrong" });
    const err = (await provider.listModels().catch((e: unknown) => e)) as ProviderError;
    expect(err.code).toBe("HTTP");
    expect(err.status).toBe(401);
    expect(err.hint).toContain("OPENAI_API_KEY");
    const ok = new OpenAIProvider({ baseURL: fake.baseURL, apiKey: "secret" });
    expect(await ok.listModels()).toEqual(["fake-model"]);
  });

  it("names the base URL when the server is unreachable", async () => {
    const port = await closedPort();
    const provider = new OpenAIProvider({ baseURL: `http://127.0.0.1:${port}/v1` });
    const err = (await provider.chat({ model: "m", messages: [{ role: "user", content: "q" }] }).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.code).toBe("UNREACHABLE");
    expect(err.message).toContain(`http://127.0.0.1:${port}/v1`);
    expect(err.hint).toContain("OPENAI_BASE_URL");
  });

  it("rejects with the caller's abort reason", async () => {
    fake = await startFakeOpenAI({ turns: [{ content: "hello" }] });
    const provider = new OpenAIProvider({ baseURL: fake.baseURL });
    const ac = new AbortController();
    const reason = new Error("user gave up");
    ac.abort(reason);
    await expect(provider.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] }, { signal: ac.signal })).rejects.toBe(reason);
  });
});
