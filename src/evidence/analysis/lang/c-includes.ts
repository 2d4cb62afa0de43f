/**
 * C and C++ `#include` edges resolved to files of the repository. The includes themselves are
 * read lexically from the text (`c-directives.ts`: so includes inside error-recovered regions,
 * initialisers and `extern "C"` blocks count, and no parse is needed): `specifier` as written,
 * flags `system` (angle brackets), `conditional`, `unresolved` (a computed include).
 *
 * Resolution (the search order of GCC, https://gcc.gnu.org/onlinedocs/cpp/Search-Path.html, with the
 * flags a build would pass taken from `compile_commands.json`,
 * https://clang.llvm.org/docs/JSONCompilationDatabase.html):
 * 1. `"x.h"` only: the including file's folder.
 * 2. The include folders (`-iquote` for quoted includes only, `-I`, `-isystem`, `-idirafter`, also
 *    `/I`) of the including file's entry in any `compile_commands.json` of the tree; a file without an
 *    entry (a header) takes the folders of every database whose project lies around it (below the
 *    nearest folder holding the database's files and include folders), else of every database. A database's
 *    `directory` is used when relative (to the JSON file's folder) or absolute inside the root (the
 *    root's absolute path is inferred from entries whose absolute `file` ends in a repository path),
 *    else the JSON file's folder stands in for it; include folders outside the root or not in the tree
 *    are ignored, and only the first 1,000 are kept per entry and per database.
 * 3. Common layouts: for each folder from the including file's up to the root, `<folder>/include/x.h`
 *    and (quoted includes only) `<folder>/x.h`.
 * 4. Quoted includes only: the one repository file whose path ends in `/x.h`, when exactly one does.
 * An angle include resolves only through 2 and 3 (so `<stdio.h>` stays external); anything not found
 * is external (a system or generated header).
 */
import type { ImportRef, ProjectView, Resolution } from "./language.js";
import { SYSTEM_INCLUDE_FLAG, UNRESOLVED_INCLUDE_FLAG } from "./c-directives.js";
import { foldersOf, isWithin, joinPath, memoize, parentDir } from "./project-files.js";

/** Include folders of one compilation database. */
interface Database {
  /** Repository-relative file → its include folders (quoted-only folders marked). */
  byFile: Map<string, IncludeDir[]>;
  /** Every include folder of the database, in order of first use. */
  all: IncludeDir[];
  /** The nearest folder holding every entry's file and include folder (`''` for the root). */
  scope: string;
}

interface IncludeDir {
  dir: string;
  /** `-iquote`: searched for `"x.h"` only. */
  quoteOnly: boolean;
}

/** Splits a shell command line into words (single and double quotes, backslash escapes). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let cur = "";
  let has = false;
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < command.length) cur += command[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === "\\" && i + 1 < command.length) {
      cur += command[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) words.push(cur);
      cur = "";
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) words.push(cur);
  return words;
}

/** Include-folder options of a compiler command, in order, as written (`-Ifoo`, `-I foo`, `/Ifoo`). */
function includeOptions(args: readonly string[]): { path: string; quoteOnly: boolean }[] {
  const out: { path: string; quoteOnly: boolean }[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as string;
    for (const opt of ["-iquote", "-isystem", "-idirafter", "-I", "/I"]) {
      if (!a.startsWith(opt)) continue;
      const rest = a.slice(opt.length);
      const value = rest !== "" ? rest.replace(/^=/, "") : args[++k];
      if (value !== undefined && value !== "") out.push({ path: value, quoteOnly: opt === "-iquote" });
      break;
    }
  }
  return out;
}

/** The absolute folder of the repository root as the database's absolute `file` paths show it. */
function inferRootPrefix(project: ProjectView, absFiles: readonly string[]): string | undefined {
  const votes = new Map<string, number>();
  for (const abs of absFiles) {
    const parts = abs.split("/");
    // The longest tail of the path that is a repository file.
    for (let k = 1; k < parts.length; k++) {
      const rel = parts.slice(k).join("/");
      if (project.has(rel)) {
        const prefix = parts.slice(0, k).join("/") || "/";
        votes.set(prefix, (votes.get(prefix) ?? 0) + 1);
        break;
      }
    }
  }
  let best: string | undefined;
  let bestVotes = 0;
  for (const [prefix, n] of votes) if (n > bestVotes) [best, bestVotes] = [prefix, n];
  return best;
}

function isAbsolute(p: string): boolean {
  return p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p);
}

/** A repository-relative path for `p` (absolute, or relative to `base`); `undefined` outside the root. */
function toRelative(p: string, base: string, rootPrefix: string | undefined): string | undefined {
  const norm = p.replace(/\\/g, "/");
  if (!isAbsolute(norm)) return joinPath(base, norm);
  if (rootPrefix === undefined) return undefined;
  if (norm === rootPrefix) return "";
  const prefix = rootPrefix.endsWith("/") ? rootPrefix : `${rootPrefix}/`;
  return norm.startsWith(prefix) ? joinPath(norm.slice(prefix.length)) : undefined;
}

/** Include folders kept per compilation database entry, and per database (real ones hold a few dozen). */
const MAX_INCLUDE_DIRS = 1000;

interface RawEntry {
  directory?: unknown;
  file?: unknown;
  command?: unknown;
  arguments?: unknown;
}

/** Reads one `compile_commands.json` (rules in the module comment); `undefined` when unreadable. */
async function readDatabase(project: ProjectView, jsonPath: string): Promise<Database | undefined> {
  const text = await project.readText(jsonPath);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(raw)) return undefined;
  const entries = raw.filter((e): e is RawEntry => typeof e === "object" && e !== null);
  const home = parentDir(jsonPath);
  const absFiles: string[] = [];
  for (const e of entries) {
    if (typeof e.file === "string" && isAbsolute(e.file)) absFiles.push(e.file.replace(/\\/g, "/"));
  }
  const rootPrefix = inferRootPrefix(project, absFiles);
  const db: Database = { byFile: new Map(), all: [], scope: "" };
  const seen = new Set<string>();
  const files: string[] = [];
  /** Every include folder named (for the scope), and the folders of the tree. */
  const named = new Set<string>();
  const folders = foldersOf(project);
  for (const e of entries) {
    if (typeof e.file !== "string") continue;
    const dirText = typeof e.directory === "string" ? e.directory : "";
    const dir = (dirText === "" ? home : toRelative(dirText, home, rootPrefix)) ?? home;
    const file = toRelative(e.file, dir, rootPrefix);
    if (file === undefined) continue;
    const args = Array.isArray(e.arguments)
      ? e.arguments.filter((a): a is string => typeof a === "string")
      : typeof e.command === "string"
        ? shellWords(e.command)
        : [];
    const dirs: IncludeDir[] = [];
    for (const opt of includeOptions(args)) {
      const rel = toRelative(opt.path, dir, rootPrefix);
      if (rel === undefined) continue;
      named.add(rel);
      // Every include is tried in each folder of its list, so only folders of the tree are kept
      // (one that is not holds no header to find: generated, or outside), at most
      // MAX_INCLUDE_DIRS per entry and per database: a hostile database of a hundred thousand
      // `-I` folders made each of thousands of includes try them all (minutes of CPU).
      if (!folders.has(rel) || dirs.length >= MAX_INCLUDE_DIRS) continue;
      dirs.push({ dir: rel, quoteOnly: opt.quoteOnly });
      const key = `${rel}\0${opt.quoteOnly}`;
      if (!seen.has(key) && db.all.length < MAX_INCLUDE_DIRS) {
        seen.add(key);
        db.all.push({ dir: rel, quoteOnly: opt.quoteOnly });
      }
    }
    db.byFile.set(file, dirs);
    files.push(file);
  }
  // The project the database describes: its sources and their include folders (`x` of `x/a.h`),
  // those not in the tree included.
  db.scope = commonFolder([...files, ...[...named].map((d) => `${d}/x`)]);
  return db;
}

/** The nearest folder containing every path (`''` when none or only the root does). */
function commonFolder(paths: readonly string[]): string {
  let common: string[] | undefined;
  for (const p of paths) {
    const parts = parentDir(p).split("/").filter((s) => s !== "");
    if (common === undefined) common = parts;
    else {
      let k = 0;
      while (k < common.length && k < parts.length && common[k] === parts[k]) k++;
      common = common.slice(0, k);
    }
  }
  return (common ?? []).join("/");
}

/** Every compilation database of the tree, read once per view. */
function databases(project: ProjectView): Promise<Database[]> {
  return memoize(project, "c:compile-commands", async () => {
    const out: Database[] = [];
    for (const f of project.files) {
      if (f !== "compile_commands.json" && !f.endsWith("/compile_commands.json")) continue;
      const db = await readDatabase(project, f);
      if (db !== undefined) out.push(db);
    }
    return out;
  });
}

/** The include folders that apply to `file` (step 2 of the module comment), computed once per file and view. */
function includeDirsFor(project: ProjectView, file: string): Promise<IncludeDir[]> {
  const memo = memoize(project, "c:include-dirs", () => new Map<string, Promise<IncludeDir[]>>());
  let dirs = memo.get(file);
  if (dirs === undefined) {
    dirs = computeIncludeDirs(project, file);
    memo.set(file, dirs);
  }
  return dirs;
}

async function computeIncludeDirs(project: ProjectView, file: string): Promise<IncludeDir[]> {
  const dbs = await databases(project);
  if (dbs.length === 0) return [];
  for (const db of dbs) {
    const own = db.byFile.get(file);
    if (own !== undefined) return own;
  }
  const around = dbs.filter((db) => isWithin(file, db.scope));
  // Files under the same databases share one list (and so the headers found from their folders).
  const shared = memoize(project, "c:include-dirs-around", () => new Map<string, IncludeDir[]>());
  const key = around.map((db) => dbs.indexOf(db)).join(",");
  const known = shared.get(key);
  if (known !== undefined) return known;
  const out: IncludeDir[] = [];
  const seen = new Set<string>();
  for (const db of around.length > 0 ? around : dbs) {
    for (const d of db.all) {
      const key = `${d.dir}\0${d.quoteOnly}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(d);
      }
    }
  }
  shared.set(key, out);
  return out;
}

/** Repository files by base name, built once per view (for step 4). */
function filesByBaseName(project: ProjectView): Map<string, string[]> {
  return memoize(project, "c:by-base-name", () => {
    const map = new Map<string, string[]>();
    for (const f of project.files) {
      const base = f.slice(f.lastIndexOf("/") + 1);
      const list = map.get(base);
      if (list === undefined) map.set(base, [f]);
      else list.push(f);
    }
    return map;
  });
}

/**
 * The repository file an include names, found by the steps of the module comment; the answer
 * depends only on the includer's folder and include folders, so it is kept per view for those
 * (the headers of one folder include the same headers over and over).
 */
async function findHeader(project: ProjectView, header: string, fromFile: string, quoted: boolean): Promise<string | undefined> {
  const dirs = await includeDirsFor(project, fromFile);
  const ids = memoize(project, "c:include-dir-ids", () => new WeakMap<IncludeDir[], number>());
  let id = ids.get(dirs);
  if (id === undefined) {
    id = memoize(project, "c:include-dir-count", () => ({ n: 0 })).n++;
    ids.set(dirs, id);
  }
  const memo = memoize(project, "c:found-headers", () => new Map<string, string | undefined>());
  const key = `${id}\0${parentDir(fromFile)}\0${quoted ? "q" : "s"}\0${header}`;
  if (memo.has(key)) return memo.get(key);
  const found = searchHeader(project, header, fromFile, quoted, dirs);
  memo.set(key, found);
  return found;
}

function searchHeader(project: ProjectView, header: string, fromFile: string, quoted: boolean, dirs: readonly IncludeDir[]): string | undefined {
  const at = (dir: string): string | undefined => {
    const p = joinPath(dir, header);
    return p !== undefined && p !== "" && project.has(p) ? p : undefined;
  };
  const here = parentDir(fromFile);
  if (quoted) {
    const local = at(here);
    if (local !== undefined) return local;
  }
  for (const d of dirs) {
    if (d.quoteOnly && !quoted) continue;
    const hit = at(d.dir);
    if (hit !== undefined) return hit;
  }
  for (let dir: string | undefined = here; dir !== undefined; dir = dir === "" ? undefined : parentDir(dir)) {
    const inc = at(dir === "" ? "include" : `${dir}/include`);
    if (inc !== undefined) return inc;
    if (quoted) {
      const plain = at(dir);
      if (plain !== undefined) return plain;
    }
  }
  if (!quoted || header.startsWith("../") || header.startsWith("/")) return undefined;
  const base = header.slice(header.lastIndexOf("/") + 1);
  const tail = `/${header.replace(/^\.\//, "")}`;
  const matches = (filesByBaseName(project).get(base) ?? []).filter((f) => `/${f}`.endsWith(tail));
  return matches.length === 1 ? matches[0] : undefined;
}

/** Resolves one `#include` of `fromFile` (rules in the module comment). Never throws. */
export async function resolveInclude(ref: ImportRef, fromFile: string, project: ProjectView): Promise<Resolution> {
  if (ref.flags?.includes(UNRESOLVED_INCLUDE_FLAG) === true) return { files: [], module: ref.specifier, external: true, unresolved: true };
  const quoted = ref.flags?.includes(SYSTEM_INCLUDE_FLAG) !== true;
  const file = await findHeader(project, ref.specifier, fromFile, quoted);
  if (file === undefined) return { files: [], module: ref.specifier, external: true };
  return { files: [file], module: file, external: false };
}

/** Text every file including `file` contains: its base name (`#include "x/y.h"` names `y.h`). */
export function includeHints(file: string): { literals: string[] } {
  return { literals: [file.slice(file.lastIndexOf("/") + 1)] };
}
