/**
 * A hostile MCP client that sends hundreds of tool calls without waiting for answers (issue 9):
 * before, every call started at once (2,000 `search_code` calls: over 500 ripgrep processes at
 * the same time, no answer within two minutes). Calls now run a few at a time, a few more wait,
 * and the rest are refused at once with JSON-RPC error -32000; every request gets exactly one
 * answer and the server keeps serving. Counts, never times.
 */
import { rmSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallQueue } from "../../src/tools/call-queue.js";
import { MAX_RUNNING_CALLS, MAX_WAITING_CALLS, SERVER_BUSY, serverBusy } from "../../src/mcp/server.js";
import { startMcpServer } from "../../src/mcp/server.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

/** A call that ends when the test says so. */
function gate(): { promise: Promise<string>; open: (v: string) => void } {
  let open!: (v: string) => void;
  const promise = new Promise<string>((resolve) => (open = resolve));
  return { promise, open };
}

describe("CallQueue", () => {
  it("runs at most maxRunning calls, queues maxWaiting in order, refuses the rest with -32000", async () => {
    const q = new CallQueue(2, 2, serverBusy);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      q.run(() => {
        started.push(i);
        return g.promise;
      }),
    );
    const refused = await runs[4]!.catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: SERVER_BUSY });
    expect((refused as Error).message).toContain("server busy: 2 tool calls are running and 2 waiting");
    expect(started).toEqual([0, 1]);
    expect([q.running, q.waiting]).toEqual([2, 2]);
    gates[1]!.open("b");
    expect(await runs[1]).toBe("b");
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    expect([q.running, q.waiting]).toEqual([2, 1]);
    gates[0]!.open("a");
    gates[2]!.open("c");
    gates[3]!.open("d");
    expect(await Promise.all(runs.slice(0, 4))).toEqual(["a", "b", "c", "d"]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect([q.running, q.waiting]).toEqual([0, 0]);
  });

  it("a waiting call whose request is cancelled never runs and frees its place; a failing call frees its slot", async () => {
    const q = new CallQueue(1, 1, serverBusy);
    const first = gate();
    const running = q.run(() => first.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = q.run(async () => {
      ran = true;
      return "never";
    }, controller.signal);
    controller.abort(new Error("cancelled by the client"));
    await expect(waiting).rejects.toThrow("cancelled by the client");
    expect([q.running, q.waiting]).toEqual([1, 0]);
    const next = q.run(() => Promise.reject(new Error("tool failed")));
    first.open("done");
    expect(await running).toBe("done");
    await expect(next).rejects.toThrow("tool failed");
    expect(ran).toBe(false);
    expect([q.running, q.waiting]).toEqual([0, 0]);
    await expect(q.run(() => Promise.resolve(1), AbortSignal.abort(new Error("already")))).rejects.toThrow("already");
  });
});

describe("codecite mcp under a flood of tool calls", () => {
  let root: string;
  beforeAll(() => {
    root = makeTempDir("codecite-flood-");
    for (let i = 0; i < 40; i++) putFile(root, `src/f${i}.ts`, `export function f${i}(): number {\n  return ${i};\n}\n`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("300 calls sent at once: each gets one answer, those past the queue get -32000, and the server still answers afterwards", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const replies = new Map<number, Record<string, unknown>[]>();
    let buffered = "";
    const waiters: { id: number; resolve: () => void }[] = [];
    stdout.setEncoding("utf8").on("data", (d: string) => {
      buffered += d;
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const msg = JSON.parse(buffered.slice(0, nl)) as Record<string, unknown> & { id: number };
        buffered = buffered.slice(nl + 1);
        replies.set(msg.id, [...(replies.get(msg.id) ?? []), msg]);
        for (const w of waiters.filter((x) => x.id === msg.id)) w.resolve();
      }
    });
    const answered = (id: number) =>
      replies.has(id) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ id, resolve }));
    const server = startMcpServer({ root, stdin, stdout, log: () => undefined });
    const send = (m: object) => stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    await answered(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });

    const N = 300;
    const ids = Array.from({ length: N }, (_, i) => 100 + i);
    stdin.write(ids.map((id, i) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_code", arguments: { query: `return ${i % 40};` } } })}\n`).join(""));
    await Promise.all(ids.map(answered));
    expect(ids.every((id) => replies.get(id)!.length === 1)).toBe(true);
    const busy = ids.filter((id) => (replies.get(id)![0]!.error as { code?: number } | undefined)?.code === SERVER_BUSY);
    const served = ids.filter((id) => replies.get(id)![0]!.result !== undefined);
    expect(busy.length + served.length).toBe(N);
    expect(served.length).toBeGreaterThanOrEqual(MAX_RUNNING_CALLS + MAX_WAITING_CALLS);
    expect(busy.length).toBeGreaterThan(0);
    expect((replies.get(busy[0]!)![0]!.error as { message: string }).message).toMatch(/server busy: 4 tool calls are running and 32 waiting/);
    // The first calls were served, and their answers are real: `return 7;` is in src/f7.ts.
    const first = replies.get(107)![0]!.result as { structuredContent: { ok: boolean; evidence: { path: string }[] } };
    expect(first.structuredContent.ok).toBe(true);
    expect(first.structuredContent.evidence.map((e) => e.path)).toEqual(["src/f7.ts"]);

    // Afterwards the queue is empty again: a call is served.
    send({ jsonrpc: "2.0", id: 9999, method: "tools/call", params: { name: "find_symbol", arguments: { name: "f3" } } });
    await answered(9999);
    const after = replies.get(9999)![0]!.result as { structuredContent: { ok: boolean; evidence: { path: string; start_line: number }[] } };
    expect(after.structuredContent.evidence.map((e) => [e.path, e.start_line])).toEqual([["src/f3.ts", 1]]);
    stdin.end();
    await server;
  });
});
