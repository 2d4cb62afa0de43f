/**
 * `LlamaCppProvider`: runs a GGUF model in-process through node-llama-cpp (an optional peer
 * dependency, imported only when the first request arrives).
 *
 * - Chat uses node-llama-cpp's `LlamaChat` (the engine under `LlamaChatSession`) with the
 *   model's own chat wrapper, resolved from its GGUF chat template. Tools are offered as
 *   node-llama-cpp "functions" (`{description, params}`, no handler): when the model calls
 *   one, generation stops with `stopReason: "functionCalls"` and the calls come back to us
 *   as `ToolCall`s; the agent loop runs them, exactly as with the HTTP providers.
 * - `ChatRequest.format` becomes a grammar (`llama.createGrammarForJsonSchema`), so the
 *   reply is JSON that matches the schema by construction. The tool shim's `local`
 *   interpreter backend relies on this.
 * - JSON Schemas pass through `toGbnfJsonSchema` first (see `gbnf-schema.ts`).
 * - Requests are serialised: one model, one context sequence, one turn at a time.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { dropNullOptionals, toGbnfJsonSchema } from "./gbnf-schema.js";
import { toChatHistory } from "./llama-cpp-history.js";
import {
  importNodeLlamaCpp,
  NODE_LLAMA_CPP_VERSION,
  type ChatModelFunctions,
  type Llama,
  type LlamaChat,
  type LlamaContext,
  type LlamaModel,
  type NodeLlamaCpp,
} from "./node-llama-cpp.js";
import {
  ProviderError,
  type ChatOptions,
  type ChatRequest,
  type ChatTurn,
  type JsonSchema,
  type ModelInfo,
  type Provider,
  type ToolCall,
} from "./types.js";

/** Options of `new LlamaCppProvider(…)`. */
export interface LlamaCppProviderOptions {
  /** The GGUF file (`--model`, `CODECITE_LOCAL_MODEL` or `CODECITE_TOOLSHIM_MODEL`). */
  modelPath: string;
  /** `"auto"` (default: Metal, CUDA or Vulkan when present, else CPU) or `false` (CPU only). */
  gpu?: "auto" | false;
  /**
   * Context size in tokens. Default: the first request's `contextTokens` (the agent's
   * `--num-ctx`), else 8192 — either way as large as memory allows up to that value and the
   * model's training context.
   */
  contextSize?: number;
  /** CPU threads for evaluation (default: node-llama-cpp's, one per math core). */
  threads?: number;
  /** Maximum tokens generated per turn (default: until the model stops or the context is full). */
  maxTokens?: number;
  /**
   * A node-llama-cpp `ChatWrapper` instance to use instead of the one resolved from the
   * model's chat template (advanced; the default `"auto"` is right for published models).
   */
  chatWrapper?: unknown;
  /** How node-llama-cpp is imported (default `import("node-llama-cpp")`); tests replace it. */
  importModule?: () => Promise<unknown>;
}

interface Loaded {
  nlc: NodeLlamaCpp;
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  chat: LlamaChat;
}

/** Maps node-llama-cpp's stop reason to the `done_reason` words of the HTTP providers. */
function doneReason(stop: string): string {
  switch (stop) {
    case "functionCalls":
      return "tool_calls";
    case "maxTokens":
      return "length";
    case "abort":
      return "abort";
    default:
      return "stop";
  }
}

/** Provider for a GGUF model run in-process by node-llama-cpp. */
export class LlamaCppProvider implements Provider {
  readonly id = "llama-cpp";
  readonly location: string;
  readonly #opts: LlamaCppProviderOptions;
  #loading: Promise<Loaded> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(opts: LlamaCppProviderOptions) {
    this.#opts = opts;
    this.location = path.resolve(opts.modelPath);
  }

  /** @throws ProviderError `MODEL_NOT_FOUND` when the GGUF file does not exist. */
  #checkFile(): void {
    if (!existsSync(this.location) || !statSync(this.location).isFile()) {
      throw new ProviderError(
        "MODEL_NOT_FOUND",
        `GGUF model file not found: ${this.location}`,
        "set CODECITE_LOCAL_MODEL (or pass --model) to the path of a .gguf file",
      );
    }
  }

  /**
   * Loads node-llama-cpp, the model and one context (once; a failed load is retried on the
   * next call). `contextTokens` (the request's) sizes the context unless the options fix it;
   * later requests reuse the loaded context whatever they ask for.
   * @throws ProviderError `MISSING_PACKAGE`, `MODEL_NOT_FOUND`, or `BAD_RESPONSE` when
   *   llama.cpp cannot load the file.
   */
  #load(contextTokens?: number): Promise<Loaded> {
    this.#loading ??= (async () => {
      const nlc = await importNodeLlamaCpp(this.#opts.importModule);
      this.#checkFile();
      let llama: Llama | undefined;
      try {
        llama = await nlc.getLlama({
          gpu: this.#opts.gpu ?? "auto",
          logLevel: nlc.LlamaLogLevel.warn,
          // stdout carries only answers and protocol (README "CLI reference"); llama.cpp logs go to stderr.
          logger: (level, message) => {
            if (message.trim() !== "") process.stderr.write(`[llama.cpp ${level}] ${message.trimEnd()}\n`);
          },
          progressLogs: "stderr",
        });
        const model = await llama.loadModel({ modelPath: this.location });
        const context = await model.createContext({
          contextSize: this.#opts.contextSize ?? { max: contextTokens ?? 8192 },
          ...(this.#opts.threads !== undefined ? { threads: this.#opts.threads } : {}),
        });
        const chat = new nlc.LlamaChat({
          contextSequence: context.getSequence(),
          chatWrapper: (this.#opts.chatWrapper as LlamaChat["chatWrapper"] | undefined) ?? "auto",
        });
        return { nlc, llama, model, context, chat };
      } catch (err) {
        await llama?.dispose().catch(() => undefined);
        throw new ProviderError(
          "BAD_RESPONSE",
          `llama.cpp could not load ${this.location}: ${(err as Error)?.message ?? String(err)}`,
          "check that the file is a complete GGUF model supported by node-llama-cpp " + NODE_LLAMA_CPP_VERSION,
        );
      }
    })();
    this.#loading.catch(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  /** Runs `fn` after every earlier request has finished (one context sequence, one turn at a time). */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * One assistant turn. `req.model` is informational: this provider always runs its own GGUF
   * file; `req.contextTokens` sizes the context when this is the request that loads the model. With `format`, the reply is grammar-constrained JSON in `content` (tools are not
   * offered then). Streams through `opts.onContent`/`onThinking` as tokens are generated.
   * @throws ProviderError as `load` does, or `BAD_RESPONSE` when generation fails; an abort by
   *   `opts.signal` rejects with the signal's reason.
   */
  async chat(req: ChatRequest, opts: ChatOptions = {}): Promise<ChatTurn> {
    const loaded = await this.#load(req.contextTokens);
    return this.#serial(async () => {
      try {
        return req.format ? await this.#chatFormat(loaded, req, opts) : await this.#chatTools(loaded, req, opts);
      } catch (err) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        if (err instanceof ProviderError) throw err;
        const msg = (err as Error)?.message ?? String(err);
        throw new ProviderError(
          "BAD_RESPONSE",
          `llama.cpp generation failed: ${msg}`,
          /context/i.test(msg) ? `the conversation does not fit the context of ${path.basename(this.location)}; use a model with a longer context` : undefined,
        );
      }
    });
  }

  async #chatFormat(loaded: Loaded, req: ChatRequest, opts: ChatOptions): Promise<ChatTurn> {
    const format = req.format as JsonSchema;
    const grammar = await loaded.llama.createGrammarForJsonSchema(toGbnfJsonSchema(format) as never);
    const res = await loaded.chat.generateResponse(toChatHistory(req.messages), {
      grammar,
      signal: opts.signal,
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(this.#opts.maxTokens !== undefined ? { maxTokens: this.#opts.maxTokens } : {}),
      onTextChunk: opts.onContent,
    });
    let content = res.response;
    try {
      content = JSON.stringify(dropNullOptionals(JSON.parse(content), format));
    } catch {
      // cut off (maxTokens): leave the text for the caller to judge
    }
    return { content, tool_calls: [], done_reason: doneReason(res.metadata.stopReason) };
  }

  async #chatTools(loaded: Loaded, req: ChatRequest, opts: ChatOptions): Promise<ChatTurn> {
    const schemas = new Map<string, JsonSchema>();
    let functions: ChatModelFunctions | undefined;
    if (req.tools && req.tools.length > 0) {
      const fns: Record<string, { description?: string; params?: never }> = {};
      for (const t of req.tools) {
        schemas.set(t.function.name, t.function.parameters);
        fns[t.function.name] = { description: t.function.description, params: toGbnfJsonSchema(t.function.parameters) as never };
      }
      functions = fns;
    }
    const res = await loaded.chat.generateResponse(toChatHistory(req.messages), {
      ...(functions ? { functions, documentFunctionParams: true } : {}),
      signal: opts.signal,
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(this.#opts.maxTokens !== undefined ? { maxTokens: this.#opts.maxTokens } : {}),
      onResponseChunk: (chunk) => {
        if (chunk.text === "") return;
        if (chunk.type === undefined) opts.onContent?.(chunk.text);
        else if (chunk.segmentType === "thought") opts.onThinking?.(chunk.text);
      },
    });
    const tool_calls: ToolCall[] = (res.functionCalls ?? []).map((fc) => {
      const args = dropNullOptionals(fc.params ?? {}, schemas.get(fc.functionName));
      return {
        name: fc.functionName,
        arguments: typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
      };
    });
    const thinking = res.fullResponse
      .flatMap((part) => (typeof part !== "string" && part.segmentType === "thought" ? [part.text] : []))
      .join("");
    const turn: ChatTurn = { content: res.response, tool_calls, done_reason: doneReason(res.metadata.stopReason) };
    if (thinking !== "") turn.thinking = thinking;
    return turn;
  }

  /** The GGUF file, when it exists. */
  async listModels(): Promise<string[]> {
    return existsSync(this.location) ? [this.location] : [];
  }

  /**
   * Reads the GGUF metadata without loading the weights: context length from
   * `<arch>.context_length`. Capabilities: `completion` and `tools` (node-llama-cpp offers
   * function calling through every chat wrapper).
   * @throws ProviderError `MISSING_PACKAGE`, `MODEL_NOT_FOUND`, `BAD_RESPONSE` (unreadable file).
   */
  async describeModel(): Promise<ModelInfo> {
    const nlc = await importNodeLlamaCpp(this.#opts.importModule);
    this.#checkFile();
    try {
      const info = await nlc.readGgufFileInfo(this.location, { readTensorInfo: false });
      const arch = info.architectureMetadata as { context_length?: unknown } | undefined;
      const out: ModelInfo = { name: path.basename(this.location), capabilities: ["completion", "tools"] };
      if (typeof arch?.context_length === "number") out.context_length = arch.context_length;
      return out;
    } catch (err) {
      throw new ProviderError("BAD_RESPONSE", `${this.location} is not a readable GGUF file: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** `node-llama-cpp X (llama.cpp Y)`. @throws ProviderError `MISSING_PACKAGE`. */
  async version(): Promise<string> {
    const nlc = await importNodeLlamaCpp(this.#opts.importModule);
    const mod = await nlc.getModuleVersion();
    const loaded = this.#loading ? await this.#loading.catch(() => undefined) : undefined;
    return loaded ? `node-llama-cpp ${mod} (llama.cpp ${loaded.llama.llamaCppRelease.release})` : `node-llama-cpp ${mod}`;
  }

  /** Frees the model and the native backend. Safe to call more than once. */
  async close(): Promise<void> {
    const loading = this.#loading;
    this.#loading = undefined;
    const loaded = await loading?.catch(() => undefined);
    await loaded?.llama.dispose();
  }
}

const shared = new Map<string, LlamaCppProvider>();

/**
 * One provider per GGUF file for the whole process, so that the chat provider and the tool
 * shim's `local` interpreter backend share a loaded model when they name the same file.
 */
export function sharedLlamaCppProvider(modelPath: string): LlamaCppProvider {
  const key = path.resolve(modelPath);
  let provider = shared.get(key);
  if (!provider) {
    provider = new LlamaCppProvider({ modelPath: key });
    shared.set(key, provider);
  }
  return provider;
}
