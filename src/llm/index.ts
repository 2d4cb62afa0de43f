/**
 * The `llm/` layer's public surface: provider-neutral chat types and the providers.
 * `LlamaCppProvider` is not re-exported here on purpose: it loads the optional
 * `node-llama-cpp` package, so it is imported from `./llama-cpp.js` only when chosen.
 */
export * from "./types.js";
export { OllamaProvider, DEFAULT_OLLAMA_TIMEOUT_MS, normalizeToolArguments, type OllamaProviderOptions } from "./ollama.js";
export { OpenAIProvider, type OpenAIProviderOptions } from "./openai.js";
