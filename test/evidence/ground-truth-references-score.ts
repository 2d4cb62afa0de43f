/**
 * Scores `find_references` against hand-checked truth (`ground-truth/<lang>-<repo>-references.json`:
 * `targets`, chosen by the file's `rule` before codecite was run, and `references`, target →
 * `path:line` of every line whose name refers to it; optional `paths`, target → the file that defines it,
 * for a name several definitions share) on any checkout of the truth's repository:
 *
 *   npx tsx test/evidence/ground-truth-references-score.ts <checkout> <truth.json> [--details N]
 *
 * A reference is one `path:line` (the line of the name; several uses on one line are one). Per
 * target and over all targets: **precision** = lines both sides list / lines codecite lists
 * (`by_name` records included), **recall** = lines both sides list / lines the truth lists (1 when a
 * side lists none). A target codecite cannot look up (ambiguous, not found) lists nothing and is
 * reported with its error. The checkout should be at the truth's `commit` (a warning is printed when
 * `git` says otherwise).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { collectReferences } from "../../src/evidence/references.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

/** A truth file's content. */
export interface ReferenceTruth {
  repository: string;
  commit: string;
  rule: string;
  targets: string[];
  references: Record<string, string[]>;
  paths?: Record<string, string>;
}

/** One target's comparison: lines (`path:line`) only codecite lists and only the truth lists. */
export interface TargetScore {
  target: string;
  truth: number;
  ours: number;
  both: number;
  onlyOurs: string[];
  onlyTruth: string[];
  error?: string;
}

/** Runs every target of `truth` through `find_references` on `root` and compares line sets. */
export async function scoreReferences(root: string, truth: ReferenceTruth): Promise<{ targets: TargetScore[]; truth: number; ours: number; both: number; precision: number; recall: number }> {
  const ws = await Workspace.open(root);
  const targets: TargetScore[] = [];
  for (const target of truth.targets) {
    const want = new Set(truth.references[target] ?? []);
    let ours = new Set<string>();
    let error: string | undefined;
    try {
      const path = truth.paths?.[target];
      const { hits } = await collectReferences(ws, path === undefined ? { name: target } : { name: target, path });
      ours = new Set(hits.map((h) => `${h.file}:${h.line}`));
    } catch (e) {
      error = (e as Error).message;
    }
    const both = [...ours].filter((l) => want.has(l)).length;
    const score: TargetScore = { target, truth: want.size, ours: ours.size, both, onlyOurs: [...ours].filter((l) => !want.has(l)).sort(), onlyTruth: [...want].filter((l) => !ours.has(l)).sort() };
    if (error !== undefined) score.error = error;
    targets.push(score);
  }
  const sum = (k: "truth" | "ours" | "both") => targets.reduce((n, t) => n + t[k], 0);
  const [t, o, b] = [sum("truth"), sum("ours"), sum("both")];
  return { targets, truth: t, ours: o, both: b, precision: o === 0 ? 1 : b / o, recall: t === 0 ? 1 : b / t };
}

async function main(): Promise<void> {
  const [root, file] = process.argv.slice(2);
  if (root === undefined || file === undefined) throw new Error("usage: ground-truth-references-score.ts <checkout> <truth.json> [--details N]");
  const i = process.argv.indexOf("--details");
  const details = i > 0 ? Number(process.argv[i + 1]) : 20;
  const truth = JSON.parse(readFileSync(file, "utf8")) as ReferenceTruth;
  const head = spawnSync("git", ["-C", root, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout?.trim();
  if (head && head !== truth.commit) console.warn(`warning: ${root} is at ${head}, the truth at ${truth.commit}`);
  const s = await scoreReferences(root, truth);
  console.log(`${truth.repository} ${truth.commit.slice(0, 7)}: ${s.targets.length} targets; precision ${s.precision.toFixed(4)} (${s.both}/${s.ours}); recall ${s.recall.toFixed(4)} (${s.both}/${s.truth})`);
  for (const t of s.targets) {
    if (t.onlyOurs.length === 0 && t.onlyTruth.length === 0 && t.error === undefined) continue;
    console.log(`  ${t.target}: truth ${t.truth}, ours ${t.ours}, both ${t.both}${t.error ? ` — ${t.error}` : ""}`);
    for (const l of t.onlyOurs.slice(0, details)) console.log(`    only ours:  ${l}`);
    for (const l of t.onlyTruth.slice(0, details)) console.log(`    only truth: ${l}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
