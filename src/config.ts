/**
 * Configuration: command-line flags and environment variables resolved into one validated
 * `Config` (DESIGN.md "Configuration"). Flags beat variables beat defaults; every value is
 * checked once, here, and a bad one throws a `ConfigError` that names the variable (or flag),
 * the value and the accepted values. The CLI turns a `ConfigError` into exit code 2.
 *
 * This module imports nothing: it is the one place that knows the variable names, and the
 * one `OLLAMA_HOST` normaliser that serves the chat provider and the tool-shim interpreter.
 */

/** Chat providers (`--provider`, `CODECITE_PROVIDER`). */
export type ProviderName = "ollama" | "openai" | "llama-cpp";

/** Tool-shim modes (`--toolshim`, `CODECITE_TOOLSHIM`). */
export type ToolshimMode = "auto" | "on" | "off";

/** Interpreter backends (`CODECITE_TOOLSHIM_BACKEND`): Ollama, or an embedded GGUF model. */
export type InterpreterBackend = "ollama" | "local";

/** Where a resolved value came from (shown by `codecite doctor`). */
export type ValueSource = "flag" | "env" | "default";

/** Default Ollama address (Ollama's own default, `127.0.0.1:11434`). */
export const DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434";
/** Ollama's default port, added to an `OLLAMA_HOST` that names none. */
export const OLLAMA_DEFAULT_PORT = 11434;
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
  interpreter: {
    backend: InterpreterBackend;
    /** Interpreter model on Ollama (`CODECITE_TOOLSHIM_OLLAMA_MODEL`). */
    ollamaModel: string;
    /** GGUF file for the local backend: `CODECITE_TOOLSHIM_MODEL`, then `CODECITE_LOCAL_MODEL`. */
    localModel?: string;
  };
  /** Where each top-level setting came from. */
  sources: Record<"provider" | "model" | "ollamaHost" | "openaiBaseURL" | "toolshim" | "interpreterBackend", ValueSource>;
}

/** Command-line flags that override variables (`ask`, `doctor`, `toolshim`). Absent = not given. */
export interface ConfigFlags {
  provider?: string;
  model?: string;
  /** Server address of the chosen provider: Ollama host, or the OpenAI-compatible base URL. */
  host?: string;
  toolshim?: string;
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

const HOST_FORM = "host, host:port, [IPv6]:port or http(s)://host[:port][/path]";

/**
 * Normalises an Ollama address (the `OLLAMA_HOST` rules of DESIGN.md) into a base URL
 * without a trailing `/`:
 * - the scheme is optional (`http://` is added) and read in any case (`HTTP://h` → `http://h…`);
 *   only `http` and `https` are accepted;
 * - port 11434 is added when none is given, except for `https://` URLs, which keep 443
 *   (an https address points at a TLS proxy, never at a bare Ollama, which speaks plain http);
 * - `0.0.0.0` (and `::`), the "listen on all interfaces" forms of Ollama's own server setting,
 *   mean this machine: `127.0.0.1` (and `[::1]`); `:PORT` alone means `127.0.0.1:PORT`;
 * - a bare IPv6 address (`::1`, `fe80::1`) is bracketed; bracketed ones are kept;
 * - a path prefix (`http://h:11434/ollama`) is kept; trailing `/` are dropped.
 * Empty or blank input gives `DEFAULT_OLLAMA_HOST`.
 * @throws ConfigError (variable `OLLAMA_HOST`, or `variable`) when the value is not an address.
 */
export function normalizeOllamaHost(raw: string, variable = "OLLAMA_HOST"): string {
  const text = raw.trim();
  if (text === "") return DEFAULT_OLLAMA_HOST;
  const bad = (detail: string): ConfigError => new ConfigError(variable, raw, [HOST_FORM], detail);

  let scheme = "http";
  let rest = text;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = text.slice(m[0].length);
    if (scheme !== "http" && scheme !== "https") throw bad(`unsupported scheme ${m[1]}`);
  }
  const slash = rest.indexOf("/");
  let authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? "" : rest.slice(slash);
  if (/[?#\s]/.test(authority)) throw bad("not a host");

  let userinfo = "";
  const at = authority.lastIndexOf("@");
  if (at !== -1) {
    userinfo = authority.slice(0, at + 1);
    authority = authority.slice(at + 1);
  }

  let host: string;
  let port: string | undefined;
  if (authority.startsWith("[")) {
    const close = authority.indexOf("]");
    if (close === -1) throw bad("unclosed [");
    host = authority.slice(0, close + 1);
    const after = authority.slice(close + 1);
    if (after !== "") {
      if (!after.startsWith(":")) throw bad("unexpected text after ]");
      port = after.slice(1);
    }
  } else if ((authority.match(/:/g) ?? []).length >= 2) {
    host = `[${authority}]`; // bare IPv6: every colon belongs to the address
  } else {
    const colon = authority.indexOf(":");
    host = colon === -1 ? authority : authority.slice(0, colon);
    port = colon === -1 ? undefined : authority.slice(colon + 1);
  }
  if (host === "" && port === undefined) throw bad("no host");
  if (host === "") host = "127.0.0.1"; // `:11434`, as Ollama's own OLLAMA_HOST accepts
  if (host === "0.0.0.0") host = "127.0.0.1";
  if (host === "[::]" || host === "[0:0:0:0:0:0:0:0]") host = "[::1]";
  if (port === "") port = undefined;
  if (port !== undefined && !/^\d{1,5}$/.test(port)) throw bad(`bad port ${port}`);
  if (port !== undefined && Number(port) > 65535) throw bad(`port ${port} out of range`);
  if (port === undefined && scheme === "http") port = String(OLLAMA_DEFAULT_PORT);

  let url: URL;
  try {
    url = new URL(`${scheme}://${userinfo}${host}${port !== undefined ? `:${port}` : ""}${path}`);
  } catch {
    throw bad("not a valid address");
  }
  if (url.hostname === "") throw bad("no host");
  const auth = url.username ? `${url.username}${url.password ? `:${url.password}` : ""}@` : "";
  // URL drops a port equal to the scheme default (`http://h:80`); put it back explicitly.
  const portPart = port !== undefined ? `:${Number(port)}` : "";
  const pathname = url.pathname.replace(/\/+$/, "");
  return `${url.protocol}//${auth}${url.hostname}${portPart}${pathname}`;
}

/** Trimmed value, or undefined when absent or blank. */
function nonBlank(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  return t === "" ? undefined : t;
}

/**
 * Validates an OpenAI-compatible base URL (`http(s)://…`; `http://` added when no scheme is
 * given), dropping trailing `/`. The provider adds `/v1` to a URL without a path.
 */
function parseBaseURL(raw: string, variable: string): string {
  let text = raw.trim();
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(variable, raw, ["an http(s) URL such as http://127.0.0.1:8080/v1"]);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(variable, raw, ["an http(s) URL such as http://127.0.0.1:8080/v1"]);
  }
  return url.href.replace(/\/+$/, "");
}

/**
 * Resolves flags and environment into a validated `Config`. Flags beat variables beat defaults.
 * Variables (DESIGN.md table): `OLLAMA_HOST`, `CODECITE_MODEL`, `CODECITE_PROVIDER`,
 * `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `CODECITE_TOOLSHIM`, `CODECITE_TOOLSHIM_BACKEND`,
 * `CODECITE_TOOLSHIM_OLLAMA_MODEL`, `CODECITE_TOOLSHIM_MODEL`, `CODECITE_LOCAL_MODEL`.
 * Blank variables count as unset (except `CODECITE_TOOLSHIM_BACKEND`, where empty means `ollama`).
 * `--host` sets the Ollama host for `ollama` and the base URL for `openai`.
 * A missing interpreter model for the `local` backend is not an error here (it disables only
 * the interpreter, never the deterministic shim stages; the CLI says so).
 * @throws ConfigError for the first bad value, naming the variable or flag.
 */
export function resolveConfig(flags: ConfigFlags = {}, env: Env = {}): Config {
  const provider =
    flags.provider !== undefined
      ? parseProvider(flags.provider, "--provider")
      : nonBlank(env.CODECITE_PROVIDER) !== undefined
        ? parseProvider(env.CODECITE_PROVIDER!, "CODECITE_PROVIDER")
        : "ollama";

  const toolshim =
    flags.toolshim !== undefined
      ? parseToolshimMode(flags.toolshim, "--toolshim")
      : nonBlank(env.CODECITE_TOOLSHIM) !== undefined
        ? parseToolshimMode(env.CODECITE_TOOLSHIM!, "CODECITE_TOOLSHIM")
        : "auto";

  const backend =
    env.CODECITE_TOOLSHIM_BACKEND !== undefined
      ? parseInterpreterBackend(env.CODECITE_TOOLSHIM_BACKEND, "CODECITE_TOOLSHIM_BACKEND")
      : "ollama";

  const hostFlagForOllama = provider === "ollama" ? nonBlank(flags.host) : undefined;
  const envHost = nonBlank(env.OLLAMA_HOST);
  const ollamaHost =
    hostFlagForOllama !== undefined
      ? normalizeOllamaHost(hostFlagForOllama, "--host")
      : envHost !== undefined
        ? normalizeOllamaHost(envHost, "OLLAMA_HOST")
        : DEFAULT_OLLAMA_HOST;

  const hostFlagForOpenAI = provider === "openai" ? nonBlank(flags.host) : undefined;
  const envBase = nonBlank(env.OPENAI_BASE_URL);
  const baseURL =
    hostFlagForOpenAI !== undefined
      ? parseBaseURL(hostFlagForOpenAI, "--host")
      : envBase !== undefined
        ? parseBaseURL(envBase, "OPENAI_BASE_URL")
        : undefined;
  if (provider === "openai" && baseURL === undefined) {
    throw new ConfigError(
      "OPENAI_BASE_URL",
      env.OPENAI_BASE_URL ?? "",
      ["an http(s) URL such as http://127.0.0.1:8080/v1"],
      "required with --provider openai (or set --host)",
    );
  }
  if (provider === "llama-cpp" && nonBlank(flags.host) !== undefined) {
    throw new ConfigError("--host", flags.host!, ["no --host with --provider llama-cpp (the model runs in-process)"]);
  }

  const flagModel = nonBlank(flags.model);
  const envModel = nonBlank(env.CODECITE_MODEL);
  const localModel = nonBlank(env.CODECITE_LOCAL_MODEL);
  const model = flagModel ?? envModel ?? (provider === "llama-cpp" ? localModel : undefined);

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
      provider: flags.provider !== undefined ? "flag" : nonBlank(env.CODECITE_PROVIDER) ? "env" : "default",
      model: flagModel !== undefined ? "flag" : envModel !== undefined || model !== undefined ? "env" : "default",
      ollamaHost: hostFlagForOllama !== undefined ? "flag" : envHost !== undefined ? "env" : "default",
      openaiBaseURL: hostFlagForOpenAI !== undefined ? "flag" : envBase !== undefined ? "env" : "default",
      toolshim: flags.toolshim !== undefined ? "flag" : nonBlank(env.CODECITE_TOOLSHIM) ? "env" : "default",
      interpreterBackend: env.CODECITE_TOOLSHIM_BACKEND !== undefined ? "env" : "default",
    },
  };
  if (model !== undefined) config.model = model;
  if (baseURL !== undefined) config.openai.baseURL = baseURL;
  const apiKey = nonBlank(env.OPENAI_API_KEY);
  if (apiKey !== undefined) config.openai.apiKey = apiKey;
  if (localModel !== undefined) config.localModel = localModel;
  const interpreterLocal = nonBlank(env.CODECITE_TOOLSHIM_MODEL) ?? localModel;
  if (interpreterLocal !== undefined) config.interpreter.localModel = interpreterLocal;
  return config;
}
