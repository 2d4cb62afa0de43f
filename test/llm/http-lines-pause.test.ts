/**
 * A streamed reply that the caller pauses (`ChatOptions.backpressure`: `codecite serve`'s client
 * reads slower than the model writes) is waiting for its reader, not slow itself: the provider's
 * time limit does not count the pause (`http-lines.ts`). Before, a client that paused a reply
 * longer than the limit (300 s by default) had it cut with TIMEOUT although the model had
 * finished. Real HTTP servers for both providers; the time limit is still kept while the reply flows
 * (test/llm/ollama.test.ts, "a stream that stops mid-way times out").
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { OpenAIProvider } from "../../src/llm/openai.js";
import type { Provider } from "../../src/llm/types.js";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** The reply's pieces of content: the first, and the rest that the server writes after a short wait. */
const FIRST = "The first piece. ";
const REST = ["Then the second, ", "and the last."];

/** Ollama NDJSON lines, or OpenAI chat completion chunks as server-sent events (then `[DONE]`). */
function wire(api: "ollama" | "openai", content: string | undefined): string {
  if (api === "ollama") return `${JSON.stringify({ model: "m", message: { role: "assistant", content: content ?? "" }, ...(content === undefined ? { done: true, done_reason: "stop" } : { done: false }) })}\n`;
  const choice = content === undefined ? { index: 0, delta: {}, finish_reason: "stop" } : { index: 0, delta: { content }, finish_reason: null };
  return `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [choice] })}\n\n${content === undefined ? "data: [DONE]\n\n" : ""}`;
}

/** A server that streams FIRST, then 100 ms later REST and the end; resolves with its base address. */
async function start(api: "ollama" | "openai"): Promise<string> {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": api === "ollama" ? "application/x-ndjson" : "text/event-stream" });
      res.write(wire(api, FIRST));
      setTimeout(() => res.end([...REST.map((c) => wire(api, c)), wire(api, undefined)].join("")), 100);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("a streamed reply paused by its caller", () => {
  it.each(["ollama", "openai"] as const)("is not cut by the time limit while paused: the whole turn comes after the pause (%s)", async (api) => {
    const base = await start(api);
    const LIMIT_MS = 1000;
    const provider: Provider = api === "ollama" ? new OllamaProvider({ host: base, timeoutMs: LIMIT_MS }) : new OpenAIProvider({ baseURL: `${base}/v1`, timeoutMs: LIMIT_MS });
    const seen: string[] = [];
    let pauses = 0;
    const turn = await provider.chat(
      { model: "m", messages: [{ role: "user", content: "hi" }] },
      {
        onContent: (d) => seen.push(d),
        // After the first read the caller cannot take more for twice the limit (its client has
        // stopped reading); the server meanwhile writes the rest and ends its reply.
        backpressure: () => (pauses++ === 0 ? new Promise<void>((resolve) => setTimeout(resolve, 2 * LIMIT_MS)) : undefined),
      },
    );
    expect(pauses).toBeGreaterThan(0);
    expect(seen.join("")).toBe(FIRST + REST.join(""));
    expect(turn.content).toBe(FIRST + REST.join(""));
    expect(turn.done_reason).toBe("stop");
  }, 20_000);
});
