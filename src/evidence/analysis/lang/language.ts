/**
 * What a language module (`src/evidence/analysis/lang/<language>.ts`) provides: its grammar, how to
 * extract definitions and import statements from a syntax tree, and how its imports resolve
 * to files of the repository. Adding a language means adding one such module.
 */
import type { AdviceText } from "../../advice.js";
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { EvidenceFlag, SymbolKind } from "../../evidence.js";
import type { ImportScan } from "../import-scan.js";

/** A definition found in one file. Lines are 1-based and inclusive; the range spans the whole definition. */
export interface SymbolDef {
  name: string;
  /** Enclosing type for methods (`Class` of `Class.method`, a Go receiver type, a Rust `impl` type). */
  container?: string;
  kind: SymbolKind;
  start_line: number;
  end_line: number;
  /**
   * Optional (additive, issue 9): the 0-based column (UTF-16 code units) of the definition's name
   * on `start_line`, set only when that line is longer than `LONG_LINE_CHARS` of `tree-sitter.ts`
   * (minified code), so a snippet can show the columns around the definition instead of the
   * line's start.
   */
  start_column?: number;
  /**
   * Optional (additive, issue 15): a declaration without a body (a C/C++ prototype, a method declared
   * in a class body and defined elsewhere). `find_symbol` reports it only when asked with `kind`.
   */
  declaration?: boolean;
  /**
   * Optional (additive, issue 15): a file-level extension (Kotlin `fun String.ext()`, `val
   * String.x`), whose `container` is its receiver type: it is a top-level name of its package
   * (`import a.b.ext`) and is seen only where imported, or in its own package.
   */
  extension?: boolean;
  /**
   * Optional (additive, issue 15): the type a C# extension method extends (`this IServiceCollection
   * services` → `IServiceCollection`: the last part of its name, without type arguments); the
   * method is seen where its static class is.
   */
  extends?: string;
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
   * C# (additive, issue 15): the parts of the namespace around a `using` placed inside one
   * (`namespace A.B { using C; }` → `["A", "B"]`), whose name is then read relative to it.
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
  /**
   * Optional (additive, issue 11): the names this file uses and the names its imports bind, for
   * `find_references`. Absent when the language has no reference rules ({@link LanguageSpec.references}).
   */
  references?: ReferenceFacts;
  /**
   * Optional (additive): set when the file was parsed and refused as nested too deeply
   * (`SyntaxTooDeepError` of `tree-sitter.ts`); the lists are then empty. Kept in the fact cache
   * like any facts, so an unchanged file is not parsed again by every later query (a parse of such
   * a file can take seconds); `loadFacts` counts it as skipped `too_deep`. `too_slow` (additive):
   * the parse passed its time limit (`ParseTimeoutError` of `tree-sitter.ts`), kept the same way.
   */
  skipped?: "too_deep" | "too_slow";
}

/**
 * How a place uses a definition (`find_references` `kind` and the record's first flag): `call`
 * (called or instantiated: `f()`, `new C()`, a decorator), `import` (named in an import or
 * re-export statement), `type` (in a type position: annotation, type argument, declared type),
 * `inherit` (a base class, `extends`/`implements`, an embedded type), `value` (anything else:
 * passed, stored, read).
 */
export type UseKind = "call" | "import" | "type" | "inherit" | "value";

/** Every {@link UseKind}, in the order the tool lists them. */
export const USE_KINDS = ["call", "import", "type", "inherit", "value"] as const satisfies readonly UseKind[];

/**
 * One use of a name in a file that may refer to a definition of another place: a free name (not a
 * parameter or local of an enclosing function — extractors drop those, so shadowing is settled
 * here) or a dotted/`::` path led by one. Comments and strings never give uses.
 */
export interface NameUse {
  /**
   * The path as written, one entry per part: `["f"]`, `["ns", "f"]` (`ns.f`), `["a", "b", "C"]`,
   * `["crate", "x", "f"]` (Rust `crate::x::f`), `["self", "m"]`/`["this", "m"]`/`["cls", "m"]`. A
   * receiver that is not a name (`f().m`, `a[0].m`) is the empty string: `["", "m"]`. Every prefix
   * of the path is a use too (`["a", "b"]` of `a.b.c`).
   */
  path: string[];
  /** 1-based line of the path's last part. */
  line: number;
  /** The statement (or expression, when the statement is long) holding the use, 1-based inclusive. */
  start_line: number;
  end_line: number;
  /** How the whole path is used (its prefixes are `value` uses). */
  use: UseKind;
  /** The enclosing definition's qualified name (`Class.method`, `func`); absent in top-level code. */
  context?: string;
  /**
   * The qualified name (within this file) of the class whose instance `path[0]` is: the class
   * around `self`/`this`/`cls`, or, for a language where a bare call inside a class may be a method
   * of it (Java), the class around a one-part path.
   */
  selfClass?: string;
  /**
   * The type `path[0]` is bound to in the same scope, as written: `["C"]` for `x = C()`,
   * `x = new C()`, `x: C`, `C x`, a parameter `x *C`; `["mod", "C"]` for `x = mod.C()`.
   */
  receiverType?: string[];
  /**
   * For a use in an import statement: the index in {@link ReferenceFacts.bindings} of the binding
   * the statement makes; the use refers to whatever that binding resolves to.
   */
  binding?: number;
  /**
   * For a use led by a function or class declared inside an enclosing function (a nested `def`, a
   * `function` in a callback, `LocalClass.method`): the first line of that declaration (as its
   * definition's range starts), which is the only thing the path's first part can refer to.
   */
  localDef?: number;
  /**
   * Optional (additive, issue 15): the index of the first part written in the source; the parts
   * before it are implied by the lexical scope (a C++ name inside `namespace a` tried as `a::x`, a
   * Ruby constant inside `module M` tried as `M::X`) and are not uses themselves. Absent → 0.
   */
  from?: number;
  /**
   * Optional (additive, issue 15): this use is another reading of the same written name, in an
   * outer lexical scope, of the use just before it (Ruby `Module.nesting`: `X` inside `module A;
   * class B` is read as `A::B::X`, then `A::X`, then `X`). The readings form a chain from the
   * first use without this flag; a reading counts only when no earlier reading of its chain names
   * anything (its parts up to `from` resolve to no definition, module or namespace of the tree).
   */
  alternative?: boolean;
  /**
   * Optional (additive, issue 11): the last part is named by a method reference (Java `C::m`,
   * `this::m`): a method, though not called (`ReferenceRules.methodsOnlyCalled` does not drop it).
   */
  methodRef?: boolean;
  /**
   * Optional (additive, issue 11): the path is the class of an instance creation (JavaScript
   * `new C(…)`), which calls the class's constructor (`ReferenceRules.constructorName`).
   */
  constructs?: boolean;
  /**
   * Optional (additive, issue 11): `path[0]` (or, when it is `""`, the receiver) holds what a call
   * of the function or method `path` returns (`x = make()` then `x.m`, `make().m`, `x =
   * self.get()`); `selfClass` is the class around `self`/`this` when the callee is led by it.
   * The engine reads the callee's declared return type ({@link ReferenceFacts.returns}); a callee
   * without one leaves the receiver's type unknown.
   */
  receiverCall?: { path: string[]; selfClass?: string };
  /**
   * Optional (additive, issue 11): `path[0]` is a parameter of a pytest test or fixture, or a use
   * of one in its body: it names the fixture of that name (pytest "How to use fixtures": the
   * test's module first, then the `conftest.py` of each folder up), {@link ReferenceFacts.fixtures}.
   */
  fixture?: boolean;
}

/**
 * A local name bound by an import (`from a import f as g` → local `g`, specifier `a`, member `f`;
 * `import a.b as c` → local `c`, module `a.b`; TS `import * as ns` → local `ns`, module;
 * Rust `use crate::x::f` → local `f`, specifier `crate::x`, member `f`).
 */
export interface NameBinding {
  local: string;
  /** The module as an {@link ImportRef} specifier would write it. */
  specifier: string;
  /** The name taken from the module; absent when `local` is the module itself; `*` for a wildcard. */
  member?: string;
  /** 1-based line of the statement. */
  line: number;
  /** As {@link ImportRef.scope} (Rust inline modules). */
  scope?: string[];
  /** Optional (additive, issue 15): as {@link ImportRef.flags} of the statement (Ruby `relative` for `require_relative`). */
  flags?: EvidenceFlag[];
}

/** A class (or struct, interface, trait) of the file and the base paths it names, as written. */
export interface ClassFact {
  /** Qualified within the file (`Outer.Inner`), as {@link SymbolDef} container/name. */
  name: string;
  /** Base classes, interfaces, embedded types: `[["Base"], ["mod", "Mixin"]]`. */
  bases: string[][];
}

/** What {@link NameUse}s need besides the uses themselves. */
export interface ReferenceFacts {
  uses: NameUse[];
  bindings: NameBinding[];
  classes: ClassFact[];
  /**
   * Names the file exports under another name (JS `export { a as b }` → `{exported: "b", local: "a"}`,
   * `export default a` / `export default function a` → `{exported: "default", local: "a"}`).
   */
  exportAliases?: { exported: string; local: string }[];
  /**
   * Optional (additive, issue 11): the declared return types of the file's top-level functions and
   * of the methods of its top-level classes, as written (`def f() -> C` → `{name: "f", type:
   * ["C"]}`; `Cls.m`; a type that may also be `None`/`null`/`undefined` counts as that type).
   * Types that are not one class name or dotted path (generics, other unions) are left out.
   */
  returns?: { name: string; type: string[] }[];
  /** Optional (additive, issue 11): top-level functions decorated `@pytest.fixture` / `@fixture` without `name=`. */
  fixtures?: string[];
}

/** The parts of a text a parse for some names needs ({@link ReferenceRules.focus}). */
export interface TextFocus {
  /** The ranges to parse: UTF-16 indices (`end` exclusive), sorted and disjoint; empty when no name occurs. */
  ranges: { start: number; end: number }[];
  /**
   * Whether the parse of {@link ranges} gives every definition named `name` as the whole text's
   * does (true for the names asked about; for another name, when each of its occurrences lies in
   * the ranges or where no definition can be written); with `bodies`, only every class (struct,
   * union) body named so ({@link ReferenceFacts.classes}).
   */
  covers(name: string, bodies?: boolean): boolean;
}

/**
 * A language's rules for `find_references` (the engine is `src/evidence/references.ts`): the
 * extraction of {@link ReferenceFacts} and how names reach across files. Adding references to a
 * language means adding this object to its module; the engine knows no language.
 */
export interface ReferenceRules {
  /**
   * Extracts uses and bindings from a parsed tree (called by `extract`'s caller after it, with
   * the definitions and imports `LanguageSpec.extract` gave for the same tree and text).
   */
  extract(root: SyntaxNode, source: string, facts: FileFacts): ReferenceFacts;
  /**
   * Optional (additive, issue 15): the ranges of a file's text (as parsed: after
   * {@link LanguageSpec.prepare}) whose parse alone gives every use ({@link ReferenceFacts.uses})
   * and every definition written with one of `names` as the whole text's parse gives them, with
   * the same lines and contexts ({@link TextFocus}); `undefined` when the ranges cannot be told
   * for sure (the text is then parsed whole). `find_references` parses only these ranges of the
   * files it reads for their uses (`tree-sitter.ts` `extractFocusedFacts`). Absent → files are
   * parsed whole.
   */
  focus?(text: string, names: readonly string[]): TextFocus | undefined;
  /**
   * Files whose top-level definitions a file sees without importing them (Go: the other files of
   * its package folder; Java: the classes of its package; C#: the files of its namespaces). Absent →
   * none. May answer with a promise (additive, issue 15) when the files come from reading the tree.
   */
  sharedScope?(file: string, project: ProjectView): readonly string[] | Promise<readonly string[]>;
  /**
   * Optional (additive, issue 15): wildcard bindings a file has from other files of its project
   * (C#: the `global using N;` directives of the project's files, C# language specification §14.5.2).
   * Looked up, as the file's own wildcard bindings, after its definitions and its named bindings. Absent → none.
   */
  projectBindings?(file: string, project: ProjectView): Promise<readonly NameBinding[]>;
  /**
   * Whether a definition whose declaration reads `head` (its first lines, from its first attribute
   * or modifier to the name) may be one of several parts of one definition in files of one shared
   * scope ({@link sharedScope}): `find_references` takes same-named definitions there for one only
   * when every part says so. Absent → always (a Kotlin `expect`/`actual` pair, Go declarations under
   * build tags).
   */
  declaresPart?(head: string): boolean;
  /**
   * The specifier of the module named by a path not led by a bound name (Rust `["crate", "x"]` →
   * `crate::x`; Java `["com", "a", "B"]` → `com.a.B`); `undefined` when such a path names no
   * module. Absent → every path must start with a bound name.
   */
  modulePath?(parts: readonly string[]): string | undefined;
  /**
   * The specifier of submodule `member` of the resolved module `module` (Python `a.b` + `c` →
   * `a.b.c`). Absent → modules have no submodules reached as members.
   */
  submodulePath?(module: string, member: string): string;
  /**
   * True when a module of this language is a class of the same name (Java: `a.b.C` is the file
   * `C.java` holding class `C`), so `C.m` is a member of that class.
   */
  readonly moduleIsClass?: boolean;
  /**
   * True when `binding` (with a member) led to the member as a module of its own rather than to
   * the module holding it (Python `from pkg import sub` reaching `pkg/sub.py`). Absent → never.
   */
  memberIsModule?(binding: NameBinding, res: Resolution): boolean;
  /**
   * True when members of a type may be defined in any file (Rust: `impl T` blocks anywhere in the
   * crate), so a member not found beside the type is looked for in every file that mentions it.
   */
  readonly membersAnywhere?: boolean;
  /**
   * Optional (additive, issue 15): true when a repository may declare members of a type from outside
   * it (Swift `extension String { func shout() }`): `x.m` where `x` is declared of such a type is the
   * repository's member `T.m` when one is declared (container `T`), else no use. Absent → never.
   */
  readonly outsideTypeMembers?: boolean;
  /**
   * Optional (additive, issue 15): true when a definition may be declared apart from it (C/C++: a
   * prototype or an in-class method declaration in a header, {@link SymbolDef.declaration}). A use
   * that resolves to such a declaration, of the same qualified name, refers to the definition when
   * the declaration's file is the definition's file or one it includes (directly or through other
   * includes), or has the same file stem (`x.h` for `x.c`). Absent → never.
   */
  readonly separateDeclarations?: boolean;
  /**
   * Optional (additive, issue 15): true when a resolved module names a declaration by its last
   * segment (Kotlin `import a.b.C` → the files of package `a.b` declaring `C`; PHP `use A\B\C` →
   * the file of class `C`), so the module is that top-level declaration in each of its files.
   */
  readonly moduleIsDeclaration?: boolean;
  /**
   * Optional (additive, issue 15): true when definitions are global and open (Ruby: constants live
   * in one tree, a class or module may be reopened in any file, a method redefined). Every
   * definition of one qualified name is one thing (`find_references` of a class reopened in three
   * files is one query); a path names the definitions of its qualified name in any file the query
   * read (`A::B::C` → the definitions `C` with container `A.B`), and a class's members are those
   * of its qualified name in those files. Absent → definitions are per file.
   */
  readonly globalDefinitions?: boolean;
  /**
   * Optional (additive, issue 11): true when a simple name that is not called never names a method
   * (Java: an expression name is a variable, JLS §6.5.6; a method is named only by an invocation
   * or a method reference), so a bare name inside a class that is not a call skips the class's
   * methods of that name (a field of the same name is meant). Absent → a bare name may name a
   * method (C# method groups, Python bound methods).
   */
  readonly methodsOnlyCalled?: boolean;
  /**
   * Optional (additive, issue 15): true when a path led by a name the file neither binds nor
   * defines may be a namespace or module path outside the repository, written like a chain of
   * members (C++ `std::chrono::steady_clock::now`, Rust `std::fs::read`): a later part of such a
   * path is then never read as a member of a value of unknown type (the `by_name` rule). Absent →
   * such a head is a local or parameter (`command.configuration.shouldDisplay`).
   */
  readonly namespacePaths?: boolean;
  /**
   * Optional (additive, issue 11): the file's {@link ReferenceFacts.bindings}, which in this
   * language are a function of its imports alone (C/C++: one wildcard per resolvable `#include`),
   * and which it has no {@link ReferenceFacts.exportAliases}. `find_references` then reads the
   * files it only looks names up in (a header reached through includes) from the definitions tier
   * of the fact cache, without their uses. `extract` must give the same bindings. Absent → the
   * bindings come from `extract`.
   */
  importBindings?(imports: readonly ImportRef[]): NameBinding[];
  /**
   * Optional (additive, issue 11): the name of a class's constructor method when it is not the
   * class's name (JavaScript/TypeScript `constructor`). An instance creation (`new C(…)`,
   * {@link NameUse.constructs}) then refers to the constructor of `C`, as the TypeScript language
   * service's references do (a JSX element `<C />` does not). Absent →
   * constructors are found by their own name only.
   */
  readonly constructorName?: string;
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
  /**
   * Optional (additive, issue 15): true when `module` is a package (namespace) that `files`
   * declare, not a declaration in them, so {@link ReferenceRules.moduleIsDeclaration} does not read
   * its last segment as a declaration (Kotlin `import arrow.optics.*` is package `arrow.optics`
   * even where it holds a top-level `annotation class optics`). Absent → as the rules say.
   */
  package?: boolean;
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
  /**
   * Optional (additive, issue 15): the text handed to the parser instead of the file's own, for
   * forms the grammar cannot read (C/C++ annotation macros, Kotlin constructors split from their
   * class head). It must keep the length and the number of lines of the source, and every
   * definition's start line (C/C++ only blanks with spaces; Kotlin moves one line break inside a
   * class head); `extract` still receives the file's own text. Absent → the source as it is.
   */
  prepare?(source: string): string;
  /**
   * Optional (additive, issue 15): the file's imports read from its text without a parse, the
   * same list (without `lines`) as `extract` gives (C/C++ `#include`s, `c-directives.ts`): callers
   * that need only imports (`find_importers`, the include closure of `find_references`) then read
   * files instead of parsing them (`analysis/lexical-imports.ts`). `undefined` (Python, issue 17:
   * `python-imports.ts`) when this file's imports must come from the parse (text the reader does
   * not follow, imports only the tree shows): callers then load the file's facts. `onScan`, when
   * the language reads it (Python), receives in the same pass the import screen's scan of the text
   * (`import-scan.ts` `scanImports` for the language's family, the same value), so that
   * `find_importers` reads a candidate once for both.
   */
  lexicalImports?(source: string, onScan?: (scan: ImportScan) => void): ImportRef[] | undefined;
  /** Resolves one import of `fromFile`. */
  resolve(ref: ImportRef, fromFile: string, project: ProjectView): Promise<Resolution>;
  /**
   * A known blind spot of this language's import edges, for `find_importers` to put in `note`
   * (Java: classes of the same package need no import). Absent when there is none worth saying.
   */
  readonly blindSpotNote?: AdviceText;
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
   * Optional (additive, issue 15): {@link importerHints} for a language whose hints depend on the
   * file's path only (C/C++: the header's name; Python: its stem); a language sets one of the two.
   * `find_importers` asked for such a file by path starts its prefilter while the tree is still being
   * walked.
   */
  pathImporterHints?(file: string): { literals: string[]; patterns?: string[] };
  /**
   * Optional (additive, issue 17): text that every file of this language must contain to import a
   * module that `find_importers` knows by name only (`numpy`, `session`: no file of the tree has
   * it), in the form of {@link importerHints}. `query` is the name as asked, `word` its last part
   * (`linalg` of `numpy.linalg`). Absent → `word` as a plain string, anywhere in the file.
   */
  importerNameHints?(query: string, word: string, includeSubmodules: boolean): { literals: string[]; patterns?: string[] };
  /**
   * Optional (additive): for a qualified name (`std::io::Read`), how a glob import of its parent
   * module is written, when this language's {@link matchesExternal} counts such a glob as an import
   * of the name (Rust `use std::io::*;`): `pattern`, a ripgrep regex (Rust syntax) a file holding
   * that glob contains, and `scanText`, the lower-case text the import scan (`import-scan.ts`) keeps
   * for it (`io::*`). `find_importers` by name adds both to the name's own needles and keys, so such
   * a file is parsed. `undefined` when the name has no parent.
   */
  wildcardImportHints?(query: string): { pattern: string; scanText: string } | undefined;
  /**
   * Optional (additive, B1): whether an import that resolved outside the tree (`external: true`)
   * matches a `module_name` query: the exact module, or with `includeSubmodules` the module and
   * everything under it (`external-match.ts`). Absent → `res.module` equals the query (or, with
   * `includeSubmodules`, starts with it plus one of `.`, `/`, `::`).
   */
  matchesExternal?(query: string, ref: ImportRef, res: Resolution, includeSubmodules: boolean): boolean;
  /**
   * Optional (additive, J): for languages where a folder is a package (Go), the files that make up
   * the package at folder `dir` (repository-relative), so `find_importers` reads a folder query as
   * that package; empty when `dir` holds none. Absent → folders are not packages of this language.
   */
  packageFiles?(dir: string, project: ProjectView): readonly string[];
  /** Optional (additive, issue 11): the rules of `find_references`; absent → the language's files give no references. */
  readonly references?: ReferenceRules;
}
