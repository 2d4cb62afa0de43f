/** `codecite serve` as a process (the built CLI): start-up line, a forwarded request, refusals. */
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { RAG_APP, runCli } from "../cli/run-cli.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { closedPort } from "../helpers/closed-port.js";
import { startServe } from "../helpers/serve-process.js";

let ollama: FakeOllama | undefined;
afterEach(async () => {
  await ollama?.close();
  ollama = undefined;
});

describe("codecite serve (CLI)", () => {
  it("listens on loopback, lists the codecite model, stops on SIGTERM", async () => {
    ollama = await startFakeOllama();
    const { url, stderr, stop } = await startServe(["--upstream", ollama.host, "--root", RAG_APP]);
    expect(stderr()).toContain(`upstream ollama at ${ollama.host}`);
    const tags = (await (await fetch(`${url}/api/tags`)).json()) as { models: Array<{ name: string }> };
    expect(tags.models.map((m) => m.name)).toEqual(["qwen3:8b", "codecite", "codecite/qwen3:8b"]);
    // A web page of another site (its name rebound to 127.0.0.1) is refused; the upstream never sees it.
    const rebound = await new Promise<number>((resolve, reject) => {
      const port = Number(new URL(url).port);
      const req = http.request({ host: "127.0.0.1", port, path: "/api/tags", headers: { host: `attacker.example:${port}` }, setHost: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(rebound).toBe(403);
    expect(ollama.requests.filter((r) => r.path === "/api/tags")).toHaveLength(1);
    expect(await stop()).toBe(0);
    // One log line per request, without content.
    expect(stderr()).toMatch(/GET \/api\/tags 200 \d+ ms/);
  });

  it("upstream down: the log line says why the request failed (the client's 502 body is not all the operator can see)", async () => {
    const upstream = `http://127.0.0.1:${await closedPort()}`;
    const { url, stderr, stop } = await startServe(["--upstream", upstream, "--root", RAG_APP]);
    expect((await fetch(`${url}/api/tags`)).status).toBe(502);
    expect((await fetch(`${url}/codecite/stats`)).status).toBe(200);
    expect(await stop()).toBe(0);
    expect(stderr().replace(/ \d+ ms/g, " N ms")).toContain(
      `GET /api/tags 502 N ms: upstream: cannot reach Ollama at ${upstream} (ECONNREFUSED); start Ollama (\`ollama serve\`), or point codecite serve's --upstream (or OLLAMA_HOST) at the running server\n`,
    );
    expect(stderr()).toMatch(/GET \/codecite\/stats 200 \d+ ms\n/);
  });

  it("upstream down: a chat's log line says why it failed, for the codecite model and for a model through the shim", async () => {
    const upstream = `http://127.0.0.1:${await closedPort()}`;
    const { url, stderr, stop } = await startServe(["--upstream", upstream, "--root", RAG_APP]);
    const chat = (path: string, model: string) =>
      fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model, messages: [{ role: "user", content: "where is login handled?" }] }) });
    expect((await chat("/api/chat", "codecite")).status).toBe(502);
    expect((await chat("/v1/chat/completions", "qwen3:8b")).status).toBe(502);
    expect(await stop()).toBe(0);
    const reason = `upstream: cannot reach Ollama at ${upstream} (ECONNREFUSED); start Ollama (\`ollama serve\`), or point codecite serve's --upstream (or OLLAMA_HOST) at the running server\n`;
    const log = stderr().replace(/ \d+ ms/g, " N ms");
    expect(log).toContain(`POST /api/chat 502 N ms: ${reason}`);
    expect(log).toContain(`POST /v1/chat/completions 502 N ms: ${reason}`);
  });

  it("an upstream address with credentials: the start-up line shows ***@ and forwarded routes still work", async () => {
    ollama = await startFakeOllama();
    const { url, stderr, stop } = await startServe(["--upstream", ollama.host.replace("http://", "http://alice:S3CRETPW@"), "--root", RAG_APP]);
    expect(stderr()).toContain(`upstream ollama at ${ollama.host.replace("http://", "http://***@")}`);
    expect((await fetch(`${url}/api/version`)).status).toBe(200);
    expect(await stop()).toBe(0);
    expect(stderr()).not.toContain("S3CRETPW");
  });

  it("--verbose logs request bodies with control characters escaped: a client cannot write to the terminal (OSC 52, clear screen)", async () => {
    ollama = await startFakeOllama();
    const { url, stderr, stop } = await startServe(["--verbose", "--upstream", ollama.host, "--root", RAG_APP]);
    const r = await fetch(`${url}/api/chat`, { method: "POST", body: "hi \x1b]52;c;cm0gLXJmIH4K\x07 \x1b[2J\nfake line", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(await stop()).toBe(0);
    expect(stderr()).toContain("request /api/chat: hi \\x1b]52;c;cm0gLXJmIH4K\\x07 \\x1b[2J\\nfake line");
    expect(stderr()).not.toMatch(/[\x07\x1b]/);
  });

  it("refuses a non-loopback listen address without a token (exit 2)", async () => {
    const r = await runCli(["serve", "--listen", "0.0.0.0", "--port", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid --listen="0.0.0.0" (listening beyond this machine needs a token)');
  });
});
