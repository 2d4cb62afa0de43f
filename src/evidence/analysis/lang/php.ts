/**
 * PHP: definitions and import edges (tree-sitter-php 0.24 grammar, the `php` flavour that accepts
 * HTML around `<?php` tags).
 *
 * Definitions (at file level, in namespaces — `namespace X;` and `namespace X { … }` — in top-level
 * `if` blocks such as `if (!function_exists('f')) { function f() {} }`, and in type bodies):
 * - `class` → `class`, `interface` → `interface`, `trait` → `trait`, `enum` → `enum`;
 * - `function f` → `function`; methods → `method` with the type as container;
 * - `const X = …` (file level or in a type) and enum `case`s → `constant`; so is a `define('X', …)`
 *   statement (also `\define`; https://www.php.net/manual/en/function.define.php) where definitions
 *   are read (file level, namespaces, top-level `if` blocks), its name a plain string literal;
 * - Range: the whole declaration, attributes included.
 *
 * Imports:
 * - `use A\B\C;` (also `use A\B\C as D`, grouped `use A\{B, C as D}`): one {@link ImportRef} per
 *   imported name, `specifier` the fully qualified name without a leading `\`; `use function` and
 *   `use const` carry the flag `function` / `const`.
 * - `require`, `require_once`, `include`, `include_once` with a literal path: `'x.php'`,
 *   `__DIR__ . '/x.php'`, `dirname(__FILE__) . '/x.php'`, `dirname(__DIR__, n) . '/x.php'`; the
 *   path written (relative to the file's folder for the `__DIR__` forms) is the `specifier`, the
 *   flag `include` marks them. Any other argument carries `unresolved`.
 *
 * Resolution: a class name goes through the `autoload` and `autoload-dev` maps of every
 * `composer.json` of the tree (PSR-4, https://www.php-fig.org/psr/psr-4/: the longest matching
 * namespace prefix, the rest of the name as folders below the mapped folder; PSR-0,
 * https://www.php-fig.org/psr/psr-0/: the whole name as folders, `_` in the class name as `/`);
 * without a match, the files named `C.php` that declare `namespace A\B`. Functions and constants
 * (`use function`) are not autoloaded and stay external. A `__DIR__` path is relative to the file's
 * folder; a bare path (`'lib/x.php'`) is tried there, then at the root (PHP's include path usually
 * holds `.`). Anything else (vendor packages, PHP itself) is external, matched by its name. A file
 * is named by the fully qualified name of its class (`Slim\Routing\Route`).
 */
import { posix } from "node:path";
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, LanguageSpec, ProjectView, Resolution, SymbolDef } from "./language.js";
import { matchesModulePath } from "./external-match.js";
import { joinPath, memoize, parentDir } from "./project-files.js";
import { callStatementLines } from "./call-range.js";
import { PHP_REFERENCE_RULES } from "./php-references.js";
import { allChildren, namedChildren, nodeLines, visitNodes } from "./syntax.js";

/** Flag of a `require`/`include` import. */
const INCLUDE_FLAG = "include";

const TYPE_KINDS: Readonly<Record<string, SymbolKind>> = {
  class_declaration: "class",
  interface_declaration: "interface",
  trait_declaration: "trait",
  enum_declaration: "enum",
};
const INCLUDES = new Set(["require_expression", "require_once_expression", "include_expression", "include_once_expression"]);
const MAX_DEPTH = 64;

/** Extracts PHP definitions and imports from a `program` (rules in the module comment). */
function extract(root: SyntaxNode): FileFacts {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const push = (name: string | undefined, kind: SymbolKind, container: string | undefined, node: SyntaxNode): void => {
    if (name === undefined || name === "") return;
    const def: SymbolDef = { name, kind, ...nodeLines(node) };
    if (container !== undefined) def.container = container;
    symbols.push(def);
  };
  const walk = (parent: SyntaxNode, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const node of namedChildren(parent)) {
      const kind = TYPE_KINDS[node.type];
      if (kind !== undefined) {
        const name = node.childForFieldName("name")?.text;
        push(name, kind, undefined, node);
        const body = node.childForFieldName("body");
        if (body !== null && name !== undefined) members(body, name);
        continue;
      }
      switch (node.type) {
        case "function_definition":
          push(node.childForFieldName("name")?.text, "function", undefined, node);
          break;
        case "const_declaration":
          for (const e of namedChildren(node)) if (e.type === "const_element") push(namedChildren(e)[0]?.text, "constant", undefined, node);
          break;
        case "namespace_use_declaration":
          imports.push(...useRefs(node));
          break;
        case "namespace_definition": {
          const body = node.childForFieldName("body");
          if (body !== null) walk(body, depth + 1);
          break;
        }
        case "if_statement":
        case "compound_statement":
        case "else_clause":
        case "colon_block":
        case "ERROR":
          walk(node, depth + 1);
          break;
        case "expression_statement":
          push(definedConstant(node), "constant", undefined, node);
          break;
      }
    }
  };
  const members = (body: SyntaxNode, type: string): void => {
    for (const m of namedChildren(body)) {
      if (m.type === "method_declaration") push(m.childForFieldName("name")?.text, "method", type, m);
      else if (m.type === "const_declaration") {
        for (const e of namedChildren(m)) if (e.type === "const_element") push(namedChildren(e)[0]?.text, "constant", type, m);
      } else if (m.type === "enum_case") push(m.childForFieldName("name")?.text, "constant", type, m);
    }
  };
  walk(root, 0);
  imports.push(...includes(root));
  imports.sort((a, b) => a.start_line - b.start_line);
  return { symbols, imports };
}

/**
 * The constant a `define('NAME', …)` statement defines (also `\define`, a double-quoted name without
 * interpolation); a name with a namespace (`'A\\B'`) gives its last part. Else undefined.
 */
function definedConstant(statement: SyntaxNode): string | undefined {
  const call = namedChildren(statement)[0];
  if (call?.type !== "function_call_expression") return undefined;
  const fn = call.childForFieldName("function");
  if (fn === null || (fn.type !== "name" && fn.type !== "qualified_name") || fn.text.replace(/^\\/, "").toLowerCase() !== "define") return undefined;
  const literal = namedChildren(namedChildren(call.childForFieldName("arguments") ?? call)[0] ?? call)[0];
  if (literal === undefined || (literal.type !== "string" && literal.type !== "encapsed_string")) return undefined;
  // No interpolation: only text and escapes (`\\` between namespace parts).
  if (namedChildren(literal).some((c) => c.type !== "string_content" && c.type !== "escape_sequence")) return undefined;
  return literal.text.slice(1, -1).replace(/\\\\/g, "\\").split("\\").pop();
}

/** The names a `use` declaration imports, one ref each. */
function useRefs(decl: SyntaxNode): ImportRef[] {
  const lines = nodeLines(decl);
  const kindOf = (n: SyntaxNode): string | undefined => {
    const t = n.childForFieldName("type") ?? allChildren(n).find((c) => c.type === "function" || c.type === "const");
    return t?.text;
  };
  const declKind = kindOf(decl);
  const group = decl.childForFieldName("body");
  const prefix = group === null ? "" : (namedChildren(decl).find((c) => c.type === "namespace_name")?.text ?? "");
  const clauses = namedChildren(group ?? decl).filter((c) => c.type === "namespace_use_clause");
  const out: ImportRef[] = [];
  for (const clause of clauses) {
    const alias = clause.childForFieldName("alias");
    const nameNode = namedChildren(clause).find((c) => (c.type === "qualified_name" || c.type === "name" || c.type === "namespace_name") && c.id !== alias?.id);
    if (nameNode === undefined) continue;
    const name = (prefix === "" ? nameNode.text : `${prefix}\\${nameNode.text}`).replace(/\s+/g, "").replace(/^\\+/, "");
    const ref: ImportRef = { specifier: name, ...lines };
    const kind = kindOf(clause) ?? declKind;
    if (kind === "function" || kind === "const") ref.flags = [kind];
    if (alias !== null) ref.alias = alias.text;
    out.push(ref);
  }
  return out;
}

/** The literal text of a PHP string node without interpolation, else `undefined`. */
function literal(node: SyntaxNode): string | undefined {
  if (node.type !== "string" && node.type !== "encapsed_string") return undefined;
  const parts = namedChildren(node);
  if (parts.some((p) => p.type !== "string_content" && p.type !== "string_value" && p.type !== "escape_sequence")) return undefined;
  return parts.map((p) => p.text).join("");
}

/** `__DIR__` → 0, `dirname(__FILE__)` → 0, `dirname(__DIR__)` → 1, `dirname(__DIR__, 2)` → 2; else `undefined`. */
function dirLevels(node: SyntaxNode): number | undefined {
  if (node.type === "name" && node.text === "__DIR__") return 0;
  if (node.type !== "function_call_expression" || node.childForFieldName("function")?.text !== "dirname") return undefined;
  const args = namedChildren(node.childForFieldName("arguments") ?? node).map((a) => namedChildren(a)[0] ?? a);
  const inner = args[0];
  if (inner === undefined) return undefined;
  const extra = args[1] === undefined ? 1 : Number(args[1].text);
  if (!Number.isInteger(extra) || extra < 1) return undefined;
  if (inner.type === "name" && inner.text === "__FILE__") return extra - 1;
  const below = dirLevels(inner);
  return below === undefined ? undefined : below + extra;
}

/** The path a `require`/`include` argument names: `{path, relative}` or `undefined` when not literal. */
function includePath(arg: SyntaxNode): { path: string; relative: boolean } | undefined {
  const plain = literal(arg);
  if (plain !== undefined) return { path: plain, relative: false };
  if (arg.type === "parenthesized_expression") {
    const inner = namedChildren(arg)[0];
    return inner === undefined ? undefined : includePath(inner);
  }
  if (arg.type !== "binary_expression" || arg.childForFieldName("operator")?.text !== ".") return undefined;
  const left = arg.childForFieldName("left");
  const right = arg.childForFieldName("right");
  if (left === null || right === null) return undefined;
  const levels = dirLevels(left);
  const rest = literal(right);
  if (levels === undefined || rest === undefined) return undefined;
  return { path: posix.normalize(`${"../".repeat(levels)}${rest.replace(/^\/+/, "")}`), relative: true };
}

/** Every `require`/`include` of the file (anywhere), in order. */
function includes(root: SyntaxNode): ImportRef[] {
  const out: ImportRef[] = [];
  visitNodes(root, (cursor) => {
    const node = cursor.currentNode;
    if (!INCLUDES.has(node.type)) return true;
    const arg = namedChildren(node)[0];
    if (arg !== undefined) {
      const p = includePath(arg);
      const ref: ImportRef = { specifier: p?.path ?? (arg.text.split("\n")[0] ?? ""), ...callStatementLines(node) };
      ref.flags = p === undefined ? [INCLUDE_FLAG, "unresolved"] : [INCLUDE_FLAG];
      if (p?.relative === true) ref.filePath = p.path;
      out.push(ref);
    }
    return false;
  });
  return out;
}

/** One autoload rule: a namespace prefix (with its trailing `\`, or `''`) and a folder. */
interface AutoloadRule {
  prefix: string;
  dir: string;
  psr0: boolean;
}

type AutoloadMap = Record<string, string | string[]>;

/** The PSR-4 and PSR-0 rules of every `composer.json` of the tree, longest prefix first (once per view). */
function autoloadRules(project: ProjectView): Promise<AutoloadRule[]> {
  return memoize(project, "php:autoload", async () => {
    const rules: AutoloadRule[] = [];
    for (const f of project.files) {
      if (f !== "composer.json" && !f.endsWith("/composer.json")) continue;
      let json: { autoload?: Record<string, unknown>; "autoload-dev"?: Record<string, unknown> };
      try {
        json = JSON.parse((await project.readText(f)) ?? "null") as typeof json;
      } catch {
        continue;
      }
      if (json === null || typeof json !== "object") continue;
      const home = parentDir(f);
      for (const section of [json.autoload, json["autoload-dev"]]) {
        for (const [key, psr0] of [["psr-4", false], ["psr-0", true]] as const) {
          const map = section?.[key];
          if (map === null || typeof map !== "object") continue;
          for (const [prefix, target] of Object.entries(map as AutoloadMap)) {
            for (const d of Array.isArray(target) ? target : [target]) {
              if (typeof d !== "string") continue;
              const dir = joinPath(home, d);
              if (dir !== undefined) rules.push({ prefix: prefix.replace(/^\\+/, ""), dir, psr0 });
            }
          }
        }
      }
    }
    return rules.sort((a, b) => b.prefix.length - a.prefix.length);
  });
}

/** The namespace a PHP file declares (first `namespace` statement), `''` for none. */
function declaredNamespace(project: ProjectView, file: string): Promise<string | undefined> {
  return memoize(project, `php:namespace:${file}`, async () => {
    const text = await project.readText(file);
    if (text === undefined) return undefined;
    const code = text.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, " ").replace(/(^|[^:])\/\/[^\n]*/g, "$1 ");
    return /^[ \t]*namespace\s+([\w\\]+)\s*[;{]/m.exec(code)?.[1]?.replace(/^\\+/, "") ?? "";
  });
}

/** `.php` files by base name (once per view). */
function phpFilesByName(project: ProjectView): Map<string, string[]> {
  return memoize(project, "php:by-name", () => {
    const map = new Map<string, string[]>();
    for (const f of project.files) {
      if (!f.endsWith(".php")) continue;
      const base = f.slice(f.lastIndexOf("/") + 1);
      map.set(base, [...(map.get(base) ?? []), f]);
    }
    return map;
  });
}

/** The files of class `name` (rules in the module comment). */
async function classFiles(project: ProjectView, name: string): Promise<string[]> {
  for (const rule of await autoloadRules(project)) {
    if (!name.startsWith(rule.prefix)) continue;
    let rel: string;
    if (rule.psr0) {
      const cut = name.lastIndexOf("\\");
      rel = `${name.slice(0, cut + 1).replace(/\\/g, "/")}${name.slice(cut + 1).replace(/_/g, "/")}.php`;
    } else {
      rel = `${name.slice(rule.prefix.length).replace(/\\/g, "/")}.php`;
    }
    const p = joinPath(rule.dir, rel);
    if (p !== undefined && project.has(p)) return [p];
  }
  const cut = name.lastIndexOf("\\");
  const ns = cut < 0 ? "" : name.slice(0, cut);
  const out: string[] = [];
  for (const f of phpFilesByName(project).get(`${name.slice(cut + 1)}.php`) ?? []) {
    if ((await declaredNamespace(project, f)) === ns) out.push(f);
  }
  return out.sort();
}

/** Resolves one import (rules in the module comment). Never throws. */
async function resolve(ref: ImportRef, fromFile: string, project: ProjectView): Promise<Resolution> {
  const flags = ref.flags ?? [];
  if (flags.includes("unresolved")) return { files: [], module: ref.specifier, external: true, unresolved: true };
  if (flags.includes(INCLUDE_FLAG)) {
    const here = parentDir(fromFile);
    const tries = ref.filePath !== undefined ? [joinPath(here, ref.filePath)] : ref.specifier.startsWith("/") ? [] : [joinPath(here, ref.specifier), joinPath(ref.specifier)];
    for (const p of tries) if (p !== undefined && p !== "" && project.has(p)) return { files: [p], module: p, external: false };
    return { files: [], module: ref.specifier, external: true, unresolved: ref.filePath !== undefined };
  }
  if (flags.includes("function") || flags.includes("const")) return { files: [], module: ref.specifier, external: true };
  const files = await classFiles(project, ref.specifier);
  return files.length > 0 ? { files, module: ref.specifier, external: false } : { files: [], module: ref.specifier, external: true };
}

/** The `.php` files that declare the same namespace as `file` (its classes and functions need no `use` there). */
async function sameNamespaceFiles(file: string, project: ProjectView): Promise<readonly string[]> {
  const ns = await declaredNamespace(project, file);
  if (ns === undefined) return [];
  const index = await memoize(project, "php:namespace-files", async () => {
    const map = new Map<string, string[]>();
    for (const f of project.files) {
      if (!f.endsWith(".php")) continue;
      const n = await declaredNamespace(project, f);
      if (n === undefined) continue;
      const list = map.get(n);
      if (list === undefined) map.set(n, [f]);
      else list.push(f);
    }
    return map;
  });
  return index.get(ns) ?? [];
}

/** A `.php` file's name: its namespace plus its base name (`Slim\Routing\Route`). */
async function moduleNames(file: string, project: ProjectView): Promise<string[]> {
  if (!file.endsWith(".php")) return [];
  const ns = await declaredNamespace(project, file);
  if (ns === undefined) return [];
  const stem = file.slice(file.lastIndexOf("/") + 1, -".php".length);
  return [ns === "" ? stem : `${ns}\\${stem}`];
}

/**
 * External matching: the name itself or a class of that namespace (`Psr\Http\Message` matches
 * `use Psr\Http\Message\ResponseInterface`); with `includeSubmodules` any name below it.
 */
function matchesExternal(query: string, _ref: ImportRef, res: Resolution, includeSubmodules: boolean): boolean {
  const q = query.replace(/\\+/g, "\\").replace(/^\\/, "");
  return matchesModulePath(q, res.module, { separators: ["\\"], members: true }, includeSubmodules);
}

/** The PHP language module. */
export const php: LanguageSpec = {
  id: "php",
  extensions: [".php"],
  wasm: "tree-sitter-php/tree-sitter-php.wasm",
  sample: "<?php\nnamespace A;\n\nuse B\\C;\n\nclass D\n{\n    public function m(): int { return 1; }\n}\n",
  extract: (root) => extract(root),
  resolve,
  moduleNames,
  matchesExternal,
  references: { ...PHP_REFERENCE_RULES, sharedScope: sameNamespaceFiles },
};
