/**
 * The `llm/` layer's public surface: provider-neutral chat types and the providers.
 * `LlamaCppProvider` loads the optional `node-llama-cpp` package only on its first request.
 */
export * from "./types.js";
export { OllamaProvider, DEFAULT_OLLAMA_TIMEOUT_MS, normalizeToolArguments, type OllamaProviderOptions } from "./ollama.js";
export { OpenAIProvider, type OpenAIProviderOptions } from "./openai.js";
export { LlamaCppProvider, type LlamaCppProviderOptions } from "./llama-cpp.js";
