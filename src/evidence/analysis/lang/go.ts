/**
 * Go: definitions and import edges (tree-sitter-go 0.25 grammar).
 *
 * Definitions (package level only; Go has no nested declarations worth a path):
 * - `func F` → `function`; `func (r *T[K]) M` → `method` with container `T` (pointer, generic
 *   arguments and parentheses stripped from the receiver type).
 * - `type T struct{…}` → `struct`, `type T interface{…}` → `interface` (and each method it lists →
 *   `method` with container `T`), any other `type T X` or alias `type T = X` → `type`.
 * - `const` → `constant`, `var` → `variable`, one definition per name (`var a, b = 1, 2` gives two).
 * - Range: the whole declaration (from the `func`/`type`/`const`/`var` keyword) for a single
 *   declaration; for a grouped one (`const ( … )`) the range of that spec only. Doc comments are
 *   not included.
 *
 * Imports: one {@link ImportRef} per import spec; `specifier` is the import path, `alias` the
 * name written before it (`f`, `_`, `.`). The range is the whole `import "x"` declaration, or for a
 * grouped `import ( … )` the spec's own line.
 *
 * Resolution (Go modules reference, https://go.dev/ref/mod#go-mod-file-module): an import path
 * `P` belongs to the module whose `module` path is the longest prefix of `P` (equal, or followed
 * by `/`) among every `go.mod` in the tree — so multi-module repositories and `go.work`/`replace`
 * setups map to the local copy; when two `go.mod` files declare the same path, the one nearest to
 * the importing file wins. The package folder is the module folder plus the rest of `P`; a
 * `vendor/P` folder next to the importing module's `go.mod` is used first, as `go build
 * -mod=vendor` does. The resolution's files are the `.go` files directly in that folder (names
 * starting with `_` or `.` are ignored, as by the go tool), so the importers of a file are the
 * importers of its package folder. A path outside every local module (the standard library,
 * third-party modules) is external, matched by its whole path (`net` never matches `net/http`); a path inside a local module whose folder
 * holds no `.go` file is external and `unresolved` (a broken import).
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution, SymbolDef } from "./language.js";
import { matchesModulePath } from "./external-match.js";
import { fileTree, isWithin, joinPath, memoize, parentDir } from "./project-files.js";
import { allChildren, namedChildren, nodeLines, type LineRange } from "./syntax.js";
import { extractGoReferences } from "./go-references.js";

/** Extracts Go definitions and imports from a `source_file` tree. */
function extract(root: SyntaxNode): FileFacts {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  for (const decl of namedChildren(root)) {
    switch (decl.type) {
      case "import_declaration":
        collectImports(decl, imports);
        break;
      case "function_declaration":
        pushSymbol(symbols, decl.childForFieldName("name"), "function", nodeLines(decl));
        break;
      case "method_declaration":
        pushSymbol(symbols, decl.childForFieldName("name"), "method", nodeLines(decl), receiverType(decl));
        break;
      case "type_declaration":
        collectTypes(decl, symbols);
        break;
      case "const_declaration":
      case "var_declaration":
        collectValues(decl, decl.type === "const_declaration" ? "constant" : "variable", symbols);
        break;
    }
  }
  return { symbols, imports };
}

function pushSymbol(
  out: SymbolDef[],
  nameNode: SyntaxNode | null,
  kind: SymbolKind,
  range: LineRange,
  container?: string,
): void {
  if (nameNode === null || nameNode.text === "" || nameNode.text === "_") return;
  const def: SymbolDef = { name: nameNode.text, kind, ...range };
  if (container !== undefined) def.container = container;
  out.push(def);
}

/** True when the declaration uses the parenthesised group form (`const ( … )`). */
function isGrouped(decl: SyntaxNode): boolean {
  return allChildren(decl).some((c) => c.type === "(" || c.type.endsWith("_spec_list"));
}

/** The specs of a declaration, looking through a `*_spec_list` wrapper. */
function specsOf(decl: SyntaxNode, specTypes: readonly string[]): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const child of namedChildren(decl)) {
    if (specTypes.includes(child.type)) out.push(child);
    else if (child.type.endsWith("_spec_list")) {
      for (const spec of namedChildren(child)) if (specTypes.includes(spec.type)) out.push(spec);
    }
  }
  return out;
}

function collectImports(decl: SyntaxNode, out: ImportRef[]): void {
  const grouped = isGrouped(decl);
  for (const spec of specsOf(decl, ["import_spec"])) {
    const pathNode = spec.childForFieldName("path");
    if (pathNode === null) continue;
    const specifier = stringContent(pathNode);
    if (specifier === "") continue;
    const ref: ImportRef = { specifier, ...nodeLines(grouped ? spec : decl) };
    const name = spec.childForFieldName("name");
    if (name !== null) ref.alias = name.text;
    out.push(ref);
  }
}

/** The content of an interpreted ("…") or raw (`…`) string literal, without quotes. */
function stringContent(literal: SyntaxNode): string {
  const text = literal.text;
  if (text.length >= 2 && (text.startsWith('"') || text.startsWith("`"))) return text.slice(1, -1);
  return text;
}

function collectTypes(decl: SyntaxNode, out: SymbolDef[]): void {
  const grouped = isGrouped(decl);
  for (const spec of specsOf(decl, ["type_spec", "type_alias"])) {
    const range = nodeLines(grouped ? spec : decl);
    const typeNode = spec.childForFieldName("type");
    let kind: SymbolKind = "type";
    if (spec.type === "type_spec" && typeNode?.type === "struct_type") kind = "struct";
    else if (spec.type === "type_spec" && typeNode?.type === "interface_type") kind = "interface";
    const nameNode = spec.childForFieldName("name");
    pushSymbol(out, nameNode, kind, range);
    if (kind === "interface" && typeNode !== null && nameNode !== null) {
      for (const elem of namedChildren(typeNode)) {
        if (elem.type === "method_elem") {
          pushSymbol(out, elem.childForFieldName("name"), "method", nodeLines(elem), nameNode.text);
        }
      }
    }
  }
}

function collectValues(decl: SyntaxNode, kind: SymbolKind, out: SymbolDef[]): void {
  const grouped = isGrouped(decl);
  for (const spec of specsOf(decl, ["const_spec", "var_spec"])) {
    const range = nodeLines(grouped ? spec : decl);
    for (const name of spec.childrenForFieldName("name")) pushSymbol(out, name, kind, range);
  }
}

/** The receiver's base type name: `(s *Store)` → `Store`, `(p Pair[K, V])` → `Pair`. */
function receiverType(method: SyntaxNode): string | undefined {
  const receiver = method.childForFieldName("receiver");
  const param = receiver === null ? undefined : namedChildren(receiver).find((c) => c.type === "parameter_declaration");
  let type = param?.childForFieldName("type") ?? null;
  for (let depth = 0; type !== null && depth < 8; depth++) {
    switch (type.type) {
      case "type_identifier":
        return type.text;
      case "pointer_type":
      case "parenthesized_type":
        type = namedChildren(type)[0] ?? null;
        break;
      case "generic_type":
        type = type.childForFieldName("type");
        break;
      default:
        return type.text;
    }
  }
  return undefined;
}

/** A `go.mod` found in the tree: its folder and its `module` path. */
interface GoModule {
  dir: string;
  path: string;
}

/**
 * The `module` path of a go.mod text (`module example.com/m`, optionally quoted, `//` comments
 * allowed; go.mod reference: https://go.dev/ref/mod#go-mod-file-module).
 */
export function goModulePath(goMod: string): string | undefined {
  for (const raw of goMod.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    const m = /^module\s+(?:"([^"]+)"|`([^`]+)`|(\S+))$/.exec(line);
    if (m !== null) return m[1] ?? m[2] ?? m[3];
  }
  return undefined;
}

function goModules(project: ProjectView): Promise<GoModule[]> {
  return memoize(project, "go:modules", async () => {
    const mods: GoModule[] = [];
    for (const file of project.files) {
      if (file !== "go.mod" && !file.endsWith("/go.mod")) continue;
      const text = await project.readText(file);
      const path = text === undefined ? undefined : goModulePath(text);
      if (path !== undefined) mods.push({ dir: parentDir(file), path });
    }
    return mods;
  });
}

/** The `.go` files directly in `dir` that the go tool would consider. */
function goFilesIn(project: ProjectView, dir: string): string[] {
  return fileTree(project)
    .filesIn(dir)
    .filter((f) => {
      const base = f.slice(f.lastIndexOf("/") + 1);
      return base.endsWith(".go") && !base.startsWith("_") && !base.startsWith(".");
    });
}

async function resolve(ref: ImportRef, fromFile: string, project: ProjectView): Promise<Resolution> {
  const importPath = ref.specifier;
  const external: Resolution = { files: [], module: importPath, external: true };
  if (importPath === "" || importPath.startsWith(".") || importPath.startsWith("/")) return external;
  const mods = await goModules(project);
  const own = nearest(mods.filter((m) => isWithin(fromFile, m.dir)), fromFile);
  if (own !== undefined) {
    const vendored = joinPath(own.dir, "vendor", importPath);
    if (vendored !== undefined) {
      const files = goFilesIn(project, vendored);
      if (files.length > 0) return { files, module: importPath, external: false };
    }
  }
  const candidates = mods
    .filter((m) => importPath === m.path || importPath.startsWith(`${m.path}/`))
    .sort((a, b) => b.path.length - a.path.length);
  for (let i = 0; i < candidates.length; ) {
    const length = candidates[i]?.path.length;
    const same = candidates.filter((m) => m.path.length === length);
    i += same.length;
    const mod = nearest(same, fromFile);
    if (mod === undefined) continue;
    const dir = joinPath(mod.dir, importPath.slice(mod.path.length + 1));
    if (dir === undefined) continue;
    const files = goFilesIn(project, dir);
    if (files.length > 0) return { files, module: importPath, external: false };
  }
  // Inside a local module's path but no such package folder: a broken import.
  return candidates.length > 0 ? { ...external, unresolved: true } : external;
}

/**
 * The import path of the package a `.go` file belongs to: the module path of the deepest
 * `go.mod` above it plus the folder below that (`internal/store/store.go` →
 * `example.com/shop/internal/store`); for a file under `<module>/vendor/`, the path below
 * `vendor/`. Empty for files outside every module.
 */
async function moduleNames(file: string, project: ProjectView): Promise<string[]> {
  if (!file.endsWith(".go")) return [];
  const dir = parentDir(file);
  const mods = (await goModules(project)).filter((m) => isWithin(file, m.dir));
  const own = mods.reduce<GoModule | undefined>((a, m) => (a === undefined || m.dir.length > a.dir.length ? m : a), undefined);
  if (own === undefined) return [];
  const rel = own.dir === "" ? dir : dir.slice(own.dir.length + 1);
  if (rel.startsWith("vendor/")) return [rel.slice("vendor/".length)];
  return [rel === "" ? own.path : `${own.path}/${rel}`];
}

/**
 * Of modules declaring the same path, the one nearest to `fromFile`: a module folder that
 * contains the file (the deepest such), else the one sharing the most leading folders with it;
 * ties go to the first folder in sort order.
 */
function nearest(mods: readonly GoModule[], fromFile: string): GoModule | undefined {
  const fromDir = parentDir(fromFile).split("/");
  const score = (m: GoModule): number => {
    const segs = m.dir === "" ? [] : m.dir.split("/");
    let shared = 0;
    while (shared < segs.length && segs[shared] === fromDir[shared]) shared++;
    return (shared === segs.length ? 10_000 : 0) + shared;
  };
  let best: GoModule | undefined;
  for (const m of mods) {
    if (best === undefined) best = m;
    else {
      const d = score(m) - score(best);
      if (d > 0 || (d === 0 && m.dir < best.dir)) best = m;
    }
  }
  return best;
}

/** Every importer spells the package's import path literally (the folder name when there is none). */
async function importerHints(file: string, project: ProjectView): Promise<{ literals: string[] }> {
  const names = await moduleNames(file, project);
  const dir = parentDir(file);
  return { literals: names.length > 0 ? names : [dir.slice(dir.lastIndexOf("/") + 1) || file] };
}

/** The Go language module. */
export const go: LanguageSpec = {
  id: "go",
  extensions: [".go"],
  wasm: "tree-sitter-go/tree-sitter-go.wasm",
  sample: 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("ok") }\n',
  extract: (root) => extract(root),
  resolve,
  moduleNames,
  importerHints,
  packageFiles: (dir, project) => goFilesIn(project, dir),
  // An import path names one package: `net` is not `net/http` (Go spec, "Import declarations").
  matchesExternal: (query, _ref, res, sub) => matchesModulePath(query, res.module, { separators: ["/"], members: false }, sub),
  references: {
    extract: (root) => extractGoReferences(root),
    sharedScope: (file, project) => goFilesIn(project, parentDir(file)),
  },
};
