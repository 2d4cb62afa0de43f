/**
 * Helpers for the Go/Rust/Java language-module tests: parse a source with a language's grammar,
 * build {@link ProjectView}s over a fixture folder or in memory, and run `find_symbol` /
 * `find_importers` end to end over a fixture.
 */
import { renderForModel } from "../../src/evidence/advice.js";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution } from "../../src/evidence/analysis/lang/language.js";
import type { Evidence } from "../../src/evidence/evidence.js";
import { findImporters } from "../../src/evidence/importers.js";
import { findReferences } from "../../src/evidence/references.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { extractFacts } from "../../src/evidence/analysis/tree-sitter.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { findImportersInput, findSymbolInput } from "../../src/tools/code-tool-inputs.js";

/** Absolute path of `test/fixtures/<name>`. */
export function fixtureDir(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}

/** `test/fixtures/<name>` (absolute `root`) and a read-only {@link folderProject} view over it. */
export function fixtureProject(name: string): { root: string; project: ReturnType<typeof folderProject> } {
  const root = fixtureDir(name);
  return { root, project: folderProject(root) };
}

/**
 * True when `command ...args` starts and exits with status 0 (output ignored): whether a
 * toolchain (go, cargo, javac) is installed for the cross-check suites, which skip otherwise.
 */
export function hasTool(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: "ignore" }).status === 0;
}

/**
 * A fresh folder `<os tmpdir>/<prefix>XXXXXX`, removed with everything in it by an `afterAll` hook
 * of the enclosing `describe` block; call it inside a `describe` callback.
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Parses `source` with the language's grammar (B1's runtime) and runs its `extract`. */
export function factsOf(lang: LanguageSpec, source: string): Promise<FileFacts> {
  return extractFacts(lang, source);
}

/** The definitions the language's `extract` finds in `file` of a folder project. */
export async function symbolsIn(lang: LanguageSpec, project: ReturnType<typeof folderProject>, file: string): Promise<FileFacts["symbols"]> {
  return (await factsOf(lang, project.read(file))).symbols;
}

/** A read-only view over files kept in memory (path → text). */
export function memoryProject(files: Record<string, string>): ProjectView {
  const paths = Object.keys(files).sort();
  return {
    files: paths,
    has: (p) => Object.hasOwn(files, p),
    readText: (p) => Promise.resolve(Object.hasOwn(files, p) ? files[p] : undefined),
  };
}

/** A read-only view over a folder on disk (every file below it, `/`-separated, sorted). */
export function folderProject(root: string): ProjectView & { read(path: string): string } {
  const files = (readdirSync(root, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath, d.name)).split(sep).join("/"))
    .sort();
  const set = new Set(files);
  const read = (p: string): string => readFileSync(join(root, p), "utf8");
  return {
    files,
    has: (p) => set.has(p),
    readText: (p) => Promise.resolve(set.has(p) ? read(p) : undefined),
    read,
  };
}

/** An import of a project file with its resolution, for compact assertions. */
export interface ResolvedImport {
  file: string;
  line: number;
  end: number;
  specifier: string;
  alias?: string;
  names?: string[];
  flags?: string[];
  module: string;
  files: string[];
  external: boolean;
}

/** Extracts and resolves every import of `file` in `project`. */
export async function resolvedImports(lang: LanguageSpec, project: ReturnType<typeof folderProject>, file: string): Promise<ResolvedImport[]> {
  const facts = await factsOf(lang, project.read(file));
  const out: ResolvedImport[] = [];
  for (const ref of facts.imports) out.push(summarize(file, ref, await lang.resolve(ref, file, project)));
  return out;
}

function summarize(file: string, ref: ImportRef, res: Resolution): ResolvedImport {
  const r: ResolvedImport = {
    file,
    line: ref.start_line,
    end: ref.end_line,
    specifier: ref.specifier,
    module: res.module,
    files: res.files,
    external: res.external,
  };
  if (ref.alias !== undefined) r.alias = ref.alias;
  if (ref.names !== undefined) r.names = ref.names;
  if (ref.flags !== undefined) r.flags = ref.flags;
  return r;
}

/** One evidence record in a compact, exact form: `path:start-end name [alias=…] [flags=…] | first snippet line`. */
function compact(e: Evidence): string {
  const extras = [e.alias !== undefined ? `alias=${e.alias}` : "", e.flags !== undefined ? `flags=${e.flags.join(",")}` : "", e.symbol_kind ?? ""]
    .filter((x) => x !== "")
    .join(" ");
  return `${e.path}:${e.start_line}-${e.end_line} ${e.name}${extras === "" ? "" : ` ${extras}`} | ${e.snippet.split("\n")[0] ?? ""}`;
}

/** `find_importers` over a fixture folder through the real tool code (B1), records in compact form. */
export async function importersOf(root: string, moduleName: string): Promise<{ records: string[]; note?: string; total: number }> {
  const ws = await Workspace.open(root);
  const r = await findImporters(ws, findImportersInput.parse({ module_name: moduleName }));
  return { records: r.evidence.map(compact), total: r.total, ...(r.note !== undefined ? { note: renderForModel(r.note) } : {}) };
}

/** `find_symbol` over a fixture folder through the real tool code (B1), records in compact form. */
export async function definitionsOf(root: string, name: string, kind?: string): Promise<{ records: string[]; snippets: string[] }> {
  const ws = await Workspace.open(root);
  const r = await findSymbol(ws, findSymbolInput.parse(kind === undefined ? { name } : { name, kind }));
  return { records: r.evidence.map(compact), snippets: r.evidence.map((e) => e.snippet) };
}

/**
 * `find_references` of `name` (in file `path` when given) over the files `files` (path → text)
 * written into `dir` (a {@link scratchDir}), records as `path:line flags`.
 */
export async function referencesIn(dir: string, files: Record<string, string>, name: string, path?: string): Promise<string[]> {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const ws = await Workspace.open(dir);
  const r = await findReferences(ws, { name, max_results: 200, ...(path !== undefined ? { path } : {}) });
  return r.evidence.map((e) => `${e.path}:${e.start_line} ${(e.flags ?? []).join(",")}`);
}
