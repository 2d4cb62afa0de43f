/**
 * The repository catalogue: every definition and import statement the fact cache knows, as
 * plain records. It serves programs that need to enumerate what a repository defines
 * (`codecite eval`'s question generator, a question's code-name lookup) rather than look one
 * name up; the records come from the same facts `find_symbol` and `find_importers` use, so a
 * name listed here is one those tools can find.
 */
import type { Workspace } from "./sandbox/workspace.js";
import type { SymbolKind } from "./evidence.js";
import { loadFacts } from "./analysis/facts.js";
import { statFiles, treeSnapshot } from "./analysis/project-view.js";

/** One definition (lines 1-based, inclusive; the whole definition). */
export interface CatalogDefinition {
  path: string;
  name: string;
  /** Enclosing type for methods (`Class` of `Class.method`). */
  container?: string;
  kind: SymbolKind;
  start_line: number;
  end_line: number;
}

/** One import statement as written (before resolution). */
export interface CatalogImport {
  path: string;
  /** The module as written (`..pkg.mod`, `./x.js`, a Go import path …). */
  specifier: string;
  start_line: number;
}

/** Everything the fact cache knows about a repository, sorted by path then line. */
export interface RepositoryCatalog {
  /** Every walkable file, repository-relative, sorted. */
  files: string[];
  definitions: CatalogDefinition[];
  imports: CatalogImport[];
}

/**
 * The catalogue of `ws`: walks the tree once and loads the facts of every source file
 * (parsing only files whose facts are not cached).
 * @throws ToolError `TIMEOUT` when `signal` aborts, `UNSUPPORTED` without ripgrep.
 */
export async function repositoryCatalog(ws: Workspace, signal?: AbortSignal): Promise<RepositoryCatalog> {
  const tree = await treeSnapshot(ws, signal ? { signal } : {});
  const facts = await loadFacts(ws, statFiles(ws, tree.files), signal);
  const definitions: CatalogDefinition[] = [];
  const imports: CatalogImport[] = [];
  for (const file of [...facts.keys()].sort()) {
    const f = facts.get(file)!;
    for (const s of f.symbols) {
      const d: CatalogDefinition = { path: file, name: s.name, kind: s.kind, start_line: s.start_line, end_line: s.end_line };
      if (s.container !== undefined) d.container = s.container;
      definitions.push(d);
    }
    for (const i of f.imports) imports.push({ path: file, specifier: i.specifier, start_line: i.start_line });
  }
  definitions.sort((a, b) => (a.path === b.path ? a.start_line - b.start_line : a.path < b.path ? -1 : 1));
  imports.sort((a, b) => (a.path === b.path ? a.start_line - b.start_line : a.path < b.path ? -1 : 1));
  return { files: [...tree.files], definitions, imports };
}
