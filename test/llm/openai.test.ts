import http from "node:http";
import type { AddressInfo } from "node:net";
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
    // A server streams token counts only when asked (the fake, like OpenAI, sends none otherwise).
    expect(sent.stream_options).toEqual({ include_usage: true });
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

  it("returns the caller's streamed text as content when the caller keeps it (streamedContent)", async () => {
    const text = "Let me look at the importers.";
    fake = await startFakeOpenAI({ turns: [{ content: text }] });
    const provider = new OpenAIProvider({ baseURL: fake.origin });
    let kept = "";
    let asked = 0;
    const turn = await provider.chat({ model: "fake-model", messages: [{ role: "user", content: "q" }] }, { onContent: (d) => (kept += d), streamedContent: () => (asked++, kept) });
    expect(kept).toBe(text);
    expect(asked).toBe(1);
    expect(turn.content).toBe(text);
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
    // The same wording as Ollama's, with the socket error's code (not undici's "fetch failed").
    expect(err.message).toBe(`cannot reach the OpenAI-compatible server at http://127.0.0.1:${port}/v1 (ECONNREFUSED)`);
    expect(err.hint).toBe("Start the server (vLLM, llama-server, LM Studio, `ollama serve`), or point OPENAI_BASE_URL (or --host) at its address, e.g. http://127.0.0.1:8000/v1.");
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

describe("OpenAIProvider: a streamed chat over node:http", () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r) ?? r(undefined));
    server = undefined;
  });

  /** A server whose `/v1/chat/completions` answers with `reply`; resolves with its base URL and the requests it got. */
  async function sse(reply: (res: http.ServerResponse) => void): Promise<{ baseURL: string; requests: { headers: http.IncomingHttpHeaders; body: string }[] }> {
    const requests: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    server = http.createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8").on("data", (d: string) => (body += d));
      req.on("end", () => {
        requests.push({ headers: req.headers, body });
        reply(res);
      });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
  }

  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });

  it("reads events split across writes, CRLF lines, comments, data over two lines, named events; stops at [DONE]", async () => {
    const text = [
      ": keep-alive comment",
      `data: ${chunk({ role: "assistant", reasoning_content: "think" })}`,
      "",
      // One event's data on two lines (joined with a line break, which JSON reads as space).
      `data: ${chunk({ content: "Hé" }).slice(0, chunk({ content: "Hé" }).indexOf(',"choices"'))}`,
      `data:${chunk({ content: "Hé" }).slice(chunk({ content: "Hé" }).indexOf(',"choices"'))}`,
      "",
      "event: ping",
      `data: ${chunk({ content: "not a chunk" })}`,
      "",
      `data: ${chunk({ content: "llo 😀" })}`,
      "",
      `data: ${chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "search_code", arguments: '{"query":' } }] })}`,
      "",
      `data: ${chunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }, "tool_calls")}`,
      "",
      `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage: { prompt_tokens: 5, completion_tokens: 4 } })}`,
      "",
      "data: [DONE]",
      "",
      `data: ${chunk({ content: "after done" })}`,
      "",
    ].join("\r\n");
    const srv = await sse((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const bytes = Buffer.from(text);
      // Cut inside the four bytes of the emoji and inside a line.
      const cut = bytes.indexOf(Buffer.from("😀")) + 2;
      res.write(bytes.subarray(0, 25));
      setTimeout(() => {
        res.write(bytes.subarray(25, cut));
        setTimeout(() => res.end(bytes.subarray(cut)), 10);
      }, 10);
    });
    const provider = new OpenAIProvider({ baseURL: srv.baseURL });
    const content: string[] = [];
    const thinking: string[] = [];
    const turn = await provider.chat(
      { model: "m", messages: [{ role: "user", content: "q" }], tools: TOOLS, temperature: 0.2 },
      { onContent: (d) => content.push(d), onThinking: (d) => thinking.push(d) },
    );
    expect(content).toEqual(["Hé", "llo 😀"]);
    expect(thinking).toEqual(["think"]);
    expect(turn).toEqual({
      content: "Héllo 😀",
      thinking: "think",
      tool_calls: [{ id: "call_1", name: "search_code", arguments: { query: "x" } }],
      done_reason: "tool_calls",
      usage: { prompt_tokens: 5, completion_tokens: 4 },
    });
    expect(srv.requests[0]!.headers.authorization).toBe(`Bearer ${DUMMY_API_KEY}`);
    expect(JSON.parse(srv.requests[0]!.body)).toEqual({ model: "m", messages: [{ role: "user", content: "q" }], tools: TOOLS, temperature: 0.2, stream: true, stream_options: { include_usage: true } });
  });

  it("sends the address's user info as HTTP Basic", async () => {
    const srv = await sse((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${chunk({ content: "ok" }, "stop")}\n\ndata: [DONE]\n\n`);
    });
    const provider = new OpenAIProvider({ baseURL: srv.baseURL.replace("http://", "http://u:p%40ss@") });
    const turn = await provider.chat({ model: "m", messages: [{ role: "user", content: "q" }] }, { onContent: () => {} });
    expect(turn.content).toBe("ok");
    expect(srv.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from("u:p@ss").toString("base64")}`);
  });

  it("errors: an HTTP status with the server's message, an error event mid-stream, a cut stream, a server that is down", async () => {
    let mode = "404";
    const srv = await sse((res) => {
      if (mode === "404") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "The model `nope` does not exist.", type: "invalid_request_error" } }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (mode === "event") res.end(`data: ${chunk({ content: "a" })}\n\ndata: {"error":{"message":"out of memory"}}\n\n`);
      else {
        res.write(`data: ${chunk({ content: "a" })}\n\n`);
        setTimeout(() => res.socket!.destroy(), 20);
      }
    });
    const provider = new OpenAIProvider({ baseURL: srv.baseURL });
    const ask = () =>
      provider.chat({ model: "nope", messages: [{ role: "user", content: "q" }] }, { onContent: () => {} }).then(
        () => new ProviderError("HTTP", "no error"),
        (e: unknown) => e as ProviderError,
      );
    const notFound = await ask();
    expect(notFound).toBeInstanceOf(ProviderError);
    expect([notFound.code, notFound.status]).toEqual(["MODEL_NOT_FOUND", 404]);
    expect(notFound.message).toBe(`model "nope" not found at ${srv.baseURL}: The model \`nope\` does not exist.`);
    mode = "event";
    const event = await ask();
    expect([event.code, event.message]).toEqual(["HTTP", `${srv.baseURL} answered HTTP undefined: out of memory`]);
    mode = "cut";
    const cut = await ask();
    expect([cut.code, cut.message]).toEqual(["BAD_RESPONSE", `unexpected reply from ${srv.baseURL}: the reply was cut short`]);
    const port = await closedPort();
    const down = (await new OpenAIProvider({ baseURL: `http://127.0.0.1:${port}/v1` })
      .chat({ model: "m", messages: [{ role: "user", content: "q" }] }, { onContent: () => {} })
      .catch((e: unknown) => e)) as ProviderError;
    expect(down.code).toBe("UNREACHABLE");
    expect(down.message).toBe(`cannot reach the OpenAI-compatible server at http://127.0.0.1:${port}/v1 (ECONNREFUSED)`);
  });
});
