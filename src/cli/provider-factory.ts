/**
 * Builds the chat provider the configuration names, and the provider the tool-shim
 * interpreter runs on. Provider modules are imported lazily: only the chosen one loads
 * (node-llama-cpp in particular is large and optional).
 */
import type { Config } from "../config.js";
import { ProviderError, type Provider } from "../llm/types.js";

/**
 * The chat provider of `config.provider`.
 * @throws ProviderError when the provider cannot be built (e.g. a missing optional package).
 */
export async function createProvider(config: Config): Promise<Provider> {
  switch (config.provider) {
    case "ollama": {
      const { OllamaProvider } = await import("../llm/ollama.js");
      return new OllamaProvider({ host: config.ollamaHost });
    }
    case "openai": {
      const { OpenAIProvider } = await import("../llm/openai.js");
      const opts: { baseURL: string; apiKey?: string } = { baseURL: config.openai.baseURL ?? "" };
      if (config.openai.apiKey !== undefined) opts.apiKey = config.openai.apiKey;
      return new OpenAIProvider(opts);
    }
    case "llama-cpp": {
      const modelPath = config.model ?? config.localModel;
      if (modelPath === undefined) {
        throw new ProviderError("NO_MODEL", "the llama-cpp provider needs a GGUF model file", "pass --model <file.gguf> or set CODECITE_LOCAL_MODEL");
      }
      const { sharedLlamaCppProvider } = await import("../llm/llama-cpp.js");
      return sharedLlamaCppProvider(modelPath);
    }
  }
}

/** The interpreter's provider and model, or why there is none (the deterministic stages still run). */
export type InterpreterTarget = { provider: Provider; model: string } | { disabled: string };

/**
 * The provider and model the tool-shim interpreter uses (`CODECITE_TOOLSHIM_BACKEND`):
 * Ollama at `config.ollamaHost` with `CODECITE_TOOLSHIM_OLLAMA_MODEL`, or the embedded
 * backend with `CODECITE_TOOLSHIM_MODEL`/`CODECITE_LOCAL_MODEL`. A missing setting disables
 * only the interpreter; it never throws for that.
 */
export async function createInterpreterTarget(config: Config): Promise<InterpreterTarget> {
  if (config.interpreter.backend === "ollama") {
    const { OllamaProvider } = await import("../llm/ollama.js");
    return { provider: new OllamaProvider({ host: config.ollamaHost, timeoutMs: 60_000 }), model: config.interpreter.ollamaModel };
  }
  if (config.interpreter.localModel === undefined) {
    return { disabled: "the local interpreter backend needs CODECITE_TOOLSHIM_MODEL or CODECITE_LOCAL_MODEL (a GGUF file)" };
  }
  const { sharedLlamaCppProvider } = await import("../llm/llama-cpp.js");
  return { provider: sharedLlamaCppProvider(config.interpreter.localModel), model: config.interpreter.localModel };
}

/**
 * Closes every distinct provider that has `close()` (the embedded llama-cpp provider frees its
 * model and native backend), in order. A failure to close is ignored: the session's result
 * stands. Call it when a command is done with its providers, also after a failure.
 */
export async function closeProviders(...providers: ReadonlyArray<Provider | undefined>): Promise<void> {
  for (const provider of new Set(providers)) {
    await provider?.close?.().catch(() => undefined);
  }
}
