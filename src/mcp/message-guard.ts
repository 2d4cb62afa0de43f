/**
 * A guard in front of the MCP stdio transport: input is newline-delimited JSON-RPC messages (MCP
 * "Transports: stdio"). A hostile or broken client can send a message of any size, text that is
 * not JSON, or JSON that is not a JSON-RPC message; the SDK transport would buffer the first
 * without bound and silently drop the others, leaving the client waiting forever.
 *
 * Rules (error codes from JSON-RPC 2.0 §5.1):
 * - a line longer than {@link MAX_MESSAGE_BYTES} is discarded as it streams (never buffered
 *   whole) and answered with `-32600` "Invalid Request" (`id: null`, the id cannot be known);
 * - a line that is not JSON is answered with `-32700` "Parse error" (`id: null`);
 * - JSON that is not one JSON-RPC 2.0 message object (`jsonrpc: "2.0"` with a `method`, or a
 *   response with `result`/`error` and an `id`) is answered with `-32600`, echoing its `id` when
 *   it is a string or a number; a batch (an array) too, since MCP carries single messages;
 * - a request (it has an `id`) whose `params` is present but not an object (MCP's requests all
 *   take an object, MCP schema `Request.params`), or a `tools/call` whose `name` is not a
 *   string or whose `arguments` is present but not an object (MCP schema `CallToolRequest`), is
 *   answered with `-32602` "Invalid params" naming the field and the type received (the SDK
 *   would answer `-32603` "Internal error" with its validator's dump);
 * - blank lines are skipped; every other line passes through unchanged, and the server keeps
 *   serving after any error.
 */
import { Transform, type TransformCallback } from "node:stream";

/** Longest accepted message, in bytes (without the newline). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** A JSON-RPC 2.0 error response, serialised as one line. */
function jsonRpcErrorLine(id: string | number | null, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`;
}

/** Why a complete line is refused, or `undefined` when it is a JSON-RPC message to pass on. */
export function checkMessage(line: string): { id: string | number | null; code: number; message: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { id: null, code: -32700, message: "Parse error: the message is not valid JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { id: null, code: -32600, message: "Invalid Request: expected one JSON-RPC 2.0 message object (batches are not supported)" };
  }
  const m = value as Record<string, unknown>;
  const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
  const isRequest = typeof m.method === "string";
  const isResponse = "id" in m && ("result" in m || "error" in m);
  if (m.jsonrpc !== "2.0" || (!isRequest && !isResponse)) {
    return { id, code: -32600, message: 'Invalid Request: a JSON-RPC 2.0 message needs "jsonrpc": "2.0" and a "method" (or a "result"/"error" with an "id")' };
  }
  if (isRequest && id !== null) {
    const bad = badParams(m.method as string, m.params);
    if (bad !== undefined) return { id, code: -32602, message: `Invalid params: ${bad}` };
  }
  return undefined;
}

/** JSON's name for the type of `v`. */
const jsonType = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => jsonType(v) === "object";

/** What is wrong with a request's `params` (see the module rules), or undefined. */
function badParams(method: string, params: unknown): string | undefined {
  if (params === undefined) return method === "tools/call" ? 'tools/call needs "params": {"name": string, "arguments": object}' : undefined;
  if (!isObject(params)) return `"params" must be an object, not ${jsonType(params)}`;
  if (method !== "tools/call") return undefined;
  if (typeof params.name !== "string") return `tools/call "params.name" must be a string (the tool's name), not ${jsonType(params.name)}`;
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    return `tools/call "params.arguments" must be an object of the tool's parameters by name, not ${jsonType(params.arguments)}`;
  }
  return undefined;
}

/**
 * Splits the input into lines and passes on the valid JSON-RPC messages (each with its
 * newline); refused lines get an error reply through `reply` (see the module rules).
 * @param opts.maxBytes the line limit (default {@link MAX_MESSAGE_BYTES}).
 */
export function guardMessages(reply: (line: string) => void, opts: { maxBytes?: number } = {}): Transform {
  const max = opts.maxBytes ?? MAX_MESSAGE_BYTES;
  let parts: Buffer[] = [];
  let size = 0;
  let oversize = false;
  const finishLine = (out: Transform) => {
    if (oversize) {
      reply(jsonRpcErrorLine(null, -32600, `Invalid Request: the message is larger than ${max} bytes`));
    } else if (size > 0) {
      const line = Buffer.concat(parts).toString("utf8");
      if (line.trim() !== "") {
        const bad = checkMessage(line);
        if (bad) reply(jsonRpcErrorLine(bad.id, bad.code, bad.message));
        else out.push(`${line}\n`);
      }
    }
    parts = [];
    size = 0;
    oversize = false;
  };
  return new Transform({
    transform(chunk: Buffer | string, _enc, done: TransformCallback) {
      let buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      for (;;) {
        const nl = buf.indexOf(0x0a);
        const piece = nl < 0 ? buf : buf.subarray(0, nl);
        if (!oversize) {
          if (size + piece.length > max) {
            oversize = true;
            parts = [];
          } else if (piece.length > 0) {
            parts.push(Buffer.from(piece));
          }
        }
        size += piece.length;
        if (nl < 0) break;
        finishLine(this);
        buf = buf.subarray(nl + 1);
      }
      done();
    },
    flush(done: TransformCallback) {
      if (size > 0 || oversize) finishLine(this);
      done();
    },
  });
}
