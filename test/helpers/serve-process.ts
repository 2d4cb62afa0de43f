/**
 * `codecite serve` (the built CLI) as a process for tests: started on a free loopback port, with
 * its start-up line awaited, its stderr kept, and its process id and worker processes (`--workers`)
 * read from `/proc` (Linux).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { CLI } from "../cli/run-cli.js";

/** A running `codecite serve`. */
export interface ServeProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** Resolves with its exit code once it has ended. */
  closed: Promise<number | null>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `codecite serve --port 0 …args` with `env` over the test's environment (`NO_COLOR=1`,
 * `OLLAMA_HOST` empty); resolves once its start-up line names the address. `detached` starts it
 * in its own process group (a test can then signal the group, as a terminal's Ctrl-C does).
 */
export async function startServe(args: readonly string[], opts: { env?: Record<string, string>; detached?: boolean } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], {
    env: { ...process.env, NO_COLOR: "1", OLLAMA_HOST: "", ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: opts.detached === true,
  });
  let stderr = "";
  const closed = new Promise<number | null>((r) => child.on("close", r));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    child.on("close", () => reject(new Error(`serve exited: ${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    closed,
    stop: () => {
      child.kill("SIGTERM");
      return closed;
    },
  };
}

/** The state letter of process `pid` (`/proc/<pid>/stat` field 3: R, S, Z …); undefined when there is no such process. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs (exists and is not a zombie: an ended process its new parent has not reaped yet). */
export function running(pid: number): boolean {
  const state = stateOf(pid);
  return state !== undefined && state !== "Z";
}

/** The running child processes of `pid` (`/proc/<pid>/stat` field 4 is the parent). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid && running(Number(name))) out.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}
