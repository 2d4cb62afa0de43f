/**
 * C and C++ `#include` edges: found in the text (so includes inside error-recovered regions,
 * initialisers and `extern "C"` blocks count) and resolved to files of the repository.
 *
 * Extraction: every `#include`, `#include_next` and `#import` directive (C11 §6.10.2) outside
 * comments, one {@link ImportRef} each; `specifier` is the header as written between the quotes or
 * angle brackets (`uv.h`, `leveldb/db.h`). A quoted include carries no extra flag, an angle one
 * the flag `system`; an include inside `#if`/`#ifdef`/`#ifndef` carries `conditional`, except inside
 * the file's include guard (a first `#ifndef X` / `#if !defined(X)` directly followed by `#define X`
 * whose `#endif` is the last directive). A computed include (`#include FOO_H`) carries `unresolved`.
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
 *    else the JSON file's folder stands in for it; include folders outside the root are ignored.
 * 3. Common layouts: for each folder from the including file's up to the root, `<folder>/include/x.h`
 *    and (quoted includes only) `<folder>/x.h`.
 * 4. Quoted includes only: the one repository file whose path ends in `/x.h`, when exactly one does.
 * An angle include resolves only through 2 and 3 (so `<stdio.h>` stays external); anything not found
 * is external (a system or generated header).
 */
import type { ImportRef, ProjectView, Resolution } from "./language.js";
import { isWithin, joinPath, memoize, parentDir } from "./project-files.js";

/** Flag of an include written with angle brackets. */
const SYSTEM_INCLUDE_FLAG = "system";
/** Flag of an include inside a preprocessor conditional (other than the include guard). */
const CONDITIONAL_INCLUDE_FLAG = "conditional";

interface Directive {
  /** 1-based line of the `#`. */
  line: number;
  /** Last line (continuations with a trailing backslash). */
  end: number;
  name: string;
  arg: string;
}

/**
 * The text with comments blanked (newlines kept) and the preprocessor directives found in it.
 * String and character literals are skipped so that `"/*"` opens no comment.
 */
function directives(source: string): Directive[] {
  const out: Directive[] = [];
  const n = source.length;
  let line = 1;
  let atLineStart = true;
  let i = 0;
  while (i < n) {
    const c = source[i] as string;
    if (c === "\n") {
      line++;
      atLineStart = true;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
      i++;
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      const close = source.indexOf("*/", i + 2);
      const stop = close < 0 ? n : close + 2;
      for (let k = i; k < stop; k++) if (source[k] === "\n") line++;
      i = stop;
      continue;
    }
    if (c === "/" && source[i + 1] === "/") {
      while (i < n && source[i] !== "\n") i++;
      continue;
    }
    if (c === "#" && atLineStart) {
      // One logical line: continuations joined, comments blanked.
      const start = line;
      let text = "";
      i++;
      while (i < n && source[i] !== "\n") {
        const d = source[i] as string;
        if (d === "\\" && (source[i + 1] === "\n" || (source[i + 1] === "\r" && source[i + 2] === "\n"))) {
          i += source[i + 1] === "\r" ? 3 : 2;
          line++;
          text += " ";
          continue;
        }
        if (d === "/" && source[i + 1] === "*") {
          const close = source.indexOf("*/", i + 2);
          const stop = close < 0 ? n : close + 2;
          for (let k = i; k < stop; k++) if (source[k] === "\n") line++;
          i = stop;
          text += " ";
          continue;
        }
        if (d === "/" && source[i + 1] === "/") {
          while (i < n && source[i] !== "\n") i++;
          break;
        }
        text += d;
        i++;
      }
      const m = /^\s*([A-Za-z_]\w*)\s*([\s\S]*)$/.exec(text);
      if (m !== null) out.push({ line: start, end: line, name: m[1] as string, arg: (m[2] as string).trim() });
      atLineStart = false;
      continue;
    }
    atLineStart = false;
    if (c === '"' || c === "'") {
      // A literal ends at its closing quote or at the end of the line (an unterminated one).
      i++;
      while (i < n && source[i] !== c && source[i] !== "\n") i += source[i] === "\\" ? 2 : 1;
      if (source[i] === c) i++;
      continue;
    }
    i++;
  }
  return out;
}

const OPENERS = new Set(["if", "ifdef", "ifndef"]);

/** The index of the `#endif` closing the conditional opened at `start`, or -1. */
function closingEndif(list: readonly Directive[], start: number): number {
  let depth = 0;
  for (let k = start; k < list.length; k++) {
    const name = (list[k] as Directive).name;
    if (OPENERS.has(name)) depth++;
    else if (name === "endif" && --depth === 0) return k;
  }
  return -1;
}

/** The macro an include guard tests (`#ifndef X`, `#if !defined(X)`, `#if !defined X`), else undefined. */
function guardMacro(d: Directive): string | undefined {
  if (d.name === "ifndef") return /^([A-Za-z_]\w*)\s*$/.exec(d.arg)?.[1];
  if (d.name === "if") return /^!\s*defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))\s*$/.exec(d.arg)?.slice(1).find((x) => x !== undefined);
  return undefined;
}

/** The `#include` statements of a C or C++ source (rules in the module comment). */
export function cIncludes(source: string): ImportRef[] {
  const list = directives(source);
  // The include guard's conditional does not make the file's includes conditional.
  let guardEnd = -1;
  const first = list[0];
  const macro = first === undefined ? undefined : guardMacro(first);
  if (macro !== undefined && list[1]?.name === "define" && list[1].arg.split(/[\s(]/)[0] === macro) {
    const close = closingEndif(list, 0);
    if (close === list.length - 1) guardEnd = close;
  }
  const refs: ImportRef[] = [];
  let depth = 0;
  list.forEach((d, k) => {
    if (OPENERS.has(d.name)) depth++;
    else if (d.name === "endif") depth = Math.max(0, depth - 1);
    if (d.name !== "include" && d.name !== "include_next" && d.name !== "import") return;
    const conditional = depth > (guardEnd >= 0 && k < guardEnd ? 1 : 0);
    const flags: string[] = [];
    const quoted = /^"([^"\n]+)"/.exec(d.arg);
    const angled = quoted === null ? /^<([^>\n]+)>/.exec(d.arg) : null;
    let specifier: string;
    if (quoted !== null) specifier = quoted[1] as string;
    else if (angled !== null) {
      specifier = angled[1] as string;
      flags.push(SYSTEM_INCLUDE_FLAG);
    } else {
      specifier = d.arg.split(/\s+/)[0] ?? "";
      if (specifier === "") return;
      flags.push("unresolved");
    }
    if (conditional) flags.push(CONDITIONAL_INCLUDE_FLAG);
    const ref: ImportRef = { specifier: specifier.trim(), start_line: d.line, end_line: d.end };
    if (flags.length > 0) ref.flags = flags;
    refs.push(ref);
  });
  return refs;
}

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
      dirs.push({ dir: rel, quoteOnly: opt.quoteOnly });
      const key = `${rel}\0${opt.quoteOnly}`;
      if (!seen.has(key)) {
        seen.add(key);
        db.all.push({ dir: rel, quoteOnly: opt.quoteOnly });
      }
    }
    db.byFile.set(file, dirs);
    files.push(file);
  }
  // The project the database describes: its sources and their include folders (`x` of `x/a.h`).
  db.scope = commonFolder([...files, ...db.all.map((d) => `${d.dir}/x`)]);
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
  if (ref.flags?.includes("unresolved") === true) return { files: [], module: ref.specifier, external: true, unresolved: true };
  const quoted = ref.flags?.includes(SYSTEM_INCLUDE_FLAG) !== true;
  const file = await findHeader(project, ref.specifier, fromFile, quoted);
  if (file === undefined) return { files: [], module: ref.specifier, external: true };
  return { files: [file], module: file, external: false };
}

/** Text every file including `file` contains: its base name (`#include "x/y.h"` names `y.h`). */
export function includeHints(file: string): Promise<{ literals: string[] }> {
  return Promise.resolve({ literals: [file.slice(file.lastIndexOf("/") + 1)] });
}
