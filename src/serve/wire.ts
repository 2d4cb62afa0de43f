/**
 * What the gateway's two client APIs read alike (Ollama API documentation, docs/api.md
 * `POST /api/chat`; OpenAI API reference, "Create chat completion"): the tool list, the calls of
 * an assistant message, call arguments, sampling settings, and the writer both replies share
 * (buffered for a single body, or passed on as they come for a stream).
 */
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "../llm/json-depth.js";
import type { Sampling, ToolCall, ToolDefinition } from "../llm/types.js";
import { GatewayError, type ChatWriter, type FinishReason } from "./types.js";

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A call id in OpenAI's form (`call_` and 24 base-62-like characters). */
export function newCallId(): string {
  return `call_${randomBytes(18).toString("base64url").slice(0, 24)}`;
}

/**
 * Tool-call arguments as an object: Ollama sends objects, OpenAI a JSON string (decoded); anything else is `{}`.
 * @throws GatewayError 400 naming `where` when the decoded string nests more than `MAX_JSON_DEPTH`
 *   levels (it could not be serialised again for the upstream; an object body was bounded by {@link MAX_REQUEST_DEPTH}).
 */
function argumentsObject(raw: unknown, where: string): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (typeof raw === "string") {
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      return {};
    }
    if (jsonDepthExceeds(v)) throw new GatewayError(400, `${where} is nested more than ${MAX_JSON_DEPTH} levels deep`);
    if (isRecord(v)) return v;
  }
  return {};
}

/**
 * Deepest nesting of a request body (objects and arrays, the body itself level 1). The gateway
 * serialises what it is sent (to the upstream, into a prompt), and `JSON.stringify` or any
 * recursive walk of a value nested some thousands of levels overflows the call stack; 128 leaves
 * room for a call's arguments or a tool's parameter schema nested `MAX_JSON_DEPTH` (64) levels
 * under the message or tool that holds it.
 */
const MAX_REQUEST_DEPTH = 2 * MAX_JSON_DEPTH;

/**
 * Refuses a parsed request body nested more than {@link MAX_REQUEST_DEPTH} levels.
 * @throws GatewayError 400 saying so.
 */
export function checkRequestDepth(body: unknown): void {
  if (jsonDepthExceeds(body, MAX_REQUEST_DEPTH)) throw new GatewayError(400, `the request body is nested more than ${MAX_REQUEST_DEPTH} levels deep`);
}

/**
 * Most tools one request may offer, and most characters in a tool's name. The gateway matches the
 * model's text against the offered names with regular expressions built from them
 * (`toolshim/stream-filter.ts`, `structural.ts`): one name of 40,000 characters made V8 refuse the
 * pattern ("Regular expression too large", a 502 blaming the upstream), and 50,000 tools took
 * 4.4 s of the gateway's one thread to compile. OpenAI's API takes at most 128 tools and names of
 * 64 characters; these bounds leave real clients (many MCP servers, long prefixed names) room.
 */
const MAX_TOOLS = 1024;
const MAX_TOOL_NAME_CHARS = 256;

/**
 * Most characters in a request's model name. The gateway keeps counters per model name
 * (`stats.ts`) and answers them all on `GET /codecite/stats`; a name is an Ollama name (its
 * parts at most a few hundred characters, ollama/ollama types/model/name.go) or what an
 * OpenAI-compatible server serves (a Hugging Face id, or a file path as vLLM's default served name),
 * so 1,024 leaves real names room while a client cannot make one model's counters hold megabytes.
 */
const MAX_MODEL_NAME_CHARS = 1024;

/**
 * The request's `model`: a string that is not blank, of at most {@link MAX_MODEL_NAME_CHARS} characters.
 * @throws GatewayError 400 naming the field.
 */
export function parseModel(raw: unknown): string {
  if (typeof raw !== "string" || raw.trim() === "") throw new GatewayError(400, "model is required");
  if (raw.length > MAX_MODEL_NAME_CHARS) throw new GatewayError(400, `model is ${raw.length} characters long; a model name has at most ${MAX_MODEL_NAME_CHARS}`);
  return raw;
}

/** The client's tool list, checked: each `{type: "function", function: {name, description?, parameters?}}`, at most {@link MAX_TOOLS}, names of at most {@link MAX_TOOL_NAME_CHARS}. */
export function parseTools(raw: unknown): ToolDefinition[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new GatewayError(400, "tools must be an array");
  if (raw.length > MAX_TOOLS) throw new GatewayError(400, `tools has ${raw.length} tools; at most ${MAX_TOOLS} are accepted`);
  return raw.map((t, i) => {
    const fn = isRecord(t) ? t.function : undefined;
    if (!isRecord(fn) || typeof fn.name !== "string" || fn.name === "") throw new GatewayError(400, `tools[${i}] needs function.name`);
    if (fn.name.length > MAX_TOOL_NAME_CHARS) throw new GatewayError(400, `tools[${i}].function.name is ${fn.name.length} characters long; a tool name has at most ${MAX_TOOL_NAME_CHARS}`);
    return {
      type: "function",
      function: {
        name: fn.name,
        description: typeof fn.description === "string" ? fn.description : "",
        parameters: isRecord(fn.parameters) ? fn.parameters : { type: "object", properties: {} },
      },
    };
  });
}

/** The `tool_calls` of an assistant message in history (`[{id?, function: {name, arguments}}]`, both APIs). */
export function parseToolCalls(raw: unknown, where: string): ToolCall[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.filter(isRecord).map((c, i) => {
    const fn = isRecord(c.function) ? c.function : {};
    const call: ToolCall = { name: typeof fn.name === "string" ? fn.name : "", arguments: argumentsObject(fn.arguments, `${where}[${i}].function.arguments`) };
    if (typeof c.id === "string") call.id = c.id;
    return call;
  });
}

/** Where each `Sampling` field is read from a request: its key in the client API's object. */
export type SamplingKeys = Partial<Record<Exclude<keyof Sampling, "stop">, string>> & { stop?: string };

/**
 * The request's `stream` flag: `true` or `false`, or absent (`null` too) for the API's default
 * (Ollama streams unless told `false`, docs/api.md; OpenAI streams only when told `true`).
 * @throws GatewayError 400 for any other value (`"yes"`, `1`): Ollama's server, decoding into a
 * boolean, refuses those the same way, and the client learns its request was not understood
 * rather than getting the other mode.
 */
export function parseStream(value: unknown, absent: boolean): boolean {
  if (value === undefined || value === null) return absent;
  if (typeof value !== "boolean") throw new GatewayError(400, "stream must be true or false");
  return value;
}

/**
 * Reads sampling settings from `source` (Ollama `options`, or the OpenAI request body) under
 * the `keys` given; `where` prefixes the field in errors (e.g. `options.`).
 * Integers: `topK`, `seed`, `maxTokens`; `stop` is a string or an array of strings.
 * @throws GatewayError 400 naming the field when a value has the wrong type.
 */
export function parseSampling(source: Record<string, unknown>, keys: SamplingKeys, where = ""): Sampling {
  const out: Sampling = {};
  const integers = new Set<keyof Sampling>(["topK", "seed", "maxTokens"]);
  for (const [field, key] of Object.entries(keys) as [keyof Sampling, string][]) {
    const v = source[key];
    if (v === undefined || v === null) continue;
    if (field === "stop") {
      const list = typeof v === "string" ? [v] : v;
      if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) throw new GatewayError(400, `${where}${key} must be a string or an array of strings`);
      out.stop = list as string[];
      continue;
    }
    if (typeof v !== "number" || !Number.isFinite(v) || (integers.has(field) && !Number.isInteger(v))) {
      throw new GatewayError(400, `${where}${key} must be ${integers.has(field) ? "an integer" : "a number"}`);
    }
    out[field] = v;
  }
  return out;
}

/**
 * Most bytes of a streamed reply the gateway holds for a client that does not read them (16 MiB),
 * where the reply's source cannot be paused ({@link clientBacklog}: the upstream of a shim turn
 * is; the agent of the virtual model is not). Past it the connection is closed, which cancels the
 * upstream request (`server.ts`).
 */
export const MAX_UNREAD_REPLY_BYTES = 16 * 1024 * 1024;

/**
 * Writes one piece of a streamed reply after its first piece, which went out through `res.write`
 * (so the response's head is on the connection before it). When the body is chunked (RFC 9112 §7.1: `<size in hex>CRLF<data>CRLF`), the
 * piece goes to the socket as one chunk in one write — the same bytes `res.write` sends, without
 * its four buffered parts, the cork until the next tick and the gathered write per piece, which a
 * gateway relaying thousands of pieces a second pays on each. Otherwise (no socket yet, an HTTP/1.0
 * client without chunked encoding, a socket closing) through `res.write`. When the client has left
 * more than {@link MAX_UNREAD_REPLY_BYTES} unread, the response is destroyed instead.
 * `bytes`, when given, is the UTF-8 length of `text`, summed by the caller over the parts it
 * joined: measuring the joined text (a V8 cons string) would flatten it into a copy first, and
 * the socket's write then copies it again (two copies of every piece, which a gateway relaying
 * thousands of pieces a second pays in collector work).
 */
export function writeStreamed(res: ServerResponse, text: string, bytes?: number): void {
  if (res.destroyed) return;
  const socket = res.socket;
  // A client that does not read its reply: the pieces would pile up in memory for as long as
  // the model streams (up to the 256 MiB a streamed reply may have, for each such client).
  // (`res.writableLength` counts what the response and its socket hold.)
  if (res.writableLength > MAX_UNREAD_REPLY_BYTES) {
    res.destroy();
    return;
  }
  if (socket !== null && res.chunkedEncoding && socket.writable && !res.writableEnded && text !== "") {
    socket.write(`${(bytes ?? Buffer.byteLength(text)).toString(16)}\r\n${text}\r\n`);
    return;
  }
  res.write(text);
}

/**
 * When the client of a streamed reply has fallen behind — its socket holds more than its
 * high-water mark unwritten (Node.js documentation, `writable.writableNeedDrain`) — a promise that
 * resolves once the socket has drained or the response has closed; else `undefined`. While it
 * waits, a client that takes no byte for `stallMs` ms has its connection closed (the socket's
 * timeout counts time without progress, Node.js documentation `socket.setTimeout`; with no
 * 'timeout' listener the server destroys the socket), which cancels the upstream request: a client
 * that never reads holds neither memory nor the model's slot for long.
 */
function clientBacklog(res: ServerResponse, stallMs: number): Promise<void> | undefined {
  const socket = res.socket;
  if (socket === null || !socket.writableNeedDrain || res.destroyed) return undefined;
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off("drain", done);
      res.off("close", done);
      socket.setTimeout(0);
      resolve();
    };
    socket.on("drain", done);
    res.on("close", done);
    socket.setTimeout(stallMs);
  });
}

/** Usage counts a reply may report. */
export interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

/**
 * A `ChatWriter` that either passes each piece on as it comes (`stream`) or gathers the message
 * for one body at the end. Subclasses write their API's stream pieces and bodies.
 */
export abstract class BufferedChatWriter implements ChatWriter {
  protected text = "";
  protected reasoning = "";
  protected calls: ToolCall[] = [];

  constructor(
    protected readonly res: ServerResponse,
    protected readonly stream: boolean,
    /** How long a streamed reply waits for a client that takes none of it ({@link clientBacklog}), ms. */
    private readonly stallMs: number,
  ) {}

  protected abstract streamThinking(delta: string): void;
  protected abstract streamContent(delta: string): void;
  protected abstract streamToolCalls(calls: ToolCall[]): void;
  /** The end of a stream. */
  protected abstract endStream(reason: FinishReason, usage?: Usage): void;
  /** The whole message as one body (`text`, `reasoning`, `calls` hold it). */
  protected abstract writeBody(reason: FinishReason, usage?: Usage): void;
  /** The error in the API's shape: an HTTP error before the first byte, else an error in the stream. */
  protected abstract sendFailure(error: GatewayError): void;

  /** The error the reply ended with ({@link fail}), if any: the request's log line says why it failed (`server.ts`). */
  failure: GatewayError | undefined;

  /**
   * The reply has ended ({@link fail} or {@link finish}): later calls write nothing. The gateway
   * ends a reply while its turn still runs when it stops (`server.ts` `close`), and the turn's
   * pieces already on their way would be written after the end.
   */
  #ended = false;

  fail(error: GatewayError): void {
    if (this.#ended) return;
    this.#ended = true;
    this.failure = error;
    this.sendFailure(error);
  }

  thinking(delta: string): void {
    if (delta === "" || this.#ended) return;
    if (this.stream) this.streamThinking(delta);
    else this.reasoning += delta;
  }

  content(delta: string): void {
    if (delta === "" || this.#ended) return;
    if (this.stream) this.streamContent(delta);
    else this.text += delta;
  }

  toolCalls(calls: ToolCall[]): void {
    if (calls.length === 0 || this.#ended) return;
    if (this.stream) this.streamToolCalls(calls);
    else this.calls.push(...calls);
  }

  backlog(): Promise<void> | undefined {
    return this.stream ? clientBacklog(this.res, this.stallMs) : undefined;
  }

  finish(reason: FinishReason, usage?: Usage): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.stream) this.endStream(reason, usage);
    else this.writeBody(reason, usage);
  }
}
