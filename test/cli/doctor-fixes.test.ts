/**
 * `codecite doctor` fix texts never suggest what is already so: no `ollama pull X` for an
 * installed X, no `--toolshim on` when the shim is on. And the model check follows the default
 * model order (a model without tools is chosen when no installed model has tools).
 */
import { afterEach, describe, expect, it } from "vitest";
import pc from "picocolors";
import { probeFix, renderReport, runDoctor, type DoctorReport } from "../../src/cli/commands/doctor.js";
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

describe("the readable report shows the checks its purpose uses", () => {
  const plain = pc.createColors(false);
  const names = (text: string) => [...text.matchAll(/^[✓✗!] (\S+)/gm)].map((m) => m[1]);

  it("--for mcp: grammars and ripgrep, and one line for the rest; every check is still in the report (--json)", async () => {
    server = await startFakeOllama({ models: [{ name: "qwen3:8b", capabilities: ["completion", "tools"] }], turns: [{ content: "ok" }] });
    const report = await runDoctor({}, { OLLAMA_HOST: server.host }, { purpose: "mcp" });
    expect(report.checks.map((k) => k.name)).toEqual(["config", "serve", "server", "model", "capabilities", "toolshim", "interpreter", "tree-sitter", "ripgrep", "probe"]);
    const text = renderReport(report, plain);
    expect(names(text)).toEqual(["tree-sitter", "ripgrep"]);
    expect(text).toContain(
      "\n(8 checks not needed for the evidence commands and codecite mcp not shown: config, serve, server, model, capabilities, toolshim, interpreter, probe; --json lists every check.)\n\nReady: the evidence commands and codecite mcp can run.\n",
    );
  });

  it("ask leaves out only the gateway's settings; serve shows every check", async () => {
    server = await startFakeOllama({ models: [{ name: "qwen3:8b", capabilities: ["completion", "tools"] }], turns: [{ content: "ok" }] });
    const ask = renderReport(await runDoctor({}, { OLLAMA_HOST: server.host }, { purpose: "ask" }), plain);
    expect(names(ask)).toEqual(["config", "server", "model", "capabilities", "toolshim", "interpreter", "tree-sitter", "ripgrep", "probe"]);
    expect(ask).toContain("\n(1 check not needed for codecite ask and chat not shown: serve; --json lists every check.)\n");
    const serve = renderReport(await runDoctor({}, { OLLAMA_HOST: server.host }, { purpose: "serve" }), plain);
    expect(names(serve)).toEqual(["config", "serve", "server", "model", "capabilities", "toolshim", "interpreter", "tree-sitter", "ripgrep", "probe"]);
    expect(serve).not.toContain("not shown");
  });

  it("a failed required check is shown whatever the purpose", async () => {
    const report: DoctorReport = {
      purpose: "mcp",
      ok: false,
      checks: [
        { name: "config", ok: true, required: false, detail: "provider ollama" },
        { name: "ripgrep", ok: false, required: true, detail: "rg did not start", fix: "reinstall codecite" },
      ],
    };
    expect(renderReport(report, plain)).toBe(
      "✗ ripgrep  rg did not start\n           fix: reinstall codecite\n(1 check not needed for the evidence commands and codecite mcp not shown: config; --json lists every check.)\n\nNot ready for the evidence commands and codecite mcp: 1 required check failed.\n",
    );
  });
});

describe("doctor --for serve checks the gateway's upstream", () => {
  const DEAD = "127.0.0.1:9";

  it("--upstream is the server the checks reach, whatever OLLAMA_HOST says", async () => {
    server = await startFakeOllama({ models: [{ name: "qwen3:8b", capabilities: ["completion", "tools"] }], turns: [{ content: "ok" }] });
    const report = await runDoctor({}, { OLLAMA_HOST: DEAD }, { purpose: "serve", serve: { upstream: server.host } });
    expect(check(report, "serve").detail).toBe(`listens on 127.0.0.1:11435; upstream ollama at ${server.host}`);
    expect(check(report, "server")).toMatchObject({ ok: true, detail: `Ollama 0.12.6 at ${server.host}` });
    expect(report.ok).toBe(true);
  });

  it("ask's --host is not the gateway's upstream: an upstream that is down fails, with serve's own fix", async () => {
    server = await startFakeOllama({ models: [{ name: "qwen3:8b", capabilities: ["completion", "tools"] }], turns: [{ content: "ok" }] });
    const report = await runDoctor({ host: server.host }, { OLLAMA_HOST: DEAD }, { purpose: "serve" });
    expect(check(report, "serve").detail).toBe(`listens on 127.0.0.1:11435; upstream ollama at http://${DEAD}`);
    expect(check(report, "server")).toMatchObject({ ok: false, fix: "ollama serve   (or point codecite serve's --upstream, or OLLAMA_HOST, at where Ollama listens)" });
    expect(report.ok).toBe(false);
  });
});
