/**
 * What a language module (`src/evidence/lang/<language>.ts`) provides: its grammar, how to
 * extract definitions and import statements from a syntax tree, and how its imports resolve
 * to files of the repository. Adding a language means adding one such module.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { EvidenceFlag, SymbolKind } from "../evidence.js";

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
}
