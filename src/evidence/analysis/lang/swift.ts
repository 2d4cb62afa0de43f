/**
 * Swift: definitions and `import` edges (tree-sitter-swift grammar as prebuilt by tree-sitter-wasms
 * 0.1.13; the npm package tree-sitter-swift ships no `.wasm`).
 *
 * Definitions (at file level and in type, extension and protocol bodies; never in function bodies):
 * - `struct` → `struct`, `class` and `actor` → `class`, `enum` → `enum` (each `case` name →
 *   `constant`), `protocol` → `interface`, `typealias` → `type`, and so is a protocol's
 *   `associatedtype` (a type requirement, https://docs.swift.org/swift-book/documentation/the-swift-programming-language/generics/#Associated-Types;
 *   Alamofire's `AlamofireExtended.ExtendedType` was missed).
 * - `func` → `function` at file level, `method` in a type; `init` (`init?`, `init!` too) → `method`
 *   named `init`, `deinit` → `method` named `deinit`, `subscript` → `method` named `subscript`;
 *   protocol requirements likewise.
 * - A `macro` declaration (Swift 5.9, SE-0382/SE-0389) → `function` (it is used as `#name(…)` or
 *   `@Name`); an operator declaration (`infix operator <~> : P`) → `function` named by the operator
 *   (beside the `func <~>` implementing it); a `precedencegroup` → `type` (it is named where an
 *   operator declares its group).
 * - `var` → `variable`, `let` → `constant`, one per name (each name of a tuple pattern `let (lo, hi) =
 *   …` too), in types and at file level.
 * - An `extension T` is no definition itself: its members are reported with `T` as container
 *   (`extension Array where …` → `Array`; `extension Outer.Inner` → `Outer.Inner`), so
 *   `T.member` finds members wherever they are declared.
 * - Nested types have their enclosing types as container. Range: the whole declaration, attributes
 *   and modifiers included.
 * - The text parsed is the file's with `nonisolated(unsafe)` read as `nonisolated` (`swift-prepare.ts`).
 *
 * Imports: one {@link ImportRef} per `import`; `specifier` is the module (`ArgumentParser`; for
 * `import struct Foo.Bar` the module `Foo`, with `names: ["Bar"]`); `@testable import` carries the
 * flag `testable`.
 *
 * Resolution (Swift Package Manager, https://docs.swift.org/package-manager/PackageDescription/PackageDescription.html):
 * every `Package.swift` of the tree is read for its targets (`.target`, `.executableTarget`,
 * `.testTarget`, `.macro`, `.plugin`, `.systemLibrary` … with `name:` and optional `path:`); a
 * target's folder is its `path`, else `Sources/<name>` (`Tests/<name>` for test targets,
 * `Plugins/<name>` for plugins), relative to the manifest's folder. `import M` → every `.swift` file
 * below target `M`'s folder; without a manifest naming `M`, a folder `Sources/M` anywhere in the
 * tree. Anything else (Foundation, packages not in the tree) is external, matched by its name. A
 * file is named by its target.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution, SymbolDef } from "./language.js";
import { fileTree, isWithin, joinPath, memoize, parentDir } from "./project-files.js";
import { allChildren, namedChildren, nodeLines } from "./syntax.js";
import { prepareSwift } from "./swift-prepare.js";
import { SWIFT_REFERENCE_RULES } from "./swift-references.js";

/** Flag of a `@testable import`. */
const TESTABLE_IMPORT_FLAG = "testable";

const KINDS: Readonly<Record<string, SymbolKind>> = { struct: "struct", class: "class", actor: "class", enum: "enum" };
const BODIES = new Set(["class_body", "enum_class_body", "protocol_body"]);
const MAX_DEPTH = 128;

/** Extracts Swift definitions and imports from a `source_file` (rules in the module comment). */
function extract(root: SyntaxNode): FileFacts {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const push = (name: string | undefined, kind: SymbolKind, container: readonly string[], node: SyntaxNode): void => {
    if (name === undefined || name === "") return;
    const def: SymbolDef = { name: name.replace(/`/g, ""), kind, ...nodeLines(node) };
    if (container.length > 0) def.container = container.join(".");
    symbols.push(def);
  };
  const walk = (parent: SyntaxNode, types: readonly string[], depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const node of namedChildren(parent)) {
      switch (node.type) {
        case "import_declaration": {
          const ref = importRef(node);
          if (ref !== undefined) imports.push(ref);
          break;
        }
        case "class_declaration": {
          const kindWord = node.childForFieldName("declaration_kind")?.text ?? "";
          const nameNode = node.childForFieldName("name");
          const name = nameNode?.type === "user_type" ? typeName(nameNode) : nameNode?.text;
          const body = node.childForFieldName("body") ?? namedChildren(node).find((c) => BODIES.has(c.type)) ?? null;
          if (kindWord === "extension") {
            // `extension Outer.Inner`: the members belong to the nested type `Outer.Inner`.
            const extended = nameNode?.type === "user_type" ? extendedPath(nameNode) : name;
            if (body !== null && extended !== undefined) walk(body, [extended], depth + 1);
            break;
          }
          push(name, KINDS[kindWord] ?? "class", types, node);
          if (body !== null && name !== undefined) walk(body, [...types, name], depth + 1);
          break;
        }
        case "protocol_declaration": {
          const name = node.childForFieldName("name")?.text;
          push(name, "interface", types, node);
          const body = node.childForFieldName("body");
          if (body !== null && name !== undefined) walk(body, [...types, name], depth + 1);
          break;
        }
        case "function_declaration":
        case "protocol_function_declaration":
          push(node.childForFieldName("name")?.text, types.length > 0 ? "method" : "function", types, node);
          break;
        case "init_declaration":
          push("init", "method", types, node);
          break;
        case "deinit_declaration":
          push("deinit", "method", types, node);
          break;
        case "macro_declaration":
          push(namedChildren(node).find((c) => c.type === "simple_identifier")?.text, "function", types, node);
          break;
        case "operator_declaration":
          push(namedChildren(node).find((c) => c.type === "custom_operator")?.text, "function", types, node);
          break;
        case "precedence_group_declaration":
          push(namedChildren(node).find((c) => c.type === "simple_identifier")?.text, "type", types, node);
          break;
        case "subscript_declaration":
          push("subscript", "method", types, node);
          break;
        case "property_declaration":
        case "protocol_property_declaration": {
          const isLet = allChildren(namedChildren(node).find((c) => c.type === "value_binding_pattern") ?? node).some((c) => c.type === "let");
          // The names of a tuple pattern are read only in a declaration the grammar read without error: in a
          // misread one (a backquoted name it cannot lex, apple/swift-collections f425dff
          // RigidArray+Formatter.swift) the tuple type reads as a tuple pattern of type names.
          for (const p of node.childrenForFieldName("name")) for (const id of boundNames(p, node.hasError ? MAX_DEPTH : 0)) push(id.text, isLet ? "constant" : "variable", types, node);
          break;
        }
        case "typealias_declaration":
          push(node.childForFieldName("name")?.text, "type", types, node);
          break;
        case "associatedtype_declaration":
          push((node.childForFieldName("name") ?? namedChildren(node).find((c) => c.type === "type_identifier"))?.text, "type", types, node);
          break;
        case "enum_entry":
          for (const n of node.childrenForFieldName("name")) push(n?.text, "constant", types, node);
          break;
        default:
          if (BODIES.has(node.type) || node.type === "ERROR" || node.type === "statements") walk(node, types, depth + 1);
      }
    }
  };
  walk(root, [], 0);
  return { symbols, imports };
}

/** The names a property's `pattern` binds: one name, or each name of a tuple pattern (`let (lo, hi) = …`), nested too. */
function boundNames(pattern: SyntaxNode | null, depth = 0): SyntaxNode[] {
  if (pattern?.type !== "pattern") return [];
  const id = pattern.childForFieldName("bound_identifier") ?? namedChildren(pattern).find((c) => c.type === "simple_identifier");
  if (id !== undefined && id !== null) return [id];
  return depth >= MAX_DEPTH ? [] : namedChildren(pattern).flatMap((c) => boundNames(c, depth + 1));
}

/** The type a `user_type` names, without generic arguments or module prefix (`Swift.Array<Int>` → `Array`). */
/** Every part of an extended type (`Outer.Inner` of `extension Outer.Inner`), joined with `.`. */
function extendedPath(node: SyntaxNode): string | undefined {
  const ids = namedChildren(node).filter((c) => c.type === "type_identifier");
  return ids.length === 0 ? undefined : ids.map((c) => c.text).join(".");
}

function typeName(node: SyntaxNode): string | undefined {
  const ids = namedChildren(node).filter((c) => c.type === "type_identifier");
  return ids[ids.length - 1]?.text;
}

function importRef(node: SyntaxNode): ImportRef | undefined {
  const id = namedChildren(node).find((c) => c.type === "identifier");
  if (id === undefined) return undefined;
  const parts = id.text.split(".").map((s) => s.trim());
  const kindImport = allChildren(node).some((c) => ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"].includes(c.type));
  const ref: ImportRef = { specifier: kindImport ? (parts[0] ?? "") : parts.join("."), ...nodeLines(node) };
  if (kindImport && parts.length > 1) ref.names = [parts.slice(1).join(".")];
  if (/@testable\b/.test(namedChildren(node).find((c) => c.type === "modifiers")?.text ?? "")) ref.flags = [TESTABLE_IMPORT_FLAG];
  return ref;
}

/** Target name → folder (repository-relative), from every `Package.swift` (once per view). */
function targets(project: ProjectView): Promise<Map<string, string[]>> {
  return memoize(project, "swift:targets", async () => {
    const out = new Map<string, string[]>();
    for (const f of project.files) {
      if (f !== "Package.swift" && !f.endsWith("/Package.swift")) continue;
      const text = ((await project.readText(f)) ?? "").replace(/\/\*[\s\S]*?(?:\*\/|$)|\/\/[^\n]*/g, " ");
      const home = parentDir(f);
      // A call inside another's arguments (`dependencies: [.target(name: "Core")]`, `plugins:
      // [.plugin(name: …)]`) names a target declared elsewhere, so the scan goes on after the
      // arguments: each character is read once (a call per character, each read to its end, was
      // quadratic in a manifest of unclosed `.target(`).
      const call = /\.(target|executableTarget|testTarget|macro|plugin|systemLibrary|binaryTarget)\s*\(/g;
      for (let m = call.exec(text); m !== null; m = call.exec(text)) {
        const args = argumentText(text, call.lastIndex);
        call.lastIndex += args.length;
        const name = /\bname\s*:\s*"([^"]+)"/.exec(args)?.[1];
        if (name === undefined) continue;
        const path = /\bpath\s*:\s*"([^"]+)"/.exec(args)?.[1];
        const base = m[1] === "testTarget" ? "Tests" : m[1] === "plugin" ? "Plugins" : "Sources";
        const dir = joinPath(home, path ?? `${base}/${name}`);
        if (dir === undefined) continue;
        const dirs = out.get(name);
        if (dirs === undefined) out.set(name, [dir]);
        else dirs.push(dir);
      }
    }
    return out;
  });
}

/** The text of a call's arguments from just after its `(` to the matching `)`. */
function argumentText(text: string, start: number): string {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "(" || c === "[") depth++;
    else if ((c === ")" || c === "]") && --depth === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

/** The `.swift` files below `dir`. */
function swiftFilesUnder(project: ProjectView, dir: string): string[] {
  return project.files.filter((f) => f.endsWith(".swift") && isWithin(f, dir) && f !== dir);
}

/** The folders of module `name`: its SwiftPM targets, else every `Sources/<name>` folder. */
async function moduleDirs(project: ProjectView, name: string): Promise<string[]> {
  const fromManifest = (await targets(project)).get(name);
  if (fromManifest !== undefined) return fromManifest;
  return [...fileTree(project).dirs].filter((d) => d === `Sources/${name}` || d.endsWith(`/Sources/${name}`));
}

/** Resolves one import (rules in the module comment). Never throws. */
async function resolve(ref: ImportRef, project: ProjectView): Promise<Resolution> {
  const name = ref.specifier.split(".")[0] ?? ref.specifier;
  const files = memoize(project, `swift:module-files:${name}`, async () => {
    const out = new Set<string>();
    for (const dir of await moduleDirs(project, name)) for (const f of swiftFilesUnder(project, dir)) out.add(f);
    return [...out].sort();
  });
  const list = await files;
  return list.length > 0 ? { files: list, module: name, external: false } : { files: [], module: name, external: true };
}

/** The targets whose folder holds `file`. */
async function moduleNames(file: string, project: ProjectView): Promise<string[]> {
  if (!file.endsWith(".swift")) return [];
  const out: string[] = [];
  for (const [name, dirs] of await targets(project)) if (dirs.some((d) => isWithin(file, d))) out.push(name);
  if (out.length === 0) {
    const m = /(?:^|\/)Sources\/([^/]+)\//.exec(file);
    if (m !== null) out.push(m[1] as string);
  }
  return out;
}

/** The files of the targets `file` belongs to (a module's declarations are visible in all its files); without a target, its folder's. */
async function sameModuleFiles(file: string, project: ProjectView): Promise<readonly string[]> {
  const out = new Set<string>();
  for (const name of await moduleNames(file, project)) for (const f of (await resolve({ specifier: name, start_line: 1, end_line: 1 }, project)).files) out.add(f);
  if (out.size === 0) for (const f of project.files) if (f.endsWith(".swift") && parentDir(f) === parentDir(file)) out.add(f);
  return [...out].sort();
}

/** Every importer names the file's module. */
async function importerHints(file: string, project: ProjectView): Promise<{ literals: string[] }> {
  const names = await moduleNames(file, project);
  return { literals: names.length > 0 ? names : [file.slice(file.lastIndexOf("/") + 1, -".swift".length)] };
}

/** The Swift language module. */
export const swift: LanguageSpec = {
  id: "swift",
  extensions: [".swift"],
  wasm: "tree-sitter-wasms/out/tree-sitter-swift.wasm",
  sample: "import Foundation\n\nstruct A {\n  func m() -> Int { return 1 }\n}\n",
  extract: (root) => extract(root),
  prepare: prepareSwift,
  resolve: (ref, _fromFile, project) => resolve(ref, project),
  moduleNames,
  importerHints,
  references: { ...SWIFT_REFERENCE_RULES, sharedScope: sameModuleFiles },
};
