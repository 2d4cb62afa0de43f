/**
 * What `ask` and `chat` both set up before the first question: the validated configuration
 * (flags, environment, configuration files), the workspace at `--root`, the chat provider, the
 * model (chosen by `default-model.ts` when none is named, and said so on stderr), and the tool
 * shim's interpreter. `close()` frees the providers (the embedded llama-cpp provider holds a
 * model and a native backend).
 */
import type { Config, ConfigFlags } from "../config.js";
import type { Provider } from "../llm/types.js";
import type { Interpreter } from "../toolshim/index.js";
import type { Workspace } from "../tools/index.js";

/** The flags of `ask` that choose the configuration (as typed). */
export interface SessionFlags {
  root: string;
  model?: string;
  provider?: string;
  host?: string;
  toolshim?: string;
  maxSteps?: string;
  numCtx?: string;
  /** Commander's negated `--no-prefetch`: false when given. */
  prefetch?: boolean;
  maxCallsPerTurn?: string;
  timeout?: string;
}

/** An opened session's inputs for `runAgent`. */
export interface AgentSession {
  config: Config;
  workspace: Workspace;
  provider: Provider;
  model: string;
  interpreter?: Interpreter;
  /** The chosen model runs with the tool shim, and stderr said so already. */
  shimAnnounced: boolean;
  close(): Promise<void>;
}

/** The `ConfigFlags` of the flags that were given. */
function configFlagsOf(flags: SessionFlags): ConfigFlags {
  const out: ConfigFlags = {};
  if (flags.model !== undefined) out.model = flags.model;
  if (flags.provider !== undefined) out.provider = flags.provider;
  if (flags.host !== undefined) out.host = flags.host;
  if (flags.toolshim !== undefined) out.toolshim = flags.toolshim;
  if (flags.numCtx !== undefined) out.numCtx = flags.numCtx;
  if (flags.maxSteps !== undefined) out.maxSteps = flags.maxSteps;
  if (flags.prefetch === false) out.prefetch = false;
  if (flags.maxCallsPerTurn !== undefined) out.maxCallsPerTurn = flags.maxCallsPerTurn;
  if (flags.timeout !== undefined) out.timeout = flags.timeout;
  return out;
}

/**
 * Opens a session (see the module comment).
 * @param quiet - the automatic model choice is named on stderr only when it is a fallback the
 *   user must know about (`--json` without `--verbose`).
 * @throws ConfigError / ConfigFileError for bad settings, ProviderError from the provider
 *   (unreachable, no model installed …), ToolError for a bad `--root`.
 */
export async function openAgentSession(flags: SessionFlags, quiet: boolean): Promise<AgentSession> {
  const [{ resolveConfig }, { loadConfigFiles }, { Workspace }, factory, models, output] = await Promise.all([
    import("../config.js"),
    import("../config-file.js"),
    import("../tools/index.js"),
    import("./provider-factory.js"),
    import("./default-model.js"),
    import("./output.js"),
  ]);
  const config = resolveConfig(configFlagsOf(flags), process.env, loadConfigFiles(flags.root, process.env));
  const workspace = await Workspace.open(flags.root);
  const provider = await factory.createProvider(config);
  let interpreterProvider: Provider | undefined;
  try {
    const errColors = output.colorsFor(process.stderr);
    let model = config.model;
    let shimAnnounced = false;
    if (model === undefined) {
      const chosen = await models.chooseDefaultModel(provider, config.toolshim);
      model = chosen.name;
      const line = models.describeDefaultModel(chosen);
      if (chosen.reason === "first_installed") {
        // A fallback the user must know about, even with --json (stderr only).
        output.logLine(errColors.yellow(line));
        shimAnnounced = true;
      } else if (!quiet) {
        output.logLine(errColors.dim(line));
      }
    }
    let interpreter: Interpreter | undefined;
    if (config.toolshim !== "off") {
      const target = await factory.createInterpreterTarget(config);
      if ("disabled" in target) {
        output.logLine(errColors.yellow(`codecite: tool-shim interpreter disabled (${target.disabled}); the deterministic stages still run`));
      } else {
        const { createInterpreter } = await import("../toolshim/index.js");
        interpreterProvider = target.provider;
        interpreter = createInterpreter(target.provider, target.model);
      }
    }
    return {
      config,
      workspace,
      provider,
      model,
      ...(interpreter ? { interpreter } : {}),
      shimAnnounced,
      close: () => factory.closeProviders(provider, interpreterProvider),
    };
  } catch (err) {
    await factory.closeProviders(provider, interpreterProvider);
    throw err;
  }
}
