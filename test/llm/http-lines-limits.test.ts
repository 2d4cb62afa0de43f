/**
 * A model server that never ends a line, or streams without end (reasoning that never stops),
 * must not fill the memory of `ask` or of `codecite serve` (which would die for every client):
 * `postLines` ends such a reply with ProviderError `BAD_RESPONSE` and closes the connection.
 * Real HTTP servers; the sizes are bytes, never times.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postLines } from "../../src/llm/http-lines.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { ProviderError } from "../../src/llm/types.js";

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server whose `/api/chat` writes `piece` again and again until the client goes; resolves with its origin and a promise of the bytes sent when the client closed. */
async function endless(piece: string): Promise<{ origin: string; closed: Promise<number> }> {
  let onClosed!: (sent: number) => void;
  const closed = new Promise<number>((resolve) => (onClosed = resolve));
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    let sent = 0;
    const pump = () => {
      while (!res.destroyed && res.write(piece)) sent += piece.length;
    };
    res.on("drain", pump);
    res.on("close", () => onClosed(sent));
    pump();
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed };
}

describe("replies that would fill memory", () => {
  it("a line that never ends: BAD_RESPONSE after 16 MiB, through the Ollama provider's streamed chat, and the connection is closed", async () => {
    const { origin, closed } = await endless("x".repeat(1 << 20));
    const p = new OllamaProvider({ host: origin });
    const err = await p.chat({ model: "m:1", messages: [{ role: "user", content: "hi" }] }, { onContent: () => undefined }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe("BAD_RESPONSE");
    expect((err as ProviderError).message).toBe(`the server at ${origin} sent a line longer than 16777216 bytes`);
    expect(await closed).toBeLessThan(64 * 1024 * 1024); // it stopped reading, not at the time limit
  });

  it("a reply that never ends (each line whole, reasoning without end): BAD_RESPONSE past the reply limit", async () => {
    const line = `${JSON.stringify({ model: "m:1", message: { role: "assistant", content: "", thinking: "t".repeat(4000) }, done: false })}\n`;
    const { origin, closed } = await endless(line);
    let lines = 0;
    const err = await postLines(`${origin}/api/chat`, "{}", { maxReplyBytes: 1024 * 1024 }, () => void lines++).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).message).toBe(`the server at ${origin} sent a reply longer than 1048576 bytes`);
    expect(lines).toBeGreaterThan(200);
    expect(lines).toBeLessThanOrEqual(Math.ceil((1024 * 1024) / line.length));
    expect(await closed).toBeGreaterThan(1024 * 1024);
  });

  it("a reply under both limits is read whole, the last line without a line break too", async () => {
    server = http.createServer((req, res) => {
      req.resume();
      res.end(`${"a".repeat(3000)}\nb\r\nlast`);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const got: string[] = [];
    await postLines(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, "{}", { maxLineBytes: 3000, maxReplyBytes: 3009 }, (l) => void got.push(l));
    expect(got).toEqual(["a".repeat(3000), "b", "last"]);
  });
});
