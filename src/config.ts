/**
 * Configuration: command-line flags, environment variables and configuration files
 * (`config-file.ts`) resolved into one validated `Config` (README "Configuration").
 * Flags beat variables beat the repository file beat the user file beat defaults; every value is
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
  normalizeHttpBaseURL,
  normalizeOllamaHost as normalizeHost,
  redactCredentials,
} from "./llm/server-address.js";
import { ConfigFileError, type ConfigFileProblem, type ConfigFiles, type FileSetting } from "./config-file.js";
import type { ToolshimMode } from "./toolshim/types.js";
import { DEFAULT_CONTEXT_TOKENS, DEFAULT_MAX_STEPS } from "./agent/defaults.js";
import { availableParallelism } from "node:os";

export { DEFAULT_OLLAMA_HOST };

/** Chat providers (`--provider`, `CODECITE_PROVIDER`). */
export type ProviderName = "ollama" | "openai" | "llama-cpp";

export type { ToolshimMode } from "./toolshim/types.js";

/** Interpreter backends (`CODECITE_TOOLSHIM_BACKEND`): Ollama, or an embedded GGUF model. */
export type InterpreterBackend = "ollama" | "local";

/**
 * Where a resolved value came from (shown by `codecite doctor` and `codecite config`):
 * `repo_file` is the repository's `.codecite.yml`, `user_file` the user's `config.yml`.
 */
export type ValueSource = "flag" | "env" | "repo_file" | "user_file" | "default";

/** Largest `--max-steps` (a guard against runaway sessions). */
const MAX_STEPS_LIMIT = 100;

/** Largest `--max-calls-per-turn` (`CODECITE_MAX_CALLS_PER_TURN`, `max_calls_per_turn`). */
const MAX_CALLS_PER_TURN_LIMIT = 1000;
/** Largest `--timeout` in seconds (`CODECITE_TIMEOUT`, `timeout`): one day. */
const MAX_TIMEOUT_SECONDS = 86_400;

/** Smallest accepted context size in tokens (`--num-ctx`, `CODECITE_NUM_CTX`). */
const MIN_CONTEXT_TOKENS = 2048;
/** Largest accepted context size in tokens (1 Mi tokens, the longest contexts models offer). */
const MAX_CONTEXT_TOKENS = 1_048_576;

/** Default interpreter model on Ollama (the same default as goose's tool shim). */
const DEFAULT_INTERPRETER_OLLAMA_MODEL = "mistral-nemo";

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
  /** Tool steps of an `ask` session before it must answer (`--max-steps`, `max_steps`; 1–100); undefined = the agent's default (8). */
  maxSteps?: number;
  /** Gather evidence before the first model turn (`--no-prefetch` turns it off; `prefetch` in a file). */
  prefetch: boolean;
  /**
   * Most tool calls run from one model turn (`--max-calls-per-turn`, `CODECITE_MAX_CALLS_PER_TURN`,
   * the user file's `max_calls_per_turn`; 1–1000); undefined = the agent's default (16).
   */
  maxCallsPerTurn?: number;
  /**
   * Deadline of a session in seconds (`--timeout`, `CODECITE_TIMEOUT`, the user file's `timeout`;
   * 1–86400); undefined = the agent's default (600).
   */
  timeoutSeconds?: number;
  /** Where each top-level setting came from. */
  sources: Record<
    | "provider"
    | "model"
    | "ollamaHost"
    | "openaiBaseURL"
    | "toolshim"
    | "interpreterBackend"
    | "contextTokens"
    | "maxSteps"
    | "prefetch"
    | "maxCallsPerTurn"
    | "timeoutSeconds",
    ValueSource
  >;
  /** The file and line of each setting that came from a configuration file. */
  origins: Partial<Record<keyof Config["sources"], { file: string; line: number }>>;
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
  /** Step limit, as typed or parsed (`--max-steps`). */
  maxSteps?: string | number;
  /** `false` for `--no-prefetch`; absent when not given. */
  prefetch?: boolean;
  /** Tool calls per model turn, as typed (`--max-calls-per-turn`). */
  maxCallsPerTurn?: string;
  /** Session deadline in seconds, as typed (`--timeout`). */
  timeout?: string;
}

/** The environment as `process.env` gives it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** ` (detail); accepted: a, b` — the end of a bad value's message. */
function reasons(accepted: readonly string[], detail: string | undefined): string {
  return `${detail ? ` (${detail})` : ""}; accepted: ${accepted.join(", ")}`;
}

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
    /** Why the value is refused, when the accepted values do not say it (`below 2048`). */
    readonly detail?: string,
  ) {
    super(`invalid ${variable}=${JSON.stringify(redactCredentials(value))}${reasons(accepted, detail)}`);
  }

  /** What to do: `Set the X environment variable.` for a missing value, else `Fix or remove …`. */
  get hint(): string {
    const what = this.variable.startsWith("-") ? `the ${this.variable} flag` : `the ${this.variable} environment variable`;
    return this.value.trim() === "" ? `Set ${what}.` : `Fix or remove ${what}.`;
  }
}

/**
 * A setting the chosen provider needs that is not set: `OPENAI_BASE_URL is not set (required
 * when the provider is openai); accepted: …`. `alternative` is the flag that sets it too
 * (`--host`, serve's `--upstream`, `--model <file.gguf>`), which the hint names beside the variable.
 */
class MissingSettingError extends ConfigError {
  constructor(
    variable: string,
    accepted: readonly string[],
    /** When it is required, e.g. `required when the provider is openai`. */
    required: string,
    readonly alternative: string,
  ) {
    super(variable, "", accepted, required);
    this.message = `${variable} is not set${reasons(accepted, required)}`;
  }

  /** `Set the OPENAI_BASE_URL environment variable, or pass --host.` */
  override get hint(): string {
    return `Set the ${this.variable} environment variable, or pass ${this.alternative}.`;
  }
}

/**
 * `llama-cpp` as serve's upstream: serve forwards to a server. The hint names serve's own
 * settings, not the general one (`CODECITE_PROVIDER=llama-cpp` is right for `ask`).
 */
class ServeProviderError extends ConfigError {
  constructor(variable: string, value: string) {
    super(variable, value, ["ollama", "openai"], "serve forwards to a server");
  }

  override get hint(): string {
    return "Pass --provider ollama or --provider openai (with --upstream) to codecite serve, or set serve.provider in the user file.";
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
function parseProvider(raw: string, variable = "CODECITE_PROVIDER"): ProviderName {
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
 * Parses a step limit: a whole number from 1 to {@link MAX_STEPS_LIMIT}.
 * @throws ConfigError naming `variable` for anything else.
 */
function parseMaxSteps(raw: string, variable = "--max-steps"): number {
  const v = raw.trim();
  const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_STEPS_LIMIT) throw new ConfigError(variable, raw, [`an integer from 1 to ${MAX_STEPS_LIMIT}`]);
  return n;
}

/**
 * Parses a bound of a session: a whole number from 1 to `max` (`unit` names what it counts).
 * @throws ConfigError naming `variable` for anything else (a unit such as `10m` is not accepted).
 */
function parseSessionBound(raw: string, variable: string, max: number, unit: string): number {
  const v = raw.trim();
  const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new ConfigError(variable, raw, [`an integer from 1 to ${max} (${unit})`]);
  return n;
}

/**
 * Parses a yes/no setting: `1/true/yes/on` and `0/false/no/off`, any case.
 * @throws ConfigError naming `variable` for anything else.
 */
function parseBoolean(raw: string, variable: string): boolean {
  const v = raw.trim().toLowerCase();
  if ((TRUE_WORDS as readonly string[]).includes(v)) return true;
  if ((FALSE_WORDS as readonly string[]).includes(v)) return false;
  throw new ConfigError(variable, raw, [...TRUE_WORDS, ...FALSE_WORDS]);
}

/**
 * A setting refused while resolving leniently (`codecite config`, which prints every setting and
 * flags the refused ones instead of stopping at the first): the setting by its file key
 * (`provider`, `num_ctx`, `serve.provider`), the value as given (credentials redacted; absent for
 * a missing setting), where it came from, and the message and hint the strict resolver throws.
 */
export interface SettingProblem {
  setting: string;
  value?: string;
  source: ValueSource;
  file?: string;
  line?: number;
  message: string;
  hint: string;
}

/** Where a lenient resolve collects refused settings; `serve` marks those only `codecite serve` refuses. */
export interface SettingProblems {
  add(problem: SettingProblem & { serveOnly?: boolean }): void;
}

/** The file key (`codecite config`'s row) of each setting of {@link Config}. */
const SETTING_KEYS: Record<keyof Config["sources"], string> = {
  provider: "provider",
  model: "model",
  ollamaHost: "host",
  openaiBaseURL: "host",
  toolshim: "toolshim",
  interpreterBackend: "toolshim_backend",
  contextTokens: "num_ctx",
  maxSteps: "max_steps",
  prefetch: "prefetch",
  maxCallsPerTurn: "max_calls_per_turn",
  timeoutSeconds: "timeout",
};

/** One layer's candidate for a setting: the flag, the variable, or a file key. */
interface Candidate {
  /** Flag, variable or file key, as messages name it. */
  name: string;
  raw: string | undefined;
  source: ValueSource;
  /** Set for a file setting. */
  at?: FileSetting;
  /** Highest value this candidate may give (a repository file's session setting: `repoBounded`). */
  ceiling?: { value: number; of: string };
}

/** A value chosen by precedence, and where it came from. */
interface Chosen<T> {
  value: T;
  source: ValueSource;
  at?: FileSetting;
}

/**
 * One setting by precedence: the first candidate with a value wins (flags as given; variables
 * when set and not blank; file values as written). `parse` validates the raw text, naming the
 * flag or variable in its `ConfigError`, which is thrown at once. When a file value wins, every
 * file value is validated, the chosen one and those it shadows alike (a bad `num_ctx` in the
 * user file is reported while the repository file's `num_ctx` wins), so that one run reports
 * every bad value of both files: each becomes a problem in `fileProblems`, naming the file, the
 * line and the key. Below a flag or variable no file value is read: a flag overrides a file the
 * user cannot edit (another's repository) without an error from it.
 * With `onRefused` (resolving leniently, {@link SettingProblems}), a bad flag or variable is
 * passed to it instead of thrown.
 * @returns the chosen value; `undefined` when no candidate has one; `null` when the chosen
 *   candidate is a bad value (the setting is unknown: checks that depend on it are skipped).
 */
function layered<T>(
  candidates: readonly Candidate[],
  parse: (raw: string, name: string) => T,
  fileProblems: ConfigFileProblem[],
  onRefused?: (err: ConfigError, c: Candidate) => void,
): Chosen<T> | null | undefined {
  let chosen: Chosen<T> | null | undefined;
  for (const c of candidates) {
    if (c.raw === undefined) continue;
    if (c.source === "env" && nonBlank(c.raw) === undefined) continue;
    if (c.at === undefined) {
      // A variable below a file value (serve's own file settings beat the general variables) is not read.
      if (chosen !== undefined) continue;
      try {
        return { value: parse(c.raw, c.name), source: c.source };
      } catch (err) {
        if (onRefused === undefined || !(err instanceof ConfigError)) throw err;
        onRefused(err, c);
        return null;
      }
    }
    try {
      const value = parse(c.raw, c.name);
      if (c.ceiling !== undefined && typeof value === "number" && value > c.ceiling.value) {
        fileProblems.push({
          file: c.at.file,
          line: c.at.line,
          message: `${c.name}: ${c.raw} is above what a repository file may set (${c.ceiling.value}, ${c.ceiling.of})`,
          hint: `A repository may lower ${c.name}, not raise it: remove it from ${c.at.file}, or set it in your user file or with a flag.`,
          fix: { verb: "remove", subject: c.name },
        });
        if (chosen === undefined) chosen = null;
        continue;
      }
      if (chosen === undefined) chosen = { value, source: c.source, at: c.at };
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      // The value as the file reads (`num_ctx: 100`; text in quotes, escaped).
      const shown = c.at.typed ? c.raw : JSON.stringify(redactCredentials(c.raw));
      fileProblems.push({
        file: c.at.file,
        line: c.at.line,
        message: `invalid ${c.name}: ${shown}${reasons(err.accepted, err.detail)}`,
        hint: `Fix or remove ${c.name} in ${c.at.file}.`,
        fix: { verb: "fix or remove", subject: c.name },
      });
      if (chosen === undefined) chosen = null;
    }
  }
  return chosen;
}

/**
 * Throws the bad file values collected by {@link layered} as one `ConfigFileError` listing each
 * (the user file's, then the repository file's, as `loadConfigFiles` lists bad keys; in line
 * order), so that a user fixing a file sees them all at once.
 */
function throwFileProblems(fileProblems: ConfigFileProblem[], files: ConfigFiles | undefined, problems?: SettingProblems): void {
  if (fileProblems.length === 0) return;
  if (problems !== undefined) {
    // Leniently: each bad file value is its setting's problem (the key is the fix's subject), once.
    for (const p of fileProblems.splice(0)) {
      const setting = p.fix?.subject ?? "";
      const user = p.file === files?.paths.user;
      const raw = (user ? files?.user : files?.repo)?.settings.get(setting)?.raw;
      problems.add({ setting, ...(raw === undefined ? {} : { value: redactCredentials(raw) }), source: user ? "user_file" : "repo_file", file: p.file, line: p.line, message: p.message, hint: p.hint });
    }
    return;
  }
  const rank = (file: string): number => (file === files?.paths.user ? 0 : 1);
  throw ConfigFileError.of([...fileProblems].sort((a, b) => rank(a.file) - rank(b.file) || a.line - b.line));
}

/** The user file's candidate of `key` (for settings a repository file may not make). */
function userFileLayer(files: ConfigFiles | undefined, key: string): Candidate[] {
  const user = files?.user?.settings.get(key);
  return user ? [{ name: key, raw: user.raw, source: "user_file", at: user }] : [];
}

/** The file candidates of `key`: the repository file, then the user file. */
function fileLayers(files: ConfigFiles | undefined, key: string): Candidate[] {
  const out: Candidate[] = [];
  const repo = files?.repo?.settings.get(key);
  if (repo) out.push({ name: key, raw: repo.raw, source: "repo_file", at: repo });
  const user = files?.user?.settings.get(key);
  if (user) out.push({ name: key, raw: user.raw, source: "user_file", at: user });
  return out;
}

/**
 * {@link fileLayers} for a setting that bounds how hard a question runs on the user's machine
 * (`num_ctx`: the model server's memory; `max_steps`: model calls): the repository file may lower
 * it, never raise it above the user file's valid value, else `fallback` (the agent's default,
 * `agent/defaults.ts`). A repository file is untrusted input (`config-file.ts`); a raise is a file
 * problem naming its line, as an invalid value is.
 */
function repoBounded(files: ConfigFiles | undefined, key: string, parse: (raw: string, name: string) => number, fallback: number): Candidate[] {
  const layers = fileLayers(files, key);
  const repo = layers.find((c) => c.source === "repo_file");
  if (repo === undefined) return layers;
  const user = layers.find((c) => c.source === "user_file");
  let ceiling = { value: fallback, of: "the default" };
  if (user?.raw !== undefined) {
    try {
      ceiling = { value: parse(user.raw, key), of: "your user file's value" };
    } catch {
      // An invalid user value is reported on its own; the default bounds the repository file.
    }
  }
  repo.ceiling = ceiling;
  return layers;
}

/**
 * Resolves flags, environment and configuration files into a validated `Config`.
 * Precedence: flags > environment > repository file > user file > defaults.
 * Variables (README "Configuration"): `OLLAMA_HOST`, `CODECITE_MODEL`, `CODECITE_PROVIDER`,
 * `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `CODECITE_TOOLSHIM`, `CODECITE_TOOLSHIM_BACKEND`,
 * `CODECITE_TOOLSHIM_OLLAMA_MODEL`, `CODECITE_TOOLSHIM_MODEL`, `CODECITE_LOCAL_MODEL`,
 * `CODECITE_NUM_CTX` (and the flag `--num-ctx`; see `parseContextTokens`),
 * `CODECITE_MAX_CALLS_PER_TURN` and `CODECITE_TIMEOUT` (with `--max-calls-per-turn`, `--timeout`
 * and the user file's `max_calls_per_turn`, `timeout`: layers flag, environment, user file). File
 * keys: see `config-file.ts` `FILE_KEYS` (a repository file sets none of the server or file
 * settings, nor the session bounds).
 * Blank variables count as unset (except `CODECITE_TOOLSHIM_BACKEND`, where empty means `ollama`).
 * `--host` (and the file key `host`) sets the Ollama host for `ollama` and the base URL for
 * `openai`. The chosen provider's server or model must be known: `OPENAI_BASE_URL` (or `--host`)
 * for `openai`, a GGUF file (`--model`, `CODECITE_MODEL` or `CODECITE_LOCAL_MODEL`) for
 * `llama-cpp` — never a model path from a repository file.
 * A missing interpreter model for the `local` backend is not an error here (it disables only
 * the interpreter, never the deterministic shim stages; the CLI says so).
 * @param problems - resolve leniently: a refused setting is added here (and takes its default)
 *   instead of thrown, so that every setting can be shown (`codecite config`).
 * @throws ConfigError for the first bad or missing value, naming the variable or flag;
 *   ConfigFileError for a bad file value, naming the file, line and key (never with `problems`).
 */
export function resolveConfig(flags: ConfigFlags = {}, env: Env = {}, files?: ConfigFiles, problems?: SettingProblems): Config {
  const hostFlag = nonBlank(flags.host);
  return resolveLayers(flags, env, files, [], {
    provider: [{ name: "--provider", raw: flags.provider, source: "flag" }],
    host: [{ name: "--host", raw: hostFlag, source: "flag" }],
    ...(problems ? { problems } : {}),
  });
}

/**
 * The candidates that come before the general ones (`CODECITE_PROVIDER`, `OLLAMA_HOST` or
 * `OPENAI_BASE_URL`, the files' `provider` and `host`): `ask`'s `--provider` and `--host`, or
 * serve's `--provider`/`--upstream` and the user file's `serve.provider`/`serve.upstream`.
 */
interface LeadCandidates {
  provider: Candidate[];
  host: Candidate[];
  /** How a provider name is read (serve refuses `llama-cpp`); default {@link parseProvider}. */
  parseProvider?: (raw: string, name: string) => ProviderName;
  /** Resolve leniently into these (see {@link resolveConfig}). */
  problems?: SettingProblems;
  /** The row of a setting for `problems` (serve's provider and host are `serve.provider`, `serve.upstream`); default {@link SETTING_KEYS}. */
  settingOf?: (key: keyof Config["sources"]) => string;
}

/**
 * {@link resolveConfig} with the lead candidates of provider and host, adding bad file values to
 * `fileProblems` (which may already hold serve's) and throwing them all together before the first
 * check that depends on them; a flag or variable that is bad still stops at once.
 */
function resolveLayers(flags: ConfigFlags, env: Env, files: ConfigFiles | undefined, fileProblems: ConfigFileProblem[], lead: LeadCandidates): Config {
  const problems = lead.problems;
  const settingOf = lead.settingOf ?? ((key: keyof Config["sources"]) => SETTING_KEYS[key]);
  /** A refused setting: thrown, or (leniently) added to `problems`. */
  const refuse = (key: keyof Config["sources"], err: ConfigError, c?: Candidate): void => {
    if (problems === undefined) throw err;
    const value = err instanceof MissingSettingError ? undefined : redactCredentials(err.value);
    problems.add({ setting: settingOf(key), ...(value === undefined ? {} : { value }), source: c?.source ?? "default", message: err.message, hint: err.hint });
  };
  function envBackend(raw: string): Chosen<InterpreterBackend> | null {
    try {
      return { value: parseInterpreterBackend(raw, "CODECITE_TOOLSHIM_BACKEND"), source: "env" };
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      refuse("interpreterBackend", err, { name: "CODECITE_TOOLSHIM_BACKEND", raw, source: "env" });
      return null;
    }
  }
  const pick = <T>(key: keyof Config["sources"], candidates: readonly Candidate[], parse: (raw: string, name: string) => T): Chosen<T> | null | undefined =>
    layered(candidates, parse, fileProblems, problems === undefined ? undefined : (err, c) => refuse(key, err, c));
  const providerSetting = pick(
    "provider",
    [...lead.provider, { name: "CODECITE_PROVIDER", raw: env.CODECITE_PROVIDER, source: "env" }, ...fileLayers(files, "provider")],
    lead.parseProvider ?? parseProvider,
  );
  const provider = providerSetting?.value ?? "ollama";
  // An address is read as the provider says (an Ollama host or an OpenAI base URL): with the
  // chosen provider a bad file value, no address is judged (the error lists the provider).
  const providerKnown = providerSetting !== null;
  const toolshimSetting = pick(
    "toolshim",
    [{ name: "--toolshim", raw: flags.toolshim, source: "flag" }, { name: "CODECITE_TOOLSHIM", raw: env.CODECITE_TOOLSHIM, source: "env" }, ...fileLayers(files, "toolshim")],
    parseToolshimMode,
  );
  const toolshim = toolshimSetting?.value ?? "auto";
  const contextSetting = pick(
    "contextTokens",
    [{ name: "--num-ctx", raw: flags.numCtx, source: "flag" }, { name: "CODECITE_NUM_CTX", raw: env.CODECITE_NUM_CTX, source: "env" }, ...repoBounded(files, "num_ctx", parseContextTokens, DEFAULT_CONTEXT_TOKENS)],
    parseContextTokens,
  );
  const stepsSetting = pick(
    "maxSteps",
    [{ name: "--max-steps", raw: flags.maxSteps === undefined ? undefined : String(flags.maxSteps), source: "flag" }, ...repoBounded(files, "max_steps", parseMaxSteps, DEFAULT_MAX_STEPS)],
    parseMaxSteps,
  );
  const prefetchSetting = pick(
    "prefetch",
    [{ name: "--no-prefetch", raw: flags.prefetch === undefined ? undefined : String(flags.prefetch), source: "flag" }, ...fileLayers(files, "prefetch")],
    parseBoolean,
  );
  const callsSetting = pick(
    "maxCallsPerTurn",
    [
      { name: "--max-calls-per-turn", raw: flags.maxCallsPerTurn, source: "flag" },
      { name: "CODECITE_MAX_CALLS_PER_TURN", raw: env.CODECITE_MAX_CALLS_PER_TURN, source: "env" },
      ...userFileLayer(files, "max_calls_per_turn"),
    ],
    (raw, name) => parseSessionBound(raw, name, MAX_CALLS_PER_TURN_LIMIT, "tool calls"),
  );
  const timeoutSetting = pick(
    "timeoutSeconds",
    [
      { name: "--timeout", raw: flags.timeout, source: "flag" },
      { name: "CODECITE_TIMEOUT", raw: env.CODECITE_TIMEOUT, source: "env" },
      ...userFileLayer(files, "timeout"),
    ],
    (raw, name) => parseSessionBound(raw, name, MAX_TIMEOUT_SECONDS, "seconds"),
  );

  // Empty CODECITE_TOOLSHIM_BACKEND means `ollama` (not "unset"), so it is a layer of its own.
  const fileBackend = pick("interpreterBackend", fileLayers(files, "toolshim_backend"), parseInterpreterBackend);
  const backendSetting =
    env.CODECITE_TOOLSHIM_BACKEND !== undefined
      ? envBackend(env.CODECITE_TOOLSHIM_BACKEND)
      : fileBackend;
  const backend = backendSetting?.value ?? "ollama";

  const hostFlag = lead.host.find((c) => c.at === undefined && c.raw !== undefined);
  // The variable is always read; the lead and the files' `host` only for the provider they address.
  const addresses = (of: ProviderName, variable: "OLLAMA_HOST" | "OPENAI_BASE_URL"): Candidate[] => {
    const own = provider === of && providerKnown;
    return [...(own ? lead.host : []), { name: variable, raw: env[variable], source: "env" }, ...(own ? fileLayers(files, "host") : [])];
  };
  const hostSetting = pick("ollamaHost", addresses("ollama", "OLLAMA_HOST"), normalizeOllamaHost);
  const ollamaHost = hostSetting?.value ?? DEFAULT_OLLAMA_HOST;
  const baseSetting = pick("openaiBaseURL", addresses("openai", "OPENAI_BASE_URL"), (raw, name) => checkedAddress(raw, name, normalizeHttpBaseURL));
  const baseURL = baseSetting?.value;
  throwFileProblems(fileProblems, files, problems);
  if (provider === "openai" && baseURL === undefined) {
    refuse("openaiBaseURL", new MissingSettingError("OPENAI_BASE_URL", [BASE_URL_FORM], "required when the provider is openai", lead.host[0]?.name ?? "--host"));
  }
  if (provider === "llama-cpp" && hostFlag !== undefined) {
    refuse("ollamaHost", new ConfigError(hostFlag.name, hostFlag.raw!, [`no ${hostFlag.name} with --provider llama-cpp (the model runs in-process)`]), hostFlag);
  }

  const modelLayers = fileLayers(files, "model").filter((c) => provider !== "llama-cpp" || c.source !== "repo_file");
  const modelSetting = pick(
    "model",
    [
      { name: "--model", raw: nonBlank(flags.model), source: "flag" },
      { name: "CODECITE_MODEL", raw: env.CODECITE_MODEL, source: "env" },
      ...modelLayers,
      ...(provider === "llama-cpp" ? [{ name: "CODECITE_LOCAL_MODEL", raw: env.CODECITE_LOCAL_MODEL, source: "env" as const }] : []),
      ...(provider === "llama-cpp" ? fileLayers(files, "local_model") : []),
    ],
    (raw) => raw.trim(),
  );
  const model = modelSetting?.value;
  if (provider === "llama-cpp" && model === undefined) {
    refuse("model", new MissingSettingError("CODECITE_LOCAL_MODEL", ["the path of a .gguf model file"], "required when the provider is llama-cpp", "--model <file.gguf>"));
  }
  // Free text (trimmed): never refused.
  const text = (key: string, variable: string): Chosen<string> | null | undefined =>
    layered([{ name: variable, raw: env[variable], source: "env" }, ...fileLayers(files, key)], (raw) => raw.trim(), fileProblems);
  const localModel = text("local_model", "CODECITE_LOCAL_MODEL")?.value;

  throwFileProblems(fileProblems, files, problems);
  const chosen = {
    provider: providerSetting,
    model: modelSetting,
    ollamaHost: hostSetting,
    openaiBaseURL: baseSetting,
    toolshim: toolshimSetting,
    interpreterBackend: backendSetting,
    contextTokens: contextSetting,
    maxSteps: stepsSetting,
    prefetch: prefetchSetting,
    maxCallsPerTurn: callsSetting,
    timeoutSeconds: timeoutSetting,
  };
  const sources = {} as Config["sources"];
  const origins: Config["origins"] = {};
  for (const [key, c] of Object.entries(chosen) as Array<[keyof Config["sources"], Chosen<unknown> | undefined]>) {
    sources[key] = c?.source ?? "default";
    if (c?.at) origins[key] = { file: c.at.file, line: c.at.line };
  }

  const config: Config = {
    provider,
    ollamaHost,
    openai: {},
    toolshim,
    prefetch: prefetchSetting?.value ?? true,
    interpreter: {
      backend,
      ollamaModel: text("toolshim_ollama_model", "CODECITE_TOOLSHIM_OLLAMA_MODEL")?.value ?? DEFAULT_INTERPRETER_OLLAMA_MODEL,
    },
    sources,
    origins,
  };
  if (contextSetting?.value !== undefined) config.contextTokens = contextSetting.value;
  if (stepsSetting?.value !== undefined) config.maxSteps = stepsSetting.value;
  if (callsSetting?.value !== undefined) config.maxCallsPerTurn = callsSetting.value;
  if (timeoutSetting?.value !== undefined) config.timeoutSeconds = timeoutSetting.value;
  if (model !== undefined) config.model = model;
  if (baseURL !== undefined) config.openai.baseURL = baseURL;
  const apiKey = nonBlank(env.OPENAI_API_KEY);
  if (apiKey !== undefined) config.openai.apiKey = apiKey;
  if (localModel !== undefined) config.localModel = localModel;
  const interpreterLocal = text("toolshim_model", "CODECITE_TOOLSHIM_MODEL")?.value ?? localModel;
  if (interpreterLocal !== undefined) config.interpreter.localModel = interpreterLocal;
  return config;
}

/** Default port of `codecite serve` (one above Ollama's 11434). */
const DEFAULT_SERVE_PORT = 11435;
/** Default listen address of `codecite serve`: loopback only. */
const DEFAULT_SERVE_LISTEN = "127.0.0.1";
/** Shortest accepted `--token` (a guessable token is no protection). */
const MIN_TOKEN_LENGTH = 16;
/** Most worker processes of `codecite serve` (`--workers`). */
const MAX_SERVE_WORKERS = 64;

/**
 * Default worker processes of `codecite serve`: 2 when the machine offers two cores or more
 * (`os.availableParallelism()`), else 1. Not every core: a gateway in front of a local model
 * shares the machine with the model server, whose prompt reading and decoding need the CPU too.
 */
function defaultServeWorkers(): number {
  return availableParallelism() >= 2 ? 2 : 1;
}

/** Flags of `codecite serve`, as typed. Absent = not given. */
export interface ServeFlags {
  port?: string;
  listen?: string;
  /** The upstream server's address (Ollama host or OpenAI-compatible base URL). */
  upstream?: string;
  /** The upstream's API: `ollama` or `openai`. */
  provider?: string;
  token?: string;
  model?: string;
  toolshim?: string;
  numCtx?: string;
  maxSteps?: string;
  /** Worker processes (`--workers`). */
  workers?: string;
}

/** The resolved settings of `codecite serve`. */
export interface ServeConfig {
  /** TCP port; 0 = any free port (tests). */
  port: number;
  /** Address to bind, e.g. `127.0.0.1`, `::1`, `0.0.0.0`. */
  listen: string;
  /** Bearer token every request must carry; absent = none (loopback only). */
  token?: string;
  /** Worker processes that serve requests (1 = the gateway runs in the `codecite serve` process itself). */
  workers: number;
  /** The upstream and the `codecite` virtual model's settings (`provider` is `ollama` or `openai`). */
  upstream: Config;
  sources: Record<"port" | "listen" | "token" | "workers", ValueSource>;
}

/** Whether `address` is a loopback address (`127.0.0.0/8`, `::1`, `localhost`). */
function isLoopbackAddress(address: string): boolean {
  const a = address.trim().toLowerCase().replace(/^\[|\]$/g, "");
  return a === "localhost" || a === "::1" || /^127(?:\.\d{1,3}){3}$/.test(a) || /^::ffff:127(?:\.\d{1,3}){3}$/.test(a);
}

function parsePort(raw: string, variable: string): number {
  const v = raw.trim();
  const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n > 65535) throw new ConfigError(variable, raw, ["a port number from 1 to 65535 (0: any free port)"]);
  return n;
}

function parseWorkers(raw: string, variable: string): number {
  return parseSessionBound(raw, variable, MAX_SERVE_WORKERS, "worker processes");
}

function parseListen(raw: string, variable: string): string {
  const v = raw.trim().replace(/^\[|\]$/g, "");
  if (!/^[A-Za-z0-9.:-]+$/.test(v) || v === "") throw new ConfigError(variable, raw, ["an IP address or host name, e.g. 127.0.0.1, ::1, 0.0.0.0"]);
  return v;
}

/**
 * Resolves the settings of `codecite serve`. The upstream is the configured provider and server
 * (`resolveConfig`), where serve's own `--provider`/`--upstream` and the user file's
 * `serve.provider`/`serve.upstream` act as `--provider`/`--host`: a setting made for serve beats
 * the general one of every command (`OLLAMA_HOST`, `CODECITE_PROVIDER`). A repository file can
 * set none of them (`config-file.ts`). The token comes only from `--token` or
 * `CODECITE_SERVE_TOKEN` (never from a file). Any listen address other than loopback needs a token.
 * Worker processes: `--workers`, else the user file's `serve.workers`, else 2 on a machine with
 * two cores or more, else 1 (`defaultServeWorkers`).
 * @throws ConfigError / ConfigFileError for a bad value, an upstream provider other than
 *   `ollama`/`openai`, a token shorter than {@link MIN_TOKEN_LENGTH}, or a non-loopback listen
 *   address without a token.
 */
export function resolveServeConfig(flags: ServeFlags, env: Env, files?: ConfigFiles, problems?: SettingProblems): ServeConfig {
  // serve's own settings depend on nothing: their bad file values join those of the upstream's.
  const fileProblems: ConfigFileProblem[] = [];
  // Leniently, every problem found here is serve's (the general ones are found again by `resolveConfig`).
  const serveProblems: SettingProblems | undefined = problems && { add: (p) => problems.add({ ...p, serveOnly: true }) };
  const refused = (setting: string) =>
    serveProblems === undefined
      ? undefined
      : (err: ConfigError, c: Candidate) => serveProblems.add({ setting, value: redactCredentials(err.value), source: c.source, message: err.message, hint: err.hint });
  const port = layered([{ name: "--port", raw: flags.port, source: "flag" }, ...fileLayers(files, "serve.port")], parsePort, fileProblems, refused("serve.port"));
  const listen = layered([{ name: "--listen", raw: flags.listen, source: "flag" }, ...fileLayers(files, "serve.listen")], parseListen, fileProblems, refused("serve.listen"));
  const workers = layered([{ name: "--workers", raw: flags.workers, source: "flag" }, ...fileLayers(files, "serve.workers")], parseWorkers, fileProblems, refused("serve.workers"));
  const token = layered(
    [{ name: "--token", raw: flags.token, source: "flag" }, { name: "CODECITE_SERVE_TOKEN", raw: env.CODECITE_SERVE_TOKEN, source: "env" }],
    (raw, name) => {
      // The value is a secret: the message never repeats it.
      if (raw.trim().length < MIN_TOKEN_LENGTH) throw new ConfigError(name, "(hidden)", [`a token of at least ${MIN_TOKEN_LENGTH} characters`]);
      return raw.trim();
    },
    fileProblems,
    refused("serve.token"),
  );
  const base: ConfigFlags = {};
  if (flags.model !== undefined) base.model = flags.model;
  if (flags.toolshim !== undefined) base.toolshim = flags.toolshim;
  if (flags.numCtx !== undefined) base.numCtx = flags.numCtx;
  if (flags.maxSteps !== undefined) base.maxSteps = flags.maxSteps;
  const upstream = resolveLayers(base, env, files, fileProblems, {
    provider: [{ name: "--provider", raw: flags.provider, source: "flag" }, ...fileLayers(files, "serve.provider")],
    host: [{ name: "--upstream", raw: nonBlank(flags.upstream), source: "flag" }, ...fileLayers(files, "serve.upstream")],
    parseProvider: (raw, name) => {
      const provider = parseProvider(raw, name);
      if (provider === "llama-cpp") throw new ServeProviderError(name, raw);
      return provider;
    },
    ...(serveProblems ? { problems: serveProblems } : {}),
    settingOf: (key) => (key === "provider" ? "serve.provider" : key === "ollamaHost" || key === "openaiBaseURL" ? "serve.upstream" : SETTING_KEYS[key]),
  });

  const config: ServeConfig = {
    port: port?.value ?? DEFAULT_SERVE_PORT,
    listen: listen?.value ?? DEFAULT_SERVE_LISTEN,
    workers: workers?.value ?? defaultServeWorkers(),
    upstream,
    sources: { port: port?.source ?? "default", listen: listen?.source ?? "default", token: token?.source ?? "default", workers: workers?.source ?? "default" },
  };
  if (token) config.token = token.value;
  if (!isLoopbackAddress(config.listen) && config.token === undefined) {
    const err = new ConfigError(
      "--listen",
      config.listen,
      ["a loopback address (127.0.0.1, ::1, localhost)", "any address together with --token or CODECITE_SERVE_TOKEN"],
      "listening beyond this machine needs a token",
    );
    if (serveProblems === undefined) throw err;
    serveProblems.add({ setting: "serve.listen", value: config.listen, source: config.sources.listen, message: err.message, hint: err.hint });
  }
  return config;
}
