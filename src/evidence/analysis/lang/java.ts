/**
 * Java: definitions and import edges (tree-sitter-java 0.23 grammar).
 *
 * Definitions (top-level and member types, and their members; local and anonymous classes in
 * method bodies are left out):
 * - `class` and `record` → `class`, `interface` and `@interface` → `interface`, `enum` → `enum`;
 *   a nested type has its enclosing types as container (`Order` for `Order.Line`).
 * - Methods, constructors (named after their class), compact record constructors and annotation
 *   elements → `method` with the enclosing types as container (`Order.Line` for `Line.total`).
 * - `static final` fields, interface fields (implicitly `static final`, JLS §9.3) and enum
 *   constants → `constant` with the enclosing types as container, one per declarator.
 * - Range: the whole declaration, from its first modifier or annotation (`@Override`) to its end;
 *   Javadoc comments are not included.
 *
 * Imports (JLS §7.5): one {@link ImportRef} per `import` declaration; `specifier` is the name as
 * written (`a.b.C`, `a.b.*`, `a.b.C.m` for `import static`), static imports carry the flag
 * `static`.
 *
 * Resolution: a type `a.b.C` is a file `a/b/C.java` under any source root — any folder of the
 * tree, so `src/main/java`, `src/test/java`, `src`, multi-module builds and custom roots all work,
 * provided folders follow packages (the convention javac's `-sourcepath` lookup relies on) — whose
 * `package` declaration is `a.b` (so a local `src/main/java/util/List.java` is not `java.util.List`).
 * The longest prefix of the name that is such a file wins, so nested types (`a.b.C.Inner`) and
 * static members (`import static a.b.C.m`, `a.b.C.*`) lead to `C.java`. A wildcard `a.b.*` leads
 * to the `.java` files directly in every folder `…/a/b` that declare `package a.b`. When the same
 * name exists under several roots (main and test, several modules) all of them are returned.
 * Anything else (the JDK, libraries) is external, matched by its name. A file is named by its
 * top-level type's qualified name and by its package ({@link LanguageSpec.moduleNames}).
 *
 * Known blind spot ({@link JAVA_BLIND_SPOT_NOTE}): types of the same package, and fully qualified
 * names written in code, need no import, so those uses are not import edges.
 */
import { advice, tool } from "../../advice.js";
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution, SymbolDef } from "./language.js";
import { matchesModulePath } from "./external-match.js";
import { fileTree, memoize, parentDir } from "./project-files.js";
import { allChildren, namedChildren, nodeLines, selectNodes } from "./syntax.js";
import { extractJavaReferences } from "./java-references.js";

/** The note `find_importers` adds for Java results (the same-package blind spot). */
export const JAVA_BLIND_SPOT_NOTE = advice`Java: classes in the same package (and fully qualified names used in code) need no import, so those uses are not listed; ${tool("search_code")} for the class name finds them.`;

/** The flag on an {@link ImportRef} from an `import static` declaration. */
export const STATIC_IMPORT_FLAG = "static";

/** Node types collected: type and member declarations, imports. */
const ITEM_TYPES = new Set([
  "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
  "annotation_type_declaration", "method_declaration", "constructor_declaration",
  "compact_constructor_declaration", "annotation_type_element_declaration",
  "field_declaration", "constant_declaration", "enum_constant", "import_declaration",
]);

/** Node types walked into: type declarations and their bodies (never method bodies). */
const ENTER_TYPES = new Set([
  "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
  "annotation_type_declaration", "class_body", "interface_body", "enum_body", "enum_body_declarations",
  "annotation_type_body",
]);

const TYPE_KINDS: Readonly<Record<string, SymbolKind>> = {
  class_declaration: "class",
  record_declaration: "class",
  interface_declaration: "interface",
  annotation_type_declaration: "interface",
  enum_declaration: "enum",
};

/** Body node types that hold members of a type declaration. */
const BODY_TYPES = new Set(["class_body", "interface_body", "enum_body", "enum_body_declarations", "annotation_type_body"]);

/** Deepest nesting of ancestors looked at (guards against pathological trees). */
const MAX_ANCESTORS = 512;

/** The declaration that owns a member or a nested type, with the names of its enclosing types. */
interface Owner {
  /** The directly enclosing type declaration, `null` at top level. */
  decl: SyntaxNode | null;
  /** Names of the enclosing types, outermost first (`["Order", "Line"]`); empty at top level. */
  names: string[];
}

/**
 * Where `item` is declared: its enclosing types, or `undefined` when the item is local (inside a
 * method body, an anonymous class, an enum constant's body).
 */
function ownerOf(item: SyntaxNode): Owner | undefined {
  const owner: Owner = { decl: null, names: [] };
  let node = item.parent;
  for (let depth = 0; node !== null && depth < MAX_ANCESTORS; depth++) {
    if (node.type === "program") return owner;
    if (BODY_TYPES.has(node.type)) {
      // The body's parent must be a type declaration (not `new X() { … }`, not an enum constant).
      if (node.type === "enum_body_declarations") node = node.parent ?? node; // up to enum_body
      const decl: SyntaxNode | null = node.parent;
      if (decl === null || TYPE_KINDS[decl.type] === undefined) return undefined;
      owner.decl ??= decl;
      owner.names.unshift(decl.childForFieldName("name")?.text ?? "");
      node = decl;
    } else if (TYPE_KINDS[node.type] === undefined) {
      return undefined;
    }
    node = node.parent;
  }
  return undefined;
}

function hasModifier(decl: SyntaxNode, modifier: string): boolean {
  const mods = namedChildren(decl).find((c) => c.type === "modifiers");
  return mods !== undefined && allChildren(mods).some((c) => c.type === modifier);
}

/** Extracts Java definitions and imports from a `program` tree. */
function extract(root: SyntaxNode): FileFacts {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  for (const item of selectNodes(root, ITEM_TYPES, ENTER_TYPES)) {
    if (item.type === "import_declaration") {
      const ref = importRef(item);
      if (ref !== undefined) imports.push(ref);
      continue;
    }
    const owner = ownerOf(item);
    if (owner === undefined) continue;
    const container = owner.names.length > 0 ? owner.names.join(".") : undefined;
    const range = nodeLines(item);
    const push = (name: string | undefined, kind: SymbolKind): void => {
      if (name === undefined || name === "") return;
      const def: SymbolDef = { name, kind, ...range };
      if (container !== undefined) def.container = container;
      symbols.push(def);
    };
    const typeKind = TYPE_KINDS[item.type];
    if (typeKind !== undefined) {
      push(item.childForFieldName("name")?.text, typeKind);
    } else if (item.type === "enum_constant") {
      push(item.childForFieldName("name")?.text, "constant");
    } else if (item.type === "field_declaration" || item.type === "constant_declaration") {
      const constant =
        item.type === "constant_declaration" ||
        owner.decl?.type === "interface_declaration" ||
        owner.decl?.type === "annotation_type_declaration" ||
        (hasModifier(item, "static") && hasModifier(item, "final"));
      if (!constant) continue;
      for (const declarator of item.childrenForFieldName("declarator")) {
        push(declarator?.childForFieldName("name")?.text, "constant");
      }
    } else {
      push(item.childForFieldName("name")?.text, "method");
    }
  }
  return { symbols, imports };
}

function importRef(decl: SyntaxNode): ImportRef | undefined {
  const children = allChildren(decl);
  const name = children.find((c) => c.type === "scoped_identifier" || c.type === "identifier");
  if (name === undefined) return undefined;
  const wildcard = children.some((c) => c.type === "asterisk");
  const ref: ImportRef = { specifier: name.text.replace(/\s+/g, "") + (wildcard ? ".*" : ""), ...nodeLines(decl) };
  if (children.some((c) => c.type === "static")) ref.flags = [STATIC_IMPORT_FLAG];
  return ref;
}

/** `.java` files of the tree by base name (`C.java` → paths), built once per view. */
function javaFilesByName(project: ProjectView): Map<string, string[]> {
  return memoize(project, "java:by-name", () => {
    const byName = new Map<string, string[]>();
    for (const file of project.files) {
      if (!file.endsWith(".java")) continue;
      const base = file.slice(file.lastIndexOf("/") + 1);
      const list = byName.get(base);
      if (list === undefined) byName.set(base, [file]);
      else list.push(file);
    }
    return byName;
  });
}

/** True when `path` is `rel` or ends with `/rel` (a source root may be any folder). */
function endsWithPath(path: string, rel: string): boolean {
  return path === rel || path.endsWith(`/${rel}`);
}

/**
 * The `package` a Java file declares (`''` for the default package), read once per view;
 * `undefined` when the file cannot be read. Comments are skipped (JLS §7.4.1).
 */
function declaredPackage(project: ProjectView, file: string): Promise<string | undefined> {
  return memoize(project, `java:package:${file}`, async () => {
    const text = await project.readText(file);
    if (text === undefined) return undefined;
    const code = text.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, " ").replace(/\/\/[^\n]*/g, " ");
    // The declaration comes first (JLS §7.3), so one attempt from the start: tried from every
    // line, the blanks and annotations before it were read again from each line (quadratic).
    const m = /^\s*(?:@[\w.]+(?:\([^)]*\))?\s*)*package\s+([\w$]+(?:\s*\.\s*[\w$]+)*)\s*;/.exec(code);
    return m === null ? "" : (m[1] ?? "").replace(/\s+/g, "");
  });
}

/** Keeps the files whose `package` is `pkg` (or cannot be read, giving them the benefit of the doubt). */
async function inPackage(project: ProjectView, files: readonly string[], pkg: string): Promise<string[]> {
  const out: string[] = [];
  for (const f of files) {
    const declared = await declaredPackage(project, f);
    if (declared === undefined || declared === pkg) out.push(f);
  }
  return out.sort();
}

/** Files of the type `segments` (`["a","b","C"]` → every `…/a/b/C.java` declaring `package a.b`). */
function typeFiles(project: ProjectView, segments: readonly string[]): Promise<string[]> {
  return memoize(project, `java:type:${segments.join(".")}`, () => findTypeFiles(project, segments));
}

function findTypeFiles(project: ProjectView, segments: readonly string[]): Promise<string[]> {
  const base = `${segments[segments.length - 1] ?? ""}.java`;
  const rel = segments.join("/") + ".java";
  const candidates = (javaFilesByName(project).get(base) ?? []).filter((f) => endsWithPath(f, rel));
  return inPackage(project, candidates, segments.slice(0, -1).join("."));
}

/** `.java` files directly in every folder `…/a/b` that declare `package a.b`. */
function packageFiles(project: ProjectView, segments: readonly string[]): Promise<string[]> {
  return memoize(project, `java:package-files:${segments.join(".")}`, () => findPackageFiles(project, segments));
}

function findPackageFiles(project: ProjectView, segments: readonly string[]): Promise<string[]> {
  const tree = fileTree(project);
  const rel = segments.join("/");
  const candidates: string[] = [];
  for (const dir of tree.dirs) {
    if (!endsWithPath(dir, rel)) continue;
    for (const f of tree.filesIn(dir)) if (f.endsWith(".java")) candidates.push(f);
  }
  return inPackage(project, candidates, segments.join("."));
}

/** Resolves one import (rules in the module comment). Never throws. */
async function resolve(ref: ImportRef, project: ProjectView): Promise<Resolution> {
  const wildcard = ref.specifier.endsWith(".*");
  const segments = (wildcard ? ref.specifier.slice(0, -2) : ref.specifier).split(".").filter((s) => s !== "");
  if (wildcard && ref.flags?.includes(STATIC_IMPORT_FLAG) !== true) {
    const files = await packageFiles(project, segments);
    if (files.length > 0) return { files, module: segments.join("."), external: false };
  }
  // Deepest type along the name; a type always has a package, so at least two segments.
  for (let k = segments.length; k >= 2; k--) {
    const files = await typeFiles(project, segments.slice(0, k));
    if (files.length > 0) return { files, module: segments.slice(0, k).join("."), external: false };
  }
  return { files: [], module: segments.join("."), external: true };
}

/**
 * The names of a `.java` file: the fully qualified name of its top-level type (`package` plus file
 * name, JLS §7.6: a public top-level type lives in `<Name>.java`) and its package, so that
 * `com.shop.model` finds the importers of every file of that package.
 */
async function moduleNames(file: string, project: ProjectView): Promise<string[]> {
  if (!file.endsWith(".java")) return [];
  const pkg = await declaredPackage(project, file);
  if (pkg === undefined) return [];
  const type = file.slice(file.lastIndexOf("/") + 1, -".java".length);
  return pkg === "" ? [type] : [`${pkg}.${type}`, pkg];
}

/** The Java language module. */
export const java: LanguageSpec = {
  id: "java",
  extensions: [".java"],
  wasm: "tree-sitter-java/tree-sitter-java.wasm",
  sample: "package a;\n\nimport java.util.List;\n\nclass A {\n  void m(List<String> xs) {}\n}\n",
  extract: (root) => extract(root),
  resolve: (ref, _fromFile, project) => resolve(ref, project),
  moduleNames,
  blindSpotNote: JAVA_BLIND_SPOT_NOTE,
  // `import java.util.List` imports from the package `java.util` (JLS §7.5).
  matchesExternal: (query, _ref, res, sub) => matchesModulePath(query, res.module, { separators: ["."], members: true }, sub),
  references: {
    extract: (root) => extractJavaReferences(root),
    sharedScope: (file, project) => samePackageFiles(file, project),
    modulePath: (parts) => (parts.length > 0 ? parts.join(".") : undefined),
    moduleIsClass: true,
    methodsOnlyCalled: true,
  },
};

/**
 * The classes of the package of `file`: the `.java` files of every folder that holds that package
 * under any source root (`src/main/java/a/b` and `src/test/java/a/b` alike: a test sees the
 * classes of its package without import), by the folder convention above; the file's own folder
 * when its package cannot be read or is the default package.
 */
async function samePackageFiles(file: string, project: ProjectView): Promise<readonly string[]> {
  const pkg = await declaredPackage(project, file);
  if (pkg !== undefined && pkg !== "") {
    const files = await packageFiles(project, pkg.split("."));
    if (files.includes(file)) return files;
  }
  const dir = parentDir(file);
  return memoize(project, `java:folder-files:${dir}`, () => project.files.filter((f) => f.endsWith(".java") && parentDir(f) === dir));
}
