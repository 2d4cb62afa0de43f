/**
 * Configuration: command-line flags and environment variables resolved into one validated
 * `Config` (README "Configuration"). Flags beat variables beat defaults; every value is
 * checked once, here, and a bad one throws a `ConfigError` that names the variable (or flag),
 * the value and the accepted values. The CLI turns a `ConfigError` into exit code 2.
 *
 * This module is the one place that knows the variable names. Server addresses are checked
 * with the rules of `llm/server-address.ts` (the same normaliser the providers and the
 * tool-shim interpreter use); that module imports nothing, so `llm/` never imports upwards.
 */
import {
  AddressError,
  BASE_URL_FORM,
  DEFAULT_OLLAMA_HOST,
  OLLAMA_DEFAULT_PORT,
  normalizeHttpBaseURL,
  normalizeOllamaHost as normalizeHost,
} from "./llm/server-address.js";

export { DEFAULT_OLLAMA_HOST, OLLAMA_DEFAULT_PORT };

/** Chat providers (`--provider`, `CODECITE_PROVIDER`). */
export type ProviderName = "ollama" | "openai" | "llama-cpp";

/** Tool-shim modes (`--toolshim`, `CODECITE_TOOLSHIM`). */
export type ToolshimMode = "auto" | "on" | "off";

/** Interpreter backends (`CODECITE_TOOLSHIM_BACKEND`): Ollama, or an embedded GGUF model. */
export type InterpreterBackend = "ollama" | "local";

/** Where a resolved value came from (shown by `codecite doctor`). */
export type ValueSource = "flag" | "env" | "default";

/** Smallest accepted context size in tokens (`--num-ctx`, `CODECITE_NUM_CTX`). */
export const MIN_CONTEXT_TOKENS = 2048;
/** Largest accepted context size in tokens (1 Mi tokens, the longest contexts models offer). */
export const MAX_CONTEXT_TOKENS = 1_048_576;

/** Default interpreter model on Ollama (the same default as goose's tool shim). */
export const DEFAULT_INTERPRETER_OLLAMA_MODEL = "mistral-nemo";

/** The resolved, validated configuration. */
export interface Config {
  provider: ProviderName;
  /** Chat model name (or GGUF path for `llama-cpp`); undefined = choose automatically. */
  model?: string;
  /** Normalised Ollama base URL, e.g. `http://127.0.0.1:11434` (no trailing `/`). */
  ollamaHost: string;
  /** OpenAI-compatible server (`OPENAI_BASE_URL`, `OPENAI_API_KEY`; `--host` with `--provider openai`). */
  openai: { baseURL?: string; apiKey?: string };
  /** GGUF file for the embedded provider (`CODECITE_LOCAL_MODEL`). */
  localModel?: string;
  toolshim: ToolshimMode;
  /**
   * Context size of an `ask` session in tokens (`--num-ctx`, `CODECITE_NUM_CTX`); undefined =
   * the agent's default (8192). The agent caps it by the model's context length.
   */
  contextTokens?: number;
  interpreter: {
    backend: InterpreterBackend;
    /** Interpreter model on Ollama (`CODECITE_TOOLSHIM_OLLAMA_MODEL`). */
    ollamaModel: string;
    /** GGUF file for the local backend: `CODECITE_TOOLSHIM_MODEL`, then `CODECITE_LOCAL_MODEL`. */
    localModel?: string;
  };
  /** Where each top-level setting came from. */
  sources: Record<"provider" | "model" | "ollamaHost" | "openaiBaseURL" | "toolshim" | "interpreterBackend" | "contextTokens", ValueSource>;
}

/** Command-line flags that override variables (`ask`, `doctor`, `toolshim`). Absent = not given. */
export interface ConfigFlags {
  provider?: string;
  model?: string;
  /** Server address of the chosen provider: Ollama host, or the OpenAI-compatible base URL. */
  host?: string;
  toolshim?: string;
  /** Context size in tokens, as typed (`--num-ctx`). */
  numCtx?: string;
}

/** The environment as `process.env` gives it. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * A bad configuration value. `variable` is the environment variable or flag
 * (e.g. `CODECITE_TOOLSHIM`, `--toolshim`), `value` the raw text, `accepted` the values
 * (or the form) that would have been accepted.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(
    readonly variable: string,
    readonly value: string,
    readonly accepted: readonly string[],
    detail?: string,
  ) {
    super(
      `invalid ${variable}=${JSON.stringify(value)}${detail ? ` (${detail})` : ""}; accepted: ${accepted.join(", ")}`,
    );
  }

  /** What to do: `Set the X environment variable.` for a missing value, else `Fix or remove …`. */
  get hint(): string {
    const what = this.variable.startsWith("-") ? `the ${this.variable} flag` : `the ${this.variable} environment variable`;
    return this.value.trim() === "" ? `Set ${what}.` : `Fix or remove ${what}.`;
  }
}

const TRUE_WORDS = ["1", "true", "yes", "on"] as const;
const FALSE_WORDS = ["0", "false", "no", "off"] as const;
const TOOLSHIM_ACCEPTED = ["auto", ...TRUE_WORDS, ...FALSE_WORDS];

/**
 * Parses a tool-shim mode leniently: `auto`; `1/true/yes/on` → `on`; `0/false/no/off` → `off`;
 * any case, surrounding spaces ignored (the boolean spellings follow goose's `GOOSE_TOOLSHIM`).
 * @throws ConfigError naming `variable` for anything else.
 */
export function parseToolshimMode(raw: string, variable = "CODECITE_TOOLSHIM"): ToolshimMode {
  const v = raw.trim().toLowerCase();
  if (v === "auto") return "auto";
  if ((TRUE_WORDS as readonly string[]).includes(v)) return "on";
  if ((FALSE_WORDS as readonly string[]).includes(v)) return "off";
  throw new ConfigError(variable, raw, TOOLSHIM_ACCEPTED);
}

/**
 * Parses an interpreter backend: empty or `ollama` → `ollama`; `local`, `llama.cpp`, `llama_cpp`
 * → `local` (trimmed, any case; the spellings of goose's `GOOSE_TOOLSHIM_BACKEND`).
 * @throws ConfigError naming `variable` for anything else.
 */
export function parseInterpreterBackend(raw: string, variable = "CODECITE_TOOLSHIM_BACKEND"): InterpreterBackend {
  const v = raw.trim().toLowerCase();
  if (v === "" || v === "ollama") return "ollama";
  if (v === "local" || v === "llama.cpp" || v === "llama_cpp") return "local";
  throw new ConfigError(variable, raw, ["ollama", "local", "llama.cpp", "llama_cpp"]);
}

/**
 * Parses a provider name: `ollama`, `openai`, `llama-cpp` (any case; `llama.cpp`/`llama_cpp`
 * are read as `llama-cpp`).
 * @throws ConfigError naming `variable` for anything else.
 */
export function parseProvider(raw: string, variable = "CODECITE_PROVIDER"): ProviderName {
  const v = raw.trim().toLowerCase();
  if (v === "ollama" || v === "openai") return v;
  if (v === "llama-cpp" || v === "llama.cpp" || v === "llama_cpp") return "llama-cpp";
  throw new ConfigError(variable, raw, ["ollama", "openai", "llama-cpp"]);
}

/**
 * Parses a context size in tokens: a decimal integer from `MIN_CONTEXT_TOKENS` (2048) to
 * `MAX_CONTEXT_TOKENS` (1048576), surrounding spaces ignored.
 * @throws ConfigError naming `variable` for anything else (a unit such as `8k` is not accepted).
 */
export function parseContextTokens(raw: string, variable = "CODECITE_NUM_CTX"): number {
  const accepted = [`an integer from ${MIN_CONTEXT_TOKENS} to ${MAX_CONTEXT_TOKENS} (tokens)`];
  const v = raw.trim();
  if (!/^\d+$/.test(v)) throw new ConfigError(variable, raw, accepted, "not a whole number of tokens");
  const n = Number(v);
  if (n < MIN_CONTEXT_TOKENS) throw new ConfigError(variable, raw, accepted, `below ${MIN_CONTEXT_TOKENS}`);
  if (n > MAX_CONTEXT_TOKENS) throw new ConfigError(variable, raw, accepted, `above ${MAX_CONTEXT_TOKENS}`);
  return n;
}

/** Runs an address normaliser, turning its `AddressError` into a `ConfigError` naming `variable`. */
function checkedAddress(raw: string, variable: string, normalize: (raw: string) => string): string {
  try {
    return normalize(raw);
  } catch (err) {
    if (err instanceof AddressError) throw new ConfigError(variable, raw, [err.accepted], err.detail);
    throw err;
  }
}

/**
 * Normalises an Ollama address with the `OLLAMA_HOST` rules of README
 * (`llm/server-address.ts` `normalizeOllamaHost`: scheme optional, port 11434 added when
 * absent except for `https://`, `0.0.0.0` = this machine, bare IPv6 bracketed, trailing `/`
 * dropped). Empty or blank input gives `DEFAULT_OLLAMA_HOST`.
 * @throws ConfigError (variable `OLLAMA_HOST`, or `variable`) when the value is not an address.
 */
export function normalizeOllamaHost(raw: string, variable = "OLLAMA_HOST"): string {
  return checkedAddress(raw, variable, normalizeHost);
}

/** Trimmed value, or undefined when absent or blank. */
function nonBlank(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  return t === "" ? undefined : t;
}

/**
 * One setting by precedence: the flag when given, else the variable when set and not blank,
 * else undefined (the caller's default). `parse` validates the raw text, naming the flag or
 * the variable in its `ConfigError`.
 */
function layered<T>(
  flag: readonly [name: string, value: string | undefined],
  variable: readonly [name: string, value: string | undefined],
  parse: (raw: string, name: string) => T,
): { value: T; source: "flag" | "env" } | undefined {
  if (flag[1] !== undefined) return { value: parse(flag[1], flag[0]), source: "flag" };
  if (nonBlank(variable[1]) !== undefined) return { value: parse(variable[1]!, variable[0]), source: "env" };
  return undefined;
}

/**
 * Resolves flags and environment into a validated `Config`. Flags beat variables beat defaults.
 * Variables (README "Configuration"): `OLLAMA_HOST`, `CODECITE_MODEL`, `CODECITE_PROVIDER`,
 * `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `CODECITE_TOOLSHIM`, `CODECITE_TOOLSHIM_BACKEND`,
 * `CODECITE_TOOLSHIM_OLLAMA_MODEL`, `CODECITE_TOOLSHIM_MODEL`, `CODECITE_LOCAL_MODEL`,
 * `CODECITE_NUM_CTX` (and the flag `--num-ctx`; see `parseContextTokens`).
 * Blank variables count as unset (except `CODECITE_TOOLSHIM_BACKEND`, where empty means `ollama`).
 * `--host` sets the Ollama host for `ollama` and the base URL for `openai`. The chosen provider's
 * server or model must be known: `OPENAI_BASE_URL` (or `--host`) for `openai`, a GGUF file
 * (`--model`, `CODECITE_MODEL` or `CODECITE_LOCAL_MODEL`) for `llama-cpp`.
 * A missing interpreter model for the `local` backend is not an error here (it disables only
 * the interpreter, never the deterministic shim stages; the CLI says so).
 * @throws ConfigError for the first bad or missing value, naming the variable or flag.
 */
export function resolveConfig(flags: ConfigFlags = {}, env: Env = {}): Config {
  const providerSetting = layered(["--provider", flags.provider], ["CODECITE_PROVIDER", env.CODECITE_PROVIDER], parseProvider);
  const provider = providerSetting?.value ?? "ollama";
  const toolshimSetting = layered(["--toolshim", flags.toolshim], ["CODECITE_TOOLSHIM", env.CODECITE_TOOLSHIM], parseToolshimMode);
  const toolshim = toolshimSetting?.value ?? "auto";
  const contextSetting = layered(["--num-ctx", flags.numCtx], ["CODECITE_NUM_CTX", env.CODECITE_NUM_CTX], parseContextTokens);

  const backend =
    env.CODECITE_TOOLSHIM_BACKEND !== undefined
      ? parseInterpreterBackend(env.CODECITE_TOOLSHIM_BACKEND, "CODECITE_TOOLSHIM_BACKEND")
      : "ollama";

  const hostFlag = nonBlank(flags.host);
  const hostSetting = layered(["--host", provider === "ollama" ? hostFlag : undefined], ["OLLAMA_HOST", env.OLLAMA_HOST], normalizeOllamaHost);
  const ollamaHost = hostSetting?.value ?? DEFAULT_OLLAMA_HOST;

  const baseSetting = layered(["--host", provider === "openai" ? hostFlag : undefined], ["OPENAI_BASE_URL", env.OPENAI_BASE_URL], (raw, name) =>
    checkedAddress(raw, name, normalizeHttpBaseURL),
  );
  const baseURL = baseSetting?.value;
  if (provider === "openai" && baseURL === undefined) {
    throw new ConfigError(
      "OPENAI_BASE_URL",
      env.OPENAI_BASE_URL ?? "",
      [BASE_URL_FORM],
      "required with --provider openai (or set --host)",
    );
  }
  if (provider === "llama-cpp" && hostFlag !== undefined) {
    throw new ConfigError("--host", flags.host!, ["no --host with --provider llama-cpp (the model runs in-process)"]);
  }

  const flagModel = nonBlank(flags.model);
  const envModel = nonBlank(env.CODECITE_MODEL);
  const localModel = nonBlank(env.CODECITE_LOCAL_MODEL);
  const model = flagModel ?? envModel ?? (provider === "llama-cpp" ? localModel : undefined);
  if (provider === "llama-cpp" && model === undefined) {
    throw new ConfigError(
      "CODECITE_LOCAL_MODEL",
      env.CODECITE_LOCAL_MODEL ?? "",
      ["the path of a .gguf model file"],
      "required with --provider llama-cpp (or pass --model <file.gguf>)",
    );
  }

  const config: Config = {
    provider,
    ollamaHost,
    openai: {},
    toolshim,
    interpreter: {
      backend,
      ollamaModel: nonBlank(env.CODECITE_TOOLSHIM_OLLAMA_MODEL) ?? DEFAULT_INTERPRETER_OLLAMA_MODEL,
    },
    sources: {
      provider: providerSetting?.source ?? "default",
      model: flagModel !== undefined ? "flag" : envModel !== undefined || model !== undefined ? "env" : "default",
      ollamaHost: hostSetting?.source ?? "default",
      openaiBaseURL: baseSetting?.source ?? "default",
      toolshim: toolshimSetting?.source ?? "default",
      interpreterBackend: env.CODECITE_TOOLSHIM_BACKEND !== undefined ? "env" : "default",
      contextTokens: contextSetting?.source ?? "default",
    },
  };
  if (contextSetting !== undefined) config.contextTokens = contextSetting.value;
  if (model !== undefined) config.model = model;
  if (baseURL !== undefined) config.openai.baseURL = baseURL;
  const apiKey = nonBlank(env.OPENAI_API_KEY);
  if (apiKey !== undefined) config.openai.apiKey = apiKey;
  if (localModel !== undefined) config.localModel = localModel;
  const interpreterLocal = nonBlank(env.CODECITE_TOOLSHIM_MODEL) ?? localModel;
  if (interpreterLocal !== undefined) config.interpreter.localModel = interpreterLocal;
  return config;
}
