/**
 * Rust: definitions and import edges (tree-sitter-rust 0.24 grammar).
 *
 * Definitions (items at file level, in inline `mod { … }` blocks, `impl`, `trait` and `extern`
 * blocks; items local to a function body are left out):
 * - `fn` → `function`; inside `impl T` / `impl Trait for T` → `method` with container `T`
 *   (references, generic arguments and path qualifiers stripped: `impl<'a> fmt::Display for &'a
 *   Wrapper<T>` → `Wrapper`); inside `trait Tr` (required or provided) → `method` with container `Tr`.
 * - `struct`/`union` → `struct`, `enum` → `enum`, `trait` → `trait`, `type` (and associated
 *   types) → `type`, `const`/`static` → `constant` (`static mut` → `variable`), `mod` → `module`,
 *   `macro_rules!` → `function`. Items inside `impl`/`trait` carry that container.
 * - Range: from the first outer attribute (`#[derive(…)]`, `#[test]`) attached to the item to its
 *   end; `///` doc comments are not included.
 *
 * Imports (at item level and among the statements of function bodies and statement blocks; not
 * inside other expressions):
 * - `use` → one {@link ImportRef} per statement. `specifier` is the path before any `{…}` group or
 *   `*` glob (`crate::config`), `names` the group members relative to it as written, aliases
 *   dropped (`["Config", "inner::load", "self", "*"]`); a plain `use a::b as c` has `alias` `c`.
 *   A top-level group without prefix (`use {a, b::c}`) gives one statement per member.
 * - `mod x;` → specifier `x`, flag `mod_declaration` (and `filePath` from a `#[path = "…"]`);
 *   `extern crate x [as y];` → specifier `x`.
 * - `scope` holds the enclosing inline modules, so `super::` in `mod tests { … }` is right.
 * - The range is the whole statement with its outer attributes (`#[cfg(unix)]`).
 *
 * Resolution (The Rust Reference, "Paths" and "Modules"/"Module source filenames"):
 * - Crates come from each `Cargo.toml` with a `[package]` (Cargo target auto-discovery:
 *   `src/lib.rs` or `[lib] path`, `src/main.rs`, `src/bin/*.rs`, `src/bin/<name>/main.rs`, `[[bin]] path`,
 *   `tests/*.rs`, `examples/*.rs`, `benches/*.rs`, `build.rs`). A file belongs to the crate root whose
 *   folder is the deepest one containing it (lib before main); its module path follows from its
 *   place under that folder (`src/a/b.rs` and `src/a/b/mod.rs` → `crate::a::b`). Without a
 *   manifest, the nearest folder holding `lib.rs` or `main.rs` is the crate root.
 * - `crate::`, `self::`, `super::` (repeated) start from the crate root or the current module;
 *   a first segment naming a workspace crate (package or `[lib] name`, `-` read as `_`) starts at
 *   that crate's library root; any other first segment is tried as a child module of the current
 *   module (2018-edition uniform paths), else it is an external crate (`std`, `serde`), named by
 *   the path as written (`std::collections::HashMap`; {@link matchesExternal} compares by segments). Each member path resolves to the deepest module file that exists
 *   (`crate::a::b::Item` → `src/a/b.rs`, `src/a/b/mod.rs`, else `src/a.rs` …, else the crate
 *   root); the statement's files are the union over its members.
 * - `mod x;` in a mod-rs file (`mod.rs` or a crate root) → `x.rs` or `x/mod.rs` beside it; in any
 *   other file `a.rs` → `a/x.rs` or `a/x/mod.rs`; enclosing inline modules add folders.
 *   `#[path = "…"]` gives the file relative to the declaring file's folder (its value is kept in
 *   `filePath`); a `path` set through `cfg_attr` is not read.
 * - `extern crate x` → workspace crate `x`'s library root, else external `x`.
 */
import { extractRustReferences } from "./rust-references.js";
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution, SymbolDef } from "./language.js";
import { matchesModulePath } from "./external-match.js";
import { fileTree, isWithin, joinPath, memoize, parentDir } from "./project-files.js";
import { namedChildren, nodeLines, selectNodes } from "./syntax.js";

/** The flag on an {@link ImportRef} that comes from a `mod x;` declaration. */
export const MOD_DECLARATION_FLAG = "mod_declaration";

/** Node types collected: definitions and import statements. */
const ITEM_TYPES = new Set([
  "function_item", "function_signature_item", "struct_item", "union_item", "enum_item", "trait_item",
  "type_item", "associated_type", "const_item", "static_item", "mod_item", "macro_definition",
  "use_declaration", "extern_crate_declaration",
]);

/**
 * Node types walked into: item containers, function bodies and the statement blocks inside them
 * (`#[cfg(unix)] { use …; }`, `unsafe { … }`), whose statements may be `use` declarations or
 * items. Other expressions are not entered for items; `use` declarations anywhere else (a closure
 * body, an `if` or `match` arm, a `const` block) are collected by a second pass over the tree.
 */
const ENTER_TYPES = new Set([
  "mod_item", "declaration_list", "impl_item", "trait_item", "foreign_mod_item", "function_item", "block",
  "expression_statement", "unsafe_block",
]);

/** Deepest nesting of ancestors looked at (guards against pathological trees). */
const MAX_ANCESTORS = 512;

/** Where an item sits: enclosing inline modules, its impl/trait container, inside a body or not. */
interface ItemContext {
  scope: string[];
  /** The `impl` self type or the trait that the item is a direct member of. */
  container?: string;
  inBody: boolean;
}

function contextOf(item: SyntaxNode): ItemContext {
  const scope: string[] = [];
  let inBody = false;
  let node = item.parent;
  for (let depth = 0; node !== null && depth < MAX_ANCESTORS; depth++) {
    if (node.type === "block") inBody = true;
    else if (node.type === "mod_item") {
      const name = node.childForFieldName("name");
      if (name !== null) scope.unshift(name.text);
    }
    node = node.parent;
  }
  // Only the direct members of an impl/trait body belong to it.
  const list = item.parent;
  const owner = list?.type === "declaration_list" ? list.parent : null;
  let container: ItemContext["container"];
  if (owner?.type === "impl_item") {
    const name = implTypeName(owner);
    if (name !== undefined) container = name;
  } else if (owner?.type === "trait_item") {
    const name = owner.childForFieldName("name");
    if (name !== null) container = name.text;
  }
  return container === undefined ? { scope, inBody } : { scope, container, inBody };
}

/** The self type of an `impl` block, reduced to its name: `&'a mut Wrapper<T>` → `Wrapper`. */
function implTypeName(impl: SyntaxNode): string | undefined {
  let type = impl.childForFieldName("type");
  for (let depth = 0; type !== null && depth < 8; depth++) {
    switch (type.type) {
      case "type_identifier":
      case "primitive_type":
        return type.text;
      case "reference_type":
      case "pointer_type":
      case "generic_type":
        type = type.childForFieldName("type");
        break;
      case "scoped_type_identifier":
        type = type.childForFieldName("name");
        break;
      default:
        return type.text.replace(/\s+/g, " ");
    }
  }
  return undefined;
}

/** The item's range, extended up to the first outer attribute attached to it. */
function itemRange(item: SyntaxNode): { start_line: number; end_line: number } {
  const range = nodeLines(item);
  let prev = item.previousNamedSibling;
  for (let n = 0; prev !== null && n < 64; n++) {
    if (prev.type === "attribute_item") range.start_line = nodeLines(prev).start_line;
    else if (prev.type !== "line_comment" && prev.type !== "block_comment") break;
    prev = prev.previousNamedSibling;
  }
  return range;
}

/** The file named by a `#[path = "…"]` attribute attached to the item, if any. */
function pathAttribute(item: SyntaxNode): string | undefined {
  let prev = item.previousNamedSibling;
  for (let n = 0; prev !== null && n < 64; n++) {
    if (prev.type === "attribute_item") {
      const attr = namedChildren(prev).find((c) => c.type === "attribute");
      const value = attr?.childForFieldName("value");
      if (attr !== undefined && namedChildren(attr)[0]?.text === "path" && value?.type === "string_literal") {
        const content = namedChildren(value).find((c) => c.type === "string_content");
        if (content !== undefined) return content.text;
      }
    } else if (prev.type !== "line_comment" && prev.type !== "block_comment") break;
    prev = prev.previousNamedSibling;
  }
  return undefined;
}

function definitionKind(item: SyntaxNode, ctx: ItemContext): SymbolKind | undefined {
  switch (item.type) {
    case "function_item":
    case "function_signature_item":
      return ctx.container === undefined ? "function" : "method";
    case "struct_item":
    case "union_item":
      return "struct";
    case "enum_item":
      return "enum";
    case "trait_item":
      return "trait";
    case "type_item":
    case "associated_type":
      return "type";
    case "const_item":
      return "constant";
    case "static_item":
      return namedChildren(item).some((c) => c.type === "mutable_specifier") ? "variable" : "constant";
    case "mod_item":
      return "module";
    case "macro_definition":
      return "function";
    default:
      return undefined;
  }
}

/** Extracts Rust definitions and imports from a `source_file` tree. */
function extract(root: SyntaxNode): FileFacts {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const usesSeen = new Set<number>();
  for (const item of selectNodes(root, ITEM_TYPES, ENTER_TYPES)) {
    const ctx = contextOf(item);
    if (item.type === "use_declaration") {
      usesSeen.add(item.id);
      collectUse(item, ctx, imports);
      continue;
    }
    if (item.type === "extern_crate_declaration") {
      const name = item.childForFieldName("name");
      if (name === null) continue;
      const ref: ImportRef = { specifier: name.text, ...itemRange(item) };
      const alias = item.childForFieldName("alias");
      if (alias !== null) ref.alias = alias.text;
      if (ctx.scope.length > 0) ref.scope = ctx.scope;
      imports.push(ref);
      continue;
    }
    if (item.type === "mod_item" && item.childForFieldName("body") === null) {
      const name = item.childForFieldName("name");
      if (name !== null) {
        const ref: ImportRef = { specifier: name.text, ...itemRange(item), flags: [MOD_DECLARATION_FLAG] };
        if (ctx.scope.length > 0) ref.scope = ctx.scope;
        const filePath = pathAttribute(item);
        if (filePath !== undefined) ref.filePath = filePath;
        imports.push(ref);
      }
    }
    if (ctx.inBody) continue;
    const kind = definitionKind(item, ctx);
    const name = item.childForFieldName("name");
    if (kind === undefined || name === null) continue;
    const def: SymbolDef = { name: name.text, kind, ...itemRange(item) };
    if (ctx.container !== undefined) def.container = ctx.container;
    symbols.push(def);
  }
  // `use` inside expressions the walk does not enter (closure bodies, match arms).
  for (const use of root.descendantsOfType("use_declaration")) {
    if (use === null || usesSeen.has(use.id)) continue;
    collectUse(use, contextOf(use), imports);
  }
  imports.sort((a, b) => a.start_line - b.start_line || a.end_line - b.end_line);
  return { symbols, imports };
}

/** One member of a use tree: its path segments from the statement's prefix, and whether it is a glob. */
interface UseLeaf {
  segments: string[];
  glob: boolean;
}

/** Renders a path node (`crate::a::b`, `::std::fmt`, `self`) into its segments. */
function pathSegments(node: SyntaxNode): string[] {
  const segments: string[] = [];
  let cur: SyntaxNode | null = node;
  for (let depth = 0; cur !== null && depth < 64; depth++) {
    if (cur.type === "scoped_identifier") {
      const name = cur.childForFieldName("name");
      if (name !== null) segments.unshift(name.text);
      const path = cur.childForFieldName("path");
      if (path === null) {
        segments.unshift(""); // leading `::` (an extern crate path)
        break;
      }
      cur = path;
    } else {
      segments.unshift(cur.text);
      break;
    }
  }
  return segments;
}

/** Members of a use tree, relative to `tree` itself (iterative; groups nest). */
function useLeaves(tree: SyntaxNode): UseLeaf[] {
  const leaves: UseLeaf[] = [];
  const stack: { node: SyntaxNode; prefix: string[] }[] = [{ node: tree, prefix: [] }];
  for (let guard = 0; stack.length > 0 && guard < 10_000; guard++) {
    const { node, prefix } = stack.pop() as { node: SyntaxNode; prefix: string[] };
    switch (node.type) {
      case "use_as_clause": {
        const path = node.childForFieldName("path");
        if (path !== null) leaves.push({ segments: [...prefix, ...pathSegments(path)], glob: false });
        break;
      }
      case "use_wildcard": {
        const path = namedChildren(node)[0];
        leaves.push({ segments: path === undefined ? prefix : [...prefix, ...pathSegments(path)], glob: true });
        break;
      }
      case "scoped_use_list": {
        const path = node.childForFieldName("path");
        const list = node.childForFieldName("list");
        const inner = path === null ? prefix : [...prefix, ...pathSegments(path)];
        if (list !== null) stack.push({ node: list, prefix: inner });
        break;
      }
      case "use_list": {
        const members = namedChildren(node).filter((c) => c.type !== "line_comment" && c.type !== "block_comment");
        for (let i = members.length - 1; i >= 0; i--) stack.push({ node: members[i] as SyntaxNode, prefix });
        break;
      }
      default:
        leaves.push({ segments: [...prefix, ...pathSegments(node)], glob: false });
    }
  }
  return leaves;
}

function collectUse(decl: SyntaxNode, ctx: ItemContext, out: ImportRef[]): void {
  const argument = decl.childForFieldName("argument");
  if (argument === null) return;
  const range = itemRange(decl);
  // A bare top-level group has no common prefix: one statement entry per member.
  const trees = argument.type === "use_list" ? namedChildren(argument) : [argument];
  for (const tree of trees) {
    let prefix: string[];
    let members: UseLeaf[] | undefined;
    let alias: string | undefined;
    if (tree.type === "scoped_use_list") {
      const path = tree.childForFieldName("path");
      prefix = path === null ? [""] : pathSegments(path);
      const list = tree.childForFieldName("list");
      members = list === null ? [] : useLeaves(list);
    } else if (tree.type === "use_wildcard") {
      const path = namedChildren(tree)[0];
      prefix = path === undefined ? [] : pathSegments(path);
      members = [{ segments: [], glob: true }];
    } else if (tree.type === "use_as_clause") {
      const path = tree.childForFieldName("path");
      if (path === null) continue;
      prefix = pathSegments(path);
      alias = tree.childForFieldName("alias")?.text;
    } else if (tree.type === "line_comment" || tree.type === "block_comment") {
      continue;
    } else {
      prefix = pathSegments(tree);
    }
    const ref: ImportRef = { specifier: prefix.join("::"), ...range };
    if (members !== undefined) ref.names = members.map((m) => [...m.segments, ...(m.glob ? ["*"] : [])].join("::"));
    if (alias !== undefined) ref.alias = alias;
    if (ctx.scope.length > 0) ref.scope = ctx.scope;
    out.push(ref);
  }
}

// ---------------------------------------------------------------------------------------------
// Resolution

/** A crate root: its root file, the folder module paths start from, and the library name. */
interface CrateRoot {
  file: string;
  dir: string;
  /** Library crate name (`_` for `-`), only for library roots. */
  libName?: string;
  /** Folder of the Cargo package, when a manifest declared it. */
  packageDir?: string;
}

/** The target kinds a Cargo.toml declares as arrays of tables (`[[bin]]`, `[[test]]` …). */
export type CargoTargetKind = "bin" | "test" | "example" | "bench";

/** One declared `[[bin]]`/`[[test]]`/`[[example]]`/`[[bench]]` target: its `name` and `path` keys as written. */
export interface CargoTarget {
  kind: CargoTargetKind;
  name?: string;
  path?: string;
}

/** What the resolver needs from a Cargo.toml (Cargo reference, "The Manifest Format" and "Cargo Targets"). */
export interface CargoManifest {
  packageName?: string;
  libName?: string;
  libPath?: string;
  /** Declared targets other than the library, in order. */
  targets: CargoTarget[];
  /** `[package] autobins/autotests/autoexamples/autobenches = false`: that kind is not auto-discovered. */
  noAutoDiscovery: CargoTargetKind[];
}

const TARGET_KINDS: ReadonlySet<string> = new Set<CargoTargetKind>(["bin", "test", "example", "bench"]);
const AUTO_KEYS: Readonly<Record<string, CargoTargetKind>> = { autobins: "bin", autotests: "test", autoexamples: "example", autobenches: "bench" };

/**
 * Reads the `[package] name` and `auto*` keys, `[lib] name/path`, and the `name`/`path` of each
 * `[[bin]]`, `[[test]]`, `[[example]]`, `[[bench]]` table of a Cargo.toml. Only basic `key =
 * "string"` / `key = false` lines inside those tables are read (no inline tables, no multi-line
 * strings), which is how these keys are written in practice.
 */
export function parseCargoManifest(text: string): CargoManifest {
  const out: CargoManifest = { targets: [], noAutoDiscovery: [] };
  let table = "";
  let target: CargoTarget | undefined;
  for (const raw of text.split(/\r?\n/)) {
    // A comment starts at a `#` after a blank; found with a search, not `/\s+#.*$/`, which read
    // each run of blanks again from each of its characters (quadratic in a line of blanks).
    const hash = raw.search(/\s#/);
    const line = (hash < 0 ? raw : raw.slice(0, hash)).trim();
    const header = /^(\[\[?)\s*([A-Za-z0-9_.-]+)\s*\]\]?$/.exec(line);
    if (header !== null) {
      table = header[2] ?? "";
      target = undefined;
      if (header[1] === "[[" && TARGET_KINDS.has(table)) {
        target = { kind: table as CargoTargetKind };
        out.targets.push(target);
      }
      continue;
    }
    const flag = /^(auto(?:bins|tests|examples|benches))\s*=\s*false\b/.exec(line);
    if (flag !== null && table === "package") {
      out.noAutoDiscovery.push(AUTO_KEYS[flag[1] as string] as CargoTargetKind);
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(line);
    if (kv === null) continue;
    const key = kv[1];
    const value = kv[2] ?? kv[3] ?? "";
    if (table === "package" && key === "name") out.packageName = value;
    else if (table === "lib" && key === "name") out.libName = value;
    else if (table === "lib" && key === "path") out.libPath = value;
    else if (target !== undefined && (key === "name" || key === "path")) target[key] = value;
  }
  return out;
}

/** Where Cargo looks for a declared target without `path`: `<folder>/<name>.rs`, then `<folder>/<name>/main.rs`. */
const TARGET_FOLDER: Readonly<Record<CargoTargetKind, string>> = { bin: "src/bin", test: "tests", example: "examples", bench: "benches" };

function crateRoots(project: ProjectView): Promise<CrateRoot[]> {
  return memoize(project, "rust:crates", async () => {
    const roots: CrateRoot[] = [];
    const seen = new Set<string>();
    const tree = fileTree(project);
    const add = (file: string | undefined, packageDir: string, libName?: string): void => {
      if (file === undefined || !project.has(file) || seen.has(file)) return;
      seen.add(file);
      const root: CrateRoot = { file, dir: parentDir(file), packageDir };
      if (libName !== undefined) root.libName = libName;
      roots.push(root);
    };
    const rsIn = (dir: string | undefined): string[] =>
      dir === undefined ? [] : tree.filesIn(dir).filter((f) => f.endsWith(".rs"));
    for (const manifestPath of project.files) {
      if (manifestPath !== "Cargo.toml" && !manifestPath.endsWith("/Cargo.toml")) continue;
      const text = await project.readText(manifestPath);
      if (text === undefined) continue;
      const manifest = parseCargoManifest(text);
      if (manifest.packageName === undefined) continue; // a virtual workspace manifest
      const pkg = parentDir(manifestPath);
      const libName = (manifest.libName ?? manifest.packageName).replace(/-/g, "_");
      add(joinPath(pkg, manifest.libPath ?? "src/lib.rs"), pkg, libName);
      const auto = (kind: CargoTargetKind) => !manifest.noAutoDiscovery.includes(kind);
      if (auto("bin")) add(joinPath(pkg, "src/main.rs"), pkg);
      for (const t of manifest.targets) {
        if (t.path !== undefined) add(joinPath(pkg, t.path), pkg);
        else if (t.name !== undefined) {
          const folder = `${TARGET_FOLDER[t.kind]}/${t.name}`;
          const single = joinPath(pkg, `${folder}.rs`);
          add(single !== undefined && project.has(single) ? single : joinPath(pkg, `${folder}/main.rs`), pkg);
        }
      }
      for (const kind of ["bin", "example", "test", "bench"] as const) {
        if (!auto(kind)) continue;
        const dir = joinPath(pkg, TARGET_FOLDER[kind]);
        for (const f of rsIn(dir)) add(f, pkg);
        if (dir !== undefined && (kind === "bin" || kind === "example")) for (const d of tree.dirs) if (parentDir(d) === dir) add(`${d}/main.rs`, pkg);
      }
      add(joinPath(pkg, "build.rs"), pkg);
    }
    return roots;
  });
}

/** The crate root a file belongs to, and the file's module path inside that crate. */
interface FileModule {
  crate: CrateRoot;
  path: string[];
}

async function fileModule(project: ProjectView, file: string): Promise<FileModule | undefined> {
  const roots = await crateRoots(project);
  const own = roots.find((r) => r.file === file);
  if (own !== undefined) return { crate: own, path: [] };
  // The innermost Cargo package containing the file owns it; among its roots, the deepest folder.
  let pkg: string | undefined;
  for (const r of roots) {
    const d = r.packageDir ?? "";
    if (isWithin(file, d) && (pkg === undefined || d.length > pkg.length)) pkg = d;
  }
  let best: CrateRoot | undefined;
  for (const r of roots) {
    if (pkg === undefined || r.packageDir !== pkg || !isWithin(file, r.dir)) continue;
    if (best === undefined || r.dir.length > best.dir.length || (r.dir === best.dir && rootRank(r) < rootRank(best))) {
      best = r;
    }
  }
  best ??= fallbackRoot(project, file);
  if (best === undefined) return undefined;
  const rel = best.dir === "" ? file : file.slice(best.dir.length + 1);
  const segments = rel.replace(/\.rs$/, "").split("/");
  if (segments[segments.length - 1] === "mod") segments.pop();
  return { crate: best, path: segments };
}

/** Library roots first, then `main.rs`, then other roots by path. */
function rootRank(r: CrateRoot): number {
  if (r.libName !== undefined) return 0;
  return r.file.endsWith("/main.rs") || r.file === "main.rs" ? 1 : 2;
}

/** Without a manifest: the nearest folder (upwards) holding `lib.rs` or `main.rs`. */
function fallbackRoot(project: ProjectView, file: string): CrateRoot | undefined {
  for (let dir = parentDir(file), n = 0; n < 256; n++, dir = parentDir(dir)) {
    for (const name of ["lib.rs", "main.rs"]) {
      const candidate = dir === "" ? name : `${dir}/${name}`;
      if (project.has(candidate)) return { file: candidate, dir };
    }
    if (dir === "") break;
  }
  return undefined;
}

/** Files that can hold module `path` of a crate: `a/b.rs`, `a/b/mod.rs` (the root file for `[]`). */
function moduleFileCandidates(crate: CrateRoot, path: readonly string[]): string[] {
  if (path.length === 0) return [crate.file];
  const base = joinPath(crate.dir, ...path);
  return base === undefined ? [] : [`${base}.rs`, `${base}/mod.rs`];
}

/**
 * The file a `#[path = "…"] mod name;` item at the top level of `file` chooses for module `name`
 * (relative to `file`'s folder; Rust Reference, "The path attribute"), when it exists. Read from
 * the file's text, so a module chosen by `#[path]` is found while resolving `use` paths through it.
 */
async function pathAttributeModule(project: ProjectView, file: string, name: string): Promise<string | undefined> {
  const text = await project.readText(file);
  if (text === undefined || !text.includes("path")) return undefined;
  const item = new RegExp(String.raw`^[ \t]*#\[\s*path\s*=\s*"([^"\n]+)"\s*\]\s*(?:#\[[^\]\n]*\]\s*)*(?:pub(?:\s*\([^)\n]*\))?\s+)?mod\s+(?:r#)?${name}\s*;`, "m");
  const m = item.exec(text);
  const target = m?.[1] === undefined ? undefined : joinPath(parentDir(file), m[1]);
  return target !== undefined && project.has(target) ? target : undefined;
}

/**
 * The deepest existing module along `path`: its file and how many segments it consumed. Past the
 * deepest file found by place, modules that file declares with `#[path]` are followed.
 */
async function deepestModule(project: ProjectView, crate: CrateRoot, path: readonly string[]): Promise<{ file: string; depth: number } | undefined> {
  let found: { file: string; depth: number } | undefined;
  for (let depth = path.length; depth >= 0 && found === undefined; depth--) {
    for (const file of moduleFileCandidates(crate, path.slice(0, depth))) {
      if (project.has(file)) {
        found = { file, depth };
        break;
      }
    }
  }
  while (found !== undefined && found.depth < path.length) {
    const next = await pathAttributeModule(project, found.file, path[found.depth] as string);
    if (next === undefined) break;
    found = { file: next, depth: found.depth + 1 };
  }
  return found;
}

/** Rust's primitive crates that are never in the tree. */
const SYSROOT_CRATES = new Set(["std", "core", "alloc", "proc_macro", "test"]);

function moduleName(crate: CrateRoot, own: CrateRoot | undefined, path: readonly string[]): string {
  const head = own !== undefined && crate.file === own.file ? "crate" : (crate.libName ?? "crate");
  return [head, ...path].join("::");
}

/** A path written as segments (`["", "std", "fmt"]` for `::std::fmt`) back to its text. */
function pathText(segments: readonly string[]): string {
  return segments.join("::");
}

/**
 * Resolves one use path (segments as written) from module `current` of `from`'s crate. An
 * external crate keeps the path as written (without a leading `::`) as its module name;
 * `unresolved` marks paths that cannot be followed (`super` above the crate root, `crate::` in a
 * file outside every crate).
 */
async function resolveUsePath(
  project: ProjectView,
  from: FileModule | undefined,
  current: readonly string[],
  segments: readonly string[],
): Promise<Resolution> {
  const written = pathText(segments[0] === "" ? segments.slice(1) : segments);
  const external: Resolution = { files: [], module: written, external: true };
  const broken: Resolution = { ...external, unresolved: true };
  const first = segments[0] ?? "";
  let crate: CrateRoot | undefined;
  let base: string[] = [];
  let rest = segments.slice(1);
  if (first === "crate" || first === "$crate") {
    crate = from?.crate;
  } else if (first === "self" || first === "super") {
    crate = from?.crate;
    base = [...current];
    rest = [...segments];
    while (rest[0] === "self") rest.shift();
    while (rest[0] === "super") {
      rest.shift();
      if (base.length === 0) return broken;
      base.pop();
    }
  } else {
    const name = first === "" ? (segments[1] ?? "") : first;
    if (first === "") rest = segments.slice(2);
    const workspace = (await crateRoots(project)).find((r) => r.libName === name);
    if (workspace !== undefined) {
      crate = workspace;
    } else if (first !== "" && !SYSROOT_CRATES.has(name) && from !== undefined) {
      // Uniform paths: a child module of the current module named like the first segment.
      const child = [...current, first];
      if ((await deepestModule(project, from.crate, child))?.depth !== child.length) return external;
      crate = from.crate;
      base = child;
    } else return external;
  }
  if (crate === undefined) return broken;
  const wanted = [...base, ...rest.filter((s) => s !== "*" && s !== "self")];
  const found = await deepestModule(project, crate, wanted);
  if (found === undefined) return broken;
  return { files: [found.file], module: moduleName(crate, from?.crate, wanted.slice(0, found.depth)), external: false };
}

/**
 * Resolves `mod x;` from the declaring file's place (Rust Reference, "Module source filenames"
 * and "The path attribute"): a `#[path]` file is relative to the declaring file's folder (inside
 * inline modules: that folder, plus the file's stem for a non-mod-rs file, plus the inline modules).
 */
async function resolveModDeclaration(project: ProjectView, fromFile: string, ref: ImportRef, from: FileModule | undefined): Promise<Resolution> {
  const roots = await crateRoots(project);
  const base = fromFile.slice(fromFile.lastIndexOf("/") + 1);
  const isModRs = base === "mod.rs" || roots.some((r) => r.file === fromFile) || (from !== undefined && from.path.length === 0);
  const scope = ref.scope ?? [];
  const ownDir = isModRs ? parentDir(fromFile) : fromFile.replace(/\.rs$/, "");
  const modulePath = [...(from?.path ?? []), ...scope, ref.specifier];
  const module = from === undefined ? modulePath.join("::") : moduleName(from.crate, from.crate, modulePath);
  let candidates: (string | undefined)[];
  if (ref.filePath !== undefined) {
    candidates = [scope.length === 0 ? joinPath(parentDir(fromFile), ref.filePath) : joinPath(ownDir, ...scope, ref.filePath)];
  } else {
    const dir = joinPath(ownDir, ...scope, ref.specifier);
    candidates = dir === undefined ? [] : [`${dir}.rs`, `${dir}/mod.rs`];
  }
  for (const file of candidates) {
    if (file !== undefined && project.has(file)) return { files: [file], module, external: false };
  }
  return { files: [], module, external: true, unresolved: true };
}

async function resolve(ref: ImportRef, fromFile: string, project: ProjectView): Promise<Resolution> {
  const from = await fileModule(project, fromFile);
  if (ref.flags?.includes(MOD_DECLARATION_FLAG) === true) return resolveModDeclaration(project, fromFile, ref, from);
  const current = [...(from?.path ?? []), ...(ref.scope ?? [])];
  const prefix = ref.specifier === "" ? [] : ref.specifier.split("::");
  const head = await resolveUsePath(project, from, current, prefix);
  if (ref.names === undefined) return head;
  const files = new Set<string>();
  for (const name of ref.names) {
    const target = await resolveUsePath(project, from, current, [...prefix, ...name.split("::")]);
    for (const f of target.files) files.add(f);
  }
  if (files.size === 0) return head.external ? head : { files: [], module: head.module, external: true, unresolved: true };
  return { files: [...files].sort(), module: head.module, external: false };
}

/**
 * The paths under which a `.rs` file's module is named: `crate::a::b` (`crate` for a crate root)
 * and, for a library crate, `<lib_name>::a::b` as other crates write it.
 */
async function moduleNames(file: string, project: ProjectView): Promise<string[]> {
  if (!file.endsWith(".rs")) return [];
  const mod = await fileModule(project, file);
  if (mod === undefined) return [];
  const names = [["crate", ...mod.path].join("::")];
  if (mod.crate.libName !== undefined) names.push([mod.crate.libName, ...mod.path].join("::"));
  return names;
}

/**
 * Text every importer of `file` contains: the module's own name (file stem, or folder for
 * `mod.rs`), and for a crate root `crate` and the library name; `super` reaches a module from
 * its children without naming it (`use super::*`), so it is a pattern.
 */
async function importerHints(file: string, project: ProjectView): Promise<{ literals: string[]; patterns: string[] }> {
  const mod = await fileModule(project, file);
  const literals: string[] = [];
  const last = mod?.path[mod.path.length - 1];
  if (last !== undefined) literals.push(last);
  else {
    literals.push("crate");
    if (mod?.crate.libName !== undefined) literals.push(mod.crate.libName);
  }
  if (mod === undefined) {
    const stem = file.slice(file.lastIndexOf("/") + 1).replace(/\.rs$/, "");
    literals.push(stem === "mod" ? parentDir(file).slice(parentDir(file).lastIndexOf("/") + 1) : stem);
  }
  return { literals, patterns: ["\\bsuper\\b"] };
}

/**
 * An external use matches a query naming a path it imports or the module it imports a name from,
 * compared by whole `::` segments: `use std::{fs, io::*}` matches `std` (`fs` is taken from it),
 * `std::fs`, `std::io` and (through the glob) `std::io::Read`, but not `std::f`; `use
 * std::collections::HashMap` matches `std` only with `includeSubmodules`.
 */
function matchesExternal(query: string, ref: ImportRef, res: Resolution, includeSubmodules: boolean): boolean {
  const q = query.replace(/^::/, "");
  const prefix = ref.specifier.replace(/^::/, "");
  const paths = ref.names === undefined ? [prefix] : ref.names.map((n) => (prefix === "" ? n : `${prefix}::${n}`));
  paths.push(res.module);
  const syntax = { separators: ["::"], members: true };
  return paths.some((p) => matchesModulePath(q, p, syntax, includeSubmodules) || (p.endsWith("::*") && q.startsWith(p.slice(0, -1))));
}

/**
 * `LanguageSpec.wildcardImportHints`: `use std::io::*;` (also inside a group, `use std::{fs, io::*};`)
 * names `std::io::Read` for {@link matchesExternal}; the glob writes the parent's last segment
 * followed by `::*` (the Rust Reference, "Use declarations": glob imports).
 */
function wildcardImportHints(query: string): { pattern: string; scanText: string } | undefined {
  const parts = query.split("::").filter((p) => p !== "");
  const parent = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  if (parent === undefined || !/^\w+$/.test(parent)) return undefined;
  return { pattern: `\\b${parent}\\s*::\\s*\\*`, scanText: `${parent.toLowerCase()}::*` };
}

/** The Rust language module. */
export const rust: LanguageSpec = {
  id: "rust",
  extensions: [".rs"],
  wasm: "tree-sitter-rust/tree-sitter-rust.wasm",
  sample: 'use std::fmt;\n\nmod util;\n\nfn main() { println!("ok"); }\n',
  extract: (root) => extract(root),
  resolve,
  moduleNames,
  importerHints,
  matchesExternal,
  wildcardImportHints,
  references: {
    extract: (root) => extractRustReferences(root),
    modulePath: (parts) => (parts.length > 0 ? parts.join("::") : undefined),
    submodulePath: (module, member) => `${module}::${member}`,
    membersAnywhere: true,
    namespacePaths: true,
  },
};
