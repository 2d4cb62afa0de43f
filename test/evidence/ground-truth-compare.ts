/**
 * Compares codecite's import statements and resolutions with each language's own tooling
 *: Python's `ast` + import system (`ground-truth-python.py`) and the
 * TypeScript compiler API (`ground-truth-ts.ts`). Used by `ground-truth.test.ts` on fixtures and by
 * `ground-truth-run.ts` on any checkout.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadFacts } from "../../src/evidence/analysis/facts.js";
import { languageFor } from "../../src/evidence/analysis/lang/index.js";
import type { ImportRef, Resolution } from "../../src/evidence/analysis/lang/language.js";
import { createProjectView } from "../../src/evidence/analysis/project-view.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { linkWorkspacePackages, tsGroundTruth } from "./ground-truth-ts.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** One disagreement, for reports. */
export interface Difference {
  key: string;
  ours: string;
  truth: string;
}

export interface Agreement {
  language: "python" | "js";
  files: number;
  /** Statements found by the ground truth / by us / by both. */
  statements: { truth: number; ours: number; both: number };
  /** Statements only one side found (keys). */
  onlyTruth: string[];
  onlyOurs: string[];
  /** Resolutions of the statements both found. */
  resolution: {
    compared: number;
    /** Same file, or both outside the tree (external/unresolved). */
    agree: number;
    /** Of `agree`: the same file in the tree. */
    agreeInTree: number;
    /** We point at a file, the ground truth at none. */
    oursOnly: Difference[];
    /** The ground truth points at a file, we at none. */
    truthOnly: Difference[];
    /** Both point at files, different ones. */
    differ: Difference[];
    /** Python: same target, different module name. */
    nameDiffer: Difference[];
  };
}

function ourTarget(res: Resolution): string {
  const f = res.files[0];
  if (f !== undefined) return f;
  if (res.unresolved) return "unresolved";
  if (res.external) return "external";
  return `namespace:${res.module}`;
}

const isFileTarget = (t: string) => t !== "external" && t !== "unresolved";

function classify(
  a: Agreement["resolution"],
  key: string,
  ours: string,
  truth: string,
): void {
  a.compared++;
  const oursFile = isFileTarget(ours);
  const truthFile = isFileTarget(truth);
  if (ours === truth || (!oursFile && !truthFile)) {
    a.agree++;
    if (oursFile) a.agreeInTree++;
  }
  else if (oursFile && !truthFile) a.oursOnly.push({ key, ours, truth });
  else if (!oursFile && truthFile) a.truthOnly.push({ key, ours, truth });
  else a.differ.push({ key, ours, truth });
}

async function ourImports(
  root: string,
  family: "python" | "js",
): Promise<{ files: string[]; refs: { file: string; ref: ImportRef; res: Resolution }[] }> {
  const ws = await Workspace.open(root);
  const entries = await ws.listFiles();
  const project = createProjectView(ws, entries);
  const mine = entries.filter((e) => {
    const lang = languageFor(e.path);
    if (lang === undefined) return false;
    return family === "python" ? lang.id === "python" && e.path.endsWith(".py") : (lang.family ?? lang.id) === "js";
  });
  const facts = await loadFacts(ws, mine);
  const refs: { file: string; ref: ImportRef; res: Resolution }[] = [];
  for (const [file, f] of facts) {
    const lang = languageFor(file);
    if (lang === undefined) continue;
    for (const ref of f.imports) refs.push({ file, ref, res: await lang.resolve(ref, file, project) });
  }
  return { files: mine.map((e) => e.path), refs };
}

function emptyAgreement(language: "python" | "js", files: number): Agreement {
  return {
    language,
    files,
    statements: { truth: 0, ours: 0, both: 0 },
    onlyTruth: [],
    onlyOurs: [],
    resolution: { compared: 0, agree: 0, agreeInTree: 0, oursOnly: [], truthOnly: [], differ: [], nameDiffer: [] },
  };
}

interface PyTruth {
  file: string;
  line: number;
  end_line: number;
  spec: string;
  name: string | null;
  module: string | null;
  target: string;
  dynamic?: boolean;
}

/** Python: `ast` statements and import-system resolution vs ours. Needs `python3` on PATH. */
export async function comparePython(root: string): Promise<Agreement> {
  const { files, refs } = await ourImports(root, "python");
  const ws = await Workspace.open(root);
  const all = (await ws.listFiles()).map((e) => e.path);
  const run = spawnSync("python3", [path.join(here, "ground-truth-python.py")], {
    input: JSON.stringify({ root: ws.root, files: all }),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`ground-truth-python.py failed: ${run.stderr}`);
  const truth = (JSON.parse(run.stdout) as { imports: PyTruth[] }).imports;
  const a = emptyAgreement("python", files.length);
  const key = (file: string, line: number, end: number, spec: string, name: string | null | undefined) =>
    `${file}:${line}-${end} ${spec}${name ? ` [${name}]` : ""}`;
  const ours = new Map<string, { ref: ImportRef; res: Resolution }>();
  for (const { file, ref, res } of refs) {
    if (ref.flags?.includes("unresolved")) continue; // non-literal dynamic imports: no ground truth
    ours.set(key(file, ref.start_line, ref.end_line, ref.specifier, ref.names?.[0]), { ref, res });
  }
  const truthKeys = new Set<string>();
  for (const t of truth) {
    const k = key(t.file, t.line, t.end_line, t.spec, t.name);
    truthKeys.add(k);
    const mine = ours.get(k);
    if (mine === undefined) {
      a.onlyTruth.push(k);
      continue;
    }
    const o = ourTarget(mine.res);
    classify(a.resolution, k, o, t.target);
    if (isFileTarget(t.target) && o === t.target && t.module !== null && mine.res.module !== t.module) {
      a.resolution.nameDiffer.push({ key: k, ours: mine.res.module, truth: t.module });
    }
  }
  for (const k of ours.keys()) if (!truthKeys.has(k)) a.onlyOurs.push(k);
  a.statements = { truth: truthKeys.size, ours: ours.size, both: truthKeys.size - a.onlyTruth.length };
  return a;
}

/**
 * JS/TS: TypeScript's `preProcessFile` + `resolveModuleName` vs ours. With `linkWorkspaces`, the
 * root first gets `node_modules/<name>` links to its workspace packages (writes into `root`!).
 */
export async function compareTypeScript(root: string, opts: { linkWorkspaces?: boolean } = {}): Promise<Agreement> {
  const { files, refs } = await ourImports(root, "js");
  const ws = await Workspace.open(root);
  if (opts.linkWorkspaces) linkWorkspacePackages(ws.root, (await ws.listFiles()).map((e) => e.path));
  const truth = tsGroundTruth(ws.root, files);
  const a = emptyAgreement("js", files.length);
  const byFileSpec = new Map<string, { ref: ImportRef; res: Resolution; used: boolean }[]>();
  let oursCount = 0;
  for (const { file, ref, res } of refs) {
    if (ref.flags?.includes("unresolved")) continue; // non-literal specifiers: TypeScript skips them too
    oursCount++;
    const k = `${file}\0${ref.specifier}`;
    byFileSpec.set(k, [...(byFileSpec.get(k) ?? []), { ref, res, used: false }]);
  }
  for (const t of truth) {
    const k = `${t.file}:${t.line} ${t.spec}`;
    const list = byFileSpec.get(`${t.file}\0${t.spec}`) ?? [];
    const mine = list.find((m) => !m.used && m.ref.start_line <= t.line && t.line <= m.ref.end_line);
    if (mine === undefined) {
      a.onlyTruth.push(k);
      continue;
    }
    mine.used = true;
    classify(a.resolution, k, ourTarget(mine.res), t.target);
  }
  for (const [k, list] of byFileSpec) {
    for (const m of list) if (!m.used) a.onlyOurs.push(`${k.replace("\0", `:${m.ref.start_line} `)}`);
  }
  a.statements = { truth: truth.length, ours: oursCount, both: truth.length - a.onlyTruth.length };
  return a;
}

/** A one-paragraph summary with percentages. */
export function summarize(root: string, a: Agreement): string {
  const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)}%`);
  const r = a.resolution;
  return [
    `${a.language} @ ${root}: ${a.files} files`,
    `statements: truth ${a.statements.truth}, ours ${a.statements.ours}, both ${a.statements.both} (${pct(a.statements.both, a.statements.truth)} of truth found; ${a.onlyOurs.length} only ours)`,
    `resolution of ${r.compared}: agree ${r.agree} (${pct(r.agree, r.compared)}; ${r.agreeInTree} to the same file in the tree), ours-only ${r.oursOnly.length}, truth-only ${r.truthOnly.length}, differ ${r.differ.length}${a.language === "python" ? `, module-name differ ${r.nameDiffer.length}` : ""}`,
  ].join("\n  ");
}
