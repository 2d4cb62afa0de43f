/**
 * The default chat model: `--model`, else `CODECITE_MODEL` (both resolved in `config.ts`),
 * else the first installed model whose capabilities include `tools` (Ollama `GET /api/tags`
 * order, capabilities from `POST /api/show`).
 */
import type { ToolshimMode } from "../config.js";
import { ProviderError, type Provider } from "../llm/types.js";

/** The model suggested when none is usable. */
export const SUGGESTED_MODEL = "qwen3:8b";

/**
 * Picks the first installed model with the `tools` capability. With `--toolshim on` (where
 * native tool support is not needed) the first installed model is taken when none has it.
 * @throws ProviderError `NO_MODEL` (with `ollama pull qwen3:8b`) when nothing fits, and the
 *   provider's errors (unreachable server …).
 */
export async function chooseDefaultModel(provider: Provider, toolshim: ToolshimMode): Promise<string> {
  if (!provider.listModels) {
    throw new ProviderError("NO_MODEL", `the ${provider.id} provider cannot list models`, "Name one with --model or CODECITE_MODEL.");
  }
  const names = await provider.listModels();
  if (names.length === 0) {
    throw new ProviderError(
      "NO_MODEL",
      `no model is installed on ${provider.location}`,
      `ollama pull ${SUGGESTED_MODEL}  (a model with tool support), or name one with --model`,
    );
  }
  if (!provider.describeModel) return names[0]!;
  for (const name of names) {
    const info = await provider.describeModel(name);
    if (info.capabilities.includes("tools")) return name;
  }
  if (toolshim === "on") return names[0]!;
  throw new ProviderError(
    "NO_MODEL",
    `none of the installed models has the tools capability (${names.join(", ")})`,
    `ollama pull ${SUGGESTED_MODEL}, or use one of them with --model NAME --toolshim on`,
  );
}
