/**
 * A guard in front of the MCP stdio transport: input is newline-delimited JSON-RPC messages (MCP
 * "Transports: stdio"). A hostile or broken client can send a message of any size, text that is
 * not JSON, or JSON that is not a JSON-RPC message; the SDK transport would buffer the first
 * without bound and silently drop the others, leaving the client waiting forever.
 *
 * Rules (error codes from JSON-RPC 2.0 §5.1):
 * - a line longer than {@link MAX_MESSAGE_BYTES} is discarded as it streams (never buffered
 *   whole) and answered with `-32600` "Invalid Request" (`id: null`, the id cannot be known);
 * - a line that is not JSON, or not UTF-8 (JSON exchanged between systems must be UTF-8, RFC 8259
 *   §8.1; decoding would replace the bad bytes, and an `id` echoed so would not be the one sent),
 *   is answered with `-32700` "Parse error" (`id: null`);
 * - JSON that is not one JSON-RPC 2.0 message object (`jsonrpc: "2.0"` with a `method`, or a
 *   response with `result`/`error` and an `id`) is answered with `-32600`, echoing its `id` when
 *   it is a string or a number; a batch (an array) too, since MCP carries single messages;
 * - a request (it has an `id`) whose `params` is present but not an object (MCP's requests all
 *   take an object, MCP schema `Request.params`), or a `tools/call` whose `name` is not a
 *   string or whose `arguments` is present but not an object (MCP schema `CallToolRequest`), is
 *   answered with `-32602` "Invalid params" naming the field and the type received (the SDK
 *   would answer `-32603` "Internal error" with its validator's dump);
 * - a request whose `id` is not a string or an integer (MCP schema `RequestId`: `1.5`, `1e400`,
 *   `true`, `null`, an object, an integer past 2^53) is answered with `-32600` (`id: null`);
 * - a request that the SDK's own schemas refuse (`JSONRPCRequestSchema`: a member other than
 *   `jsonrpc`/`id`/`method`/`params`, `params._meta` not an object, a `progressToken` that is not
 *   a string or number; then the schema of its method in `ClientRequestSchema`: `initialize`
 *   with a numeric `protocolVersion`, `tools/list` with an object `cursor`) is answered with
 *   `-32600` for the message's own members and `-32602` for its `params`, naming the first
 *   field at fault; the SDK would drop the first kind without any reply (the client waits for
 *   ever) and answer the second `-32603` "Internal error" with its validator's dump;
 * - blank lines are skipped; every other line passes through unchanged, and the server keeps
 *   serving after any error.
 */
import { Transform, type TransformCallback } from "node:stream";
import { ClientRequestSchema, JSONRPCRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** Longest accepted message, in bytes (without the newline). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Decodes UTF-8, throwing on malformed bytes instead of replacing them. */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

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
  if (isRequest && "id" in m) {
    if (id === null || (typeof id === "number" && !Number.isSafeInteger(id))) {
      return { id: null, code: -32600, message: `Invalid Request: "id" must be a string or an integer (MCP RequestId), not ${idType(m.id)}` };
    }
    const bad = badParams(m.method as string, m.params);
    if (bad !== undefined) return { id, code: -32602, message: `Invalid params: ${bad}` };
    return schemaFault(m, id);
  }
  return undefined;
}

/** How a refused `id` is described: its JSON type, or for a number, that it is not a safe integer. */
function idType(v: unknown): string {
  if (typeof v === "number") return Number.isFinite(v) ? `${v} (a number that is not an integer within ±2^53)` : "a number too large for an integer";
  return jsonType(v);
}

/** The schema of a known client request method (`ClientRequestSchema`), or undefined for another method (the SDK answers `-32601`). */
function methodSchema(method: string): (typeof ClientRequestSchema.options)[number] | undefined {
  return ClientRequestSchema.options.find((o) => o.shape.method.value === method);
}

/** A field path as the client wrote it (`params._meta.progressToken`), or `the message`. */
function fieldName(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? "the message" : `"${path.map(String).join(".")}"`;
}

/** The first fault the SDK's schemas find in a request with a valid `id`, as the reply to send (see the module rules). */
function schemaFault(m: Record<string, unknown>, id: string | number): { id: string | number; code: number; message: string } | undefined {
  const envelope = JSONRPCRequestSchema.safeParse(m);
  const parsed = envelope.success ? methodSchema(envelope.data.method)?.safeParse({ method: envelope.data.method, params: envelope.data.params }) : envelope;
  if (parsed === undefined || parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const inParams = issue.path[0] === "params";
  const what = issue.code === "unrecognized_keys" ? `unexpected member${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")} in ${fieldName(issue.path)}` : `${fieldName(issue.path)}: ${issue.message}`;
  return { id, code: inParams ? -32602 : -32600, message: `${inParams ? "Invalid params" : "Invalid Request"}: ${what}` };
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
      let line: string;
      try {
        line = STRICT_UTF8.decode(Buffer.concat(parts));
      } catch {
        reply(jsonRpcErrorLine(null, -32700, "Parse error: the message is not valid UTF-8"));
        line = "";
      }
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
