/**
 * Types shared by the gateway's modules: one chat request in provider-neutral form, the writer
 * each client API implements, and the error every failure becomes.
 */
import type { JsonSchema, Message, ReasoningEffort, Sampling, ToolCall, ToolDefinition } from "../llm/types.js";

/** A client's chat request, parsed from either API (Ollama `POST /api/chat`, OpenAI `POST /v1/chat/completions`). */
export interface GatewayChat {
  model: string;
  messages: Message[];
  /** The client's own tools; the only names a produced call may have. */
  tools: ToolDefinition[];
  /**
   * OpenAI `tool_choice` beyond `auto` and `none`: a call is required, to any tool or the one
   * named (`none` leaves `tools` empty, `{function: {name}}` leaves only that tool in `tools`).
   */
  toolChoice?: "required" | { name: string };
  /** OpenAI `parallel_tool_calls`. */
  parallelToolCalls?: boolean;
  /** The client wants the reply streamed. */
  stream: boolean;
  /** OpenAI `stream_options.include_usage`: the stream ends with a chunk of token counts. */
  streamUsage?: boolean;
  /** Reasoning on, off, or at a level (Ollama `think`, OpenAI `reasoning_effort`). */
  think?: boolean | ReasoningEffort;
  format?: JsonSchema;
  temperature?: number;
  /** Ollama `options.num_ctx`. */
  contextTokens?: number;
  /** The client's sampling and length settings, passed on to the upstream. */
  sampling?: Sampling;
  /** Ollama `options` beyond the sampling settings, passed on to an Ollama upstream. */
  ollamaOptions?: Record<string, unknown>;
  /** Ollama `keep_alive` (a duration string or seconds), passed on to an Ollama upstream. */
  keepAlive?: string | number;
}

/** Why an assistant message ended, in the OpenAI API's words (`finish_reason`); Ollama `done_reason` uses the same. */
export type FinishReason = "stop" | "length" | "tool_calls";

/**
 * Writes one assistant message to a client in its API's shape, streamed or as one body.
 * Calls come in this order: any of `thinking`/`content`, at most one `toolCalls`, then exactly
 * one of `finish` or `fail`.
 */
export interface ChatWriter {
  thinking(delta: string): void;
  content(delta: string): void;
  /** Calls with ids (the writer's API may need one per call). */
  toolCalls(calls: ToolCall[]): void;
  finish(reason: FinishReason, usage?: { prompt_tokens?: number; completion_tokens?: number }): void;
  /** Ends the reply with an error: an HTTP error before the first byte, else an error in the stream. */
  fail(error: GatewayError): void;
  /** A promise while the client has fallen behind the stream (resolves when it has caught up or gone), else `undefined` (`wire.ts` `clientBacklog`). */
  backlog(): Promise<void> | undefined;
}

/** A failure shown to the client: HTTP status, message, and a machine-readable type. */
export class GatewayError extends Error {
  override readonly name = "GatewayError";
  constructor(
    readonly status: number,
    message: string,
    /** OpenAI `error.type` (`invalid_request_error`, `authentication_error`, `upstream_error` …). */
    readonly type: string = status >= 500 ? "upstream_error" : "invalid_request_error",
  ) {
    super(message);
  }
}
