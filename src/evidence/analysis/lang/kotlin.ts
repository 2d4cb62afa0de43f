/**
 * Kotlin: definitions and import edges (@tree-sitter-grammars/tree-sitter-kotlin 1.1 grammar).
 *
 * Definitions (at file level and in class, object, interface and enum bodies; never in function
 * bodies):
 * - `class` → `class` (`enum class` → `enum`, members of the enum entries' list → `constant`),
 *   `interface` (also `fun interface`) → `interface`, `object` → `class`; a `companion object`'s
 *   members belong to the enclosing class (they are called as `A.make()`); the companion itself is a
 *   `class` named as declared, else `Companion`. Nested types have their enclosing types as container.
 * - `fun` → `function` at file level, `method` in a type; an extension function `fun String.ext()`
 *   (also at file level) has its receiver type as container (`String`), so `String.ext` finds it;
 *   at file level it is marked `extension` (`SymbolDef.extension`): imported as `import a.b.ext`.
 * - `val`/`var` → `variable` (`const val` → `constant`), one per name; extension properties as
 *   extension functions. A `val`/`var` parameter of a primary constructor (`class P(val x: Int)`)
 *   declares a property: `variable` with the class as container. `typealias` → `type`.
 * - Range: the whole declaration, annotations and modifiers included.
 * - The text parsed is the file's with constructors split from their class head joined
 *   (`kotlin-prepare.ts`).
 * - Where the parser gives up (an `ERROR` region), the functions and properties found inside it are
 *   still reported, as are types written `class X` / `interface X` / `object X` in it.
 * - A file-level `class U {` or `interface U {` (no type parameters, constructor or supertypes)
 *   after two annotations or more, followed by another declaration (`@Component` ⏎ `@Transactional`
 *   ⏎ `class UserService {`, JetBrains/Exposed's samples): the grammar reads it, without an error,
 *   as annotated names applied to a lambda. Such an `annotated_expression` whose names end in
 *   `class`/`interface`/`object` followed by the type's name and a lambda is read as the type, the
 *   lambda's declarations as its members; the range is the whole annotated expression. The same
 *   with no body (`@SpringBootApplication` ⏎ … ⏎ `private class Application`, names ending in the
 *   type's name) is read as the type without members.
 *
 * Imports: one {@link ImportRef} per `import`; `specifier` is the name as written (`a.b.C`,
 * `a.b.*`), `alias` the `as` name.
 *
 * Resolution (Kotlin packages and imports, https://kotlinlang.org/docs/packages.html): Kotlin does
 * not tie folders to packages, so each `.kt`/`.kts` file's `package` header and top-level names are
 * read from its text (comments blanked). `a.b.C` → the files of package `a.b` that declare a
 * top-level `C` (class, object, interface, function, property, type alias — every file for an
 * overloaded or extension function); a longer name (`a.b.C.Inner`, `a.b.C.member`) resolves to its
 * longest prefix that is such a declaration. `a.b.*` → every file of package `a.b` (the package,
 * `Resolution.package`, even where it holds a top-level `b`: arrow's `annotation class optics` in
 * package `arrow.optics` had every `import arrow.optics.X` reach the annotation). Anything else
 * (the standard library, Java and other libraries) is external, matched by its name. A file is named
 * by `package.Declaration` for its top-level declarations and by its package. A declaration's name
 * is the word after its keyword, its type parameters and an extension's receiver type; type
 * arguments may nest three levels (`fun <T : Comparable<T>> Raise<NonEmptyList<E>>.zipOrAccumulate`
 * declares `zipOrAccumulate`, not the receiver's `Raise`: arrow's RaiseAccumulate.kt was listed as
 * declaring `arrow.core.raise.Raise`, so every `import arrow.core.raise.Raise` named it).
 *
 * Known blind spot ({@link KOTLIN_BLIND_SPOT_NOTE}): declarations of the same package need no import.
 */
import { advice, tool } from "../../advice.js";
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution, SymbolDef } from "./language.js";
import { matchesModulePath } from "./external-match.js";
import { memoize } from "./project-files.js";
import { joinKotlinConstructors } from "./kotlin-prepare.js";
import { KOTLIN_REFERENCE_RULES } from "./kotlin-references.js";
import { allChildren, namedChildren, nodeLines } from "./syntax.js";

/** The note `find_importers` adds for Kotlin results (the same-package blind spot). */
export const KOTLIN_BLIND_SPOT_NOTE = advice`Kotlin: declarations of the same package need no import, so those uses are not listed; ${tool("search_code")} for the name finds them.`;

const MAX_DEPTH = 128;
const BODIES = new Set(["class_body", "enum_class_body"]);

/** Extracts Kotlin definitions and imports from a `source_file` (rules in the module comment). */
function extract(root: SyntaxNode): FileFacts {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const push = (name: string | undefined, kind: SymbolKind, container: readonly string[], node: SyntaxNode, extension = false): void => {
    if (name === undefined || name === "") return;
    const def: SymbolDef = { name, kind, ...nodeLines(node) };
    if (container.length > 0) def.container = container.join(".");
    if (extension) def.extension = true;
    symbols.push(def);
  };
  const walk = (parent: SyntaxNode, types: readonly string[], depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const children = allChildren(parent);
    children.forEach((node, i) => {
      switch (node.type) {
        case "import":
          if (node.isNamed) {
            const ref = importRef(node);
            if (ref !== undefined) imports.push(ref);
          }
          return;
        case "class_declaration":
        case "object_declaration": {
          const name = node.childForFieldName("name")?.text;
          push(name, typeKind(node), types, node);
          if (name !== undefined) for (const p of constructorProperties(node)) push(namedChildren(p).find((c) => c.type === "identifier")?.text, "variable", [...types, name], p);
          const body = namedChildren(node).find((c) => BODIES.has(c.type));
          if (body !== undefined && name !== undefined) members(body, [...types, name], depth);
          return;
        }
        case "companion_object": {
          // An unnamed companion is called `Companion` (Kotlin reference, "Companion objects").
          push(node.childForFieldName("name")?.text ?? "Companion", "class", types, node);
          const body = namedChildren(node).find((c) => BODIES.has(c.type));
          if (body !== undefined) members(body, types, depth);
          return;
        }
        case "function_declaration":
          push(node.childForFieldName("name")?.text, types.length > 0 ? "method" : "function", receiverOr(node, types), node, types.length === 0 && receiverOr(node, types).length > 0);
          return;
        case "property_declaration": {
          const constant = namedChildren(node).some((c) => c.type === "modifiers" && /\bconst\b/.test(c.text));
          for (const name of propertyNames(node)) push(name, constant ? "constant" : "variable", receiverOr(node, types), node, types.length === 0 && receiverOr(node, types).length > 0);
          return;
        }
        case "type_alias":
          push(namedChildren(node).find((c) => c.type === "identifier" || c.type === "type_identifier")?.text, "type", types, node);
          return;
        case "ERROR":
          walk(node, types, depth + 1);
          return;
        case "annotated_expression": {
          const misread = misreadType(node);
          if (misread === undefined) return;
          push(misread.name, misread.kind, types, node);
          if (misread.body !== undefined) members(misread.body, [...types, misread.name], depth);
          return;
        }
        case "class":
        case "interface":
        case "object": {
          // Inside an ERROR region: `class X` as loose tokens.
          const next = children[i + 1];
          if (parent.type === "ERROR" && next?.type === "identifier") push(next.text, node.type === "interface" ? "interface" : "class", types, parent);
          return;
        }
      }
    });
  };
  const members = (body: SyntaxNode, types: readonly string[], depth: number): void => {
    for (const e of namedChildren(body)) {
      if (e.type === "enum_entry") push(namedChildren(e).find((c) => c.type === "identifier")?.text, "constant", types, e);
    }
    walk(body, types, depth + 1);
  };
  walk(root, [], 0);
  return { symbols, imports };
}

/** Words the grammar reads as names when it misreads a declaration head (`open class U {`). */
const TYPE_WORDS: Readonly<Record<string, SymbolKind>> = { class: "class", interface: "interface", object: "class" };

/**
 * A type declaration the grammar read as an annotated expression (module comment): under the
 * `annotated_expression` chain an `infix_expression` of names ending in `class`/`interface`/`object`,
 * then the type's name with a lambda (`U {…}`, or `U` and `{…}`), whose statements are the members.
 */
function misreadType(node: SyntaxNode): { name: string; kind: SymbolKind; body?: SyntaxNode } | undefined {
  let inner: SyntaxNode | undefined = node;
  for (let i = 0; inner?.type === "annotated_expression" && i < MAX_DEPTH; i++) inner = namedChildren(inner).at(-1);
  if (inner?.type !== "infix_expression") return undefined;
  const parts = namedChildren(inner);
  const at = parts.findIndex((c) => c.type === "identifier" && TYPE_WORDS[c.text] !== undefined);
  if (at < 0 || parts.slice(0, at).some((c) => c.type !== "identifier")) return undefined;
  const kind = TYPE_WORDS[parts[at]?.text ?? ""] as SymbolKind;
  const [head, next] = [parts[at + 1], parts[at + 2]];
  if (head?.type === "identifier" && next?.type === "lambda_literal" && parts.length === at + 3) return { name: head.text, kind, body: next };
  // A type without a body (`private class Application`): `class` is a hard keyword, never a name.
  if (head?.type === "identifier" && parts.length === at + 2) return { name: head.text, kind };
  if (head?.type === "call_expression" && parts.length === at + 2) {
    const [callee, lambda] = namedChildren(head);
    const body = lambda?.type === "annotated_lambda" ? namedChildren(lambda).find((c) => c.type === "lambda_literal") : undefined;
    if (callee?.type === "identifier" && body !== undefined) return { name: callee.text, kind, body };
  }
  return undefined;
}

/** The `val`/`var` parameters of a class's primary constructor (each declares a property). */
function constructorProperties(node: SyntaxNode): SyntaxNode[] {
  const params = namedChildren(node).find((c) => c.type === "primary_constructor")?.children.find((c) => c?.type === "class_parameters");
  if (params === undefined || params === null) return [];
  return namedChildren(params).filter((p) => p.type === "class_parameter" && allChildren(p).some((c) => c.type === "val" || c.type === "var"));
}

/** `enum`, `interface` or `class` for a class or object declaration. */
function typeKind(node: SyntaxNode): SymbolKind {
  if (node.type === "object_declaration") return "class";
  if (allChildren(node).some((c) => c.type === "interface")) return "interface";
  if (namedChildren(node).some((c) => c.type === "modifiers" && /\benum\b/.test(c.text))) return "enum";
  return "class";
}

/** The receiver type of an extension (`fun List<T>.second()` → `["List"]`), else the enclosing types. */
function receiverOr(node: SyntaxNode, types: readonly string[]): readonly string[] {
  const children = allChildren(node);
  const dot = children.findIndex((c) => c.type === ".");
  if (dot <= 0) return types;
  const receiver = children[dot - 1];
  if (receiver === undefined || (receiver.type !== "user_type" && receiver.type !== "nullable_type" && receiver.type !== "function_type" && receiver.type !== "parenthesized_type")) return types;
  const name = receiver.text.replace(/<[\s\S]*$/, "").replace(/[?()\s]/g, "");
  return name === "" ? types : [name.slice(name.lastIndexOf(".") + 1)];
}

/** The names a property declares (`val a`, `val (a, b)`). */
function propertyNames(node: SyntaxNode): string[] {
  const out: string[] = [];
  for (const c of namedChildren(node)) {
    if (c.type === "variable_declaration") {
      const id = namedChildren(c).find((x) => x.type === "identifier");
      if (id !== undefined) out.push(id.text);
    } else if (c.type === "multi_variable_declaration") {
      for (const v of namedChildren(c)) {
        const id = v.type === "variable_declaration" ? namedChildren(v).find((x) => x.type === "identifier") : undefined;
        if (id !== undefined && id.text !== "_") out.push(id.text);
      }
    }
  }
  return out;
}

function importRef(node: SyntaxNode): ImportRef | undefined {
  const children = allChildren(node);
  const name = children.find((c) => c.type === "qualified_identifier" || c.type === "identifier");
  if (name === undefined) return undefined;
  const wildcard = children.some((c) => c.type === "*");
  const ref: ImportRef = { specifier: name.text.replace(/\s+/g, "").replace(/`/g, "") + (wildcard ? ".*" : ""), ...nodeLines(node) };
  const as = children.findIndex((c) => c.type === "as");
  const alias = as >= 0 ? children[as + 1] : undefined;
  if (alias !== undefined) ref.alias = alias.text;
  return ref;
}

/** What a Kotlin file declares at top level, read from its text. */
interface Declared {
  pkg: string;
  names: string[];
}

/** Blanks comments and string literals, keeping newlines. */
function codeOnly(text: string): string {
  return text.replace(/\/\*[\s\S]*?(?:\*\/|$)|\/\/[^\n]*|"""[\s\S]*?(?:"""|$)|"(?:[^"\\\n]|\\.)*"?/g, (m) => m.replace(/[^\n]/g, " "));
}

/** Type parameters or arguments `<…>`, nesting up to three levels (each alternative starts with a different character: no backtracking blow-up). */
const TYPE_ARGUMENTS = String.raw`<(?:[^<>{}]|<(?:[^<>{}]|<[^<>{}]*>)*>)*>`;

/** A declaration keyword, its type parameters and an extension's receiver type, then the declared name (group 1); or a brace. */
const TOP_LEVEL_DECLARATION = new RegExp(
  String.raw`[{}]|\b(?:class|interface|object|typealias|fun|val|var)\b\s*(?:${TYPE_ARGUMENTS}\s*)?(?:[\w.]+(?:${TYPE_ARGUMENTS})?\??\.)?\x60?([A-Za-z_]\w*)\x60?`,
  "g",
);

/** Top-level declarations: keywords at brace depth 0. */
function topLevelNames(code: string): string[] {
  const names = new Set<string>();
  let depth = 0;
  for (const m of code.matchAll(TOP_LEVEL_DECLARATION)) {
    if (m[0] === "{") depth++;
    else if (m[0] === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0 && m[1] !== undefined && !/^(fun|interface|class|object)$/.test(m[1])) names.add(m[1]);
  }
  return [...names];
}

function declaredIn(project: ProjectView, file: string): Promise<Declared | undefined> {
  return memoize(project, `kotlin:declared:${file}`, async () => {
    const text = await project.readText(file);
    if (text === undefined) return undefined;
    const code = codeOnly(text);
    const pkg = /^[ \t]*package\s+([\w.`]+)/m.exec(code)?.[1]?.replace(/`/g, "") ?? "";
    return { pkg, names: topLevelNames(code) };
  });
}

function isKotlin(file: string): boolean {
  return file.endsWith(".kt") || file.endsWith(".kts");
}

/** Package → files and `package.Name` → files (once per view). */
function kotlinIndex(project: ProjectView): Promise<{ packages: Map<string, string[]>; names: Map<string, string[]> }> {
  return memoize(project, "kotlin:index", async () => {
    const packages = new Map<string, string[]>();
    const names = new Map<string, string[]>();
    const add = (map: Map<string, string[]>, key: string, file: string) => {
      const list = map.get(key);
      if (list === undefined) map.set(key, [file]);
      else if (!list.includes(file)) list.push(file);
    };
    for (const file of project.files) {
      if (!isKotlin(file)) continue;
      const d = await declaredIn(project, file);
      if (d === undefined) continue;
      add(packages, d.pkg, file);
      for (const n of d.names) add(names, d.pkg === "" ? n : `${d.pkg}.${n}`, file);
    }
    return { packages, names };
  });
}

/** Resolves one import (rules in the module comment). Never throws. */
async function resolve(ref: ImportRef, project: ProjectView): Promise<Resolution> {
  const index = await kotlinIndex(project);
  const wildcard = ref.specifier.endsWith(".*");
  const segments = (wildcard ? ref.specifier.slice(0, -2) : ref.specifier).split(".").filter((s) => s !== "");
  if (wildcard) {
    const files = index.packages.get(segments.join("."));
    if (files !== undefined) return { files: [...files].sort(), module: segments.join("."), external: false, package: true };
  }
  for (let k = segments.length; k >= 1; k--) {
    const name = segments.slice(0, k).join(".");
    const files = index.names.get(name);
    if (files !== undefined) return { files: [...files].sort(), module: name, external: false };
  }
  return { files: [], module: segments.join("."), external: true };
}

/** The Kotlin files of the package `file` declares (its declarations are visible there without import). */
async function samePackageFiles(file: string, project: ProjectView): Promise<readonly string[]> {
  const d = await declaredIn(project, file);
  if (d === undefined) return [];
  return (await kotlinIndex(project)).packages.get(d.pkg) ?? [];
}

/** `package.Name` for each top-level declaration of the file, and its package. */
async function moduleNames(file: string, project: ProjectView): Promise<string[]> {
  if (!isKotlin(file)) return [];
  const d = await declaredIn(project, file);
  if (d === undefined) return [];
  const out = d.names.map((n) => (d.pkg === "" ? n : `${d.pkg}.${n}`));
  if (d.pkg !== "") out.push(d.pkg);
  return out;
}

/** Every importer writes the file's package in full (or, without one, a declared name). */
async function importerHints(file: string, project: ProjectView): Promise<{ literals: string[] }> {
  const d = await declaredIn(project, file);
  if (d === undefined) return { literals: [] };
  return { literals: d.pkg !== "" ? [d.pkg] : d.names };
}

/** The Kotlin language module. */
export const kotlin: LanguageSpec = {
  id: "kotlin",
  extensions: [".kt", ".kts"],
  wasm: "@tree-sitter-grammars/tree-sitter-kotlin/tree-sitter-kotlin.wasm",
  sample: "package a\n\nimport b.C\n\nclass D {\n  fun m(): Int = 1\n}\n",
  extract: (root) => extract(root),
  prepare: joinKotlinConstructors,
  resolve: (ref, _fromFile, project) => resolve(ref, project),
  moduleNames,
  importerHints,
  blindSpotNote: KOTLIN_BLIND_SPOT_NOTE,
  // `import kotlinx.coroutines.launch` imports from the package `kotlinx.coroutines`.
  matchesExternal: (query, _ref, res, sub) => matchesModulePath(query, res.module, { separators: ["."], members: true }, sub),
  references: { ...KOTLIN_REFERENCE_RULES, sharedScope: samePackageFiles },
};
