import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { parseToolArguments as normalizeToolArguments } from "../../src/llm/tool-arguments.js";
import { ProviderError } from "../../src/llm/types.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

const TOOL = {
  type: "function" as const,
  function: {
    name: "find_importers",
    description: "List importers",
    parameters: { type: "object", properties: { module_name: { type: "string" } }, required: ["module_name"] },
  },
};

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

async function expectProviderError(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error("expected a ProviderError");
}

describe("OllamaProvider.chat", () => {
  it("sends tools, format, think and temperature verbatim and reads a non-streamed tool call", async () => {
    server = await startFakeOllama({
      turns: [{ thinking: "need importers", tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] }],
    });
    const p = new OllamaProvider({ host: server.host });
    const turn = await p.chat({
      model: "qwen3:8b",
      messages: [{ role: "user", content: "who imports rag_common?" }],
      tools: [TOOL],
      format: { type: "object" },
      think: true,
      temperature: 0,
    });
    expect(turn.tool_calls).toEqual([{ name: "find_importers", arguments: { module_name: "rag_common" } }]);
    expect(turn.thinking).toBe("need importers");
    expect(turn.content).toBe("");
    expect(turn.done_reason).toBe("stop");
    expect(turn.usage).toEqual({ prompt_tokens: 42, completion_tokens: 7 });
    const body = server.chatRequests()[0]!;
    expect(body.stream).toBe(false);
    expect(body.tools).toEqual([TOOL]);
    expect(body.format).toEqual({ type: "object" });
    expect(body.think).toBe(true);
    expect(body.options).toEqual({ temperature: 0 });
    expect(body.messages).toEqual([{ role: "user", content: "who imports rag_common?" }]);
  });

  it("sends contextTokens as options.num_ctx, beside temperature, streamed or not", async () => {
    server = await startFakeOllama({ turns: [{ repeat: true, content: "ok" }] });
    const p = new OllamaProvider({ host: server.host });
    const messages = [{ role: "user" as const, content: "hi" }];
    await p.chat({ model: "qwen3:8b", messages, contextTokens: 8192 });
    await p.chat({ model: "qwen3:8b", messages, contextTokens: 16384, temperature: 0.2 }, { onContent: () => undefined });
    await p.chat({ model: "qwen3:8b", messages });
    const [plain, streamed, none] = server.chatRequests();
    expect(plain!.options).toEqual({ num_ctx: 8192 });
    expect(plain!.stream).toBe(false);
    expect(streamed!.options).toEqual({ temperature: 0.2, num_ctx: 16384 });
    expect(streamed!.stream).toBe(true);
    expect(none!.options).toBeUndefined();
  });

  it("streams thinking and content deltas in order and collects streamed tool calls", async () => {
    server = await startFakeOllama({
      turns: [
        {
          thinking: "let me think",
          content: "Checking the importers now.",
          tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" }, id: "call_1" }],
          chunkSize: 5,
        },
      ],
    });
    const p = new OllamaProvider({ host: server.host });
    const content: string[] = [];
    const thinking: string[] = [];
    const turn = await p.chat(
      { model: "qwen3:8b", messages: [{ role: "user", content: "q" }], tools: [TOOL] },
      { onContent: (d) => content.push(d), onThinking: (d) => thinking.push(d) },
    );
    expect(server.chatRequests()[0]!.stream).toBe(true);
    expect(content).toEqual(["Check", "ing t", "he im", "porte", "rs no", "w."]);
    expect(thinking.join("")).toBe("let me think");
    expect(turn.content).toBe("Checking the importers now.");
    expect(turn.tool_calls).toEqual([{ id: "call_1", name: "find_importers", arguments: { module_name: "rag_common" } }]);
  });

  it("returns the caller's streamed text as content when the caller keeps it (streamedContent)", async () => {
    server = await startFakeOllama({ turns: [{ content: "Checking the importers now.", chunkSize: 4 }] });
    const p = new OllamaProvider({ host: server.host });
    let kept = "";
    let asked = 0;
    const turn = await p.chat(
      { model: "qwen3:8b", messages: [{ role: "user", content: "q" }] },
      { onContent: (d) => (kept += d), streamedContent: () => (asked++, kept) },
    );
    expect(kept).toBe("Checking the importers now.");
    expect(asked).toBe(1);
    expect(turn.content).toBe("Checking the importers now.");
  });

  it("sends assistant tool calls and tool results with tool_name and tool_call_id", async () => {
    server = await startFakeOllama({ turns: [{ content: "done" }] });
    const p = new OllamaProvider({ host: server.host });
    await p.chat({
      model: "qwen3:8b",
      messages: [
        { role: "user", content: "q" },
        { role: "assistant", content: "", tool_calls: [{ id: "c1", name: "find_importers", arguments: { module_name: "x" } }] },
        { role: "tool", content: '{"ok":true}', tool_name: "find_importers", tool_call_id: "c1" },
      ],
    });
    expect(server.chatRequests()[0]!.messages.slice(1)).toEqual([
      { role: "assistant", content: "", tool_calls: [{ id: "c1", function: { name: "find_importers", arguments: { module_name: "x" } } }] },
      { role: "tool", content: '{"ok":true}', tool_name: "find_importers", tool_call_id: "c1" },
    ]);
  });

  it("normalises string arguments to objects", async () => {
    server = await startFakeOllama({
      turns: [{ tool_calls: [{ name: "find_importers", arguments: '{"module_name": "rag_common",}' }] }],
    });
    const turn = await new OllamaProvider({ host: server.host }).chat({ model: "qwen3:8b", messages: [] });
    expect(turn.tool_calls[0]!.arguments).toEqual({ module_name: "rag_common" });
    expect(normalizeToolArguments('{"a": 1}')).toEqual({ a: 1 });
    expect(normalizeToolArguments("[1,2]")).toEqual({});
    expect(normalizeToolArguments(null)).toEqual({});
    expect(normalizeToolArguments("")).toEqual({});
  });

  it("says TOOLS_UNSUPPORTED when the server answers 400 does not support tools", async () => {
    server = await startFakeOllama({ models: [{ name: "gemma2", capabilities: ["completion"] }] });
    const p = new OllamaProvider({ host: server.host });
    const e = await expectProviderError(
      p.chat({ model: "gemma2", messages: [{ role: "user", content: "q" }], tools: [TOOL] }),
    );
    expect(e.code).toBe("TOOLS_UNSUPPORTED");
    expect(e.status).toBe(400);
    expect(e.message).toContain("registry.ollama.ai/library/gemma2 does not support tools");
  });

  it("says MODEL_NOT_FOUND with `ollama pull NAME` for a model that is not installed", async () => {
    server = await startFakeOllama();
    const p = new OllamaProvider({ host: server.host });
    const e = await expectProviderError(p.chat({ model: "llama3.2:3b", messages: [] }));
    expect(e.code).toBe("MODEL_NOT_FOUND");
    expect(e.hint).toBe("ollama pull llama3.2:3b");
    const e2 = await expectProviderError(p.describeModel("llama3.2:3b"));
    expect(e2.code).toBe("MODEL_NOT_FOUND");
  });

  it("names the host and `ollama serve` when nothing listens", async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const p = new OllamaProvider({ host: `127.0.0.1:${port}` });
    const e = await expectProviderError(p.listModels());
    expect(e.code).toBe("UNREACHABLE");
    expect(e.message).toContain(`http://127.0.0.1:${port}`);
    expect(e.hint).toContain("ollama serve");
  });

  it("times out with TIMEOUT when the server never answers", async () => {
    server = await startFakeOllama({ turns: [{ hang: true }] });
    const p = new OllamaProvider({ host: server.host, timeoutMs: 150 });
    const e = await expectProviderError(p.chat({ model: "qwen3:8b", messages: [] }));
    expect(e.code).toBe("TIMEOUT");
  });

  it("rethrows the caller's abort reason", async () => {
    server = await startFakeOllama({ turns: [{ hang: true }] });
    const p = new OllamaProvider({ host: server.host });
    const ac = new AbortController();
    const pending = p.chat({ model: "qwen3:8b", messages: [] }, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error("user gave up")), 20);
    await expect(pending).rejects.toThrow("user gave up");
  });

  it("keeps the client's console.log off stdout on a plain-text error body", async () => {
    server = await startFakeOllama({ turns: [{ error: { status: 500, message: "upstream exploded", text: true } }] });
    const stdout = vi.spyOn(process.stdout, "write");
    const p = new OllamaProvider({ host: server.host });
    const original = console.log;
    const e = await expectProviderError(p.chat({ model: "qwen3:8b", messages: [] }));
    expect(e.code).toBe("HTTP");
    expect(e.status).toBe(500);
    expect(e.message).toContain("upstream exploded");
    expect(stdout.mock.calls.map((c) => String(c[0])).join("")).not.toContain("Getting text from response");
    expect(console.log).toBe(original);
  });

  it("turns a mid-stream error line into BAD_RESPONSE", async () => {
    server = await startFakeOllama({ turns: [{ content: "partial answer", streamError: { message: "out of memory", failAfterParts: 1 } }] });
    const p = new OllamaProvider({ host: server.host });
    const e = await expectProviderError(p.chat({ model: "qwen3:8b", messages: [] }, { onContent: () => {} }));
    expect(e.code).toBe("BAD_RESPONSE");
    expect(e.message).toContain("out of memory");
  });
});

describe("OllamaProvider model queries", () => {
  it("lists models, describes capabilities and context length, and reads the version", async () => {
    server = await startFakeOllama({
      models: [
        { name: "gemma2:2b", capabilities: ["completion"], family: "gemma2", context_length: 8192 },
        { name: "qwen3:8b", capabilities: ["completion", "tools", "thinking"], context_length: 40960 },
      ],
      version: "0.12.6",
    });
    const p = new OllamaProvider({ host: server.host });
    expect(await p.listModels()).toEqual(["gemma2:2b", "qwen3:8b"]);
    expect(await p.describeModel("qwen3:8b")).toEqual({
      name: "qwen3:8b",
      capabilities: ["completion", "tools", "thinking"],
      context_length: 40960,
    });
    expect(await p.describeModel("gemma2:2b")).toEqual({ name: "gemma2:2b", capabilities: ["completion"], context_length: 8192 });
    expect(await p.version()).toBe("0.12.6");
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/tags",
      "POST /api/show",
      "POST /api/show",
      "GET /api/version",
    ]);
  });

  it("normalises its host with the OLLAMA_HOST rules", () => {
    expect(new OllamaProvider({ host: "0.0.0.0" }).location).toBe("http://127.0.0.1:11434");
    expect(new OllamaProvider({ host: "HTTP://Example.com:8080/" }).location).toBe("http://example.com:8080");
  });
});

/** An upstream that answers every request with `reply`; counts TCP connections and records request bodies. */
async function rawServer(reply: (res: http.ServerResponse, body: string) => void): Promise<{ host: string; connections: () => number; bodies: string[]; close(): Promise<void> }> {
  let connections = 0;
  const bodies: string[] = [];
  const s = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      bodies.push(body);
      reply(res, body);
    });
  });
  s.on("connection", () => connections++);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return {
    host: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    connections: () => connections,
    bodies,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

const part = (content: string, extra: Record<string, unknown> = {}) => JSON.stringify({ model: "m", message: { role: "assistant", content }, done: false, ...extra });

describe("OllamaProvider.chat streamed over node:http", () => {
  let raw: Awaited<ReturnType<typeof rawServer>> | undefined;
  afterEach(async () => {
    await raw?.close();
    raw = undefined;
  });

  it("joins lines split across writes, accepts CRLF, reads the last line's reason and counts, and reuses the connection", async () => {
    raw = await rawServer((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      const text = `${part("Hel")}\r\n${part("lo, ")}\n${part("wörld")}\n${JSON.stringify({ model: "m", message: { role: "assistant", content: "" }, done: true, done_reason: "length", prompt_eval_count: 7, eval_count: 3 })}\n`;
      // Cut inside a line and inside the two bytes of "ö".
      const bytes = Buffer.from(text);
      const cut = bytes.indexOf(Buffer.from("ö")) + 1;
      res.write(bytes.subarray(0, 10));
      setTimeout(() => {
        res.write(bytes.subarray(10, cut));
        setTimeout(() => res.end(bytes.subarray(cut)), 10);
      }, 10);
    });
    const p = new OllamaProvider({ host: raw.host });
    for (let i = 0; i < 2; i++) {
      const deltas: string[] = [];
      const turn = await p.chat({ model: "m", messages: [{ role: "user", content: "q" }], temperature: 0.5 }, { onContent: (d) => deltas.push(d) });
      expect(deltas).toEqual(["Hel", "lo, ", "wörld"]);
      expect(turn).toEqual({ content: "Hello, wörld", tool_calls: [], done_reason: "length", usage: { prompt_tokens: 7, completion_tokens: 3 } });
    }
    expect(JSON.parse(raw.bodies[0]!)).toEqual({ model: "m", messages: [{ role: "user", content: "q" }], options: { temperature: 0.5 }, stream: true });
    expect(raw.connections()).toBe(1);
  });

  /** A server that answers "ok" and closes each connection when its second request arrives. */
  const closingEverySecondRequest = () => {
    const served = new WeakMap<object, number>();
    return rawServer((res) => {
      const n = (served.get(res.socket!) ?? 0) + 1;
      served.set(res.socket!, n);
      if (n === 2) {
        res.socket!.destroy();
        return;
      }
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end(`${part("ok")}\n${JSON.stringify({ model: "m", message: { role: "assistant", content: "" }, done: true })}\n`);
    });
  };

  it("a kept-alive connection the server dropped is replaced: the request is sent once more on a new one", async () => {
    // The second request on a connection finds it closed (the server's idle timeout raced it).
    raw = await closingEverySecondRequest();
    const p = new OllamaProvider({ host: raw.host });
    for (let i = 0; i < 2; i++) {
      const turn = await p.chat({ model: "m", messages: [{ role: "user", content: "q" }] }, { onContent: () => {} });
      expect(turn.content).toBe("ok");
    }
    expect(raw.connections()).toBe(2);
    expect(raw.bodies).toHaveLength(3);
  });

  it("the resend goes on a connection of its own, not on another pooled one the server closed too (after an idle spell)", async () => {
    // Every connection's second request finds it closed: both pooled connections went idle.
    raw = await closingEverySecondRequest();
    const p = new OllamaProvider({ host: raw.host });
    const ask = () => p.chat({ model: "m", messages: [{ role: "user", content: "q" }] }, { onContent: () => {} });
    // Two at once: the pool keeps two connections.
    expect((await Promise.all([ask(), ask()])).map((t) => t.content)).toEqual(["ok", "ok"]);
    expect((await ask()).content).toBe("ok");
    expect(raw.connections()).toBe(3);
    expect(raw.bodies).toHaveLength(4);
  });

  it("a line that is not JSON, or a stream without its done line, is BAD_RESPONSE", async () => {
    raw = await rawServer((res, body) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      if (body.includes("garbage")) res.end(`${part("a")}\n<html>502</html>\n`);
      else res.end(`${part("a")}\n`);
    });
    const p = new OllamaProvider({ host: raw.host });
    const garbage = await expectProviderError(p.chat({ model: "m", messages: [{ role: "user", content: "garbage" }] }, { onContent: () => {} }));
    expect(garbage.code).toBe("BAD_RESPONSE");
    expect(garbage.message).toContain("sent a line that is not JSON: <html>502</html>");
    const cut = await expectProviderError(p.chat({ model: "m", messages: [{ role: "user", content: "short" }] }, { onContent: () => {} }));
    expect(cut.code).toBe("BAD_RESPONSE");
    expect(cut.message).toContain('the stream ended without its last ("done") line');
  });

  it("an HTTP error body is read as the client reads it: Ollama's JSON error, else the text", async () => {
    raw = await rawServer((res, body) => {
      if (body.includes("json")) {
        res.writeHead(404, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ error: 'model "m" not found, try pulling it first' }));
      } else {
        res.writeHead(503, { "content-type": "text/plain" });
        res.end("busy");
      }
    });
    const p = new OllamaProvider({ host: raw.host });
    const missing = await expectProviderError(p.chat({ model: "m", messages: [{ role: "user", content: "json" }] }, { onContent: () => {} }));
    expect(missing.code).toBe("MODEL_NOT_FOUND");
    expect(missing.hint).toBe("ollama pull m");
    const busy = await expectProviderError(p.chat({ model: "m", messages: [{ role: "user", content: "text" }] }, { onContent: () => {} }));
    expect(busy.code).toBe("HTTP");
    expect(busy.status).toBe(503);
    expect(busy.message).toContain("HTTP 503: busy");
  });

  it("a stream that stops mid-way times out with TIMEOUT, and a caller's abort rejects with its reason", async () => {
    raw = await rawServer((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(`${part("first")}\n`);
    });
    const seen: string[] = [];
    const e = await expectProviderError(new OllamaProvider({ host: raw.host, timeoutMs: 200 }).chat({ model: "m", messages: [] }, { onContent: (d) => seen.push(d) }));
    expect(e.code).toBe("TIMEOUT");
    expect(seen).toEqual(["first"]);
    const ac = new AbortController();
    const pending = new OllamaProvider({ host: raw.host }).chat({ model: "m", messages: [] }, { signal: ac.signal, onContent: () => ac.abort(new Error("client left")) });
    await expect(pending).rejects.toThrow("client left");
  });

  it("a custom fetch carries the streamed chat too", async () => {
    server = await startFakeOllama({ turns: [{ content: "via fetch", chunkSize: 4 }] });
    const urls: string[] = [];
    const p = new OllamaProvider({
      host: server.host,
      fetch: (input, init) => {
        urls.push(String(input));
        return fetch(input, init);
      },
    });
    const deltas: string[] = [];
    const turn = await p.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "q" }] }, { onContent: (d) => deltas.push(d) });
    expect(urls).toEqual([`${server.host}/api/chat`]);
    expect(deltas).toEqual(["via ", "fetc", "h"]);
    expect(turn.content).toBe("via fetch");
  });
});
