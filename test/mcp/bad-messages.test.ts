/**
 * A hostile MCP client (issue 9, kinds 8 and 13): malformed JSON-RPC gets a JSON-RPC error reply,
 * a message over the size limit is refused without the server exiting, tool-call arguments nested
 * 100k deep end in a typed error, and the server keeps serving. Raw newline-delimited JSON-RPC over
 * the real CLI's stdio (`codecite mcp`, from source through tsx).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkMessage, guardMessages, MAX_MESSAGE_BYTES } from "../../src/mcp/message-guard.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CLI = path.join(REPO, "src/cli/main.ts");

describe("message guard (unit)", () => {
  it("classifies lines per JSON-RPC 2.0 §5.1", () => {
    expect(checkMessage("{not json")).toEqual({ id: null, code: -32700, message: "Parse error: the message is not valid JSON" });
    expect(checkMessage("[1,2]")?.code).toBe(-32600);
    expect(checkMessage('{"jsonrpc":"1.0","id":7,"method":"x"}')).toMatchObject({ id: 7, code: -32600 });
    expect(checkMessage('{"jsonrpc":"2.0","id":"a"}')).toMatchObject({ id: "a", code: -32600 });
    expect(checkMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toBeUndefined();
    expect(checkMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBeUndefined();
    expect(checkMessage('{"jsonrpc":"2.0","id":1,"result":{}}')).toBeUndefined();
  });

  it("answers a request with params of the wrong type with -32602 Invalid params, naming the field", () => {
    const call = (params: string) => checkMessage(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":${params}}`);
    expect(call('{"name":"find_symbol","arguments":[1,2]}')).toEqual({
      id: 4,
      code: -32602,
      message: 'Invalid params: tools/call "params.arguments" must be an object of the tool\'s parameters by name, not array',
    });
    expect(call('{"name":"find_symbol","arguments":"foo"}')?.message).toMatch(/"params.arguments" .* not string$/);
    expect(call('{"name":"find_symbol","arguments":null}')?.message).toMatch(/"params.arguments" .* not null$/);
    expect(call('{"name":"find_symbol","arguments":7}')?.message).toMatch(/"params.arguments" .* not number$/);
    expect(call('{"name":7,"arguments":{}}')).toEqual({ id: 4, code: -32602, message: 'Invalid params: tools/call "params.name" must be a string (the tool\'s name), not number' });
    expect(call('"x"')).toEqual({ id: 4, code: -32602, message: 'Invalid params: "params" must be an object, not string' });
    expect(call("[]")?.code).toBe(-32602);
    expect(checkMessage('{"jsonrpc":"2.0","id":4,"method":"tools/call"}')?.code).toBe(-32602);
    expect(checkMessage('{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[]}')).toEqual({ id: 5, code: -32602, message: 'Invalid params: "params" must be an object, not array' });
    // Well-formed calls pass (the tool validates its own arguments); so do notifications, which get no reply.
    expect(call('{"name":"find_symbol","arguments":{"name":"x"}}')).toBeUndefined();
    expect(call('{"name":"find_symbol"}')).toBeUndefined();
    expect(checkMessage('{"jsonrpc":"2.0","id":6,"method":"tools/list"}')).toBeUndefined();
    expect(checkMessage('{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}')).toBeUndefined();
  });

  it("drops an oversized line as it streams and passes the next one", async () => {
    const replies: string[] = [];
    const g = guardMessages((l) => replies.push(l), { maxBytes: 100 });
    const out: string[] = [];
    g.on("data", (d: Buffer) => out.push(d.toString("utf8")));
    for (let i = 0; i < 10; i++) g.write("x".repeat(50));
    g.write('\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n\n');
    g.end();
    await new Promise((r) => g.on("end", r));
    expect(replies).toEqual([`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: the message is larger than 100 bytes" } })}\n`]);
    expect(out.join("")).toBe('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(MAX_MESSAGE_BYTES).toBe(4 * 1024 * 1024);
  });
});

describe("codecite mcp under hostile input", () => {
  let root: string;
  let child: ChildProcessWithoutNullStreams;
  let buffer = "";
  const messages: Array<Record<string, unknown>> = [];
  let waiters: Array<() => void> = [];

  beforeAll(async () => {
    root = makeTempDir("codecite-mcp-bad-");
    putFile(root, "a.py", "def needle():\n    return 1\n");
    child = spawn(process.execPath, ["--import", "tsx", CLI, "mcp", "--root", root], { cwd: REPO, stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      buffer += d;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim() !== "") messages.push(JSON.parse(line) as Record<string, unknown>);
      }
      const w = waiters;
      waiters = [];
      for (const f of w) f();
    });
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    await reply(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
  });

  afterAll(() => {
    child.stdin.end();
    child.kill();
    rmSync(root, { recursive: true, force: true });
  });

  function send(msg: unknown): void {
    child.stdin.write(`${typeof msg === "string" ? msg : JSON.stringify(msg)}\n`);
  }

  /** The next message matching `pred` (waits for it). */
  async function next(pred: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    for (;;) {
      const i = messages.findIndex(pred);
      if (i >= 0) return messages.splice(i, 1)[0] as Record<string, unknown>;
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      await new Promise<void>((r) => waiters.push(r));
    }
  }
  const reply = (id: unknown) => next((m) => m.id === id);

  async function searchWorks(id: number): Promise<void> {
    send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_code", arguments: { query: "needle" } } });
    const r = (await reply(id)) as { result: { structuredContent: { ok: boolean; total: number } } };
    expect(r.result.structuredContent).toMatchObject({ ok: true, total: 1 });
  }

  it("answers text that is not JSON with a parse error, then keeps serving", async () => {
    send("{this is not json");
    expect(await next((m) => m.id === null && (m.error as { code: number }).code === -32700)).toMatchObject({ jsonrpc: "2.0" });
    await searchWorks(10);
  });

  it("answers JSON that is not JSON-RPC with Invalid Request, echoing the id", async () => {
    send({ id: 11, method: "tools/list" });
    expect(await reply(11)).toMatchObject({ error: { code: -32600 } });
    send([{ jsonrpc: "2.0", id: 12, method: "ping" }]);
    expect(await next((m) => m.id === null && (m.error as { code: number }).code === -32600)).toBeDefined();
    await searchWorks(13);
  });

  it("refuses a message over 4 MiB without exiting; later requests are answered", async () => {
    send({ jsonrpc: "2.0", id: 20, method: "tools/call", params: { name: "search_code", arguments: { query: "x".repeat(11 * 1024 * 1024) } } });
    const r = await next((m) => m.id === null && /larger than/.test(String((m.error as { message?: string } | undefined)?.message)));
    expect(r.error).toEqual({ code: -32600, message: `Invalid Request: the message is larger than ${4 * 1024 * 1024} bytes` });
    await searchWorks(21);
  });

  it("answers tools/call with non-object arguments with -32602 Invalid params, then keeps serving", async () => {
    send({ jsonrpc: "2.0", id: 40, method: "tools/call", params: { name: "search_code", arguments: ["needle"] } });
    expect(await reply(40)).toEqual({
      jsonrpc: "2.0",
      id: 40,
      error: { code: -32602, message: 'Invalid params: tools/call "params.arguments" must be an object of the tool\'s parameters by name, not array' },
    });
    send({ jsonrpc: "2.0", id: 41, method: "tools/call", params: "search_code" });
    expect(await reply(41)).toMatchObject({ error: { code: -32602 } });
    await searchWorks(42);
  });

  it("tool-call arguments nested 100k deep end in a typed tool error", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    send(`{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"search_code","arguments":{"query":${deep}}}}`);
    const r = (await reply(30)) as { result?: { isError: boolean; structuredContent: { ok: boolean; error: { code: string } } }; error?: unknown };
    expect(r.result?.isError).toBe(true);
    expect(r.result?.structuredContent.error.code).toBe("INVALID_ARGUMENT");
    await searchWorks(31);
  });
});
