/**
 * `codecite serve [--port N] [--listen ADDR] [--token T] [--upstream URL] [--provider P] [--root DIR] [--workers N]`:
 * the HTTP gateway (`serve/server.ts`) in front of one upstream server, with the virtual model
 * `codecite` answering about `--root`. Settings: `resolveServeConfig` (flags, environment, the
 * user configuration file), checked once in this process. With more than one worker this process
 * is the primary of that many worker processes, each running the gateway (`../serve-cluster.ts`);
 * with one, it runs the gateway itself. Logs one line per request on stderr (content only with
 * `--verbose`); stops on SIGINT/SIGTERM.
 */
import { visibleText } from "../../evidence/visible-text.js";
import type { Command } from "commander";
import type { ServeFlags } from "../../config.js";
import { runAction } from "../output.js";

interface ServeCommandFlags extends ServeFlags {
  root: string;
  verbose?: boolean;
}

async function serve(flags: ServeCommandFlags): Promise<void> {
  const [{ resolveServeConfig }, { loadConfigFiles }, output, serveCluster] = await Promise.all([
    import("../../config.js"),
    import("../../config-file.js"),
    import("../output.js"),
    import("../serve-cluster.js"),
  ]);
  const { root, verbose, ...serveFlags } = flags;
  const config = resolveServeConfig(serveFlags, process.env, loadConfigFiles(root, process.env));
  const worker = serveCluster.isServeWorker();
  if (config.workers > 1 && !worker) {
    // The primary serves no request: it loads none of the gateway's modules.
    const code = await serveCluster.runPrimary(config.workers, output.logLine);
    if (code !== 0) process.exitCode = code;
    return;
  }
  const member = worker ? serveCluster.joinCluster() : undefined;
  const [factory, models, { createGateway }, { Workspace, createCodeToolRegistry }, { packageVersion }, { redactCredentials }] =
    await Promise.all([
      import("../provider-factory.js"),
      import("../default-model.js"),
      import("../../serve/index.js"),
      import("../../tools/index.js"),
      import("../../version.js"),
      import("../../llm/server-address.js"),
    ]);
  const up = config.upstream;
  const provider = await factory.createProvider(up);
  const workspace = await Workspace.open(root);
  let defaultModel: Promise<string> | undefined;
  const gateway = createGateway({
    upstream: up.provider === "ollama" ? { api: "ollama", host: up.ollamaHost } : { api: "openai", baseURL: up.openai.baseURL ?? "", ...(up.openai.apiKey !== undefined ? { apiKey: up.openai.apiKey } : {}) },
    provider,
    agent: {
      registry: createCodeToolRegistry(),
      workspace,
      // The model `ask` would use: --model / CODECITE_MODEL / a file, else chosen once from the upstream.
      defaultModel: () => {
        if (up.model !== undefined) return Promise.resolve(up.model);
        defaultModel ??= models.chooseDefaultModel(provider, up.toolshim).then((m) => m.name);
        defaultModel.catch(() => (defaultModel = undefined));
        return defaultModel;
      },
      toolshim: up.toolshim,
      ...(up.maxSteps !== undefined ? { maxSteps: up.maxSteps } : {}),
      ...(up.contextTokens !== undefined ? { contextTokens: up.contextTokens } : {}),
    },
    ...(config.token !== undefined ? { token: config.token } : {}),
    version: packageVersion(),
    // With --verbose a line holds a client's request body: control characters are shown as escapes,
    // so a client cannot drive the terminal of the user running serve (SECURITY.md, Output).
    log: (line) => output.logLine(visibleText(line)),
    verbose: verbose === true,
    ...(member !== undefined ? { answerStats: member.answerStats } : {}),
  });
  const address = await gateway.listen(config.port, config.listen);
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const line = `codecite serve: listening on http://${host}:${address.port} (Ollama API /api, OpenAI API /v1); upstream ${up.provider} at ${redactCredentials((up.provider === "ollama" ? up.ollamaHost : up.openai.baseURL) ?? "")}; root ${workspace.root}${config.token !== undefined ? "; bearer token required" : ""}`;
  // A worker's line is written by the primary, once all workers listen.
  if (member !== undefined) member.listening(line, gateway.report);
  else output.logLine(line);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    // A worker is stopped by the primary (SIGTERM); Ctrl-C reaches the primary.
    if (member === undefined) process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await gateway.close();
  await factory.closeProviders(provider);
}

/** Ends a worker process once its gateway has stopped or failed (its channel to the primary would keep it running), with its exit code. */
async function endWorker(): Promise<void> {
  const [{ isServeWorker }, { exitWhenWritten }] = await Promise.all([import("../serve-cluster.js"), import("../output.js")]);
  if (isServeWorker()) await exitWhenWritten();
}

export function register(program: Command): void {
  program
    .command("serve")
    .description("HTTP gateway (Ollama and OpenAI APIs) that turns tool calls written as text into real ones, and the codecite model")
    .option("--port <n>", "port (default 11435)")
    .option("--listen <addr>", "address to bind (default 127.0.0.1; any other needs --token)")
    .option("--token <t>", "bearer token required on every request (default: CODECITE_SERVE_TOKEN)")
    .option("--upstream <url>", "the upstream server (default: OLLAMA_HOST, or OPENAI_BASE_URL with --provider openai)")
    .option("--provider <name>", "the upstream's API: ollama or openai (default: CODECITE_PROVIDER, else ollama)")
    .option("--root <dir>", "repository the codecite model answers about", ".")
    .option("--model <name>", "model of the codecite virtual model (default: as ask)")
    .option(
      "--workers <n>",
      "processes that serve requests (default 2 on a machine with two cores or more, else 1; not every core: a local model server needs them; 1 = this process alone)",
    )
    .option("--verbose", "log request content on stderr")
    .action((flags: ServeCommandFlags) => runAction(false, () => serve(flags)).then(endWorker));
}
