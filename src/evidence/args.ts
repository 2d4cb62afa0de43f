/**
 * Arguments of the five evidence functions, after validation. The model-facing zod schemas
 * in `src/tools/code-tools.ts` produce exactly these shapes (checked by the compiler where
 * the tools call the functions); defaults are already applied.
 */
import type { SymbolKind } from "./evidence.js";
import type { UseKind } from "./analysis/lang/language.js";

/** `search_code`. */
export interface SearchCodeArgs {
  query: string;
  /** Treat `query` as a Rust-syntax regular expression (default false: literal). */
  regex: boolean;
  /** Repository-relative file or folder to search in. */
  path?: string;
  /** ripgrep glob that narrows the files searched. */
  glob?: string;
  /** Exact case; absent means smart case. */
  case_sensitive?: boolean;
  /** 1..200. */
  max_results: number;
}

/** `find_symbol`. */
export interface FindSymbolArgs {
  /** A name, or `Container.name`. */
  name: string;
  kind?: SymbolKind;
  path?: string;
  /** 1..200. */
  max_results: number;
}

/** `read_evidence`. Lines are 1-based and inclusive. */
export interface ReadEvidenceArgs {
  path: string;
  start_line?: number;
  end_line?: number;
}

/** `find_importers`. */
export interface FindImportersArgs {
  /** Dotted Python module (or a unique trailing part), JS/TS specifier, Rust path (`crate::a::b`), Go import path or package folder, Java name, or repository-relative file path. */
  module_name: string;
  /** The module and every module under it (package submodules, subpackages); absent or false: the exact module only. */
  include_submodules?: boolean;
  /** 1..200. */
  max_results: number;
}

/** `read_git_diff`. */
export interface ReadGitDiffArgs {
  base?: string;
  head?: string;
  path?: string;
  /** 0..20. */
  context_lines: number;
}

/** `find_references`. */
export interface FindReferencesArgs {
  /** The definition, named as `find_symbol` takes it (`func`, `Class.method`, `pkg.mod.func`, `Type::method`, `pkg.Func`). */
  name: string;
  /** Repository-relative file or folder holding the definition. */
  path?: string;
  /** Only uses of this kind. */
  kind?: UseKind;
  /** 1..200. */
  max_results: number;
}
