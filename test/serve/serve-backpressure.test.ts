/**
 * A client of `codecite serve` that reads its streamed reply slower than the model writes it, over
 * real sockets: the gateway pauses the upstream's reply while the client's socket is full
 * (`wire.ts` `clientBacklog`, `http-lines.ts` `backpressure`), so the bytes it holds stay bounded
 * and every byte reaches the client in order; a client that takes nothing for `clientIdleMs` is
 * cut off and the upstream request ended.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { OpenAIProvider } from "../../src/llm/openai.js";
import { createGateway, type Gateway } from "../../src/serve/index.js";

/** One streamed line's content: its number, then words (about 4 KiB). */
const piece = (i: number): string => `piece ${String(i).padStart(6, "0")} ${"lorem ipsum dolor sit amet ".repeat(150)}\n`;

interface Upstream {
  host: string;
  /** Resolves when the reply's connection has closed (`complete`: every line and the last one were written). */
  closed: Promise<{ complete: boolean }>;
  close(): Promise<void>;
}

type Api = "ollama" | "openai";

/** The upstream's stream piece with content `text` (`undefined`: the last piece), in the wire format of `api`. */
function wirePiece(api: Api, text: string | undefined): string {
  if (api === "ollama") {
    const part = text === undefined ? { done: true, done_reason: "stop" } : { done: false };
    return `${JSON.stringify({ model: "m", message: { role: "assistant", content: text ?? "" }, ...part })}\n`;
  }
  // OpenAI chat completion chunks as server-sent events (OpenAI API reference, "The chat completion chunk object").
  const choice = text === undefined ? { index: 0, delta: {}, finish_reason: "stop" } : { index: 0, delta: { content: text }, finish_reason: null };
  const event = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "m", choices: [choice] })}\n\n`;
  return text === undefined ? `${event}data: [DONE]\n\n` : event;
}

/**
 * An upstream (Ollama or OpenAI-compatible, `api`) whose chat streams `lines` content pieces
 * (`piece(i)`, endless when `lines` is Infinity) then a last piece, as fast as its socket takes
 * them: it writes until `write` returns false and goes on at 'drain' (Node.js documentation,
 * `writable.write`), so it writes only what the gateway reads. `probe` runs after every piece.
 */
async function upstream(lines: number, probe: () => void, api: Api = "ollama"): Promise<Upstream> {
  let onClosed!: (v: { complete: boolean }) => void;
  const closed = new Promise<{ complete: boolean }>((r) => (onClosed = r));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": api === "ollama" ? "application/x-ndjson" : "text/event-stream" });
      let i = 0;
      let complete = false;
      res.on("close", () => onClosed({ complete }));
      const more = (): void => {
        while (!res.destroyed) {
          if (i === lines) {
            res.end(wirePiece(api, undefined));
            complete = true;
            return;
          }
          const room = res.write(wirePiece(api, piece(i++)));
          probe();
          if (!room) {
            res.once("drain", more);
            return;
          }
        }
      };
      more();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    host: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    closed,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let gateway: Gateway | undefined;
let up: Upstream | undefined;
afterEach(async () => {
  await gateway?.close();
  await up?.close();
  gateway = up = undefined;
});

/** Starts the gateway in front of `up` (speaking `api` to it); `held()` is the most bytes its client sockets held unsent at any probe. */
async function startGateway(opts: { clientIdleMs?: number; api?: Api } = {}): Promise<{ port: number; probe(): void; held(): number }> {
  const host = up!.host;
  const timeoutMs = 120_000;
  gateway = createGateway({
    ...(opts.api === "openai"
      ? { upstream: { api: "openai", baseURL: `${host}/v1` }, provider: new OpenAIProvider({ baseURL: `${host}/v1`, timeoutMs }) }
      : { upstream: { api: "ollama", host }, provider: new OllamaProvider({ host, timeoutMs }) }),
    ...(opts.clientIdleMs !== undefined ? { clientIdleMs: opts.clientIdleMs } : {}),
  });
  const sockets: net.Socket[] = [];
  gateway.server.on("connection", (s: net.Socket) => sockets.push(s));
  let held = 0;
  const port = (await gateway.listen(0, "127.0.0.1")).port;
  return {
    port,
    probe: () => {
      for (const s of sockets) held = Math.max(held, s.writableLength);
    },
    held: () => held,
  };
}

/**
 * Checks that `raw` (a whole HTTP/1.1 response to {@link request}) is status 200 with the lines of
 * `lines` pieces in order and a last line `done` with `done_reason` `stop`.
 */
function expectWholeReply(raw: string, lines: number): void {
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  expect(raw.startsWith("HTTP/1.1 200 OK")).toBe(true);
  // The chunked body's data (all ASCII: a size in bytes is one in characters), then its NDJSON lines.
  let data = "";
  for (let at = 0, size = -1; size !== 0; ) {
    const eol = body.indexOf("\r\n", at);
    size = parseInt(body.slice(at, eol), 16);
    data += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
  const parsed = data.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { message: { content: string }; done: boolean; done_reason?: string; error?: string });
  expect(parsed.filter((l) => l.error !== undefined)).toEqual([]);
  expect(parsed.at(-1)).toMatchObject({ done: true, done_reason: "stop" });
  const content = parsed.map((l) => l.message.content).join("");
  // The shim ends a turn's text without its trailing white space (here the last line's " \n").
  const expected = Array.from({ length: lines }, (_, i) => piece(i)).join("").trimEnd();
  expect(content.length).toBe(expected.length);
  expect(content === expected).toBe(true);
}

const CHAT = JSON.stringify({ model: "m", messages: [{ role: "user", content: "write a lot" }], stream: true });
const request = (port: number) => `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: ${CHAT.length}\r\nConnection: close\r\n\r\n${CHAT}`;

describe("serve: a client that reads its streamed reply slowly", () => {
  it("gets every byte in order while the gateway holds little: the upstream's reply waits for the client", async () => {
    // 4,000 lines of ~4 KiB: 16 MiB of content, more than the kernel's buffers of the two sockets
    // take while the client reads nothing (tcp_rmem's default 128 KiB does not grow before the
    // application reads; tcp_wmem's maximum is 4 MiB). Before, the gateway read the upstream as
    // fast as it wrote and queued on the client's socket whatever the client had not taken: megabytes.
    const LINES = 4000;
    let probe = (): void => undefined;
    up = await upstream(LINES, () => probe());
    const gw = await startGateway();
    probe = gw.probe;
    const raw = await new Promise<string>((resolve, reject) => {
      const parts: Buffer[] = [];
      const s = net.connect(gw.port, "127.0.0.1", () => s.write(request(gw.port)));
      s.pause();
      let ended = false;
      s.on("end", () => (ended = true));
      s.on("error", reject);
      s.on("close", () => resolve(Buffer.concat(parts).toString("utf8")));
      // A slow reader: nothing until the gateway holds bytes for it (so that the kernel's buffers
      // are full and the gateway must wait, whatever the machine's load; at most 10 s), then at
      // most 64 KiB every millisecond (the upstream writes faster).
      const waitUntil = Date.now() + 10_000;
      const step = (): void => {
        gw.probe();
        const reading = gw.held() > 0 || Date.now() > waitUntil;
        for (let taken = 0, d: Buffer | null; reading && taken < 64 * 1024 && (d = s.read() as Buffer | null) !== null; taken += d.length) parts.push(d);
        if (!ended) setTimeout(step, 1);
        else s.resume();
      };
      step();
    });
    expect(await up.closed).toEqual({ complete: true });
    expectWholeReply(raw, LINES);
    // Held at once by the gateway for its client: at most one read of the upstream (64 KiB of
    // lines) beyond the socket's high-water mark (16 KiB); before, megabytes (1.6 MB in a run of 1,500 lines).
    expect(gw.held()).toBeGreaterThan(0);
    expect(gw.held()).toBeLessThan(256 * 1024);
  });

  it.each(["ollama", "openai"] as const)("is cut off when it takes nothing for clientIdleMs, and the upstream request ends (no 16 MiB held first; %s upstream)", async (api) => {
    let probe = (): void => undefined;
    up = await upstream(Infinity, () => probe(), api);
    const gw = await startGateway({ clientIdleMs: 300, api });
    probe = gw.probe;
    const s = net.connect(gw.port, "127.0.0.1", () => s.write(request(gw.port)));
    s.pause();
    s.on("error", () => undefined);
    const gone = new Promise<void>((r) => s.on("close", () => r()));
    // The gateway closes the client's connection and with it the upstream request.
    expect(await up.closed).toEqual({ complete: false });
    s.resume();
    await gone;
    // Held by the gateway: at most what the socket's high-water mark lets through; before, 16 MiB
    // when it cut the client off (the upstream had written 23.5 MB; here about 10 MB, the two
    // connections' kernel buffers).
    expect(gw.held()).toBeLessThan(256 * 1024);
  });
});
