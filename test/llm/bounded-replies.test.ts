/**
 * A model server whose model list, model description, version or (unstreamed) chat reply never
 * ends must not fill the memory of `ask`, `chat`, `eval`, `doctor` or `codecite serve`: the
 * clients read whole replies, so the providers give them `boundedFetch`, which ends such a reply
 * with ProviderError `BAD_RESPONSE` and closes the connection; an endless error body is cut and
 * quoted. Real HTTP servers that write until the client goes; sizes are bytes, never times.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { boundedFetch, MAX_ERROR_BODY_BYTES, MAX_METADATA_REPLY_BYTES } from "../../src/llm/bounded-fetch.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { OpenAIProvider } from "../../src/llm/openai.js";
import { ProviderError } from "../../src/llm/types.js";
import { runCli } from "../cli/run-cli.js";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

interface Endless {
  origin: string;
  /** Bytes written to each request (by path) when its client closed the connection. */
  closed: Map<string, Promise<number>>;
  paths: string[];
}

/**
 * A server that answers every request with status `status`, content type `type`, then `head`
 * followed by `piece` again and again until the client goes.
 */
async function endless(head: string, piece: string, status = 200, type = "application/json"): Promise<Endless> {
  const closed = new Map<string, Promise<number>>();
  const paths: string[] = [];
  server = http.createServer((req, res) => {
    req.resume();
    const path = new URL(req.url ?? "/", "http://x").pathname;
    paths.push(path);
    let onClosed!: (sent: number) => void;
    closed.set(path, new Promise<number>((resolve) => (onClosed = resolve)));
    res.writeHead(status, { "content-type": type });
    let sent = head.length;
    res.write(head);
    const pump = () => {
      while (!res.destroyed) {
        sent += piece.length;
        if (!res.write(piece)) return;
      }
    };
    res.on("drain", pump);
    res.on("close", () => onClosed(sent));
    pump();
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed, paths };
}

const MODEL = `{"name":"m:1","model":"m:1","size":1},`;
const tooLong = (origin: string, max = MAX_METADATA_REPLY_BYTES) => `the server at ${origin} sent a reply longer than ${max} bytes`;

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe("Ollama replies read whole by the client", () => {
  it("GET /api/tags without end: BAD_RESPONSE after 16 MiB, and the connection is closed", async () => {
    const s = await endless(`{"models":[`, MODEL.repeat(1000));
    const err = await failure(new OllamaProvider({ host: s.origin }).listModels());
    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toBe(tooLong(s.origin));
    const sent = await s.closed.get("/api/tags")!;
    expect(sent).toBeGreaterThan(MAX_METADATA_REPLY_BYTES);
    expect(sent).toBeLessThan(4 * MAX_METADATA_REPLY_BYTES); // it stopped reading, not at the time limit
  });

  it("POST /api/show without end (a license that never stops): BAD_RESPONSE, connection closed", async () => {
    const s = await endless(`{"license":"`, "MIT ".repeat(16_384));
    const err = await failure(new OllamaProvider({ host: s.origin }).describeModel("m:1"));
    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toBe(tooLong(s.origin));
    expect(await s.closed.get("/api/show")!).toBeLessThan(4 * MAX_METADATA_REPLY_BYTES);
  });

  it("GET /api/version without end: BAD_RESPONSE", async () => {
    const s = await endless(`{"version":"`, "9".repeat(65_536));
    const err = await failure(new OllamaProvider({ host: s.origin }).version());
    expect(err.message).toBe(tooLong(s.origin));
  });

  it("an error reply without end is cut after 64 KiB and quoted: HTTP 500 with the body's start", async () => {
    const s = await endless("boom ", "x".repeat(65_536), 500, "text/plain");
    const err = await failure(new OllamaProvider({ host: s.origin }).listModels());
    expect(err.code).toBe("HTTP");
    expect(err.status).toBe(500);
    expect(err.message).toBe(`Ollama at ${s.origin} answered HTTP 500: boom ${"x".repeat(295)}`);
    const sent = await s.closed.get("/api/tags")!;
    expect(sent).toBeGreaterThan(MAX_ERROR_BODY_BYTES);
  });
});

describe("OpenAI-compatible replies read whole by the client", () => {
  it("GET /models without end: BAD_RESPONSE after 16 MiB", async () => {
    const s = await endless(`{"object":"list","data":[`, `{"id":"m","object":"model"},`.repeat(1000));
    const p = new OpenAIProvider({ baseURL: `${s.origin}/v1` });
    const err = await failure(p.listModels());
    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toBe(tooLong(s.origin));
    expect(s.paths).toEqual(["/v1/models"]); // no retry
    expect(await s.closed.get("/v1/models")!).toBeLessThan(4 * MAX_METADATA_REPLY_BYTES);
  });

  it("an unstreamed chat reply without end: BAD_RESPONSE past the chat limit (256 MiB; 1 MiB here)", async () => {
    const s = await endless(`{"choices":[{"message":{"role":"assistant","content":"`, "a".repeat(65_536));
    const f = boundedFetch((input, init) => fetch(input, init), { chat: 1 << 20 });
    const res = await f(`${s.origin}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${s.origin}/v1/chat/completions`);
    const err = await res.json().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toBe(tooLong(s.origin, 1 << 20));
    const sent = await s.closed.get("/v1/chat/completions")!;
    expect(sent).toBeGreaterThan(1 << 20);
    expect(sent).toBeLessThan(64 << 20);
  });
});

describe("replies under the limits", () => {
  it("are passed on whole, byte for byte, with their status and headers", async () => {
    const body = JSON.stringify({ models: Array.from({ length: 3000 }, (_, i) => ({ name: `m${i}:1`, model: `m${i}:1` })) });
    server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json", "x-probe": "1" });
      res.end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const names = await new OllamaProvider({ host: origin }).listModels();
    expect(names).toHaveLength(3000);
    expect(names[2999]).toBe("m2999:1");
    const f = boundedFetch((input, init) => fetch(input, init), { metadata: body.length });
    const res = await f(new URL(`${origin}/api/tags`));
    expect(res.headers.get("x-probe")).toBe("1");
    expect(await res.text()).toBe(body);
    const short = await boundedFetch((input, init) => fetch(input, init), { metadata: body.length - 1 })(`${origin}/api/tags`);
    expect(((await short.text().catch((e: unknown) => e)) as Error).message).toBe(tooLong(origin, body.length - 1));
  });
});

describe("the CLI", () => {
  it("`ask` without --model against a server whose model list never ends: a typed error, exit 1, no crash", async () => {
    const s = await endless(`{"models":[`, MODEL.repeat(1000));
    const r = await runCli(["ask", "where is main?", "--root", "."], { env: { OLLAMA_HOST: s.origin } });
    expect(r.stderr).toContain(tooLong(s.origin));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
  });
});
