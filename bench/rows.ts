/**
 * The measured rows of `npm run bench`, each against its reference in the same run.
 * A row whose own function is not built yet, or whose reference tool is absent, is reported
 * as such instead of failing the run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { measureAgentOverhead } from "./agent-overhead.js";
import type { Manifest } from "./corpus.js";
import type { EvidenceApi, ResultLike } from "./evidence-api.js";
import { finish, unavailable, type Row } from "./report.js";
import { median, repeat, repeatPaired, timeSpawn, timeSpawnSync } from "./stats.js";

export interface BenchContext {
  projectRoot: string;
  dist: string;
  root: string;
  manifest: Manifest;
  api: EvidenceApi;
  /** The in-process workspace (undefined when Workspace is unavailable). */
  ws: unknown;
  rg: string;
  runs: number;
  /** Scratch folder for cold caches and tag files (removed by the caller). */
  scratch: string;
  /** CODECITE_CACHE_DIR of this process (the in-process rows); the cold row leaves its last cache there. */
  inprocCacheDir: string;
  log(msg: string): void;
}

/**
 * Runs of the cheap in-process rows (a fraction of a second each): at least 11 pairs, so that the
 * median of a ~100 ms ratio is not at the mercy of one noisy sample on a shared 2-core machine.
 */
const pairedRuns = (ctx: BenchContext) => Math.max(ctx.runs, 11);

const errText = (err: unknown) => (err instanceof Error ? err.message.split("\n")[0] ?? "" : String(err));

const has = (cmd: string) => spawnSync(cmd, ["--version"], { encoding: "utf8" }).status === 0;

function missingWhy(ctx: BenchContext, key: keyof EvidenceApi): string | undefined {
  if (!ctx.ws) return `Workspace unavailable: ${ctx.api.missing.Workspace ?? "open failed"}`;
  if (!ctx.api[key]) return ctx.api.missing[key as string] ?? `${String(key)} unavailable`;
  return undefined;
}

function checkImporters(r: ResultLike, expected: readonly string[]): string {
  const paths = [...new Set(r.evidence.map((e) => e.path))].sort();
  if (r.total === expected.length && paths.every((p) => expected.includes(p))) return `ok (${r.total} importers)`;
  return `total ${r.total}, expected ${expected.length}`;
}

/** search_code in-process vs `rg --json -F QUERY` over the tree. */
export async function searchRow(ctx: BenchContext): Promise<Row> {
  const q = ctx.manifest.probes.searchQuery;
  const base = { id: "search_code", measure: "search_code, in-process (case-sensitive)", reference: `rg --json -F '${q}'`, unit: "ms" as const, goal: 1.3, goalKind: "ratio" as const };
  const ref = await repeat(() => timeSpawnSync(ctx.rg, ["--json", "-F", q, "."], { cwd: ctx.root }), { runs: ctx.runs, warmup: 1 });
  const why = missingWhy(ctx, "searchCode");
  if (why) return unavailable({ ...base, ref: median(ref.samples), samples: { ref: ref.samples } }, why);
  try {
    const fn = ctx.api.searchCode as NonNullable<EvidenceApi["searchCode"]>;
    // case_sensitive: the reference's semantics (rg -F is case-sensitive; search_code's default,
    // smart case, makes a lower-case query case-insensitive, which costs ripgrep ~10% more).
    const m = await repeatPaired(
      () => fn(ctx.ws, { query: q, regex: false, case_sensitive: true, max_results: 50 }),
      () => timeSpawnSync(ctx.rg, ["--json", "-F", q, "."], { cwd: ctx.root }),
      { runs: pairedRuns(ctx), warmup: 1 },
    );
    const total = m.lastOurs.total;
    const check = total === ctx.manifest.probes.searchLines ? `ok (${total} lines)` : `total ${total}, expected ${ctx.manifest.probes.searchLines}`;
    // For the record: the tool's default (smart case) against `rg --json -F -S`, the same semantics.
    const smart = await repeatPaired(
      () => fn(ctx.ws, { query: q, regex: false, max_results: 50 }),
      () => timeSpawnSync(ctx.rg, ["--json", "-F", "-S", q, "."], { cwd: ctx.root }),
      { runs: ctx.runs },
    );
    const note = `default smart case: ${Math.round(median(smart.ours))} ms vs ${Math.round(median(smart.ref))} ms for rg --json -F -S (${(median(smart.ours) / median(smart.ref)).toFixed(2)}×)`;
    return finish({ ...base, ours: median(m.ours), ref: median(m.ref), samples: { ours: m.ours, ref: m.ref }, check, status: "met", note });
  } catch (err) {
    return { ...base, ref: median(ref.samples), status: "error", note: errText(err) };
  }
}

interface ChildReport {
  results: { tool: string; ms: number; total: number; first?: { path: string; start_line: number } }[];
  maxRssMb: number;
  wallMs: number;
}

/**
 * Cold find_importers (a fresh process, empty cache) vs `ctags -R`, and the peak RSS of that
 * process after it also ran find_symbol and search_code (the "server" memory row).
 */
export async function coldRows(ctx: BenchContext): Promise<Row[]> {
  const p = ctx.manifest.probes;
  const cold = { id: "find_importers_cold", measure: "find_importers, empty cache (fresh process)", reference: "ctags -R", unit: "ms" as const, goal: 1.0, goalKind: "ratio" as const };
  const mem = { id: "server_peak_rss", measure: `peak RSS, server process (${ctx.manifest.spec.name} corpus)`, reference: "-", unit: "MB" as const, goal: 600, goalKind: "absolute" as const };
  const coldRuns = Math.min(ctx.runs, 3);
  let ref: number[] | undefined;
  if (has("ctags")) {
    const tags = path.join(ctx.scratch, "tags");
    ref = (await repeat(() => timeSpawnSync("ctags", ["-R", "-f", tags, "."], { cwd: ctx.root }), { runs: coldRuns, warmup: 0 })).samples;
  }
  const refPart = ref ? { ref: median(ref), samples: { ref } } : {};
  const why = missingWhy(ctx, "findImporters") ?? missingWhy(ctx, "findSymbol") ?? missingWhy(ctx, "searchCode");
  if (why) return [unavailable({ ...cold, ...refPart }, why), unavailable(mem, why)];
  const queries = JSON.stringify([
    { tool: "find_importers", args: { module_name: p.pythonModule, max_results: 50 } },
    { tool: "find_symbol", args: { name: p.symbol.name, max_results: 50 } },
    { tool: "search_code", args: { query: p.searchQuery, regex: false, case_sensitive: true, max_results: 50 } },
  ]);
  const reports: ChildReport[] = [];
  let spent = 0;
  for (let i = 0; i < coldRuns && (i === 0 || spent < 150_000); i++) {
    const cacheDir = path.join(ctx.scratch, `cold-cache-${i}`);
    ctx.log(`  cold run ${i + 1}/${coldRuns} …`);
    const r = await timeSpawn(process.execPath, [path.join(ctx.projectRoot, "bench/query-child.mjs"), ctx.dist, ctx.root, queries], {
      env: { ...process.env, CODECITE_CACHE_DIR: cacheDir },
      timeoutMs: 300_000,
    });
    spent += r.ms;
    const lastRun = i === coldRuns - 1 || spent >= 150_000;
    if (lastRun && r.status === 0 && existsSync(cacheDir) && !existsSync(ctx.inprocCacheDir)) renameSync(cacheDir, ctx.inprocCacheDir);
    else rmSync(cacheDir, { recursive: true, force: true });
    if (r.status !== 0) {
      const note = `query child exited ${r.status}: ${r.stderr.trim().split("\n").slice(-2).join(" | ")}`;
      return [{ ...cold, status: "error", note }, { ...mem, status: "error", note }];
    }
    reports.push(JSON.parse(r.stdout.trim().split("\n").pop() as string) as ChildReport);
  }
  const oursSamples = reports.map((r) => (r.results[0] as ChildReport["results"][number]).ms);
  const first = reports[0] as ChildReport;
  const importersTotal = first.results[0]?.total;
  const check = importersTotal === p.pythonImporters.length ? `ok (${importersTotal} importers)` : `total ${importersTotal}, expected ${p.pythonImporters.length}`;
  const rss = reports.map((r) => r.maxRssMb);
  const memRow = finish({
    ...mem,
    ours: Math.max(...rss),
    samples: { ours: rss },
    check: `after cold find_importers + find_symbol + search_code`,
    status: "met",
    ...(ctx.manifest.spec.name === "quick" ? { note: "quick corpus: the goal is for ~7k Python files / 280 MB (default run)" } : {}),
  });
  const wall = `child wall time incl. Node start-up and module load: ${Math.round(median(reports.map((r) => r.wallMs)))} ms`;
  const coldRow: Row = ref
    ? finish({ ...cold, ours: median(oursSamples), ref: median(ref), samples: { ours: oursSamples, ref }, check, status: "met", note: wall })
    : { ...cold, ours: median(oursSamples), samples: { ours: oursSamples }, check, status: "reference missing", note: `universal-ctags not installed (apt-get install -y universal-ctags); ${wall}` };
  return [coldRow, memRow];
}

/** Warm find_importers / find_symbol in-process vs `rg -n -w NAME`, then the re-query after an edit. */
export async function warmRows(ctx: BenchContext): Promise<Row[]> {
  const p = ctx.manifest.probes;
  const lastPart = p.pythonModule.split(".").pop() as string;
  const imp = { id: "find_importers_warm", measure: "find_importers, warm, in-process", reference: `rg -n -w ${lastPart}`, unit: "ms" as const, goal: 1.5, goalKind: "ratio" as const };
  const sym = { id: "find_symbol_warm", measure: "find_symbol, warm, in-process", reference: `rg -n -w ${p.symbol.name}`, unit: "ms" as const, goal: 1.5, goalKind: "ratio" as const };
  const edit = { id: "find_importers_after_edit", measure: "find_importers after editing one file", reference: "warm find_importers", unit: "ms" as const, goal: 3, goalKind: "ratio" as const };
  const rows: Row[] = [];
  const rgOnce = (name: string) => timeSpawnSync(ctx.rg, ["-n", "-w", name, "."], { cwd: ctx.root });
  const rgW = async (name: string) => (await repeat(() => rgOnce(name), { runs: ctx.runs, warmup: 1 })).samples;

  let warmImporters: number | undefined;
  const whyImp = missingWhy(ctx, "findImporters");
  if (whyImp) {
    const refImp = await rgW(lastPart);
    rows.push(unavailable({ ...imp, ref: median(refImp), samples: { ref: refImp } }, whyImp), unavailable(edit, whyImp));
  } else {
    const fn = ctx.api.findImporters as NonNullable<EvidenceApi["findImporters"]>;
    const args = { module_name: p.pythonModule, max_results: 50 };
    try {
      const t0 = performance.now();
      await fn(ctx.ws, args);
      const firstMs = performance.now() - t0;
      const m = await repeatPaired(() => fn(ctx.ws, args), () => rgOnce(lastPart), { runs: pairedRuns(ctx) });
      warmImporters = median(m.ours);
      rows.push(
        finish({ ...imp, ours: warmImporters, ref: median(m.ref), samples: { ours: m.ours, ref: m.ref }, check: checkImporters(m.lastOurs, p.pythonImporters), status: "met", note: `first call in this process (${existsSync(ctx.inprocCacheDir) ? "on-disk cache left by the cold run" : "empty cache"}): ${Math.round(firstMs)} ms` }),
      );
      // re-query after an edit: append a different comment each run (size and mtime change)
      const target = path.join(ctx.root, p.editTarget);
      const original = readFileSync(target, "utf8");
      const samples: number[] = [];
      let last: ResultLike | undefined;
      try {
        for (let i = 0; i < pairedRuns(ctx); i++) {
          writeFileSync(target, `${original}\n# bench edit ${i}${"!".repeat(i)}\n`);
          const t = performance.now();
          last = await fn(ctx.ws, args);
          samples.push(performance.now() - t);
        }
      } finally {
        writeFileSync(target, original);
      }
      rows.push(
        finish({
          ...edit,
          ours: median(samples),
          ref: warmImporters,
          samples: { ours: samples },
          check: last ? checkImporters(last, p.pythonImporters) : "",
          status: "met",
          note: `first edit (also loads the parser into this process): ${Math.round(samples[0] ?? 0)} ms`,
        }),
      );
    } catch (err) {
      rows.push({ ...imp, status: "error", note: errText(err) }, { ...edit, status: "error", note: errText(err) });
    }
  }

  const whySym = missingWhy(ctx, "findSymbol");
  if (whySym) {
    const refSym = await rgW(p.symbol.name);
    rows.push(unavailable({ ...sym, ref: median(refSym), samples: { ref: refSym } }, whySym));
  } else {
    const fn = ctx.api.findSymbol as NonNullable<EvidenceApi["findSymbol"]>;
    const args = { name: p.symbol.name, max_results: 50 };
    try {
      await fn(ctx.ws, args);
      const m = await repeatPaired(() => fn(ctx.ws, args), () => rgOnce(p.symbol.name), { runs: pairedRuns(ctx) });
      const hit = m.lastOurs.evidence.find((e) => e.path === p.symbol.path && e.start_line === p.symbol.line);
      const check = hit && m.lastOurs.total === 1 ? `ok (${p.symbol.path}:${p.symbol.line})` : `total ${m.lastOurs.total}${hit ? "" : ", definition not found"}`;
      rows.push(finish({ ...sym, ours: median(m.ours), ref: median(m.ref), samples: { ours: m.ours, ref: m.ref }, check, status: "met" }));
    } catch (err) {
      rows.push({ ...sym, status: "error", note: errText(err) });
    }
  }
  return rows;
}

/**
 * find_references of the probe symbol: warm in-process vs `rg -n -w NAME` over the tree, and the
 * first query in a fresh process with an empty cache vs `ctags -R`.
 */
export async function referencesRows(ctx: BenchContext): Promise<Row[]> {
  const p = ctx.manifest.probes;
  const warm = { id: "find_references_warm", measure: "find_references, warm, in-process", reference: `rg -n -w ${p.symbol.name}`, unit: "ms" as const, goal: 1.5, goalKind: "ratio" as const };
  const cold = { id: "find_references_cold", measure: "find_references, empty cache (fresh process)", reference: "ctags -R", unit: "ms" as const, goal: 1.0, goalKind: "ratio" as const };
  const args = { name: p.symbol.name, path: p.symbol.path, max_results: 50 };
  const rows: Row[] = [];
  const rgOnce = () => timeSpawnSync(ctx.rg, ["-n", "-w", p.symbol.name, "."], { cwd: ctx.root });
  const why = missingWhy(ctx, "findReferences");
  if (why) {
    const ref = (await repeat(rgOnce, { runs: ctx.runs, warmup: 1 })).samples;
    return [unavailable({ ...warm, ref: median(ref), samples: { ref } }, why), unavailable(cold, why)];
  }
  // Cold first: a fresh process and an empty cache, so nothing parsed by the warm row helps it.
  if (has("ctags")) {
    const tags = path.join(ctx.scratch, "tags-refs");
    const coldRuns = Math.min(ctx.runs, 3);
    const ref = (await repeat(() => timeSpawnSync("ctags", ["-R", "-f", tags, "."], { cwd: ctx.root }), { runs: coldRuns, warmup: 0 })).samples;
    const ours: number[] = [];
    let total: number | undefined;
    for (let i = 0; i < coldRuns; i++) {
      const cacheDir = path.join(ctx.scratch, `refs-cold-cache-${i}`);
      const r = await timeSpawn(process.execPath, [path.join(ctx.projectRoot, "bench/query-child.mjs"), ctx.dist, ctx.root, JSON.stringify([{ tool: "find_references", args }])], {
        env: { ...process.env, CODECITE_CACHE_DIR: cacheDir },
        timeoutMs: 300_000,
      });
      rmSync(cacheDir, { recursive: true, force: true });
      if (r.status !== 0) {
        rows.push({ ...cold, status: "error", note: `query child exited ${r.status}: ${r.stderr.trim().split("\n").slice(-2).join(" | ")}` });
        break;
      }
      const rep = JSON.parse(r.stdout.trim().split("\n").pop() as string) as ChildReport;
      ours.push((rep.results[0] as ChildReport["results"][number]).ms);
      total = rep.results[0]?.total;
    }
    if (ours.length === coldRuns) rows.push(finish({ ...cold, ours: median(ours), ref: median(ref), samples: { ours, ref }, check: `${total} references`, status: "met" }));
  } else rows.push({ ...cold, status: "reference missing", note: "universal-ctags not installed (apt-get install -y universal-ctags)" });
  try {
    const fn = ctx.api.findReferences as NonNullable<EvidenceApi["findReferences"]>;
    await fn(ctx.ws, args);
    const m = await repeatPaired(() => fn(ctx.ws, args), rgOnce, { runs: pairedRuns(ctx) });
    rows.push(finish({ ...warm, ours: median(m.ours), ref: median(m.ref), samples: { ours: m.ours, ref: m.ref }, check: `${m.lastOurs.total} references`, status: "met" }));
  } catch (err) {
    rows.push({ ...warm, status: "error", note: errText(err) });
  }
  return rows;
}

/** `node dist/cli/main.cjs --version` (package.json `bin`, what `codecite` runs) vs `node -e 0`. */
export async function startupRow(ctx: BenchContext): Promise<Row> {
  const base = { id: "cli_startup", measure: "CLI start-up (codecite --version)", reference: "node -e 0", unit: "ms" as const, goal: 3, goalKind: "ratio" as const };
  const main = path.join(ctx.dist, "cli/main.cjs");
  if (!existsSync(main)) return unavailable(base, "dist/cli/main.cjs not built");
  const n = Math.max(10, ctx.runs * 2);
  try {
    const m = await repeatPaired(
      () => timeSpawnSync(process.execPath, [main, "--version"]),
      () => timeSpawnSync(process.execPath, ["-e", "0"]),
      { runs: n, warmup: 2 },
    );
    const version = (JSON.parse(readFileSync(path.join(ctx.projectRoot, "package.json"), "utf8")) as { version: string }).version;
    const printed = m.lastOurs.stdout.trim();
    return finish({ ...base, ours: median(m.ours), ref: median(m.ref), samples: { ours: m.ours, ref: m.ref }, check: printed.includes(version) ? `ok (${printed})` : `printed "${printed}"`, status: "met" });
  } catch (err) {
    return { ...base, status: "error", note: errText(err) };
  }
}

/** Agent overhead per step and fixed prompt size (see agent-overhead.ts). */
export async function agentRows(ctx: BenchContext): Promise<{ rows: Row[]; detail?: unknown }> {
  const step = { id: "agent_overhead_per_step", measure: "agent overhead per step (fake Ollama, instant)", reference: "-", unit: "ms/step" as const, goal: 10, goalKind: "absolute" as const };
  const prompt = { id: "fixed_prompt_tokens", measure: "fixed prompt: tool definitions + system prompt", reference: "-", unit: "tokens" as const, goal: 1000, goalKind: "absolute" as const };
  const main = path.join(ctx.dist, "cli/main.js");
  if (!existsSync(main)) return { rows: [unavailable(step, "dist/cli/main.js not built"), unavailable(prompt, "dist/cli/main.js not built")] };
  try {
    const a = await measureAgentOverhead(main, ctx.runs);
    return {
      rows: [
        finish({
          ...step,
          ours: Math.max(0, a.perStepMs),
          samples: { ours: a.samples.many, ref: a.samples.zero },
          status: "met",
          note:
            `slope of ask --json wall time, 0 vs ${a.steps} tool calls, per extra model request (${a.chatsPerRun.zero} vs ${a.chatsPerRun.many}), ` +
            `minus reported tool time (${a.toolMsPerStep.toFixed(2)} ms/step)` +
            (a.perStepMs < 0 ? `; raw ${a.perStepMs.toFixed(2)} ms: below the run-to-run noise, shown as 0` : ""),
        }),
        finish({ ...prompt, ours: a.promptTokensEstimate, status: "met", note: `estimate: ${a.promptChars} characters / 4 (tool definitions ${a.toolDefinitionChars}, system prompt ${a.systemPromptChars}); no offline tokenizer` }),
      ],
      detail: a,
    };
  } catch (err) {
    return { rows: [{ ...step, status: "error", note: errText(err) }, { ...prompt, status: "error", note: errText(err) }] };
  }
}

/** A scratch folder for one bench run. */
export function makeScratch(base: string): string {
  return mkdtempSync(path.join(base, "codecite-bench-"));
}
