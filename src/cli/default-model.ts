/**
 * Which chat model to use, and what to say about installed models (README "Configuration").
 *
 * The default chat model, in order: `--model`, then `CODECITE_MODEL` (both resolved in
 * `config.ts`), then the first installed model whose capabilities include `tools` (Ollama
 * `GET /api/tags` order, capabilities from `POST /api/show`), then the first installed model —
 * which runs with the tool shim (`auto` switches to `on` for a model without `tools`).
 */
import type { ToolshimMode } from "../config.js";
import { visibleText } from "../evidence/visible-text.js";
import { ProviderError, type Provider } from "../llm/types.js";

/** The model suggested when none is usable. */
export const SUGGESTED_MODEL = "qwen3:8b";

/** Longest list of installed models quoted in a message. */
const MAX_LISTED = 10;

/** The model `chooseDefaultModel` picked, and why. */
export interface DefaultModel {
  name: string;
  /**
   * `tools`: the first installed model with the `tools` capability. `first_installed`: no
   * installed model has it; the first installed model is used with the tool shim.
   * `unknown_capabilities`: the provider does not report capabilities; the first model listed.
   */
  reason: "tools" | "first_installed" | "unknown_capabilities";
}

/**
 * Ollama model names match with and without the implicit `:latest` tag (`llama3` = `llama3:latest`).
 */
export function sameModel(a: string, b: string): boolean {
  const norm = (s: string) => (s.includes(":") ? s : `${s}:latest`);
  return norm(a) === norm(b);
}

/** `a, b, c` for up to {@link MAX_LISTED} names, then `… (N more)`. */
export function listModels(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED).join(", ");
  return names.length > MAX_LISTED ? `${shown}, … (${names.length - MAX_LISTED} more)` : shown;
}

/**
 * Picks the default chat model (see the module comment for the order).
 * @param toolshim - with `off` a model without `tools` cannot work, so the fallback to the first
 *   installed model is not taken.
 * @throws ProviderError `NO_MODEL` when no model is installed, when the provider cannot list
 *   models, or (with `toolshim` `off`) when no installed model has `tools`; and the provider's
 *   errors (unreachable server …).
 */
export async function chooseDefaultModel(provider: Provider, toolshim: ToolshimMode): Promise<DefaultModel> {
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
  if (!provider.describeModel) return { name: names[0]!, reason: "unknown_capabilities" };
  for (const name of names) {
    const info = await provider.describeModel(name);
    if (info.capabilities.includes("tools")) return { name, reason: "tools" };
  }
  if (toolshim !== "off") return { name: names[0]!, reason: "first_installed" };
  throw new ProviderError(
    "NO_MODEL",
    `none of the installed models has the tools capability (${listModels(names)}), and --toolshim off needs one`,
    `use --toolshim auto to run ${names[0]!} with the tool shim, or ollama pull ${SUGGESTED_MODEL}`,
  );
}

/** The stderr line that says which model `ask` chose by itself (the name as the server wrote it, control characters shown as escapes). */
export function describeDefaultModel(chosen: DefaultModel): string {
  const name = visibleText(chosen.name);
  switch (chosen.reason) {
    case "tools":
      return `codecite: using model ${name} (the first installed model with tool support)`;
    case "first_installed":
      return `codecite: using model ${name}: no installed model has tool support, so it runs with the tool shim (tools described in the prompt, calls read from its text)`;
    case "unknown_capabilities":
      return `codecite: using model ${name} (the first model the server lists)`;
  }
}

/**
 * A `MODEL_NOT_FOUND` error with the installed models added to its hint (`ollama pull nope —
 * or use an installed model with --model: qwen3:8b, gemma2:2b`). Other errors, any error when
 * the models cannot be listed, and the embedded llama-cpp provider's (a missing GGUF file: there
 * is nothing else installed to list) come back unchanged.
 */
export async function withInstalledModels(err: unknown, provider: Provider): Promise<unknown> {
  if (!(err instanceof ProviderError) || err.code !== "MODEL_NOT_FOUND" || !provider.listModels || provider.id === "llama-cpp") return err;
  let names: string[];
  try {
    names = await provider.listModels();
  } catch {
    return err;
  }
  const installed = names.length > 0 ? `use an installed model with --model: ${listModels(names)}` : "no model is installed yet";
  return new ProviderError(err.code, err.message, err.hint ? `${err.hint} — or ${installed}` : installed, err.status);
}

/**
 * Checks that `name` is a model the provider can answer with, before a session switches to it
 * (`chat`'s `/model NAME`): Ollama's `POST /api/show` (`describeModel`), else the provider's model
 * list. A model the server does not have is refused as `--model` is (`withInstalledModels`).
 * Capabilities that cannot be read are no refusal; the embedded llama-cpp provider answers with
 * its one file whatever the name, so nothing is checked there.
 * @throws ProviderError `MODEL_NOT_FOUND` (its hint lists the installed models), `UNREACHABLE`, `TIMEOUT`.
 */
export async function checkModel(provider: Provider, name: string): Promise<void> {
  if (provider.id === "llama-cpp") return;
  if (provider.describeModel) {
    try {
      await provider.describeModel(name);
    } catch (err) {
      if (err instanceof ProviderError && (err.code === "MODEL_NOT_FOUND" || err.code === "UNREACHABLE" || err.code === "TIMEOUT")) {
        throw await withInstalledModels(err, provider);
      }
    }
    return;
  }
  if (!provider.listModels) return;
  const names = await provider.listModels();
  if (names.some((n) => sameModel(n, name))) return;
  throw await withInstalledModels(
    new ProviderError("MODEL_NOT_FOUND", `model ${JSON.stringify(name)} not found at ${provider.location}`, `pick one of the models listed by GET ${provider.location}/models with --model or CODECITE_MODEL`),
    provider,
  );
}
