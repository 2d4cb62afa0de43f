/**
 * The `llm/` layer's public surface: provider-neutral chat types, the providers, and the
 * shared rules for server addresses and tool-call arguments.
 * `LlamaCppProvider` loads the optional `node-llama-cpp` package only on its first request.
 */
export * from "./types.js";
export { OllamaProvider, DEFAULT_OLLAMA_TIMEOUT_MS, type OllamaProviderOptions } from "./ollama.js";
export { OpenAIProvider, type OpenAIProviderOptions } from "./openai.js";
export { LlamaCppProvider, type LlamaCppProviderOptions } from "./llama-cpp.js";
export { AddressError, DEFAULT_OLLAMA_HOST, normalizeOllamaHost, normalizeHttpBaseURL } from "./server-address.js";
export { parseToolArguments } from "./tool-arguments.js";
