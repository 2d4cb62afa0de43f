/** `closeProviders`: every distinct provider with `close()` is closed once; failures do not matter. */
import { describe, expect, it } from "vitest";
import { closeProviders } from "../../src/cli/provider-factory.js";
import type { Provider } from "../../src/llm/types.js";

function provider(id: string, log: string[], fail = false): Provider {
  return {
    id,
    location: id,
    chat: () => Promise.reject(new Error("unused")),
    close: () => {
      log.push(id);
      return fail ? Promise.reject(new Error("busy")) : Promise.resolve();
    },
  };
}

describe("closeProviders", () => {
  it("closes each distinct provider once, in order, skipping absent ones and those without close()", async () => {
    const log: string[] = [];
    const chat = provider("llama-cpp", log);
    const http: Provider = { id: "ollama", location: "http://h", chat: () => Promise.reject(new Error("unused")) };
    await closeProviders(chat, undefined, http, chat, provider("interpreter", log));
    expect(log).toEqual(["llama-cpp", "interpreter"]);
  });

  it("a failing close() neither throws nor stops the others", async () => {
    const log: string[] = [];
    await expect(closeProviders(provider("a", log, true), provider("b", log))).resolves.toBeUndefined();
    expect(log).toEqual(["a", "b"]);
  });
});
