/**
 * `npm run bench` — performance of codecite's evidence tools against the fastest reference
 * tools, measured in the same run on the same tree.
 *
 * Flags: `--quick` (small corpus, 3 runs), `--runs N` (medians over N runs; default 5; the cheap
 * in-process rows take at least 11 pairs),
 * `--corpus-dir DIR` (where the corpus lives; default `$TMPDIR/codecite-bench/<quick|large>`,
 * reused while its manifest matches), `--skip-build` (use `dist/` as it is), `--dist DIR`
 * (measure another compiled tree, e.g. an experiment), `--out FILE`
 * (default `bench/results.json`), `--only ID,…` (only these groups of rows: `cli` (the command line
 * in fresh processes, `cli-rows.ts`, on the medium tree and the corpus), `c_cpp` (the same rows on a
 * generated mixed C/C++ tree, `c-corpus.ts`: symbol, importers of a header, refs of a C function), `search_code`,
 * `find_importers_cold`, `warm`, `find_references`, `cli_startup`, `agent`, `serve_load`,
 * `prefetch_recall`, `cache_store`; e.g. `npm run bench -- --only find_references`).
 *
 * Prefetch recall (bench/prefetch-recall/): when `CODECITE_PREFETCH_REPOS` names checkouts of
 * the question set's repositories, the share of real questions whose prefetched evidence holds
 * the answer locations, at the default context, 4096 and 2048 tokens.
 *
 * Steps: compile `src/` → `dist/` (the benchmark measures the shipped JavaScript), generate or
 * reuse the corpus, then measure every row (see rows.ts) and the cache-store comparison
 * (cache-store.ts), print a table of ratios and absolute figures, and write the same as JSON.
 * Never part of `npm test`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { rgPath } from "@vscode/ripgrep";
import { compareCacheStores } from "./cache-store.js";
import { C_TREE, cQueries, ensureCTree } from "./c-corpus.js";
import { cliColdRows, cliWarmRows, type CliBenchContext } from "./cli-rows.js";
import { ensureCorpus, LARGE, MEDIUM, QUICK } from "./corpus.js";
import { loadEvidenceApi } from "./evidence-api.js";
import { renderTable, type Row } from "./report.js";
import { serveLoad } from "./serve-load.js";
import { prefetchRecallRuns, renderRecall } from "./prefetch-recall/recall.js";
import { agentRows, coldRows, makeScratch, referencesRows, searchRow, startupRow, warmRows, type BenchContext } from "./rows.js";

const started = performance.now();
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    runs: { type: "string" },
    "corpus-dir": { type: "string" },
    "skip-build": { type: "boolean", default: false },
    out: { type: "string" },
    dist: { type: "string" },
    only: { type: "string" },
  },
});
/** Groups asked for with `--only` (all when absent). */
const only = values.only === undefined ? undefined : new Set(values.only.split(",").map((s) => s.trim()).filter((s) => s !== ""));
const wanted = (id: string) => only === undefined || only.has(id);
const projectRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const spec = values.quick ? QUICK : LARGE;
const runs = Math.max(1, Number(values.runs ?? (values.quick ? 3 : 5)));
const corpusDir = path.resolve(values["corpus-dir"] ?? path.join(os.tmpdir(), "codecite-bench", spec.name));
const outFile = path.resolve(values.out ?? path.join(projectRoot, "bench/results.json"));
const dist = path.resolve(values.dist ?? path.join(projectRoot, "dist"));
const scratch = makeScratch(os.tmpdir());
// In-process rows use their own, initially empty cache, never the user's.
const inprocCacheDir = path.join(scratch, "inproc-cache");
process.env.CODECITE_CACHE_DIR = inprocCacheDir;

try {
  if (!values["skip-build"]) {
    log("building dist/ (tsc -p tsconfig.build.json, then scripts/bundle-cli.ts) …");
    const tsc = spawnSync(process.execPath, [path.join(projectRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: projectRoot, encoding: "utf8" });
    if (tsc.status !== 0) log(`  tsc reported errors (files were still emitted where possible):\n${tsc.stdout.split("\n").slice(0, 8).join("\n")}`);
    // The command line as shipped: bundled (`npm run build` runs the same two steps).
    const bundle = spawnSync(process.execPath, ["--import", "tsx", path.join(projectRoot, "scripts/bundle-cli.ts")], { cwd: projectRoot, encoding: "utf8" });
    if (bundle.status !== 0) log(`  bundling the CLI failed; the CLI rows measure tsc's unbundled output:\n${bundle.stderr.split("\n").slice(0, 8).join("\n")}`);
  }

  const t0 = performance.now();
  const { root, manifest, generated } = ensureCorpus(corpusDir, spec, log);
  log(`corpus: ${manifest.files} files, ${(manifest.bytes / 1e6).toFixed(0)} MB in ${root}${generated ? ` (generated in ${((performance.now() - t0) / 1000).toFixed(1)} s)` : " (reused)"}`);

  const api = await loadEvidenceApi(dist);
  let ws: unknown;
  if (api.openWorkspace) {
    try {
      ws = await api.openWorkspace(root);
    } catch (err) {
      api.missing.Workspace = `Workspace.open failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  // Warm the page cache so every row, ours and the references, reads from memory.
  spawnSync(rgPath, ["-c", "--no-messages", "zzzz-page-cache-warmup", "."], { cwd: root });

  const ctx: BenchContext = { projectRoot, dist, root, manifest, api, ws, rg: rgPath, runs, scratch, inprocCacheDir, log };
  const rows: Row[] = [];
  /** Runs one group of rows; an unexpected failure becomes an `error` row instead of ending the bench. */
  const group = async (label: string, id: string, fn: () => Promise<Row | Row[]>) => {
    if (!wanted(id)) return;
    log(`${label} …`);
    try {
      const r = await fn();
      rows.push(...(Array.isArray(r) ? r : [r]));
    } catch (err) {
      rows.push({ id, measure: label, reference: "-", unit: "ms", goal: 0, goalKind: "ratio", status: "error", note: err instanceof Error ? err.message : String(err) });
    }
  };
  // The command line as a user runs it: fresh processes on the medium tree (~1k files) and on this run's corpus.
  const mediumDir = path.join(path.dirname(corpusDir), MEDIUM.name);
  const medium = spec.name === "quick" || !wanted("cli") ? undefined : ensureCorpus(mediumDir, MEDIUM, log);
  for (const [label, tree] of [...(medium ? [[MEDIUM.name, medium] as const] : []), [spec.name, { root, manifest }] as const]) {
    // The large tree's first-query rows make their code caches on the medium tree (copying 300 MB would cost more than the rows).
    const seedRoot = label !== MEDIUM.name && medium !== undefined ? medium.root : undefined;
    const cliCtx: CliBenchContext = { dist, root: tree.root, manifest: tree.manifest, rg: rgPath, runs, scratch, label, log, ...(seedRoot ? { seedRoot } : {}) };
    await group(`CLI, warm, fresh process (${label} tree)`, "cli", () => cliWarmRows(cliCtx));
    await group(`CLI, first query vs ctags -R (${label} tree)`, "cli", () => cliColdRows(cliCtx));
  }
  // A mixed C/C++ tree (bench/c-corpus.ts): the same command-line rows on its probes.
  if (wanted("c_cpp")) {
    const cTree = ensureCTree(path.join(path.dirname(corpusDir), C_TREE.name), C_TREE, log);
    const cCtx: CliBenchContext = { dist, root: cTree.root, manifest: cTree.manifest, queries: cQueries(cTree.manifest), rg: rgPath, runs, scratch, label: C_TREE.name, log };
    await group(`CLI, warm, fresh process (${C_TREE.name} tree)`, "c_cpp", () => cliWarmRows(cCtx));
    await group(`CLI, first query vs ctags -R (${C_TREE.name} tree)`, "c_cpp", () => cliColdRows(cCtx));
  }
  await group("search_code", "search_code", () => searchRow(ctx));
  await group("cold find_importers and peak memory (fresh processes)", "find_importers_cold", () => coldRows(ctx));
  await group("warm find_importers / find_symbol, re-query after an edit", "warm", () => warmRows(ctx));
  await group("find_references: warm vs rg -w, empty cache vs ctags -R", "find_references", () => referencesRows(ctx));
  await group("CLI start-up", "cli_startup", () => startupRow(ctx));
  let agentDetail: unknown = null;
  await group("agent overhead", "agent", async () => {
    const a = await agentRows(ctx);
    agentDetail = a.detail ?? null;
    return a.rows;
  });
  let serveLoadResult: unknown = "not run (--only)";
  if (wanted("serve_load")) {
    log("serve load: rounds of 100 concurrent streamed chats through codecite serve (20 and 50 chunks/s per chat) …");
    serveLoadResult = await serveLoad(dist).catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }));
  }
  const recall = wanted("prefetch_recall") ? await prefetchRecallRuns(log) : [];
  let store: Awaited<ReturnType<typeof compareCacheStores>> | undefined;
  if (wanted("cache_store")) {
    log("cache store comparison (5,000 files) …");
    store = await compareCacheStores(5000, runs);
  }

  const table = renderTable(rows);
  const storeLines = [
    ...(store === undefined
      ? ["cache store comparison: not run (--only)"]
      : [
          `cache store, ${store.files} files of facts, median of ${store.runs} runs (ms):`,
          ...store.rows.map((r) => `  ${r.operation.padEnd(40)} sqlite ${String(r.sqlite_ms).padStart(8)}   ndjson ${String(r.ndjson_ms).padStart(8)}`),
          `  size on disk: sqlite ${(store.sqlite_bytes / 1e6).toFixed(1)} MB, ndjson ${(store.ndjson_bytes / 1e6).toFixed(1)} MB`,
        ]),
    "",
    "serve load (100 concurrent streamed chats at 20 chunks/s each, goals: 0 errors, no socket growth, RSS ≤ 1.2× after warm-up, p99 added < 5 ms per chunk; 50 chunks/s reported too):",
    `  ${JSON.stringify(serveLoadResult)}`,
    ...recall.flatMap((r) => ["", ...renderRecall(r)]),
  ];
  const totalS = (performance.now() - started) / 1000;
  process.stdout.write(
    `\ncodecite bench — ${manifest.spec.name} corpus: ${manifest.files} files, ${(manifest.bytes / 1e6).toFixed(0)} MB; median of ${runs} runs; ${os.cpus().length} cores, Node ${process.version}\n\n${table}\n\n${storeLines.join("\n")}\n\ntotal bench time ${totalS.toFixed(0)} s\n`,
  );
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(
    outFile,
    JSON.stringify(
      {
        generated_at: new Date().toISOString(),
        machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.release()}`, memory_mb: Math.round(os.totalmem() / 2 ** 20) },
        corpus: { name: manifest.spec.name, dir: root, files: manifest.files, bytes: manifest.bytes, by_language: manifest.byLanguage, generated },
        runs,
        rows,
        cache_store: store ?? null,
        ...(only !== undefined ? { only: [...only] } : {}),
        agent: agentDetail,
        serve_load: serveLoadResult,
        prefetch_recall: recall.map(({ rows: _rows, ...totals }) => ({ ...totals, misses: _rows.filter((r) => !r.hit) })),
        total_seconds: Math.round(totalS),
      },
      null,
      2,
    ) + "\n",
  );
  log(`wrote ${path.relative(process.cwd(), outFile)}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
