/**
 * `find_importers`: the files that import a module, one `import` record per import statement
 * (rules per language in `lang/<language>.ts`).
 *
 * **Reading `module_name`** (first rule that finds something wins):
 * 0. before all, a **PHP qualified name** (`Slim\Routing\Route`, backslashes possibly doubled) is matched
 *    against the names PHP files carry, else read as a name outside the tree (rule 5);
 * 1. a **path** (has a `/`, a source file ending, or names a file): a repository-relative file
 *    (`src/rag_common.py`), a folder with an `__init__.py`/`index.*`/package entry, a folder that
 *    is a package of its own (Go: `internal/store` → its `.go` files, `LanguageSpec.packageFiles`),
 *    a path without its ending (`src/rag_common`), or a unique trailing part of a path
 *    (`rag_common.py`). An absolute path inside the root is made relative; any other absolute path
 *    or `..` path is read inside the root and never opens anything outside it (it simply matches
 *    nothing);
 * 2. a **module name** matched exactly against the names each language gives its files
 *    (`LanguageSpec.moduleNames`, indexed once per tree snapshot): dotted Python and Java names
 *    (`pkg.rag_common`, `rag_common` under a `src/` root), Rust paths (`crate::config`,
 *    `shop::store::memory`), Go import paths (`example.com/shop/internal/store`); a name several
 *    files carry (a Go package, one Python name under two roots) targets all of them;
 * 3. a **specifier** resolved as if written in a file at the root (tsconfig `paths`, workspace
 *    packages: `@/utils`, `@acme/ui`);
 * 4. a unique **trailing part** of a module name (`rag_common` → `pkg.rag_common`,
 *    `store::memory` → `crate::store::memory`, `store` → a Go package `…/store`) or of a JS/TS
 *    module path (`Button` → `src/components/Button.tsx`); several candidates (one per file, or per
 *    package folder for Go) are an `INVALID_ARGUMENT` error that lists them. But when files of the
 *    candidates' language family import the query itself as a name (rule 5: `import flask`,
 *    external or top-level, next to a nested `pkg/inner/flask.py`), that exact reading wins and
 *    `note` names the trailing-part candidates;
 * 5. otherwise a **name** of a module outside the tree: imports that resolve outside the tree
 *    and carry that name match (`numpy` matches `from numpy import linalg`, Java `java.util`
 *    matches `import java.util.List`; `LanguageSpec.matchesExternal`, `lang/external-match.ts`),
 *    as do resolutions whose module name is exactly the query (Go import paths, Java names, Python
 *    namespace packages). When imports
 *    written exactly as the query resolve to files of the tree (an alias only some projects
 *    define, such as `~/Button` under `web/jsconfig.json`), those files become the targets and
 *    the search runs again, so importers using other specifiers are found too.
 *
 * **Submodules**: one rule for modules of the repository and outside it — the exact module by
 * default (`flask` is not `flask.globals`, `numpy` is not `numpy.linalg`, `react` is not
 * `react/jsx-runtime`), and with `include_submodules` the module and every module under it (the
 * targets grow by `withSubmodules`; external names match below the query).
 *
 * **Matching**: an import matches when its resolution (`LanguageSpec.resolve`) reaches a target
 * file other than the importing file itself (a `.d.ts` is never an importer of its own module; a
 * Go external test package does import the other files of its folder). A
 * JS/TS `import()`/`require()` whose argument is not a literal is not an import of any file: its
 * static prefix (`./locale/` of `` `./locale/${l}.js` ``) may lead to a target, and then `note` names
 * it as a computed import that could reach the module, but no record is made.
 * Only files of the target's language family are read, and of those only the files whose text
 * mentions the target (`text-prefilter.ts`, `LanguageSpec.importerHints`; for a module known by
 * name only, `LanguageSpec.importerNameHints`: Python and JS/TS look at import lines and
 * specifiers, not at every use of the word). A candidate whose facts must be parsed is first read
 * by a lexical scan of its import statements (`import-scan.ts`, for Python, JS/TS, Go, Java and
 * Rust): when none of them can name the target (its stem, folder name or the language's hints;
 * for a name, its last part as a whole name), the file is not parsed. Files of a language whose
 * imports are read from the text (`LanguageSpec.lexicalImports`: C/C++ includes, Python import
 * statements) are not parsed: their imports come from `lexical-imports.ts` (kept across processes
 * like facts; the same screen rules out a file read now), except a Python file the reader leaves to
 * the parse (dynamic imports: `lang/python-imports.ts`). Facts come from the
 * cache (`facts.ts`), resolutions are kept per tree snapshot for unchanged facts, and the file list
 * and resolver data come from the workspace's warm tree state (`project-view.ts`), so a warm query
 * costs about one ripgrep run. A new process over an unchanged tree reuses the module-name index and
 * the resolutions an earlier one kept in the fact cache (`loadDerived`: same walk, every file the
 * resolvers read unchanged; a file's resolutions are reused while its imports are the same), the
 * reading of the query (target files, prefilter needles, screen keys; `KeptPlan`), and the import
 * scans of the files the screen ruled out (`KeptScan`: a file whose size, mtime, ctime and inode are
 * unchanged, under the fact cache's racy rule, is ruled out again from its scan without being read).
 * Snippets are read only for the records the budget can show.
 *
 * **Records**: `kind: "import"`, `name` = the resolved module (`pkg.rag_common`, `src/util.ts`,
 * `numpy.linalg`), the whole statement's lines, `alias` (only when it renames that module:
 * `import a.b as c`, `from a import b as c` with `b` a submodule — not `from a import f as g`;
 * `Resolution.memberAlias`), `flags` (`type_checking`, `type_only`,
 * `dynamic`, `unresolved`), `language`. Ordered by path and line; budgeted by `budget.ts`.
 */
import { advice, joinAdvice, listAdvice, location, param, plain, shortList, type AdviceText, type Term } from "./advice.js";
import path from "node:path";
import type { FindImportersArgs } from "./args.js";
import { compareEvidence, throwIfAborted, type Evidence, type EvidenceResult, ToolError } from "./evidence.js";
import { applyBudget, recordsShown, scopedBudget, type OutputScope } from "./budget.js";
import { mapLimit } from "./concurrency.js";
import { closeNames } from "./close-names.js";
import { describeFactsSkips, loadFacts, type FactsMap } from "./analysis/facts.js";
import { familyEndings, familyOf, languageFor, LANGUAGES } from "./analysis/lang/index.js";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution } from "./analysis/lang/language.js";
import { jsImporterHints, jsResolver } from "./analysis/lang/js-resolve.js";
import { isDottedName, pythonLayout } from "./analysis/lang/python-layout.js";
import { isWithin, joinPath, memoize, parentDir } from "./analysis/lang/project-files.js";
import { matchesModulePath } from "./analysis/lang/external-match.js";
import { linesEvidence, rangeEvidence } from "./line-evidence.js";
import { changedSince, keptStat, keptStatHolds, listIsComplete, loadDerived, saveDerived, statFiles, treeSnapshot, type KeptStat, type TreeSnapshot } from "./analysis/project-view.js";
import { rememberedMentions } from "./analysis/mention-index.js";
import type { FileStat } from "../fact-cache/fact-index.js";
import type { Needles } from "./analysis/text-prefilter.js";
import { importsMayName, scanImports, scansFamily, type ImportKeys, type ImportScan } from "./analysis/import-scan.js";
import type { Workspace } from "./sandbox/workspace.js";
import { loadLexicalImports, readsImportsLexically, saveLexicalImports, type LexicalFile } from "./analysis/lexical-imports.js";

/** Longest accepted `module_name`, in characters. */
export const MAX_MODULE_NAME_CHARS = 1000;

/** A PHP qualified name: two or more parts joined by backslashes (also doubled, as in JSON), optionally led by one. */
const PHP_NAME = /^\\{0,2}[A-Za-z_]\w*(?:\\{1,2}[A-Za-z_]\w*)+$/;

/** What a query names. */
interface QueryTarget {
  /** Target files; empty for a name-only query. */
  files: Set<string>;
  /** How the query was read, for the note of an empty result. */
  reading?: string;
  /** Said in the note whatever the result (e.g. a name that several files carry). */
  note?: string;
  /**
   * Set when rule 4 (a trailing part) read the query: its candidates (`name (files)`). The exact
   * name, when something imports it, wins over them (`findImporters`).
   */
  trailing?: { candidates: string[]; families: Set<string>; ambiguity?: ToolError };
  /** Families searched by a name-only query; absent → every family. */
  families?: Set<string>;
}

/** Files that are not source of any language but are imported by JS/TS (`.css`, `.json`, `.svg` …) belong to the `js` family. */
function familyOfFile(file: string): string {
  const lang = languageFor(file);
  return lang === undefined ? "js" : familyOf(lang);
}

function stemOf(file: string): string {
  const base = file.slice(file.lastIndexOf("/") + 1);
  return base.replace(/(\.d)?\.[^.]+$/, "");
}

/** A JS/TS module path: the path without its ending, and without a final `/index`. */
function jsModulePath(file: string): string {
  const noExt = file.replace(/(\.d)?\.[^./]+$/, "");
  return noExt.endsWith("/index") ? noExt.slice(0, -"/index".length) : noExt;
}

/** Validates `module_name` and strips an `import x` / `from x import …` wrapper a model may send. */
function checkModuleName(raw: string): { query: string; unwrapped: boolean } {
  if (raw.length > MAX_MODULE_NAME_CHARS) {
    throw new ToolError("INVALID_ARGUMENT", advice`${param("module_name")} is too long (${raw.length} characters; limit ${MAX_MODULE_NAME_CHARS})`);
  }
  if (/[\0\n\r]/.test(raw)) {
    throw new ToolError("INVALID_ARGUMENT", advice`${param("module_name")} must be one line without NUL characters`, "Pass a module name such as pkg.mod, a specifier such as ./util, or a file path.");
  }
  let query = raw.trim();
  const stmt = /^(?:from\s+(\.*[\w.]*)\s+import\b.*|import\s+([\w.]+).*)$/.exec(query);
  let unwrapped = false;
  if (stmt) {
    query = (stmt[1] ?? stmt[2]) as string;
    unwrapped = true;
  }
  query = query.replace(/^['"`]|['"`]$/g, "");
  if (query === "") throw new ToolError("INVALID_ARGUMENT", advice`${param("module_name")} is empty`, "Pass a module name such as pkg.mod, a specifier such as ./util, or a file path.");
  return { query, unwrapped };
}

/** Turns a path-like query into a repository-relative path; `undefined` when it leaves the root. */
function pathForm(ws: Workspace, query: string): string | undefined {
  let p = query.replace(/\\/g, "/");
  const root = ws.root.replace(/\\/g, "/");
  if (p.startsWith(`${root}/`)) p = p.slice(root.length + 1);
  else if (path.posix.isAbsolute(p)) p = p.replace(/^\/+/, "");
  return joinPath(p);
}

/** Modules an ambiguous `module_name` error lists: the model must pick one, so it sees more than a note's five. */
const AMBIGUOUS_LISTED = 10;

function ambiguous(query: string, candidates: string[]): ToolError {
  return new ToolError(
    "INVALID_ARGUMENT",
    advice`${param("module_name")} '${query}' matches ${candidates.length} different modules: ${shortList(candidates, AMBIGUOUS_LISTED)}`,
    "Pass the full dotted module name or the file path of the one you mean.",
  );
}

/** Reads `query` per the module comment's rules 1–4; a name-only target has no files. */
async function interpretQuery(ws: Workspace, project: ProjectView, query: string): Promise<QueryTarget> {
  // Made when a rule needs them: a path of the tree (the usual C/C++ header query) needs none, and
  // each walks the tree's whole file list (the JS resolver groups it by folder).
  const js = () => jsResolver(project);
  const layout = () => pythonLayout(project);
  const sources = () => memoize(project, "importers:sources", () => project.files.filter((f) => languageFor(f) !== undefined));

  // 0. a PHP qualified name (`Slim\Routing\Route`): the files so named, else a name outside the tree
  if (PHP_NAME.test(query)) {
    const name = query.replace(/\\+/g, "\\").replace(/^\\/, "");
    const exact = (await moduleNameIndex(project)).get(name);
    return exact !== undefined ? { files: new Set(exact) } : { files: new Set(), families: new Set(["php"]) };
  }

  // 1. a path
  const norm = pathForm(ws, query);
  const hasSlash = /[/\\]/.test(query);
  const fileEnding = /\.[A-Za-z0-9]+$/.test(query) && (languageFor(query) !== undefined || /\.(json|css|scss|sass|less|svg|html|vue|svelte|md)$/i.test(query));
  if (hasSlash || fileEnding || (norm !== undefined && project.has(norm))) {
    if (norm === undefined || norm === "") return { files: new Set(), reading: `'${query}' is not a path inside the repository` };
    if (project.has(norm)) return { files: new Set([norm]) };
    const init = layout().initOf(norm);
    if (init !== undefined) return { files: new Set([init]), reading: `read as ${init}` };
    const pkg = packageFolder(project, norm);
    if (pkg !== undefined) return { files: new Set(pkg.files), reading: `read as the ${pkg.language} package in ${norm}/ (${countedFiles(pkg.files)})` };
    for (const ext of [".py", ".pyi"]) if (project.has(norm + ext)) return { files: new Set([norm + ext]), reading: `read as ${norm + ext}` };
    const probed = await js().probe(norm);
    if (probed !== undefined) return { files: new Set([probed]), reading: `read as ${probed}` };
    const suffix = project.files.filter((f) => f.endsWith(`/${norm}`));
    if (suffix.length === 1) return { files: new Set(suffix), reading: `read as ${suffix[0] as string}` };
    if (suffix.length > 1) throw ambiguous(query, suffix);
    // `@/utils`, `lodash/fp`, `@scope/pkg` may still be specifiers; a file name is not.
    if (!hasSlash) return { files: new Set(), reading: `no file ${norm} in the repository` };
  }

  // 2. exact module names: dotted (Python, Java), `::` paths (Rust), import paths (Go)
  const trailing = new Map<string, Set<string>>(); // name → files
  const separators = nameSeparators(query);
  if (separators.length > 0) {
    const index = await moduleNameIndex(project);
    const exact = index.get(query);
    if (exact !== undefined) {
      const files = new Set(exact);
      const pkg = onePackage(project, exact);
      const notes: string[] = [];
      if (files.size > 1 && pkg === undefined) notes.push(`'${query}' names ${files.size} files: ${shortList([...exact].sort())}.`);
      const hidden = exact.every(inTestFolder) ? packageModulesEnding(index, query, separators) : [];
      if (hidden.length > 0) {
        const listed = shortList(hidden.map(({ name, files: f }) => `${name} (${describeFiles(project, f)})`));
        notes.push(
          `Read as the module '${query}' of a test folder (${describeFiles(project, exact)}); ${hidden.length === 1 ? "a package module also ends in it" : `${hidden.length} package modules also end in it`}: ${listed}. Pass that full name or path for its importers.`,
        );
      }
      return { files, ...(notes.length > 0 ? { note: notes.join(" ") } : {}) };
    }
    for (const [name, files] of index) {
      if (!separators.some((sep) => name.endsWith(`${sep}${query}`))) continue;
      trailing.set(name, new Set(files));
    }
  }

  // 3. a specifier from the root
  if (!/\s/.test(query)) {
    const res = await js().resolve(query, "__codecite_query__.ts");
    const file = res.files[0];
    if (!res.external && file !== undefined) return { files: new Set([file]), reading: `read as ${file}` };
  }

  // 4. a unique trailing part
  if (/^[\w$.-]+$/.test(query) && !query.startsWith(".")) {
    for (const f of sources()) {
      if (familyOfFile(f) !== "js") continue;
      const m = jsModulePath(f);
      if (m === query || m.endsWith(`/${query}`)) {
        const files = trailing.get(m) ?? new Set<string>();
        files.add(f);
        trailing.set(m, files);
      }
    }
  }
  // One candidate per module: a file, or the files of one package folder (Go); a file named in
  // several ways (Rust `crate::a` and `<lib>::a`) is one candidate.
  const candidates = new Map<string, { name: string; files: string[] }>();
  for (const [name, set] of trailing) {
    const groups = new Map<string, string[]>();
    for (const f of [...set].sort()) {
      const key = languageFor(f)?.packageFiles !== undefined ? `dir:${parentDir(f)}` : `file:${f}`;
      groups.set(key, [...(groups.get(key) ?? []), f]);
    }
    for (const files of groups.values()) {
      const key = files.join("\0");
      if (!candidates.has(key)) candidates.set(key, { name, files });
    }
  }
  const list = [...candidates.values()].sort((a, b) => (a.files[0] as string) < (b.files[0] as string) ? -1 : 1);
  const families = new Set(list.flatMap(({ files }) => files.map(familyOfFile)));
  if (list.length === 1) {
    const [{ name, files }] = list as [{ name: string; files: string[] }];
    const reading = `${name} (${describeFiles(project, files)})`;
    return { files: new Set(files), reading: `read as ${reading}`, trailing: { candidates: [reading], families } };
  }
  if (list.length > 1) {
    const candidates = list.map(({ name, files }) =>
      files.length === 1 && name === jsModulePath(files[0] as string) ? (files[0] as string) : `${name} (${describeFiles(project, files)})`,
    );
    return { files: new Set(), trailing: { candidates, families, ambiguity: ambiguous(query, candidates) } };
  }
  return { files: new Set() };
}

/** Whether a file lies in a test folder (`test/`, `tests/`, `testing/`, `__tests__/` at any depth). */
function inTestFolder(file: string): boolean {
  return /(^|\/)(tests?|testing|__tests__)\//.test(file);
}

/** Modules outside test folders whose names end in `query` after one of `separators` (`pkg.fields` for `fields`). */
function packageModulesEnding(index: ReadonlyMap<string, string[]>, query: string, separators: readonly string[]): { name: string; files: string[] }[] {
  const out: { name: string; files: string[] }[] = [];
  for (const [name, files] of index) {
    if (!separators.some((sep) => name.endsWith(`${sep}${query}`))) continue;
    const outside = files.filter((f) => !inTestFolder(f));
    if (outside.length > 0) out.push({ name, files: outside });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Separators a module name written like `query` may use before it: `.` for dotted names (Python,
 * Java), `::` for Rust paths, `/` for Go import paths; a single identifier may follow any of them.
 * Empty when the query cannot be a module name (spaces, quotes, a relative specifier).
 */
function nameSeparators(query: string): string[] {
  if (query.startsWith(".") || query.startsWith("/") || query.endsWith("/") || /[\s'"`\\]/.test(query)) return [];
  if (/^(::)?[A-Za-z_][\w]*(::[A-Za-z_][\w]*)+$/.test(query)) return ["::"];
  if (query.includes("/")) return /^[\w.~-]+(\/[\w.~-]+)+$/.test(query) ? ["/"] : [];
  if (isDottedName(query)) return query.includes(".") ? [".", "/"] : [".", "::", "/"];
  return /^[\w.-]+$/.test(query) ? ["/"] : [];
}

/**
 * Every name under which each source file can be imported (`LanguageSpec.moduleNames`): name →
 * files, sorted. Built once per project view.
 */
export function moduleNameIndex(project: ProjectView): Promise<Map<string, string[]>> {
  return memoize(project, "importers:module-names", async () => {
    const saved = loadDerived<[string, string[]][]>(project, "importers:module-names");
    if (Array.isArray(saved)) return new Map(saved);
    const index = new Map<string, string[]>();
    for (const f of project.files) {
      const lang = languageFor(f);
      if (lang?.moduleNames === undefined) continue;
      for (const n of await lang.moduleNames(f, project)) {
        const list = index.get(n);
        if (list === undefined) index.set(n, [f]);
        else if (!list.includes(f)) list.push(f);
      }
    }
    for (const list of index.values()) list.sort();
    saveDerived(project, "importers:module-names", [...index]);
    return index;
  });
}

/** The package whose folder is `dir`, for languages where a folder is a package (Go); `undefined` otherwise. */
function packageFolder(project: ProjectView, dir: string): { language: string; files: string[] } | undefined {
  for (const lang of LANGUAGES) {
    const files = lang.packageFiles?.(dir, project) ?? [];
    if (files.length > 0) return { language: lang.id, files: [...files].sort() };
  }
  return undefined;
}

/** The folder when `files` are exactly one package of a language where a folder is a package. */
function onePackage(project: ProjectView, files: readonly string[]): string | undefined {
  const dir = parentDir(files[0] ?? "");
  if (files.some((f) => parentDir(f) !== dir)) return undefined;
  const pkg = packageFolder(project, dir);
  return pkg !== undefined && pkg.files.length === files.length && files.every((f) => pkg.files.includes(f)) ? dir : undefined;
}

/** `a.go` for one file, else `43 files: a.swift, b.swift, … and 38 more` (advice.ts `shortList`: a note a small model reads stays short). */
function countedFiles(files: readonly string[]): string {
  return files.length === 1 ? (files[0] as string) : `${files.length} files: ${shortList(files)}`;
}

/** `a.go` for one file, `internal/store/` for a whole package folder, else {@link countedFiles}. */
function describeFiles(project: ProjectView, files: readonly string[]): string {
  if (files.length === 1) return files[0] as string;
  const dir = onePackage(project, files);
  return dir !== undefined ? `${dir}/` : countedFiles(files);
}

/** Module paths of languages without their own rule: dotted, `/`-separated or `::` paths, no member segment. */
const DEFAULT_PATH_SYNTAX = { separators: [".", "/", "::"], members: false } as const;

/** External matching of a language without `matchesExternal`: the module is the query (or lies below it with `includeSubmodules`). */
function defaultMatchesExternal(query: string, res: Resolution, includeSubmodules: boolean): boolean {
  return matchesModulePath(query, res.module, DEFAULT_PATH_SYNTAX, includeSubmodules);
}

/** A file that stands for its whole folder as a package (`__init__.py`, `index.ts`, `mod.rs`, a crate root). */
const PACKAGE_ENTRY = /^(?:__init__\.pyi?|index\.(?:d\.)?[mc]?[jt]sx?|mod\.rs|lib\.rs|main\.rs)$/;

/**
 * `files` and every module under them (`include_submodules`): the files whose module names lie below
 * one of theirs (`pkg.sub`, `example.com/x/sub`, `shop::store::memory`; `crate::` names are left out,
 * every crate of a workspace has them), and the files of the same family below a package entry's folder
 * (`pkg/__init__.py` → `pkg/**`, `ui/index.ts` → `ui/**`, a Rust `a.rs` → `a/**`; a crate root's
 * folder without `bin/`, whose files are crates of their own).
 */
async function withSubmodules(project: ProjectView, files: ReadonlySet<string>): Promise<Set<string>> {
  const out = new Set(files);
  const index = await moduleNameIndex(project);
  const names: string[] = [];
  for (const [name, list] of index) if (!/^(crate|self|super)\b/.test(name) && list.some((f) => files.has(f))) names.push(name);
  for (const [name, list] of index) {
    if (!names.some((n) => DEFAULT_PATH_SYNTAX.separators.some((sep) => name.startsWith(`${n}${sep}`)))) continue;
    for (const f of list) out.add(f);
  }
  for (const f of files) {
    const base = f.slice(f.lastIndexOf("/") + 1);
    const dir = PACKAGE_ENTRY.test(base) ? parentDir(f) : f.endsWith(".rs") ? f.slice(0, -".rs".length) : undefined;
    if (dir === undefined) continue;
    const crateRoot = base === "lib.rs" || base === "main.rs";
    const family = familyOfFile(f);
    for (const g of project.files) {
      if (g === f || !isWithin(g, dir) || languageFor(g) === undefined || familyOfFile(g) !== family) continue;
      if (crateRoot && isWithin(g, joinPath(dir, "bin") as string)) continue;
      out.add(g);
    }
  }
  return out;
}

/** The static prefix of a non-literal JS specifier's text (`` `./locale/${x}` `` → `./locale/`). */
function staticPrefix(text: string): string | undefined {
  const m = /^[`'"]([^`'"$\\]*)/.exec(text);
  return m?.[1];
}

/** The importer hints `lang` gives for `file` (`LanguageSpec.pathImporterHints` or `importerHints`), if any. */
async function languageHints(lang: LanguageSpec, file: string, project: ProjectView): Promise<{ literals: string[]; patterns?: string[] } | undefined> {
  return lang.pathImporterHints !== undefined ? lang.pathImporterHints(file) : lang.importerHints?.(file, project);
}

/** Needles for the prefilter: every target file's hints (a query that names files of the tree). */
async function needlesFor(target: QueryTarget, project: ProjectView): Promise<Needles> {
  const literals = new Set<string>();
  const patterns = new Set<string>();
  for (const f of target.files) {
    const lang = languageFor(f);
    let hints = lang === undefined ? await jsImporterHints(f, project) : await languageHints(lang, f, project);
    if (hints === undefined) {
      const dir = parentDir(f);
      hints = { literals: [stemOf(f), dir.slice(dir.lastIndexOf("/") + 1)] };
    }
    for (const l of hints.literals) literals.add(l);
    for (const p of hints.patterns ?? []) patterns.add(p);
  }
  return { literals: [...literals], patterns: [...patterns] };
}

/** The prefilter's needles and the import screen's keys of a target with files. */
interface TargetScreen {
  needles: Needles;
  keys: Map<string, ImportKeys>;
}

/** {@link TargetScreen} per target, computed once ({@link needlesFor}, {@link importKeysFor}) or set from a kept plan. */
const targetScreens = new WeakMap<QueryTarget, Promise<TargetScreen>>();

function targetScreen(target: QueryTarget, project: ProjectView): Promise<TargetScreen> {
  let screen = targetScreens.get(target);
  if (screen === undefined) {
    screen = Promise.all([needlesFor(target, project), importKeysFor(target.files, project)]).then(([needles, keys]) => ({ needles, keys }));
    targetScreens.set(target, screen);
  }
  return screen;
}

/**
 * How a query was read, kept for later processes of the same tree (`loadDerived`: same walk, every
 * file the view read unchanged — the reading depends on nothing else): the target (rules 0–3 and a
 * unique trailing part; `include_submodules` applied), and for a target with files its
 * {@link TargetScreen}. A reading that must still look at the exact name's importers (rule 4's
 * `trailing`) is not kept.
 */
interface KeptPlan {
  files: string[];
  reading?: string;
  note?: string;
  families?: string[];
  screen?: { needles: Needles; keys: [string, ImportKeys][] };
}

interface KeptPlans {
  byQuery: Map<string, KeptPlan>;
  changed: boolean;
}

/** At most this many readings are kept (the most recent ones). */
const MAX_KEPT_PLANS = 64;
/** A reading with more target files than this is not kept (a root package with `include_submodules`). */
const MAX_PLAN_FILES = 2000;

function keptPlans(project: ProjectView): KeptPlans {
  return memoize(project, "importers:kept-plans", () => {
    const saved = loadDerived<[string, KeptPlan][]>(project, "importers:plans");
    return { byQuery: new Map(Array.isArray(saved) ? saved : []), changed: false };
  });
}

function planKey(query: string, includeSubmodules: boolean): string {
  return `${includeSubmodules ? "sub" : "exact"}\0${query}`;
}

/** The target of a kept reading (its screen set as computed), or `undefined` when none is kept. */
function keptTarget(project: ProjectView, key: string): QueryTarget | undefined {
  const plan = keptPlans(project).byQuery.get(key);
  if (plan === undefined) return undefined;
  const target: QueryTarget = {
    files: new Set(plan.files),
    ...(plan.reading !== undefined ? { reading: plan.reading } : {}),
    ...(plan.note !== undefined ? { note: plan.note } : {}),
    ...(plan.families !== undefined ? { families: new Set(plan.families) } : {}),
  };
  if (plan.screen !== undefined) targetScreens.set(target, Promise.resolve({ needles: plan.screen.needles, keys: new Map(plan.screen.keys) }));
  return target;
}

/** Keeps how `target` read the query (see {@link KeptPlan}); saved with {@link saveKeptPlans}. */
async function keepPlan(project: ProjectView, key: string, target: QueryTarget): Promise<void> {
  if (target.trailing !== undefined || target.files.size > MAX_PLAN_FILES) return;
  const plans = keptPlans(project);
  if (plans.byQuery.has(key)) return;
  const screen = target.files.size > 0 ? await targetScreen(target, project) : undefined;
  plans.byQuery.set(key, {
    files: [...target.files],
    ...(target.reading !== undefined ? { reading: target.reading } : {}),
    ...(target.note !== undefined ? { note: target.note } : {}),
    ...(target.families !== undefined ? { families: [...target.families] } : {}),
    ...(screen !== undefined ? { screen: { needles: screen.needles, keys: [...screen.keys] } } : {}),
  });
  while (plans.byQuery.size > MAX_KEPT_PLANS) plans.byQuery.delete(plans.byQuery.keys().next().value as string);
  plans.changed = true;
}

function saveKeptPlans(project: ProjectView): void {
  const plans = keptPlans(project);
  if (!plans.changed) return;
  saveDerived(project, "importers:plans", [...plans.byQuery]);
  plans.changed = false;
}

/**
 * What an import statement must name to reach one of `targetFiles`, per importer family, for the
 * lexical import scan (`import-scan.ts`), from the forms the prefilter's hints describe: Python, the
 * module's last part together with its package's last part (`rag_common` and `core` for
 * `acme.core.rag_common`, under each import root), or with a relative or dynamic import (a
 * package: also a bare `from . import x`); JS/TS, the literals of
 * `jsImporterHints` (stem, package and alias names; an `index` file's folder, or a dots-only
 * specifier); other languages, the literals of their `importerHints` (Rust also `super`), else the
 * stem and folder name. Exported for the test that checks the scan never drops a file the full
 * parse finds importing a target.
 */
export async function importKeysFor(targetFiles: Iterable<string>, project: ProjectView): Promise<Map<string, ImportKeys>> {
  const byFamily = new Map<string, { words: Set<string>; together: Map<string, string[]>; bare: boolean }>();
  for (const f of targetFiles) {
    const family = familyOfFile(f);
    let keys = byFamily.get(family);
    if (keys === undefined) byFamily.set(family, (keys = { words: new Set(), together: new Map(), bare: false }));
    const lang = languageFor(f);
    const stem = stemOf(f);
    const dir = parentDir(f);
    const dirName = dir.slice(dir.lastIndexOf("/") + 1);
    let words: string[];
    if (lang === undefined || family === "js") {
      words = (await jsImporterHints(f, project)).literals;
      if (stem === "index") keys.bare = true;
    } else if (lang.id === "python") {
      // `from a.b import c`, `import a.b.c`, `from a.b.c import x` write c's package too; a relative
      // import (`from . import c`, `from ..b import c`) or a dynamic one may not.
      const last = stem === "__init__" ? dirName : stem;
      words = [];
      const names = (await lang.moduleNames?.(f, project)) ?? [];
      for (const name of names.length > 0 ? names : [last]) {
        const parts = name.split(".");
        const own = parts[parts.length - 1] as string;
        const parent = parts[parts.length - 2];
        if (parent === undefined) words.push(own);
        for (const group of parent === undefined ? [] : [[own, parent], ["from.", own], ["import_module", own], ["__import__", own]]) {
          keys.together.set(group.join("\0"), group);
        }
      }
      if (stem === "__init__") keys.bare = true;
    } else {
      const hints = await languageHints(lang, f, project);
      words = hints?.literals ?? [stem, dirName];
      if (hints !== undefined && family === "rust") words.push("super");
    }
    for (const w of words) if (w !== "") keys.words.add(w);
  }
  return new Map([...byFamily].map(([family, k]) => [family, { words: [...k.words], together: [...k.together.values()], bare: k.bare }]));
}

/** The last part of a module name (`linalg` of `numpy.linalg`, `fp` of `lodash/fp`, `io` of `std::io`). */
function lastPart(query: string): string {
  const parts = query.split(/[./:\\]+/).filter((p) => p !== "" && p !== "@");
  return parts[parts.length - 1] ?? query;
}

/**
 * The import screen's keys of a query known by name only (no target file), for every family: the
 * name's last part, as a whole name (`ImportKeys.whole`). An import the name matches writes that
 * part whole: the module itself or one below it (`matchesModulePath`, the languages'
 * `matchesExternal`), or a specifier equal to the query. Languages whose glob import of the
 * name's parent module names it (`LanguageSpec.wildcardImportHints`: Rust `use std::io::*;` for
 * `std::io::Read`) add that glob's scan text (`io::*`) as a key of its own (`together`). Exported
 * for the import-scan test.
 */
export function nameImportKeys(query: string): ImportKeys {
  const globs = new Set<string>();
  for (const lang of LANGUAGES) {
    const g = lang.wildcardImportHints?.(query);
    if (g !== undefined) globs.add(g.scanText);
  }
  return { words: [lastPart(query)], ...(globs.size > 0 ? { together: [...globs].sort().map((t) => [t]) } : {}), bare: false, whole: true };
}

/**
 * `loadFacts`'s screen for the keys of each family ({@link importKeysFor}; a name-only query has
 * the name's last part for every family): a file of a family the scan reads is parsed only when
 * one of its import statements could name its family's keys. A file that does not contain a key
 * at all (any case) is ruled out without a scan, except where a bare relative import or (JS) a
 * computed `import()`/`require()` could reach the target without naming it. The screen's third
 * argument, when given, is `scanImports(family, source)` already made (`LexicalFile.scan`).
 */
export function importScreen(
  keys: ReadonlyMap<string, ImportKeys> | ImportKeys,
  onScreened?: (path: string, scan: ImportScan) => void,
): (path: string, source: string, scanned?: ImportScan) => boolean {
  const mentions = new Map<ImportKeys, RegExp>();
  return (file, source, scanned) => {
    const family = familyOfFile(file);
    const k = screenKeys(keys, file);
    if (k === undefined) return true;
    let re = mentions.get(k);
    if (re === undefined) {
      // Every way to pass holds one of these words.
      const some = [...k.words, ...(k.together ?? []).map((t) => t[0] ?? "")].filter((w) => w !== "");
      mentions.set(k, (re = new RegExp(some.length === 0 ? "(?!)" : some.map(escapeRegExp).join("|"), "i")));
    }
    if (!k.bare && family !== "js" && !re.test(source)) {
      onScreened?.(file, scanned ?? (scanImports(family, source) as ImportScan));
      return false;
    }
    const scan = scanned ?? (scanImports(family, source) as ImportScan);
    if (importsMayName(scan, k)) return true;
    onScreened?.(file, scan);
    return false;
  };
}

/** The keys {@link importScreen} reads `file` with; `undefined` when its family is not screened (every file passes). */
function screenKeys(keys: ReadonlyMap<string, ImportKeys> | ImportKeys, file: string): ImportKeys | undefined {
  const family = familyOfFile(file);
  const k: ImportKeys | undefined = isKeyMap(keys) ? keys.get(family) : keys;
  return k === undefined || !scansFamily(family) ? undefined : k;
}

function isKeyMap(keys: ReadonlyMap<string, ImportKeys> | ImportKeys): keys is ReadonlyMap<string, ImportKeys> {
  return keys instanceof Map;
}

/** `text` as a literal in a JavaScript regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Needles for a query known by name only (no target file), per family: the hints of the family's
 * languages (`LanguageSpec.importerNameHints`), or the name's last part anywhere in the file.
 * Families with the same needles share one group, so one ripgrep run serves them.
 */
function nameNeedlesFor(query: string, families: ReadonlySet<string>, includeSubmodules: boolean): { families: Set<string>; needles: Needles }[] {
  const word = lastPart(query);
  const groups = new Map<string, { families: Set<string>; needles: Needles }>();
  for (const family of [...families].sort()) {
    const literals = new Set<string>();
    const patterns = new Set<string>();
    for (const lang of LANGUAGES) {
      if (familyOf(lang) !== family) continue;
      const hints = lang.importerNameHints?.(query, word, includeSubmodules) ?? { literals: [word] };
      for (const l of hints.literals) literals.add(l);
      for (const p of hints.patterns ?? []) patterns.add(p);
      const glob = lang.wildcardImportHints?.(query);
      if (glob !== undefined) patterns.add(glob.pattern);
    }
    const needles = { literals: [...literals].sort(), patterns: [...patterns].sort() };
    const key = JSON.stringify(needles);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { families: new Set([family]), needles });
    else group.families.add(family);
  }
  return [...groups.values()];
}

/** `file` is a declaration file of the same module as `target` (`x.d.ts` next to `x.ts`/`x.js`). */
function isOwnDeclaration(file: string, target: string): boolean {
  return /\.d\.[mc]?ts$/.test(file) && jsModulePath(file) === jsModulePath(target);
}

interface MatchRecord {
  file: string;
  ref: ImportRef;
  res: Resolution;
  lang: LanguageSpec;
}

interface MatchPass {
  records: MatchRecord[];
  /** `file:line` of imports that could not be resolved, in the files parsed. */
  unresolvedSeen: Term[];
  /** `file:line` of computed `import()`/`require()` whose static prefix could lead to a target (not records). */
  computedMayReach: Term[];
  blindSpots: Set<AdviceText>;
  /** Facts loaded by this pass (files answered from the kept imports are not in it). */
  facts: FactsMap;
  /** Every file whose imports were looked at, sorted. */
  searched: string[];
  /** Name-only queries: files that imports written exactly as the query lead to. */
  specifierTargets: Set<string>;
}

/**
 * Parses the candidate importers of `target` and keeps the imports that match it.
 * @returns `undefined` when the prefilter saw source files of the family that the file list lacks
 *   (the tree changed in a way the snapshot's checks did not catch): the caller walks again.
 */
/** The source files of the language families `fams`, in the view's order. */
function familyCandidates(project: ProjectView, fams: ReadonlySet<string>): Set<string> {
  return memoize(project, `importers:family:${[...fams].sort().join(",")}`, () =>
    new Set(project.files.filter((p) => {
      const lang = languageFor(p);
      return lang !== undefined && fams.has(familyOf(lang));
    })),
  );
}

/** The prefilter's scope (the name its answers are kept under) and file endings for the families `fams`. */
function lookupScope(fams: ReadonlySet<string>): { scope: string; endings: string[] } {
  const sorted = [...fams].sort();
  return { scope: `importers:${sorted.join(",")}`, endings: sorted.flatMap(familyEndings) };
}

/** Needles as the prefilter tells them apart (order and repeats do not count). */
function needlesKey(n: Needles): string {
  return JSON.stringify([[...new Set(n.literals)].sort(), [...new Set(n.patterns ?? [])].sort(), n.caseInsensitive === true]);
}

/** A prefilter run started with the tree's walk, before the query is read ({@link earlyLookup}). */
interface EarlyLookup {
  scope: string;
  /** {@link needlesKey} of its needles. */
  needles: string;
  unlisted: string[];
  mentioned: Promise<Set<string> | undefined>;
  /** Set when {@link collectMatches} took it (every pass of the query that asks the same takes it). */
  used: boolean;
  /** Stops its ripgrep run when it was not taken. */
  cancel: AbortController;
}

/**
 * For a query naming a file by path whose language's importer hints depend on the path only
 * (`LanguageSpec.pathImporterHints`: C/C++, Python), the prefilter run {@link collectMatches} makes
 * when that file is the target ({@link earlyPathNeedles}), or for a dotted name the run both of its
 * usual readings make ({@link earlyNameNeedles}), started before the tree's walk ends: ripgrep needs
 * no file list to start, and on a first query the walk's `rg --files` and this run, one after the
 * other, were most of the query's wait. The reading of the query decides later; a run not taken is
 * stopped.
 */
function earlyLookup(ws: Workspace, query: string, snapshot: Promise<TreeSnapshot>, signal: AbortSignal | undefined): EarlyLookup | undefined {
  const early = earlyPathNeedles(ws, query) ?? earlyNameNeedles(query);
  if (early === undefined) return undefined;
  const { needles, families } = early;
  const { scope, endings } = lookupScope(families);
  const cancel = new AbortController();
  const unlisted: string[] = [];
  const mentioned = rememberedMentions(ws, scope, snapshot.then((s) => [...familyCandidates(s.view, families)]), needles, {
    endings,
    complete: snapshot.then((s) => listIsComplete(s.view)),
    signal: signal === undefined ? cancel.signal : AbortSignal.any([signal, cancel.signal]),
    unlisted,
  });
  // Awaited only if taken; one failing meanwhile must not go unhandled.
  mentioned.catch(() => undefined);
  return { scope, needles: needlesKey(needles), unlisted, mentioned, used: false, cancel };
}

/** The needles and family of the prefilter run {@link collectMatches} makes when the query, read as a path, names a file whose language gives path hints. */
function earlyPathNeedles(ws: Workspace, query: string): { needles: Needles; families: Set<string> } | undefined {
  const norm = pathForm(ws, query);
  const lang = norm === undefined || norm === "" ? undefined : languageFor(norm);
  if (norm === undefined || lang?.pathImporterHints === undefined) return undefined;
  const hints = lang.pathImporterHints(norm);
  return { needles: { literals: hints.literals, patterns: hints.patterns ?? [] }, families: new Set([familyOf(lang)]) };
}

/**
 * For a dotted name (`session`, `acme.core.rag_common`), the needles and family of the prefilter run
 * {@link collectMatches} makes for either of its two usual readings, where they are the same: a module
 * file of the tree whose stem is the name's last part (rules 2 and 4: `…/rag_common.py`, its language's
 * `pathImporterHints`), or a name outside the tree (rule 5: the family's name needles, `importerNameHints`).
 * Python's are (the import lines that name the stem or the word); a language whose two differ gets
 * no early run. Another reading (a package's `__init__.py`, a file of another family) does not take it.
 */
function earlyNameNeedles(query: string): { needles: Needles; families: Set<string> } | undefined {
  if (!isDottedName(query)) return undefined;
  const word = lastPart(query);
  for (const lang of LANGUAGES) {
    if (lang.pathImporterHints === undefined) continue;
    const byName = nameNeedlesFor(query, new Set([familyOf(lang)]), false)[0];
    if (byName === undefined) continue;
    for (const ext of lang.extensions) {
      const hints = lang.pathImporterHints(`${word}${ext}`);
      const needles: Needles = { literals: hints.literals, patterns: hints.patterns ?? [] };
      if (needlesKey(needles) === needlesKey(byName.needles)) return { needles, families: byName.families };
    }
  }
  return undefined;
}

async function collectMatches(
  ws: Workspace,
  project: ProjectView,
  target: QueryTarget,
  query: string,
  signal: AbortSignal | undefined,
  final: boolean,
  includeSubmodules: boolean,
  early?: EarlyLookup,
): Promise<MatchPass | undefined> {
  const families = new Set<string>();
  if (target.files.size > 0) for (const f of target.files) families.add(familyOfFile(f));
  else if (target.families !== undefined) for (const f of target.families) families.add(f);
  else for (const l of LANGUAGES) families.add(familyOf(l));
  const candidatesOf = (fams: ReadonlySet<string>) => familyCandidates(project, fams);
  const screen = target.files.size > 0 ? await targetScreen(target, project) : undefined;
  const groups = screen !== undefined ? [{ families, needles: screen.needles }] : nameNeedlesFor(query, families, includeSubmodules);
  const keys = screen !== undefined ? screen.keys : nameImportKeys(query);
  const chosen = new Set<string>();
  // ripgrep reads only a group's files (their endings): one run per group, not one walk of every
  // file each; the groups' runs go on together (a name-only query has one group per set of needles).
  const lookups = groups.map((group) => {
    const candidates = candidatesOf(group.families);
    const { scope, endings } = lookupScope(group.families);
    // The early run serves every pass of the query that asks the same (a trailing part's exact-name pass, then its files).
    if (early !== undefined && early.scope === scope && early.needles === needlesKey(group.needles)) {
      early.used = true;
      return { group, candidates, unlisted: early.unlisted, mentioned: early.mentioned };
    }
    const unlisted: string[] = [];
    const mentioned = rememberedMentions(ws, scope, [...candidates], group.needles, { endings, complete: listIsComplete(project), ...(signal ? { signal } : {}), unlisted });
    // Awaited in order below; one failing before it is awaited must not go unhandled meanwhile.
    mentioned.catch(() => undefined);
    return { group, candidates, unlisted, mentioned };
  });
  for (const { group, candidates, unlisted, mentioned } of lookups) {
    const found = await mentioned;
    const inGroup = (p: string) => {
      const lang = languageFor(p);
      return lang !== undefined && group.families.has(familyOf(lang));
    };
    if (!final && (await changedSince(ws, unlisted.filter(inGroup)))) return undefined;
    for (const f of found ?? candidates) chosen.add(f);
  }
  // A file whose imports and resolutions a process kept (`keptImports`) and whose stat still
  // matches needs no facts; the others come from the fact cache (or are parsed).
  // A file the import screen ruled out before, unchanged since (its kept scan, `keptScans`), is
  // ruled out again from that scan without reading it.
  const checkedMs = Date.now();
  const stats = statFiles(ws, [...chosen].sort());
  const kept = keptImports(project);
  const fromKept = new Map<string, KeptFile>();
  const screenedBefore: string[] = [];
  const toLoad: FileStat[] = [];
  for (const st of stats) {
    const k = kept.byFile.get(st.path);
    if (k !== undefined && keptStatHolds(k.stat, st)) {
      fromKept.set(st.path, k);
      continue;
    }
    const s = kept.scans.get(st.path);
    const sk = s === undefined ? undefined : screenKeys(keys, st.path);
    if (s !== undefined && sk !== undefined && keptStatHolds(s.stat, st) && !importsMayName(s.scan, sk)) screenedBefore.push(st.path);
    else toLoad.push(st);
  }
  const statOf = new Map(toLoad.map((st) => [st.path, st]));
  const keepScan = (file: string, scan: ImportScan) => {
    const st = statOf.get(file);
    if (st === undefined) return;
    kept.scans.set(file, { stat: keptStat(st, checkedMs), scan });
    kept.changed = true;
  };
  // Files whose imports are read from the text (C/C++, Python) are read, not parsed; those read now
  // pass the import screen as a parsed file would (a screened file is not searched), those whose
  // imports were kept are searched as a file with cached facts is. A file the reader leaves to the
  // parse (Python dynamic imports) is parsed.
  const passesScreen = importScreen(keys, keepScan);
  const lexicalPaths = toLoad.filter((st) => readsImportsLexically(st.path)).map((st) => st.path);
  const lexical = await loadLexicalImports(ws, project, lexicalPaths, signal);
  const screenedNow: string[] = [];
  for (const [file, got] of lexical.files) if (got.text !== undefined && !passesScreen(file, got.text, got.scan)) screenedNow.push(file);
  for (const file of screenedNow) lexical.files.delete(file);
  const parsed = new Set(lexical.parse);
  const facts = await loadFacts(ws, lexicalPaths.length === 0 ? toLoad : toLoad.filter((st) => !readsImportsLexically(st.path) || parsed.has(st.path)), signal, "definitions", { screen: passesScreen });
  for (const file of [...screenedBefore, ...screenedNow]) facts.screened.add(file);
  for (const [file, why] of lexical.skipped) facts.skipped.set(file, why);
  const searched = [...fromKept.keys(), ...facts.keys(), ...lexical.files.keys()].sort();

  const pass: MatchPass = { records: [], unresolvedSeen: [], computedMayReach: [], blindSpots: new Set(), facts, searched, specifierTargets: new Set() };
  // The blind spots of every language read, screened files included (in path order, as notes list them).
  for (const file of [...searched, ...facts.screened].sort()) {
    const note = languageFor(file)?.blindSpotNote;
    if (note) pass.blindSpots.add(note);
  }
  // Keyed by the facts, or by the imports read from the text (both kept unchanged per view).
  const resolved = memoize(project, "importers:resolved", () => new WeakMap<object, Promise<Resolution[]>>());
  for (const file of searched) {
    throwIfAborted(signal);
    const lang = languageFor(file) as LanguageSpec;
    let imports: readonly ImportRef[];
    let resolutions: Resolution[];
    const hit = fromKept.get(file);
    if (hit !== undefined) {
      imports = hit.imports;
      resolutions = hit.resolutions;
    } else {
      const source: FileFacts | LexicalFile = facts.get(file) ?? (lexical.files.get(file) as LexicalFile);
      imports = source.imports;
      // Resolutions depend only on the import and the tree: kept per view for facts that did not
      // change, and for later processes while the tree is the same.
      const key = importsKey(imports);
      const memoKey = "symbols" in source ? source : imports;
      let pending = resolved.get(memoKey);
      if (pending === undefined) {
        const saved = kept.byFile.get(file);
        pending = saved !== undefined && saved.key === key ? Promise.resolve(saved.resolutions) : Promise.all(imports.map((ref) => lang.resolve(ref, file, project)));
        resolved.set(memoKey, pending);
      }
      resolutions = await pending;
      kept.byFile.set(file, { stat: keptStat(statOf.get(file) as FileStat, checkedMs), key, imports: [...imports], resolutions });
      kept.changed = true;
    }
    for (const [i, ref] of imports.entries()) {
      const res = resolutions[i] as Resolution;
      if (res.unresolved) {
        pass.unresolvedSeen.push(location(file, ref.start_line));
        const prefix = ref.flags?.includes("unresolved") ? staticPrefix(ref.specifier) : undefined;
        if (prefix !== undefined && target.files.size > 0 && familyOf(lang) === "js" && /^\.\.?\//.test(prefix)) {
          const base = joinPath(parentDir(file), prefix);
          const full = base === undefined ? undefined : prefix.endsWith("/") && base !== "" ? `${base}/` : base;
          if (full !== undefined && [...target.files].some((t) => t.startsWith(full) && t !== file)) pass.computedMayReach.push(location(file, ref.start_line));
        }
        continue;
      }
      let matched: boolean;
      if (target.files.size > 0) {
        // A file never imports itself (a Go external test package imports its own folder's other files).
        matched = res.files.some((f) => target.files.has(f) && f !== file) && !res.files.some((t) => isOwnDeclaration(file, t));
      } else if (res.external) {
        matched = lang.matchesExternal ? lang.matchesExternal(query, ref, res, includeSubmodules) : defaultMatchesExternal(query, res, includeSubmodules);
      } else {
        matched = matchesModulePath(query, res.module, DEFAULT_PATH_SYNTAX, includeSubmodules);
        if (!matched && ref.specifier === query) for (const f of res.files) pass.specifierTargets.add(f);
      }
      if (matched) pass.records.push({ file, ref, res, lang });
    }
  }
  return pass;
}

/**
 * A file's imports and their resolutions, kept across processes with the file's state when its
 * facts were checked (the fields and racy rule of the fact cache, `fact-store.ts` `isStatHit`;
 * `checkedMs` is taken before the facts were loaded).
 */
interface KeptFile {
  stat: KeptStat;
  /** {@link importsKey} of `imports`. */
  key: string;
  imports: ImportRef[];
  resolutions: Resolution[];
}

/**
 * What the import screen read in a file it ruled out (`import-scan.ts`; the scan does not depend on
 * the query), with the file's state as for {@link KeptFile}.
 */
interface KeptScan {
  stat: KeptFile["stat"];
  scan: ImportScan;
}

interface KeptImports {
  byFile: Map<string, KeptFile>;
  /** Files the screen ruled out, by path. */
  scans: Map<string, KeptScan>;
  changed: boolean;
}

/**
 * Name of the kept scans' derived value. Scans kept by a release whose scanned text ran names
 * together (`importsession`, before `import-scan.ts` kept a space between them) are under another
 * name and never read: a whole-name screen would wrongly rule their files out.
 */
const KEPT_SCANS = "importers:scans:2";

/** Above this many characters the kept imports start again from the current query's files. */
const MAX_KEPT_CHARS = 8_000_000;

/**
 * The imports and resolutions an earlier process kept for this tree (`project-view.ts`
 * `loadDerived`: same walk, files read by resolvers unchanged), loaded once per view.
 */
function keptImports(project: ProjectView): KeptImports {
  return memoize(project, "importers:kept-imports", () => {
    const saved = loadDerived<[string, KeptFile][]>(project, "importers:imports");
    const scans = loadDerived<[string, KeptScan][]>(project, KEPT_SCANS);
    return { byFile: new Map(Array.isArray(saved) ? saved : []), scans: new Map(Array.isArray(scans) ? scans : []), changed: false };
  });
}

/** Keeps what this query read and resolved for later processes (see {@link keptImports}). */
function saveKeptImports(project: ProjectView, files: readonly string[]): void {
  const kept = keptImports(project);
  if (!kept.changed) return;
  const now = new Set(files);
  saveCapped(project, "importers:imports", [...kept.byFile], now);
  saveCapped(project, KEPT_SCANS, [...kept.scans], now);
  kept.changed = false;
}

/** Keeps `entries` under `name`, only those of `files` when all are over {@link MAX_KEPT_CHARS}, nothing when those are too. */
function saveCapped(project: ProjectView, name: string, entries: [string, unknown][], files: ReadonlySet<string>): void {
  if (!saveDerived(project, name, entries, MAX_KEPT_CHARS)) saveDerived(project, name, entries.filter(([f]) => files.has(f)), MAX_KEPT_CHARS);
}

/** What a file's resolutions are computed from, besides the tree: its imports, without their text. */
function importsKey(imports: readonly ImportRef[]): string {
  return JSON.stringify(imports.map(({ lines: _lines, ...ref }) => ref));
}

/**
 * Lists the files that import `args.module_name` (see the module comment).
 * @throws ToolError `INVALID_ARGUMENT` (empty, over-long or multi-line name; a trailing part that
 *   matches several modules — the message lists them), `TIMEOUT` (aborted), `UNSUPPORTED`
 *   (ripgrep missing for the file walk).
 */
export async function findImporters(ws: Workspace, args: FindImportersArgs, signal?: AbortSignal, output?: OutputScope): Promise<EvidenceResult> {
  const { query, unwrapped } = checkModuleName(args.module_name);
  const includeSubmodules = args.include_submodules === true;
  throwIfAborted(signal);
  let found: { project: ProjectView; target: QueryTarget; pass: MatchPass } | undefined;
  let early: EarlyLookup | undefined;
  try {
    for (let attempt = 0; found === undefined; attempt++) {
      const final = attempt > 0;
      const snapshot = treeSnapshot(ws, { ...(signal ? { signal } : {}), refresh: final });
      if (attempt === 0 && !includeSubmodules) early = earlyLookup(ws, query, snapshot, signal);
      else if (early !== undefined && !early.used) early.cancel.abort();
      const project = (await snapshot).view;
      const plan = planKey(query, includeSubmodules);
      let target = keptTarget(project, plan);
      if (target === undefined) {
        target = await interpretQuery(ws, project, query);
        if (includeSubmodules && target.files.size > 0) target = { ...target, files: await withSubmodules(project, target.files) };
        await keepPlan(project, plan, target);
      }
      throwIfAborted(signal);
      let pass: MatchPass | undefined;
      if (target.trailing !== undefined) {
        // A name imported exactly as written (`import flask`: external or top-level) wins over the
        // modules that merely end in it (`cliapp.inner1.inner2.flask`); the note names them.
        const { candidates, families, ambiguity } = target.trailing;
        const guessed = target.files;
        const exact = await collectMatches(ws, project, { files: new Set(), families }, query, signal, final, includeSubmodules, final ? undefined : early);
        if (exact === undefined) continue;
        if (exact.records.some((r) => r.res.external || !r.res.files.some((f) => guessed.has(f)))) {
          const listed = shortList(candidates);
          const other = candidates.length === 1 ? `a module of this repository also ends in it: ${listed}` : `${candidates.length} modules of this repository also end in it: ${listed}`;
          target = { files: new Set(), families, note: `Read as the module named exactly '${query}', which files import; ${other}. Pass that full name or path for its importers.` };
          pass = exact;
        } else if (ambiguity !== undefined) {
          throw ambiguity;
        }
      }
      pass ??= await collectMatches(ws, project, target, query, signal, final, includeSubmodules, final ? undefined : early);
      if (pass === undefined) continue;
      if (target.files.size === 0 && pass.specifierTargets.size > 0) {
        // An alias only some files can resolve (`~/Button` under web/jsconfig.json): take the files it
        // leads to as targets and look again, so importers that use other specifiers are found too.
        const files = pass.specifierTargets;
        target = { files, reading: `read as ${countedFiles([...files].sort())}, where '${query}' leads` };
        const second = await collectMatches(ws, project, target, query, signal, true, includeSubmodules);
        if (second === undefined) continue;
        for (const r of pass.records) second.records.push(r); // no spread: a huge list would overflow the stack
        pass = second;
      }
      found = { project, target, pass };
    }
  } finally {
    // A run started early and not taken (the query read otherwise) is stopped.
    if (early !== undefined && !early.used) early.cancel.abort();
  }
  const { project, target, pass } = found;
  const { records, unresolvedSeen, computedMayReach, blindSpots, facts } = pass;
  saveKeptImports(project, [...pass.searched, ...pass.facts.screened]);
  saveLexicalImports(project);
  saveKeptPlans(project);

  // One record per statement and module name, in evidence order (path, lines, name).
  const seen = new Set<string>();
  const pending: { rec: MatchRecord; name: string }[] = [];
  for (const rec of records) {
    const name = rec.res.module;
    const key = `${rec.file}\0${rec.ref.start_line}\0${rec.ref.end_line}\0${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    pending.push({ rec, name });
  }
  const byOrder = (a: { rec: MatchRecord; name: string }, b: { rec: MatchRecord; name: string }) =>
    a.rec.file !== b.rec.file
      ? a.rec.file < b.rec.file ? -1 : 1
      : a.rec.ref.start_line - b.rec.ref.start_line || a.rec.ref.end_line - b.rec.ref.end_line || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  pending.sort(byOrder);
  // Snippets are read only for the records the budget can show (`recordsShown`), so a module with
  // thousands of importers costs a bounded number of reads; the others count in `total`.
  const shown = recordsShown(
    pending.map((p) => p.rec.file),
    output?.all === true ? Infinity : args.max_results,
  );
  // Statements whose lines came with the (cached) facts need no read.
  const hasLines = (ref: ImportRef) => ref.lines !== undefined && ref.lines.length === ref.end_line - ref.start_line + 1;
  const toRead = [...new Set([...shown].filter((i) => !hasLines((pending[i] as { rec: MatchRecord }).rec.ref)).map((i) => (pending[i] as { rec: MatchRecord }).rec.file))];
  const texts = new Map<string, string[] | undefined>();
  await mapLimit(toRead, 8, async (file) => {
    try {
      texts.set(file, (ws.readTextSync(file) ?? (await ws.readText(file))).lines);
    } catch {
      texts.set(file, undefined); // gone or unreadable since it was parsed: its records are left out
    }
  });
  const evidence: Evidence[] = [];
  pending.forEach(({ rec, name }, i) => {
    const { file, ref, lang } = rec;
    const fields = {
      kind: "import" as const,
      name,
      language: lang.id,
      // `alias` renames the module only (`import a.b as c`), never a name taken from it (`memberAlias`).
      ...(ref.alias !== undefined && rec.res.memberAlias !== true ? { alias: ref.alias } : {}),
      ...(ref.flags && ref.flags.length > 0 ? { flags: [...ref.flags] } : {}),
    };
    if (shown.has(i) && hasLines(ref)) {
      evidence.push(rangeEvidence(file, ref.lines as string[], ref.start_line, ref.end_line, fields));
      return;
    }
    if (!shown.has(i)) {
      if (texts.get(file) !== undefined || !texts.has(file)) {
        const { kind, name: n, ...rest } = fields;
        evidence.push({ path: file, start_line: ref.start_line, end_line: ref.end_line, kind, name: n, snippet: "", ...rest });
      }
      return;
    }
    const lines = texts.get(file);
    if (lines !== undefined) evidence.push(linesEvidence(file, lines, ref.start_line, ref.end_line, fields));
  });
  evidence.sort((a, b) => compareEvidence(a, b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const notes: AdviceText[] = [];
  if (unwrapped) notes.push(advice`${param("module_name")} read as '${query}'.`);
  if (target.note) notes.push(plain(target.note));
  if (target.reading && evidence.length === 0) notes.push(plain(`${target.reading}.`));
  if (evidence.length === 0) notes.push(plain(await emptyNote(query, target, project)));
  if (computedMayReach.length > 0) {
    const n = computedMayReach.length;
    const listed = listAdvice([...computedMayReach.slice(0, 3).map((l) => [l]), ...(n > 3 ? [["…"]] : [])]);
    notes.push(advice`Not counted: ${n} import()/require() with a computed specifier whose literal start could lead here (${listed}); which file it loads is decided at run time.`);
  }
  if (evidence.length === 0 && unresolvedSeen.length > 0) {
    const listed = listAdvice(unresolvedSeen.slice(0, 3).map((l) => [l]));
    notes.push(advice`${unresolvedSeen.length} import${unresolvedSeen.length === 1 ? "" : "s"} in the files searched could not be resolved (non-literal or broken), e.g. ${listed}.`);
  }
  const skipped = describeFactsSkips(facts);
  if (skipped) notes.push(plain(`${skipped}.`));
  for (const b of blindSpots) if (target.files.size === 0 || [...target.files].some((f) => languageFor(f)?.blindSpotNote === b)) notes.push(b);
  const { form: _form, ...result } = applyBudget(evidence, scopedBudget({ maxResults: args.max_results, note: joinAdvice(...notes) }, output));
  return result;
}

/** Why nothing was found, with close names when there are some. */
async function emptyNote(query: string, target: QueryTarget, project: ProjectView): Promise<string> {
  if (target.files.size > 0) {
    const list = [...target.files].sort();
    const noParser = list.filter((f) => languageFor(f) === undefined);
    const why =
      noParser.length > 0
        ? ` There is no parser for ${shortList(noParser)}; only JS/TS imports of such files (assets, JSON) were looked for. Languages with a parser: ${[...new Set(LANGUAGES.map((l) => l.id))].join(", ")}.`
        : "";
    return `No file imports ${list.length === 1 ? "" : "any of "}${countedFiles(list)}.${why}`;
  }
  const candidates = new Set<string>((await moduleNameIndex(project)).keys());
  for (const f of project.files) if (languageFor(f) !== undefined) candidates.add(stemOf(f));
  for (const name of (await jsResolver(project).packages()).keys()) candidates.add(name);
  const close = closeNames(query, candidates, 5);
  const tail = close.length > 0 ? ` Close names in this repository: ${close.join(", ")}.` : "";
  return `No module or file named '${query}' in this repository, and no file imports it by that name.${tail}`;
}
