/**
 * Bad input to `codecite serve`: each failure is a clear error in the client API's shape
 * (Ollama `{"error": "…"}`, OpenAI `{"error": {"message", "type", …}}`), and the gateway keeps
 * serving afterwards. Upstreams are the fake Ollama or a raw node:http server that misbehaves.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { OpenAIProvider } from "../../src/llm/openai.js";
import { createGateway, type Gateway } from "../../src/serve/index.js";
import { MAX_MODELS_COUNTED, OTHER_MODELS } from "../../src/serve/stats.js";
import { closedPort } from "../helpers/closed-port.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

let ollama: FakeOllama | undefined;
let gateway: Gateway | undefined;
let raw: http.Server | undefined;
afterEach(async () => {
  await gateway?.close();
  await ollama?.close();
  if (raw) {
    raw.closeAllConnections();
    await new Promise((r) => raw!.close(r));
  }
  gateway = ollama = raw = undefined;
});

/** A HEAD request over node:http: its status, content type and how many body bytes arrived. */
function headRaw(url: string): Promise<{ status: number; type: string | null; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "HEAD" }, (res) => {
      let bytes = 0;
      res.on("data", (d: Buffer) => (bytes += d.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: (res.headers["content-type"] as string | undefined) ?? null, bytes }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function start(host: string, opts: { token?: string; maxBodyBytes?: number } = {}): Promise<string> {
  gateway = createGateway({ upstream: { api: "ollama", host }, provider: new OllamaProvider({ host, timeoutMs: 10_000 }), ...opts });
  const a = await gateway.listen(0, "127.0.0.1");
  return `http://127.0.0.1:${a.port}`;
}

/**
 * An upstream whose chat replies `chat` writes (given the request's JSON body and path). `closedEarly()`: how many replies were closed before
 * they finished (the gateway hung up on them); `firstEarlyClose` settles at the first of those (an
 * event to wait for, not a clock: on a loaded machine the close may take any time to arrive).
 */
async function rawUpstream(
  chat: (res: http.ServerResponse, body: Record<string, unknown>, path: string) => void,
): Promise<{ host: string; closedEarly: () => number; firstEarlyClose: Promise<void> }> {
  let closed = 0;
  let onEarlyClose!: () => void;
  const firstEarlyClose = new Promise<void>((resolve) => (onEarlyClose = resolve));
  raw = http.createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString("utf8")));
    req.on("end", () => {
      if (req.url === "/api/show") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ capabilities: ["completion", "tools"] }));
        return;
      }
      res.on("close", () => {
        if (res.writableFinished) return;
        closed++;
        onEarlyClose();
      });
      chat(res, text === "" ? {} : (JSON.parse(text) as Record<string, unknown>), req.url ?? "/");
    });
  });
  await new Promise<void>((r) => raw!.listen(0, "127.0.0.1", r));
  return { host: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`, closedEarly: () => closed, firstEarlyClose };
}

const CHAT = { model: "qwen3:8b", messages: [{ role: "user", content: "hi" }] };

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown; text: string }> {
  const r = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, json, text };
}

/** The gateway still answers a good request. */
async function stillServing(url: string): Promise<void> {
  const r = await fetch(`${url}/codecite/stats`);
  expect(r.status).toBe(200);
}

describe("serve: bad requests", () => {
  it("malformed JSON: 400 in each API's shape", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host);
    const o = await post(`${url}/api/chat`, "{not json");
    expect(o.status).toBe(400);
    expect((o.json as { error: string }).error).toMatch(/^the request body is not valid JSON/);
    const v = await post(`${url}/v1/chat/completions`, "{not json");
    expect(v.status).toBe(400);
    expect(v.json).toMatchObject({ error: { message: expect.stringMatching(/^the request body is not valid JSON/), type: "invalid_request_error" } });
    const missing = await post(`${url}/api/chat`, JSON.stringify({ messages: [] }));
    expect(missing).toMatchObject({ status: 400, json: { error: "model is required" } });
    const badRole = await post(`${url}/v1/chat/completions`, JSON.stringify({ model: "m", messages: [{ role: "wizard", content: "x" }] }));
    expect(badRole.json).toMatchObject({ error: { message: "messages[0].role must be one of system, developer, user, assistant, tool" } });
    await stillServing(url);
  });

  it("a stream flag that is not a boolean (\"yes\", 1): 400 in each API's shape, nothing sent upstream; null is the API's default", async () => {
    ollama = await startFakeOllama({ models: [{ name: "qwen3:8b", capabilities: ["completion", "tools"] }], turns: [{ content: "one two three" }, { content: "one two three" }] });
    const url = await start(ollama.host);
    const before = ollama.requests.length;
    for (const stream of ["yes", 1, "false", [true]]) {
      const o = await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, stream }));
      expect(o, JSON.stringify(stream)).toMatchObject({ status: 400, json: { error: "stream must be true or false" } });
      const v = await post(`${url}/v1/chat/completions`, JSON.stringify({ ...CHAT, stream }));
      expect(v, JSON.stringify(stream)).toMatchObject({ status: 400, json: { error: { message: "stream must be true or false", type: "invalid_request_error" } } });
    }
    expect(ollama.requests.slice(before).filter((r) => r.path === "/api/chat")).toEqual([]);
    // null: Ollama's default (a stream of NDJSON lines), OpenAI's default (one chat.completion body)
    const o = await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, stream: null }));
    expect(o.status).toBe(200);
    expect(o.text.trim().split("\n").length).toBeGreaterThan(1);
    const v = await post(`${url}/v1/chat/completions`, JSON.stringify({ ...CHAT, stream: null }));
    expect(v.json).toMatchObject({ object: "chat.completion" });
    await stillServing(url);
  });

  it("a body nested too deeply (tools, options, a call's arguments, as an object or a JSON string): 400 naming the depth, nothing sent upstream", async () => {
    ollama = await startFakeOllama({ models: [{ name: "qwen3:8b", capabilities: ["completion", "tools"] }, { name: "tiny", capabilities: ["completion"] }], turns: [{ content: "done" }] });
    const url = await start(ollama.host);
    // 100,000 levels: JSON.parse reads it, JSON.stringify (sending it on, writing it into a prompt) overflowed the stack.
    const nested = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const user = '{"role":"user","content":"hi"}';
    const tools = (schema: string): string => `[{"type":"function","function":{"name":"f","parameters":${schema}}}]`;
    for (const body of [
      `{"model":"qwen3:8b","messages":[${user}],"tools":${tools(nested)}}`,
      `{"model":"tiny","messages":[${user}],"tools":${tools(nested)}}`,
      `{"model":"qwen3:8b","messages":[${user}],"options":{"x":${nested}}}`,
      `{"model":"qwen3:8b","messages":[{"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":${nested}}}]},${user}]}`,
    ]) {
      const r = await post(`${url}/api/chat`, body);
      expect(r, body.slice(0, 60)).toMatchObject({ status: 400, json: { error: "the request body is nested more than 128 levels deep" } });
    }
    const show = await post(`${url}/api/show`, `{"model":${nested}}`);
    expect(show).toMatchObject({ status: 400, json: { error: "the request body is nested more than 128 levels deep" } });
    // OpenAI sends a call's arguments as a JSON string: decoded, it must fit what can be sent on.
    const assistant = (args: string) => `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":${JSON.stringify(args)}}}]}`;
    const v = await post(`${url}/v1/chat/completions`, `{"model":"qwen3:8b","stream":false,"messages":[${user},${assistant(nested)},{"role":"tool","tool_call_id":"c1","content":"ok"}]}`);
    expect(v).toMatchObject({
      status: 400,
      json: { error: { message: "messages[1].tool_calls[0].function.arguments is nested more than 64 levels deep", type: "invalid_request_error" } },
    });
    expect(ollama.chatRequests()).toHaveLength(0);
    // Real depths pass: a schema and arguments nested 60 levels.
    const sixty = `${'{"a":'.repeat(59)}1${"}".repeat(59)}`;
    const ok = await post(`${url}/v1/chat/completions`, `{"model":"qwen3:8b","stream":false,"messages":[${user},${assistant(sixty)},{"role":"tool","tool_call_id":"c1","content":"ok"},${user}],"tools":${tools(sixty)}}`);
    expect(ok.status).toBe(200);
    expect(ollama.chatRequests()).toHaveLength(1);
    await stillServing(url);
  });

  it("a huge body: 413, and the next request is served", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host, { maxBodyBytes: 1000 });
    const big = JSON.stringify({ ...CHAT, messages: [{ role: "user", content: "x".repeat(5000) }] });
    const r = await post(`${url}/v1/chat/completions`, big);
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ error: { message: "request body over 1000 bytes" } });
    await stillServing(url);
    expect(ollama.chatRequests()).toHaveLength(0);
  });

  it("a huge body sent in chunks (no Content-Length): 413 in Ollama's shape, and the next request is served", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host, { maxBodyBytes: 1000 });
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${url}/api/chat`, { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d: string) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      // The server may close the connection before the upload ends.
      req.on("error", (err) => (err as NodeJS.ErrnoException).code === "EPIPE" || (err as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(err));
      req.write(`{"model": "qwen3:8b", "messages": [{"role": "user", "content": "${"x".repeat(700)}`);
      req.write(`${"y".repeat(700)}"}]}`);
      req.end();
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual({ error: "request body over 1000 bytes" });
    await stillServing(url);
    expect(ollama.chatRequests()).toHaveLength(0);
  });

  it("unknown routes (404) and wrong methods (405 with Allow)", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host);
    const nf = await fetch(`${url}/api/nope`);
    expect(nf.status).toBe(404);
    expect(await nf.json()).toEqual({ error: "no route /api/nope" });
    const nf1 = await fetch(`${url}/v1/nope`);
    expect(await nf1.json()).toMatchObject({ error: { message: "no route /v1/nope", type: "not_found_error" } });
    const wm = await fetch(`${url}/api/chat`);
    expect(wm.status).toBe(405);
    expect(wm.headers.get("allow")).toBe("POST");
    expect(await wm.json()).toEqual({ error: "/api/chat accepts POST, not GET" });
    const wm1 = await fetch(`${url}/v1/models`, { method: "DELETE" });
    expect(wm1.status).toBe(405);
    expect(wm1.headers.get("allow")).toBe("GET, HEAD");
    expect(await wm1.json()).toMatchObject({ error: { message: "/v1/models accepts GET, HEAD, not DELETE", type: "invalid_request_error" } });
    const wm2 = await fetch(`${url}/api/tags`, { method: "POST", body: "{}" });
    expect(wm2.status).toBe(405);
    expect(wm2.headers.get("allow")).toBe("GET, HEAD");
    const wm3 = await fetch(`${url}/api/chat`, { method: "HEAD" });
    expect(wm3.status).toBe(405);
    expect(wm3.headers.get("allow")).toBe("POST");
    await stillServing(url);
  });

  it("HEAD on a GET route is answered like GET without a body (RFC 9110 §9.3.2)", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host);
    // The fake Ollama has no /api/ps: its 404 comes back to HEAD alike, without the body.
    for (const path of ["/", "/api/tags", "/api/version", "/api/ps", "/v1/models", "/codecite/stats"]) {
      const get = await fetch(`${url}${path}`);
      const head = await headRaw(`${url}${path}`);
      expect({ path, status: head.status, type: head.type, bytes: head.bytes }).toEqual({ path, status: get.status, type: get.headers.get("content-type"), bytes: 0 });
      expect(get.status).toBe(path === "/api/ps" ? 404 : 200);
      expect((await get.text()).length).toBeGreaterThan(0);
    }
    // A forwarded route is asked of the upstream with GET (an Ollama upstream need not know HEAD).
    expect(ollama.requests.filter((r) => r.path === "/api/version").map((r) => r.method)).toEqual(["GET", "GET"]);
    expect(ollama.requests.filter((r) => r.path === "/api/ps").map((r) => r.method)).toEqual(["GET", "GET"]);
    await stillServing(url);
  });

  it("a model name over 1,024 characters is 400 naming the field, in each API's shape; nothing reaches the upstream", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host);
    for (const model of ["m".repeat(1025), "m".repeat(10 * 1024 * 1024)]) {
      const message = `model is ${model.length} characters long; a model name has at most 1024`;
      const o = await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, model }));
      expect({ status: o.status, body: o.json }).toEqual({ status: 400, body: { error: message } });
      const v = await post(`${url}/v1/chat/completions`, JSON.stringify({ ...CHAT, model }));
      expect({ status: v.status, body: v.json }).toEqual({ status: 400, body: { error: { message, type: "invalid_request_error", param: null, code: null } } });
    }
    expect(ollama.requests.filter((r) => r.path === "/api/chat")).toEqual([]);
    // 1,024 characters is a name: the upstream says it has no such model.
    expect((await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, model: "m".repeat(1024), stream: false }))).status).toBe(404);
  });

  it("the stats count at most 256 models by name, the others together; a model named __proto__ is counted as itself", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host);
    const names = ["__proto__", ...Array.from({ length: 299 }, (_, i) => `nope-${String(i).padStart(3, "0")}`)];
    for (const model of names) expect((await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, model, stream: false }))).status).toBe(404);
    const stats = (await (await fetch(`${url}/codecite/stats`)).json()) as { models: Record<string, { turns: number; errors: number }> };
    const counted = Object.keys(stats.models);
    expect(counted.length).toBe(MAX_MODELS_COUNTED + 1);
    expect(counted).toEqual([...names.slice(0, MAX_MODELS_COUNTED), OTHER_MODELS].sort());
    expect(stats.models.__proto__).toEqual({ turns: 1, native_calls: 0, recovered: {}, refusals: 0, switches: 0, errors: 1 });
    expect(stats.models[OTHER_MODELS]).toMatchObject({ turns: 300 - MAX_MODELS_COUNTED, errors: 300 - MAX_MODELS_COUNTED });
  });

  it("a model the upstream cannot describe (a name it lacks) is not remembered: the next request asks about it again", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host);
    const TOOL = { type: "function", function: { name: "read", parameters: { type: "object", properties: {} } } };
    for (let i = 0; i < 2; i++) expect((await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, model: "nope", tools: [TOOL], stream: false }))).status).toBe(404);
    expect(ollama.requests.filter((r) => r.path === "/api/show").length).toBe(2);
  });

  it("a token is required on every request, loopback included", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host, { token: "0123456789abcdef-token" });
    const none = await fetch(`${url}/api/tags`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: "missing or wrong bearer token (Authorization: Bearer <token>)" });
    const wrong = await fetch(`${url}/v1/models`, { headers: { authorization: "Bearer 0123456789abcdef-nope" } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { type: "authentication_error" } });
    const ok = await fetch(`${url}/api/tags`, { headers: { authorization: "Bearer 0123456789abcdef-token" } });
    expect(ok.status).toBe(200);
    expect(ollama.requests.filter((r) => r.path === "/api/tags")).toHaveLength(1);
  });
});

describe("serve: an upstream address with credentials", () => {
  it("forwarded routes send them as an HTTP Basic header and no reply or error shows them", async () => {
    ollama = await startFakeOllama();
    const withCreds = ollama.host.replace("http://", "http://alice:S3CRETPW@");
    const url = await start(withCreds);
    const tags = await fetch(`${url}/api/tags`);
    expect(tags.status).toBe(200);
    expect(((await tags.json()) as { models: Array<{ name: string }> }).models.map((m) => m.name)).toContain("qwen3:8b");
    const version = await fetch(`${url}/api/version`);
    expect(version.status).toBe(200);
    const show = await post(`${url}/api/show`, JSON.stringify({ model: "qwen3:8b" }));
    expect(show.status).toBe(200);
    const basic = `Basic ${Buffer.from("alice:S3CRETPW").toString("base64")}`;
    for (const p of ["/api/tags", "/api/version", "/api/show"]) {
      expect(ollama.requests.find((r) => r.path === p)?.headers.authorization, p).toBe(basic);
    }
    // Upstream down: the error names the upstream without its password.
    const down = `http://alice:S3CRETPW@127.0.0.1:${await closedPort()}`;
    await gateway!.close();
    const downUrl = await start(down);
    for (const [method, p] of [["GET", "/api/tags"], ["GET", "/api/version"], ["GET", "/api/ps"], ["POST", "/api/generate"], ["POST", "/api/show"], ["POST", "/api/embed"]] as const) {
      const r = await fetch(`${downUrl}${p}`, { method, ...(method === "POST" ? { body: JSON.stringify({ model: "qwen3:8b" }) } : {}) });
      const text = await r.text();
      expect(r.status, p).toBe(502);
      expect(text, p).not.toContain("S3CRETPW");
      expect(text, p).toContain("127.0.0.1");
    }
  });
});

describe("serve: bad upstreams", () => {
  it("upstream down: 502 in each API's shape", async () => {
    const upstream = `http://127.0.0.1:${await closedPort()}`;
    const url = await start(upstream);
    const o = await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, stream: false }));
    expect(o.status).toBe(502);
    // One wording on every route, in each API's shape, naming the fix: start Ollama, or point --upstream / OLLAMA_HOST at it.
    const message = `upstream: cannot reach Ollama at ${upstream} (ECONNREFUSED); start Ollama (\`ollama serve\`), or point codecite serve's --upstream (or OLLAMA_HOST) at the running server`;
    expect(o.json).toEqual({ error: message });
    const v = await post(`${url}/v1/chat/completions`, JSON.stringify(CHAT));
    expect(v.status).toBe(502);
    expect(v.json).toEqual({ error: { message, type: "upstream_error", param: null, code: null } });
    for (const route of ["/api/tags", "/api/version", "/api/ps"]) {
      const r = await fetch(`${url}${route}`);
      expect({ route, status: r.status, body: await r.json() }).toEqual({ route, status: 502, body: { error: message } });
    }
    const models = await fetch(`${url}/v1/models`);
    expect({ status: models.status, body: await models.json() }).toEqual({ status: 502, body: { error: { message, type: "upstream_error", param: null, code: null } } });
    await stillServing(url);
  });

  it("an OpenAI-compatible upstream down: the same wording, naming OPENAI_BASE_URL, on chat, /v1/models and a forwarded route", async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    gateway = createGateway({ upstream: { api: "openai", baseURL }, provider: new OpenAIProvider({ baseURL, timeoutMs: 10_000 }) });
    const url = `http://127.0.0.1:${(await gateway.listen(0, "127.0.0.1")).port}`;
    const message = `upstream: cannot reach the OpenAI-compatible server at ${baseURL} (ECONNREFUSED); start that server, or point codecite serve's --upstream (or OPENAI_BASE_URL) at the running server`;
    const shape = { error: { message, type: "upstream_error", param: null, code: null } };
    for (const stream of [false, true]) {
      const v = await post(`${url}/v1/chat/completions`, JSON.stringify({ ...CHAT, stream }));
      expect({ stream, status: v.status, body: v.json }).toEqual({ stream, status: 502, body: shape });
    }
    const models = await fetch(`${url}/v1/models`);
    expect({ status: models.status, body: await models.json() }).toEqual({ status: 502, body: shape });
    const embed = await post(`${url}/v1/embeddings`, JSON.stringify({ model: "m", input: "x" }));
    expect({ status: embed.status, body: embed.json }).toEqual({ status: 502, body: shape });
    await stillServing(url);
  });

  it("a model the upstream lacks: 404 with the upstream's reason", async () => {
    ollama = await startFakeOllama();
    const url = await start(ollama.host);
    const r = await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, model: "nope", stream: false }));
    expect(r.status).toBe(404);
    expect((r.json as { error: string }).error).toContain("model nope is not installed");
  });

  it("upstream garbage: an error, not a hang", async () => {
    const up = await rawUpstream((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end("this is not json\n");
    });
    const url = await start(up.host);
    const r = await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, stream: false }));
    expect(r.status).toBe(502);
    expect((r.json as { error: string }).error).toMatch(/^upstream: /);
    await stillServing(url);
  });

  it("upstream garbage mid-stream: what came is delivered, then an error event in OpenAI's shape and [DONE]", async () => {
    const up = await rawUpstream((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(`${JSON.stringify({ model: "qwen3:8b", message: { role: "assistant", content: "Partial answer" }, done: false })}\n`);
      res.end("<html>502 Bad Gateway</html>\n");
    });
    const url = await start(up.host);
    const v = await post(`${url}/v1/chat/completions`, JSON.stringify({ ...CHAT, stream: true }));
    expect(v.status).toBe(200);
    expect(v.text).toContain('"content":"Partial"');
    expect(v.text).toMatch(/data: \{"error":\{"message":"upstream: [^"]+","type":"upstream_error"/);
    expect(v.text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    await stillServing(url);
  });

  it("a stream cut mid-way: what came is delivered, then an error line (Ollama) or event (OpenAI)", async () => {
    const up = await rawUpstream((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(`${JSON.stringify({ model: "qwen3:8b", message: { role: "assistant", content: "Hello there" }, done: false })}\n`);
      setTimeout(() => res.destroy(), 50);
    });
    const url = await start(up.host);
    const o = await post(`${url}/api/chat`, JSON.stringify(CHAT));
    expect(o.status).toBe(200);
    const lines = o.text.trim().split("\n").map((l) => JSON.parse(l) as { message?: { content: string }; error?: string });
    expect(lines[0]!.message?.content).toBe("Hello");
    expect(lines.at(-1)!.error).toMatch(/^upstream: /);
    const v = await post(`${url}/v1/chat/completions`, JSON.stringify({ ...CHAT, stream: true }));
    expect(v.text).toContain('"content":"Hello"');
    expect(v.text).toMatch(/data: \{"error":\{"message":"upstream: [^"]+","type":"upstream_error"/);
    expect(v.text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    await stillServing(url);
  });

  it("a client that hangs up mid-stream cancels the upstream request", async () => {
    const up = await rawUpstream((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(`${JSON.stringify({ model: "qwen3:8b", message: { role: "assistant", content: "Thinking about it. " }, done: false })}\n`);
      // …and never ends.
    });
    const url = await start(up.host);
    const controller = new AbortController();
    const r = await fetch(`${url}/api/chat`, { method: "POST", body: JSON.stringify(CHAT), signal: controller.signal });
    const reader = r.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("Thinking");
    controller.abort();
    await up.firstEarlyClose;
    expect(up.closedEarly()).toBe(1);
    await stillServing(url);
  });

  it("an OpenAI client that hangs up mid-stream cancels the upstream request too", async () => {
    const up = await rawUpstream((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(`${JSON.stringify({ model: "qwen3:8b", message: { role: "assistant", content: "Thinking about it. " }, done: false })}\n`);
    });
    const url = await start(up.host);
    const controller = new AbortController();
    const r = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ ...CHAT, stream: true }), signal: controller.signal });
    const reader = r.body!.getReader();
    let first = "";
    while (!first.includes("Thinking")) first += new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^data: \{"id":"chatcmpl-/);
    controller.abort();
    await up.firstEarlyClose;
    expect(up.closedEarly()).toBe(1);
    await stillServing(url);
    const stats = (await (await fetch(`${url}/codecite/stats`)).json()) as { models: Record<string, { errors: number }> };
    // A client that left is not an upstream failure.
    expect(stats.models["qwen3:8b"]!.errors).toBe(0);
  });
});

/** {@link CHAT} typed for the official OpenAI client. */
const OPENAI_CHAT = { model: CHAT.model, messages: [{ role: "user" as const, content: "hi" }] };

/** A gateway in front of an OpenAI-compatible upstream at `origin` (its API under `/v1`). */
async function startOpenAIUpstream(origin: string): Promise<string> {
  const baseURL = `${origin}/v1`;
  gateway = createGateway({ upstream: { api: "openai", baseURL }, provider: new OpenAIProvider({ baseURL, timeoutMs: 10_000 }) });
  return `http://127.0.0.1:${(await gateway.listen(0, "127.0.0.1")).port}`;
}

/** One streamed OpenAI reply "Hello" whose usage chunk carries `usage` as raw JSON text. */
function openAIReplyWithUsage(res: http.ServerResponse, usage: string): void {
  const chunk = (rest: string) => `data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"qwen3:8b",${rest}}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write(chunk('"choices":[{"index":0,"delta":{"role":"assistant","content":"Hello"},"finish_reason":null}]'));
  res.write(chunk('"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]'));
  res.end(`${chunk(`"choices":[],"usage":${usage}`)}data: [DONE]\n\n`);
}

describe("serve: an OpenAI-compatible upstream's error bodies of other shapes", () => {
  it("an error body without an `error` member (vLLM's top-level message, FastAPI's detail, a text page) reaches the client with its reason, in each API's shape", async () => {
    const vllm = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.";
    const fastapi = JSON.stringify({ detail: [{ type: "extra_forbidden", loc: ["body", "logit_bias"], msg: "Extra inputs are not permitted" }] });
    const replies: [number, string, string][] = [
      [400, JSON.stringify({ object: "error", message: vllm, type: "BadRequestError", param: null, code: 400 }), vllm],
      [422, fastapi, fastapi],
      [400, "Bad Request: context overflow", "Bad Request: context overflow"],
    ];
    let reply = replies[0]!;
    const up = await rawUpstream((res) => {
      res.writeHead(reply[0], { "content-type": reply[1].startsWith("{") ? "application/json" : "text/plain" });
      res.end(reply[1]);
    });
    const url = await startOpenAIUpstream(up.host);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
    for (const r of replies) {
      reply = r;
      const [status, , reason] = r;
      const message = `upstream: ${up.host}/v1 answered HTTP ${status}: ${reason}`;
      const err = await client.chat.completions.create({ ...OPENAI_CHAT, stream: true }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect({ status: (err as InstanceType<typeof OpenAI.APIError>).status, message: (err as Error).message }).toEqual({ status, message: `${status} ${message}` });
      const o = await post(`${url}/api/chat`, JSON.stringify(CHAT));
      expect({ status: o.status, body: o.json }).toEqual({ status, body: { error: message } });
    }
    await stillServing(url);
  });
});

describe("serve: an OpenAI-compatible upstream that refuses stream_options", () => {
  /** Refusals of the field as servers word them: Azure OpenAI before 2024-09-01, and FastAPI with pydantic's extra fields forbidden. */
  const REFUSALS: [string, number, string][] = [
    ["azure", 400, JSON.stringify({ error: { message: "Unrecognized request argument supplied: stream_options", type: "invalid_request_error", param: null, code: null } })],
    ["fastapi", 422, JSON.stringify({ detail: [{ type: "extra_forbidden", loc: ["body", "stream_options"], msg: "Extra inputs are not permitted", input: { include_usage: true } }] })],
  ];

  it.each(REFUSALS)("%s: the chat is asked again without it, once, and later chats go without it; the client gets the answer without counts", async (_name, status, refusal) => {
    const asked: unknown[] = [];
    const up = await rawUpstream((res, body) => {
      asked.push(body.stream_options);
      if (body.stream_options !== undefined) {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(refusal);
        return;
      }
      openAIReplyWithUsage(res, "null");
    });
    const url = await startOpenAIUpstream(up.host);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    const stream = await client.chat.completions.create({ ...OPENAI_CHAT, stream: true, stream_options: { include_usage: true } });
    for await (const c of stream) chunks.push(c);
    expect({ text: chunks.map((c) => c.choices[0]?.delta.content ?? "").join(""), usages: chunks.map((c) => c.usage) }).toEqual({ text: "Hello", usages: [null, null] });
    expect(asked).toEqual([{ include_usage: true }, undefined]);
    const pieces: string[] = [];
    for await (const part of await new Ollama({ host: url }).chat({ ...CHAT, stream: true })) pieces.push(part.message.content);
    expect(pieces.join("")).toBe("Hello");
    expect(asked).toEqual([{ include_usage: true }, undefined, undefined]);
    await stillServing(url);
  });

  it("another 400 is not asked again: the client gets it", async () => {
    let asked = 0;
    const up = await rawUpstream((res) => {
      asked++;
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "messages: a user message is required", type: "invalid_request_error" } }));
    });
    const url = await startOpenAIUpstream(up.host);
    const o = await post(`${url}/api/chat`, JSON.stringify(CHAT));
    expect({ status: o.status, body: o.json, asked }).toEqual({ status: 400, body: { error: `upstream: ${up.host}/v1 answered HTTP 400: messages: a user message is required` }, asked: 1 });
  });
});

describe("serve: token counts an upstream gets wrong", () => {
  /** Counts that are no token counts (a string, negative, fractional, 1e400 which JSON reads as Infinity), as raw JSON text. */
  const BAD_COUNTS = ['"lots"', "-5", "1.5", "1e400"];

  it("an OpenAI-compatible upstream's usage of strings, negative, fractional or infinite counts reaches no client; a good count beside them does", async () => {
    let usage = "";
    const up = await rawUpstream((res) => openAIReplyWithUsage(res, usage));
    const url = await startOpenAIUpstream(up.host);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
    const ollamaClient = new Ollama({ host: url });
    for (const bad of BAD_COUNTS) {
      usage = `{"prompt_tokens":${bad},"completion_tokens":${bad},"total_tokens":${bad}}`;
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      const stream = await client.chat.completions.create({ ...OPENAI_CHAT, stream: true, stream_options: { include_usage: true } });
      for await (const c of stream) chunks.push(c);
      // No counts given: no usage chunk (none invented), every chunk has usage null.
      expect({ bad, text: chunks.map((c) => c.choices[0]?.delta.content ?? "").join(""), usages: chunks.map((c) => c.usage) }).toEqual({ bad, text: "Hello", usages: [null, null] });
      const body = await ollamaClient.chat({ ...CHAT, stream: false });
      expect({ bad, content: body.message.content, prompt: body.prompt_eval_count, completion: body.eval_count }).toEqual({ bad, content: "Hello", prompt: undefined, completion: undefined });
    }
    usage = '{"prompt_tokens":12,"completion_tokens":"7"}';
    const stream = await client.chat.completions.create({ ...OPENAI_CHAT, stream: true, stream_options: { include_usage: true } });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 12, completion_tokens: 0, total_tokens: 12 });
    await stillServing(url);
  });

  it("an Ollama upstream's prompt_eval_count and eval_count that are no counts reach no client", async () => {
    let counts = "";
    const up = await rawUpstream((res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(`${JSON.stringify({ model: "qwen3:8b", message: { role: "assistant", content: "Hello" }, done: false })}\n`);
      res.end(`{"model":"qwen3:8b","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop",${counts}}\n`);
    });
    const url = await start(up.host);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused", maxRetries: 0 });
    for (const bad of BAD_COUNTS) {
      counts = `"prompt_eval_count":${bad},"eval_count":${bad}`;
      const completion = await client.chat.completions.create({ ...OPENAI_CHAT });
      expect({ bad, content: completion.choices[0]!.message.content, usage: completion.usage }).toEqual({ bad, content: "Hello", usage: undefined });
      const r = await post(`${url}/api/chat`, JSON.stringify({ ...CHAT, stream: false }));
      expect({ bad, body: r.json }).toEqual({ bad, body: expect.not.objectContaining({ prompt_eval_count: expect.anything(), eval_count: expect.anything() }) as unknown });
      expect((r.json as { message: { content: string } }).message.content).toBe("Hello");
    }
    await stillServing(url);
  });
});

describe("serve: an upstream whose model list never ends", () => {
  it("/api/tags is 502 after 16 MiB of it (the gateway's memory is not filled), the upstream connection is closed, and the gateway keeps serving", async () => {
    const piece = `{"models":[${'{"name":"m:1"},'.repeat(4000)}`;
    const up = await rawUpstream((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const pump = () => {
        while (!res.destroyed && res.write(piece));
      };
      res.on("drain", pump);
      pump();
    });
    const url = await start(up.host);
    const r = await fetch(`${url}/api/tags`);
    expect(r.status).toBe(502);
    expect(((await r.json()) as { error: string }).error).toBe("upstream's reply to /api/tags is longer than 16777216 bytes");
    await up.firstEarlyClose;
    expect(up.closedEarly()).toBe(1);
    await stillServing(url);
  });
});
