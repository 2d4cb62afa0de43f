/**
 * `codecite config [--root DIR] [--json]`: the effective settings and where each value came from
 * (flag, environment, repository file, user file, default; README "Configuration"), and the
 * configuration files looked for. Secrets are never printed: `OPENAI_API_KEY` and the serve token
 * show only whether they are set.
 *
 * `--json` prints `{"settings": {name: {"value", "source", "file"?, "line"?, "problem"?}}, "files":
 * {"repo": {"path", "found"}, "user": {"path", "found"}}}`.
 *
 * A refused value does not stop it: every setting is printed, the refused one with the value
 * given and the error the commands give (`problem`: `{message, hint, serve_only}`). Exit code 2
 * when a setting every command refuses is among them (e.g. `CODECITE_PROVIDER=llama-cpp` without
 * a model file), 0 when only `codecite serve` refuses one (`llama-cpp`: serve forwards to a server).
 */
import type { Command } from "commander";
import type { Config, ServeConfig, SettingProblem, ValueSource } from "../../config.js";
import type { ConfigFiles } from "../../config-file.js";
import { runAction } from "../output.js";
import { redactCredentials } from "../../llm/server-address.js";
import { visibleText } from "../../evidence/visible-text.js";

/** One effective setting as printed. */
export interface EffectiveSetting {
  value: string | number | boolean | null;
  source: ValueSource;
  file?: string;
  line?: number;
  /**
   * Set when the value is refused: the error the commands give, and whether only `codecite serve`
   * refuses it (`ask` and the rest run). The value is then the one given, not one in effect.
   */
  problem?: { message: string; hint: string; serve_only: boolean };
}

/**
 * The values `ask` and `chat` use when a session bound is not set (`src/agent/session.ts`,
 * `src/agent/defaults.ts`): shown as the default instead of "unset", which read as "no limit".
 */
export interface SessionDefaults {
  num_ctx: number;
  max_steps: number;
  max_calls_per_turn: number;
  timeout: number;
}

/** The settings table of `codecite config` (names as the file keys spell them). */
export function effectiveSettings(config: Config, serve: ServeConfig, defaults: SessionDefaults): Record<string, EffectiveSetting> {
  const at = (key: keyof Config["sources"]) => config.origins[key] ?? {};
  const row = (value: EffectiveSetting["value"], key: keyof Config["sources"]): EffectiveSetting => ({ value, source: config.sources[key], ...at(key) });
  const upstream = serve.upstream;
  const upstreamKey = upstream.provider === "ollama" ? "ollamaHost" : "openaiBaseURL";
  return {
    provider: row(config.provider, "provider"),
    model: row(config.model ?? null, "model"),
    // Credentials in an address (user:password@) are never printed.
    host:
      config.provider === "openai"
        ? row(config.openai.baseURL === undefined ? null : redactCredentials(config.openai.baseURL), "openaiBaseURL")
        : row(redactCredentials(config.ollamaHost), "ollamaHost"),
    openai_api_key: { value: config.openai.apiKey !== undefined ? "(set)" : null, source: config.openai.apiKey !== undefined ? "env" : "default" },
    toolshim: row(config.toolshim, "toolshim"),
    toolshim_backend: row(config.interpreter.backend, "interpreterBackend"),
    num_ctx: row(config.contextTokens ?? defaults.num_ctx, "contextTokens"),
    max_steps: row(config.maxSteps ?? defaults.max_steps, "maxSteps"),
    prefetch: row(config.prefetch, "prefetch"),
    max_calls_per_turn: row(config.maxCallsPerTurn ?? defaults.max_calls_per_turn, "maxCallsPerTurn"),
    timeout: row(config.timeoutSeconds ?? defaults.timeout, "timeoutSeconds"),
    "serve.provider": { value: upstream.provider, source: upstream.sources.provider, ...(upstream.origins.provider ?? {}) },
    "serve.upstream": {
      value: upstream.provider === "ollama" ? redactCredentials(upstream.ollamaHost) : upstream.openai.baseURL === undefined ? null : redactCredentials(upstream.openai.baseURL),
      source: upstream.sources[upstreamKey],
      ...(upstream.origins[upstreamKey] ?? {}),
    },
    "serve.port": { value: serve.port, source: serve.sources.port },
    "serve.listen": { value: serve.listen, source: serve.sources.listen },
    "serve.token": { value: serve.token !== undefined ? "(set)" : null, source: serve.sources.token },
    "serve.workers": { value: serve.workers, source: serve.sources.workers },
  };
}

/**
 * `settings` with each refused setting's row showing the value given and its problem (a problem
 * found by both resolvers is the general one; serve re-reads the general settings for its upstream).
 */
export function withProblems(settings: Record<string, EffectiveSetting>, problems: readonly (SettingProblem & { serveOnly?: boolean })[]): Record<string, EffectiveSetting> {
  const out = { ...settings };
  const general = new Set(problems.filter((p) => p.serveOnly !== true).map((p) => `${p.setting}\n${p.message}`));
  for (const p of problems) {
    if (p.serveOnly === true && general.has(`${p.setting}\n${p.message}`)) continue;
    const prior = out[p.setting]?.problem;
    // One problem per row: a general one over serve's.
    if (prior !== undefined && (!prior.serve_only || p.serveOnly === true)) continue;
    out[p.setting] = {
      value: p.value ?? null,
      source: p.source,
      ...(p.file !== undefined ? { file: p.file, line: p.line ?? 0 } : {}),
      problem: { message: p.message, hint: p.hint, serve_only: p.serveOnly === true },
    };
  }
  return out;
}

const SOURCE_WORDS: Record<ValueSource, string> = {
  flag: "flag",
  env: "environment",
  repo_file: "repository file",
  user_file: "user file",
  default: "default",
};

function render(settings: Record<string, EffectiveSetting>, files: ConfigFiles, c: import("../output.js").Colors): string {
  const width = Math.max(...Object.keys(settings).map((k) => k.length));
  const lines: string[] = [];
  for (const [name, s] of Object.entries(settings)) {
    // A repository's .codecite.yml is hostile input: its values and the file's path are shown escaped.
    const value = s.value === null ? c.dim("(unset)") : visibleText(String(s.value));
    const where = s.file !== undefined ? `${SOURCE_WORDS[s.source]} ${visibleText(s.file)}:${s.line}` : SOURCE_WORDS[s.source];
    lines.push(`${name.padEnd(width)}  ${value}  ${c.dim(`(${where})`)}`);
    if (s.problem !== undefined) {
      const pad = " ".repeat(width + 2);
      lines.push(`${pad}${c.red("✗")} ${s.problem.serve_only ? "codecite serve refuses it: " : "refused: "}${visibleText(s.problem.message)}`);
      lines.push(`${pad}  ${c.dim("hint:")} ${visibleText(s.problem.hint)}`);
    }
  }
  lines.push("");
  lines.push(`repository file: ${visibleText(files.paths.repo)}${files.repo ? "" : c.dim(" (not found)")}`);
  lines.push(`user file:       ${visibleText(files.paths.user)}${files.user ? "" : c.dim(" (not found)")}`);
  return `${lines.join("\n")}\n`;
}

interface ConfigCommandFlags {
  root?: string;
  json?: boolean;
}

/** Registers `codecite config` on `program`. */
export function register(program: Command): void {
  program
    .command("config")
    .description("print the effective settings and where each value came from")
    .option("--root <dir>", "repository root, where .codecite.yml is read (default: the enclosing git work tree, else the current folder)")
    .option("--json", "print {settings: {name: {value, source, file?, line?, problem?}}, files}")
    .action((flags: ConfigCommandFlags) =>
      runAction(flags.json === true, async () => {
        const [{ resolveConfig, resolveServeConfig }, { loadConfigFiles }, output, session, defaults] = await Promise.all([
          import("../../config.js"),
          import("../../config-file.js"),
          import("../output.js"),
          import("../../agent/session.js"),
          import("../../agent/defaults.js"),
        ]);
        const { defaultRoot } = await import("../locations.js");
        // The root ask and chat would use from here (ask.ts withDefaultRoot), so its .codecite.yml is the one shown.
        const files = loadConfigFiles(defaultRoot(flags.root, output.logLine), process.env);
        // Leniently: every setting is shown, a refused one flagged, instead of the first refusal alone.
        const problems: (SettingProblem & { serveOnly?: boolean })[] = [];
        const collect = { add: (p: SettingProblem & { serveOnly?: boolean }) => void problems.push(p) };
        const config = resolveConfig({}, process.env, files, collect);
        const serve = resolveServeConfig({}, process.env, files, collect);
        const settings = withProblems(
          effectiveSettings(config, serve, {
            num_ctx: defaults.DEFAULT_CONTEXT_TOKENS,
            max_steps: defaults.DEFAULT_MAX_STEPS,
            max_calls_per_turn: session.DEFAULT_MAX_CALLS_PER_TURN,
            timeout: session.DEFAULT_SESSION_TIMEOUT_MS / 1000,
          }),
          problems,
        );
        // A setting every command refuses is an error (exit 2, said on stderr); one only serve refuses is not.
        const refused = Object.entries(settings).filter(([, v]) => v.problem !== undefined && !v.problem.serve_only);
        if (refused.length > 0) {
          process.exitCode = 2;
          const err = output.colorsFor(process.stderr);
          const only = refused.length === 1 ? refused[0]![1].problem : undefined;
          output.logLine(`${err.red("codecite: error:")} ${only ? visibleText(only.message) : `${refused.length} settings are refused: ${refused.map(([k]) => k).join(", ")}`}`);
          output.logLine(`${err.dim("hint:")} ${only ? visibleText(only.hint) : "Each is shown above with its hint."}`);
        }
        if (flags.json === true) {
          output.printJson({
            settings,
            files: {
              repo: { path: files.paths.repo, found: files.repo !== undefined },
              user: { path: files.paths.user, found: files.user !== undefined },
            },
          });
          return;
        }
        process.stdout.write(render(settings, files, output.colorsFor(process.stdout)));
      }),
    );
}
