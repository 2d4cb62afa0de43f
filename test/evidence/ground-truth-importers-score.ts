/**
 * Scores `find_importers` against hand-checked truth (`ground-truth/<lang>-<repo>-importers.json`:
 * `queries`, chosen by the file's `rule` before codecite was run, and `importers`, query file →
 * `path:line` of every statement importing it) on any checkout of the truth's repository:
 *
 *   npx tsx test/evidence/ground-truth-importers-score.ts <checkout> <truth.json> [--details N]
 *
 * A statement is one `path:line` (the first line of an import record). Per query and over all
 * queries: **precision** = statements both sides list / statements codecite lists, **recall** =
 * statements both sides list / statements the truth lists (1 when a side lists none). The checkout
 * should be at the truth's `commit` (a warning is printed when `git` says otherwise).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { findImporters } from "../../src/evidence/importers.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { findImportersInput } from "../../src/tools/code-tool-inputs.js";

/** A truth file's content. */
export interface ImporterTruth {
  repository: string;
  commit: string;
  rule: string;
  queries: string[];
  importers: Record<string, string[]>;
}

/** One query's comparison: statements (`path:line`) only codecite lists and only the truth lists. */
export interface QueryScore {
  query: string;
  truth: number;
  ours: number;
  both: number;
  onlyOurs: string[];
  onlyTruth: string[];
}

/** Totals over every query; precision and recall as in the module comment. */
export interface ImporterScore {
  queries: QueryScore[];
  truth: number;
  ours: number;
  both: number;
  precision: number;
  recall: number;
}

/** Reads a truth file; one without `queries` (the older Ruby and PHP files) queries every key of `importers`. */
export function readTruth(file: string): ImporterTruth {
  const t = JSON.parse(readFileSync(file, "utf8")) as Omit<ImporterTruth, "queries"> & { queries?: string[] };
  return { ...t, queries: t.queries ?? Object.keys(t.importers) };
}

/** Runs every query of `truth` through `find_importers` on `root` and compares statement sets. */
export async function scoreImporters(root: string, truth: ImporterTruth): Promise<ImporterScore> {
  const ws = await Workspace.open(root);
  const queries: QueryScore[] = [];
  for (const query of truth.queries) {
    const r = await findImporters(ws, findImportersInput.parse({ module_name: query }), undefined, { all: true, maxSnippetLines: 1 });
    const ours = new Set(r.evidence.map((e) => `${e.path}:${e.start_line}`));
    const want = new Set(truth.importers[query] ?? []);
    const both = [...ours].filter((s) => want.has(s)).length;
    queries.push({
      query,
      truth: want.size,
      ours: ours.size,
      both,
      onlyOurs: [...ours].filter((s) => !want.has(s)).sort(),
      onlyTruth: [...want].filter((s) => !ours.has(s)).sort(),
    });
  }
  const sum = (k: "truth" | "ours" | "both") => queries.reduce((n, q) => n + q[k], 0);
  const [t, o, b] = [sum("truth"), sum("ours"), sum("both")];
  return { queries, truth: t, ours: o, both: b, precision: o === 0 ? 1 : b / o, recall: t === 0 ? 1 : b / t };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const [root, file] = args.filter((a) => !a.startsWith("--"));
  if (root === undefined || file === undefined) {
    process.stderr.write("usage: ground-truth-importers-score.ts <checkout> <truth.json> [--details N]\n");
    process.exit(2);
  }
  const at = args.indexOf("--details");
  const details = at >= 0 ? Number(args[at + 1] ?? "10") : 0;
  const truth = readTruth(file);
  const head = spawnSync("git", ["-C", root, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim();
  if (head !== "" && head !== truth.commit) process.stderr.write(`warning: ${root} is at ${head}, the truth at ${truth.commit}\n`);
  const s = await scoreImporters(path.resolve(root), truth);
  for (const q of s.queries) {
    process.stdout.write(`${q.query}: truth ${q.truth} ours ${q.ours} both ${q.both}\n`);
    if (details > 0) {
      for (const x of q.onlyTruth.slice(0, details)) process.stdout.write(`  only truth ${x}\n`);
      for (const x of q.onlyOurs.slice(0, details)) process.stdout.write(`  only ours  ${x}\n`);
    }
  }
  const f = (n: number) => n.toFixed(4);
  process.stdout.write(`${truth.repository} ${truth.commit.slice(0, 7)}: ${s.queries.length} queries, statements truth ${s.truth} ours ${s.ours} both ${s.both}; precision ${f(s.precision)} recall ${f(s.recall)}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
