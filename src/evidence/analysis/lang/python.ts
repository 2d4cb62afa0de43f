/**
 * Python: definitions and import edges (tree-sitter-python 0.25 grammar).
 *
 * **Definitions** — functions (`function`, also a module-level `name = lambda …`), classes
 * (`class`), functions in a class body (`method`, container = the class, `Outer.Inner` for nested
 * classes), `type X = …` (`type`), and module-level and class-level assignments (`constant` when
 * the name is UPPER_CASE, else `variable`; class attributes and dataclass fields have the class as
 * container; also inside `if`/`try`/`with` blocks; tuple targets give one definition per name;
 * annotated names without a value count). Ranges span the whole
 * definition including decorators. Functions nested in functions are reported (no container).
 *
 * **Imports** — one {@link ImportRef} per imported module or name, with the whole statement's
 * range (`from ..m import (a,\n b)` spans both lines), wherever the statement is (`if`, `try`,
 * `def`, `class`, …): `import a.b as c` → `a.b` (alias `c`); `from X import y, z` → two refs,
 * specifier `X` (with its leading dots), names `[y]` and `[z]`; `from __future__ import x` →
 * `__future__`. Comments and strings are never imports (they are not statements in the tree).
 * Statements in the body of `if TYPE_CHECKING:` / `if typing.TYPE_CHECKING:` are flagged
 * `type_checking` (grimp does the same). `importlib.import_module("lit")`, `import_module("lit")`
 * and `__import__("lit")` are imports flagged `dynamic`; with a non-literal argument they are
 * flagged `dynamic` and `unresolved` and keep the argument's text as specifier. `__all__` is an
 * ordinary variable: re-exports add no edges.
 *
 * **Resolution** (module layout and search: `python-layout.ts`):
 * - absolute `import a.b`: search `a`, then `a.b`, along the file's assumed `sys.path`;
 * - relative imports per PEP 328: `N` dots name the file's package with `N - 1` trailing parts
 *   removed (in `pkg/__init__.py` the package is `pkg` itself, so `.` is `pkg`); more dots than the
 *   package is deep, or a relative import in a top-level module, is unresolved (Python raises
 *   `ImportError` too);
 * - `from X import y` leads to the submodule `X.y` when it exists, else to `X` (grimp); in the
 *   second case (and when `X` is external) an alias `y as z` renames `y`, not the module, and the
 *   resolution says so (`memberAlias`), so import records carry no `alias`;
 * - `import a.b` where only `a` is found but `a.b` is not a module leads to `a` (grimp's parent rule);
 * - a name whose first part is not in the tree is external and keeps its full written name
 *   (`numpy.linalg`); a name whose first part is in the tree but whose rest is not is unresolved.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { EvidenceFlag, SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution, SymbolDef } from "./language.js";
import { matchesModulePath } from "./external-match.js";
import { callStatementLines, shortText } from "./call-range.js";
import { escapeRustRegex } from "../rust-regex.js";
import { parentDir } from "./project-files.js";
import { isDottedName, pythonLayout, resolveRelativeName, type FoundModule } from "./python-layout.js";
import { compiledQuery } from "./query-cache.js";
import { extractPythonReferences } from "./python-references.js";
import { pythonImports } from "./python-imports.js";
import { namedChildren, nodeLines, type LineRange } from "./syntax.js";

/** Deepest block nesting walked; deeper statements are not visited. */
const MAX_DEPTH = 200;

interface Context {
  /** Enclosing classes, outermost first, since the nearest function. */
  classes: string[];
  /** Inside a function body (at any depth). */
  inFunction: boolean;
  typeChecking: boolean;
  depth: number;
}

/** Node types whose named children may hold statements. */
const COMPOUND = new Set([
  "ERROR",
  "block",
  "else_clause",
  "elif_clause",
  "except_clause",
  "except_group_clause",
  "finally_clause",
  "try_statement",
  "with_statement",
  "for_statement",
  "while_statement",
  "match_statement",
  "case_clause",
]);

const CONSTANT_NAME = /^_*[A-Z][A-Z0-9_]*$/;

function isTypeCheckingCondition(node: SyntaxNode | null): boolean {
  if (node === null) return false;
  if (node.type === "identifier") return node.text === "TYPE_CHECKING";
  if (node.type === "attribute") return node.childForFieldName("attribute")?.text === "TYPE_CHECKING";
  return false;
}

/** Extracts definitions and imports from a tree-sitter-python `module` tree. */
function extractPython(root: SyntaxNode, source: string): FileFacts {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];

  const define = (name: string, kind: SymbolKind, lines: LineRange, classes: readonly string[]) => {
    const def: SymbolDef = { name, kind, ...lines };
    if (classes.length > 0) def.container = classes.join(".");
    symbols.push(def);
  };

  const visitDefinition = (def: SyntaxNode, rangeNode: SyntaxNode, ctx: Context) => {
    const name = def.childForFieldName("name")?.text;
    const body = def.childForFieldName("body");
    if (def.type === "function_definition") {
      if (name) define(name, ctx.classes.length > 0 ? "method" : "function", nodeLines(rangeNode), ctx.classes);
      if (body) visitBlock(body, { classes: [], inFunction: true, typeChecking: ctx.typeChecking, depth: ctx.depth + 1 });
    } else if (def.type === "class_definition") {
      if (name) define(name, "class", nodeLines(rangeNode), ctx.classes);
      const classes = name ? [...ctx.classes, name] : ctx.classes;
      if (body) visitBlock(body, { ...ctx, classes, depth: ctx.depth + 1 });
    }
  };

  const visitAssignment = (stmt: SyntaxNode, ctx: Context) => {
    if (ctx.inFunction) return;
    for (const expr of namedChildren(stmt)) {
      let node: SyntaxNode | null = expr;
      while (node !== null && node.type === "assignment") {
        const left = node.childForFieldName("left");
        const right = node.childForFieldName("right");
        const targets =
          left?.type === "identifier"
            ? [left]
            : left && (left.type === "pattern_list" || left.type === "tuple_pattern")
              ? namedChildren(left).filter((n) => n.type === "identifier")
              : [];
        for (const t of targets) {
          const kind: SymbolKind =
            right?.type === "lambda" && targets.length === 1 ? "function" : CONSTANT_NAME.test(t.text) ? "constant" : "variable";
          define(t.text, kind, nodeLines(stmt), ctx.classes);
        }
        node = right;
      }
    }
  };

  const visitImport = (stmt: SyntaxNode, ctx: Context) => {
    const lines = nodeLines(stmt);
    const flags: EvidenceFlag[] | undefined = ctx.typeChecking ? ["type_checking"] : undefined;
    const push = (ref: ImportRef) => {
      if (flags) ref.flags = [...flags];
      imports.push(ref);
    };
    if (stmt.type === "import_statement") {
      for (const child of stmt.childrenForFieldName("name")) {
        if (child === null) continue;
        if (child.type === "aliased_import") {
          const name = child.childForFieldName("name")?.text;
          const alias = child.childForFieldName("alias")?.text;
          if (name) push({ specifier: name, ...(alias ? { alias } : {}), ...lines });
        } else {
          push({ specifier: child.text, ...lines });
        }
      }
      return;
    }
    let specifier: string;
    if (stmt.type === "future_import_statement") specifier = "__future__";
    else specifier = (stmt.childForFieldName("module_name")?.text ?? "").replace(/\s+/g, "");
    if (specifier === "") return;
    const names = stmt.childrenForFieldName("name").filter((n): n is SyntaxNode => n !== null);
    if (names.length === 0) {
      // `from X import *` (wildcard_import is not a field)
      push({ specifier, names: ["*"], ...lines });
      return;
    }
    for (const n of names) {
      if (n.type === "aliased_import") {
        const name = n.childForFieldName("name")?.text;
        const alias = n.childForFieldName("alias")?.text;
        if (name) push({ specifier, names: [name], ...(alias ? { alias } : {}), ...lines });
      } else {
        push({ specifier, names: [n.text], ...lines });
      }
    }
  };

  const visit = (node: SyntaxNode, ctx: Context, rangeNode: SyntaxNode = node): void => {
    if (ctx.depth > MAX_DEPTH) return;
    switch (node.type) {
      case "import_statement":
      case "import_from_statement":
      case "future_import_statement":
        visitImport(node, ctx);
        return;
      case "function_definition":
      case "class_definition":
        visitDefinition(node, rangeNode, ctx);
        return;
      case "decorated_definition": {
        const def = node.childForFieldName("definition");
        if (def) visit(def, ctx, node);
        return;
      }
      case "expression_statement":
        visitAssignment(node, ctx);
        return;
      case "type_alias_statement": {
        const left = node.childForFieldName("left");
        const name = left?.type === "type" ? (left.firstNamedChild?.text ?? left.text) : left?.text;
        if (name && !ctx.inFunction && ctx.classes.length === 0) define(name, "type", nodeLines(node), []);
        return;
      }
      case "if_statement": {
        const condition = node.childForFieldName("condition");
        const consequence = node.childForFieldName("consequence");
        const tc = isTypeCheckingCondition(condition);
        for (const child of namedChildren(node)) {
          if (consequence !== null && child.id === consequence.id) {
            visitBlock(child, { ...ctx, typeChecking: ctx.typeChecking || tc, depth: ctx.depth + 1 });
          } else if (child.type === "elif_clause" || child.type === "else_clause") {
            visit(child, ctx);
          }
        }
        return;
      }
      default:
        if (COMPOUND.has(node.type)) visitBlock(node, { ...ctx, depth: ctx.depth + 1 });
    }
  };

  const visitBlock = (block: SyntaxNode, ctx: Context) => {
    for (const child of namedChildren(block)) visit(child, ctx);
  };

  visitBlock(root, { classes: [], inFunction: false, typeChecking: false, depth: 0 });
  if (source.includes("import_module") || source.includes("__import__")) collectDynamicImports(root, imports);
  imports.sort((a, b) => a.start_line - b.start_line || a.end_line - b.end_line);
  return { symbols, imports };
}

const DYNAMIC_QUERY = `(call function: [(identifier) (attribute)] @fn arguments: (argument_list) @args) @call`;

/** The value of a plain (non-f, non-bytes) string literal without escapes, else `undefined`. */
function stringValue(node: SyntaxNode): string | undefined {
  if (node.type !== "string") return undefined;
  let value = "";
  for (const child of namedChildren(node)) {
    if (child.type === "string_start") {
      if (/[fFbBtT]/.test(child.text)) return undefined;
    } else if (child.type === "string_content") {
      if (child.text.includes("\\")) return undefined;
      value += child.text;
    } else if (child.type !== "string_end") {
      return undefined; // interpolation, escape sequence
    }
  }
  return value;
}

/** `importlib.import_module(...)`, `import_module(...)`, `__import__(...)` calls anywhere in the file. */
function collectDynamicImports(root: SyntaxNode, imports: ImportRef[]): void {
  const query = compiledQuery(root.tree.language, DYNAMIC_QUERY);
  for (const match of query.matches(root)) {
    const fn = match.captures.find((c) => c.name === "fn")?.node;
    const args = match.captures.find((c) => c.name === "args")?.node;
    const call = match.captures.find((c) => c.name === "call")?.node;
    if (!fn || !args || !call) continue;
    const fname = fn.type === "identifier" ? fn.text : (fn.childForFieldName("attribute")?.text ?? "");
    if (fname !== "import_module" && fname !== "__import__") continue;
    if (fn.type === "attribute" && fname === "__import__") continue;
    const positional = namedChildren(args).filter((n) => n.type !== "keyword_argument" && n.type !== "comment");
    const keyword = (key: string) =>
      namedChildren(args).find((n) => n.type === "keyword_argument" && n.childForFieldName("name")?.text === key)?.childForFieldName("value") ??
      undefined;
    const first = positional[0] ?? keyword("name");
    if (!first) continue;
    const lines = callStatementLines(call);
    const literal = stringValue(first);
    if (literal === undefined || (!isDottedName(literal.replace(/^\.+/, "")) && !/^\.+$/.test(literal))) {
      imports.push({ specifier: shortText(first), ...lines, flags: ["dynamic", "unresolved"] });
      continue;
    }
    let specifier = literal;
    if (literal.startsWith(".") && fname === "import_module") {
      // `import_module(".x", "pkg.sub")`: a literal package makes the name absolute (importlib.util.resolve_name).
      const pkgNode = positional[1] ?? keyword("package");
      const pkg = pkgNode ? stringValue(pkgNode) : undefined;
      if (pkg !== undefined && isDottedName(pkg)) specifier = resolveRelativeName(literal, pkg) ?? literal;
    }
    imports.push({ specifier, ...lines, flags: ["dynamic"] });
  }
}

/** Walks `levels` folders up from `dir`; `undefined` above the root. */
function upDirs(dir: string, levels: number): string | undefined {
  let d = dir;
  for (let i = 0; i < levels; i++) {
    if (d === "") return undefined;
    d = parentDir(d);
  }
  return d;
}

/** Resolves one Python import of `fromFile` (see the module comment for the rules). */
export async function resolvePython(ref: ImportRef, fromFile: string, project: ProjectView): Promise<Resolution> {
  const layout = pythonLayout(project);
  const spec = ref.specifier;
  if (ref.flags?.includes("unresolved")) return { files: [], module: spec, external: false, unresolved: true };
  const level = spec.length - spec.replace(/^\.+/, "").length;
  const rest = spec.slice(level);
  const restParts = rest === "" ? [] : rest.split(".");
  const name = ref.names?.length === 1 ? ref.names[0] : undefined;
  const unresolved = (module: string): Resolution => ({ files: [], module, external: false, unresolved: true });

  let baseName: string[];
  let start: FoundModule | undefined;
  let found: FoundModule[];
  if (level > 0) {
    const pkg = layout.packageOf(fromFile);
    const absolute = pkg === undefined || pkg === "" ? undefined : resolveRelativeName(spec, pkg);
    const baseDir = upDirs(parentDir(fromFile), level - 1);
    if (absolute === undefined || baseDir === undefined) return unresolved(spec);
    baseName = (pkg as string).split(".").slice(0, (pkg as string).split(".").length - (level - 1));
    start = layout.packageAt(baseDir);
    found = restParts.length > 0 ? layout.findChain(restParts, start.dirs).found : [];
  } else {
    baseName = [];
    found = layout.findChain(restParts, layout.searchPath(fromFile)).found;
  }

  const fullParts = [...baseName, ...restParts];
  const nameOf = (n: number) => [...baseName, ...restParts.slice(0, n)].join(".");
  const hit = (m: FoundModule, module: string): Resolution => ({ files: m.file ? [m.file] : [], module, external: false });
  // The module named by the specifier itself (`X` of `from X import y`; `a.b` of `import a.b`).
  const complete = found.length === restParts.length;
  const target: FoundModule | undefined = restParts.length === 0 ? start : complete ? found[found.length - 1] : undefined;

  if (name !== undefined) {
    // `from X import y`; an alias (`y as z`) names the module only when the import leads to `X.y`.
    const member = (r: Resolution): Resolution => (ref.alias !== undefined ? { ...r, memberAlias: true } : r);
    if (target === undefined) {
      if (level === 0 && found.length === 0) return member({ files: [], module: rest, external: true });
      return member(unresolved(fullParts.join(".")));
    }
    if (name !== "*" && target.kind !== "module") {
      const sub = layout.findIn(target.dirs, name);
      if (sub !== undefined) return hit(sub, [...fullParts, name].join("."));
    }
    return member(hit(target, fullParts.join(".")));
  }
  // `import a.b`, dynamic imports
  if (target !== undefined) return hit(target, fullParts.join("."));
  if (level === 0 && found.length === 0) return { files: [], module: rest, external: true };
  if (found.length === restParts.length - 1 && found.length > 0) {
    return hit(found[found.length - 1] as FoundModule, nameOf(found.length));
  }
  return unresolved(fullParts.join("."));
}

/**
 * `find_importers` matching for imports that left the tree: the written module equals the query,
 * or `from X import y` names `X.y`; with `includeSubmodules` also a module below the query
 * (`numpy` then matches `import numpy.linalg` and `from numpy.linalg import norm`).
 */
function matchesExternal(query: string, ref: ImportRef, res: Resolution, includeSubmodules: boolean): boolean {
  const syntax = { separators: ["."], members: false };
  if (matchesModulePath(query, res.module, syntax, includeSubmodules)) return true;
  const name = ref.names?.length === 1 ? ref.names[0] : undefined;
  return name !== undefined && name !== "*" && matchesModulePath(query, `${res.module}.${name}`, syntax, includeSubmodules);
}

/**
 * Regexes (Rust syntax, multi-line mode) for the lines that can name `word` in an import: a
 * statement that starts a line (or follows `;` or `:`) with `import`/`from` and names the word;
 * a continuation line of a parenthesised or backslash-continued `from … import` list (names,
 * `as` aliases, commas, a closing parenthesis, a comment); a string naming the word that ends a call
 * argument (`import_module("pkg.word")`, `__import__("word", …)`), or a line holding only such a
 * string (the argument of a call split over lines). Every form is built around the word itself,
 * so ripgrep searches for that literal first (a form led by `import_module` instead made the
 * search a fifth slower). A mention in a comment or inside other code does not make a file a
 * candidate.
 */
function importLinePatterns(word: string): string[] {
  const w = escapeRustRegex(word);
  const name = String.raw`[\w.]+(?:[ \t]+as[ \t]+\w+)?`;
  return [
    String.raw`(?m:(?:^|[;:])[ \t]*(?:from|import)[ \t][^\n]*\b${w}\b)`,
    String.raw`(?m:^[ \t]*(?:${name}[ \t]*,[ \t]*)*${w}(?:[ \t]+as[ \t]+\w+)?[ \t]*(?:,[ \t]*(?:${name}[ \t]*,?[ \t]*)*)?\)?[ \t]*\\?[ \t]*(?:#[^\n]*)?\r?$)`,
    String.raw`["'][^"'\n]*\b${w}\b[^"'\n]*["'][ \t]*[,)]`,
    String.raw`(?m:^[ \t]*[rbuRBU]?["'][^"'\n]*\b${w}\b[^"'\n]*["'][ \t]*,?[ \t]*\)?[ \t]*\r?$)`,
  ];
}

/**
 * Needles for the text prefilter: an importer names the module's stem (a package: its folder's
 * name) in an import statement ({@link importLinePatterns}), except `from . import x`, which
 * reaches a package without naming it.
 */
function importerHints(file: string): { literals: string[]; patterns?: string[] } {
  const base = file.slice(file.lastIndexOf("/") + 1);
  const stem = base.slice(0, base.lastIndexOf("."));
  if (stem === "__init__") {
    const dir = parentDir(file);
    return { literals: [], patterns: [...importLinePatterns(dir.slice(dir.lastIndexOf("/") + 1)), String.raw`from\s+\.+\s+import`] };
  }
  return { literals: [], patterns: importLinePatterns(stem) };
}

/** The Python language module. */
export const python: LanguageSpec = {
  id: "python",
  extensions: [".py", ".pyi"],
  wasm: "tree-sitter-python/tree-sitter-python.wasm",
  sample: "import os\n\ndef f(x):\n    return x\n",
  extract: extractPython,
  // The same imports as `extract`, read from the text (`python-imports.ts`): `find_importers` reads candidate files instead of parsing them.
  lexicalImports: pythonImports,
  resolve: resolvePython,
  moduleNames: async (file, project) => pythonLayout(project).moduleNames(file),
  pathImporterHints: importerHints,
  // An import of a module outside the tree names the module's last part in an import line
  // (`import numpy.linalg`, `from numpy import linalg`, `import_module("numpy.linalg")`), as an
  // import of a file names its stem.
  importerNameHints: (_query, word) => ({ literals: [], patterns: importLinePatterns(word) }),
  matchesExternal,
  references: {
    extract: extractPythonReferences,
    submodulePath: (module, member) => `${module}.${member}`,
    memberIsModule: (b, res) => b.member !== undefined && (res.module === b.member || res.module.endsWith(`.${b.member}`)),
  },
};
