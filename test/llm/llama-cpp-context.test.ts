/**
 * How the embedded provider sizes its context: the first request's `contextTokens` when the
 * options do not fix `contextSize`. node-llama-cpp is replaced by a recording stand-in (the
 * `importModule` option), so no native code runs; the real loading is covered by llama-cpp.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { LlamaCppProvider } from "../../src/llm/llama-cpp.js";

/** A stand-in for the parts of node-llama-cpp the provider uses; records `createContext` options. */
function fakeNodeLlamaCpp() {
  const contexts: unknown[] = [];
  const module = {
    LlamaLogLevel: { warn: "warn" },
    getLlama: async () => ({
      loadModel: async () => ({
        createContext: async (opts: { contextSize: unknown }) => {
          contexts.push(opts.contextSize);
          return { getSequence: () => ({}) };
        },
      }),
      dispose: async () => undefined,
    }),
    LlamaChat: class {
      async generateResponse() {
        return { response: "ok", functionCalls: [], fullResponse: ["ok"], metadata: { stopReason: "eogToken" } };
      }
    },
  };
  return { contexts, importModule: async () => module };
}

let dir: string;
let modelPath: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "codecite-ctx-"));
  modelPath = path.join(dir, "m.gguf");
  await writeFile(modelPath, "GGUF");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const messages = [{ role: "user" as const, content: "q" }];

describe("LlamaCppProvider context size", () => {
  it("loads with the first request's contextTokens as the maximum, and keeps that context", async () => {
    const fake = fakeNodeLlamaCpp();
    const p = new LlamaCppProvider({ modelPath, importModule: fake.importModule });
    const turn = await p.chat({ model: "", messages, contextTokens: 16384 });
    expect(turn).toEqual({ content: "ok", tool_calls: [], done_reason: "stop" });
    await p.chat({ model: "", messages, contextTokens: 4096 });
    expect(fake.contexts).toEqual([{ max: 16384 }]);
    await p.close();
  });

  it("uses at most 8192 without contextTokens, and a fixed contextSize option over both", async () => {
    const a = fakeNodeLlamaCpp();
    const p = new LlamaCppProvider({ modelPath, importModule: a.importModule });
    await p.chat({ model: "", messages });
    expect(a.contexts).toEqual([{ max: 8192 }]);
    await p.close();
    const b = fakeNodeLlamaCpp();
    const q = new LlamaCppProvider({ modelPath, importModule: b.importModule, contextSize: 2048 });
    await q.chat({ model: "", messages, contextTokens: 16384 });
    expect(b.contexts).toEqual([2048]);
    await q.close();
  });
});
