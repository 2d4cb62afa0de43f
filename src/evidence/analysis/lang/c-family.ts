/**
 * Definitions of C and C++ sources (tree-sitter-c 0.24 and tree-sitter-cpp 0.23 grammars, which
 * share their node names for the C part), shared by `c.ts` and `cpp.ts`. Includes are in
 * `c-includes.ts`.
 *
 * The text parsed is the file's with annotation macros blanked (`c-annotations.ts`).
 *
 * Definitions (at file level, inside `namespace`, `extern "C"`, `template`, preprocessor
 * conditionals, class/struct/union bodies, and regions the parser could not make sense of — never
 * inside function bodies):
 * - A function definition → `function`; one inside a class body, or written out of line with a
 *   qualifier (`void A::m()`, `ns::A::m`) → `method` whose container is the enclosing namespaces and
 *   classes plus the qualifier (`ns.A`), so `A::m` and `ns::A::m` find it. Constructors, destructors
 *   (`~A`) and operators (`operator==`) are methods named so. A qualifier naming a namespace of the
 *   same file keeps `function`.
 * - A prototype (a function declaration without body, also a method declared in a class body,
 *   `= default` / `= delete` special members, and `EXPORT_MACRO(type) name(params);`, which the
 *   grammar cannot parse) →
 *   `function` or `method` marked {@link SymbolDef.declaration}: `find_symbol` shows it only when
 *   asked with `kind`.
 * - `struct`/`union` with a body → `struct`; `class` → `class` (also `class EXPORT_MACRO Name { … }`,
 *   which the grammar reads as a function: the name is kept, the members are lost); `enum` → `enum` and each enumerator
 *   → `constant` with the enum as container (an anonymous `enum : type { … }` has none); `typedef` → `type` per declared name; C++ `using X = …`
 *   → `type`; `namespace` → `module` (`namespace a::b` gives `b` with container `a`).
 * - `#define X` → `constant`, `#define F(x)` → `function` (function-like macro), also inside function
 *   bodies (macros have no scope).
 * - A data member declared in a named class/struct/union body (`int width;`, `static int made;`) → `variable` with the
 *   class as container, so `this->width`, `b.width` and `A::made` have a definition to name (the members of an unnamed
 *   `struct { … }` are left out).
 * - A variable declared at file or namespace scope (`int count = 0;`, `static const char *names[] = {…};`) → `variable`
 *   with the namespaces as container; `extern int count;` is a declaration only (marked as a prototype is). The
 *   out-of-line definition of a static data member (`int Box::made = 0;`, C++ standard [class.static.data]) →
 *   `variable` with the class as container, as its declaration in the class body is.
 * - A friend function defined in a class body → `function` with the class as container. Conversion operators
 *   (`operator bool()`) are not reported (no name a user can write). A C/C++ keyword (`noexcept`, `switch`, …) is never a
 *   function's name, whatever the grammar makes of the text around it.
 * - A function definition with a return type, or a template, that the grammar put directly inside a function body at
 *   the function's own indentation or less is read in the function's scope (C++ has no nested functions; a statement
 *   the grammar misread left the rest of the class in the body).
 * - Range: the whole definition; a `template <…>` prefix is included. A nested type has its enclosing
 *   namespaces and types as container.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { SymbolKind } from "../../evidence.js";
import type { SymbolDef } from "./language.js";
import { namedChildren, spanLines } from "./syntax.js";

/**
 * C and C++ keywords that can stand before `(` (https://en.cppreference.com/w/cpp/keyword): never a function's name,
 * however the grammar reads the text.
 */
const KEYWORDS = new Set([
  "alignas", "alignof", "catch", "co_await", "co_return", "co_yield", "decltype", "delete", "do", "else", "for", "if", "new",
  "noexcept", "requires", "return", "sizeof", "static_assert", "switch", "throw", "typeid", "while", "_Alignof", "_Static_assert",
  "_Generic",
]);

/** Deepest nesting of declarations walked (guards against pathological trees). */
const MAX_DEPTH = 200;

/** Nodes whose children are walked as declarations. */
const CONTAINERS = new Set([
  "translation_unit", "declaration_list", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
  "preproc_elifdef", "linkage_specification", "ERROR", "field_declaration_list", "export_declaration",
]);

const SPECIFIER_KINDS: Readonly<Record<string, SymbolKind>> = {
  struct_specifier: "struct",
  union_specifier: "struct",
  class_specifier: "class",
  enum_specifier: "enum",
};

/** Declarator wrappers around the function declarator or the declared name. */
const WRAPPERS = new Set([
  "pointer_declarator", "reference_declarator", "parenthesized_declarator", "attributed_declarator",
  "array_declarator", "init_declarator",
]);

interface Scope {
  /** Enclosing namespaces and types, outermost first. */
  names: string[];
  /** True inside a class/struct/union body. */
  inType: boolean;
  /** True inside the body of a class/struct/union without a name (its fields are named through the declarator or typedef, not listed). */
  unnamed?: boolean;
}

/** The function declarator inside a declarator (through pointers, references, parentheses), if any. */
function functionDeclarator(node: SyntaxNode | null): SyntaxNode | undefined {
  for (let n = node, depth = 0; n !== null && depth < 32; depth++) {
    if (n.type === "function_declarator") return n;
    if (!WRAPPERS.has(n.type)) return undefined;
    n = n.childForFieldName("declarator") ?? namedChildren(n).find((c) => c.type.endsWith("declarator")) ?? null;
  }
  return undefined;
}

/** The name a declarator declares (`*p`, `(*fp)(int)`, `a[3]` → `p`, `fp`, `a`). */
function declaredName(node: SyntaxNode | null): SyntaxNode | undefined {
  for (let n = node, depth = 0; n !== null && depth < 32; depth++) {
    if (n.type === "type_identifier" || n.type === "identifier" || n.type === "field_identifier" || n.type === "primitive_type") return n;
    const next: SyntaxNode | null = n.childForFieldName("declarator") ?? namedChildren(n).find((c) => c.type.endsWith("declarator") || c.type === "type_identifier") ?? null;
    n = next;
  }
  return undefined;
}

/**
 * True for the declaration of a static data member in its class body that is not its definition: `static int made;`
 * (C++ standard [class.static.data]: the declaration of a non-inline static data member in its class is not a
 * definition). `inline`/`constexpr` members, and those given a value in the class (`static const int k = 3;`, where a
 * reader looks for the value), count as definitions.
 */
function staticMemberDeclaration(node: SyntaxNode, declarator: SyntaxNode): boolean {
  const specifiers = namedChildren(node).filter((c) => c.type === "storage_class_specifier" || c.type === "type_qualifier").map((c) => c.text);
  if (!specifiers.includes("static") || specifiers.includes("inline") || specifiers.includes("constexpr")) return false;
  return declarator.type !== "init_declarator" && node.childForFieldName("default_value") === null;
}

/**
 * True when `node` sits in an `ERROR` after a `{` the grammar left open there: the body of a function it could not read
 * (libuv's `void uv__async_io(…) {` ⏎ `char buf[1024];`), whose declarations are locals.
 */
function insideLostBody(node: SyntaxNode): boolean {
  if (node.parent?.type !== "ERROR") return false;
  let open = 0;
  for (let s = node.previousSibling; s !== null; s = s.previousSibling) {
    if (s.type === "{") open++;
    else if (s.type === "}") open--;
  }
  return open > 0;
}

/** Name parts of a function declarator's name: qualifier scopes and the name (`ns::A::m` → `[ns, A]`, `m`). */
function functionName(decl: SyntaxNode): { scopes: string[]; name: string } | undefined {
  return nameParts(decl.childForFieldName("declarator"));
}

/** Name parts of a declarator's name node: qualifier scopes and the name (`ns::A::m` → `[ns, A]`, `m`). */
function nameParts(node: SyntaxNode | null): { scopes: string[]; name: string } | undefined {
  const scopes: string[] = [];
  let n: SyntaxNode | null = node;
  for (let depth = 0; n !== null && depth < 32; depth++) {
    switch (n.type) {
      case "identifier":
      case "field_identifier":
      case "type_identifier":
        // `noexcept(noexcept(…))` or `switch (x) {` after a statement the grammar lost reads as a function named so.
        return KEYWORDS.has(n.text) ? undefined : { scopes, name: n.text };
      case "destructor_name":
      case "operator_name":
        return { scopes, name: n.text.replace(/\s+/g, "") };
      case "template_function":
      case "template_method":
        n = n.childForFieldName("name");
        continue;
      case "qualified_identifier": {
        const scope = n.childForFieldName("scope");
        if (scope !== null) {
          const s = scope.type === "template_type" ? scope.childForFieldName("name")?.text : scope.text;
          if (s !== undefined && s !== "") scopes.push(...s.split("::").filter((x) => x !== ""));
        }
        n = n.childForFieldName("name");
        continue;
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

/** Collects C/C++ definitions from a `translation_unit` (rules in the module comment). */
export function cDefinitions(root: SyntaxNode): SymbolDef[] {
  const out: SymbolDef[] = [];
  // Namespaces of this file (a qualifier naming one leaves a function a function).
  const namespaces = new Set<string>();
  for (const n of namedChildren(root)) if (n.type === "namespace_definition") namespaces.add(n.childForFieldName("name")?.text ?? "");
  /** Container and kind of a function named `parts` declared in `scope`. */
  const placeFunction = (parts: { scopes: string[] }, scope: Scope): { container: string[]; kind: SymbolKind } => {
    const quals = parts.scopes;
    // `ns::A::m` written inside `namespace ns` qualifies from `ns`, not below it.
    const at = quals.length > 0 ? scope.names.lastIndexOf(quals[0] as string) : -1;
    const container = at >= 0 ? [...scope.names.slice(0, at), ...quals] : [...scope.names, ...quals];
    const last = quals[quals.length - 1];
    const kind = scope.inType || (last !== undefined && !namespaces.has(last)) ? "method" : "function";
    return { container, kind };
  };
  const push = (name: string | undefined, kind: SymbolKind, scope: readonly string[], node: SyntaxNode, first: SyntaxNode, declaration = false): void => {
    if (name === undefined || name === "") return;
    const def: SymbolDef = { name, kind, ...spanLines(first, node) };
    if (scope.length > 0) def.container = scope.join(".");
    if (declaration) def.declaration = true;
    out.push(def);
  };

  const specifier = (spec: SyntaxNode, scope: Scope, first: SyntaxNode, depth: number): void => {
    const kind = SPECIFIER_KINDS[spec.type];
    const body = spec.childForFieldName("body");
    const nameNode = spec.childForFieldName("name");
    if (kind === undefined || body === null) return;
    // `enum : ullong { … }` (anonymous, with an underlying type): the grammar reads `:` as an error and the type as the name.
    const anonymousWithBase = kind === "enum" && nameNode?.previousSibling?.type === "ERROR" && nameNode.previousSibling.text.trim() === ":";
    const name = anonymousWithBase ? undefined : nameNode?.type === "template_type" ? nameNode.childForFieldName("name")?.text : nameNode?.text.split("::").pop();
    if (name !== undefined) push(name, kind, scope.names, spec, first);
    const inner = name === undefined ? scope.names : [...scope.names, name];
    if (kind === "enum") {
      for (const e of namedChildren(body)) if (e.type === "enumerator") push(e.childForFieldName("name")?.text, "constant", inner, e, e);
      return;
    }
    walk(body, name === undefined ? { names: inner, inType: true, unnamed: true } : { names: inner, inType: true }, depth + 1);
  };

  const declaration = (node: SyntaxNode, scope: Scope, first: SyntaxNode, depth: number, extern = false): void => {
    const type = node.childForFieldName("type");
    if (type !== null && SPECIFIER_KINDS[type.type] !== undefined) specifier(type, scope, first, depth);
    if (node.type === "type_definition") {
      for (const d of node.childrenForFieldName("declarator")) push(declaredName(d)?.text, "type", scope.names, node, first);
      return;
    }
    for (const declarator of node.childrenForFieldName("declarator")) {
      let fn = functionDeclarator(declarator);
      let d = declarator;
      // `void (*on_close)(int);`: a pointer to a function is a variable (or data member) named inside the parentheses.
      const inner = fn?.childForFieldName("declarator");
      if (inner?.type === "parenthesized_declarator" && namedChildren(inner).some((c) => c.type === "pointer_declarator")) {
        d = inner;
        fn = undefined;
      }
      if (fn === undefined) {
        if (d === null) continue;
        if (node.type === "field_declaration" && scope.inType && scope.unnamed !== true) {
          const name = declaredName(d);
          if (name?.type === "field_identifier") push(name.text, "variable", scope.names, node, first, staticMemberDeclaration(node, d));
        } else if (node.type === "declaration" && !scope.inType) {
          variable(node, d, scope, first, extern);
        }
        continue;
      }
      const parts = functionName(fn);
      if (parts === undefined) continue;
      const { container, kind } = placeFunction(parts, scope);
      push(parts.name, kind, container, node, first, true);
    }
  };

  /**
   * A variable declared at file or namespace scope: `int count = 0;` (container: the namespaces), `extern int count;`
   * (a declaration only), and `int Box::made = 0;`, the out-of-line definition of a static data member (container: the
   * class, qualified from the enclosing namespaces as a method's is).
   */
  const variable = (node: SyntaxNode, declarator: SyntaxNode, scope: Scope, first: SyntaxNode, externLinkage: boolean): void => {
    let n: SyntaxNode | null = declarator;
    for (let depth = 0; n !== null && WRAPPERS.has(n.type) && depth < 32; depth++) {
      n = n.childForFieldName("declarator") ?? namedChildren(n).find((c) => c.type.endsWith("declarator") || c.type === "identifier" || c.type === "qualified_identifier") ?? null;
    }
    if (n === null || (n.type !== "identifier" && n.type !== "qualified_identifier")) return;
    // A declaration the grammar could not read whole (`export module fmt;`, a misread template), and `T f()`, an empty
    // initializer list in parentheses, which declares a function ([dcl.init]/11 of the C++ standard), declare no variable.
    if (node.hasError || declarator.childForFieldName("value")?.text.replace(/\s+/g, "") === "()") return;
    if (insideLostBody(node)) return;
    // `MACRO(name);` at file scope reads as `T (x);`, a variable in redundant parentheses, which code does not write.
    if (declarator.type === "parenthesized_declarator" && !namedChildren(declarator).some((c) => c.type === "pointer_declarator")) return;
    const parts = nameParts(n);
    if (parts === undefined) return;
    const extern = externLinkage || namedChildren(node).some((c) => c.type === "storage_class_specifier" && c.text === "extern");
    const { container } = placeFunction(parts, scope);
    push(parts.name, "variable", container, node, first, extern);
  };

  /**
   * `#define`s the grammar could not read whole (a block comment inside a macro body spread over
   * continued lines, as in fmt's `FMT_ASSERT`): in an `ERROR` the directive is a `#define` token
   * followed by the name, and by `preproc_params` touching it for a function-like macro. The range
   * is the directive's logical line (continued by a `\` at line end, translation phase 2 of the C
   * standard, https://en.cppreference.com/w/c/language/translation_phases).
   */
  const macrosInError = (node: SyntaxNode, container: readonly string[]): void => {
    const kids = node.children;
    let lines: string[] | undefined;
    for (let i = 0; i + 1 < kids.length; i++) {
      const name = kids[i + 1];
      if (kids[i]?.type !== "#define" || name?.type !== "identifier") continue;
      const params = kids[i + 2];
      const kind: SymbolKind = params?.type === "preproc_params" && params.startIndex === name.endIndex ? "function" : "constant";
      lines ??= node.text.split("\n");
      const top = node.startPosition.row;
      let row = name.startPosition.row;
      while (row - top < lines.length - 1 && /\\\r?$/.test(lines[row - top] as string)) row++;
      const def: SymbolDef = { name: name.text, kind, start_line: (kids[i] as SyntaxNode).startPosition.row + 1, end_line: row + 1 };
      if (container.length > 0) def.container = container.join(".");
      out.push(def);
    }
  };

  const walk = (parent: SyntaxNode, scope: Scope, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const child of namedChildren(parent)) item(child, child, scope, depth);
  };

  const item = (node: SyntaxNode, first: SyntaxNode, scope: Scope, depth: number): void => {
    switch (node.type) {
      case "function_definition": {
        // `class EXPORT_MACRO Name { … }` parses as a function `Name` of type `class EXPORT_MACRO`.
        const type = node.childForFieldName("type");
        const plain = node.childForFieldName("declarator");
        if (type !== null && plain?.type === "identifier" && SPECIFIER_KINDS[type.type] !== undefined && type.childForFieldName("body") === null) {
          push(plain.text, SPECIFIER_KINDS[type.type] as SymbolKind, scope.names, node, first);
          return;
        }
        const fn = functionDeclarator(plain);
        const parts = fn === undefined ? undefined : functionName(fn);
        if (parts === undefined) return;
        const { container, kind } = placeFunction(parts, scope);
        // `= default` / `= delete` declare a special member without a body of its own.
        const body = node.childForFieldName("body");
        const bodiless = body === null || body.type === "default_method_clause" || body.type === "delete_method_clause";
        push(parts.name, kind, container, node, first, bodiless);
        // C++ has no nested functions or block-scope templates: a function definition that has a
        // return type, or a template, directly in a body and indented no deeper than the function itself is the
        // grammar's misreading of a statement before it, which left the rest of the enclosing scope in the body
        // (nlohmann/json's `push_back(typename object_t::value_type(…))`); it is read in the function's own scope.
        // (A statement macro the C grammar reads as a function, `GET_AND_EMIT(x)` ⏎ `…`, is indented as a statement.)
        if (body?.type === "compound_statement") {
          const column = first.startPosition.column;
          for (const c of namedChildren(body)) {
            if (c.startPosition.column > column) continue;
            if ((c.type === "function_definition" && c.childForFieldName("type") !== null) || c.type === "template_declaration") item(c, c, scope, depth + 1);
          }
        }
        return;
      }
      case "declaration":
      case "field_declaration":
      case "type_definition":
        declaration(node, scope, first, depth);
        return;
      case "struct_specifier":
      case "union_specifier":
      case "class_specifier":
      case "enum_specifier":
        specifier(node, scope, first, depth);
        return;
      case "friend_declaration":
        // A friend function defined in a class body (`friend bool operator==(…) { … }`): a function of the class's scope.
        for (const c of namedChildren(node)) if (c.type === "function_definition") item(c, first, { names: scope.names, inType: false }, depth + 1);
        return;
      case "alias_declaration":
        push(node.childForFieldName("name")?.text, "type", scope.names, node, first);
        return;
      case "template_declaration":
        for (const c of namedChildren(node)) if (c.type !== "template_parameter_list") item(c, first, scope, depth + 1);
        return;
      case "namespace_definition": {
        const nameNode = node.childForFieldName("name");
        const parts = nameNode === null ? [] : nameNode.text.split("::").map((s) => s.trim()).filter((s) => s !== "");
        const name = parts.pop();
        const outer = [...scope.names, ...parts];
        if (name !== undefined) {
          push(name, "module", outer, node, first);
          namespaces.add(name);
        }
        const body = node.childForFieldName("body");
        if (body !== null) walk(body, { names: name === undefined ? outer : [...outer, name], inType: false }, depth + 1);
        return;
      }
      case "preproc_def":
        push(node.childForFieldName("name")?.text, "constant", scope.names, node, first);
        return;
      case "preproc_function_def":
        push(node.childForFieldName("name")?.text, "function", scope.names, node, first);
        return;
      case "linkage_specification": {
        const body = node.childForFieldName("body");
        if (body === null) return;
        if (body.type === "declaration_list") walk(body, scope, depth + 1);
        // `extern "C" char** environ;` declares, `extern "C" { char** environ; }` defines ([dcl.link] of the C++ standard).
        else if (body.type === "declaration") declaration(body, scope, first, depth + 1, true);
        else item(body, first, scope, depth + 1);
        return;
      }
      case "ERROR": {
        // `EXPORT_MACRO(type) name(params);` (a prototype behind an export macro) parses as two
        // function declarators in an error: the second one declares `name`.
        const kids = namedChildren(node);
        kids.forEach((k, i) => {
          if (k.type !== "function_declarator" || kids[i - 1]?.type !== "function_declarator") return;
          const parts = functionName(k);
          if (parts === undefined) return;
          const { container, kind } = placeFunction(parts, scope);
          push(parts.name, kind, container, k, kids[i - 1] as SyntaxNode, true);
        });
        macrosInError(node, scope.names);
        walk(node, scope, depth + 1);
        return;
      }
      default:
        if (CONTAINERS.has(node.type)) walk(node, scope, depth + 1);
    }
  };

  walk(root, { names: [], inType: false }, 0);
  // Macros have no scope: a `#define` inside a function body defines it for the rest of the file.
  const seen = new Set(out.filter((d) => d.kind === "constant" || d.kind === "function").map((d) => `${d.start_line}:${d.name}`));
  for (const m of macrosInBodies(root)) {
    const name = m.childForFieldName("name")?.text;
    const lines = spanLines(m, m);
    if (name !== undefined && !seen.has(`${lines.start_line}:${name}`)) {
      out.push({ name, kind: m.type === "preproc_def" ? "constant" : "function", ...lines });
    }
  }
  // Text order, outer before inner at the same line.
  return out.sort((a, b) => a.start_line - b.start_line || b.end_line - a.end_line);
}

/** The `#define` token of tree-sitter-c (and -cpp): `preprocessor('define')` of its grammar.js, `/#[ \t]*define/`. */
const DEFINE_TOKEN = /#[ \t]*define/g;

/**
 * `#define`s inside function bodies (the declaration walk does not enter bodies): every `#define`
 * of the tree that has a `compound_statement` above it. In a tree without errors each
 * `preproc_def` and `preproc_function_def` starts with its `#define` token, so they are found from
 * the places of that token's text (none in most files, a few in a header: its guard), each asked
 * of the parser for the node there, instead of by a search of every node of the tree (a tenth of
 * the definitions' time on a 10 KB C file). A tree with errors may hold a directive whose token
 * the parser made up (a `MISSING` node has no text): it is searched whole, by the grammar's own search.
 */
function macrosInBodies(root: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const inBody = (m: SyntaxNode): boolean => {
    for (let p = m.parent, depth = 0; p !== null && depth < 512; p = p.parent, depth++) if (p.type === "compound_statement") return true;
    return false;
  };
  if (root.hasError) {
    for (const m of root.descendantsOfType(["preproc_def", "preproc_function_def"])) if (m !== null && inBody(m)) out.push(m);
    return out;
  }
  const text = root.text;
  for (const match of text.matchAll(DEFINE_TOKEN)) {
    const at = root.startIndex + match.index;
    const token = root.descendantForIndex(at, at + 1);
    const m = token?.type === "#define" ? token.parent : null;
    if (m !== null && (m.type === "preproc_def" || m.type === "preproc_function_def") && m.startIndex === at && inBody(m)) out.push(m);
  }
  return out;
}
