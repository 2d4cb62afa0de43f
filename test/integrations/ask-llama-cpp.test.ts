/**
 * `codecite ask --provider llama-cpp` end to end: the built CLI loads a tiny GGUF model the
 * test writes itself (see `test/helpers/gguf.ts`), runs a session in-process, prints the
 * `ask --json` object, frees the model (`LlamaCppProvider.close()`) and exits 0.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RAG_APP, runCli } from "../cli/run-cli.js";
import { writeTinyLlamaGguf } from "../helpers/gguf.js";

let dir: string;
let model: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "codecite-ask-gguf-"));
  model = await writeTinyLlamaGguf(path.join(dir, "tiny.gguf"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("ask --provider llama-cpp", () => {
  it("answers with the embedded model and exits 0 (--json shape, provider llama-cpp)", async () => {
    // --no-prefetch: the test model's byte vocabulary spends one token per character, so
    // prefetched evidence sized by the usual 3.5 characters per token would not fit its context;
    // this test is about the embedded provider's path, not prefetch.
    const r = await runCli(["ask", "Which files import rag_common?", "--root", RAG_APP, "--provider", "llama-cpp", "--model", model, "--toolshim", "off", "--no-prefetch", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["answer", "evidence", "citations", "grounding", "stop_reason", "steps", "model", "provider"]);
    expect(out.provider).toBe("llama-cpp");
    expect(out.model).toBe(model);
    expect(r.stderr).not.toContain("error");
  });
});
