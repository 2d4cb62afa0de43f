/**
 * `OllamaProvider`: chat against an Ollama server through the official `ollama` client (0.6.x);
 * a streamed chat is read line by line over `node:http` (`http-lines.ts`) unless a custom
 * `fetch` is given (the client's web streams cost more per chunk than a gateway can spend).
 *
 * Wire protocol (Ollama API documentation): `POST /api/chat` (NDJSON stream when the caller
 * wants deltas, one JSON body otherwise), `GET /api/tags`, `POST /api/show`, `GET /api/version`.
 * Conversion between our `Message`/`ToolCall` types and Ollama's wire types happens only here.
 *
 * What the client does not do, this class adds:
 * - timeouts: a custom `fetch` that joins `AbortSignal.timeout(timeoutMs)`, the client's own
 *   stream abort signal and the caller's signal (the client has no timeout option);
 * - size limits: every reply the client reads is read through `boundedFetch` (a reply without
 *   end is `BAD_RESPONSE`, not a process out of memory);
 * - typed errors: every failure becomes a `ProviderError` with a concrete fix
 *   (`ollama serve`, `ollama pull NAME`, a tool-capable model);
 * - stdout hygiene: the client `console.log`s when an error body is not JSON; during requests
 *   `console.log` is routed to stderr so machine-readable stdout stays clean.
 */
import { Ollama } from "ollama";
import type {
  ChatRequest as WireChatRequest,
  ChatResponse as WireChatResponse,
  Message as WireMessage,
  Tool as WireTool,
} from "ollama";
import { boundedFetch } from "./bounded-fetch.js";
import { imagesBase64 } from "./images.js";
import { tokenUsage } from "./token-usage.js";
import { HttpStatusError, postLines } from "./http-lines.js";
import { DEFAULT_OLLAMA_HOST, normalizeOllamaHost, splitCredentials } from "./server-address.js";
import { parseToolArguments } from "./tool-arguments.js";
import { SERVER_NAMES, isUnreachable, unreachableMessage } from "./unreachable.js";
import {
  ProviderError,
  type ChatOptions,
  type ChatRequest,
  type ChatTurn,
  type Message,
  type ModelInfo,
  type Provider,
  type Sampling,
  type ToolCall,
} from "./types.js";

/** Default per-request timeout: 5 minutes (a CPU-only 8B model can take minutes on a long prompt). */
const DEFAULT_OLLAMA_TIMEOUT_MS = 300_000;

/** Options of `new OllamaProvider(…)`. */
export interface OllamaProviderOptions {
  /**
   * Ollama address, normalised with the `OLLAMA_HOST` rules (`normalizeOllamaHost`).
   * Default: `process.env.OLLAMA_HOST`, else `http://127.0.0.1:11434`.
   */
  host?: string;
  /** Whole-request timeout in ms, streaming included, except time a streamed reply is paused by `ChatOptions.backpressure` (default `DEFAULT_OLLAMA_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** `fetch` to use underneath, streamed chats included (default: the global one, and `node:http` for streamed chats). */
  fetch?: typeof fetch;
}

/** Ollama's wire tool call: `arguments` is an object, but some servers/proxies send a JSON string. */
interface WireToolCall {
  id?: string;
  function: { name: string; arguments: unknown; index?: number };
}

/** Ollama `ResponseError` (not exported by the client): matched by `name` and `status_code`. */
interface ResponseErrorLike {
  name: "ResponseError";
  status_code: number;
  error: string;
  message: string;
}

function isResponseError(e: unknown): e is ResponseErrorLike {
  return typeof e === "object" && e !== null && (e as { name?: unknown }).name === "ResponseError";
}

/** The status and message of an HTTP error reply: Ollama's `{"error": …}` body, else the text (what the client reads). */
function statusError(e: unknown): { status: number; text: string } | undefined {
  if (isResponseError(e)) return { status: e.status_code, text: String(e.error ?? e.message ?? "") };
  if (!(e instanceof HttpStatusError)) return undefined;
  if (e.contentType.includes("application/json")) {
    try {
      const body: unknown = JSON.parse(e.body);
      const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
      if (typeof error === "string" && error !== "") return { status: e.status, text: error };
    } catch {
      // not JSON after all: the text below
    }
  }
  return { status: e.status, text: e.body || `Error ${e.status}: ${e.statusText}` };
}

function isTimeout(e: unknown): boolean {
  let cur: unknown = e;
  for (let i = 0; i < 4 && typeof cur === "object" && cur !== null; i++) {
    if ((cur as { name?: unknown }).name === "TimeoutError") return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

let consoleGuardDepth = 0;
let savedConsoleLog: typeof console.log | undefined;

/**
 * Runs `fn` with `console.log` routed to stderr (reference-counted for overlapping requests).
 * The ollama client logs "Getting text from response" to stdout on non-JSON error bodies.
 */
async function withStdoutGuard<T>(fn: () => Promise<T>): Promise<T> {
  if (consoleGuardDepth++ === 0) {
    savedConsoleLog = console.log;
    console.log = (...args: unknown[]) => console.error(...args);
  }
  try {
    return await fn();
  } finally {
    if (--consoleGuardDepth === 0 && savedConsoleLog) {
      console.log = savedConsoleLog;
      savedConsoleLog = undefined;
    }
  }
}

/** `Sampling` as Ollama `options` keys (Ollama API documentation, "Valid Parameters and Values"). */
function samplingOptions(s: Sampling | undefined): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (s === undefined) return o;
  if (s.topP !== undefined) o.top_p = s.topP;
  if (s.topK !== undefined) o.top_k = s.topK;
  if (s.minP !== undefined) o.min_p = s.minP;
  if (s.seed !== undefined) o.seed = s.seed;
  if (s.stop !== undefined) o.stop = s.stop;
  if (s.maxTokens !== undefined) o.num_predict = s.maxTokens;
  if (s.repeatPenalty !== undefined) o.repeat_penalty = s.repeatPenalty;
  if (s.presencePenalty !== undefined) o.presence_penalty = s.presencePenalty;
  if (s.frequencyPenalty !== undefined) o.frequency_penalty = s.frequencyPenalty;
  return o;
}

function toWireMessage(m: Message): WireMessage {
  const out: WireMessage & { tool_call_id?: string } = { role: m.role, content: m.content };
  if (m.thinking) out.thinking = m.thinking;
  if (m.images !== undefined && m.images.length > 0) out.images = imagesBase64(m.images);
  if (m.tool_calls && m.tool_calls.length > 0) {
    out.tool_calls = m.tool_calls.map((c) => {
      const wire: WireToolCall = { function: { name: c.name, arguments: c.arguments } };
      if (c.id !== undefined) wire.id = c.id;
      return wire as unknown as NonNullable<WireMessage["tool_calls"]>[number];
    });
  }
  if (m.tool_name !== undefined) out.tool_name = m.tool_name;
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  return out;
}

function fromWireToolCalls(calls: unknown): ToolCall[] {
  if (!Array.isArray(calls)) return [];
  const out: ToolCall[] = [];
  for (const c of calls as WireToolCall[]) {
    const name = c?.function?.name;
    if (typeof name !== "string" || name === "") continue;
    const call: ToolCall = { name, arguments: parseToolArguments(c.function.arguments) };
    if (typeof c.id === "string" && c.id !== "") call.id = c.id;
    out.push(call);
  }
  return out;
}

function usageOf(r: Partial<WireChatResponse>): ChatTurn["usage"] {
  return tokenUsage(r.prompt_eval_count, r.eval_count);
}

/**
 * A streamed `/api/chat` line of the usual shape: `{"model":…,"created_at":…,"message":{"role":"assistant","content":…},"done":false}`,
 * the fields in the order Ollama's server writes them (its `api.ChatResponse` and `api.Message`
 * structs, Go `encoding/json`: struct order, empty `thinking`/`tool_calls`/`done_reason` left
 * out), `created_at` optional. The strings are JSON string literals (RFC 8259 §7: no `"`, `\` or
 * control character unescaped; the model name and time without escapes), so a line that matches is
 * valid JSON with exactly these keys. Group 1: the content's literal without its quotes.
 */
const CONTENT_LINE = /^\{"model":"[^"\\\x00-\x1f]*",(?:"created_at":"[^"\\\x00-\x1f]*",)?"message":\{"role":"assistant","content":"((?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*)"\},"done":false\}$/;

/**
 * The content of a streamed line of the usual shape ({@link CONTENT_LINE}): the same string as
 * `JSON.parse(line).message.content` (its literal is decoded by `JSON.parse`, and a new string
 * keeps no part of the line alive), without building the line's object, which a gateway relaying
 * thousands of lines a second pays on each. `undefined` for any other line (read whole then).
 */
export function streamedContentOf(line: string): string | undefined {
  const m = CONTENT_LINE.exec(line);
  return m === null ? undefined : (JSON.parse(`"${m[1]!}"`) as string);
}

/** A part without `done_reason` and counts. */
const NO_FIELDS: Partial<WireChatResponse> = Object.freeze({});

/** A streamed reply gathered part by part (Ollama NDJSON lines), passing each delta on. */
class StreamedTurn {
  #content = "";
  #thinking = "";
  readonly #calls: ToolCall[] = [];
  #last: Partial<WireChatResponse> = {};
  /** The last part (`done: true`) has come. */
  done = false;

  constructor(private readonly opts: ChatOptions) {}

  /** Takes one part; returns whether it was the last. */
  add(part: Partial<WireChatResponse>): boolean {
    const msg = part.message;
    if (msg) {
      if (typeof msg.thinking === "string" && msg.thinking !== "") {
        this.#thinking += msg.thinking;
        this.opts.onThinking?.(msg.thinking);
      }
      if (typeof msg.content === "string") this.#takeContent(msg.content);
      // One loop push per call: a spread of 150k calls would overflow the stack.
      if (msg.tool_calls !== undefined) for (const c of fromWireToolCalls(msg.tool_calls)) this.#calls.push(c);
    }
    this.#last = part;
    this.done = part.done === true;
    return this.done;
  }

  /** Takes a part that holds content only and is not the last ({@link streamedContentOf}): what `add` does with it. */
  addContent(content: string): false {
    this.#takeContent(content);
    // Such a part has no reason and no counts (`result` reads them from the last part).
    this.#last = NO_FIELDS;
    this.done = false;
    return false;
  }

  #takeContent(content: string): void {
    if (content === "") return;
    // The caller keeps the streamed text itself (`ChatOptions.streamedContent`): no second copy.
    if (this.opts.streamedContent === undefined) this.#content += content;
    this.opts.onContent?.(content);
  }

  result(): ChatTurn {
    const turn: ChatTurn = { content: this.opts.streamedContent?.() ?? this.#content, tool_calls: this.#calls };
    if (this.#thinking !== "") turn.thinking = this.#thinking;
    if (typeof this.#last.done_reason === "string" && this.#last.done_reason !== "") turn.done_reason = this.#last.done_reason;
    const usage = usageOf(this.#last);
    if (usage) turn.usage = usage;
    return turn;
  }
}

/** A chat provider backed by an Ollama server. */
export class OllamaProvider implements Provider {
  readonly id = "ollama";
  /**
   * Normalised base URL without credentials, e.g. `http://127.0.0.1:11434` (shown in messages;
   * user info of `OLLAMA_HOST` is sent as an HTTP Basic `Authorization` header instead).
   */
  readonly location: string;
  readonly timeoutMs: number;
  readonly #fetch: typeof fetch;
  readonly #customFetch: typeof fetch | undefined;
  readonly #authorization: string | undefined;

  /** @throws AddressError when `host` is not an address (see `normalizeOllamaHost`). */
  constructor(opts: OllamaProviderOptions = {}) {
    const { url, authorization } = splitCredentials(normalizeOllamaHost(opts.host ?? process.env.OLLAMA_HOST ?? DEFAULT_OLLAMA_HOST));
    this.location = url;
    this.#authorization = authorization;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_OLLAMA_TIMEOUT_MS;
    this.#customFetch = opts.fetch;
    // The client reads whole replies (`response.json()`): their size is limited underneath.
    this.#fetch = boundedFetch(opts.fetch ?? ((input, init) => fetch(input, init)));
  }

  /** A client whose every request carries the timeout and the caller's signal. */
  #client(signal?: AbortSignal): Ollama {
    const timeoutMs = this.timeoutMs;
    const base = this.#fetch;
    const authorization = this.#authorization;
    const wrapped: typeof fetch = (input, init) => {
      const signals: AbortSignal[] = [AbortSignal.timeout(timeoutMs)];
      if (init?.signal) signals.push(init.signal);
      if (signal) signals.push(signal);
      const next: RequestInit = { ...init, signal: AbortSignal.any(signals) };
      if (authorization !== undefined) {
        const headers = new Headers(init?.headers);
        headers.set("authorization", authorization);
        next.headers = headers;
      }
      return base(input, next);
    };
    return new Ollama({ host: this.location, fetch: wrapped });
  }

  /**
   * One assistant turn (Ollama API `POST /api/chat`). Streams (`stream: true`) when
   * `opts.onContent` or `opts.onThinking` is given, calling them with each non-empty delta.
   * Sends `tools`, `format`, `think`, `options.temperature`, `options.num_ctx`
   * (`req.contextTokens`), the sampling settings (`samplingOptions`), `req.ollamaOptions` and
   * `keep_alive` (`req.keepAlive`) when the request has them.
   * Tool-call `arguments` are always objects in the result.
   * @throws ProviderError `UNREACHABLE`, `MODEL_NOT_FOUND`, `TOOLS_UNSUPPORTED`, `TIMEOUT`,
   *   `BAD_RESPONSE` or `HTTP`; the caller's abort reason when `opts.signal` aborts.
   */
  async chat(req: ChatRequest, opts: ChatOptions = {}): Promise<ChatTurn> {
    const body: WireChatRequest = { model: req.model, messages: req.messages.map(toWireMessage) };
    if (req.tools && req.tools.length > 0) body.tools = req.tools as unknown as WireTool[];
    if (req.format !== undefined) body.format = req.format;
    if (req.think !== undefined) body.think = req.think === "minimal" ? "low" : req.think;
    if (req.keepAlive !== undefined) body.keep_alive = req.keepAlive;
    const options: NonNullable<WireChatRequest["options"]> = {};
    if (req.temperature !== undefined) options.temperature = req.temperature;
    // Without num_ctx, Ollama runs with its server default (2048–4096 tokens on many installs)
    // and silently cuts the front of a longer prompt: the system prompt and the question.
    if (req.contextTokens !== undefined) options.num_ctx = req.contextTokens;
    Object.assign(options, req.ollamaOptions, samplingOptions(req.sampling));
    if (Object.keys(options).length > 0) body.options = options;
    const streaming = opts.onContent !== undefined || opts.onThinking !== undefined;
    if (streaming && this.#customFetch === undefined) return this.#streamLines(body, req.model, opts);
    const client = this.#client(opts.signal);
    return withStdoutGuard(async () => {
      try {
        if (!streaming) {
          const res = await client.chat({ ...body, stream: false });
          if (typeof res?.message !== "object" || res.message === null) {
            throw new ProviderError("BAD_RESPONSE", `Ollama at ${this.location} sent a chat reply without a message`);
          }
          const turn: ChatTurn = {
            content: typeof res.message.content === "string" ? res.message.content : "",
            tool_calls: fromWireToolCalls(res.message.tool_calls),
          };
          if (typeof res.message.thinking === "string" && res.message.thinking !== "") turn.thinking = res.message.thinking;
          if (typeof res.done_reason === "string" && res.done_reason !== "") turn.done_reason = res.done_reason;
          const usage = usageOf(res);
          if (usage) turn.usage = usage;
          return turn;
        }
        const stream = await client.chat({ ...body, stream: true });
        const turn = new StreamedTurn(opts);
        for await (const part of stream) turn.add(part);
        return turn.result();
      } catch (err) {
        throw this.#toProviderError(err, req.model, opts.signal);
      }
    });
  }

  /** A streamed `POST /api/chat` read line by line over `node:http` (see the module comment). */
  async #streamLines(body: WireChatRequest, model: string, opts: ChatOptions): Promise<ChatTurn> {
    const turn = new StreamedTurn(opts);
    const headers: Record<string, string> = { accept: "application/x-ndjson" };
    if (this.#authorization !== undefined) headers.authorization = this.#authorization;
    try {
      await postLines(`${this.location}/api/chat`, JSON.stringify({ ...body, stream: true }), { headers, signal: opts.signal, timeoutMs: this.timeoutMs, backpressure: opts.backpressure }, (line) => {
        const content = streamedContentOf(line);
        if (content !== undefined) return turn.addContent(content);
        if (line.trim() === "") return false;
        let part: unknown;
        try {
          part = JSON.parse(line);
        } catch {
          throw new ProviderError("BAD_RESPONSE", `Ollama at ${this.location} sent a line that is not JSON: ${line.slice(0, 120)}`);
        }
        if (typeof part !== "object" || part === null || Array.isArray(part)) {
          throw new ProviderError("BAD_RESPONSE", `Ollama at ${this.location} sent a line that is not a JSON object: ${line.slice(0, 120)}`);
        }
        if ("error" in part) throw new ProviderError("BAD_RESPONSE", `unexpected reply from Ollama at ${this.location}: ${String((part as { error: unknown }).error)}`);
        return turn.add(part as Partial<WireChatResponse>);
      });
    } catch (err) {
      throw this.#toProviderError(err, model, opts.signal);
    }
    if (!turn.done) throw new ProviderError("BAD_RESPONSE", `unexpected reply from Ollama at ${this.location}: the stream ended without its last ("done") line`);
    return turn.result();
  }

  /**
   * Installed model names, in the server's order (Ollama API `GET /api/tags`).
   * @throws ProviderError as `chat`.
   */
  async listModels(): Promise<string[]> {
    const client = this.#client();
    return withStdoutGuard(async () => {
      try {
        const res = await client.list();
        if (!Array.isArray(res?.models)) {
          throw new ProviderError("BAD_RESPONSE", `Ollama at ${this.location} sent a model list without models`);
        }
        return res.models.map((m) => m.name ?? m.model).filter((n): n is string => typeof n === "string");
      } catch (err) {
        throw this.#toProviderError(err);
      }
    });
  }

  /**
   * Capabilities and context length of one model (Ollama API `POST /api/show`: `capabilities`,
   * and `model_info["<architecture>.context_length"]`).
   * @throws ProviderError `MODEL_NOT_FOUND` (with `ollama pull NAME`) and as `chat`.
   */
  async describeModel(model: string): Promise<ModelInfo> {
    const client = this.#client();
    return withStdoutGuard(async () => {
      try {
        const res = await client.show({ model });
        const info: ModelInfo = {
          name: model,
          capabilities: Array.isArray(res?.capabilities)
            ? res.capabilities.filter((c): c is string => typeof c === "string")
            : [],
        };
        const modelInfo: unknown = res?.model_info;
        if (typeof modelInfo === "object" && modelInfo !== null) {
          for (const [key, value] of Object.entries(modelInfo)) {
            if (key.endsWith(".context_length") && typeof value === "number" && value > 0) {
              info.context_length = value;
              break;
            }
          }
        }
        return info;
      } catch (err) {
        throw this.#toProviderError(err, model);
      }
    });
  }

  /**
   * Server version (Ollama API `GET /api/version`), e.g. `0.12.6`.
   * @throws ProviderError as `chat`.
   */
  async version(): Promise<string> {
    const client = this.#client();
    return withStdoutGuard(async () => {
      try {
        const res = await client.version();
        if (typeof res?.version !== "string") {
          throw new ProviderError("BAD_RESPONSE", `Ollama at ${this.location} sent no version`);
        }
        return res.version;
      } catch (err) {
        throw this.#toProviderError(err);
      }
    });
  }

  /** Maps a client/fetch failure to a `ProviderError` with a fix; rethrows the caller's abort. */
  #toProviderError(err: unknown, model?: string, signal?: AbortSignal): unknown {
    if (err instanceof ProviderError) return err;
    if (signal?.aborted) return signal.reason ?? err;
    const host = this.location;
    if (isTimeout(err)) {
      return new ProviderError(
        "TIMEOUT",
        `Ollama at ${host} did not answer within ${Math.round(this.timeoutMs / 1000)} s`,
        "A first request loads the model and can be slow; try again, use a smaller model, or check `ollama ps`.",
      );
    }
    const http = statusError(err);
    if (http) {
      const { status, text } = http;
      if (status === 400 && /does not support tools/i.test(text)) {
        return new ProviderError(
          "TOOLS_UNSUPPORTED",
          `model ${model ?? "?"} does not support tools (Ollama: ${text})`,
          "Use a tool-capable model (e.g. `ollama pull qwen3:8b`) or `--toolshim on`.",
          status,
        );
      }
      if (status === 404 && /model|not found/i.test(text) && !/page not found/i.test(text) && model !== undefined) {
        return new ProviderError(
          "MODEL_NOT_FOUND",
          `model ${model} is not installed on Ollama at ${host} (${text})`,
          `ollama pull ${model}`,
          status,
        );
      }
      return new ProviderError("HTTP", `Ollama at ${host} answered HTTP ${status}: ${text.slice(0, 300)}`, undefined, status);
    }
    if (isUnreachable(err)) {
      return new ProviderError(
        "UNREACHABLE",
        unreachableMessage(SERVER_NAMES.ollama, host, err),
        "Start it with `ollama serve`, or point OLLAMA_HOST (or --host) at the running server.",
      );
    }
    const message = err instanceof Error ? err.message : String(err);
    return new ProviderError("BAD_RESPONSE", `unexpected reply from Ollama at ${host}: ${message}`);
  }
}
