/**
 * `codecite doctor` against the fake Ollama and fake OpenAI-compatible servers (real HTTP),
 * in-process for the details and as a subprocess (the built CLI) for output and exit codes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runDoctor, type DoctorReport } from "../../src/cli/commands/doctor.js";
import { runCli as runBuiltCli } from "../cli/run-cli.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { startFakeOpenAI, type FakeOpenAI } from "../helpers/fake-openai.js";
import { rmSync } from "node:fs";
import { closedPort } from "../helpers/closed-port.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

const NAMES = ["config", "serve", "server", "model", "capabilities", "toolshim", "interpreter", "tree-sitter", "ripgrep", "probe"];

let ollama: FakeOllama | undefined;
let openai: FakeOpenAI | undefined;
afterEach(async () => {
  await ollama?.close();
  await openai?.close();
  ollama = undefined;
  openai = undefined;
});

function check(report: DoctorReport, name: string) {
  const c = report.checks.find((k) => k.name === name);
  expect(c, `check ${name}`).toBeDefined();
  return c!;
}

const NATIVE_PROBE = { tool_calls: [{ name: "report_status", arguments: { status: "ok" } }] };

/** The built CLI with a clean configuration plus `env` (see `test/cli/run-cli.ts`). */
function runCli(args: string[], env: Record<string, string>) {
  return runBuiltCli(args, { env });
}

describe("doctor against the fake Ollama", () => {
  it("reports every check and passes when everything is in place", async () => {
    ollama = await startFakeOllama({
      version: "0.12.6",
      models: [
        { name: "qwen3:8b", capabilities: ["completion", "tools", "thinking"], context_length: 40960 },
        { name: "mistral-nemo:latest", capabilities: ["completion", "tools"] },
      ],
      turns: [NATIVE_PROBE],
    });
    const report = await runDoctor({}, { OLLAMA_HOST: ollama.host });
    expect(report.checks.map((c) => c.name)).toEqual(NAMES);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(check(report, "config").detail).toContain(`provider ollama (default) at ${ollama.host} (env)`);
    expect(check(report, "server").detail).toBe(`Ollama 0.12.6 at ${ollama.host}`);
    expect(check(report, "model").detail).toMatch(/^qwen3:8b \(chosen automatically/);
    expect(check(report, "capabilities").detail).toBe("tools: yes; thinking: yes; context length: 40960 tokens");
    expect(check(report, "toolshim").detail).toMatch(/^auto: native tools/);
    expect(check(report, "interpreter").detail).toBe(`Ollama backend at ${ollama.host}, model mistral-nemo installed`);
    expect(check(report, "tree-sitter").detail).toContain("python");
    expect(check(report, "ripgrep").detail).toMatch(/^ripgrep \d+\.\d+/);
    expect(check(report, "probe").detail).toBe("qwen3:8b called the tool natively");
    // The probe offered exactly one trivial tool and asked for it.
    const probe = ollama.chatRequests()[0]!;
    expect(probe.model).toBe("qwen3:8b");
    expect(probe.tools?.map((t) => t.function.name)).toEqual(["report_status"]);
  });

  it("runs the shim in on mode for a model without tools, recovers a text call, and flags a missing interpreter model", async () => {
    ollama = await startFakeOllama({
      models: [{ name: "gemma2:2b", capabilities: ["completion"], context_length: 8192 }],
      turns: [{ content: 'Sure. {"name": "report_status", "arguments": {"status": "ok"}}' }],
    });
    const report = await runDoctor({}, { OLLAMA_HOST: ollama.host, CODECITE_MODEL: "gemma2:2b" });
    expect(check(report, "model")).toMatchObject({ ok: true, detail: "gemma2:2b is installed" });
    expect(check(report, "capabilities").detail).toBe("tools: no; thinking: no; context length: 8192 tokens");
    expect(check(report, "toolshim")).toMatchObject({ ok: true, detail: expect.stringMatching(/^on \(auto: gemma2:2b lacks the tools capability/) });
    expect(check(report, "interpreter")).toMatchObject({
      ok: false,
      required: false,
      fix: expect.stringContaining("ollama pull mistral-nemo"),
    });
    expect(check(report, "probe")).toMatchObject({
      ok: true,
      detail: "gemma2:2b wrote the call as text; the shim recovered it (inline_json) (tool shim on: catalogue in the prompt)",
    });
    const sent = ollama.chatRequests()[0]!;
    expect(sent.tools).toBeUndefined();
    expect(sent.messages[0]!.content).toContain("report_status");
    expect(report.ok).toBe(true);
  });

  it("names the missing model with the pull command and fails", async () => {
    ollama = await startFakeOllama({ models: [{ name: "qwen3:8b" }] });
    const report = await runDoctor({ model: "llama3.1" }, { OLLAMA_HOST: ollama.host });
    expect(check(report, "model")).toMatchObject({ ok: false, required: true, fix: "ollama pull llama3.1" });
    expect(check(report, "model").detail).toContain("llama3.1 is not installed");
    expect(check(report, "probe").ok).toBe(false);
    expect(report.ok).toBe(false);
  });

  it("reports a model that makes no call at all", async () => {
    ollama = await startFakeOllama({ turns: [{ content: "Status is ok." }], models: [{ name: "qwen3:8b" }, { name: "mistral-nemo" }] });
    const report = await runDoctor({}, { OLLAMA_HOST: ollama.host, CODECITE_TOOLSHIM_OLLAMA_MODEL: "qwen3:8b" });
    expect(check(report, "probe")).toMatchObject({ ok: false, required: false, detail: 'qwen3:8b made no tool call; it wrote: "Status is ok."' });
    expect(report.ok).toBe(true);
  });

  it("stops at a bad configuration value, naming the variable", async () => {
    const report = await runDoctor({}, { CODECITE_TOOLSHIM: "sometimes", OLLAMA_HOST: "127.0.0.1:1" });
    expect(check(report, "config")).toMatchObject({ ok: false, fix: "fix or unset CODECITE_TOOLSHIM" });
    expect(check(report, "config").detail).toContain('CODECITE_TOOLSHIM="sometimes"');
    expect(report.ok).toBe(false);
  });

  it("CLI --json: prints {checks, ok} and exits 0", async () => {
    ollama = await startFakeOllama({ models: [{ name: "qwen3:8b" }, { name: "mistral-nemo" }], turns: [NATIVE_PROBE] });
    const { code, stdout } = await runCli(["doctor", "--json"], { OLLAMA_HOST: ollama.host });
    const report = JSON.parse(stdout) as DoctorReport;
    expect(report.checks.map((c) => c.name)).toEqual(NAMES);
    expect(report.checks.every((c) => typeof c.ok === "boolean" && typeof c.detail === "string")).toBe(true);
    expect(report.ok).toBe(true);
    expect(code).toBe(0);
  });

  it("CLI against a closed port: names the host, prints the fix and exits 1", async () => {
    const port = await closedPort();
    const host = `http://127.0.0.1:${port}`;
    const json = await runCli(["doctor", "--json"], { OLLAMA_HOST: `127.0.0.1:${port}` });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(report.ok).toBe(false);
    expect(check(report, "server")).toMatchObject({ ok: false, required: true });
    expect(check(report, "server").detail).toContain(host);
    expect(check(report, "server").fix).toContain("ollama serve");

    const human = await runCli(["doctor"], { OLLAMA_HOST: `127.0.0.1:${port}`, NO_COLOR: "1" });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`✗ server       cannot reach Ollama at ${host}`);
    expect(human.stdout).toContain("fix: ollama serve");
    expect(human.stdout).toContain("Not ready for codecite ask and chat: 2 required checks failed.");
  });
});

describe("doctor --for a purpose", () => {
  it("with no server, mcp is ready, ask and serve are not; each exit code says so", async () => {
    const port = await closedPort();
    const env = { OLLAMA_HOST: `127.0.0.1:${port}` };
    const mcp = await runCli(["doctor", "--for", "mcp", "--json"], env);
    expect(mcp.code).toBe(0);
    const mcpReport = JSON.parse(mcp.stdout) as DoctorReport;
    expect(mcpReport.purpose).toBe("mcp");
    expect(mcpReport.checks.filter((c) => c.required).map((c) => c.name)).toEqual(["tree-sitter", "ripgrep"]);
    expect(check(mcpReport, "server")).toMatchObject({ ok: false, required: false });

    const serve = await runCli(["doctor", "--for", "serve", "--json"], env);
    expect(serve.code).toBe(1);
    const serveReport = JSON.parse(serve.stdout) as DoctorReport;
    expect(serveReport.checks.filter((c) => c.required).map((c) => c.name)).toEqual(["config", "serve", "server"]);
    expect(check(serveReport, "serve")).toMatchObject({ ok: true, detail: `listens on 127.0.0.1:11435; upstream ollama at http://127.0.0.1:${port}` });

    const human = await runCli(["doctor", "--for", "mcp"], { ...env, NO_COLOR: "1" });
    expect(human.stdout).toContain("Ready: the evidence commands and codecite mcp can run.");
    const bad = await runCli(["doctor", "--for", "everything"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--for must be ask, mcp or serve, got "everything"');
    // Four CLI processes, each running doctor's grammar self-test: more room than the suite's 60 s.
  }, 240_000);

  it("serve is not ready when its listen address needs a token", async () => {
    const report = await runDoctor({}, { OLLAMA_HOST: "127.0.0.1:1", XDG_CONFIG_HOME: "/nonexistent" }, { purpose: "serve" });
    expect(check(report, "serve").ok).toBe(true);
    const dir = makeTempDir("codecite-doctor-cfg-");
    try {
      putFile(dir, "codecite/config.yml", "serve:\n  listen: 0.0.0.0\n");
      const bad = await runDoctor({}, { OLLAMA_HOST: "127.0.0.1:1", XDG_CONFIG_HOME: dir }, { purpose: "serve" });
      expect(check(bad, "serve")).toMatchObject({ ok: false, required: true });
      expect(check(bad, "serve").detail).toContain("listening beyond this machine needs a token");
      expect(bad.ok).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("doctor against the fake OpenAI-compatible server", () => {
  it("checks the server, picks a served model and probes it", async () => {
    openai = await startFakeOpenAI({
      models: ["qwen2.5-coder-7b"],
      turns: [{ tool_calls: [{ name: "report_status", arguments: { status: "ok" } }] }],
    });
    const closed = await closedPort();
    const report = await runDoctor({ provider: "openai" }, { OPENAI_BASE_URL: openai.baseURL, OLLAMA_HOST: `127.0.0.1:${closed}` });
    expect(check(report, "server").detail).toBe(`OpenAI-compatible server at ${openai.baseURL} answers (1 model served)`);
    expect(check(report, "model").detail).toMatch(/^qwen2\.5-coder-7b \(chosen automatically/);
    expect(check(report, "capabilities").detail).toMatch(/^not reported by openai servers/);
    expect(check(report, "probe").detail).toBe("qwen2.5-coder-7b called the tool natively");
    expect(check(report, "interpreter")).toMatchObject({ ok: false, required: false, fix: expect.stringContaining("ollama serve") });
    expect(report.ok).toBe(true);
  });
});

describe("doctor probe (audit fixes)", () => {
  it("says which tool the model called when it was not the offered one", async () => {
    ollama = await startFakeOllama({
      models: [{ name: "qwen3:8b" }, { name: "mistral-nemo" }],
      turns: [{ tool_calls: [{ name: "find_importers", arguments: { module_name: "x" } }] }],
    });
    const report = await runDoctor({}, { OLLAMA_HOST: ollama.host });
    expect(check(report, "probe")).toMatchObject({
      ok: false,
      required: false,
      detail: "qwen3:8b called find_importers instead of the offered report_status",
    });
  });

  it("a missing required value says `set`, not `fix or unset`", async () => {
    const report = await runDoctor({ provider: "openai" }, {});
    expect(check(report, "config")).toMatchObject({ ok: false, fix: "set OPENAI_BASE_URL" });
  });
});
