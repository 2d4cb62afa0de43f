/**
 * The default chat model (README "Configuration" order: --model, CODECITE_MODEL, first installed model with
 * `tools`, then the first installed model with the tool shim) and the installed-models hint of
 * a model that is not installed. Against the fake Ollama (real HTTP).
 */
import { afterEach, describe, expect, it } from "vitest";
import { chooseDefaultModel, describeDefaultModel, listModels, withInstalledModels } from "../../src/cli/default-model.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { ProviderError } from "../../src/llm/types.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerWith(models: Array<{ name: string; capabilities: string[] }>): Promise<OllamaProvider> {
  server = await startFakeOllama({ models });
  return new OllamaProvider({ host: server.host });
}

const NO_TOOLS = ["completion"];
const TOOLS = ["completion", "tools"];

describe("chooseDefaultModel", () => {
  it("takes the first installed model with the tools capability, in /api/tags order", async () => {
    const provider = await providerWith([
      { name: "gemma2:2b", capabilities: NO_TOOLS },
      { name: "llama3.1:8b", capabilities: TOOLS },
      { name: "qwen3:8b", capabilities: TOOLS },
    ]);
    expect(await chooseDefaultModel(provider, "auto")).toEqual({ name: "llama3.1:8b", reason: "tools" });
  });

  it.each(["auto", "on"] as const)("toolshim %s: with no tools model, the first installed model (it runs with the shim)", async (mode) => {
    const provider = await providerWith([
      { name: "gemma2:2b", capabilities: NO_TOOLS },
      { name: "phi3:mini", capabilities: NO_TOOLS },
    ]);
    expect(await chooseDefaultModel(provider, mode)).toEqual({ name: "gemma2:2b", reason: "first_installed" });
  });

  it("toolshim off: no fallback, an error that says how to fix it", async () => {
    const provider = await providerWith([{ name: "gemma2:2b", capabilities: NO_TOOLS }]);
    const err = await chooseDefaultModel(provider, "off").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({
      code: "NO_MODEL",
      message: "none of the installed models has the tools capability (gemma2:2b), and --toolshim off needs one",
      hint: "use --toolshim auto to run gemma2:2b with the tool shim, or ollama pull qwen3:8b",
    });
  });

  it("no model installed: NO_MODEL with the pull command", async () => {
    const provider = await providerWith([]);
    await expect(chooseDefaultModel(provider, "auto")).rejects.toMatchObject({ code: "NO_MODEL", hint: expect.stringContaining("ollama pull qwen3:8b") });
  });
});

describe("describeDefaultModel", () => {
  it("says why the model was chosen; the fallback says it runs with the tool shim", () => {
    expect(describeDefaultModel({ name: "qwen3:8b", reason: "tools" })).toBe("codecite: using model qwen3:8b (the first installed model with tool support)");
    expect(describeDefaultModel({ name: "gemma2:2b", reason: "first_installed" })).toBe(
      "codecite: using model gemma2:2b: no installed model has tool support, so it runs with the tool shim (tools described in the prompt, calls read from its text)",
    );
  });
});

describe("withInstalledModels", () => {
  it("adds the installed models to a MODEL_NOT_FOUND hint, keeping code, message and status", async () => {
    const provider = await providerWith([
      { name: "qwen3:8b", capabilities: TOOLS },
      { name: "gemma2:2b", capabilities: NO_TOOLS },
    ]);
    const err = await provider.describeModel("nope").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "MODEL_NOT_FOUND", hint: "ollama pull nope" });
    const better = await withInstalledModels(err, provider);
    expect(better).toBeInstanceOf(ProviderError);
    expect(better).toMatchObject({
      code: "MODEL_NOT_FOUND",
      message: (err as ProviderError).message,
      hint: "ollama pull nope — or use an installed model with --model: qwen3:8b, gemma2:2b",
      status: 404,
    });
  });

  it("says when nothing is installed, and leaves other errors alone", async () => {
    const provider = await providerWith([]);
    const missing = new ProviderError("MODEL_NOT_FOUND", "model x is not installed", "ollama pull x", 404);
    expect(await withInstalledModels(missing, provider)).toMatchObject({ hint: "ollama pull x — or no model is installed yet" });
    const other = new ProviderError("TIMEOUT", "slow");
    expect(await withInstalledModels(other, provider)).toBe(other);
  });

  it("lists at most ten names", () => {
    const names = Array.from({ length: 12 }, (_, i) => `m${i}`);
    expect(listModels(names)).toBe("m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, … (2 more)");
  });
});
