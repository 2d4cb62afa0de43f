/**
 * Stage 3, the interpreter: a second model rewrites an assistant message whose
 * call no parser recognised into structured calls, under a JSON Schema constraint.
 *
 * Improvements over goose's interpreter (aaif-goose/goose `crates/goose/src/providers/toolshim.rs`): the
 * offered tools and their schemas are in the prompt; the output schema's `name` is an enum of
 * the offered tools plus `noop`; temperature 0; a short timeout (default 30 s) joined with the
 * caller's signal; failures are thrown as errors that `recover` reports in its diagnostics; the
 * prompt is plain text (no template braces). Works with any `Provider` that honours
 * `ChatRequest.format` (Ollama `format`, OpenAI-compatible `response_format`, llama.cpp grammar).
 */
import type { ChatRequest, JsonSchema, Provider } from "../llm/types.js";
import { isPlainObject, parseJsonTolerant } from "./json.js";
import type { Interpreter } from "./recover.js";
import type { OfferedTool, RawCall } from "./types.js";

/** The tool name the interpreter answers with when the text makes no call (goose PR #1862). */
const NOOP_TOOL = "noop";
/** Default interpreter timeout in ms. */
const DEFAULT_INTERPRETER_TIMEOUT_MS = 30_000;
/** Longest assistant text sent to the interpreter, in UTF-16 code units (the end is kept). */
const MAX_INTERPRETER_INPUT = 16_000;

/**
 * The structured-output schema: `{"tool_calls": [{"name": <offered tool | "noop">, "arguments": {}}]}`.
 */
export function interpreterFormat(tools: readonly OfferedTool[]): JsonSchema {
  return {
    type: "object",
    properties: {
      tool_calls: {
        type: "array",
        items: {
          type: "object",
          properties: {
            name: { type: "string", enum: [...tools.map((t) => t.name), NOOP_TOOL] },
            arguments: { type: "object" },
          },
          required: ["name", "arguments"],
        },
      },
    },
    required: ["tool_calls"],
  };
}

const INSTRUCTIONS = [
  "You turn one message written by an AI assistant into tool calls.",
  "The assistant was offered the tools listed below. It may have written a tool call in any format:",
  "JSON, XML tags, function-call syntax, special tokens, or plain words such as \"I will search for X\".",
  'Answer with JSON only: {"tool_calls": [{"name": TOOL, "arguments": {...}}]} with one item per call',
  "the message actually makes, in order, using only the tool names and argument names listed below.",
  `If the message makes no tool call (a final answer, a question, an explanation, or an example of a call), answer {"tool_calls": [{"name": "${NOOP_TOOL}", "arguments": {}}]}.`,
  "Never invent a call the message does not make.",
].join("\n");

function catalogue(tools: readonly OfferedTool[]): string {
  return tools
    .map((t) => {
      const desc = (t.description ?? "").split("\n")[0]!.trim();
      const schema = JSON.stringify(t.parameters ?? { type: "object" });
      return `- ${t.name}${desc ? `: ${desc}` : ""}\n  arguments schema: ${schema}`;
    })
    .join("\n");
}

/**
 * Context size the interpreter asks for, in tokens: its prompt is at most
 * {@link MAX_INTERPRETER_INPUT} characters of model output plus the tool catalogue (about 6K
 * tokens), more than the 2048–4096-token default of many Ollama installs.
 */
const INTERPRETER_CONTEXT_TOKENS = 8192;

/** The chat request the interpreter sends (exported for tests). */
export function interpreterRequest(
  model: string,
  text: string,
  tools: readonly OfferedTool[],
  contextTokens: number = INTERPRETER_CONTEXT_TOKENS,
): ChatRequest {
  const input = text.length > MAX_INTERPRETER_INPUT ? text.slice(text.length - MAX_INTERPRETER_INPUT) : text;
  return {
    model,
    messages: [
      { role: "system", content: INSTRUCTIONS },
      { role: "user", content: `Tools:\n${catalogue(tools)}\n\nAssistant message:\n<<<\n${input}\n>>>` },
    ],
    format: interpreterFormat(tools),
    temperature: 0,
    contextTokens,
  };
}

/**
 * Read calls from the interpreter's reply: `{"tool_calls": [...]}`, a bare array of calls, or a
 * single `{name, arguments}` object. Items without a string `name` are skipped; `noop` is dropped.
 * @throws Error when the reply is not JSON or has none of those shapes.
 */
export function parseInterpreterReply(content: string): RawCall[] {
  const value = parseJsonTolerant(content);
  if (value === undefined) {
    throw new Error(`the interpreter returned invalid JSON: ${JSON.stringify(content.slice(0, 120))}`);
  }
  const items = isPlainObject(value) && Array.isArray(value.tool_calls) ? value.tool_calls : Array.isArray(value) ? value : [value];
  if (!items.every(isPlainObject) || (isPlainObject(value) && !Array.isArray(value.tool_calls) && typeof value.name !== "string")) {
    throw new Error(`the interpreter's reply has no tool_calls: ${JSON.stringify(content.slice(0, 120))}`);
  }
  const calls: RawCall[] = [];
  for (const item of items as Record<string, unknown>[]) {
    if (typeof item.name !== "string" || item.name === NOOP_TOOL) continue;
    calls.push({ name: item.name, arguments: item.arguments ?? {} });
  }
  return calls;
}

/**
 * Create an interpreter that asks `model` on `provider` once per message.
 *
 * @param opts.timeoutMs whole-request timeout in ms (default {@link DEFAULT_INTERPRETER_TIMEOUT_MS}).
 * @param opts.contextTokens context size requested, in tokens (default {@link INTERPRETER_CONTEXT_TOKENS}).
 * @returns an {@link Interpreter} whose `interpret` throws `Error`s with a readable message on
 *   timeout, provider failure (`ProviderError` message kept) or an unusable reply.
 */
export function createInterpreter(
  provider: Provider,
  model: string,
  opts: { timeoutMs?: number; contextTokens?: number } = {},
): Interpreter {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_INTERPRETER_TIMEOUT_MS;
  const contextTokens = opts.contextTokens ?? INTERPRETER_CONTEXT_TOKENS;
  return {
    async interpret(text, tools, signal) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const joined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let content: string;
      try {
        const turn = await provider.chat(interpreterRequest(model, text, tools, contextTokens), { signal: joined });
        content = turn.content;
      } catch (err) {
        if (timeout.aborted && !signal?.aborted) {
          throw new Error(`the interpreter (${provider.id} ${model}) did not answer within ${timeoutMs} ms`, { cause: err });
        }
        const msg = err instanceof Error ? err.message : String(err);
        throw new Error(`the interpreter (${provider.id} ${model} at ${provider.location}) failed: ${msg}`, { cause: err });
      }
      return parseInterpreterReply(content);
    },
  };
}
