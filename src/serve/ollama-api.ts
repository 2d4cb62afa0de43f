/**
 * The gateway's Ollama API side (Ollama API documentation, docs/api.md: `POST /api/chat`):
 * parses a chat request into a `GatewayChat`, and writes the reply as Ollama does — NDJSON
 * lines `{"model","created_at","message":{"role":"assistant","content","thinking"?,"tool_calls"?},"done":false}`
 * then a last line with `"done": true`, `done_reason` and counts; or one JSON body when the
 * request says `"stream": false`. Errors are `{"error": "message"}` with an HTTP status, or an
 * `{"error"}` line once streaming has begun (what Ollama itself does mid-stream).
 */
import type { ServerResponse } from "node:http";
import type { Message, ReasoningEffort, Role, ToolCall } from "../llm/types.js";
import { GatewayError, type FinishReason, type GatewayChat } from "./types.js";
import { BufferedChatWriter, isRecord, parseModel, parseSampling, parseStream, parseToolCalls, parseTools, writeStreamed, type SamplingKeys, type Usage } from "./wire.js";

const ROLES: readonly Role[] = ["system", "user", "assistant", "tool"];

/** Ollama `options` read as sampling settings (the rest pass on as `ollamaOptions`). */
const SAMPLING_OPTIONS: SamplingKeys = {
  topP: "top_p",
  topK: "top_k",
  minP: "min_p",
  seed: "seed",
  stop: "stop",
  maxTokens: "num_predict",
  repeatPenalty: "repeat_penalty",
  presencePenalty: "presence_penalty",
  frequencyPenalty: "frequency_penalty",
};

/**
 * Ollama's `think`: a boolean, or a level for models that take one (`low`, `medium`, `high`:
 * gpt-oss; Ollama API docs, "Generate a chat completion", `think`), passed on as it is. Another
 * non-empty string asks for reasoning, as before levels existed.
 */
function readThink(think: unknown): boolean | ReasoningEffort | undefined {
  if (typeof think === "boolean") return think;
  if (think === "low" || think === "medium" || think === "high") return think;
  return typeof think === "string" && think !== "" ? true : undefined;
}

/**
 * Parses the body of `POST /api/chat`.
 * @throws GatewayError 400 naming the first field that is wrong.
 */
export function parseOllamaChat(body: unknown): GatewayChat {
  if (!isRecord(body)) throw new GatewayError(400, "the request body must be a JSON object");
  const model = parseModel(body.model);
  if (!Array.isArray(body.messages)) throw new GatewayError(400, "messages must be an array");
  const messages: Message[] = body.messages.map((m, i) => {
    if (!isRecord(m) || !ROLES.includes(m.role as Role)) throw new GatewayError(400, `messages[${i}].role must be one of ${ROLES.join(", ")}`);
    if (m.content !== undefined && m.content !== null && typeof m.content !== "string") throw new GatewayError(400, `messages[${i}].content must be a string`);
    const out: Message = { role: m.role as Role, content: typeof m.content === "string" ? m.content : "" };
    if (typeof m.thinking === "string" && m.thinking !== "") out.thinking = m.thinking;
    if (m.images !== undefined && m.images !== null) {
      if (!Array.isArray(m.images) || m.images.some((x) => typeof x !== "string" || x === "")) throw new GatewayError(400, `messages[${i}].images must be an array of base64 strings`);
      if (m.images.length > 0) out.images = (m.images as string[]).map((base64) => ({ base64 }));
    }
    const calls = parseToolCalls(m.tool_calls, `messages[${i}].tool_calls`);
    if (calls) out.tool_calls = calls;
    if (typeof m.tool_name === "string") out.tool_name = m.tool_name;
    if (typeof m.tool_call_id === "string") out.tool_call_id = m.tool_call_id;
    return out;
  });
  const chat: GatewayChat = { model, messages, tools: parseTools(body.tools), stream: parseStream(body.stream, true) };
  const think = readThink(body.think);
  if (think !== undefined) chat.think = think;
  if (isRecord(body.format)) chat.format = body.format;
  else if (body.format === "json") chat.format = { type: "object" };
  if (body.keep_alive !== undefined && body.keep_alive !== null) {
    if (typeof body.keep_alive !== "string" && (typeof body.keep_alive !== "number" || !Number.isFinite(body.keep_alive))) {
      throw new GatewayError(400, 'keep_alive must be a duration such as "10m" or a number of seconds');
    }
    chat.keepAlive = body.keep_alive;
  }
  if (body.options !== undefined && body.options !== null && !isRecord(body.options)) throw new GatewayError(400, "options must be an object");
  const options = isRecord(body.options) ? body.options : {};
  const { temperature, num_ctx, ...rest } = options;
  if (temperature !== undefined && temperature !== null) {
    if (typeof temperature !== "number" || !Number.isFinite(temperature)) throw new GatewayError(400, "options.temperature must be a number");
    chat.temperature = temperature;
  }
  if (num_ctx !== undefined && num_ctx !== null) {
    if (typeof num_ctx !== "number" || !Number.isInteger(num_ctx) || num_ctx <= 0) throw new GatewayError(400, "options.num_ctx must be a positive integer");
    chat.contextTokens = num_ctx;
  }
  const sampling = parseSampling(options, SAMPLING_OPTIONS, "options.");
  if (Object.keys(sampling).length > 0) chat.sampling = sampling;
  const samplingKeys = new Set(Object.values(SAMPLING_OPTIONS));
  const other = Object.fromEntries(Object.entries(rest).filter(([k, v]) => !samplingKeys.has(k) && v !== undefined && v !== null));
  if (Object.keys(other).length > 0) chat.ollamaOptions = other;
  return chat;
}

/** Writes `{"error": message}` with the status (Ollama's error shape). */
export function sendOllamaError(res: ServerResponse, error: GatewayError): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end(`${JSON.stringify({ error: error.message })}\n`);
    return;
  }
  res.writeHead(error.status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify({ error: error.message }));
}

/** The end of every streamed line after the message's fields (ASCII). */
const LINE_END = '},"done":false}\n';

/**
 * The time a line is written, as Ollama stamps each streamed response when it writes it
 * (`created_at`, docs/api.md "Generate a chat completion": every streamed object carries its own):
 * ISO 8601 in UTC, the same string within one millisecond (24 ASCII characters).
 */
class LineClock {
  #ms = -1;
  #text = "";

  now(): string {
    const ms = Date.now();
    if (ms !== this.#ms) {
      this.#ms = ms;
      this.#text = new Date(ms).toISOString();
    }
    return this.#text;
  }
}

/** A `ChatWriter` for Ollama clients. */
export class OllamaChatWriter extends BufferedChatWriter {
  readonly #clock = new LineClock();

  constructor(
    res: ServerResponse,
    private readonly model: string,
    stream: boolean,
    /** See `BufferedChatWriter`. */
    stallMs: number,
  ) {
    super(res, stream, stallMs);
  }

  /** The start of every streamed line, up to its `"created_at":` value (built once per reply). */
  #head: string | undefined;
  /** What follows the `created_at` value, up to the message's `"content":`. */
  static readonly #MID = ',"message":{"role":"assistant","content":';
  /** The first line went out through `res.write` (the head of the response with it). */
  #opened = false;

  /** UTF-8 length of {@link #head}, the stamp (quoted) and the part after it. */
  #headBytes = 0;

  /** Writes one line `{"model","created_at","message":{"role":"assistant","content":<content><rest>},"done":false}`, stamped now; `content` and `rest` are JSON text. */
  #line(content: string, rest = ""): void {
    if (this.#head === undefined) {
      this.#head = `{"model":${JSON.stringify(this.model)},"created_at":"`;
      this.#headBytes = Buffer.byteLength(this.#head) + this.#clock.now().length + 1 + OllamaChatWriter.#MID.length;
    }
    const line = `${this.#head}${this.#clock.now()}"${OllamaChatWriter.#MID}${content}${rest}${LINE_END}`;
    // The line's length from its parts (see `writeStreamed`).
    if (this.#opened) writeStreamed(this.res, line, this.#headBytes + Buffer.byteLength(content) + (rest === "" ? 0 : Buffer.byteLength(rest)) + LINE_END.length);
    else {
      if (!this.res.headersSent) this.res.writeHead(200, { "content-type": "application/x-ndjson" });
      this.res.write(line);
      this.#opened = true;
    }
  }

  protected streamThinking(delta: string): void {
    this.#line('""', `,"thinking":${JSON.stringify(delta)}`);
  }

  protected streamContent(delta: string): void {
    this.#line(JSON.stringify(delta));
  }

  protected streamToolCalls(calls: ToolCall[]): void {
    this.#line('""', `,"tool_calls":${JSON.stringify(wireCalls(calls))}`);
  }

  /** The last line's or the body's fields: `done`, `done_reason` and the counts. */
  #ending(reason: FinishReason, usage?: Usage): Record<string, unknown> {
    const counts: Record<string, number> = {};
    if (usage?.prompt_tokens !== undefined) counts.prompt_eval_count = usage.prompt_tokens;
    if (usage?.completion_tokens !== undefined) counts.eval_count = usage.completion_tokens;
    // Ollama reports `stop` also for a message that ends in tool calls.
    return { done: true, done_reason: reason === "length" ? "length" : "stop", ...counts };
  }

  protected endStream(reason: FinishReason, usage?: Usage): void {
    if (!this.res.headersSent) this.res.writeHead(200, { "content-type": "application/x-ndjson" });
    this.res.end(`${JSON.stringify({ model: this.model, created_at: this.#clock.now(), message: { role: "assistant", content: "" }, ...this.#ending(reason, usage) })}\n`);
  }

  protected writeBody(reason: FinishReason, usage?: Usage): void {
    const message: Record<string, unknown> = { role: "assistant", content: this.text };
    if (this.reasoning !== "") message.thinking = this.reasoning;
    if (this.calls.length > 0) message.tool_calls = wireCalls(this.calls);
    this.res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    this.res.end(JSON.stringify({ model: this.model, created_at: this.#clock.now(), message, ...this.#ending(reason, usage) }));
  }

  protected sendFailure(error: GatewayError): void {
    sendOllamaError(this.res, error);
  }
}

function wireCalls(calls: ToolCall[]): unknown[] {
  return calls.map((c, index) => ({ ...(c.id !== undefined ? { id: c.id } : {}), function: { index, name: c.name, arguments: c.arguments } }));
}
