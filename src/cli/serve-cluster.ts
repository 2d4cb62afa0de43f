/**
 * `codecite serve --workers N` (N > 1): the gateway runs in N worker processes that share one
 * listening socket (node:cluster, https://nodejs.org/api/cluster.html: the primary accepts
 * connections and hands them to the workers in turn); this process, the primary, forks them and
 * serves no request. One Node.js process relays the chunks of concurrent streamed chats one after
 * another, so a burst of chunks (a batching model server writes every chat's next token at once)
 * waits for one core; workers share it out over the cores.
 *
 * The primary ({@link runPrimary}):
 * - starts one worker, and the others once it listens: a worker that fails before it listens
 *   (the port taken, the root missing) has reported its error itself, once, and the primary ends
 *   with that worker's exit code;
 * - writes the first worker's start-up line (`codecite serve: listening on http://HOST:PORT …`)
 *   once every worker listens;
 * - replaces a worker that ends while serving (one line on stderr), unless
 *   {@link CRASH_LOOP_EXITS} ended within {@link CRASH_LOOP_WINDOW_MS}: then it stops the others
 *   and fails (exit code 1) instead of starting processes without end;
 * - on SIGINT or SIGTERM, sends SIGTERM to each worker and resolves once all have ended (SIGKILL
 *   after {@link STOP_GRACE_MS}). A worker ignores SIGINT (Ctrl-C in a terminal reaches the whole
 *   process group: the primary decides), and ends when the primary does (Node's cluster module
 *   ends a worker whose channel to the primary closes), so a killed primary leaves no worker behind;
 * - answers a worker's question for `GET /codecite/stats` with the sum over all workers
 *   (`serve/stats.ts` `sumStats`): it asks every listening worker for its report and keeps the last
 *   report of each worker, also of one that has ended (counters never go down; an ended worker's
 *   answers running and waiting are dropped). A worker that does not answer within
 *   {@link STATS_WAIT_MS} counts with its last report.
 *
 * A worker ({@link joinCluster}) runs the gateway as a single `codecite serve` process does.
 */
import cluster, { type Worker } from "node:cluster";
import { sumStats, type StatsReport } from "../serve/stats.js";

/** A crash loop: this many workers ending within {@link CRASH_LOOP_WINDOW_MS} stops the gateway. */
const CRASH_LOOP_EXITS = 5;
const CRASH_LOOP_WINDOW_MS = 10_000;
/** Time the workers have to end after SIGTERM before they are killed, ms. */
const STOP_GRACE_MS = 10_000;
/** Time the primary waits for the workers' reports of one stats request, ms. */
const STATS_WAIT_MS = 2_000;

/** Messages between the primary and a worker on the cluster's channel (`codecite` names the kind). */
type ClusterMessage =
  /** Worker → primary: it listens; `line` is its start-up line. */
  | { codecite: "listening"; line: string }
  /** Worker → primary: a client asked it for the stats. */
  | { codecite: "stats-ask"; id: number }
  /** Primary → each worker: send your report. */
  | { codecite: "stats-collect"; id: number }
  /** Worker → primary: its report. */
  | { codecite: "stats-report"; id: number; stats: StatsReport }
  /** Primary → the worker that asked: the sum. */
  | { codecite: "stats-sum"; id: number; stats: StatsReport };

function isMessage(m: unknown): m is ClusterMessage {
  return typeof m === "object" && m !== null && typeof (m as { codecite?: unknown }).codecite === "string";
}

/** Whether this process is a worker of `codecite serve --workers`. */
export function isServeWorker(): boolean {
  return cluster.isWorker;
}

/** How a worker's end reads: `exit code 1`, `signal SIGKILL`. */
function endOf(code: number | null, signal: string | null): string {
  return signal !== null ? `signal ${signal}` : `exit code ${code ?? 0}`;
}

/**
 * Runs the primary of `workers` worker processes (see the module comment); `log` writes a line
 * on stderr. Resolves with the exit code when it stops: 0 after SIGINT or SIGTERM, the first
 * worker's exit code when it failed before listening (its error is already on stderr).
 * @throws Error when the workers crash in a loop (the workers are stopped first).
 */
export function runPrimary(workers: number, log: (line: string) => void): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    /** Workers that sent `listening`, by cluster id. */
    const listening = new Set<number>();
    const reports = new Map<number, StatsReport>();
    const asks = new Map<number, { asker: Worker; waiting: Set<number>; timer: NodeJS.Timeout; ownId: number }>();
    let nextAsk = 0;
    let startLine: string | undefined;
    let started = false;
    let stopping = false;
    const ends: number[] = [];

    const finishAsk = (id: number): void => {
      const ask = asks.get(id);
      if (ask === undefined) return;
      asks.delete(id);
      clearTimeout(ask.timer);
      if (ask.asker.isConnected()) ask.asker.send({ codecite: "stats-sum", id: ask.ownId, stats: sumStats([...reports.values()]) } satisfies ClusterMessage);
    };

    const onMessage = (worker: Worker, m: unknown): void => {
      if (!isMessage(m)) return;
      if (m.codecite === "listening") {
        listening.add(worker.id);
        if (startLine === undefined) {
          startLine = m.line;
          for (let i = 1; i < workers; i++) cluster.fork();
        }
        if (!started && listening.size === workers) {
          started = true;
          log(`${startLine}; ${workers} worker processes`);
        }
      } else if (m.codecite === "stats-ask") {
        const id = ++nextAsk;
        const waiting = new Set([...listening].filter((w) => cluster.workers?.[w]?.isConnected() === true));
        asks.set(id, { asker: worker, waiting, timer: setTimeout(() => finishAsk(id), STATS_WAIT_MS), ownId: m.id });
        for (const w of waiting) cluster.workers![w]!.send({ codecite: "stats-collect", id } satisfies ClusterMessage);
        if (waiting.size === 0) finishAsk(id);
      } else if (m.codecite === "stats-report") {
        reports.set(worker.id, m.stats);
        const ask = asks.get(m.id);
        ask?.waiting.delete(worker.id);
        if (ask?.waiting.size === 0) finishAsk(m.id);
      }
    };

    const live = (): Worker[] => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);

    /** Stops every worker; resolves once all have ended. */
    const stopAll = async (): Promise<void> => {
      stopping = true;
      const running = live();
      await Promise.all(
        running.map(
          (w) =>
            new Promise<void>((done) => {
              if (w.process.exitCode !== null || w.process.signalCode !== null) return done();
              const kill = setTimeout(() => w.process.kill("SIGKILL"), STOP_GRACE_MS);
              w.once("exit", () => {
                clearTimeout(kill);
                done();
              });
              w.process.kill("SIGTERM");
            }),
        ),
      );
      cluster.off("message", onMessage);
      cluster.off("exit", onExit);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    };

    const onExit = (worker: Worker, code: number | null, signal: string | null): void => {
      listening.delete(worker.id);
      const report = reports.get(worker.id);
      // An ended worker's counters stay in the sum; its answers running and waiting are gone.
      if (report !== undefined) reports.set(worker.id, { requests: report.requests, models: report.models });
      for (const [id, ask] of asks) {
        ask.waiting.delete(worker.id);
        if (ask.waiting.size === 0) finishAsk(id);
      }
      if (stopping) return;
      if (startLine === undefined) {
        // The first worker failed to start and said why: end with its exit code.
        void stopAll().then(() => resolve(code !== null && code !== 0 ? code : 1));
        return;
      }
      const now = Date.now();
      ends.push(now);
      while (ends.length > 0 && ends[0]! <= now - CRASH_LOOP_WINDOW_MS) ends.shift();
      if (ends.length >= CRASH_LOOP_EXITS) {
        void stopAll().then(() =>
          reject(new Error(`worker processes ended ${ends.length} times within ${CRASH_LOOP_WINDOW_MS / 1000} s (the last: ${endOf(code, signal)}); codecite serve stops`)),
        );
        return;
      }
      log(`codecite serve: worker process ${worker.process.pid ?? "?"} ended (${endOf(code, signal)}); starting another`);
      cluster.fork();
    };

    const onSignal = (): void => {
      if (!stopping) void stopAll().then(() => resolve(0));
    };

    cluster.on("message", onMessage);
    cluster.on("exit", onExit);
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    cluster.fork();
  });
}

/** A worker's side of the cluster: how its gateway answers `GET /codecite/stats`, and how it says it listens. */
export interface ClusterMember {
  /** The sum over all workers (its own `own` when the primary does not answer within twice {@link STATS_WAIT_MS}). */
  answerStats(own: StatsReport): Promise<StatsReport>;
  /** Tells the primary that this worker listens (`line`: its start-up line); from then on the primary's requests for its report are answered with `report()`. */
  listening(line: string, report: () => StatsReport): void;
}

/** Joins the cluster as a worker: ignores SIGINT (the primary stops the workers; see the module comment). */
export function joinCluster(): ClusterMember {
  const sums = new Map<number, (stats: StatsReport) => void>();
  let nextAsk = 0;
  let report: (() => StatsReport) | undefined;
  const send = (m: ClusterMessage): void => {
    if (process.connected) process.send!(m);
  };
  process.on("SIGINT", () => undefined);
  process.on("message", (m: unknown) => {
    if (!isMessage(m)) return;
    if (m.codecite === "stats-collect" && report !== undefined) send({ codecite: "stats-report", id: m.id, stats: report() });
    else if (m.codecite === "stats-sum") sums.get(m.id)?.(m.stats);
  });
  return {
    answerStats: (own) =>
      new Promise<StatsReport>((resolve) => {
        const id = ++nextAsk;
        const timer = setTimeout(() => done(own), 2 * STATS_WAIT_MS);
        const done = (stats: StatsReport): void => {
          clearTimeout(timer);
          sums.delete(id);
          resolve(stats);
        };
        sums.set(id, done);
        send({ codecite: "stats-ask", id });
      }),
    listening: (line, own) => {
      report = own;
      send({ codecite: "listening", line });
    },
  };
}
