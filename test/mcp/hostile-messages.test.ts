/**
 * A hostile MCP client, kinds the SDK drops without a reply or logs without bound: request ids
 * that are not MCP RequestIds, members the SDK's strict JSON-RPC schema refuses, `_meta` of the
 * wrong type, params of the wrong type for methods other than tools/call, bytes that are not
 * UTF-8, and floods of notifications the SDK logs. Each request gets one JSON-RPC error, the log
 * stays bounded, and the server keeps serving. Raw newline-delimited JSON-RPC through
 * `startMcpServer` (the function `codecite mcp` runs), with the SDK's real transport.
 */
import { rmSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedErrorLog, MAX_LOG_CHARS, SHOWN_IN_FULL } from "../../src/mcp/error-log.js";
import { checkMessage, guardMessages } from "../../src/mcp/message-guard.js";
import { startMcpServer } from "../../src/mcp/server.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

describe("request ids and members the SDK would drop without a reply", () => {
  it.each([
    ['1e400', "a number too large for an integer"],
    ["1.5", "1.5 (a number that is not an integer within ±2^53)"],
    ["9007199254740993", "9007199254740992 (a number that is not an integer within ±2^53)"],
    ["true", "boolean"],
    ['{"a":1}', "object"],
    ["[1]", "array"],
    ["null", "null"],
  ])("id %s: -32600 with id null, naming the id's type", (id, type) => {
    expect(checkMessage(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`)).toEqual({
      id: null,
      code: -32600,
      message: `Invalid Request: "id" must be a string or an integer (MCP RequestId), not ${type}`,
    });
  });

  it("a member other than jsonrpc/id/method/params is -32600 naming it (also __proto__)", () => {
    expect(checkMessage('{"jsonrpc":"2.0","id":17,"method":"ping","__proto__":{"x":1}}')).toEqual({ id: 17, code: -32600, message: 'Invalid Request: unexpected member "__proto__" in the message' });
    expect(checkMessage('{"jsonrpc":"2.0","id":"q","method":"tools/list","extra":1,"more":2}')).toEqual({ id: "q", code: -32600, message: 'Invalid Request: unexpected members "extra", "more" in the message' });
  });

  it("_meta and method params of the wrong type are -32602 naming the field (not -32603 with a validator dump)", () => {
    const call = '"method":"tools/call","params":{"name":"find_symbol","arguments":{"name":"x"},';
    expect(checkMessage(`{"jsonrpc":"2.0","id":11,${call}"_meta":5}}`)).toEqual({ id: 11, code: -32602, message: 'Invalid params: "params._meta": Invalid input: expected object, received number' });
    expect(checkMessage(`{"jsonrpc":"2.0","id":12,${call}"_meta":{"progressToken":{"x":1}}}}`)).toMatchObject({ id: 12, code: -32602, message: expect.stringMatching(/^Invalid params: "params\._meta\.progressToken": /) as string });
    expect(checkMessage('{"jsonrpc":"2.0","id":13,"method":"initialize","params":{"protocolVersion":5,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}')).toEqual({
      id: 13,
      code: -32602,
      message: 'Invalid params: "params.protocolVersion": Invalid input: expected string, received number',
    });
    expect(checkMessage('{"jsonrpc":"2.0","id":14,"method":"tools/list","params":{"cursor":{"x":1}}}')).toEqual({ id: 14, code: -32602, message: 'Invalid params: "params.cursor": Invalid input: expected string, received object' });
    // Valid requests, unknown methods (the SDK answers -32601) and notifications still pass.
    expect(checkMessage(`{"jsonrpc":"2.0","id":15,${call}"_meta":{"progressToken":"t"}}}`)).toBeUndefined();
    expect(checkMessage('{"jsonrpc":"2.0","id":16,"method":"resources/list"}')).toBeUndefined();
    expect(checkMessage('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}')).toBeUndefined();
  });

  it("bytes that are not UTF-8 are -32700 Parse error, not a request with U+FFFD in its id", async () => {
    const replies: string[] = [];
    const g = guardMessages((l) => replies.push(l));
    const out: string[] = [];
    g.on("data", (d: Buffer) => out.push(d.toString("utf8")));
    g.write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"u'), Buffer.from([0xff, 0xfe]), Buffer.from('","method":"ping"}\n')]));
    // A character split across two writes is still one valid character.
    const ok = Buffer.from('{"jsonrpc":"2.0","id":"é","method":"ping"}\n');
    const cut = ok.indexOf(0xc3) + 1;
    g.write(ok.subarray(0, cut));
    g.write(ok.subarray(cut));
    g.end();
    await new Promise((r) => g.on("end", r));
    expect(replies.map((r) => JSON.parse(r) as unknown)).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the message is not valid UTF-8" } }]);
    expect(out).toEqual(['{"jsonrpc":"2.0","id":"é","method":"ping"}\n']);
  });
});

describe("the log of client faults is bounded", () => {
  it(`logs the first ${SHOWN_IN_FULL} reports, then every power of ten, each one line of at most ${MAX_LOG_CHARS} characters with escapes`, () => {
    const lines: string[] = [];
    const report = boundedErrorLog((l) => lines.push(l));
    for (let i = 1; i <= 12_345; i++) report(`protocol error ${i}: ${"x".repeat(i === 1 ? 5000 : 3)}\n  \u001b[31mred`);
    expect(lines).toHaveLength(SHOWN_IN_FULL + 3);
    expect(lines[0]).toBe(`protocol error 1: ${"x".repeat(MAX_LOG_CHARS - "protocol error 1: ".length)}…`);
    expect(lines[1]).toBe("protocol error 2: xxx \\x1b[31mred");
    expect(lines.slice(SHOWN_IN_FULL)).toEqual(
      [100, 1000, 10_000].map((n) => `protocol error ${n}: xxx \\x1b[31mred (${n} such reports so far; after the first ${SHOWN_IN_FULL}, only every power of ten is logged)`),
    );
  });
});

describe("codecite mcp under a hostile client (startMcpServer, raw stdio)", () => {
  let root: string;
  beforeAll(() => {
    root = makeTempDir("codecite-mcp-hostile-");
    putFile(root, "src/a.py", "def load_index(p):\n    return p\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("every bad request gets one error; 20,000 bad notifications log a few lines; the server then answers a call", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const replies: Array<Record<string, unknown>> = [];
    let buffered = "";
    stdout.setEncoding("utf8").on("data", (d: string) => {
      buffered += d;
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        replies.push(JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>);
        buffered = buffered.slice(nl + 1);
      }
    });
    const until = async (pred: () => boolean) => {
      while (!pred()) await new Promise((r) => setTimeout(r, 20));
    };
    const logged: string[] = [];
    const server = startMcpServer({ root, stdin, stdout, log: (l) => logged.push(l) });
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`);
    await until(() => replies.some((r) => r.id === 0));
    stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const bad = [
      '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
      '{"jsonrpc":"2.0","id":true,"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","id":3,"method":"ping","__proto__":{}}',
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"find_symbol","arguments":{"name":"x"},"_meta":5}}',
      '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":7}}',
    ];
    stdin.write(`${bad.join("\n")}\n`);
    // Notifications the SDK cannot use: a progress report for no request, a notification with a stray member.
    const noise = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"message":"\\u001b]52;c;aGk=\\u0007"}}\n{"jsonrpc":"2.0","method":"notifications/x","zz":1}\n';
    stdin.write(noise.repeat(10_000));
    stdin.write('{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"find_symbol","arguments":{"name":"load_index"}}}\n');
    await until(() => replies.some((r) => r.id === "call"));
    expect(replies.slice(1).map((r) => [r.id, (r.error as { code: number } | undefined)?.code])).toEqual([
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [3, -32600],
      [4, -32602],
      [5, -32602],
      ["call", undefined],
    ]);
    const found = replies.at(-1)!.result as { structuredContent: { evidence: Array<{ path: string; start_line: number }> } };
    expect(found.structuredContent.evidence.map((e) => [e.path, e.start_line])).toEqual([["src/a.py", 1]]);
    // 6 refused requests + 20,000 notifications: the first 20 reports, then the 100th, 1,000th, 10,000th.
    const faults = logged.filter((l) => !l.startsWith("serving "));
    expect(faults).toHaveLength(SHOWN_IN_FULL + 3);
    expect(faults.every((l) => l.length <= MAX_LOG_CHARS + 120 && !l.includes("\u001b") && !l.includes("\n"))).toBe(true);
    expect(faults.at(-1)).toMatch(/\(10000 such reports so far; /);
    stdin.end();
    await server;
  });
});
