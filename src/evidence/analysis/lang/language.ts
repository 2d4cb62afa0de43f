/**
 * What a language module (`src/evidence/analysis/lang/<language>.ts`) provides: its grammar, how to
 * extract definitions and import statements from a syntax tree, and how its imports resolve
 * to files of the repository. Adding a language means adding one such module.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { EvidenceFlag, SymbolKind } from "../../evidence.js";

/** A definition found in one file. Lines are 1-based and inclusive; the range spans the whole definition. */
export interface SymbolDef {
  name: string;
  /** Enclosing type for methods (`Class` of `Class.method`, a Go receiver type, a Rust `impl` type). */
  container?: string;
  kind: SymbolKind;
  start_line: number;
  end_line: number;
}

/** An import statement as written in one file, before resolution. */
export interface ImportRef {
  /**
   * The imported module exactly as written: Python dotted name with its leading dots
   * (`..pkg.mod`), a JS/TS specifier (`./x.js`, `@scope/p`), a Go import path, a Rust use
   * path (`crate::a::b`), a Java name (`a.b.C`, `a.b.*`).
   */
  specifier: string;
  /** Names imported from the module (`from X import a, b`; JS named imports; Rust group members). */
  names?: string[];
  /** Local alias (`import a.b as c`, Go `alias "path"`). */
  alias?: string;
  /** The whole statement (for a grouped Go import, the spec line). */
  start_line: number;
  end_line: number;
  /** `type_checking`, `type_only`, `dynamic`, `unresolved` (a non-literal specifier) … */
  flags?: EvidenceFlag[];
  /**
   * Inline modules that enclose the statement, outermost first (Rust `mod a { mod b { use super::x; } }`
   * → `["a", "b"]`). Relative paths (`self::`, `super::`, `mod x;`) resolve from there. Absent at file level.
   */
  scope?: string[];
  /**
   * A file path written in the statement itself, resolved relative to the declaring file's folder
   * (Rust `#[path = "imp/unix.rs"] mod imp;`). Absent when the statement names no file.
   */
  filePath?: string;
  /**
   * Optional (additive, J): the statement's lines (`start_line..end_line`) exactly as in the file,
   * set by `facts.ts` when the facts are computed, so `find_importers` shows cached statements
   * without reading the file again. Extractors leave it out.
   */
  lines?: string[];
}

/** What one file holds, as cached per `(size, mtime, hash)`. Plain JSON data. */
export interface FileFacts {
  symbols: SymbolDef[];
  imports: ImportRef[];
}

/** A read-only view of the repository that resolvers use (file set and config files). */
export interface ProjectView {
  /** Every walkable file, repository-relative, sorted. */
  readonly files: readonly string[];
  has(path: string): boolean;
  /** Reads a small text file (tsconfig.json, package.json, go.mod …); `undefined` when absent or unreadable. */
  readText(path: string): Promise<string | undefined>;
}

/** Where an import leads: files of this repository, or an external module by name. */
export interface Resolution {
  /** Repository-relative files the import refers to (a Go package folder gives all its files). */
  files: string[];
  /** The resolved module name shown as `Evidence.name` (e.g. `pkg.rag_common`, `./util.ts` → `src/util.ts`). */
  module: string;
  /** True when nothing in the tree matched (an external package, or a broken import). */
  external: boolean;
  /**
   * Optional (additive, B1): true when the import could not be followed at all — a non-literal
   * specifier, a relative path that leads to no file, a relative import above the top-level package —
   * as opposed to a package that is simply not in the tree. `find_importers` counts these in `note`.
   */
  unresolved?: boolean;
  /**
   * Optional (additive, P): `ImportRef.alias` renames a name the module holds, not the module
   * `module` names (Python `from X import f as g` where `f` is not a submodule), so import records
   * leave `alias` out. Absent → the alias, if any, names the resolved module.
   */
  memberAlias?: boolean;
}

export interface LanguageSpec {
  /** `python`, `typescript`, `tsx`, `javascript`, `go`, `rust`, `java`. */
  readonly id: string;
  /** File endings handled, with the dot: `.py`, `.pyi`. */
  readonly extensions: readonly string[];
  /** Grammar `.wasm` as `<package>/<file>.wasm`, resolved with `createRequire(...).resolve`. */
  readonly wasm: string;
  /** Extracts definitions and imports from a parsed tree. Must not recurse without a depth limit. */
  extract(root: SyntaxNode, source: string): FileFacts;
  /** Resolves one import of `fromFile`. */
  resolve(ref: ImportRef, fromFile: string, project: ProjectView): Promise<Resolution>;
  /**
   * A known blind spot of this language's import edges, for `find_importers` to put in `note`
   * (Java: classes of the same package need no import). Absent when there is none worth saying.
   */
  readonly blindSpotNote?: string;
  /**
   * Optional (additive, B1): languages whose files import each other share a family (`js` for
   * TypeScript, TSX and JavaScript). `find_importers` looks for the importers of a file only among
   * files of the file's family. Absent → the `id`.
   */
  readonly family?: string;
  /** Optional (additive, B1): a tiny valid source parsed by the start-up self-test; absent → `""`. */
  readonly sample?: string;
  /**
   * Optional (additive, B1): the names under which `file` can be imported (Python: `pkg.rag_common`,
   * plus the names under other import roots). `find_importers` matches a `module_name` against them,
   * exactly first, then as a trailing part (`rag_common` finds `pkg.rag_common`). Absent → files of
   * this language are found by path and by `Resolution.module` only.
   */
  moduleNames?(file: string, project: ProjectView): Promise<string[]>;
  /**
   * Optional (additive, B1): text that every file importing `file` must contain, used to avoid
   * parsing every file for one query. `literals` are plain strings; `patterns` are regexes (Rust
   * `regex` syntax, as ripgrep takes them) for forms that do not name the file, e.g. `from . import x`
   * reaching a package's `__init__.py`. A file matching none of them is not parsed. Absent → the
   * file's stem and its folder's name (enough for Go, Rust and Java imports).
   */
  importerHints?(file: string, project: ProjectView): Promise<{ literals: string[]; patterns?: string[] }>;
  /**
   * Optional (additive, B1): whether an import that resolved outside the tree (`external: true`)
   * matches a `module_name` query. Absent → `res.module` equals the query or starts with it plus one
   * of `.`, `/`, `::`.
   */
  matchesExternal?(query: string, ref: ImportRef, res: Resolution): boolean;
  /**
   * Optional (additive, J): for languages where a folder is a package (Go), the files that make up
   * the package at folder `dir` (repository-relative), so `find_importers` reads a folder query as
   * that package; empty when `dir` holds none. Absent → folders are not packages of this language.
   */
  packageFiles?(dir: string, project: ProjectView): readonly string[];
}
