/**
 * The gateway's Ollama API side (Ollama API documentation, docs/api.md: `POST /api/chat`):
 * parses a chat request into a `GatewayChat`, and writes the reply as Ollama does — NDJSON
 * lines `{"model","created_at","message":{"role":"assistant","content","thinking"?,"tool_calls"?},"done":false}`
 * then a last line with `"done": true`, `done_reason` and counts; or one JSON body when the
 * request says `"stream": false`. Errors are `{"error": "message"}` with an HTTP status, or an
 * `{"error"}` line once streaming has begun (what Ollama itself does mid-stream).
 */
import type { ServerResponse } from "node:http";
import type { Message, Role, ToolCall, ToolDefinition } from "../llm/types.js";
import { GatewayError, type ChatWriter, type FinishReason, type GatewayChat } from "./types.js";

const ROLES: readonly Role[] = ["system", "user", "assistant", "tool"];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Tool-call arguments as an object: Ollama sends objects; a JSON string is decoded; anything else is `{}`. */
export function argumentsObject(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (typeof raw === "string") {
    try {
      const v: unknown = JSON.parse(raw);
      if (isRecord(v)) return v;
    } catch {
      // fall through
    }
  }
  return {};
}

/** The client's tool list, checked: each `{type: "function", function: {name, description?, parameters?}}`. */
export function parseTools(raw: unknown): ToolDefinition[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new GatewayError(400, "tools must be an array");
  return raw.map((t, i) => {
    const fn = isRecord(t) ? t.function : undefined;
    if (!isRecord(fn) || typeof fn.name !== "string" || fn.name === "") throw new GatewayError(400, `tools[${i}] needs function.name`);
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

/**
 * Parses the body of `POST /api/chat`.
 * @throws GatewayError 400 naming the first field that is wrong.
 */
export function parseOllamaChat(body: unknown): GatewayChat {
  if (!isRecord(body)) throw new GatewayError(400, "the request body must be a JSON object");
  if (typeof body.model !== "string" || body.model.trim() === "") throw new GatewayError(400, "model is required");
  if (!Array.isArray(body.messages)) throw new GatewayError(400, "messages must be an array");
  const messages: Message[] = body.messages.map((m, i) => {
    if (!isRecord(m) || !ROLES.includes(m.role as Role)) throw new GatewayError(400, `messages[${i}].role must be one of ${ROLES.join(", ")}`);
    if (m.content !== undefined && m.content !== null && typeof m.content !== "string") throw new GatewayError(400, `messages[${i}].content must be a string`);
    const out: Message = { role: m.role as Role, content: typeof m.content === "string" ? m.content : "" };
    if (typeof m.thinking === "string" && m.thinking !== "") out.thinking = m.thinking;
    if (Array.isArray(m.tool_calls)) {
      out.tool_calls = m.tool_calls.filter(isRecord).map((c) => {
        const fn = isRecord(c.function) ? c.function : {};
        const call: ToolCall = { name: typeof fn.name === "string" ? fn.name : "", arguments: argumentsObject(fn.arguments) };
        if (typeof c.id === "string") call.id = c.id;
        return call;
      });
    }
    if (typeof m.tool_name === "string") out.tool_name = m.tool_name;
    if (typeof m.tool_call_id === "string") out.tool_call_id = m.tool_call_id;
    return out;
  });
  const chat: GatewayChat = { model: body.model, messages, tools: parseTools(body.tools), stream: body.stream !== false };
  if (body.think === true || (typeof body.think === "string" && body.think !== "")) chat.think = true;
  else if (body.think === false) chat.think = false;
  if (isRecord(body.format)) chat.format = body.format;
  else if (body.format === "json") chat.format = { type: "object" };
  const options = isRecord(body.options) ? body.options : {};
  if (typeof options.temperature === "number") chat.temperature = options.temperature;
  if (typeof options.num_ctx === "number" && Number.isInteger(options.num_ctx) && options.num_ctx > 0) chat.contextTokens = options.num_ctx;
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

/** A `ChatWriter` for Ollama clients. */
export class OllamaChatWriter implements ChatWriter {
  #content = "";
  #thinking = "";
  #calls: ToolCall[] = [];
  readonly #created = new Date().toISOString();

  constructor(
    private readonly res: ServerResponse,
    private readonly model: string,
    private readonly stream: boolean,
  ) {}

  #line(message: Record<string, unknown>): void {
    if (!this.res.headersSent) this.res.writeHead(200, { "content-type": "application/x-ndjson" });
    this.res.write(`${JSON.stringify({ model: this.model, created_at: this.#created, message: { role: "assistant", content: "", ...message }, done: false })}\n`);
  }

  thinking(delta: string): void {
    if (delta === "") return;
    if (this.stream) this.#line({ thinking: delta });
    else this.#thinking += delta;
  }

  content(delta: string): void {
    if (delta === "") return;
    if (this.stream) this.#line({ content: delta });
    else this.#content += delta;
  }

  toolCalls(calls: ToolCall[]): void {
    if (calls.length === 0) return;
    if (this.stream) this.#line({ tool_calls: wireCalls(calls) });
    else this.#calls.push(...calls);
  }

  finish(reason: FinishReason, usage?: { prompt_tokens?: number; completion_tokens?: number }): void {
    const counts: Record<string, number> = {};
    if (usage?.prompt_tokens !== undefined) counts.prompt_eval_count = usage.prompt_tokens;
    if (usage?.completion_tokens !== undefined) counts.eval_count = usage.completion_tokens;
    // Ollama reports `stop` also for a message that ends in tool calls.
    const done_reason = reason === "length" ? "length" : "stop";
    if (this.stream) {
      if (!this.res.headersSent) this.res.writeHead(200, { "content-type": "application/x-ndjson" });
      this.res.end(
        `${JSON.stringify({ model: this.model, created_at: this.#created, message: { role: "assistant", content: "" }, done: true, done_reason, ...counts })}\n`,
      );
      return;
    }
    const message: Record<string, unknown> = { role: "assistant", content: this.#content };
    if (this.#thinking !== "") message.thinking = this.#thinking;
    if (this.#calls.length > 0) message.tool_calls = wireCalls(this.#calls);
    this.res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    this.res.end(JSON.stringify({ model: this.model, created_at: this.#created, message, done: true, done_reason, ...counts }));
  }

  fail(error: GatewayError): void {
    sendOllamaError(this.res, error);
  }
}

function wireCalls(calls: ToolCall[]): unknown[] {
  return calls.map((c, index) => ({ ...(c.id !== undefined ? { id: c.id } : {}), function: { index, name: c.name, arguments: c.arguments } }));
}
