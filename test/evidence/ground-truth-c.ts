/**
 * Ground truth for C/C++ includes: codecite's include edges (`lang/c-includes.ts`) against the
 * preprocessor's own dependency lists (`gcc -MM -MG`, GCC manual "Preprocessor Options"), file by
 * file, for the headers of the repository.
 *
 *   npx tsx test/evidence/ground-truth-c.ts <repo-dir> [--flags "-Iinclude -I."] [--details N]
 *
 * For each C/C++ source file (not headers), gcc lists every header the file reaches, transitively,
 * with the flags of the file's `compile_commands.json` entry when the tree has one (its `-I`,
 * `-iquote`, `-isystem`, `-D`, `-U`, `-std` options, run in the entry's `directory`), else with
 * `--flags`, run at the root; `-MG` keeps going past headers that are not there (system headers of
 * other platforms, generated ones). Headers outside the repository are dropped. codecite's list is
 * the transitive closure of its resolved include edges from the same file. Two figures:
 * - **precision** over codecite's headers reached through includes that are not flagged
 *   `conditional` (a conditional include may be switched off by the flags, which codecite does not
 *   evaluate), and over all of them;
 * - **recall** of gcc's headers by codecite's full closure (conditional includes included).
 * Files gcc cannot process (an `#error`, a syntax the compiler rejects) are counted and skipped.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { languageFor } from "../../src/evidence/analysis/lang/index.js";
import type { ProjectView, Resolution } from "../../src/evidence/analysis/lang/language.js";
import { shellWords } from "../../src/evidence/analysis/lang/c-includes.js";
import { extractFacts } from "../../src/evidence/analysis/tree-sitter.js";
import { folderProject } from "./lang-test-kit.js";

const SOURCE = /\.(c|cc|cpp|cxx|c\+\+)$/;
const HEADER_OR_SOURCE = /\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|h\+\+|inl|ipp|tpp)$/;

/** One include edge: target file and whether the include is conditional. */
interface Edge {
  to: string;
  conditional: boolean;
}

export interface IncludeAgreement {
  root: string;
  sources: number;
  skipped: string[];
  /** Headers in codecite's unconditional closure, and how many gcc lists too. */
  unconditional: { ours: number; agree: number };
  /** Headers in codecite's full closure, and how many gcc lists too. */
  all: { ours: number; agree: number };
  /** Headers gcc lists, and how many codecite's full closure has. */
  truth: { total: number; found: number };
  onlyOurs: string[];
  onlyTruth: string[];
}

/** The repository files a C/C++ file includes directly, resolved by codecite. */
async function includeEdges(project: ProjectView & { read(p: string): string }, file: string): Promise<Edge[]> {
  const lang = languageFor(file);
  if (lang === undefined) return [];
  const facts = await extractFacts(lang, project.read(file));
  const out: Edge[] = [];
  for (const ref of facts.imports) {
    const res: Resolution = await lang.resolve(ref, file, project);
    for (const to of res.files) out.push({ to, conditional: ref.flags?.includes("conditional") === true });
  }
  return out;
}

/** Compile flags that affect preprocessing, from a compile command. */
function preprocessorFlags(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let k = 1; k < args.length; k++) {
    const a = args[k] as string;
    const takesValue = ["-I", "-iquote", "-isystem", "-idirafter", "-D", "-U", "-include"].find((o) => a === o);
    if (takesValue !== undefined) {
      out.push(a, args[++k] ?? "");
    } else if (/^-(I|D|U|std=|iquote|isystem|idirafter)/.test(a)) {
      out.push(a);
    }
  }
  return out;
}

interface Entry {
  directory: string;
  flags: string[];
}

/** `compile_commands.json` entries of the tree by absolute file. */
function compileEntries(root: string, project: ProjectView): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const f of project.files) {
    if (!f.endsWith("compile_commands.json")) continue;
    let list: { directory?: string; file?: string; command?: string; arguments?: string[] }[];
    try {
      list = JSON.parse(readFileSync(path.join(root, f), "utf8")) as typeof list;
    } catch {
      continue;
    }
    for (const e of list) {
      if (typeof e.file !== "string") continue;
      const dir = path.resolve(path.join(root, path.dirname(f)), e.directory ?? ".");
      const args = e.arguments ?? shellWords(e.command ?? "");
      out.set(path.resolve(dir, e.file), { directory: dir, flags: preprocessorFlags(args) });
    }
  }
  return out;
}

/** The repository headers gcc lists for `file` (repository-relative), or `undefined` when gcc fails. */
function gccHeaders(root: string, file: string, entry: Entry | undefined, flags: readonly string[]): string[] | undefined {
  const abs = path.join(root, file);
  const cxx = !file.endsWith(".c");
  const cwd = entry?.directory ?? root;
  const args = ["-MM", "-MG", ...(cxx ? ["-x", "c++"] : ["-x", "c"]), ...(entry?.flags ?? flags), abs];
  const r = spawnSync(cxx ? "g++" : "gcc", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) return undefined;
  const words = r.stdout.replace(/\\\n/g, " ").split(/\s+/).filter((w) => w !== "");
  const out = new Set<string>();
  for (const w of words.slice(1)) {
    const p = path.resolve(cwd, w);
    const rel = path.relative(root, p).split(path.sep).join("/");
    if (rel.startsWith("..") || path.isAbsolute(rel) || rel === file) continue;
    if (!existsSync(p)) continue; // -MG: a header that is not there
    if (HEADER_OR_SOURCE.test(rel)) out.add(rel);
  }
  return [...out].sort();
}

/** The transitive closure of `file`'s include edges (not `file` itself). */
function closure(edges: Map<string, Edge[]>, file: string, withConditional: boolean): Set<string> {
  const seen = new Set<string>();
  const stack = [file];
  while (stack.length > 0) {
    const f = stack.pop() as string;
    for (const e of edges.get(f) ?? []) {
      if (e.conditional && !withConditional) continue;
      if (e.to === file || seen.has(e.to)) continue;
      seen.add(e.to);
      stack.push(e.to);
    }
  }
  return seen;
}

/** Compares codecite's include closures with gcc's for every source file of `root`. */
export async function compareIncludes(root: string, opts: { flags?: string[]; limit?: number; exclude?: RegExp } = {}): Promise<IncludeAgreement> {
  const project = folderProject(root);
  const files = project.files.filter((f) => !f.startsWith(".git/") && HEADER_OR_SOURCE.test(f) && languageFor(f) !== undefined);
  const edges = new Map<string, Edge[]>();
  for (const f of files) edges.set(f, await includeEdges(project, f));
  const entries = compileEntries(root, project);
  const result: IncludeAgreement = {
    root, sources: 0, skipped: [], unconditional: { ours: 0, agree: 0 }, all: { ours: 0, agree: 0 }, truth: { total: 0, found: 0 }, onlyOurs: [], onlyTruth: [],
  };
  const sources = files.filter((f) => SOURCE.test(f) && opts.exclude?.test(f) !== true).slice(0, opts.limit ?? Infinity);
  for (const f of sources) {
    const truth = gccHeaders(root, f, entries.get(path.join(root, f)), opts.flags ?? []);
    if (truth === undefined) {
      result.skipped.push(f);
      continue;
    }
    result.sources++;
    const truthSet = new Set(truth);
    const full = closure(edges, f, true);
    const firm = closure(edges, f, false);
    result.unconditional.ours += firm.size;
    for (const h of firm) if (truthSet.has(h)) result.unconditional.agree++;
    result.all.ours += full.size;
    for (const h of full) if (truthSet.has(h)) result.all.agree++;
    for (const h of firm) if (!truthSet.has(h)) result.onlyOurs.push(`${f} -> ${h}`);
    result.truth.total += truth.length;
    for (const h of truth) {
      if (full.has(h)) result.truth.found++;
      else result.onlyTruth.push(`${f} -> ${h}`);
    }
  }
  return result;
}

const ratio = (a: number, b: number): string => (b === 0 ? "n/a" : (a / b).toFixed(4));

/** One line of figures. */
export function summarizeIncludes(a: IncludeAgreement): string {
  return (
    `${a.root}: ${a.sources} sources (${a.skipped.length} skipped by gcc); ` +
    `precision ${ratio(a.unconditional.agree, a.unconditional.ours)} (${a.unconditional.agree}/${a.unconditional.ours}, unconditional includes), ` +
    `${ratio(a.all.agree, a.all.ours)} (${a.all.agree}/${a.all.ours}, all); ` +
    `recall ${ratio(a.truth.found, a.truth.total)} (${a.truth.found}/${a.truth.total})`
  );
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const args = process.argv.slice(2);
  const root = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--flags" && args[i - 1] !== "--details");
  if (root === undefined) {
    process.stderr.write('usage: ground-truth-c.ts <repo-dir> [--flags "-Iinclude"] [--details N]\n');
    process.exit(2);
  }
  const flagsAt = args.indexOf("--flags");
  const detailsAt = args.indexOf("--details");
  const a = await compareIncludes(path.resolve(root), { flags: flagsAt >= 0 ? shellWords(args[flagsAt + 1] ?? "") : [] });
  process.stdout.write(`${summarizeIncludes(a)}\n`);
  const n = detailsAt >= 0 ? Number(args[detailsAt + 1] ?? "10") : 0;
  if (n > 0) {
    process.stdout.write(`only codecite (${a.onlyOurs.length}):\n${a.onlyOurs.slice(0, n).map((s) => `  ${s}\n`).join("")}`);
    process.stdout.write(`only gcc (${a.onlyTruth.length}):\n${a.onlyTruth.slice(0, n).map((s) => `  ${s}\n`).join("")}`);
    process.stdout.write(`skipped: ${a.skipped.slice(0, n).join(", ")}\n`);
  }
}
