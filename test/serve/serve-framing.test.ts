/**
 * `codecite serve` against hostile HTTP framing and a client that never reads, over raw TCP
 * (`net.connect`): malformed chunk sizes, `Content-Length` with `Transfer-Encoding`, two
 * `Content-Length`s, a chunked body over the cap, `Expect: 100-continue`, HTTP/1.0, pipelined
 * requests; each ends in a clear status and the gateway keeps serving. A client that stops
 * reading a streamed reply is cut off after `MAX_UNREAD_REPLY_BYTES` and its upstream request
 * cancelled, so the gateway's memory stays bounded.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatOptions, ChatRequest, ChatTurn, Provider } from "../../src/llm/types.js";
import { createGateway, type Gateway } from "../../src/serve/index.js";
import { MAX_UNREAD_REPLY_BYTES } from "../../src/serve/wire.js";

let gateway: Gateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

/** A provider whose chat streams `piece` until its signal aborts or `limit` bytes were sent. */
function streamingProvider(piece: string, limit: number): Provider & { sent: number; aborted: boolean; done: Promise<void> } {
  let finished!: () => void;
  const p = {
    id: "ollama",
    location: "stub",
    sent: 0,
    aborted: false,
    done: new Promise<void>((r) => (finished = r)),
    async chat(_req: ChatRequest, opts?: ChatOptions): Promise<ChatTurn> {
      try {
        while (p.sent < limit) {
          if (opts?.signal?.aborted) {
            p.aborted = true;
            throw new Error("aborted");
          }
          opts?.onContent?.(piece);
          p.sent += piece.length;
          await new Promise((r) => setImmediate(r));
        }
        return { content: "", tool_calls: [], done_reason: "stop" };
      } finally {
        finished();
      }
    },
  };
  return p;
}

async function start(provider: Provider, maxBodyBytes?: number): Promise<number> {
  gateway = createGateway({ upstream: { api: "ollama", host: "http://127.0.0.1:9" }, provider, ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}) });
  return (await gateway.listen(0, "127.0.0.1")).port;
}

/** Sends `text` on a fresh connection and collects what comes back until the server closes or `until` matches. */
function exchange(port: number, text: string | Buffer, until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1", () => s.write(text));
    let got = "";
    s.setEncoding("latin1");
    s.on("data", (d: string) => {
      got += d;
      if (until?.test(got)) {
        s.destroy();
        resolve(got);
      }
    });
    s.on("error", (e: NodeJS.ErrnoException) => (e.code === "ECONNRESET" ? resolve(got) : reject(e)));
    s.on("close", () => resolve(got));
  });
}

/** Sends the request `head`, then `body` only once the reply begins with `100 Continue` (as a client that sent `Expect: 100-continue`); all that came back. */
function afterContinue(port: number, head: string, body: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1", () => s.write(head));
    let got = "";
    s.setEncoding("latin1").on("data", (d: string) => {
      if (got === "" && d.startsWith("HTTP/1.1 100 Continue")) s.write(body);
      got += d;
    });
    s.on("close", () => resolve(got));
  });
}

const statusLines = (reply: string) => reply.match(/^HTTP\/1\.[01] \d{3}[^\r]*/gm) ?? [];
const CHAT = JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], stream: false });

describe("serve: HTTP framing", () => {
  it("a bad chunk size, Content-Length with Transfer-Encoding, two Content-Lengths, an HTTP/2 preface: 400 and the connection closed; the gateway still answers", async () => {
    const port = await start(streamingProvider("x", 1));
    const host = `Host: 127.0.0.1:${port}`;
    for (const bad of [
      `POST /api/chat HTTP/1.1\r\n${host}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${CHAT}\r\n0\r\n\r\n`,
      `POST /api/chat HTTP/1.1\r\n${host}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(CHAT).toString(16)}\r\n${CHAT}\r\n0\r\n\r\n`,
      `POST /api/chat HTTP/1.1\r\n${host}\r\nContent-Length: ${CHAT.length}\r\nContent-Length: ${CHAT.length + 1}\r\n\r\n${CHAT}`,
      `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`,
    ]) {
      expect(statusLines(await exchange(port, bad)), bad.slice(0, 60)).toEqual(["HTTP/1.1 400 Bad Request"]);
    }
    const ok = await exchange(port, `GET /codecite/stats HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`);
    expect(statusLines(ok)).toEqual(["HTTP/1.1 200 OK"]);
    expect(ok).toContain("\"models\":{}");
  });

  it("a chunked body over the cap is 413 with the connection closed, though no Content-Length announced it", async () => {
    const port = await start(streamingProvider("x", 1), 1024);
    const chunk = "a".repeat(600);
    const reply = await exchange(port, `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nTransfer-Encoding: chunked\r\n\r\n${`258\r\n${chunk}\r\n`.repeat(4)}0\r\n\r\n`);
    expect(statusLines(reply)).toEqual(["HTTP/1.1 413 Payload Too Large"]);
    expect(reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(reply).toContain('{"error":"request body over 1024 bytes"}');
  });

  it("Expect: 100-continue with a declared body over the cap: 413 in the client API's shape and no 100 Continue, so the body is never sent", async () => {
    const port = await start(streamingProvider("hello", 5), 1024);
    const host = `Host: 127.0.0.1:${port}`;
    for (const [path, error] of [
      ["/api/chat", '{"error":"request body over 1024 bytes"}'],
      ["/v1/chat/completions", '{"error":{"message":"request body over 1024 bytes","type":"invalid_request_error","param":null,"code":null}}'],
    ] as const) {
      // The client waits for the 100 before sending its body: a gateway that answered 100 would
      // get 5,000 bytes here, and this reply would hold "100 Continue" first.
      const reply = await exchange(port, `POST ${path} HTTP/1.1\r\n${host}\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n`);
      expect(statusLines(reply), path).toEqual(["HTTP/1.1 413 Payload Too Large"]);
      expect(reply).toMatch(/\r\nconnection: close\r\n/i);
      expect(reply).toContain(`\r\n\r\n${error.length.toString(16)}\r\n${error}\r\n0\r\n\r\n`);
    }
    // A request refused before its body is read (no such route) gets no 100 either.
    const nope = await exchange(port, `POST /nope HTTP/1.1\r\n${host}\r\nExpect: 100-continue\r\nContent-Length: 10\r\nConnection: close\r\n\r\n`);
    expect(statusLines(nope)).toEqual(["HTTP/1.1 404 Not Found"]);
    // Within the cap: 100, then the answer.
    const ok = await afterContinue(port, `POST /api/chat HTTP/1.1\r\n${host}\r\nExpect: 100-continue\r\nContent-Length: ${CHAT.length}\r\nConnection: close\r\n\r\n`, CHAT);
    expect(statusLines(ok)).toEqual(["HTTP/1.1 100 Continue", "HTTP/1.1 200 OK"]);
    expect(ok).toContain('"content":"hello"');
  });

  it("Expect: 100-continue gets 100 then the answer; HTTP/1.0 is answered and closed; three pipelined requests are answered in order", async () => {
    const port = await start(streamingProvider("hello", 5));
    const host = `Host: 127.0.0.1:${port}`;
    const expect100 = await afterContinue(port, `POST /api/chat HTTP/1.1\r\n${host}\r\nExpect: 100-continue\r\nContent-Length: ${CHAT.length}\r\nConnection: close\r\n\r\n`, CHAT);
    expect(statusLines(expect100)).toEqual(["HTTP/1.1 100 Continue", "HTTP/1.1 200 OK"]);
    expect(expect100, expect100).toContain("\"content\":\"hello\"");

    const old = await exchange(port, `GET /codecite/stats HTTP/1.0\r\n${host}\r\n\r\n`);
    expect(statusLines(old)).toEqual(["HTTP/1.1 200 OK"]);
    expect(old).toMatch(/\r\nConnection: close\r\n/i);

    const three = await exchange(
      port,
      `GET / HTTP/1.1\r\n${host}\r\n\r\nGET /nope HTTP/1.1\r\n${host}\r\n\r\nPOST /api/chat HTTP/1.1\r\n${host}\r\nContent-Length: ${CHAT.length}\r\nConnection: close\r\n\r\n${CHAT}`,
    );
    expect(statusLines(three)).toEqual(["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK"]);
    expect(three.indexOf("codecite serve is running")).toBeLessThan(three.indexOf("no route /nope"));
    expect(three).toContain("\"done_reason\":\"stop\"");
  });
});

describe("serve: a client that asks to close the connection", () => {
  it("gets 'Connection: close' with a streamed OpenAI reply and the connection closed after it (RFC 9112 §9.6), over HTTP/1.1 and HTTP/1.0", async () => {
    // The OpenAI writer's head once said `connection: keep-alive` whatever the client asked: the
    // connection then stayed open for the keep-alive timeout after the reply.
    const body = JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] });
    for (const version of ["1.1", "1.0"]) {
      // A provider of its own for each request (it streams "hello" once).
      await gateway?.close();
      const port = await start(streamingProvider("hello", 5));
      const host = `Host: 127.0.0.1:${port}`;
      const got = await exchange(port, `POST /v1/chat/completions HTTP/${version}\r\n${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      const head = got.slice(0, got.indexOf("\r\n\r\n"));
      expect(statusLines(got), got).toEqual(["HTTP/1.1 200 OK"]);
      expect(head, head).toMatch(/\r\nconnection: close(\r\n|$)/i);
      expect(head, head).not.toMatch(/keep-alive/i);
      expect(got, got).toContain('"content":"hello"');
      expect(got).toContain("data: [DONE]");
    }
  });
});

describe("serve: a client that never reads its streamed reply", () => {
  it(`is cut off once ${MAX_UNREAD_REPLY_BYTES / 1024 / 1024} MiB wait unread, and the upstream turn is cancelled`, async () => {
    // Before, every piece was queued on the socket for as long as the model streamed: here 512 MiB.
    const limit = 512 * 1024 * 1024;
    const provider = streamingProvider("x".repeat(64 * 1024), limit);
    const port = await start(provider);
    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true });
    const s = net.connect(port, "127.0.0.1", () => {
      s.write(`POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      s.pause();
    });
    s.on("error", () => undefined);
    await provider.done;
    s.destroy();
    expect(provider.aborted).toBe(true);
    // What the gateway held, plus what the kernel's socket buffers took: far below what was offered.
    expect(provider.sent).toBeLessThan(MAX_UNREAD_REPLY_BYTES + 64 * 1024 * 1024);
    expect(provider.sent).toBeGreaterThan(MAX_UNREAD_REPLY_BYTES);
  });
});
