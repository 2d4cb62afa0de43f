/**
 * `OpenAIProvider`: chat against any OpenAI-compatible server (vLLM, SGLang, llama.cpp
 * `llama-server`, LM Studio, Ollama's own `/v1`) through the official `openai` client; a streamed
 * chat is read line by line over `node:http` (`http-lines.ts`: the client's web streams cost a
 * promise, a copy and a decode per read, which `codecite serve` pays on every relayed chunk),
 * with the client's reading of events and errors, unless retries are asked for.
 *
 * Wire protocol: OpenAI API `POST {base}/chat/completions` (streamed as server-sent events
 * when the caller wants deltas, otherwise one JSON body) and `GET {base}/models`.
 * Conversion to and from our `Message`/`ToolCall` types happens only in this file.
 */
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "openai";
import { boundedFetch } from "./bounded-fetch.js";
import { HttpStatusError, postLines, REPLY_CUT_SHORT } from "./http-lines.js";
import { AddressError, normalizeHttpBaseURL, redactCredentials, splitCredentials } from "./server-address.js";
import { parseToolArguments } from "./tool-arguments.js";
import { SERVER_NAMES, unreachableMessage } from "./unreachable.js";
import {
  ProviderError,
  type ChatOptions,
  type ChatRequest,
  type ChatTurn,
  type Message,
  type Provider,
  type Sampling,
  type ToolCall,
} from "./types.js";
import { checkImagesInUserMessages, imageUrl } from "./images.js";
import { tokenUsage } from "./token-usage.js";

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type WireTool = OpenAI.Chat.Completions.ChatCompletionTool;
type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/**
 * What a streamed request adds: `stream`, and `stream_options.include_usage`, without which a
 * server streams no token counts ("an additional chunk will be streamed before the data: [DONE]
 * message … the choices field will always be an empty array": OpenAI API reference, Create chat
 * completion, `stream_options`; read by vLLM, llama.cpp's server and Ollama's OpenAI API too).
 */
const STREAMED = { stream: true, stream_options: { include_usage: true } } as const;

/**
 * Whether `err` (an `APIError` of a streamed request) is a server's refusal of `stream_options`:
 * HTTP 400 or 422 whose reason names the field. Servers that validate every field refuse one they
 * do not know: Azure OpenAI before API version 2024-09-01 ("Unrecognized request argument
 * supplied: stream_options"), servers built on pydantic models that forbid extra fields
 * (FastAPI's 422 `{"detail": [{"loc": ["body", "stream_options"], …}]}`).
 */
function refusesStreamOptions(err: unknown): boolean {
  return err instanceof APIError && (err.status === 400 || err.status === 422) && /stream_options/.test(`${err.message} ${JSON.stringify(err.error ?? null)}`);
}

/**
 * `Sampling` as request fields: `top_p`, `seed`, `stop`, `max_tokens`, `presence_penalty`,
 * `frequency_penalty` (OpenAI API reference, "Create chat completion"), and `top_k`, `min_p`,
 * `repeat_penalty` as llama.cpp's server names them (its README, `POST /v1/chat/completions`
 * takes the `/completion` options; vLLM reads `top_k` and `min_p` as extra sampling parameters).
 */
function samplingParams(s: Sampling | undefined): Partial<CreateParams> & Record<string, unknown> {
  const p: Partial<CreateParams> & Record<string, unknown> = {};
  if (s === undefined) return p;
  if (s.topP !== undefined) p.top_p = s.topP;
  if (s.seed !== undefined) p.seed = s.seed;
  if (s.stop !== undefined) p.stop = s.stop;
  if (s.maxTokens !== undefined) p.max_tokens = s.maxTokens;
  if (s.presencePenalty !== undefined) p.presence_penalty = s.presencePenalty;
  if (s.frequencyPenalty !== undefined) p.frequency_penalty = s.frequencyPenalty;
  if (s.topK !== undefined) p.top_k = s.topK;
  if (s.minP !== undefined) p.min_p = s.minP;
  if (s.repeatPenalty !== undefined) p.repeat_penalty = s.repeatPenalty;
  return p;
}

/** The key sent when none is configured: local servers ignore it, the client requires one. */
export const DUMMY_API_KEY = "sk-no-key-required";

/** Options of `new OpenAIProvider(…)`. */
export interface OpenAIProviderOptions {
  /**
   * Server address, e.g. `http://127.0.0.1:8000/v1`. A URL with no path gets `/v1` appended
   * (vLLM, llama-server, LM Studio and Ollama all serve the API under `/v1`).
   */
  baseURL: string;
  /** Bearer key; `OPENAI_API_KEY`. A dummy key is sent when absent (local servers need none). */
  apiKey?: string;
  /** Per-request timeout in ms, except time a streamed reply is paused by `ChatOptions.backpressure` (default 300 000). */
  timeoutMs?: number;
  /** Retries on connection errors, 429 and 5xx (default 0: a local server that is down stays down). */
  maxRetries?: number;
}

/**
 * Normalises an OpenAI-compatible base URL (`normalizeHttpBaseURL`: `http://` added when no
 * scheme is given, trailing slashes dropped) and appends `/v1` when the URL has no path.
 * @throws ProviderError `UNREACHABLE` when empty, `HTTP` when the value is not an http(s) URL.
 */
export function normalizeOpenAIBaseURL(raw: string): string {
  if (raw.trim() === "") {
    throw new ProviderError(
      "UNREACHABLE",
      "no OpenAI-compatible server is configured",
      "set OPENAI_BASE_URL (or pass --host) to the server's API address, e.g. http://127.0.0.1:8000/v1",
    );
  }
  let base: string;
  try {
    base = normalizeHttpBaseURL(raw);
  } catch (err) {
    if (!(err instanceof AddressError)) throw err;
    throw new ProviderError("HTTP", `OPENAI_BASE_URL is not an http(s) URL: ${JSON.stringify(raw)} (${err.detail})`, "e.g. http://127.0.0.1:8000/v1");
  }
  return new URL(base).pathname === "/" ? `${base}/v1` : base;
}

/** A tool call being assembled from streamed deltas (OpenAI `delta.tool_calls[]`, keyed by `index`). */
interface PartialCall {
  id?: string;
  name: string;
  args: string;
}

/**
 * The call a streamed delta continues when the server omits `index` (some older servers):
 * a delta with a new `id`, or a name after the last call already has arguments, starts a new
 * call; anything else continues the last one.
 */
function indexWithout(partial: Map<number, PartialCall>, tc: { id?: string; function?: { name?: string } }): number {
  const lastIndex = partial.size - 1;
  const last = partial.get(lastIndex);
  if (!last) return 0;
  if (tc.id && last.id && tc.id !== last.id) return partial.size;
  if (!tc.id && tc.function?.name && last.name !== "" && last.args !== "") return partial.size;
  return lastIndex;
}

/** Reasoning text of a delta or message: `reasoning_content` (vLLM, llama-server, DeepSeek) or `reasoning` (Ollama `/v1`, LM Studio). */
function reasoningOf(obj: unknown): string {
  if (typeof obj !== "object" || obj === null) return "";
  const rec = obj as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof rec.reasoning_content === "string") return rec.reasoning_content;
  if (typeof rec.reasoning === "string") return rec.reasoning;
  return "";
}

/**
 * Converts our messages to OpenAI chat messages. Tool calls without a server id (recovered
 * by the tool shim, or from providers that assign none) get `call_<turn>_<n>` ids, and tool
 * messages without `tool_call_id` answer the pending calls of the previous assistant turn in
 * order (preferring the one whose name matches `tool_name`), since OpenAI-compatible servers
 * require every tool message to name the call it answers.
 */
export function toWireMessages(messages: readonly Message[]): WireMessage[] {
  checkImagesInUserMessages(messages);
  const out: WireMessage[] = [];
  let pending: { id: string; name: string }[] = [];
  messages.forEach((m, turn) => {
    switch (m.role) {
      case "system":
        out.push({ role: "system", content: m.content });
        return;
      case "user":
        out.push(
          m.images !== undefined && m.images.length > 0
            ? { role: "user", content: [{ type: "text", text: m.content }, ...m.images.map((image) => ({ type: "image_url" as const, image_url: { url: imageUrl(image) } }))] }
            : { role: "user", content: m.content },
        );
        return;
      case "assistant": {
        const calls = (m.tool_calls ?? []).map((c, n) => ({
          id: c.id ?? `call_${turn}_${n}`,
          type: "function" as const,
          function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) },
        }));
        pending = calls.map((c) => ({ id: c.id, name: c.function.name }));
        out.push(calls.length > 0 ? { role: "assistant", content: m.content || null, tool_calls: calls } : { role: "assistant", content: m.content });
        return;
      }
      case "tool": {
        let id = m.tool_call_id;
        if (id === undefined) {
          const idx = Math.max(0, pending.findIndex((p) => p.name === m.tool_name));
          id = pending[idx]?.id ?? `call_${turn}_0`;
        }
        pending = pending.filter((p) => p.id !== id);
        out.push({ role: "tool", tool_call_id: id, content: m.content });
        return;
      }
    }
  });
  return out;
}

/**
 * Server-sent events read line by line (HTML Living Standard, "Server-sent events",
 * interpreting an event stream): `field: value` lines, `:` comments, an empty line ends an event;
 * the `data` lines of an event are joined with line breaks.
 */
class EventReader {
  #data: string[] = [];
  #event: string | undefined;
  /** The `event` field of the event `line` last completed (undefined: none, a message). */
  lastEvent: string | undefined;

  /** Takes one line; returns the event's data when the line completed an event with data. */
  line(line: string): string | undefined {
    if (line === "") {
      this.lastEvent = this.#event;
      this.#event = undefined;
      if (this.#data.length === 0) return undefined;
      const data = this.#data.length === 1 ? this.#data[0]! : this.#data.join("\n");
      this.#data = [];
      return data;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(line.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1);
    if (field === "data") this.#data.push(value);
    else if (field === "event") this.#event = value;
    return undefined;
  }
}

/** A streamed reply gathered chunk by chunk (`chat.completion.chunk`), passing each delta on. */
class StreamedTurn {
  #content = "";
  #thinking = "";
  #doneReason: string | undefined;
  #usage: ChatTurn["usage"];
  readonly #partial = new Map<number, PartialCall>();

  constructor(private readonly opts: ChatOptions) {}

  add(chunk: OpenAI.Chat.Completions.ChatCompletionChunk): void {
    const usage = chunk.usage ? tokenUsage(chunk.usage.prompt_tokens, chunk.usage.completion_tokens) : undefined;
    if (usage) this.#usage = usage;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta ?? {};
    const reasoning = reasoningOf(delta);
    if (reasoning !== "") {
      this.#thinking += reasoning;
      this.opts.onThinking?.(reasoning);
    }
    if (typeof delta.content === "string" && delta.content !== "") {
      // The caller keeps the streamed text itself (`ChatOptions.streamedContent`): no second copy.
      if (this.opts.streamedContent === undefined) this.#content += delta.content;
      this.opts.onContent?.(delta.content);
    }
    const partial = this.#partial;
    for (const tc of delta.tool_calls ?? []) {
      const index = typeof tc.index === "number" ? tc.index : indexWithout(partial, tc);
      const call = partial.get(index) ?? { name: "", args: "" };
      if (tc.id) call.id = tc.id;
      const name = tc.function?.name;
      // Most servers send the name once; some repeat it in every chunk. Never double it.
      if (name && name !== call.name) call.name += name;
      if (tc.function?.arguments) call.args += tc.function.arguments;
      partial.set(index, call);
    }
    if (choice.finish_reason) this.#doneReason = choice.finish_reason;
  }

  result(): ChatTurn {
    const tool_calls = [...this.#partial.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, c]) => c.name !== "")
      .map(([, c]): ToolCall => {
        const call: ToolCall = { name: c.name, arguments: parseToolArguments(c.args) };
        if (c.id) call.id = c.id;
        return call;
      });
    const turn: ChatTurn = { content: this.opts.streamedContent?.() ?? this.#content, tool_calls };
    if (this.#thinking !== "") turn.thinking = this.#thinking;
    if (this.#doneReason) turn.done_reason = this.#doneReason;
    if (this.#usage) turn.usage = this.#usage;
    return turn;
  }
}

/** Provider for OpenAI-compatible servers. */
export class OpenAIProvider implements Provider {
  readonly id = "openai";
  /** Base URL without credentials (user info is sent as an HTTP Basic header; see `splitCredentials`). */
  readonly location: string;
  readonly #client: OpenAI;
  /** What streamed requests send as `Authorization`: the API key as a bearer token, or the address's user info. */
  readonly #authorization: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  /** Streamed requests ask for the token counts (`stream_options`) until the server refuses the field. */
  #asksUsage = true;

  /** @throws ProviderError `HTTP` when `baseURL` is not a URL. */
  constructor(opts: OpenAIProviderOptions) {
    const { url, authorization } = splitCredentials(normalizeOpenAIBaseURL(opts.baseURL));
    this.location = url;
    const hasKey = opts.apiKey !== undefined && opts.apiKey.trim() !== "";
    if (authorization !== undefined && hasKey) {
      throw new ProviderError(
        "HTTP",
        `the server address ${redactCredentials(opts.baseURL)} carries credentials and OPENAI_API_KEY is set too`,
        "use one: remove user:password@ from the address, or unset OPENAI_API_KEY",
      );
    }
    const apiKey = opts.apiKey && opts.apiKey.trim() !== "" ? opts.apiKey : DUMMY_API_KEY;
    this.#authorization = authorization ?? `Bearer ${apiKey}`;
    this.#timeoutMs = opts.timeoutMs ?? 300_000;
    this.#maxRetries = opts.maxRetries ?? 0;
    this.#client = new OpenAI({
      baseURL: this.location,
      // The client reads whole replies (a model list, a chat reply): their size is limited underneath.
      fetch: boundedFetch(
        authorization !== undefined
          ? (input, init) => {
              const headers = new Headers(init?.headers);
              headers.set("authorization", authorization);
              return fetch(input, { ...init, headers });
            }
          : (input, init) => fetch(input, init),
      ),
      apiKey,
      timeout: this.#timeoutMs,
      maxRetries: this.#maxRetries,
    });
  }

  /**
   * One assistant turn (OpenAI `POST /chat/completions`). Streams (`stream: true`) when
   * `opts.onContent` or `opts.onThinking` is set; tool-call deltas are assembled by `index`.
   * Text tool calls stay in `content` for the tool shim. `req.contextTokens` is not sent: the
   * context size of an OpenAI-compatible server is a server setting (vLLM `--max-model-len`,
   * llama-server `-c`), and `max_tokens` stays unset so the reply may use what is left unless
   * `req.sampling.maxTokens` sets it. `req.sampling` goes out as `samplingParams` says;
   * `req.ollamaOptions` is not sent; `req.toolChoice` and `req.parallelToolCalls` go out as
   * `tool_choice` and `parallel_tool_calls` with the tools; a `req.think` level as `reasoning_effort`.
   * @throws ProviderError: `UNREACHABLE` (names the base URL), `TIMEOUT`, `MODEL_NOT_FOUND`,
   *   `TOOLS_UNSUPPORTED` (HTTP 400 about tools), `HTTP` (401/403 with an API-key hint, others).
   *   An abort by `opts.signal` rejects with the signal's reason.
   */
  async chat(req: ChatRequest, opts: ChatOptions = {}): Promise<ChatTurn> {
    const params: CreateParams = { model: req.model, messages: toWireMessages(req.messages) };
    if (req.tools && req.tools.length > 0) {
      params.tools = req.tools as WireTool[];
      if (req.toolChoice !== undefined) params.tool_choice = req.toolChoice === "required" ? "required" : { type: "function", function: { name: req.toolChoice.name } };
      if (req.parallelToolCalls !== undefined) params.parallel_tool_calls = req.parallelToolCalls;
    }
    if (req.temperature !== undefined) params.temperature = req.temperature;
    if (typeof req.think === "string") params.reasoning_effort = req.think;
    Object.assign(params, samplingParams(req.sampling));
    if (req.format) {
      params.response_format = { type: "json_schema", json_schema: { name: "response", schema: req.format } };
    }
    const stream = opts.onContent !== undefined || opts.onThinking !== undefined;
    try {
      return stream ? await this.#chatStreamed(params, opts) : await this.#chatOnce(params, opts);
    } catch (err) {
      throw this.#mapError(err, req, opts.signal);
    }
  }

  async #chatOnce(params: CreateParams, opts: ChatOptions): Promise<ChatTurn> {
    const res = await this.#client.chat.completions.create(params, { signal: opts.signal });
    const choice = res.choices?.[0];
    if (!choice) throw new ProviderError("BAD_RESPONSE", `${this.location} returned no choices`);
    const msg = choice.message;
    const turn: ChatTurn = {
      content: msg.content ?? "",
      tool_calls: (msg.tool_calls ?? []).flatMap((c): ToolCall[] =>
        c.type === "function" ? [{ id: c.id, name: c.function.name, arguments: parseToolArguments(c.function.arguments) }] : [],
      ),
    };
    const thinking = reasoningOf(msg);
    if (thinking !== "") turn.thinking = thinking;
    if (choice.finish_reason) turn.done_reason = choice.finish_reason;
    const usage = res.usage ? tokenUsage(res.usage.prompt_tokens, res.usage.completion_tokens) : undefined;
    if (usage) turn.usage = usage;
    return turn;
  }

  /**
   * A streamed turn, asking for the token counts unless this server refused `stream_options`
   * ({@link refusesStreamOptions}): then the request is made again without it, once, and later
   * ones go without it (the turn has no counts; nothing of the refused reply was passed on).
   */
  async #chatStreamed(params: CreateParams, opts: ChatOptions): Promise<ChatTurn> {
    if (!this.#asksUsage) return this.#chatStreamedAs({ ...params, stream: true }, opts);
    try {
      return await this.#chatStreamedAs({ ...params, ...STREAMED }, opts);
    } catch (err) {
      if (!refusesStreamOptions(err)) throw err;
      this.#asksUsage = false;
      return this.#chatStreamedAs({ ...params, stream: true }, opts);
    }
  }

  async #chatStreamedAs(params: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming, opts: ChatOptions): Promise<ChatTurn> {
    const turn = new StreamedTurn(opts);
    if (this.#maxRetries > 0) {
      // The client's retries (connection errors, 429, 5xx) apply.
      const stream = await this.#client.chat.completions.create(params, { signal: opts.signal });
      for await (const chunk of stream) turn.add(chunk);
      return turn.result();
    }
    const headers: Record<string, string> = { accept: "text/event-stream", authorization: this.#authorization };
    const events = new EventReader();
    let replied = false;
    try {
      await postLines(`${this.location}/chat/completions`, JSON.stringify(params), { headers, signal: opts.signal, timeoutMs: this.#timeoutMs, backpressure: opts.backpressure }, (line) => {
        replied = true;
        const data = events.line(line);
        if (data === undefined) return false;
        // The end of the stream (the client stops here too).
        if (data.startsWith("[DONE]")) return true;
        let chunk: unknown;
        try {
          chunk = JSON.parse(data);
        } catch {
          throw new ProviderError("BAD_RESPONSE", `unexpected reply from ${this.location}: an event's data is not JSON: ${data.slice(0, 120)}`);
        }
        // An error event, as the official client reads it: `{"error": {...}}`, or any `event: error`.
        const error = typeof chunk === "object" && chunk !== null ? (chunk as { error?: unknown }).error : undefined;
        if (events.lastEvent === "error") throw new APIError(undefined, error as object | undefined, (chunk as { message?: string } | null)?.message, undefined);
        if (error) throw new APIError(undefined, error as object, undefined, new Headers());
        // Other named events are not chunks (the client passes them on as `{event, data}`, which holds no choices).
        if (events.lastEvent !== undefined) return false;
        if (typeof chunk === "object" && chunk !== null) turn.add(chunk as OpenAI.Chat.Completions.ChatCompletionChunk);
        return false;
      });
    } catch (err) {
      throw this.#streamError(err, replied, opts.signal);
    }
    return turn.result();
  }

  /** A failure of the streamed request as the official client reports it, for `#mapError`. */
  #streamError(err: unknown, replied: boolean, signal?: AbortSignal): unknown {
    if (signal?.aborted || err instanceof ProviderError || err instanceof APIError) return err;
    if (err instanceof HttpStatusError) {
      let body: unknown;
      try {
        body = JSON.parse(err.body);
      } catch {
        body = undefined;
      }
      return APIError.generate(err.status, body as object | undefined, errorText(body, err.body), new Headers({ "content-type": err.contentType }));
    }
    if (err instanceof DOMException && err.name === "TimeoutError") return new APIConnectionTimeoutError();
    const code = (err as { code?: unknown }).code;
    // A reply that began and broke off (Node's `aborted` for a reply cut mid-body): a broken stream.
    if (replied || (err instanceof Error && (err.message === "aborted" || err.message === REPLY_CUT_SHORT))) return new Error(REPLY_CUT_SHORT);
    // No reply at all (refused, reset before the reply, unknown name): the server cannot be reached.
    if (err instanceof Error && typeof code === "string") return new APIConnectionError({ cause: err });
    return err;
  }

  /**
   * Model ids served (OpenAI `GET /models`, all pages).
   * @throws ProviderError as `chat` does.
   */
  async listModels(): Promise<string[]> {
    try {
      const ids: string[] = [];
      for await (const m of this.#client.models.list()) ids.push(m.id);
      return ids;
    } catch (err) {
      throw this.#mapError(err);
    }
  }

  #mapError(err: unknown, req?: ChatRequest, signal?: AbortSignal): unknown {
    if (err instanceof ProviderError) return err;
    if (err instanceof APIUserAbortError || signal?.aborted) return signal?.reason ?? err;
    if (err instanceof APIConnectionTimeoutError) {
      return new ProviderError(
        "TIMEOUT",
        `the OpenAI-compatible server at ${this.location} did not answer in time`,
        "a first request may be loading the model; try again, or use a smaller model",
      );
    }
    if (err instanceof APIConnectionError) {
      return new ProviderError(
        "UNREACHABLE",
        unreachableMessage(SERVER_NAMES.openai, this.location, err),
        "Start the server (vLLM, llama-server, LM Studio, `ollama serve`), or point OPENAI_BASE_URL (or --host) at its address, e.g. http://127.0.0.1:8000/v1.",
      );
    }
    if (err instanceof APIError) {
      const status = err.status;
      const detail = serverMessage(err);
      const where = `${this.location} answered HTTP ${status}`;
      if (status === 401 || status === 403) {
        return new ProviderError("HTTP", `${where}: ${detail}`, "set OPENAI_API_KEY to a key this server accepts", status);
      }
      if (status === 404) {
        if (req && (/model/i.test(detail) || detail === "")) {
          return new ProviderError(
            "MODEL_NOT_FOUND",
            `model ${JSON.stringify(req.model)} not found at ${this.location}${detail ? `: ${detail}` : ""}`,
            `pick one of the models listed by GET ${this.location}/models (\`codecite doctor\` shows them) with --model or CODECITE_MODEL`,
            status,
          );
        }
        return new ProviderError(
          "HTTP",
          `${where}: ${detail || "not found"}`,
          "check OPENAI_BASE_URL: it must point at the API root, usually ending in /v1",
          status,
        );
      }
      if (status === 400 && req?.tools && req.tools.length > 0 && /tool|function/i.test(detail)) {
        return new ProviderError(
          "TOOLS_UNSUPPORTED",
          `${this.location} does not accept tools for model ${JSON.stringify(req.model)}: ${detail}`,
          "use --toolshim on (tool calls as text), or enable tool calling on the server (vLLM: --enable-auto-tool-choice --tool-call-parser …; llama-server: --jinja)",
          status,
        );
      }
      if (status === 400 && req?.format && /response_format|json_schema|schema|grammar/i.test(detail)) {
        return new ProviderError(
          "HTTP",
          `${where}: structured output (response_format json_schema) was refused: ${detail}`,
          "use a server that supports response_format json_schema, or the Ollama interpreter backend",
          status,
        );
      }
      return new ProviderError("HTTP", `${where}: ${detail || err.message}`, undefined, status);
    }
    const message = err instanceof Error ? err.message : String(err);
    return new ProviderError("BAD_RESPONSE", `unexpected reply from ${this.location}: ${message}`);
  }
}

/**
 * The text of an error reply whose JSON has no `error` member, which the client's error would
 * otherwise leave out ("400 status code (no body)"): its top-level `message` (vLLM before 0.10:
 * `{"object": "error", "message", "type", "code"}`), else the body as it came (FastAPI's
 * `{"detail": [...]}` of a refused field, a text or HTML page). `undefined` when the body has an
 * `error` member, which the client reads (OpenAI's `{"error": {"message", …}}`, LM Studio's
 * `{"error": "…"}`).
 */
function errorText(body: unknown, text: string): string | undefined {
  if (typeof body !== "object" || body === null) return text;
  if ("error" in body) return undefined;
  const message = (body as { message?: unknown }).message;
  return typeof message === "string" && message !== "" ? message : text;
}

/** The server's own error text: `error.message` of the body, else the client's message without the status prefix. */
function serverMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | undefined;
  if (body && typeof body.message === "string") return body.message;
  return err.message.replace(/^\d{3}\s*/, "").replace(/^status code \(no body\)$/, "");
}
