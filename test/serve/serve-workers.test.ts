/**
 * `codecite serve --workers N` as processes (the built CLI, real HTTP, the fake Ollama upstream):
 * the workers share the port and each takes connections, `GET /codecite/stats` sums them, a
 * killed worker is replaced (and its counts kept), a crash loop stops the gateway, signals leave
 * no process behind, bad values are refused once, before any worker starts.
 */
import { readFileSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { RAG_APP, runCli } from "../cli/run-cli.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { childrenOf, running, startServe, type ServeProcess } from "../helpers/serve-process.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

const WEATHER = {
  type: "function",
  function: { name: "get_weather", description: "Weather of a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};

let ollama: FakeOllama | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  if (serve !== undefined && serve.child.exitCode === null && serve.child.signalCode === null) await serve.stop();
  await ollama?.close();
  ollama = serve = undefined;
});

/** A fake Ollama whose model writes every call as text (Hermes `<tool_call>`). */
function upstream(): Promise<FakeOllama> {
  return startFakeOllama({ respond: () => ({ content: 'Checking.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>' }) });
}

/**
 * One streamed `/api/chat` on its own keep-alive connection (`agent`, left open after the reply, so
 * that the worker serving it still holds it); resolves with the status and the tool calls received.
 */
function chat(url: string, agent: http.Agent): Promise<{ status: number; calls: unknown[] }> {
  const body = JSON.stringify({ model: "qwen3:8b", messages: [{ role: "user", content: "Weather in Paris?" }], tools: [WEATHER], stream: true });
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/api/chat`, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d));
      res.on("end", () => {
        const calls = text
          .split("\n")
          .filter((l) => l.trim() !== "")
          .flatMap((l) => (JSON.parse(l) as { message?: { tool_calls?: unknown[] } }).message?.tool_calls ?? []);
        resolve({ status: res.statusCode ?? 0, calls });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Socket inodes of established TCP connections whose local port is `port` (Linux `/proc/net/tcp`, `/proc/net/tcp6`). */
function connectionsOn(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const row of text.split("\n").slice(1)) {
      const f = row.trim().split(/\s+/);
      if (f.length < 10) continue;
      if (parseInt(f[1]!.split(":")[1]!, 16) === port && f[3] === "01") inodes.add(f[9]!);
    }
  }
  return inodes;
}

/** How many of `inodes` process `pid` holds open. */
function held(pid: number, inodes: Set<string>): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m && inodes.has(m[1]!)) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

interface Stats {
  requests: number;
  models: Record<string, { turns: number; recovered: Record<string, number> }>;
  agent_turns?: { running: number; waiting: number };
}

async function stats(url: string): Promise<Stats> {
  const r = await fetch(`${url}/codecite/stats`, { headers: { connection: "close" } });
  expect(r.status).toBe(200);
  return (await r.json()) as Stats;
}

/** Resolves once `serve`'s stderr holds `count` lines matching `re`. */
async function linesOf(s: ServeProcess, re: RegExp, count: number): Promise<string[]> {
  for (;;) {
    const lines = s.stderr().split("\n").filter((l) => re.test(l));
    if (lines.length >= count) return lines;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves once `pid` has `count` running children. */
async function childCount(pid: number, count: number): Promise<number[]> {
  for (;;) {
    const kids = childrenOf(pid);
    if (kids.length === count) return kids;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("codecite serve --workers", () => {
  it("two workers share the port, each serves some of the concurrent chats, and the stats are their sum", async () => {
    ollama = await upstream();
    serve = await startServe(["--workers", "2", "--upstream", ollama.host, "--root", RAG_APP]);
    // Printed once, by the primary, when both listen.
    expect(serve.stderr().match(/listening on /g)).toHaveLength(1);
    expect(serve.stderr()).toContain("; 2 worker processes");
    const workers = await childCount(serve.child.pid!, 2);
    const agents = Array.from({ length: 6 }, () => new http.Agent({ keepAlive: true }));
    try {
      const replies = await Promise.all(agents.map((agent) => chat(serve!.url, agent)));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      for (const r of replies) expect(r.calls).toEqual([{ id: expect.stringMatching(/^call_/), function: { index: 0, name: "get_weather", arguments: { city: "Paris" } } }]);
      // The six connections, still open, are held by the workers, each some; the primary holds none.
      const conns = connectionsOn(Number(new URL(serve.url).port));
      const perWorker = workers.map((pid) => held(pid, conns));
      expect(perWorker.reduce((a, b) => a + b, 0)).toBe(6);
      expect(perWorker.every((n) => n >= 1)).toBe(true);
      expect(held(serve.child.pid!, conns)).toBe(0);
    } finally {
      for (const agent of agents) agent.destroy();
    }
    // Six chats and this request, over separate connections, whichever worker answers.
    const sum = await stats(serve.url);
    expect(sum).toEqual({
      requests: 7,
      models: { "qwen3:8b": { turns: 6, native_calls: 0, recovered: { "dialect:hermes_json": 6 }, refusals: 0, switches: 0, errors: 0 } },
      agent_turns: { running: 0, waiting: 0 },
    });
    expect((await stats(serve.url)).requests).toBe(8);
    expect(await serve.stop()).toBe(0);
  });

  it("a worker killed with SIGKILL is replaced, the gateway keeps serving, and its counts stay in the stats", async () => {
    ollama = await upstream();
    serve = await startServe(["--workers", "2", "--upstream", ollama.host, "--root", RAG_APP]);
    const [victim] = await childCount(serve.child.pid!, 2);
    const agents = Array.from({ length: 4 }, () => new http.Agent({ keepAlive: false }));
    expect((await Promise.all(agents.map((agent) => chat(serve!.url, agent)))).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await stats(serve.url)).requests).toBe(5);
    process.kill(victim!, "SIGKILL");
    const [ended] = await linesOf(serve, /worker process \d+ ended/, 1);
    expect(ended).toBe(`codecite serve: worker process ${victim} ended (signal SIGKILL); starting another`);
    const after = await chat(serve.url, new http.Agent({ keepAlive: false }));
    expect(after.status).toBe(200);
    expect(after.calls).toHaveLength(1);
    // The killed worker's requests were reported before it died: the sum does not go down.
    const sum = await stats(serve.url);
    expect(sum.requests).toBe(7);
    expect(sum.models["qwen3:8b"]).toMatchObject({ turns: 5, recovered: { "dialect:hermes_json": 5 } });
    const replaced = await childCount(serve.child.pid!, 2);
    expect(replaced).not.toContain(victim);
    expect(await serve.stop()).toBe(0);
    for (const pid of replaced) expect(running(pid)).toBe(false);
  });

  it("workers that keep dying stop the gateway with an error and exit code 1", async () => {
    ollama = await upstream();
    serve = await startServe(["--workers", "2", "--upstream", ollama.host, "--root", RAG_APP]);
    const primary = serve.child.pid!;
    for (let i = 1; i <= 5; i++) {
      const [pid] = await childCount(primary, 2);
      process.kill(pid!, "SIGKILL");
      if (i < 5) await linesOf(serve, /worker process \d+ ended/, i);
    }
    expect(await serve.closed).toBe(1);
    expect(serve.stderr()).toContain("codecite: error: worker processes ended 5 times within 10 s (the last: signal SIGKILL); codecite serve stops\n");
    expect(serve.stderr().match(/starting another/g)).toHaveLength(4);
    expect(childrenOf(primary)).toEqual([]);
  });

  it("SIGTERM, Ctrl-C (SIGINT to the process group) and a killed primary leave no process behind", async () => {
    ollama = await upstream();
    serve = await startServe(["--workers", "2", "--upstream", ollama.host, "--root", RAG_APP]);
    let workers = await childCount(serve.child.pid!, 2);
    expect(await serve.stop()).toBe(0);
    for (const pid of workers) expect(running(pid)).toBe(false);

    serve = await startServe(["--workers", "2", "--upstream", ollama.host, "--root", RAG_APP], { detached: true });
    workers = await childCount(serve.child.pid!, 2);
    process.kill(-serve.child.pid!, "SIGINT");
    expect(await serve.closed).toBe(0);
    for (const pid of workers) expect(running(pid)).toBe(false);
    // No worker was taken for crashed and replaced on the way out.
    expect(serve.stderr()).not.toContain("ended");

    serve = await startServe(["--workers", "2", "--upstream", ollama.host, "--root", RAG_APP]);
    workers = await childCount(serve.child.pid!, 2);
    serve.child.kill("SIGKILL");
    await serve.closed;
    // Each worker ends when its channel to the primary closes.
    for (const pid of workers) {
      while (running(pid)) await new Promise((r) => setTimeout(r, 20));
    }
  });

  it("SIGTERM while chats stream: each client gets an error in its API's shape (not a cut connection), the upstream requests are cancelled, exit 0", async () => {
    // An upstream whose replies start and never end; it counts the replies the gateway closed.
    let cancelled = 0;
    const raw = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.on("close", () => cancelled++);
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.write(`${JSON.stringify({ model: "qwen3:8b", message: { role: "assistant", content: "Thinking about it. " }, done: false })}\n`);
      });
    });
    await new Promise<void>((r) => raw.listen(0, "127.0.0.1", r));
    try {
      const host = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      for (const workers of ["2", "1"]) {
        serve = await startServe(["--workers", workers, "--upstream", host, "--root", RAG_APP]);
        const messages = [{ role: "user" as const, content: "hi" }];
        const openai = await new OpenAI({ baseURL: `${serve.url}/v1`, apiKey: "unused", maxRetries: 0 }).chat.completions.create({ model: "qwen3:8b", messages, stream: true });
        const ollamaStream = await new Ollama({ host: serve.url }).chat({ model: "qwen3:8b", messages, stream: true });
        const openaiParts = openai[Symbol.asyncIterator]();
        const ollamaParts = ollamaStream[Symbol.asyncIterator]();
        expect((await openaiParts.next()).value?.choices[0]?.delta.content).toMatch(/^Thinking/);
        expect((await ollamaParts.next()).value?.message.content).toMatch(/^Thinking/);
        const code = serve.stop();
        const message = "codecite serve is stopping; this reply was cut short, ask again when it runs";
        const rest = async <T,>(parts: AsyncIterator<T>): Promise<unknown> => {
          for (;;) if ((await parts.next()).done === true) return undefined;
        };
        const openaiEnd = await rest(openaiParts).catch((e: unknown) => e);
        expect(openaiEnd).toBeInstanceOf(OpenAI.APIError);
        expect((openaiEnd as Error).message).toBe(message);
        const ollamaEnd = await rest(ollamaParts).catch((e: unknown) => e);
        expect({ workers, error: (ollamaEnd as Error).message }).toEqual({ workers, error: message });
        expect(await code).toBe(0);
      }
      while (cancelled < 4) await new Promise((r) => setTimeout(r, 20));
      expect(cancelled).toBe(4);
    } finally {
      raw.closeAllConnections();
      await new Promise((r) => raw.close(r));
    }
  });

  it("--workers 1 serves in the one process, without workers", async () => {
    ollama = await upstream();
    serve = await startServe(["--workers", "1", "--upstream", ollama.host, "--root", RAG_APP]);
    expect(childrenOf(serve.child.pid!)).toEqual([]);
    expect(serve.stderr()).not.toContain("worker processes");
    expect((await chat(serve.url, new http.Agent({ keepAlive: false }))).status).toBe(200);
    expect(await serve.stop()).toBe(0);
  });

  it("a bad worker count (flag or user file) is refused once, before any worker starts (exit 2)", async () => {
    for (const value of ["0", "x", "-1", "1.5", "65"]) {
      const r = await runCli(["serve", "--workers", value, "--port", "0"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`codecite: error: invalid --workers=${JSON.stringify(value)}; accepted: an integer from 1 to 64 (worker processes)\nhint: Fix or remove the --workers flag.\n`);
    }
    const home = makeTempDir("codecite-workers-");
    try {
      const file = path.join(home, "codecite", "config.yml");
      putFile(home, "codecite/config.yml", "serve:\n  workers: 0\n");
      const r = await runCli(["serve", "--port", "0", "--root", RAG_APP], { env: { XDG_CONFIG_HOME: home } });
      expect(r.code).toBe(2);
      expect(r.stderr.split("\n")[0]).toBe(`codecite: error: ${file}:2: invalid serve.workers: 0; accepted: an integer from 1 to 64 (worker processes)`);
      expect(r.stderr.match(/codecite: error:/g)).toHaveLength(1);
      // A port already taken is reported once, by the first worker, with its exit code.
      const taken = http.createServer();
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
      const port = (taken.address() as { port: number }).port;
      const busy = await runCli(["serve", "--workers", "2", "--port", String(port), "--upstream", "http://127.0.0.1:9", "--root", RAG_APP]);
      taken.close();
      expect(busy.code).toBe(1);
      expect(busy.stderr.match(/codecite: error: .*EADDRINUSE/g)).toHaveLength(1);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("codecite config shows the worker count and where it came from", async () => {
    const home = makeTempDir("codecite-workers-");
    try {
      const show = async () => (JSON.parse((await runCli(["config", "--root", RAG_APP, "--json"], { env: { XDG_CONFIG_HOME: home } })).stdout) as { settings: Record<string, unknown> }).settings["serve.workers"];
      expect(await show()).toEqual({ value: os.availableParallelism() >= 2 ? 2 : 1, source: "default" });
      putFile(home, "codecite/config.yml", "serve:\n  workers: 3\n");
      expect(await show()).toEqual({ value: 3, source: "user_file" });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
