/**
 * C#: definitions and `using` edges (tree-sitter-c-sharp 0.23 grammar).
 *
 * Definitions (in namespaces, block-scoped or file-scoped, and type bodies; never in method bodies):
 * - `class` and `record` → `class`, `struct` and `record struct` → `struct`, `interface` →
 *   `interface`, `enum` → `enum` (members → `constant`), `delegate` → `type`. A `partial` type is
 *   reported at every part. Nested types have their enclosing types as container.
 * - Methods (an extension method, `this T x` first, carries `SymbolDef.extends`: `T`), constructors (named after their type), destructors (`~T`), operators (`operator +`
 *   written `operator+`) → `method`; local functions and conversion operators (`implicit operator
 *   T`: no name to ask for, as in C++) are left out; properties, indexers (`this`)
 *   and events → `variable`; `const` fields → `constant`; all with the enclosing types as container.
 * - Range: the whole declaration, from its first attribute or modifier to its end.
 * - Before parsing, a `#if … #else … #endif` group inside a list (switch expression arms,
 *   arguments, initializers: opened after a line ending in `,`, `(` or `:`) is read as if its first
 *   condition held, the other branches blanked (`list-conditionals.ts`): the grammar reads directives
 *   only between declarations and statements, and without this it lost the whole file (App-vNext/Polly's
 *   `RetryHelper.cs`). So is a group inside a declaration or a statement: after a code line not
 *   ending in `;`, `{` or `}` (`class JsonWriter` / `#if X` / `: IAsyncDisposable` / `#endif`), or whose
 *   first code line continues one (`#if X` / `else if (…) { … }` / `#endif` after an `if` block);
 *   JamesNK/Newtonsoft.Json's `JsonWriter.Async.cs` and `JsonTextReader.cs` lost their members. So is a group whose
 *   first branch ends inside a declaration (two signatures of one method, then one body: serilog/serilog's
 *   `PropertyBinder.cs` lost the whole class).
 * - Declarations inside the branches of `#if` / `#elif` / `#else` between declarations (a file
 *   wrapped in `#if`, members, enum members) are read in every branch (which branch compiles depends
 *   on the build's symbols: https://learn.microsoft.com/dotnet/csharp/language-reference/preprocessor-directives);
 *   before, a file wrapped in one `#if` gave no definitions and no `using` edges (Newtonsoft.Json's tests).
 *
 * Imports (C# language specification §14.5, "Using directives"): one {@link ImportRef} per
 * `using` directive; `specifier` is the name as written (`System.Linq`); `global using` carries the
 * flag `global`, `using static` the flag `static`, an alias (`using A = N.T;`) sets `alias`.
 *
 * Resolution: `using N;` → every `.cs` file of the tree that declares `namespace N` (block or
 * file-scoped); `using static N.T;` and an alias → the files that declare a type `T` in namespace
 * `N` (an alias may also name a namespace: tried first). A directive inside a namespace
 * (`namespace A.B { using C; }`, or after `namespace A.B;`) carries the enclosing namespace parts as
 * `ImportRef.scope`, and its name is read relative to them first: `C` is `A.B.C` when the tree has
 * a namespace or type `A.B.C`, else `A.C`, else `C` ({@link qualified}). Declarations are read from each file's
 * text (comments and strings blanked). Anything else (the .NET libraries, packages) is external,
 * matched by its name. A file is named by its namespaces and by `namespace.Type` for its types
 * ({@link LanguageSpec.moduleNames}).
 *
 * Known blind spot ({@link CSHARP_BLIND_SPOT_NOTE}): code in namespace `A.B` sees the types of
 * `A.B` and `A` without a `using`, and a `global using` applies to every file of the project.
 */
import { advice, tool } from "../../advice.js";
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, LanguageSpec, NameBinding, ProjectView, Resolution, SymbolDef } from "./language.js";
import { memoize, parentDir } from "./project-files.js";
import { CSHARP_REFERENCE_RULES } from "./csharp-references.js";
import { projectUsings } from "./csharp-msbuild.js";
import { blankListConditionals } from "./list-conditionals.js";
import { allChildren, namedChildren, nodeLines } from "./syntax.js";

/** The note `find_importers` adds for C# results. */
export const CSHARP_BLIND_SPOT_NOTE = advice`C#: code in namespace A.B uses the types of A.B and A without a using, and a global using covers the whole project, so those uses are not listed; ${tool("search_code")} for the type name finds them.`;

/** Flags of `global using` and `using static` directives. */
const GLOBAL_USING_FLAG = "global";
const STATIC_USING_FLAG = "static";

const TYPE_KINDS: Readonly<Record<string, SymbolKind>> = {
  class_declaration: "class",
  record_declaration: "class",
  record_struct_declaration: "struct",
  struct_declaration: "struct",
  interface_declaration: "interface",
  enum_declaration: "enum",
};

const MEMBER_KINDS: Readonly<Record<string, SymbolKind>> = {
  method_declaration: "method",
  constructor_declaration: "method",
  destructor_declaration: "method",
  operator_declaration: "method",
  conversion_operator_declaration: "method",
  property_declaration: "variable",
  indexer_declaration: "variable",
  event_declaration: "variable",
  delegate_declaration: "type",
};

const MAX_DEPTH = 128;

/** Conditional-compilation nodes whose branches hold declarations (the grammar nests `#elif`/`#else` in `#if`). */
const PREPROC_BRANCHES: ReadonlySet<string> = new Set(["preproc_if", "preproc_elif", "preproc_else"]);

/** The type an extension method extends: its first parameter's, when marked `this` (`this List<T>? xs` → `List`). */
function extendedType(method: SyntaxNode): string | undefined {
  const first = namedChildren(method.childForFieldName("parameters") ?? method).find((k) => k.type === "parameter");
  if (first === undefined || !namedChildren(first).some((k) => k.type === "modifier" && k.text === "this")) return undefined;
  const name = first.childForFieldName("type")?.text.replace(/<[\s\S]*$/, "").replace(/[?\s]/g, "");
  return name === undefined || name === "" ? undefined : name.slice(name.lastIndexOf(".") + 1);
}

/** Extracts C# definitions and `using` directives from a `compilation_unit` (rules in the module comment). */
function extract(root: SyntaxNode): FileFacts {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const push = (name: string | undefined, kind: SymbolKind, types: readonly string[], node: SyntaxNode, extended?: string): void => {
    if (name === undefined || name === "") return;
    const def: SymbolDef = { name, kind, ...nodeLines(node) };
    if (types.length > 0) def.container = types.join(".");
    if (extended !== undefined) def.extends = extended;
    symbols.push(def);
  };
  // `spaces`: the namespace parts around `parent`'s children; a file-scoped namespace extends them
  // for the declarations after it.
  const walk = (parent: SyntaxNode, types: readonly string[], depth: number, spaces: readonly string[]): void => {
    if (depth > MAX_DEPTH) return;
    let here = spaces;
    for (const node of namedChildren(parent)) {
      const name = node.childForFieldName("name")?.text;
      const typeKind = node.type === "record_declaration" && allChildren(node).some((c) => c.type === "struct") ? "struct" : TYPE_KINDS[node.type];
      if (typeKind !== undefined) {
        push(name, typeKind, types, node);
        const body = node.childForFieldName("body") ?? namedChildren(node).find((c) => c.type === "declaration_list" || c.type === "enum_member_declaration_list");
        if (body === undefined || body === null || name === undefined) continue;
        if (node.type === "enum_declaration") {
          for (const m of enumMembers(body)) push(m.childForFieldName("name")?.text, "constant", [...types, name], m);
        } else {
          walk(body, [...types, name], depth + 1, here);
        }
        continue;
      }
      switch (node.type) {
        case "using_directive": {
          const ref = usingRef(node);
          if (ref !== undefined) {
            if (here.length > 0) ref.scope = [...here];
            imports.push(ref);
          }
          continue;
        }
        case "namespace_declaration": {
          const body = node.childForFieldName("body");
          if (body !== null) walk(body, types, depth + 1, [...here, ...namespaceParts(node)]);
          continue;
        }
        case "file_scoped_namespace_declaration": {
          here = [...here, ...namespaceParts(node)];
          const body = node.childForFieldName("body");
          if (body !== null) walk(body, types, depth + 1, here);
          continue;
        }
        case "declaration_list":
        case "ERROR":
        case "preproc_if":
        case "preproc_elif":
        case "preproc_else":
          walk(node, types, depth + 1, here);
          continue;
        case "field_declaration":
          if (allChildren(node).some((c) => c.type === "modifier" && c.text === "const")) {
            for (const d of declarators(node)) push(d, "constant", types, node);
          }
          continue;
        case "event_field_declaration":
          for (const d of declarators(node)) push(d, "variable", types, node);
          continue;
      }
      const kind = MEMBER_KINDS[node.type];
      if (kind === undefined || (types.length === 0 && node.type !== "delegate_declaration")) continue;
      if (node.type === "indexer_declaration") push("this", kind, types, node);
      else if (node.type === "destructor_declaration") push(name === undefined ? undefined : `~${name}`, kind, types, node);
      else if (node.type === "operator_declaration") push(operatorName(node), kind, types, node);
      else if (node.type === "conversion_operator_declaration") continue;
      else push(name, kind, types, node, node.type === "method_declaration" ? extendedType(node) : undefined);
    }
  };
  walk(root, [], 0, []);
  return { symbols, imports };
}

/** The members of an enum body, also those inside `#if` / `#elif` / `#else` branches (every branch). */
function enumMembers(body: SyntaxNode, depth = 0): SyntaxNode[] {
  if (depth > MAX_DEPTH) return [];
  return namedChildren(body).flatMap((m) => (m.type === "enum_member_declaration" ? [m] : PREPROC_BRANCHES.has(m.type) ? enumMembers(m, depth + 1) : []));
}

/** `["A", "B"]` for `namespace A.B` (block or file-scoped). */
function namespaceParts(node: SyntaxNode): string[] {
  const name = node.childForFieldName("name");
  return name === null ? [] : name.text.replace(/\s+/g, "").replace(/@/g, "").split(".").filter((p) => p !== "");
}

/** `operator+` for `public static T operator +(T a, T b)`. */
function operatorName(node: SyntaxNode): string | undefined {
  const op = node.childForFieldName("operator");
  return op === null ? undefined : `operator${op.text}`;
}

/** Names declared by a field: `int a, b;` → `a`, `b`. */
function declarators(field: SyntaxNode): string[] {
  const decl = namedChildren(field).find((c) => c.type === "variable_declaration");
  if (decl === undefined) return [];
  return namedChildren(decl)
    .filter((c) => c.type === "variable_declarator")
    .map((c) => c.childForFieldName("name")?.text ?? namedChildren(c)[0]?.text ?? "")
    .filter((n) => n !== "");
}

function usingRef(node: SyntaxNode): ImportRef | undefined {
  const children = allChildren(node);
  const alias = node.childForFieldName("name");
  const target = namedChildren(node).filter((c) => c.id !== alias?.id && (c.type === "qualified_name" || c.type === "identifier" || c.type === "generic_name" || c.type === "alias_qualified_name")).pop();
  if (target === undefined) return undefined;
  const ref: ImportRef = { specifier: target.text.replace(/\s+/g, "").replace(/^global::/, ""), ...nodeLines(node) };
  const flags: string[] = [];
  if (children.some((c) => c.type === "global")) flags.push(GLOBAL_USING_FLAG);
  if (children.some((c) => c.type === "static")) flags.push(STATIC_USING_FLAG);
  if (flags.length > 0) ref.flags = flags;
  if (alias !== null) ref.alias = alias.text;
  return ref;
}

/** What one `.cs` file declares, read from its text. */
interface Declared {
  /** The full names of its namespaces, each once, in order. */
  namespaces: string[];
  /** Full namespace name (`""` outside any) → the types declared directly in it, each once, in order. */
  types: Map<string, string[]>;
  /** The namespaces of its `global using N;` directives (not `static`, not aliases), at most {@link MAX_FILE_GLOBAL_USINGS}. */
  globalUsings: string[];
}

/** Most namespaces recorded per file, and the longest full name recorded (real files declare one or two, a few levels deep). */
const MAX_FILE_NAMESPACES = 64;
const MAX_NAMESPACE_CHARS = 512;
/** Most `global using` directives recorded per file (a project's GlobalUsings.cs holds a few dozen). */
const MAX_FILE_GLOBAL_USINGS = 256;

/** Comments, strings and character literals blanked (so `// namespace X` declares nothing). */
function codeOnly(text: string): string {
  return text.replace(/\/\*[\s\S]*?(?:\*\/|$)|\/\/[^\n]*|@"(?:[^"]|"")*"?|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?/g, " ");
}

/**
 * The namespaces `code` declares (a block nested in `namespace A { … }` adds `A.`) and the types
 * declared in each, in one pass: per open brace the full name of the namespace around it, so a
 * name is built once (not again from every enclosing brace) and each type is paired with its own
 * namespace (not with every namespace of the file: a hostile file of thousands of each made
 * millions of names). Past {@link MAX_FILE_NAMESPACES} namespaces, or a full name longer than
 * {@link MAX_NAMESPACE_CHARS}, a namespace is not recorded and its types count as its parent's.
 * A delegate's return type is read for at most 200 characters.
 */
function declarations(code: string): Declared {
  const namespaces = new Set<string>();
  const types = new Map<string, Set<string>>();
  const around: string[] = []; // per open brace: the full namespace name inside it
  let fileScoped = "";
  const current = (): string => around[around.length - 1] ?? fileScoped;
  const re = /\bnamespace\s+([A-Za-z_@][\w.@]*)\s*([{;])|\b(?:class|struct|interface|enum|record|delegate\s+[\w<>.,?[\]\s]{1,200}?)\s+([A-Za-z_]\w*)|[{}]/g;
  for (const m of code.matchAll(re)) {
    if (m[0] === "}") around.pop();
    else if (m[0] === "{") around.push(current());
    else if (m[3] !== undefined) {
      const ns = current();
      let set = types.get(ns);
      if (set === undefined) types.set(ns, (set = new Set()));
      set.add(m[3]);
    } else {
      const outer = current();
      const own = (m[1] as string).replace(/@/g, "");
      let name = outer === "" ? own : `${outer}.${own}`;
      if (name.length > MAX_NAMESPACE_CHARS || (namespaces.size >= MAX_FILE_NAMESPACES && !namespaces.has(name))) name = outer;
      else namespaces.add(name);
      if (m[2] === "{") around.push(name);
      else fileScoped = name;
    }
  }
  const globalUsings: string[] = [];
  for (const m of code.matchAll(/\bglobal\s+using\s+(?!static\b)([A-Za-z_@][\w.@]*)\s*;/g)) {
    if (globalUsings.length >= MAX_FILE_GLOBAL_USINGS) break;
    globalUsings.push((m[1] as string).replace(/@/g, ""));
  }
  return { namespaces: [...namespaces], types: new Map([...types].map(([ns, set]) => [ns, [...set]])), globalUsings };
}

function declaredIn(project: ProjectView, file: string): Promise<Declared | undefined> {
  return memoize(project, `csharp:declared:${file}`, async () => {
    const text = await project.readText(file);
    return text === undefined ? undefined : declarations(codeOnly(text));
  });
}

/** What the `.cs` files of a tree declare. */
interface CSharpIndex {
  /** Namespace → files declaring it. */
  namespaces: Map<string, string[]>;
  /** `namespace.Type` → files declaring the type. */
  types: Map<string, string[]>;
  /** Every declared namespace and each of its leading parts (`A`, `A.B` for `A.B.C`). */
  prefixes: Set<string>;
  /** Project folder ({@link projectDirOf}) → the namespaces its files' `global using` directives and its MSBuild files' `<Using>` items and implicit usings name, each once. */
  globalUsings: Map<string, string[]>;
  /** The folders that hold a `.csproj` file. */
  csprojDirs: Set<string>;
}

/**
 * The folder of the project a `.cs` file belongs to: the nearest folder above it that holds a
 * `.csproj` file (`csprojDirs`), else `""` (the whole tree is one project).
 */
function projectDirOf(file: string, csprojDirs: ReadonlySet<string>): string {
  for (let d = parentDir(file); d !== ""; d = parentDir(d)) if (csprojDirs.has(d)) return d;
  return "";
}

/** The MSBuild file of `name` nearest above `dir` (`dir` itself first), as MSBuild imports `Directory.Build.props` and `Directory.Build.targets`. */
function nearestAbove(project: ProjectView, dir: string, name: string): string | undefined {
  for (let d = dir; ; d = parentDir(d)) {
    const file = d === "" ? name : `${d}/${name}`;
    if (project.has(file)) return file;
    if (d === "") return undefined;
  }
}

/**
 * The namespaces the MSBuild files of the project in `dir` make global usings of (`csharp-msbuild.ts`):
 * its `.csproj` files, after the nearest `Directory.Build.props` and before the nearest `Directory.Build.targets`.
 */
async function msbuildUsings(project: ProjectView, dir: string, csproj: readonly string[]): Promise<string[]> {
  const files = [nearestAbove(project, dir, "Directory.Build.props"), ...csproj, nearestAbove(project, dir, "Directory.Build.targets")];
  const texts: string[] = [];
  for (const f of files) {
    const text = f === undefined ? undefined : await project.readText(f);
    if (text !== undefined) texts.push(text);
  }
  return projectUsings(texts);
}

/** Namespace → files, and `namespace.Type` → files, over every `.cs` file (once per view). */
function csharpIndex(project: ProjectView): Promise<CSharpIndex> {
  return memoize(project, "csharp:index", async () => {
    const namespaces = new Map<string, string[]>();
    const types = new Map<string, string[]>();
    const globalUsings = new Map<string, string[]>();
    const add = (map: Map<string, string[]>, key: string, file: string) => {
      const list = map.get(key);
      if (list === undefined) map.set(key, [file]);
      else if (!list.includes(file)) list.push(file);
    };
    const csprojFiles = new Map<string, string[]>(); // folder → its .csproj files
    for (const f of project.files) if (f.endsWith(".csproj")) add(csprojFiles, parentDir(f), f);
    const csprojDirs = new Set(csprojFiles.keys());
    for (const file of project.files) {
      if (!file.endsWith(".cs")) continue;
      const d = await declaredIn(project, file);
      if (d === undefined) continue;
      for (const ns of d.namespaces.length > 0 ? d.namespaces : [""]) add(namespaces, ns, file);
      for (const [ns, names] of d.types) for (const t of names) add(types, ns === "" ? t : `${ns}.${t}`, file);
      if (d.globalUsings.length > 0) for (const ns of d.globalUsings) add(globalUsings, projectDirOf(file, csprojDirs), ns);
    }
    for (const [dir, csproj] of csprojFiles) for (const ns of await msbuildUsings(project, dir, csproj)) add(globalUsings, dir, ns);
    const prefixes = new Set<string>();
    for (const ns of namespaces.keys()) {
      const parts = ns.split(".");
      for (let i = 1; i <= parts.length; i++) prefixes.add(parts.slice(0, i).join("."));
    }
    return { namespaces, types, prefixes, globalUsings, csprojDirs };
  });
}

/**
 * The full name a using directive written inside namespace `scope` stands for (C# language
 * specification, "Namespace and type names"): its first identifier is looked up as a member of each
 * enclosing namespace, innermost first, then of the global namespace; the first namespace that has
 * a namespace or type of that name wins (`using Wrappers;` inside `namespace MediatR` →
 * `MediatR.Wrappers`). Only namespaces and types of the tree are known, so a name found in none of
 * them is taken as written.
 */
function qualified(name: string, scope: readonly string[] | undefined, index: CSharpIndex): string {
  if (scope === undefined) return name;
  const first = name.split(".")[0] as string;
  for (let k = scope.length; k > 0; k--) {
    const prefix = scope.slice(0, k).join(".");
    if (index.prefixes.has(`${prefix}.${first}`) || index.types.has(`${prefix}.${first}`)) return `${prefix}.${name}`;
  }
  return name;
}

/** Resolves one `using` directive (rules in the module comment). Never throws. */
async function resolve(ref: ImportRef, project: ProjectView): Promise<Resolution> {
  const index = await csharpIndex(project);
  const name = qualified(ref.specifier.replace(/<.*$/, ""), ref.scope, index);
  const isStatic = ref.flags?.includes(STATIC_USING_FLAG) === true;
  if (!isStatic) {
    const files = index.namespaces.get(name);
    if (files !== undefined && name !== "") return { files: [...files].sort(), module: name, external: false };
  }
  if (isStatic || ref.alias !== undefined) {
    const files = index.types.get(name);
    if (files !== undefined) return { files: [...files].sort(), module: name, external: false };
  }
  return { files: [], module: name, external: true };
}

/** The `.cs` files that declare one of the namespaces `file` declares (the file's own types' namespace mates). */
async function sameNamespaceFiles(file: string, project: ProjectView): Promise<readonly string[]> {
  const d = await declaredIn(project, file);
  const index = await csharpIndex(project);
  const out = new Set<string>();
  for (const ns of d === undefined || d.namespaces.length === 0 ? [""] : d.namespaces) for (const f of index.namespaces.get(ns) ?? []) out.add(f);
  return [...out].sort();
}

/**
 * The wildcard bindings `file` has from the `global using N;` directives of its project's files
 * (C# language specification §14.5.2: a global using directive applies to every compilation unit
 * of the program; a project is the files below one `.csproj`, {@link projectDirOf}).
 */
async function globalUsingBindings(file: string, project: ProjectView): Promise<readonly NameBinding[]> {
  const index = await csharpIndex(project);
  if (index.globalUsings.size === 0) return [];
  const dir = projectDirOf(file, index.csprojDirs);
  return memoize(project, `csharp:global-bindings:${dir}`, () => (index.globalUsings.get(dir) ?? []).map((ns): NameBinding => ({ local: "*", specifier: ns, member: "*", line: 1 })));
}

/** The names of a `.cs` file: its namespaces and `namespace.Type` for each type it declares. */
async function moduleNames(file: string, project: ProjectView): Promise<string[]> {
  if (!file.endsWith(".cs")) return [];
  const d = await declaredIn(project, file);
  if (d === undefined) return [];
  const out: string[] = [];
  for (const ns of d.namespaces) {
    out.push(ns);
    for (const t of d.types.get(ns) ?? []) out.push(`${ns}.${t}`);
  }
  return out;
}

/** Every importer names the last part of one of the file's namespaces (in full, or relative to an enclosing namespace). */
async function importerHints(file: string, project: ProjectView): Promise<{ literals: string[] }> {
  const d = await declaredIn(project, file);
  const literals = [...new Set(d?.namespaces.filter((n) => n !== "").map((n) => n.slice(n.lastIndexOf(".") + 1)) ?? [])];
  return { literals: literals.length > 0 ? literals : [file.slice(file.lastIndexOf("/") + 1, -".cs".length)] };
}

/** The C# language module. */
export const csharp: LanguageSpec = {
  id: "csharp",
  extensions: [".cs"],
  wasm: "tree-sitter-c-sharp/tree-sitter-c_sharp.wasm",
  sample: "using System;\n\nnamespace A;\n\npublic class B\n{\n    public int M() => 1;\n}\n",
  extract: (root) => extract(root),
  prepare: (source) => blankListConditionals(source, "with-else", "inside-code"),
  resolve: (ref, _fromFile, project) => resolve(ref, project),
  moduleNames,
  importerHints,
  blindSpotNote: CSHARP_BLIND_SPOT_NOTE,
  // Every part of a partial type or method carries the `partial` modifier (C# language specification,
  // "Partial declarations": https://learn.microsoft.com/dotnet/csharp/language-reference/language-specification/classes#1527-partial-declarations);
  // two same-named types without it in one namespace are two types of different assemblies.
  references: { ...CSHARP_REFERENCE_RULES, sharedScope: sameNamespaceFiles, projectBindings: globalUsingBindings, declaresPart: (head) => /\bpartial\b/.test(head) },
};
