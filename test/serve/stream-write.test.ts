import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { OllamaChatWriter } from "../../src/serve/ollama-api.js";
import { OpenAIChatWriter } from "../../src/serve/openai-api.js";
import { writeStreamed } from "../../src/serve/wire.js";

/** Pieces of a streamed reply: multi-byte characters (size in bytes, not characters), an empty piece, one over 4 KB. */
const PIECES = ['{"a":"héllo"}\n', "", "€😀 ünïcödé\n", "x".repeat(5000), "\r\n", "last\n"];

/** A server that streams PIECES on `/plain` with `res.write` only, and on `/direct` with `writeStreamed` after the first piece. */
async function server(): Promise<{ port: number; close(): Promise<void> }> {
  const s = http.createServer((req, res) => {
    res.sendDate = false;
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    res.write(PIECES[0]!);
    let i = 1;
    const next = () => {
      if (i === PIECES.length) {
        res.end('{"done":true}\n');
        return;
      }
      const piece = PIECES[i++]!;
      if (req.url === "/direct") writeStreamed(res, piece);
      else res.write(piece);
      setImmediate(next);
    };
    next();
  });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return {
    port: (s.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

/** The raw bytes of the reply to `GET path` over `version`, read until the server closes. */
function rawGet(port: number, path: string, version: "1.0" | "1.1"): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(`GET ${path} HTTP/${version}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    socket.on("data", (d) => chunks.push(d));
    socket.on("end", () => resolve(Buffer.concat(chunks)));
    socket.on("error", reject);
  });
}

describe("writeStreamed", () => {
  let srv: Awaited<ReturnType<typeof server>> | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });

  it("sends the bytes res.write sends: chunk sizes in bytes, an empty piece ending nothing (HTTP/1.1, chunked)", async () => {
    srv = await server();
    const plain = await rawGet(srv.port, "/plain", "1.1");
    const direct = await rawGet(srv.port, "/direct", "1.1");
    expect(direct.equals(plain)).toBe(true);
    const text = direct.toString("utf8");
    expect(text).toMatch(/transfer-encoding: chunked/i);
    // "€😀 ünïcödé\n" is 11 characters and 20 bytes: its chunk is announced as 0x14.
    expect(text).toContain("\r\n14\r\n€😀 ünïcödé\n\r\n");
    expect(text.endsWith('\r\ne\r\n{"done":true}\n\r\n0\r\n\r\n')).toBe(true);
  });

  it("writes through res.write for an HTTP/1.0 client (no chunked encoding): the same body", async () => {
    srv = await server();
    const direct = (await rawGet(srv.port, "/direct", "1.0")).toString("utf8");
    const body = direct.slice(direct.indexOf("\r\n\r\n") + 4);
    expect(direct).not.toMatch(/transfer-encoding/i);
    expect(body).toBe(`${PIECES.join("")}{"done":true}\n`);
  });

  it("the chat writers announce each streamed piece's size in bytes: multi-byte text in content, thinking and the model name", async () => {
    // The writers sum a piece's length from its parts (`writeStreamed`'s `bytes`): every chunk
    // size must equal the bytes that follow it, or a client reads the stream wrong.
    const s = http.createServer((req, res) => {
      res.sendDate = false;
      const out = req.url === "/ollama" ? new OllamaChatWriter(res, "modèle-😀", true, 30_000) : new OpenAIChatWriter(res, "modèle-😀", true, 30_000);
      for (const piece of ["héllo ", "€😀 ünï", "", "cödé\n", "plain"]) out.content(piece);
      out.thinking("denké 🤔");
      out.content("ënd");
      out.finish("stop");
    });
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    srv = {
      port: (s.address() as AddressInfo).port,
      close: () =>
        new Promise<void>((r) => {
          s.closeAllConnections();
          s.close(() => r());
        }),
    };
    for (const path of ["/ollama", "/openai"]) {
      const raw = await rawGet(srv.port, path, "1.1");
      let at = raw.indexOf("\r\n\r\n") + 4;
      const pieces: string[] = [];
      for (;;) {
        const lineEnd = raw.indexOf("\r\n", at);
        const size = parseInt(raw.subarray(at, lineEnd).toString("latin1"), 16);
        if (size === 0) break;
        const data = raw.subarray(lineEnd + 2, lineEnd + 2 + size);
        // The size is right when the chunk's data is followed by its CRLF and decodes whole.
        expect(raw.subarray(lineEnd + 2 + size, lineEnd + 4 + size).toString("latin1")).toBe("\r\n");
        pieces.push(data.toString("utf8"));
        at = lineEnd + 4 + size;
      }
      const body = pieces.join("");
      if (path === "/ollama") {
        const lines = body.trimEnd().split("\n").map((l) => JSON.parse(l) as { model: string; message: { content: string; thinking?: string }; done: boolean });
        expect(lines.map((l) => l.message.content).join("")).toBe("héllo €😀 ünïcödé\nplainënd");
        expect(lines.map((l) => l.message.thinking ?? "").join("")).toBe("denké 🤔");
        expect(lines.every((l) => l.model === "modèle-😀")).toBe(true);
        expect(lines.at(-1)!.done).toBe(true);
      } else {
        const events = body
          .split("\n\n")
          .filter((e) => e.startsWith("data: {"))
          .map((e) => JSON.parse(e.slice(6)) as { model: string; choices: { delta: { content?: string; reasoning_content?: string } }[] });
        expect(events.map((e) => e.choices[0]!.delta.content ?? "").join("")).toBe("héllo €😀 ünïcödé\nplainënd");
        expect(events.map((e) => e.choices[0]!.delta.reasoning_content ?? "").join("")).toBe("denké 🤔");
        expect(events.every((e) => e.model === "modèle-😀")).toBe(true);
        expect(body.trimEnd().endsWith("data: [DONE]")).toBe(true);
      }
    }
  });
});
