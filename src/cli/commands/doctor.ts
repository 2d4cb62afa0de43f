/**
 * `codecite doctor [--for ask|mcp|serve] [--json]`: checks what is ready for each purpose, and
 * says how to fix what is missing. Purposes (`--for`, default `ask`): `mcp` — the evidence
 * commands and the MCP server (no model needed: grammars and ripgrep); `ask` — `ask` and `chat`
 * (also the provider, the model, the configuration); `serve` — the HTTP gateway (the
 * configuration, the serve settings and the upstream server). Every check runs (`--json` lists
 * them all); a check is `required` when the chosen purpose cannot run without it, and the
 * readable report shows only the checks the purpose uses, with one line naming the others.
 *
 * Checks, in order (each `{name, ok, required, detail, fix?}`):
 * 1. `config`: flags and variables resolve (README "Configuration").
 * 2. `server`: the provider answers — Ollama `GET /api/version`, an OpenAI-compatible
 *    `GET /v1/models`, or node-llama-cpp is installed (llama-cpp).
 * 3. `model`: the chat model is installed (Ollama `GET /api/tags`, `/v1/models`) or the GGUF file
 *    exists; without `--model`/`CODECITE_MODEL`, the model `ask` would pick.
 * 4. `capabilities`: `tools`, `thinking` and the context length (Ollama `POST /api/show`, GGUF
 *    metadata). Informational.
 * 5. `toolshim`: the mode `ask` will run in (`auto` becomes `on` for a model without `tools`).
 * 6. `interpreter`: the shim interpreter's backend is reachable and its model installed (Ollama),
 *    or its GGUF file present (local). Optional: the deterministic shim stages run without it.
 * 7. `tree-sitter`: every registered grammar loads and parses its sample (`selfTest`).
 * 8. `ripgrep`: the bundled `rg` starts.
 * 9. `probe`: one short request offering a trivial tool; reports whether the call came back
 *    natively, as text the shim recovered (and by which stage), or not at all. Optional.
 *
 * 10. `serve`: the settings of `codecite serve` resolve (port, listen address, token rule, upstream).
 *
 * Exit code 0 when every required check of the purpose passes, 1 otherwise. With
 * `--json`, stdout carries `{checks: [...], ok}`; otherwise a readable report (stdout) and a
 * spinner (stderr) while slow checks run.
 */
import type { Command } from "commander";
import type { Config, ConfigFlags, Env, ServeFlags } from "../../config.js";
import type { Provider, ToolDefinition } from "../../llm/types.js";
import { SUGGESTED_MODEL, sameModel } from "../default-model.js";
import { runAction } from "../output.js";
import { visibleText } from "../../evidence/visible-text.js";

/** One check of the report. */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  /** A failed required check means `ask` cannot run (exit 1); optional ones only degrade it. */
  required: boolean;
  detail: string;
  /** What to run or set to fix a failed check. */
  fix?: string;
}

/** What `doctor` checks readiness for (`--for`). */
export type DoctorPurpose = "ask" | "mcp" | "serve";

/** The checks each purpose cannot run without. */
const REQUIRED_FOR: Record<DoctorPurpose, ReadonlySet<string>> = {
  mcp: new Set(["tree-sitter", "ripgrep"]),
  ask: new Set(["config", "server", "model", "tree-sitter", "ripgrep"]),
  serve: new Set(["config", "serve", "server"]),
};

/**
 * The checks the readable report shows for each purpose: the ones that purpose uses (the MCP
 * server and the evidence commands read no configuration and use no model; `ask` does not start
 * the gateway). Every check still runs, and `--json` lists them all.
 */
const SHOWN_FOR: Record<DoctorPurpose, ReadonlySet<string>> = {
  mcp: REQUIRED_FOR.mcp,
  ask: new Set(["config", "server", "model", "capabilities", "toolshim", "interpreter", "tree-sitter", "ripgrep", "probe"]),
  serve: new Set(["config", "serve", "server", "model", "capabilities", "toolshim", "interpreter", "tree-sitter", "ripgrep", "probe"]),
};

/** What the last line of the report calls each purpose. */
const PURPOSE_WORDS: Record<DoctorPurpose, string> = {
  mcp: "the evidence commands and codecite mcp",
  ask: "codecite ask and chat",
  serve: "codecite serve",
};

/** The result of `runDoctor`: every check, and whether the purpose can run. */
export interface DoctorReport {
  purpose: DoctorPurpose;
  checks: DoctorCheck[];
  /** True when every required check passed. */
  ok: boolean;
}

/** Options of `runDoctor`. */
export interface DoctorOptions {
  /** Longest wait for the live probe, in ms (default 120 000: a first request loads the model). */
  probeTimeoutMs?: number;
  /** Called before each slow step (for a progress line). */
  onStage?: (label: string) => void;
  /** The purpose to check readiness for (default `ask`). */
  purpose?: DoctorPurpose;
  /** Repository root whose `.codecite.yml` applies (default: the current directory). */
  root?: string;
  /** `codecite serve`'s own flags to check (`--upstream`); with purpose `serve`, the server, model and probe checks use its upstream. */
  serve?: Pick<ServeFlags, "upstream">;
}

/** The trivial tool the live probe offers. */
const PROBE_TOOL: ToolDefinition = {
  type: "function",
  function: {
    name: "report_status",
    description: "Report the status of this check.",
    parameters: { type: "object", properties: { status: { type: "string", description: "Always \"ok\"" } }, required: ["status"] },
  },
};
const PROBE_SYSTEM = 'You are helping to test tool calling. Call the report_status tool with status "ok". Do not answer with text.';
const PROBE_USER = 'Call report_status with {"status": "ok"} now.';

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function hintOf(err: unknown): string | undefined {
  const hint = (err as { hint?: unknown })?.hint;
  return typeof hint === "string" ? hint : undefined;
}

function describeConfig(config: Config): string {
  const where =
    config.provider === "ollama"
      ? ` at ${config.ollamaHost} (${config.sources.ollamaHost})`
      : config.provider === "openai"
        ? ` at ${config.openai.baseURL ?? "?"} (${config.sources.openaiBaseURL})`
        : "";
  const model = config.model !== undefined ? `${config.model} (${config.sources.model})` : "automatic";
  return `provider ${config.provider} (${config.sources.provider})${where}; model ${model}; toolshim ${config.toolshim} (${config.sources.toolshim}); interpreter backend ${config.interpreter.backend}`;
}

/** How to fix an upstream of `codecite serve` that cannot be reached (its flag is `--upstream`). */
function serveUpstreamFix(config: Config): string {
  return config.provider === "openai"
    ? "start the OpenAI-compatible server, or point codecite serve's --upstream (or OPENAI_BASE_URL) at it, e.g. http://127.0.0.1:8000/v1"
    : "ollama serve   (or point codecite serve's --upstream, or OLLAMA_HOST, at where Ollama listens)";
}

function serverFix(config: Config): string {
  switch (config.provider) {
    case "ollama":
      return "ollama serve   (or set OLLAMA_HOST / --host to where Ollama listens)";
    case "openai":
      return "start the OpenAI-compatible server, or set OPENAI_BASE_URL (or --host) to its address, e.g. http://127.0.0.1:8000/v1";
    case "llama-cpp":
      return "npm install node-llama-cpp@3.21.1";
  }
}

/** Runs every check. Never throws: a failure is a failed check. */
export async function runDoctor(flags: ConfigFlags, env: Env, opts: DoctorOptions = {}): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const add = (c: DoctorCheck) => void checks.push(c);
  const stage = (label: string) => opts.onStage?.(label);
  const purpose = opts.purpose ?? "ask";
  const finish = (): DoctorReport => {
    for (const c of checks) c.required = REQUIRED_FOR[purpose].has(c.name);
    return { purpose, checks, ok: checks.every((c) => c.ok || !c.required) };
  };

  // 1. config (with the configuration files), 10. serve
  const [{ resolveConfig, resolveServeConfig, ConfigError }, { loadConfigFiles, ConfigFileError }] = await Promise.all([
    import("../../config.js"),
    import("../../config-file.js"),
  ]);
  let config: Config;
  try {
    const files = loadConfigFiles(opts.root, env);
    config = resolveConfig(flags, env, files);
    add({ name: "config", ok: true, required: true, detail: describeConfig(config) });
    try {
      const serve = resolveServeConfig(opts.serve ?? {}, env, files);
      const up = serve.upstream;
      // The gateway forwards to its upstream, not to ask's server: that is the one to check.
      if (purpose === "serve") config = up;
      add({
        name: "serve",
        ok: true,
        required: true,
        detail: `listens on ${serve.listen}:${serve.port}${serve.token !== undefined ? " with a token" : ""}; upstream ${up.provider} at ${up.provider === "ollama" ? up.ollamaHost : up.openai.baseURL}`,
      });
    } catch (err) {
      add({ name: "serve", ok: false, required: true, detail: message(err), fix: hintOf(err) ?? "fix the serve settings" });
    }
  } catch (err) {
    const fix =
      err instanceof ConfigError
        ? `${err.value.trim() === "" ? "set" : "fix or unset"} ${err.variable}`
        : err instanceof ConfigFileError
          ? err.hint
          : undefined;
    add({ name: "config", ok: false, required: true, detail: message(err), ...(fix ? { fix } : {}) });
    await localChecks(add, stage);
    return finish();
  }

  // 2. server
  stage("contacting the provider…");
  const factory = await import("../provider-factory.js");
  /** Providers opened by the checks; closed at the end (an embedded model holds native memory). */
  const opened: Provider[] = [];
  try {
    let provider: Provider | undefined;
    let serverOk = false;
    try {
      provider = await factory.createProvider(config);
      opened.push(provider);
      const detail = await serverDetail(provider, config);
      add({ name: "server", ok: true, required: true, detail });
      serverOk = true;
    } catch (err) {
      const fix = purpose === "serve" ? serveUpstreamFix(config) : config.provider === "llama-cpp" ? (hintOf(err) ?? serverFix(config)) : serverFix(config);
      add({ name: "server", ok: false, required: true, detail: message(err), fix });
    }

    // 3. model, 4. capabilities, 5. toolshim
    let model: string | undefined;
    let installed: string[] = [];
    let tools: boolean | undefined;
    if (provider && serverOk) {
      stage("checking the model…");
      ({ model, installed } = await checkModel(provider, config, add));
      if (model !== undefined) tools = await checkCapabilities(provider, model, add);
    } else {
      add({ name: "model", ok: false, required: true, detail: "not checked: the provider is not available" });
    }
    const effective = checkToolshim(config, model, tools, add);

    // 6. interpreter
    stage("checking the tool-shim interpreter…");
    const interpreter = await checkInterpreter(config, add, (p) => opened.push(p));

    // 7. tree-sitter, 8. ripgrep
    await localChecks(add, stage);

    // 9. probe
    if (provider && model !== undefined) {
      stage(`probing ${model} with a trivial tool…`);
      const fix = probeFix({ provider: config.provider, model, installed, mode: effective });
      await probe(provider, model, effective, interpreter, opts.probeTimeoutMs ?? 120_000, fix, add);
    } else {
      add({ name: "probe", ok: false, required: false, detail: "not run: no usable provider and model" });
    }
    return finish();
  } finally {
    await factory.closeProviders(...opened);
  }
}

async function serverDetail(provider: Provider, config: Config): Promise<string> {
  if (config.provider === "openai") {
    const models = (await provider.listModels?.()) ?? [];
    return `OpenAI-compatible server at ${provider.location} answers (${models.length} model${models.length === 1 ? "" : "s"} served)`;
  }
  const version = (await provider.version?.()) ?? "unknown version";
  return config.provider === "ollama" ? `Ollama ${version} at ${provider.location}` : `${version} (embedded llama.cpp)`;
}

/** Why `ask` would pick the model it picks, for the `model` check. */
const CHOSEN_BECAUSE = {
  tools: "the first installed model with tool support",
  first_installed: "no installed model has tool support, so the first installed model, run with the tool shim",
  unknown_capabilities: "the first model the server lists",
} as const;

/** The `model` check; returns the model to use (if any) and the installed models (`[]` when unknown). */
async function checkModel(provider: Provider, config: Config, add: (c: DoctorCheck) => void): Promise<{ model: string | undefined; installed: string[] }> {
  let installed: string[] = [];
  try {
    installed = (await provider.listModels?.()) ?? [];
    if (config.model === undefined) {
      const { chooseDefaultModel } = await import("../default-model.js");
      const chosen = await chooseDefaultModel(provider, config.toolshim);
      add({ name: "model", ok: true, required: true, detail: `${chosen.name} (chosen automatically: ${CHOSEN_BECAUSE[chosen.reason]}; set CODECITE_MODEL to pin it)` });
      return { model: chosen.name, installed };
    }
    // llama-cpp lists exactly its own GGUF file when it exists.
    const found = config.provider === "llama-cpp" ? installed.length > 0 : installed.some((m) => sameModel(m, config.model!) || m === config.model);
    if (found) {
      add({ name: "model", ok: true, required: true, detail: config.provider === "llama-cpp" ? `GGUF file ${provider.location}` : `${config.model} is installed` });
      return { model: config.model, installed };
    }
    const fix =
      config.provider === "ollama"
        ? `ollama pull ${config.model}`
        : config.provider === "openai"
          ? `serve ${config.model} on the server, or set CODECITE_MODEL / --model to one of: ${installed.slice(0, 8).join(", ") || "(none listed)"}`
          : "set CODECITE_LOCAL_MODEL (or --model) to an existing .gguf file";
    const detail =
      config.provider === "llama-cpp"
        ? `GGUF model file not found: ${provider.location}`
        : `${config.model} is not installed on ${provider.location}${installed.length > 0 ? ` (installed: ${installed.slice(0, 8).join(", ")})` : ""}`;
    add({ name: "model", ok: false, required: true, detail, fix });
    return { model: undefined, installed };
  } catch (err) {
    add({ name: "model", ok: false, required: true, detail: message(err), fix: hintOf(err) ?? "name a model with --model or CODECITE_MODEL" });
    return { model: undefined, installed };
  }
}

/** What `probeFix` needs to know. */
export interface ProbeFixInput {
  provider: Config["provider"];
  /** The model that was probed. */
  model: string;
  /** Installed models (Ollama `GET /api/tags`, `/v1/models`); `[]` when unknown. */
  installed: readonly string[];
  /** The tool-shim mode the probe ran in. */
  mode: "on" | "auto" | "off";
}

/**
 * The fix for a model that did not call the probe's tool: another model with tool support, and
 * `--toolshim on`, each advised only when it would change something — no `ollama pull` of a
 * model already installed (nor of the probed model itself), no `--toolshim on` when the shim is
 * already on.
 */
export function probeFix({ provider, model, installed, mode }: ProbeFixInput): string {
  let other: string;
  if (provider === "ollama") {
    if (sameModel(model, SUGGESTED_MODEL)) other = "try another model with tool support";
    else if (installed.some((m) => sameModel(m, SUGGESTED_MODEL))) other = `try ${SUGGESTED_MODEL}, which is installed (--model ${SUGGESTED_MODEL})`;
    else other = `try a model with tool support (e.g. ollama pull ${SUGGESTED_MODEL})`;
  } else if (provider === "openai") {
    other = "try another model with tool support on the server (--model)";
  } else {
    other = "try another GGUF model with tool support (--model <file.gguf>)";
  }
  return mode === "on" ? other : `${other}, or --toolshim on`;
}

async function checkCapabilities(provider: Provider, model: string, add: (c: DoctorCheck) => void): Promise<boolean | undefined> {
  if (!provider.describeModel) {
    add({ name: "capabilities", ok: true, required: false, detail: `not reported by ${provider.id} servers; the first tool call shows whether ${model} supports tools` });
    return undefined;
  }
  try {
    const info = await provider.describeModel(model);
    const tools = info.capabilities.includes("tools");
    const thinking = info.capabilities.includes("thinking");
    const ctx = info.context_length !== undefined ? `${info.context_length} tokens` : "unknown";
    add({
      name: "capabilities",
      ok: true,
      required: false,
      detail: `tools: ${tools ? "yes" : "no"}; thinking: ${thinking ? "yes" : "no"}; context length: ${ctx}`,
    });
    return tools;
  } catch (err) {
    add({ name: "capabilities", ok: false, required: false, detail: message(err), ...(hintOf(err) ? { fix: hintOf(err)! } : {}) });
    return undefined;
  }
}

function checkToolshim(config: Config, model: string | undefined, tools: boolean | undefined, add: (c: DoctorCheck) => void): "on" | "auto" | "off" {
  const name = model ?? "the model";
  if (config.toolshim === "on") {
    add({ name: "toolshim", ok: true, required: true, detail: "on: tools are described in the system prompt and calls are read from the model's text" });
    return "on";
  }
  if (config.toolshim === "off") {
    if (tools === false) {
      add({
        name: "toolshim",
        ok: false,
        required: true,
        detail: `off, but ${name} lacks the tools capability: it cannot call tools natively`,
        fix: "set CODECITE_TOOLSHIM=auto (or pass --toolshim auto), or pick a model with tool support",
      });
    } else {
      add({ name: "toolshim", ok: true, required: true, detail: "off: native tool calls only; text calls are not recovered" });
    }
    return "off";
  }
  if (tools === false) {
    add({ name: "toolshim", ok: true, required: true, detail: `on (auto: ${name} lacks the tools capability, so tools go into the prompt and calls are read from text)` });
    return "on";
  }
  add({ name: "toolshim", ok: true, required: true, detail: "auto: native tools; calls written as text are recovered by the shim" });
  return "auto";
}

type InterpreterLike = import("../../toolshim/index.js").Interpreter;

async function checkInterpreter(
  config: Config,
  add: (c: DoctorCheck) => void,
  opened: (provider: Provider) => void,
): Promise<InterpreterLike | undefined> {
  if (config.toolshim === "off") {
    add({ name: "interpreter", ok: true, required: false, detail: "not used (tool shim off)" });
    return undefined;
  }
  const { createInterpreterTarget } = await import("../provider-factory.js");
  let target: Awaited<ReturnType<typeof createInterpreterTarget>>;
  try {
    target = await createInterpreterTarget(config);
  } catch (err) {
    add({ name: "interpreter", ok: false, required: false, detail: message(err), ...(hintOf(err) ? { fix: hintOf(err)! } : {}) });
    return undefined;
  }
  if ("disabled" in target) {
    add({ name: "interpreter", ok: false, required: false, detail: `${target.disabled}; the deterministic shim stages still run`, fix: "set CODECITE_TOOLSHIM_MODEL (or CODECITE_LOCAL_MODEL) to a .gguf file" });
    return undefined;
  }
  const { provider, model } = target;
  opened(provider);
  const { createInterpreter } = await import("../../toolshim/index.js");
  if (config.interpreter.backend === "ollama") {
    let version: string;
    try {
      version = (await provider.version?.()) ?? "?";
    } catch (err) {
      add({
        name: "interpreter",
        ok: false,
        required: false,
        detail: `Ollama backend unreachable: ${message(err)}; the deterministic shim stages still run`,
        fix: "ollama serve   (or set OLLAMA_HOST), or CODECITE_TOOLSHIM_BACKEND=local with CODECITE_TOOLSHIM_MODEL",
      });
      return undefined;
    }
    try {
      const installed = (await provider.listModels?.()) ?? [];
      if (!installed.some((m) => sameModel(m, model))) {
        add({
          name: "interpreter",
          ok: false,
          required: false,
          detail: `Ollama ${version} at ${provider.location} answers, but the interpreter model ${model} is not installed`,
          fix: `ollama pull ${model}   (or set CODECITE_TOOLSHIM_OLLAMA_MODEL to an installed model)`,
        });
        return undefined;
      }
    } catch (err) {
      add({ name: "interpreter", ok: false, required: false, detail: message(err), fix: `ollama pull ${model}` });
      return undefined;
    }
    add({ name: "interpreter", ok: true, required: false, detail: `Ollama backend at ${provider.location}, model ${model} installed` });
    return createInterpreter(provider, model);
  }
  const files = (await provider.listModels?.().catch(() => [])) ?? [];
  if (files.length === 0) {
    add({ name: "interpreter", ok: false, required: false, detail: `local backend: GGUF file not found: ${provider.location}`, fix: "set CODECITE_TOOLSHIM_MODEL to an existing .gguf file" });
    return undefined;
  }
  try {
    const version = (await provider.version?.()) ?? "node-llama-cpp";
    add({ name: "interpreter", ok: true, required: false, detail: `local backend: ${provider.location} (${version})` });
  } catch (err) {
    add({ name: "interpreter", ok: false, required: false, detail: message(err), fix: hintOf(err) ?? "npm install node-llama-cpp@3.21.1" });
    return undefined;
  }
  return createInterpreter(provider, model);
}

async function localChecks(add: (c: DoctorCheck) => void, stage: (label: string) => void): Promise<void> {
  stage("loading the tree-sitter grammars…");
  try {
    const { selfTest } = await import("../../evidence/analysis/tree-sitter.js");
    const results = await selfTest();
    const bad = results.filter((r) => !r.ok);
    if (bad.length === 0) {
      add({ name: "tree-sitter", ok: true, required: true, detail: `${results.length} grammars load and parse (${results.map((r) => r.language).join(", ")})` });
    } else {
      add({
        name: "tree-sitter",
        ok: false,
        required: true,
        detail: bad.map((r) => `${r.language}: ${r.error ?? "failed"}`).join("; "),
        fix: "reinstall dependencies (npm ci) so that the tree-sitter grammar packages are complete",
      });
    }
  } catch (err) {
    add({ name: "tree-sitter", ok: false, required: true, detail: message(err), fix: "reinstall dependencies (npm ci)" });
  }

  stage("starting ripgrep…");
  try {
    const { ripgrepPath } = await import("../../evidence/sandbox/ripgrep.js");
    const rg = await ripgrepPath();
    const { execFile } = await import("node:child_process");
    const out = await new Promise<string>((resolve, reject) =>
      execFile(rg, ["--version"], { timeout: 10_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    add({ name: "ripgrep", ok: true, required: true, detail: `${out.split("\n")[0]?.trim() ?? "ripgrep"} (${rg})` });
  } catch (err) {
    add({
      name: "ripgrep",
      ok: false,
      required: true,
      detail: `ripgrep could not be started: ${message(err)}`,
      fix: "reinstall dependencies (npm ci) so that @vscode/ripgrep provides rg, or install ripgrep on PATH",
    });
  }
}

async function probe(
  provider: Provider,
  model: string,
  mode: "on" | "auto" | "off",
  interpreter: InterpreterLike | undefined,
  timeoutMs: number,
  fix: string,
  add: (c: DoctorCheck) => void,
): Promise<void> {
  const shim = await import("../../toolshim/index.js");
  const offered = [{ name: PROBE_TOOL.function.name, description: PROBE_TOOL.function.description, parameters: PROBE_TOOL.function.parameters }];
  const signal = AbortSignal.timeout(timeoutMs);
  const ask = (textMode: boolean) =>
    provider.chat(
      {
        model,
        messages: [
          { role: "system", content: textMode ? `${PROBE_SYSTEM}\n\n${shim.renderCatalogPrompt(offered)}` : PROBE_SYSTEM },
          { role: "user", content: PROBE_USER },
        ],
        ...(textMode ? {} : { tools: [PROBE_TOOL] }),
        temperature: 0,
      },
      { signal },
    );
  let textMode = mode === "on";
  let turn;
  try {
    try {
      turn = await ask(textMode);
    } catch (err) {
      if ((err as { code?: unknown })?.code !== "TOOLS_UNSUPPORTED" || mode !== "auto") throw err;
      textMode = true;
      turn = await ask(true);
    }
  } catch (err) {
    const timedOut = signal.aborted;
    add({
      name: "probe",
      ok: false,
      required: false,
      detail: timedOut ? `${model} did not answer within ${Math.round(timeoutMs / 1000)} s` : message(err),
      // The provider's hint for missing tool support may name an installed model or the shim mode in use.
      ...((err as { code?: unknown })?.code === "TOOLS_UNSUPPORTED" ? { fix } : hintOf(err) ? { fix: hintOf(err)! } : {}),
    });
    return;
  }
  if (mode === "off") {
    const native = turn.tool_calls.some((c) => c.name === PROBE_TOOL.function.name);
    add(
      native
        ? { name: "probe", ok: true, required: false, detail: `${model} called the tool natively` }
        : { name: "probe", ok: false, required: false, detail: `${model} made no native tool call (the shim is off, so text calls are not recovered)`, fix: "set CODECITE_TOOLSHIM=auto" },
    );
    return;
  }
  const { schemaValidator } = await import("../../tools/schema-validator.js");
  const validate = schemaValidator(offered);
  const result = await shim.recover(turn, offered, interpreter ? { interpreter, signal, validate } : { signal, validate });
  const called = result.tool_calls.some((c) => c.name === PROBE_TOOL.function.name);
  const via = textMode ? " (tool shim on: catalogue in the prompt)" : "";
  if (called && result.recovered_by === "native") {
    add({ name: "probe", ok: true, required: false, detail: `${model} called the tool natively${via}` });
  } else if (called) {
    add({ name: "probe", ok: true, required: false, detail: `${model} wrote the call as text; the shim recovered it (${result.recovered_by})${via}` });
  } else if (result.rejected.length > 0) {
    const r = result.rejected[0]!;
    const what = r.code === "UNKNOWN_TOOL" ? `called ${r.name} instead of the offered ${PROBE_TOOL.function.name}` : `called ${r.name} with invalid arguments (${r.message})`;
    add({
      name: "probe",
      ok: false,
      required: false,
      detail: `${model} ${what}${via}`,
      fix,
    });
  } else {
    const said = (turn.content || turn.thinking || "").trim().replace(/\s+/g, " ").slice(0, 120);
    add({
      name: "probe",
      ok: false,
      required: false,
      detail: `${model} made no tool call${via}${said ? `; it wrote: ${JSON.stringify(said)}` : " and wrote nothing"}`,
      fix: `${fix}; \`codecite toolshim\` shows why a text did not parse`,
    });
  }
}

/**
 * The report as text: one line per check the purpose uses (✓ ok, ✗ failed required, ! failed
 * optional), fixes indented, then one line naming the checks not shown.
 */
export function renderReport(report: DoctorReport, c: import("../output.js").Colors): string {
  const shown = report.checks.filter((k) => SHOWN_FOR[report.purpose].has(k.name) || (k.required && !k.ok));
  const hidden = report.checks.filter((k) => !shown.includes(k));
  const width = Math.max(...shown.map((k) => k.name.length));
  const lines: string[] = [];
  for (const k of shown) {
    const mark = k.ok ? c.green("✓") : k.required ? c.red("✗") : c.yellow("!");
    // Details quote what a server answered (model names, errors): control characters shown.
    lines.push(`${mark} ${k.name.padEnd(width)}  ${visibleText(k.detail)}`);
    if (!k.ok && k.fix) lines.push(`  ${" ".repeat(width)}  ${c.dim("fix:")} ${visibleText(k.fix)}`);
  }
  if (hidden.length > 0) {
    const names = hidden.map((k) => k.name).join(", ");
    lines.push(c.dim(`(${hidden.length} check${hidden.length === 1 ? "" : "s"} not needed for ${PURPOSE_WORDS[report.purpose]} not shown: ${names}; --json lists every check.)`));
  }
  const failed = report.checks.filter((k) => !k.ok && k.required).length;
  lines.push("");
  const what = PURPOSE_WORDS[report.purpose];
  lines.push(
    report.ok ? c.green(`Ready: ${what} can run.`) : c.red(`Not ready for ${what}: ${failed} required check${failed === 1 ? "" : "s"} failed.`),
  );
  return `${lines.join("\n")}\n`;
}

interface DoctorFlags {
  json?: boolean;
  provider?: string;
  model?: string;
  host?: string;
  toolshim?: string;
  for?: string;
  upstream?: string;
}

/** Registers `codecite doctor` on `program` (README "CLI reference"). */
export function register(program: Command): void {
  program
    .command("doctor")
    .description("check the provider, model, tool shim, grammars and ripgrep, and say how to fix problems")
    .option("--provider <name>", "ollama, openai or llama-cpp (default: CODECITE_PROVIDER, else ollama)")
    .option("--model <name>", "chat model (default: CODECITE_MODEL, else automatic)")
    .option("--host <url>", "server address (default: OLLAMA_HOST, or OPENAI_BASE_URL with --provider openai)")
    .option("--toolshim <mode>", "auto, on or off (default: CODECITE_TOOLSHIM, else auto)")
    .option("--for <purpose>", "ask (ask and chat), mcp (the evidence commands and mcp) or serve (default ask)")
    .option("--upstream <url>", "with --for serve: codecite serve's --upstream to check (default: OLLAMA_HOST, or the user file's serve.upstream)")
    .option("--json", "print {purpose, checks: [{name, ok, required, detail, fix?}], ok}")
    .action((flags: DoctorFlags) =>
      runAction(flags.json === true, async () => {
        const json = flags.json === true;
        const purpose = flags.for ?? "ask";
        if (purpose !== "ask" && purpose !== "mcp" && purpose !== "serve") {
          const { UsageError } = await import("../output.js");
          throw new UsageError(`--for must be ask, mcp or serve, got ${JSON.stringify(purpose)}`);
        }
        const configFlags: ConfigFlags = {};
        if (flags.provider !== undefined) configFlags.provider = flags.provider;
        if (flags.model !== undefined) configFlags.model = flags.model;
        if (flags.host !== undefined) configFlags.host = flags.host;
        if (flags.toolshim !== undefined) configFlags.toolshim = flags.toolshim;
        const [{ startProgress }, output] = await Promise.all([import("../progress.js"), import("../output.js")]);
        const progress = startProgress("checking…", { json });
        const serve = flags.upstream !== undefined ? { upstream: flags.upstream } : undefined;
        const report = await runDoctor(configFlags, process.env, { purpose, onStage: (label) => progress.update(label), ...(serve ? { serve } : {}) }).finally(() => progress.stop());
        if (json) output.printJson(report);
        else process.stdout.write(renderReport(report, output.colorsFor(process.stdout)));
        process.exitCode = report.ok ? 0 : 1;
      }),
    );
}
