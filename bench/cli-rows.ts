/**
 * Rows of `npm run bench` for the command line as a user runs it: every figure is a fresh
 * `node dist/cli/main.cjs …` process (the file package.json's `bin` names, which `codecite` runs),
 * measured against the reference in the same run.
 *
 * - warm (cache on disk, nothing changed): `codecite symbol|importers|search|refs NAME` vs
 *   `node -e 0` followed by `rg -n -w NAME` over the same tree (a Node start plus the search a
 *   user would otherwise type); goal ≤ 1.5×. The row's note says where the time went, from the
 *   CLI's own `CODECITE_TIMING=1` line (medians per phase). `symbol` and `importers` answer a name
 *   asked before without ripgrep (the remembered mentions of `src/evidence/analysis/mention-index.ts`);
 *   an informational row each ("a name not asked before") drops those answers before every run, so
 *   the query runs ripgrep over a warm fact cache as a new name would.
 * - first query (empty fact cache) of each kind vs `ctags -R` over the tree; goal ≤ 1×. One of
 *   them is `importers session`: a name written in most files of the tree. The V8 code cache of
 *   the command (`src/cli/compile-cache.ts`, kept in `<cache folder>/v8-code/`, one per
 *   installation and command, not per repository) is seeded first by one run of the same command
 *   on another tree (the medium tree for the large one; a copy in another folder for the medium
 *   and C/C++ trees), as it is for a user's first query on a new
 *   repository after any earlier query; only the fact cache is empty. The row's note gives the
 *   very first run after install (no code cache either), measured in the same alternating loop.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import Database from "better-sqlite3";
import path from "node:path";
import type { CTreeManifest } from "./c-corpus.js";
import type { Manifest } from "./corpus.js";
import { finish, unavailable, type Row } from "./report.js";
import { median, repeat, repeatPaired, timeSpawnSync } from "./stats.js";

export interface CliBenchContext {
  dist: string;
  root: string;
  manifest: Manifest | CTreeManifest;
  /** The queries to time; absent → the generated corpus's (symbol, importers, search, refs; `manifest` is a {@link Manifest}). */
  queries?: CliQuery[];
  rg: string;
  runs: number;
  /** Scratch folder for this tree's caches (removed by the caller). */
  scratch: string;
  /** Label of the tree in row ids and texts, e.g. `medium`. */
  label: string;
  /**
   * Another tree with the same languages, where the first-query rows make the V8 code cache
   * (absent: a copy of `root` in `scratch`, which suits small trees only).
   */
  seedRoot?: string;
  log(msg: string): void;
}

/** One timed command: `codecite <args>` and the word of its `rg -n -w` reference. */
export interface CliQuery {
  kind: string;
  args: string[];
  /** The word `rg -n -w` looks for. */
  word: string;
}
type Query = CliQuery;

function queries(m: Manifest): Query[] {
  const p = m.probes;
  return [
    { kind: "symbol", args: ["symbol", p.symbol.name], word: p.symbol.name },
    { kind: "importers", args: ["importers", p.pythonModule], word: p.pythonModule.split(".").pop() as string },
    { kind: "search", args: ["search", p.searchQuery.replace(/\($/, "")], word: p.searchQuery.replace(/\($/, "") },
    { kind: "refs", args: ["refs", p.symbol.name, "--path", p.symbol.path], word: p.symbol.name },
  ];
}

const PHASES = ["start-up", "load", "workspace", "cache open", "validation", "ignore-file check", "ripgrep", "query", "output", "total"] as const;

/** Medians of the `timing:` lines of several runs, as `start-up 40 ms, load 35 ms, …`. */
function timingNote(lines: readonly string[]): string {
  const by = new Map<string, number[]>();
  for (const line of lines) {
    for (const m of line.matchAll(/([a-z -]+?) (\d+) ms/g)) {
      const k = (m[1] as string).replace(/^[ ,]+/, "");
      by.set(k, [...(by.get(k) ?? []), Number(m[2])]);
    }
  }
  return PHASES.filter((p) => by.has(p)).map((p) => `${p} ${Math.round(median(by.get(p) as number[]))}`).join(", ") + " ms";
}

/** The command line's entry as installed (package.json `bin`), relative to dist/. */
const CLI_ENTRY = "cli/main.cjs";

function cli(ctx: CliBenchContext, q: Query, cacheDir: string, extraEnv: Record<string, string> = {}) {
  return timeSpawnSync(process.execPath, [path.join(ctx.dist, CLI_ENTRY), ...q.args, "--root", ctx.root], {
    cwd: ctx.root,
    env: { ...process.env, CODECITE_CACHE_DIR: cacheDir, NO_COLOR: "1", ...extraEnv },
  });
}

/**
 * Drops the prefilter answers the fact caches in `cacheDir` remember (side-table keys `mentions:…`),
 * keeping facts, the tree snapshot and the stamp tables: the next query of any name runs as for a
 * name not asked before.
 */
function forgetMentions(cacheDir: string): void {
  for (const f of readdirSync(cacheDir)) {
    if (!f.endsWith(".sqlite")) continue;
    const db = new Database(path.join(cacheDir, f));
    try {
      db.prepare("DELETE FROM meta WHERE key LIKE 'mentions:%'").run();
    } finally {
      db.close();
    }
  }
}

/** Warm fresh-process rows (see the module comment). */
export async function cliWarmRows(ctx: CliBenchContext): Promise<Row[]> {
  const main = path.join(ctx.dist, CLI_ENTRY);
  const cacheDir = path.join(ctx.scratch, `cli-warm-${ctx.label}`);
  mkdirSync(cacheDir, { recursive: true });
  const rows: Row[] = [];
  const runs = Math.max(ctx.runs, 7);
  for (const q of ctx.queries ?? queries(ctx.manifest as Manifest)) {
    const base = {
      id: `cli_warm_${q.kind}_${ctx.label}`,
      measure: `codecite ${q.args.join(" ")}, warm, fresh process (${ctx.label}, ${ctx.manifest.files} files)`,
      reference: `node -e 0 + rg -n -w ${q.word}`,
      unit: "ms" as const,
      goal: 1.5,
      goalKind: "ratio" as const,
    };
    if (!existsSync(main)) {
      rows.push(unavailable(base, `dist/${CLI_ENTRY} not built`));
      continue;
    }
    try {
      ctx.log(`  ${ctx.label}: warm ${q.kind} …`);
      cli(ctx, q, cacheDir); // fills the cache
      // Alternating runs; the reference's time is its two processes, one after the other.
      const reference = () => {
        timeSpawnSync(process.execPath, ["-e", "0"]);
        timeSpawnSync(ctx.rg, ["-n", "-w", q.word, "."], { cwd: ctx.root, okCodes: [0, 1] });
      };
      const m = await repeatPaired(() => cli(ctx, q, cacheDir), reference, { runs, warmup: 1 });
      const timings: string[] = [];
      for (let i = 0; i < 5; i++) {
        const line = cli(ctx, q, cacheDir, { CODECITE_TIMING: "1" }).stderr.split("\n").find((l) => l.startsWith("timing: "));
        if (line) timings.push(line);
      }
      const records = m.lastOurs.stdout.split("\n").filter((l) => /:\d+/.test(l)).length;
      rows.push(
        finish({
          ...base,
          ours: median(m.ours),
          ref: median(m.ref),
          samples: { ours: m.ours, ref: m.ref },
          check: `${records} location lines printed`,
          status: "met",
          note: `where the time goes (CODECITE_TIMING=1, medians): ${timingNote(timings)}`,
        }),
      );
      if (q.kind === "symbol" || q.kind === "importers") rows.push(newNameRow(ctx, q, base, cacheDir, reference, runs));
    } catch (err) {
      rows.push({ ...base, status: "error", note: err instanceof Error ? err.message.split("\n")[0] : String(err) });
    }
  }
  return rows;
}

/** The informational "a name not asked before" row of a warm query (see the module comment). */
function newNameRow(ctx: CliBenchContext, q: Query, base: Omit<Row, "status">, cacheDir: string, reference: () => void, runs: number): Row {
  const row = { ...base, id: `${base.id}_new_name`, measure: `${base.measure.replace(", warm,", ", warm, a name not asked before,")} (informational)` };
  ctx.log(`  ${ctx.label}: warm ${q.kind}, a name not asked before …`);
  const ours: number[] = [];
  const ref: number[] = [];
  for (let i = 0; i < runs; i++) {
    forgetMentions(cacheDir);
    ours.push(cli(ctx, q, cacheDir).ms);
    const t0 = performance.now();
    reference();
    ref.push(performance.now() - t0);
  }
  return finish({ ...row, ours: median(ours), ref: median(ref), samples: { ours, ref }, status: "met", note: "remembered prefilter answers dropped before each run; facts and tree snapshot stay cached" });
}

/** First-query rows: each kind on an empty fact cache vs `ctags -R` (see the module comment). */
export async function cliColdRows(ctx: CliBenchContext): Promise<Row[]> {
  const hasCtags = spawnSync("ctags", ["--version"], { encoding: "utf8" }).status === 0;
  const coldRuns = Math.min(Math.max(ctx.runs, 1), 3);
  let ref: number[] | undefined;
  if (hasCtags) {
    const tags = path.join(ctx.scratch, `tags-${ctx.label}`);
    ref = (await repeat(() => timeSpawnSync("ctags", ["-R", "-f", tags, "."], { cwd: ctx.root }), { runs: coldRuns, warmup: 0 })).samples;
  }
  // The other tree the code caches are made on: the one given, else a copy of this one in another folder.
  const copy = ctx.seedRoot === undefined ? path.join(ctx.scratch, `cli-seed-tree-${ctx.label}`) : undefined;
  if (copy !== undefined) {
    rmSync(copy, { recursive: true, force: true });
    cpSync(ctx.root, copy, { recursive: true });
  }
  const seedRoot = ctx.seedRoot ?? (copy as string);
  const all: Query[] = ctx.queries ?? [...queries(ctx.manifest as Manifest), { kind: "importers-session", args: ["importers", "session"], word: "session" }];
  const rows: Row[] = [];
  for (const q of all) {
    const base = {
      id: `cli_first_${q.kind}_${ctx.label}`,
      measure: `codecite ${q.args.join(" ")}, empty fact cache (code cache seeded on another tree), fresh process (${ctx.label})`,
      reference: "ctags -R",
      unit: "ms" as const,
      goal: 1.0,
      goalKind: "ratio" as const,
    };
    try {
      ctx.log(`  ${ctx.label}: first query, ${q.kind} …`);
      const seedDir = path.join(ctx.scratch, `cli-seed-${ctx.label}-${q.kind}`);
      rmSync(seedDir, { recursive: true, force: true });
      try {
        cli({ ...ctx, root: seedRoot }, q, seedDir);
      } catch {
        // a query that fails on the other tree still leaves its code cache (written at exit)
      }
      const samples: number[] = [];
      const install: number[] = [];
      const timings: string[] = [];
      let out = "";
      for (let i = 0; i < coldRuns; i++) {
        // Alternating: the very first run after install (no code cache), then the seeded one.
        const bare = path.join(ctx.scratch, `cli-cold-${ctx.label}-${q.kind}-bare-${i}`);
        install.push(cli(ctx, q, bare).ms);
        rmSync(bare, { recursive: true, force: true });
        const cacheDir = path.join(ctx.scratch, `cli-cold-${ctx.label}-${q.kind}-${i}`);
        mkdirSync(cacheDir, { recursive: true });
        cpSync(path.join(seedDir, "v8-code"), path.join(cacheDir, "v8-code"), { recursive: true });
        const r = cli(ctx, q, cacheDir, { CODECITE_TIMING: "1" });
        samples.push(r.ms);
        out = r.stdout;
        const line = r.stderr.split("\n").find((l) => l.startsWith("timing: "));
        if (line) timings.push(line);
        rmSync(cacheDir, { recursive: true, force: true });
      }
      rmSync(seedDir, { recursive: true, force: true });
      const check = `${out.split("\n").filter((l) => /:\d+/.test(l)).length} location lines printed`;
      const note = `where the time goes (CODECITE_TIMING=1, medians): ${timingNote(timings)}; very first run after install (no code cache either): ${Math.round(median(install))} ms${ref ? ` (${(median(install) / median(ref)).toFixed(2)}× ctags -R)` : ""}`;
      rows.push(
        ref
          ? finish({ ...base, ours: median(samples), ref: median(ref), samples: { ours: samples, ref }, check, status: "met", note })
          : { ...base, ours: median(samples), samples: { ours: samples }, check, status: "reference missing", note: `universal-ctags not installed (apt-get install -y universal-ctags); ${note}` },
      );
    } catch (err) {
      rows.push({ ...base, status: "error", note: err instanceof Error ? err.message.split("\n")[0] : String(err) });
    }
  }
  if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
  return rows;
}
