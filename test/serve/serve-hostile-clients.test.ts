/**
 * Hostile clients of `codecite serve`, over real HTTP and raw TCP:
 * - a web page of another site (DNS rebinding: its name now resolves to 127.0.0.1, so the browser
 *   sends `Host: attacker.example`; or a cross-site POST with `Origin: http://attacker.example`)
 *   must not reach the gateway's models or the `codecite` model's view of the repository;
 * - a client that connects and sends nothing, or sends a body one byte at a time, must not hold a
 *   socket forever (slowloris).
 */
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { createGateway, type Gateway } from "../../src/serve/index.js";
import type { GatewayOptions } from "../../src/serve/server.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

let ollama: FakeOllama | undefined;
let gateway: Gateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await ollama?.close();
  gateway = ollama = undefined;
});

async function start(opts: Partial<GatewayOptions> = {}): Promise<number> {
  ollama = await startFakeOllama();
  const host = ollama.host;
  gateway = createGateway({ upstream: { api: "ollama", host }, provider: new OllamaProvider({ host, timeoutMs: 10_000 }), ...opts });
  return (await gateway.listen(0, "127.0.0.1")).port;
}

interface Reply {
  status: number;
  body: string;
}

/** One request with exactly these headers (node:http sends `Host` as given). */
function request(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, setHost: false }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const CHAT = JSON.stringify({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], stream: false });

describe("serve: requests from another site's web page", () => {
  it("a Host that is not this machine's loopback name (DNS rebinding) is refused with 403, on every route and in each API's shape", async () => {
    const port = await start();
    for (const host of [`attacker.example:${port}`, "attacker.example", `127.0.0.1.attacker.example:${port}`, `localhost.attacker.example:${port}`, `[::2]:${port}`, `10.0.0.5:${port}`]) {
      const stats = await request(port, "GET", "/codecite/stats", { host });
      expect(stats.status, host).toBe(403);
      expect(JSON.parse(stats.body)).toEqual({ error: `requests for host ${JSON.stringify(host)} are refused: without a token, codecite serve answers only requests addressed to this machine's loopback (localhost, 127.0.0.1, [::1])` });
      const chat = await request(port, "POST", "/api/chat", { host, "content-type": "text/plain" }, CHAT);
      expect(chat.status, host).toBe(403);
      const openai = await request(port, "POST", "/v1/chat/completions", { host, "content-type": "application/json" }, CHAT);
      expect(openai.status, host).toBe(403);
      expect(JSON.parse(openai.body)).toMatchObject({ error: { type: "permission_error" } });
    }
    expect(ollama!.chatRequests()).toHaveLength(0);
    expect(ollama!.requests.filter((r) => r.path === "/api/tags")).toHaveLength(0);
  });

  it("an Origin of another site is refused with 403 even with a loopback Host (a cross-site form or no-cors POST)", async () => {
    const port = await start();
    for (const origin of ["http://attacker.example", "https://attacker.example:8443", "null", "file://", `http://127.0.0.1.attacker.example:${port}`, "http://localhost.attacker.example"]) {
      const r = await request(port, "POST", "/api/chat", { host: `127.0.0.1:${port}`, origin, "content-type": "text/plain" }, CHAT);
      expect(r.status, origin).toBe(403);
      expect(JSON.parse(r.body)).toEqual({ error: `requests from the web page ${JSON.stringify(origin)} are refused: without a token, codecite serve answers only pages served from this machine's loopback` });
    }
    expect(ollama!.chatRequests()).toHaveLength(0);
  });

  it("loopback names, loopback pages and editor webviews are served", async () => {
    const port = await start();
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `app.localhost:${port}`, `[::1]:${port}`, `127.0.0.2:${port}`, `0.0.0.0:${port}`, "localhost"];
    for (const host of hosts) expect((await request(port, "GET", "/api/tags", { host })).status, host).toBe(200);
    ollama!.enqueue({ content: "hello", repeat: true });
    for (const origin of [`http://localhost:${port}`, "http://127.0.0.1:3000", "https://localhost", "http://[::1]:8080", "vscode-webview://1234abcd"]) {
      const r = await request(port, "POST", "/api/chat", { host: `localhost:${port}`, origin, "content-type": "application/json" }, CHAT);
      expect(r.status, origin).toBe(200);
    }
    // HTTP/1.0 clients may send no Host at all.
    const raw = await rawExchange(port, "GET /api/version HTTP/1.0\r\n\r\n");
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("with a token, the token is the guard: any Host and Origin with the right token is served, none without it", async () => {
    const port = await start({ token: "0123456789abcdef-token" });
    const good = await request(port, "GET", "/api/tags", { host: "gpu-box.lan:11435", origin: "https://chat.example", authorization: "Bearer 0123456789abcdef-token" });
    expect(good.status).toBe(200);
    const bad = await request(port, "GET", "/api/tags", { host: "gpu-box.lan:11435", origin: "https://chat.example" });
    expect(bad.status).toBe(401);
  });
});

/** Writes `text` on a fresh connection and returns everything read until the server closes it. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = net.connect(port, "127.0.0.1", () => c.write(text));
    let got = "";
    c.setEncoding("utf8").on("data", (d: string) => (got += d));
    c.on("close", () => resolve(got));
    c.on("error", reject);
  });
}

describe("serve: slow and idle clients", () => {
  it("a connection that sends nothing is closed after the idle limit, and the gateway keeps serving", async () => {
    const port = await start({ clientIdleMs: 300 });
    const closed = await new Promise<string>((resolve) => {
      const c = net.connect(port, "127.0.0.1");
      let got = "";
      c.setEncoding("utf8").on("data", (d: string) => (got += d));
      c.on("close", () => resolve(got));
    });
    // Closed silently (the idle limit) or with a 408 (Node's header clock, when its check comes first).
    expect(closed).toMatch(/^(HTTP\/1\.1 408 Request Timeout\r\n[^]*)?$/);
    expect((await request(port, "GET", "/api/version", { host: `127.0.0.1:${port}` })).status).toBe(200);
  });

  it("a body sent one byte at a time ends in 408 at the request time limit, and never reaches the upstream", async () => {
    const port = await start({ requestTimeoutMs: 500 });
    const got = await new Promise<string>((resolve) => {
      const c = net.connect(port, "127.0.0.1", () => {
        c.write(`POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${CHAT.length}\r\n\r\n`);
        let i = 0;
        const timer = setInterval(() => {
          if (i < CHAT.length - 1 && !c.destroyed) c.write(CHAT[i++]!);
        }, 50);
        let text = "";
        c.setEncoding("utf8").on("data", (d: string) => (text += d));
        c.on("close", () => {
          clearInterval(timer);
          resolve(text);
        });
      });
    });
    expect(got).toMatch(/^HTTP\/1\.1 408 /);
    expect(ollama!.chatRequests()).toHaveLength(0);
    expect((await request(port, "GET", "/api/version", { host: `127.0.0.1:${port}` })).status).toBe(200);
  });

  it("a model that takes longer than the request time limit and the idle limit to answer is not cut (the limits are on receiving the request)", async () => {
    const port = await start({ requestTimeoutMs: 300, clientIdleMs: 300 });
    ollama!.enqueue({ content: "part0 part1 part2 part3 part4 part5 part6 part7 ", chunkSize: 6, delayMs: 1200 });
    const r = await request(port, "POST", "/api/chat", { host: `127.0.0.1:${port}`, "content-type": "application/json" }, JSON.stringify({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }] }));
    expect(r.status).toBe(200);
    const lines = r.body.trim().split("\n").map((l) => JSON.parse(l) as { message?: { content?: string }; done?: boolean });
    expect(lines.map((l) => l.message?.content ?? "").join("")).toBe("part0 part1 part2 part3 part4 part5 part6 part7");
    expect(lines.at(-1)?.done).toBe(true);
  });
});
