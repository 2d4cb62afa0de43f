/**
 * `codecite serve` bounds the virtual model's answers worked on at once (`serve/server.ts`,
 * `tools/call-queue.ts`): with the upstream model never answering, one answer runs, one waits,
 * and a third request is refused at once with 503 in the client's API shape; the upstream sees
 * one chat, a client that hangs up frees its place, and the gateway keeps serving.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { createGateway, type Gateway } from "../../src/serve/index.js";
import { Workspace, createCodeToolRegistry } from "../../src/tools/index.js";
import { RAG_APP } from "../cli/run-cli.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

let ollama: FakeOllama | undefined;
let gateway: Gateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await ollama?.close();
  gateway = ollama = undefined;
});

/** A gateway with the virtual model and at most one answer running and one waiting. */
async function start(): Promise<string> {
  ollama = await startFakeOllama({ turns: [{ hang: true, repeat: true }] });
  gateway = createGateway({
    upstream: { api: "ollama", host: ollama.host },
    provider: new OllamaProvider({ host: ollama.host }),
    agent: { registry: createCodeToolRegistry(), workspace: await Workspace.open(RAG_APP), defaultModel: () => Promise.resolve("qwen3:8b") },
    agentTurns: { maxRunning: 1, maxWaiting: 1 },
  });
  const a = await gateway.listen(0, "127.0.0.1");
  return `http://127.0.0.1:${a.port}`;
}

const ask = (url: string, path: string, signal?: AbortSignal) =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "codecite", messages: [{ role: "user", content: "Who imports rag_common?" }], stream: false }),
    ...(signal ? { signal } : {}),
  });

/** Waits until the gateway's stats show `running` answers running and `waiting` waiting. */
async function turnsAre(url: string, running: number, waiting: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const stats = (await (await fetch(`${url}/codecite/stats`)).json()) as { agent_turns: { running: number; waiting: number } };
      expect(stats.agent_turns).toEqual({ running, waiting });
    },
    { timeout: 120_000, interval: 20 },
  );
}

describe("serve: a flood of virtual-model requests", () => {
  it("one runs, one waits, the next is 503 in each API's shape; a hang-up frees a place; the gateway keeps serving", async () => {
    const url = await start();
    const first = new AbortController();
    const second = new AbortController();
    const running = ask(url, "/api/chat", first.signal).catch((e: unknown) => e);
    await vi.waitFor(() => expect(ollama!.chatRequests()).toHaveLength(1), { timeout: 120_000, interval: 20 });
    const waiting = ask(url, "/api/chat", second.signal).catch((e: unknown) => e);
    // The waiting request is queued once the gateway has read it; a third is refused at once.
    await turnsAre(url, 1, 1);
    const busy = await ask(url, "/api/chat");
    expect(busy.status).toBe(503);
    expect(await busy.json()).toEqual({ error: "server busy: 1 answers of the codecite model are running and 1 waiting; ask again when one has finished" });
    const openai = await ask(url, "/v1/chat/completions");
    expect(openai.status).toBe(503);
    expect(await openai.json()).toMatchObject({ error: { type: "server_error", message: expect.stringContaining("server busy: 1 answers") } });
    // Only the running answer reached the upstream.
    expect(ollama!.chatRequests()).toHaveLength(1);
    // The waiting client hangs up: its place is free again, so the next request waits instead of being refused.
    second.abort();
    await waiting;
    await turnsAre(url, 1, 0);
    const third = new AbortController();
    const queued = ask(url, "/api/chat", third.signal).catch((e: unknown) => e);
    await turnsAre(url, 1, 1);
    expect((await ask(url, "/api/chat")).status).toBe(503);
    expect(ollama!.chatRequests()).toHaveLength(1);
    // The running client hangs up: the queued answer starts and reaches the upstream.
    first.abort();
    await running;
    await vi.waitFor(() => expect(ollama!.chatRequests()).toHaveLength(2), { timeout: 120_000, interval: 20 });
    await turnsAre(url, 1, 0);
    third.abort();
    await queued;
    await turnsAre(url, 0, 0);
    // Endpoints without the agent are not queued.
    const version = await fetch(`${url}/api/version`);
    expect(version.status).toBe(200);
  });
});
