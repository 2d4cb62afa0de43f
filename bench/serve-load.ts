/**
 * Load on `codecite serve` (the compiled gateway in `dist/serve/`): rounds of 100 concurrent
 * streamed Ollama chats through the gateway to an upstream on loopback that streams timestamped
 * chunks. Goals (issue 13): no errors; no growth of open sockets; RSS after the run within 1.2×
 * of RSS after a warm-up round; p99 added latency per streamed chunk under 5 ms — the time from
 * the upstream writing a chunk to the client reading its text through the gateway, minus the
 * same measured straight from the upstream in the same run (the reference).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** What the load run reports. */
export interface ServeLoadResult {
  concurrency: number;
  rounds: number;
  chunks_per_chat: number;
  errors: number;
  sockets_after_warmup: number;
  sockets_after: number;
  rss_after_warmup_mb: number;
  rss_after_mb: number;
  rss_ratio: number;
  p99_chunk_latency_direct_ms: number;
  p99_chunk_latency_gateway_ms: number;
  p99_added_ms_per_chunk: number;
  goals_met: boolean;
}

const CHUNKS = 20;
/** Time between upstream chunks: 50 chunks per second per chat, a fast local model's token rate. */
const CHUNK_INTERVAL_MS = 20;
const CONCURRENCY = 100;
const ROUNDS = 5;

/** An upstream whose chat streams CHUNKS lines, each content `t<send time in ms>` written CHUNK_INTERVAL_MS apart. */
async function timestampUpstream(): Promise<{ host: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/api/show") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ capabilities: ["completion", "tools"] }));
        return;
      }
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      let i = 0;
      const tick = () => {
        if (i === CHUNKS) {
          res.end(`${JSON.stringify({ model: "m", message: { role: "assistant", content: "" }, done: true, done_reason: "stop" })}\n`);
          return;
        }
        i++;
        res.write(`${JSON.stringify({ model: "m", message: { role: "assistant", content: `Chunk t${performance.timeOrigin + performance.now()} done.\n` }, done: false })}\n`);
        setTimeout(tick, CHUNK_INTERVAL_MS);
      };
      tick();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    host: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** One streamed chat; pushes the latency of every timestamp read, returns false on an error. */
async function oneChat(base: string, latencies: number[]): Promise<boolean> {
  try {
    const r = await fetch(`${base}/api/chat`, { method: "POST", body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "go" }], tools: [] }) });
    if (!r.ok || !r.body) return false;
    const decoder = new TextDecoder();
    let pending = "";
    let done = false;
    for await (const bytes of r.body as unknown as AsyncIterable<Uint8Array>) {
      const now = performance.timeOrigin + performance.now();
      pending += decoder.decode(bytes, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        if (line.trim() === "") continue;
        const part = JSON.parse(line) as { message?: { content?: string }; done?: boolean; error?: string };
        if (part.error) return false;
        for (const m of (part.message?.content ?? "").matchAll(/t(\d+(?:\.\d+)?)/g)) latencies.push(now - Number(m[1]));
        if (part.done) done = true;
      }
    }
    return done;
  } catch {
    return false;
  }
}

/** The `q` quantile (nearest rank) of `xs`; 0 when empty. */
function percentile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

async function round(base: string, latencies: number[]): Promise<number> {
  const ok = await Promise.all(Array.from({ length: CONCURRENCY }, () => oneChat(base, latencies)));
  return ok.filter((x) => !x).length;
}

/** Open sockets of process `pid` (Linux `/proc/<pid>/fd`). */
function sockets(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}

/** Resident set size of process `pid` in bytes (Linux `/proc/<pid>/status` VmRSS). */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : 0;
}

async function settle(): Promise<void> {
  // Longer than the gateway's keep-alive timeout (5 s), so idle client connections are gone.
  await new Promise((r) => setTimeout(r, 6000));
}

/**
 * Runs the load (see the module comment) against `codecite serve` of the CLI compiled in `dist`,
 * in its own process (its sockets and RSS are read from `/proc`; Linux only).
 */
export async function serveLoad(dist: string): Promise<ServeLoadResult> {
  const upstream = await timestampUpstream();
  const child = spawn(process.execPath, [path.join(dist, "cli/main.js"), "serve", "--port", "0", "--upstream", upstream.host, "--root", dist], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  const base = await new Promise<string>((resolve, reject) => {
    let err = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      err += d;
      const m = /listening on (http:\/\/[^ ]+) /.exec(err);
      if (m) resolve(m[1]!);
    });
    child.on("close", () => reject(new Error(`serve exited: ${err}`)));
  });
  child.stderr!.resume();
  const pid = child.pid!;
  try {
    let errors = 0;
    const direct: number[] = [];
    const via: number[] = [];
    // Warm-up: one round each way.
    errors += await round(upstream.host, []);
    errors += await round(base, []);
    await settle();
    const socketsWarm = sockets(pid);
    const rssWarm = rss(pid);
    for (let i = 0; i < ROUNDS; i++) {
      errors += await round(upstream.host, direct);
      errors += await round(base, via);
    }
    await settle();
    const socketsAfter = sockets(pid);
    const rssAfter = rss(pid);
    const p99Direct = percentile(direct, 0.99);
    const p99Via = percentile(via, 0.99);
    const added = Math.max(0, p99Via - p99Direct);
    const ratio = rssAfter / rssWarm;
    const round2 = (x: number) => Math.round(x * 100) / 100;
    return {
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      chunks_per_chat: CHUNKS,
      errors,
      sockets_after_warmup: socketsWarm,
      sockets_after: socketsAfter,
      rss_after_warmup_mb: round2(rssWarm / 2 ** 20),
      rss_after_mb: round2(rssAfter / 2 ** 20),
      rss_ratio: round2(ratio),
      p99_chunk_latency_direct_ms: round2(p99Direct),
      p99_chunk_latency_gateway_ms: round2(p99Via),
      p99_added_ms_per_chunk: round2(added),
      goals_met: errors === 0 && socketsAfter <= socketsWarm && ratio <= 1.2 && added < 5,
    };
  } finally {
    child.kill("SIGTERM");
    await upstream.close();
  }
}
