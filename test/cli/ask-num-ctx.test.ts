/**
 * `codecite ask --num-ctx N` and `CODECITE_NUM_CTX`: validated at start (exit 2 naming the flag
 * or variable), sent to Ollama as `options.num_ctx`, 8192 by default. Runs the built CLI.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RAG_APP, runCli } from "./run-cli.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("ask --num-ctx / CODECITE_NUM_CTX", () => {
  it("a bad --num-ctx exits 2 with a JSON error naming the flag and the range", async () => {
    const r = await runCli(["ask", "q", "--root", RAG_APP, "--num-ctx", "1024", "--json"]);
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(out).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    expect(out.error.message).toBe('invalid --num-ctx="1024" (below 2048); accepted: an integer from 2048 to 1048576 (tokens)');
  });

  it("a bad CODECITE_NUM_CTX exits 2 naming the variable", async () => {
    const r = await runCli(["ask", "q", "--root", RAG_APP], { env: { CODECITE_NUM_CTX: "8k" } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('invalid CODECITE_NUM_CTX="8k"');
  });

  it("sends num_ctx 8192 by default, the variable's value, and the flag's over the variable", async () => {
    server = await startFakeOllama({
      models: [{ name: "qwen3:8b", capabilities: ["completion", "tools"], context_length: 40960 }],
      turns: [{ repeat: true, content: "No evidence needed." }],
    });
    const base = ["ask", "q", "--root", RAG_APP, "--model", "qwen3:8b", "--json"];
    const env = { OLLAMA_HOST: server.host };
    const runs = [
      await runCli(base, { env }),
      await runCli(base, { env: { ...env, CODECITE_NUM_CTX: "16384" } }),
      await runCli([...base, "--num-ctx", "4096"], { env: { ...env, CODECITE_NUM_CTX: "16384" } }),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(server.chatRequests().map((r) => r.options)).toEqual([{ num_ctx: 8192 }, { num_ctx: 16384 }, { num_ctx: 4096 }]);
  });
});
