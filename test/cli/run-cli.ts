/**
 * Runs the built CLI (`node dist/cli/main.cjs`, the file package.json `bin` names) as a
 * subprocess, asynchronously (the fake Ollama server lives in the test process, so the event loop
 * must keep running). The vitest
 * global setup (`test/global-setup.ts`) rebuilds `dist/` first whenever `src/` is newer.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CHILD_TIMEOUT_MS } from "../helpers/patience.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = path.join(REPO_ROOT, "dist/cli/main.cjs");
export const RAG_APP = path.join(REPO_ROOT, "examples/rag-app");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Variables that would leak the developer's configuration into a test. */
const CONFIG_VARS = [
  "OLLAMA_HOST",
  "CODECITE_MODEL",
  "CODECITE_PROVIDER",
  "OPENAI_BASE_URL",
  "OPENAI_API_KEY",
  "CODECITE_TOOLSHIM",
  "CODECITE_TOOLSHIM_BACKEND",
  "CODECITE_TOOLSHIM_OLLAMA_MODEL",
  "CODECITE_TOOLSHIM_MODEL",
  "CODECITE_LOCAL_MODEL",
  "CODECITE_NUM_CTX",
  "CODECITE_MAX_CALLS_PER_TURN",
  "CODECITE_TIMEOUT",
  "CODECITE_SERVE_TOKEN",
  "FORCE_COLOR",
];

/**
 * Runs `codecite ...args` with a clean configuration plus `env`, `NO_COLOR=1`, in `cwd` (default
 * the repo); `stdin` is piped in when given (else stdin is closed). A run still going after
 * `timeoutMs` (default {@link CHILD_TIMEOUT_MS}) is killed and resolves with code null.
 */
export function runCli(args: readonly string[], opts: { env?: Record<string, string>; cwd?: string; timeoutMs?: number; stdin?: string } = {}): Promise<CliResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const v of CONFIG_VARS) delete env[v];
  Object.assign(env, { NO_COLOR: "1" }, opts.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? REPO_ROOT, env, stdio: [opts.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? CHILD_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
