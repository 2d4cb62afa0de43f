/**
 * Definitions and import statements of JavaScript, TypeScript and TSX files — one extractor for
 * the three grammars (tree-sitter-javascript 0.25, tree-sitter-typescript 0.23 `typescript` and
 * `tsx`), whose node shapes agree (each grammar's `src/node-types.json`). Patterns for node types a grammar
 * lacks (`interface_declaration` in JavaScript) are dropped when the query is built.
 *
 * **Definitions**: `function`/`function*` declarations and TS overload signatures (`function`),
 * classes (`class`), methods, their overload signatures (`m(a: string): void;` in a class body, also
 * in a `.d.ts` `declare class`) and class fields holding a function (`method`, container = class;
 * interface members are not definitions),
 * other class fields (`variable`, container = class),
 * interfaces, type aliases, enums, namespaces and `declare module` blocks (`module`), module-level
 * and namespace-level `const` (`constant`) and `let`/`var` (`variable`) — a declarator whose value
 * is a function or class takes that kind — and CommonJS `exports.f = function …` (`function`),
 * `C.prototype.m = function …` (`method` of `C`, also when assigned inside a function body, as an
 * IIFE-wrapped library does; `exports.f = …` only at the top level). Function declarations nested in functions are
 * reported; local variables are not. Members of a namespace have it as container. The range of a
 * definition spans its `export`/`declare` keyword and decorators.
 *
 * **Imports** (one {@link ImportRef} per statement or call; dependency-cruiser's list):
 * `import … from "x"`, `import "x"`, `export … from "x"`, TS `import x = require("x")`,
 * `require("x")`, `import("x")` (flagged `dynamic`), each with a string literal or a template
 * literal without substitutions. `import type …`, `export type … from`, a statement whose named
 * specifiers are all marked `type` (`import { type A, type B } from …`; `import { type A, b }` is
 * not) and `import("x")` in a type position are flagged `type_only`, as is a module augmentation —
 * `declare module "x" { … }` at the top level of a file that has imports or exports (its first line is the range). A non-literal argument (`import(\`./${x}\`)`, `require(name)`)
 * gives a ref flagged `unresolved` (and `dynamic` for `import()`) whose specifier is the argument's
 * text; it is never dropped. The range is the whole statement (for a call: see `call-range.ts`).
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { EvidenceFlag, SymbolKind } from "../../evidence.js";
import type { FileFacts, ImportRef, SymbolDef } from "./language.js";
import { callStatementLines, shortText } from "./call-range.js";
import { compiledPatterns } from "./query-cache.js";
import { namedChildren, nodeLines, type LineRange } from "./syntax.js";

/** Query patterns; each is kept only when it compiles for the grammar at hand. */
const PATTERNS: readonly string[] = [
  `(import_statement) @import`,
  `(export_statement source: (_)) @export`,
  `(call_expression function: (import) arguments: (arguments) @args) @dynamic`,
  `(call_expression function: (identifier) @fn arguments: (arguments) @args (#eq? @fn "require")) @require`,
  `(function_declaration name: (_) @name) @function`,
  `(generator_function_declaration name: (_) @name) @function`,
  `(function_signature name: (_) @name) @function`,
  `(class_declaration name: (_) @name) @class`,
  `(abstract_class_declaration name: (_) @name) @class`,
  `(method_definition name: (_) @name) @method`,
  `(abstract_method_signature name: (_) @name) @method`,
  `(method_signature name: (_) @name) @method`,
  `(public_field_definition name: (_) @name) @field`,
  `(field_definition property: (_) @name) @field`,
  `(interface_declaration name: (_) @name) @interface`,
  `(type_alias_declaration name: (_) @name) @type`,
  `(enum_declaration name: (_) @name) @enum`,
  `(internal_module name: (_) @name) @module`,
  `(module name: (_) @name) @module`,
  `(lexical_declaration) @declaration`,
  `(variable_declaration) @declaration`,
  `(expression_statement (assignment_expression left: (member_expression) @left right: [(function_expression) (arrow_function) (class)])) @assign`,
];

const CLASS_TYPES = new Set(["class_declaration", "abstract_class_declaration", "class"]);
const NAMESPACE_TYPES = new Set(["internal_module", "module"]);
const FUNCTION_TYPES = new Set([
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "generator_function",
  "arrow_function",
  "method_definition",
]);
const WRAPPERS = new Set(["export_statement", "ambient_declaration"]);
/** Ancestors that put an `import("x")` call in a type position. */
const TYPE_CONTEXT = /(^type_|_type$|^type$|type_annotation|type_arguments|interface_declaration|_signature$|type_query)/;

/** The value of a string literal or a substitution-free template literal; `undefined` otherwise. */
export function literalValue(node: SyntaxNode): string | undefined {
  if (node.type !== "string" && node.type !== "template_string") return undefined;
  let out = "";
  for (const child of namedChildren(node)) {
    if (child.type === "string_fragment") out += child.text;
    else if (child.type === "escape_sequence") out += decodeEscape(child.text);
    else if (child.type === "html_character_reference") out += child.text;
    else return undefined; // template_substitution
  }
  return out;
}

/** Decodes one JavaScript escape sequence (`\n`, `\x41`, `\u0041`, `\u{1F600}`, `\'`). */
function decodeEscape(seq: string): string {
  const body = seq.slice(1);
  const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" };
  if (body in simple) return simple[body] as string;
  const hex = /^(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]+)\})$/.exec(body);
  if (hex) {
    const cp = Number.parseInt((hex[1] ?? hex[2] ?? hex[3]) as string, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
  }
  return body.startsWith("\n") || body.startsWith("\r") ? "" : body;
}

/** The name of a class node, or of the variable a class expression is assigned to. */
function className(node: SyntaxNode): string | undefined {
  const own = node.childForFieldName("name")?.text;
  if (own) return own;
  const parent = node.parent;
  if (parent?.type === "variable_declarator") return parent.childForFieldName("name")?.text;
  return undefined;
}

function namespaceName(node: SyntaxNode): string | undefined {
  const name = node.childForFieldName("name");
  if (!name) return undefined;
  return name.type === "string" ? (literalValue(name) ?? name.text) : name.text;
}

/**
 * Enclosing classes and namespaces of a definition, outermost first, and whether it is local to a
 * function (a function body is met before any class or namespace). Walks at most 200 ancestors.
 */
function scopeOf(node: SyntaxNode): { chain: string[]; local: boolean } {
  const chain: string[] = [];
  let p = node.parent;
  for (let depth = 0; p !== null && depth < 200; depth++, p = p.parent) {
    if (CLASS_TYPES.has(p.type)) {
      const n = className(p);
      if (n) chain.unshift(n);
    } else if (NAMESPACE_TYPES.has(p.type)) {
      const n = namespaceName(p);
      if (n) chain.unshift(n);
    } else if (FUNCTION_TYPES.has(p.type)) {
      return { chain, local: chain.length === 0 };
    }
  }
  return { chain, local: false };
}

/** The node whose lines a definition reports: the declaration plus its `export`/`declare` wrappers. */
function outerNode(node: SyntaxNode): SyntaxNode {
  let n = node;
  while (n.parent !== null && WRAPPERS.has(n.parent.type)) n = n.parent;
  return n;
}

/** True when a declaration sits at module or namespace level (not in a function or block). */
function isTopLevelDeclaration(decl: SyntaxNode): boolean {
  let p = decl.parent;
  while (p !== null && WRAPPERS.has(p.type)) p = p.parent;
  if (p === null) return false;
  if (p.type === "program") return true;
  return p.type === "statement_block" && p.parent !== null && NAMESPACE_TYPES.has(p.parent.type);
}

function declaratorKind(decl: SyntaxNode, value: SyntaxNode | null): SymbolKind {
  if (value !== null) {
    if (value.type === "arrow_function" || value.type === "function_expression" || value.type === "generator_function") return "function";
    if (value.type === "class") return "class";
  }
  return decl.type === "lexical_declaration" && decl.childForFieldName("kind")?.text === "const" ? "constant" : "variable";
}

function hasAnonymousChild(node: SyntaxNode, text: string): boolean {
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (c !== null && !c.isNamed && c.type === text) return true;
  }
  return false;
}

/** Imported names of an `import` clause or `export … from` clause (`default`, `*`, named). */
function importedNames(stmt: SyntaxNode): { names: string[]; alias?: string } {
  const names: string[] = [];
  let alias: string | undefined;
  for (const child of namedChildren(stmt)) {
    if (child.type === "import_clause") {
      for (const part of namedChildren(child)) {
        if (part.type === "identifier") names.push("default");
        else if (part.type === "namespace_import") {
          names.push("*");
          alias = namedChildren(part).find((n) => n.type === "identifier")?.text;
        } else if (part.type === "named_imports") {
          for (const s of namedChildren(part)) if (s.type === "import_specifier") names.push(s.childForFieldName("name")?.text ?? s.text);
        }
      }
    } else if (child.type === "export_clause") {
      for (const s of namedChildren(child)) if (s.type === "export_specifier") names.push(s.childForFieldName("name")?.text ?? s.text);
    } else if (child.type === "namespace_export") {
      names.push("*");
      alias = namedChildren(child).find((n) => n.type === "identifier" || n.type === "string")?.text;
    } else if (child.type === "import_require_clause") {
      names.push("default");
      alias = namedChildren(child).find((n) => n.type === "identifier")?.text;
    }
  }
  if (stmt.type === "export_statement" && names.length === 0) names.push("*");
  return alias === undefined ? { names } : { names, alias };
}

/**
 * `import { type A, type B } from …` / `export { type A } from …`: the statement binds named
 * specifiers only and every one is marked `type`, so it imports types only, like `import type`
 * (TypeScript handbook, "type modifiers on import names"). A default or namespace binding, or one
 * specifier without `type`, makes it a value import.
 */
function allSpecifiersTypeOnly(stmt: SyntaxNode): boolean {
  const specifiers: SyntaxNode[] = [];
  for (const child of namedChildren(stmt)) {
    if (child.type === "import_clause") {
      for (const part of namedChildren(child)) {
        if (part.type !== "named_imports") return false;
        specifiers.push(...namedChildren(part).filter((s) => s.type === "import_specifier"));
      }
    } else if (child.type === "export_clause") {
      specifiers.push(...namedChildren(child).filter((s) => s.type === "export_specifier"));
    } else if (child.type === "namespace_export" || child.type === "import_require_clause") {
      return false;
    }
  }
  return specifiers.length > 0 && specifiers.every((s) => hasAnonymousChild(s, "type"));
}

function inTypePosition(call: SyntaxNode): boolean {
  let p = call.parent;
  for (let depth = 0; p !== null && depth < 50; depth++, p = p.parent) {
    if (TYPE_CONTEXT.test(p.type)) return true;
    if (p.type.endsWith("_statement") || p.type === "program" || p.type === "statement_block") return false;
  }
  return false;
}

/** Extracts definitions and imports from a JavaScript, TypeScript or TSX `program` tree. */
export function extractJsFamily(root: SyntaxNode): FileFacts {
  const symbols: SymbolDef[] = [];
  const imports: ImportRef[] = [];
  const seenDefs = new Set<string>();
  const augmentations: { node: SyntaxNode; name: string }[] = [];

  const define = (name: string, kind: SymbolKind, lines: LineRange, chain: readonly string[]) => {
    const key = `${chain.join(".")}|${name}|${kind}|${lines.start_line}|${lines.end_line}`;
    if (seenDefs.has(key)) return;
    seenDefs.add(key);
    const def: SymbolDef = { name, kind, ...lines };
    if (chain.length > 0) def.container = chain.join(".");
    symbols.push(def);
  };

  const query = compiledPatterns(root.tree.language, PATTERNS);
  for (const match of query.matches(root)) {
    const main = match.captures.find((c) => c.name !== "name" && c.name !== "args" && c.name !== "fn" && c.name !== "left");
    if (!main) continue;
    const node = main.node;
    const nameNode = match.captures.find((c) => c.name === "name")?.node;
    switch (main.name) {
      case "import":
      case "export": {
        const source =
          node.childForFieldName("source") ??
          namedChildren(node)
            .find((n) => n.type === "import_require_clause")
            ?.childForFieldName("source") ??
          null;
        if (source === null) break;
        const lines = nodeLines(node);
        const { names, alias } = importedNames(node);
        const value = literalValue(source);
        const flags: EvidenceFlag[] = [];
        if (hasAnonymousChild(node, "type") || allSpecifiersTypeOnly(node)) flags.push("type_only");
        if (value === undefined) flags.push("unresolved");
        const ref: ImportRef = { specifier: value ?? shortText(source), names, ...lines };
        if (alias !== undefined) ref.alias = alias;
        if (flags.length > 0) ref.flags = flags;
        imports.push(ref);
        break;
      }
      case "dynamic":
      case "require": {
        const args = match.captures.find((c) => c.name === "args")?.node;
        const arg = args ? namedChildren(args).find((n) => n.type !== "comment") : undefined;
        if (!arg) break;
        const value = literalValue(arg);
        const flags: EvidenceFlag[] = main.name === "dynamic" ? ["dynamic"] : [];
        if (value === undefined) flags.push("unresolved");
        if (main.name === "dynamic" && inTypePosition(node)) flags.push("type_only");
        const ref: ImportRef = { specifier: value ?? shortText(arg), ...callStatementLines(node) };
        if (flags.length > 0) ref.flags = flags;
        imports.push(ref);
        break;
      }
      case "declaration": {
        if (!isTopLevelDeclaration(node)) break;
        const declarators = namedChildren(node).filter((n) => n.type === "variable_declarator");
        const { chain } = scopeOf(node);
        for (const d of declarators) {
          const name = d.childForFieldName("name");
          if (name?.type !== "identifier") continue;
          const lines = declarators.length === 1 ? nodeLines(outerNode(node)) : nodeLines(d);
          define(name.text, declaratorKind(node, d.childForFieldName("value")), lines, chain);
        }
        break;
      }
      case "assign": {
        const left = match.captures.find((c) => c.name === "left")?.node;
        const right = left?.parent?.childForFieldName("right");
        const prop = left?.childForFieldName("property")?.text;
        const object = left?.childForFieldName("object");
        if (!left || !prop || !object || !right) break;
        const kind: SymbolKind = right.type === "class" ? "class" : "function";
        if (object.text === "exports" || object.text === "module.exports") {
          if (node.parent?.type === "program") define(prop, kind, nodeLines(node), []);
        } else if (object.type === "member_expression" && object.childForFieldName("property")?.text === "prototype") {
          const owner = object.childForFieldName("object")?.text;
          if (owner && /^[\p{ID_Start}$_][\p{ID_Continue}$]*$/u.test(owner)) define(prop, "method", nodeLines(node), [owner]);
        }
        break;
      }
      default: {
        if (!nameNode) break;
        const value = main.name === "field" ? node.childForFieldName("value") : null;
        const kind: SymbolKind =
          main.name !== "field"
            ? (main.name as SymbolKind)
            : value !== null && (value.type === "arrow_function" || value.type === "function_expression")
              ? "method"
              : "variable";
        const { chain, local } = scopeOf(node);
        if (kind === "method" || main.name === "field") {
          const body = node.parent;
          if (body?.type !== "class_body") break; // object-literal methods are not definitions
        } else if (local && kind !== "function" && kind !== "class") {
          break;
        }
        const name = nameNode.type === "string" ? (literalValue(nameNode) ?? nameNode.text) : nameNode.text;
        define(name, kind, nodeLines(outerNode(node)), chain);
        if (node.type === "module" && nameNode.type === "string" && node.parent?.type === "ambient_declaration" && node.parent.parent?.type === "program") {
          augmentations.push({ node: node.parent, name });
        }
      }
    }
  }
  // Module augmentations: in a file with imports or exports, `declare module "x" { … }` at the top
  // level augments (and so depends on) module x — TypeScript's preProcessFile lists it as an import.
  if (augmentations.length > 0 && imports.some((r) => !r.flags?.includes("dynamic"))) {
    for (const { node, name } of augmentations) {
      const line = node.startPosition.row + 1;
      imports.push({ specifier: name, start_line: line, end_line: line, flags: ["type_only"] });
    }
  }
  symbols.sort((a, b) => a.start_line - b.start_line || a.end_line - b.end_line);
  imports.sort((a, b) => a.start_line - b.start_line || a.end_line - b.end_line);
  return { symbols, imports };
}
