/**
 * The gateway's OpenAI API side (OpenAI API reference, "Create chat completion" and its
 * streaming events): parses `POST /v1/chat/completions` into a `GatewayChat`, and writes the
 * reply as a `chat.completion` body, or with `"stream": true` as server-sent events
 * `data: {chat.completion.chunk}` … `data: [DONE]`: text in `delta.content`, reasoning in
 * `delta.reasoning_content` (the field vLLM, llama.cpp's server and DeepSeek use), calls in
 * `delta.tool_calls` (first chunk of a call: `index`, `id`, `type`, `function.name` and empty
 * arguments; then `function.arguments` pieces with the same `index`), and a last chunk with
 * `finish_reason` (`tool_calls` when the message ends in calls), then, when the request sets
 * `stream_options.include_usage`, a chunk with `usage` and no choices (every chunk before it has
 * `"usage": null`). Errors are
 * `{"error": {"message", "type", "param", "code"}}` with an HTTP status, or as an event once
 * streaming has begun.
 */
import type { ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import type { ImageInput, Message, ToolCall } from "../llm/types.js";
import { GatewayError, type FinishReason, type GatewayChat } from "./types.js";
import { BufferedChatWriter, isRecord, newCallId, parseModel, parseSampling, parseStream, parseToolCalls, parseTools, writeStreamed, type SamplingKeys, type Usage } from "./wire.js";

/**
 * Request fields read as sampling settings: the OpenAI API's, `max_completion_tokens` before
 * the older `max_tokens`, and the extensions llama.cpp's server and vLLM read (`top_k`, `min_p`,
 * llama.cpp `repeat_penalty`).
 */
const SAMPLING_FIELDS: SamplingKeys = {
  topP: "top_p",
  topK: "top_k",
  minP: "min_p",
  seed: "seed",
  stop: "stop",
  maxTokens: "max_tokens",
  repeatPenalty: "repeat_penalty",
  presencePenalty: "presence_penalty",
  frequencyPenalty: "frequency_penalty",
};

/**
 * A message `content`: a string, `null`, or an array of content parts — `text` parts (and an
 * assistant message's `refusal` parts) joined, and in a user message `image_url` parts (`{"url"}`: an `http(s)` URL, or a base64 `data:` URL,
 * RFC 2397) as images.
 * @throws GatewayError 400 for another part type (an audio or file part is not forwarded, rather
 *   than dropped unseen), an image outside a user message, or an image URL of another form.
 */
function contentOf(raw: unknown, where: string, role: string): { text: string; images: ImageInput[] } {
  if (raw === undefined || raw === null) return { text: "", images: [] };
  if (typeof raw === "string") return { text: raw, images: [] };
  if (!Array.isArray(raw)) throw new GatewayError(400, `${where}.content must be a string or an array of content parts`);
  let text = "";
  const images: ImageInput[] = [];
  raw.forEach((p, j) => {
    const at = `${where}.content[${j}]`;
    if (!isRecord(p)) throw new GatewayError(400, `${at} must be a content part object`);
    if (p.type === "text") {
      if (typeof p.text !== "string") throw new GatewayError(400, `${at}.text must be a string`);
      text += p.text;
    } else if (p.type === "refusal" && role === "assistant") {
      // The model's refusal in an earlier turn (an assistant message's refusal part): what it said.
      if (typeof p.refusal !== "string") throw new GatewayError(400, `${at}.refusal must be a string`);
      text += p.refusal;
    } else if (p.type === "image_url") {
      if (role !== "user") throw new GatewayError(400, `${at}: only user messages may hold images`);
      const url = isRecord(p.image_url) ? p.image_url.url : p.image_url;
      if (typeof url !== "string") throw new GatewayError(400, `${at}.image_url.url must be a string`);
      images.push(imageOf(url, `${at}.image_url.url`));
    } else {
      throw new GatewayError(400, `${at}.type ${JSON.stringify(p.type).slice(0, 40)} is not forwarded by codecite serve (text and image_url parts are)`);
    }
  });
  return { text, images };
}

/**
 * An image URL of a client: base64 `data:` (RFC 2397 `data:[<mediatype>][;base64],<data>`) or `http(s)`.
 * The data: URL's header (up to its first comma) is cut with `indexOf`, not a pattern: a
 * repeated group over megabytes of `;` overflowed the regular expression's stack (a 500).
 */
function imageOf(url: string, where: string): ImageInput {
  if (/^https?:\/\//i.test(url)) return { url };
  const comma = /^data:/i.test(url) ? url.indexOf(",") : -1;
  if (comma !== -1) {
    const header = url.slice("data:".length, comma);
    if (!header.toLowerCase().endsWith(";base64")) throw new GatewayError(400, `${where}: a data: URL of an image must be base64 (data:image/png;base64,…)`);
    const mimeType = header.slice(0, header.indexOf(";"));
    const base64 = url.slice(comma + 1);
    // No bytes is no image (Ollama's API side refuses an empty one too).
    if (base64.trim() === "") throw new GatewayError(400, `${where}: the data: URL holds no image (nothing after the comma)`);
    return { base64, ...(mimeType === "" ? {} : { mimeType }) };
  }
  throw new GatewayError(400, `${where} must be an http(s) URL or a base64 data: URL`);
}

/**
 * Parses the body of `POST /v1/chat/completions`. Roles `developer` and `system` are system
 * messages; `tool` messages keep their `tool_call_id`.
 * @throws GatewayError 400 naming the first field that is wrong.
 */
export function parseOpenAIChat(body: unknown): GatewayChat {
  if (!isRecord(body)) throw new GatewayError(400, "the request body must be a JSON object");
  const model = parseModel(body.model);
  if (!Array.isArray(body.messages)) throw new GatewayError(400, "messages must be an array");
  const messages: Message[] = body.messages.map((m, i) => {
    const where = `messages[${i}]`;
    if (!isRecord(m)) throw new GatewayError(400, `${where} must be an object`);
    const role = m.role === "developer" ? "system" : m.role;
    if (role !== "system" && role !== "user" && role !== "assistant" && role !== "tool") {
      throw new GatewayError(400, `${where}.role must be one of system, developer, user, assistant, tool`);
    }
    const { text, images } = contentOf(m.content, where, role);
    // An assistant message that refused holds the refusal in its own field (API reference, the chat completion object, message.refusal).
    const refusal = role === "assistant" && text === "" && typeof m.refusal === "string" ? m.refusal : "";
    const out: Message = { role, content: text === "" ? refusal : text };
    if (images.length > 0) out.images = images;
    const reasoning = m.reasoning_content ?? m.reasoning;
    if (typeof reasoning === "string" && reasoning !== "") out.thinking = reasoning;
    const calls = parseToolCalls(m.tool_calls, `${where}.tool_calls`);
    if (calls) out.tool_calls = calls;
    if (typeof m.tool_call_id === "string") out.tool_call_id = m.tool_call_id;
    if (typeof m.name === "string" && role === "tool") out.tool_name = m.name;
    return out;
  });
  const chat: GatewayChat = { model, messages, tools: parseTools(body.tools), stream: parseStream(body.stream, false) };
  if (parseStreamUsage(body.stream_options)) chat.streamUsage = true;
  // One choice per reply: the shim reads one assistant message (`n` > 1 would lose the others unseen).
  if (body.n !== undefined && body.n !== null && body.n !== 1) throw new GatewayError(400, "n must be 1: codecite serve answers with one choice");
  applyToolChoice(chat, body.tool_choice);
  if (body.parallel_tool_calls !== undefined && body.parallel_tool_calls !== null) {
    if (typeof body.parallel_tool_calls !== "boolean") throw new GatewayError(400, "parallel_tool_calls must be true or false");
    chat.parallelToolCalls = body.parallel_tool_calls;
  }
  if (body.temperature !== undefined && body.temperature !== null) {
    if (typeof body.temperature !== "number" || !Number.isFinite(body.temperature)) throw new GatewayError(400, "temperature must be a number");
    chat.temperature = body.temperature;
  }
  const sampling = parseSampling(body, SAMPLING_FIELDS);
  const maxCompletion = parseSampling(body, { maxTokens: "max_completion_tokens" });
  if (maxCompletion.maxTokens !== undefined) sampling.maxTokens = maxCompletion.maxTokens;
  if (Object.keys(sampling).length > 0) chat.sampling = sampling;
  // A level goes on as one (`none` turns reasoning off; a level this gateway does not know asks for reasoning).
  const effort = body.reasoning_effort;
  if (typeof effort === "string" && effort !== "") chat.think = effort === "none" ? false : effort === "minimal" || effort === "low" || effort === "medium" || effort === "high" ? effort : true;
  const rf = isRecord(body.response_format) ? body.response_format : undefined;
  if (rf?.type === "json_schema" && isRecord(rf.json_schema) && isRecord(rf.json_schema.schema)) chat.format = rf.json_schema.schema;
  else if (rf?.type === "json_object") chat.format = { type: "object" };
  return chat;
}

/**
 * `stream_options.include_usage` (OpenAI API reference, Create chat completion): absent or
 * `null` is false, as is the option outside a stream (which has no chunks to add one to).
 * @throws GatewayError 400 when `stream_options` is not an object or `include_usage` not a boolean.
 */
function parseStreamUsage(options: unknown): boolean {
  if (options === undefined || options === null) return false;
  if (!isRecord(options)) throw new GatewayError(400, "stream_options must be an object");
  const include = options.include_usage;
  if (include === undefined || include === null) return false;
  if (typeof include !== "boolean") throw new GatewayError(400, "stream_options.include_usage must be true or false");
  return include;
}

/**
 * OpenAI `tool_choice` (API reference, Create chat completion): `auto` (or absent) changes
 * nothing; `none` offers no tool, so a call the model writes anyway is refused like any call to
 * a tool not offered; `required` asks the upstream for a call; `{"type": "function",
 * "function": {"name"}}` offers that tool alone and asks for it — the shim then produces no call
 * to another tool; `{"type": "allowed_tools", "allowed_tools": {"mode": "auto" | "required",
 * "tools": [{"type": "function", "function": {"name"}}, …]}}` offers those tools alone, and with
 * `required` asks for a call to one of them (an OpenAI-compatible upstream gets the narrowed list
 * and `required`, which every such server reads).
 * @throws GatewayError 400 for another value, or a name not among `tools`.
 */
function applyToolChoice(chat: GatewayChat, choice: unknown): void {
  if (choice === undefined || choice === null || choice === "auto") return;
  if (isRecord(choice) && choice.type === "allowed_tools") {
    applyAllowedTools(chat, choice.allowed_tools);
    return;
  }
  if (choice === "none") {
    chat.tools = [];
    return;
  }
  if (choice === "required") {
    if (chat.tools.length === 0) throw new GatewayError(400, "tool_choice is required, but tools is empty");
    chat.toolChoice = "required";
    return;
  }
  const fn = isRecord(choice) && choice.type === "function" && isRecord(choice.function) ? choice.function : undefined;
  if (fn === undefined || typeof fn.name !== "string") {
    throw new GatewayError(400, 'tool_choice must be "none", "auto", "required" or {"type": "function", "function": {"name": …}}');
  }
  const named = chat.tools.filter((t) => t.function.name === fn.name);
  if (named.length === 0) throw new GatewayError(400, `tool_choice names ${JSON.stringify(fn.name).slice(0, 80)}, which is not in tools`);
  chat.tools = named;
  chat.toolChoice = { name: fn.name };
}

/**
 * `tool_choice.allowed_tools` (see {@link applyToolChoice}).
 * @throws GatewayError 400 naming the field that is wrong, or a tool not among `tools`.
 */
function applyAllowedTools(chat: GatewayChat, allowed: unknown): void {
  const where = "tool_choice.allowed_tools";
  if (!isRecord(allowed) || (allowed.mode !== "auto" && allowed.mode !== "required") || !Array.isArray(allowed.tools)) {
    throw new GatewayError(400, `${where} must be {"mode": "auto" or "required", "tools": [{"type": "function", "function": {"name": …}}, …]}`);
  }
  const names = new Set(
    allowed.tools.map((t, i) => {
      const fn = isRecord(t) && t.type === "function" && isRecord(t.function) ? t.function : undefined;
      if (fn === undefined || typeof fn.name !== "string") throw new GatewayError(400, `${where}.tools[${i}] must be {"type": "function", "function": {"name": …}}`);
      if (!chat.tools.some((offered) => offered.function.name === fn.name)) {
        throw new GatewayError(400, `${where}.tools[${i}] names ${JSON.stringify(fn.name).slice(0, 80)}, which is not in tools`);
      }
      return fn.name;
    }),
  );
  chat.tools = chat.tools.filter((t) => names.has(t.function.name));
  if (allowed.mode === "required") {
    if (chat.tools.length === 0) throw new GatewayError(400, `${where}.mode is required, but ${where}.tools is empty`);
    chat.toolChoice = "required";
  }
}

/** Token counts in OpenAI's shape, when the upstream gave any. */
function usageOf(usage: Usage | undefined): Record<string, number> | undefined {
  if (usage?.prompt_tokens === undefined && usage?.completion_tokens === undefined) return undefined;
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** OpenAI's error body. */
function errorBody(error: GatewayError): unknown {
  return { error: { message: error.message, type: error.type, param: null, code: null } };
}

/** Writes an OpenAI error: a JSON body with the status, or an SSE event and `[DONE]` mid-stream. */
export function sendOpenAIError(res: ServerResponse, error: GatewayError): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end(`data: ${JSON.stringify(errorBody(error))}\n\ndata: [DONE]\n\n`);
    return;
  }
  res.writeHead(error.status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(errorBody(error)));
}

/** Length of each `function.arguments` piece in a stream (clients must join them; small pieces prove it). */
const ARGUMENT_PIECE = 24;

/** A `ChatWriter` for OpenAI clients. */
export class OpenAIChatWriter extends BufferedChatWriter {
  readonly #id = `chatcmpl-${randomBytes(12).toString("hex")}`;
  /** One value for the whole completion: "Each chunk has the same timestamp" (https://platform.openai.com/docs/api-reference/chat-streaming/streaming, `created`). */
  readonly #created = Math.floor(Date.now() / 1000);
  #sentRole = false;

  constructor(
    res: ServerResponse,
    private readonly model: string,
    stream: boolean,
    /** See `BufferedChatWriter`. */
    stallMs: number,
    /** The client asked for `stream_options.include_usage`: every chunk has `"usage": null`, and a usage chunk ends the stream. */
    private readonly includeUsage = false,
  ) {
    super(res, stream, stallMs);
  }

  /** The start of every event, up to the choice's `"delta":` (built once per reply). */
  #head: string | undefined;
  /** UTF-8 length of {@link #head}. */
  #headBytes = 0;
  /** The first event went out through `res.write` (the head of the response with it). */
  #opened = false;

  #chunk(delta: Record<string, unknown>, finish: FinishReason | null = null): void {
    const d = this.#sentRole ? delta : { role: "assistant", ...delta };
    this.#event(JSON.stringify(d), finish);
  }

  /** Writes one `chat.completion.chunk` event whose `delta` is the JSON text `delta`. */
  #event(delta: string, finish: FinishReason | null = null): void {
    if (!this.res.headersSent) {
      // No `connection` header of its own: node:http says keep-alive, or close when the client
      // asked for it (RFC 9112 §9.6) or is HTTP/1.0 (a body that ends with the connection).
      this.res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
    }
    this.#sentRole = true;
    if (this.#head === undefined) {
      this.#head = `data: {"id":${JSON.stringify(this.#id)},"object":"chat.completion.chunk","created":${this.#created},"model":${JSON.stringify(this.model)},"choices":[{"index":0,"delta":`;
      this.#headBytes = Buffer.byteLength(this.#head);
    }
    const end = `,"finish_reason":${finish === null ? "null" : JSON.stringify(finish)}}]${this.includeUsage ? ',"usage":null' : ""}}\n\n`;
    const event = `${this.#head}${delta}${end}`;
    // The event's length from its parts (see `writeStreamed`; `end` is ASCII).
    if (this.#opened) writeStreamed(this.res, event, this.#headBytes + Buffer.byteLength(delta) + end.length);
    else {
      this.res.write(event);
      this.#opened = true;
    }
  }

  /** One text field's delta: the common case after the first event, written without building objects. */
  #text(field: "content" | "reasoning_content", delta: string): void {
    if (this.#sentRole) this.#event(`{"${field}":${JSON.stringify(delta)}}`);
    else this.#chunk({ [field]: delta });
  }

  protected streamThinking(delta: string): void {
    this.#text("reasoning_content", delta);
  }

  protected streamContent(delta: string): void {
    this.#text("content", delta);
  }

  protected streamToolCalls(calls: ToolCall[]): void {
    calls.forEach((c, index) => {
      const args = JSON.stringify(c.arguments);
      this.#chunk({ tool_calls: [{ index, id: c.id ?? newCallId(), type: "function", function: { name: c.name, arguments: "" } }] });
      for (let i = 0; i < args.length; i += ARGUMENT_PIECE) {
        this.#chunk({ tool_calls: [{ index, function: { arguments: args.slice(i, i + ARGUMENT_PIECE) } }] });
      }
    });
  }

  protected endStream(reason: FinishReason, usage?: Usage): void {
    this.#chunk({}, reason);
    // The usage chunk: no choices, the counts the upstream gave (none given: none invented).
    const u = this.includeUsage ? usageOf(usage) : undefined;
    const last = u ? `data: ${JSON.stringify({ id: this.#id, object: "chat.completion.chunk", created: this.#created, model: this.model, choices: [], usage: u })}\n\n` : "";
    this.res.end(`${last}data: [DONE]\n\n`);
  }

  protected writeBody(reason: FinishReason, usage?: Usage): void {
    const u = usageOf(usage);
    const message: Record<string, unknown> = { role: "assistant", content: this.calls.length > 0 && this.text === "" ? null : this.text };
    if (this.reasoning !== "") message.reasoning_content = this.reasoning;
    if (this.calls.length > 0) {
      message.tool_calls = this.calls.map((c) => ({ id: c.id ?? newCallId(), type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
    }
    this.res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    this.res.end(
      JSON.stringify({
        id: this.#id,
        object: "chat.completion",
        created: this.#created,
        model: this.model,
        choices: [{ index: 0, message, finish_reason: reason }],
        ...(u ? { usage: u } : {}),
      }),
    );
  }

  protected sendFailure(error: GatewayError): void {
    sendOpenAIError(this.res, error);
  }
}
