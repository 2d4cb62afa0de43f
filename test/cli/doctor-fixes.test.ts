/**
 * `codecite doctor` fix texts never suggest what is already so: no `ollama pull X` for an
 * installed X, no `--toolshim on` when the shim is on. And the model check follows the default
 * model order (a model without tools is chosen when no installed model has tools).
 */
import { afterEach, describe, expect, it } from "vitest";
import { probeFix, runDoctor, type DoctorReport } from "../../src/cli/commands/doctor.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function check(report: DoctorReport, name: string) {
  const c = report.checks.find((k) => k.name === name);
  expect(c, name).toBeDefined();
  return c!;
}

describe("probeFix", () => {
  it.each([
    [{ model: "gemma2:2b", installed: ["gemma2:2b"], mode: "auto" }, "try a model with tool support (e.g. ollama pull qwen3:8b), or --toolshim on"],
    [{ model: "gemma2:2b", installed: ["gemma2:2b", "qwen3:8b"], mode: "auto" }, "try qwen3:8b, which is installed (--model qwen3:8b), or --toolshim on"],
    [{ model: "gemma2:2b", installed: ["gemma2:2b", "qwen3:8b"], mode: "on" }, "try qwen3:8b, which is installed (--model qwen3:8b)"],
    [{ model: "qwen3:8b", installed: ["qwen3:8b"], mode: "off" }, "try another model with tool support, or --toolshim on"],
    [{ model: "qwen3:8b", installed: ["qwen3:8b"], mode: "on" }, "try another model with tool support"],
  ] as const)("%j → %s", (input, fix) => {
    expect(probeFix({ provider: "ollama", ...input })).toBe(fix);
  });

  it("other providers are never told to `ollama pull`", () => {
    expect(probeFix({ provider: "openai", model: "m", installed: [], mode: "auto" })).toBe("try another model with tool support on the server (--model), or --toolshim on");
    expect(probeFix({ provider: "llama-cpp", model: "/m.gguf", installed: ["/m.gguf"], mode: "on" })).toBe(
      "try another GGUF model with tool support (--model <file.gguf>)",
    );
  });
});

describe("doctor against the fake Ollama", () => {
  it("shim on, qwen3:8b installed, the probe makes no call: the fix names the installed model, not a pull or --toolshim on", async () => {
    server = await startFakeOllama({
      models: [
        { name: "gemma2:2b", capabilities: ["completion"] },
        { name: "qwen3:8b", capabilities: ["completion", "tools"] },
        { name: "mistral-nemo", capabilities: ["completion", "tools"] },
      ],
      turns: [{ content: "Status is ok." }, { repeat: true, content: "[]" }],
    });
    const report = await runDoctor({ model: "gemma2:2b", toolshim: "on" }, { OLLAMA_HOST: server.host });
    expect(check(report, "probe")).toMatchObject({
      ok: false,
      fix: "try qwen3:8b, which is installed (--model qwen3:8b); `codecite toolshim` shows why a text did not parse",
    });
  });

  it("no installed model has tools: the model check picks the first one and says it runs with the shim", async () => {
    server = await startFakeOllama({
      models: [
        { name: "gemma2:2b", capabilities: ["completion"] },
        { name: "mistral-nemo", capabilities: ["completion"] },
      ],
      turns: [{ content: '{"name": "report_status", "arguments": {"status": "ok"}}' }],
    });
    const report = await runDoctor({}, { OLLAMA_HOST: server.host });
    expect(check(report, "model")).toMatchObject({
      ok: true,
      detail: "gemma2:2b (chosen automatically: no installed model has tool support, so the first installed model, run with the tool shim; set CODECITE_MODEL to pin it)",
    });
    expect(check(report, "toolshim").detail).toMatch(/^on \(auto: gemma2:2b lacks the tools capability/);
    expect(check(report, "probe")).toMatchObject({ ok: true });
    expect(report.ok).toBe(true);
  });
});
