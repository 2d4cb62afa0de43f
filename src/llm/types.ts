/**
 * Provider-neutral chat types. Each provider converts between these and its wire format
 * at its own edge (Ollama API `POST /api/chat`, OpenAI `POST /v1/chat/completions`,
 * node-llama-cpp chat sessions).
 */

/** JSON Schema object (tool `parameters`, structured-output `format`). */
export type JsonSchema = Record<string, unknown>;

/** A tool offered to the model, in the shape the Ollama and OpenAI chat APIs take. */
export interface ToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

/** A tool call made by the model. `arguments` is always an object at this layer. */
export interface ToolCall {
  /** Server-assigned id (OpenAI `tool_calls[].id`); absent for Ollama. */
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type Role = "system" | "user" | "assistant" | "tool";

/**
 * An image for a vision model: its bytes in base64 (with their media type when known), or a URL
 * that only an OpenAI-compatible server is given (Ollama's API takes bytes only, and codecite
 * fetches nothing).
 */
export type ImageInput = { base64: string; mimeType?: string } | { url: string };

export interface Message {
  role: Role;
  content: string;
  /** User messages: images (Ollama `images`, OpenAI `image_url` content parts), passed on by `serve`. */
  images?: ImageInput[];
  /** Reasoning text (`thinking` in Ollama, `reasoning_content` in OpenAI-compatible servers). */
  thinking?: string;
  /** Assistant turns: the calls it made. */
  tool_calls?: ToolCall[];
  /** Tool messages: the tool that produced this result (Ollama `tool_name`). */
  tool_name?: string;
  /** Tool messages: the id of the call answered (OpenAI `tool_call_id`). */
  tool_call_id?: string;
}

/** A reasoning level (OpenAI `reasoning_effort`; Ollama `think` for gpt-oss). */
export type ReasoningEffort = "minimal" | "low" | "medium" | "high";

export interface ChatRequest {
  model: string;
  messages: Message[];
  /** Native tools; omitted in tool-shim `on` mode. */
  tools?: ToolDefinition[];
  /**
   * With `tools`: the model must call one of them (`required`) or the tool named (OpenAI
   * `tool_choice`), sent by the OpenAI provider; Ollama's API has no such field, and its
   * provider sends none (the caller offers only the named tool instead).
   */
  toolChoice?: "required" | { name: string };
  /** With `tools`: `false` asks for at most one call per turn (OpenAI `parallel_tool_calls`; the OpenAI provider only). */
  parallelToolCalls?: boolean;
  /** Structured output: a JSON Schema the reply must satisfy (Ollama `format`, OpenAI `response_format`). */
  format?: JsonSchema;
  /** Sampling temperature; providers leave the server default when absent. */
  temperature?: number;
  /**
   * Ask for reasoning where the model supports it (`true`), not (`false`), or at a level: Ollama's
   * `think` takes `low`/`medium`/`high` (gpt-oss, Ollama docs "Thinking"; `minimal` is sent as
   * `low`), OpenAI's `reasoning_effort` takes the level as it is. The OpenAI provider sends only
   * a level.
   */
  think?: boolean | ReasoningEffort;
  /**
   * Context window in tokens the prompt and reply must fit (Ollama `options.num_ctx`; the
   * embedded llama-cpp provider's context size when it loads the model). OpenAI-compatible
   * servers fix it server-side and ignore it. Absent: the server's default.
   */
  contextTokens?: number;
  /** Sampling and length settings beyond `temperature`; absent fields keep the server's defaults. */
  sampling?: Sampling;
  /**
   * Further Ollama `options` (e.g. `mirostat`, `repeat_last_n`, `num_keep`), sent as they are by
   * the Ollama provider — an Ollama client's own options passed on by `serve`. Other providers
   * ignore them.
   */
  ollamaOptions?: Record<string, unknown>;
  /**
   * How long the server keeps the model loaded after this request (Ollama API `keep_alive`: a
   * duration such as `"10m"`, or seconds; `0` unloads it at once, a negative value keeps it
   * loaded). Sent by the Ollama provider; other providers ignore it.
   */
  keepAlive?: string | number;
}

/**
 * Sampling and length settings of one request, in provider-neutral names. The Ollama provider
 * sends them in `options` (Ollama API documentation, "Valid Parameters and Values": `top_p`,
 * `top_k`, `min_p`, `seed`, `stop`, `num_predict`, `repeat_penalty`, `presence_penalty`,
 * `frequency_penalty`); the OpenAI provider as `top_p`, `seed`, `stop`, `max_tokens`,
 * `presence_penalty`, `frequency_penalty` (OpenAI API reference, "Create chat completion") and
 * `top_k`, `min_p`, `repeat_penalty` as the extensions llama.cpp's server reads (vLLM reads
 * `top_k` and `min_p` too).
 */
export interface Sampling {
  topP?: number;
  topK?: number;
  minP?: number;
  seed?: number;
  /** Sequences that end the reply. */
  stop?: string[];
  /** Most tokens to generate (Ollama `num_predict`, OpenAI `max_tokens`). */
  maxTokens?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  repeatPenalty?: number;
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** Called with each streamed piece of `content` as it arrives. Streaming is used when set. */
  onContent?: (delta: string) => void;
  /** Called with each streamed piece of reasoning. */
  onThinking?: (delta: string) => void;
  /**
   * The content streamed so far as the caller keeps it (every `onContent` delta joined, in order):
   * a streaming provider may return it as the turn's `content` instead of joining a copy of its own
   * (`codecite serve` keeps the text in its stream filter; a second copy per reply cost an
   * allocation per chunk that lived until the reply ended). Either way `content` is the same text.
   */
  streamedContent?: () => string;
  /**
   * Called after each read of a streamed reply: a promise when the caller cannot take more now
   * (`codecite serve`: its client reads slower than the model writes), else `undefined`. A
   * streaming provider then reads no more of the reply until it resolves, so the server's writes
   * wait (TCP flow control) instead of the caller's memory filling. The provider's time limit
   * does not count the time the reply is paused.
   */
  backpressure?: () => Promise<void> | undefined;
}

/** One assistant turn as returned by a provider. */
export interface ChatTurn {
  content: string;
  thinking?: string;
  /** Native tool calls; empty when the model wrote none (or wrote them as text). */
  tool_calls: ToolCall[];
  /** Why generation stopped (`stop`, `length`, `tool_calls` …), when the server says. */
  done_reason?: string;
  /** Token counts when the server reports them. */
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** What a provider knows about a model (Ollama `POST /api/show`). */
export interface ModelInfo {
  name: string;
  /** e.g. `completion`, `tools`, `thinking`, `vision`. */
  capabilities: string[];
  /** Context length in tokens, when known. */
  context_length?: number;
}

export type ProviderErrorCode =
  | "UNREACHABLE"
  | "MODEL_NOT_FOUND"
  | "NO_MODEL"
  | "TOOLS_UNSUPPORTED"
  | "TIMEOUT"
  | "BAD_RESPONSE"
  | "HTTP"
  | "MISSING_PACKAGE";

/** A provider failure with a message for humans and a concrete fix. */
export class ProviderError extends Error {
  override readonly name = "ProviderError";
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    /** The command or setting that fixes it, e.g. `ollama pull qwen3:8b`. */
    readonly hint?: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A chat backend. */
export interface Provider {
  /** `ollama`, `openai`, `llama-cpp`. */
  readonly id: string;
  /** Where it talks to (a URL, or a file path for embedded models). */
  readonly location: string;
  /**
   * One assistant turn. Streams when `opts.onContent`/`onThinking` is given.
   * @throws ProviderError (never a raw fetch or client error).
   */
  chat(req: ChatRequest, opts?: ChatOptions): Promise<ChatTurn>;
  /** Installed model names, when the backend can list them. */
  listModels?(): Promise<string[]>;
  /** Capabilities of one model, when the backend can tell. */
  describeModel?(model: string): Promise<ModelInfo>;
  /** Server version, when the backend reports one. */
  version?(): Promise<string>;
  /**
   * Frees what the provider holds (an embedded model and its native backend); HTTP providers
   * hold nothing and leave it out. Safe to call more than once.
   */
  close?(): Promise<void>;
}
