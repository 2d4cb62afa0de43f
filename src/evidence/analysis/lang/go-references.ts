/**
 * Go: the name uses and import bindings of one file, for `find_references` (tree-sitter-go 0.25
 * grammar; scoping per The Go Programming Language Specification, "Declarations and scope").
 *
 * - **Package scope**: the top-level names of every file of the package folder are visible
 *   without import (`ReferenceRules.sharedScope` of `go.ts`).
 * - **Locals** (which hide a package-level name): receivers, parameters and named results, and
 *   what a function body declares (`:=`, `var`, `const`, `type`, `range` and type-switch
 *   bindings, function literal parameters), counted for the whole function — a simplification of
 *   Go's block scopes.
 * - **Uses**: identifiers, `pkg.Name` and selector paths (`a.b.c`) in expressions (`call` when
 *   called, and for composite literals `T{…}`), type positions (`type`: parameter, result, field,
 *   variable and conversion types), embedded fields and embedded interfaces (`inherit`). Strings,
 *   comments, struct field names and keys of keyed literals give none.
 * - **Receivers**: inside a method, the receiver carries its type; a local declared `var x T`,
 *   a parameter `x T`/`x *T`, or bound by `x := T{…}`/`&T{…}` carries `T`; one bound by `x := y`
 *   (also `&y`, `*y`) to such a local carries its type.
 * - **Bindings**: `import "a/b/c"` binds `c` (the last path element without a `/vN` major-version
 *   suffix, the usual package name), `import n "a/b"` binds `n`, `import . "a/b"` is a wildcard;
 *   `import _ "a/b"` binds nothing.
 * - **Classes**: a struct's embedded fields and an interface's embedded interfaces are its bases,
 *   so promoted methods resolve.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, UseKind } from "./language.js";
import { ReferenceCollector } from "./reference-walk.js";
import { namedChildren, walkNodes } from "./syntax.js";
import { namePath, type NameStep } from "./name-path.js";

const MAX_DEPTH = 400;

/** The path of an identifier / `pkg.Name` / selector chain, or `undefined`. */
function goPath(node: SyntaxNode): string[] | undefined {
  return namePath(node, goStep);
}

function goStep(n: SyntaxNode): NameStep {
  switch (n.type) {
    case "identifier":
    case "type_identifier":
    case "package_identifier":
      return { head: n.text };
    case "selector_expression": {
      const field = n.childForFieldName("field");
      return field === null ? undefined : { part: field.text, next: n.childForFieldName("operand") };
    }
    case "qualified_type": {
      const name = n.childForFieldName("name");
      const pkg = n.childForFieldName("package");
      return name === null || pkg === null ? undefined : { head: [pkg.text, name.text] };
    }
    case "pointer_type":
    case "parenthesized_type":
    case "parenthesized_expression":
      return { through: n.namedChildren.find((c) => c !== null) ?? null, headOnly: true };
    case "generic_type":
      return { through: n.childForFieldName("type"), headOnly: true };
    default:
      return undefined;
  }
}

/** The package name an import path binds by default (`a/b/c/v2` → `c`, `gopkg.in/yaml.v3` → `yaml`). */
function defaultPackageName(importPath: string): string {
  const parts = importPath.split("/");
  let last = parts.pop() ?? importPath;
  if (/^v\d+$/.test(last) && parts.length > 0) last = parts.pop() as string;
  return last.replace(/\.v\d+$/, "").replace(/^go-/, "").replace(/[-.]go$/, "").replace(/[^\w]/g, "_");
}

/** Names declared by the parameters of a `parameter_list`. */
function parameterNames(list: SyntaxNode | null, out: Set<string>): void {
  for (const p of list ? namedChildren(list) : []) {
    for (const n of p.childrenForFieldName("name")) if (n !== null) out.add(n.text);
  }
}

/** Everything a function body declares (see the module comment), not entering function literals. */
function bodyLocals(body: SyntaxNode, out: Set<string>): void {
  walkNodes([body], (n) => {
    switch (n.type) {
      case "func_literal":
        return "skip";
      case "short_var_declaration":
      case "range_clause": {
        const left = n.childForFieldName("left");
        for (const id of left ? namedChildren(left) : []) if (id.type === "identifier") out.add(id.text);
        break;
      }
      case "var_spec":
      case "const_spec":
        for (const id of n.childrenForFieldName("name")) if (id !== null) out.add(id.text);
        break;
      case "type_spec":
      case "type_alias": {
        const name = n.childForFieldName("name");
        if (name) out.add(name.text);
        break;
      }
      case "type_switch_statement": {
        const alias = n.childForFieldName("alias");
        for (const id of alias ? (alias.type === "expression_list" ? namedChildren(alias) : [alias]) : []) out.add(id.text);
        break;
      }
      case "receive_statement": {
        const left = n.childForFieldName("left");
        if (left && n.text.includes(":=")) for (const id of namedChildren(left)) if (id.type === "identifier") out.add(id.text);
        break;
      }
      default:
    }
  });
}

/** `T` of a type node `T`, `*T`, `pkg.T`, `T[K]`. */
function typePath(type: SyntaxNode | null): string[] | undefined {
  return type ? goPath(type) : undefined;
}

interface Ctx {
  use: UseKind;
  depth: number;
  /** Receiver name and its type inside a method. */
  self?: { name: string; type: string };
}

/** Extracts {@link ReferenceFacts} from a tree-sitter-go `source_file` (see the module comment). */
export function extractGoReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector();

  const usePath = (node: SyntaxNode, ctx: Ctx, use: UseKind): boolean => {
    const path = goPath(node);
    if (path === undefined) return false;
    const head = path[0] as string;
    const last = lastPart(node);
    if (ctx.self !== undefined && head === ctx.self.name) {
      if (path.length > 1) c.use(path, last, use, { selfClass: ctx.self.type });
      return true;
    }
    if (c.isLocal(head)) {
      const type = c.typeOf(head);
      if (path.length > 1) c.use(type ? path : ["", ...path.slice(1)], last, use, type ? { receiverType: type } : {});
      return true;
    }
    c.use(path, last, use);
    return true;
  };

  const walkChildren = (node: SyntaxNode, ctx: Ctx) => {
    for (const k of namedChildren(node)) walk(k, ctx);
  };

  const walkFunction = (fn: SyntaxNode, ctx: Ctx) => {
    const name = fn.childForFieldName("name")?.text;
    const receiver = fn.childForFieldName("receiver");
    const params = fn.childForFieldName("parameters");
    const result = fn.childForFieldName("result");
    let self: Ctx["self"];
    let qualified = name;
    const locals = new Set<string>();
    if (receiver) {
      const p = namedChildren(receiver)[0];
      const rt = typePath(p?.childForFieldName("type") ?? null);
      if (rt && rt.length === 1) qualified = name ? `${rt[0] as string}.${name}` : undefined;
    }
    // The signature's types belong to the function (its context), resolved in the enclosing scope.
    if (qualified && fn.type !== "func_literal") c.pushContext(qualified);
    if (receiver) {
      const p = namedChildren(receiver)[0];
      const type = typePath(p?.childForFieldName("type") ?? null);
      const rname = p?.childForFieldName("name")?.text;
      if (type && type.length === 1 && rname) self = { name: rname, type: type[0] as string };
      parameterNames(receiver, locals);
      const t = p?.childForFieldName("type");
      if (t) walk(t, { ...ctx, use: "type" });
    }
    for (const list of [params, result]) {
      for (const p of list ? namedChildren(list) : []) {
        const t = p.childForFieldName("type") ?? (p.type.endsWith("_type") || p.type === "type_identifier" ? p : null);
        if (t) walk(t, { ...ctx, use: "type" });
      }
    }
    parameterNames(params, locals);
    if (result?.type === "parameter_list") parameterNames(result, locals);
    const body = fn.childForFieldName("body");
    if (body) bodyLocals(body, locals);
    const scope = c.pushScope("function", locals);
    for (const list of [params]) {
      for (const p of list ? namedChildren(list) : []) {
        const t = typePath(p.childForFieldName("type"));
        if (t) for (const n of p.childrenForFieldName("name")) if (n !== null) scope.types.set(n.text, t);
      }
    }
    if (body) walk(body, { use: "value", depth: ctx.depth + 1, ...(self ? { self } : ctx.self ? { self: ctx.self } : {}) });
    c.popScope();
    if (qualified && fn.type !== "func_literal") c.popContext();
  };

  const walkTypeSpec = (spec: SyntaxNode, ctx: Ctx) => {
    const name = spec.childForFieldName("name");
    const type = spec.childForFieldName("type");
    if (name && !c.inFunction && type && (type.type === "struct_type" || type.type === "interface_type")) {
      const bases: string[][] = [];
      const list = type.type === "struct_type" ? namedChildren(type).find((k) => k.type === "field_declaration_list") : type;
      for (const f of list ? namedChildren(list) : []) {
        if (f.type === "field_declaration" && f.childForFieldName("name") === null) {
          const t = typePath(f.childForFieldName("type"));
          if (t) bases.push(t);
        } else if (f.type === "type_elem" || f.type === "constraint_elem") {
          const t = typePath(namedChildren(f)[0] ?? null);
          if (t) bases.push(t);
        }
      }
      c.classes.push({ name: name.text, bases });
    }
    for (const k of namedChildren(spec)) if (k.id !== name?.id) walk(k, { ...ctx, use: "type" });
  };

  const walk = (node: SyntaxNode, ctx: Ctx): void => {
    if (ctx.depth > MAX_DEPTH) return;
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1 };
    switch (node.type) {
      case "comment":
      case "interpreted_string_literal":
      case "raw_string_literal":
      case "rune_literal":
      case "package_clause":
      case "field_identifier":
      case "label_name":
        return;
      case "import_declaration":
        walkImports(node);
        return;
      case "function_declaration":
      case "method_declaration":
      case "func_literal":
        walkFunction(node, deeper);
        return;
      case "type_spec":
      case "type_alias":
        walkTypeSpec(node, deeper);
        return;
      case "identifier":
      case "type_identifier":
      case "qualified_type":
      case "selector_expression":
        if (!usePath(node, ctx, ctx.use) && node.type === "selector_expression") {
          const op = node.childForFieldName("operand");
          const field = node.childForFieldName("field");
          if (op) walk(op, { ...deeper, use: "value" });
          if (field) c.use(["", field.text], field, ctx.use);
        }
        return;
      case "call_expression": {
        const fn = node.childForFieldName("function");
        if (fn) walk(fn, { ...deeper, use: "call" });
        for (const k of namedChildren(node)) if (k.id !== fn?.id) walk(k, { ...deeper, use: k.type === "type_arguments" ? "type" : "value" });
        return;
      }
      case "composite_literal": {
        const type = node.childForFieldName("type");
        if (type) walk(type, { ...deeper, use: "call" });
        const body = node.childForFieldName("body");
        if (body) walk(body, { ...deeper, use: "value" });
        return;
      }
      case "keyed_element": {
        const kids = namedChildren(node);
        // `Field: value` in a struct literal: the key names a field, not a variable.
        for (const k of kids.slice(kids.length > 1 ? 1 : 0)) walk(k, { ...deeper, use: "value" });
        return;
      }
      case "field_declaration": {
        const named = node.childForFieldName("name") !== null;
        const t = node.childForFieldName("type");
        if (t) walk(t, { ...deeper, use: named ? "type" : "inherit" });
        return;
      }
      case "short_var_declaration": {
        const left = node.childForFieldName("left");
        const right = node.childForFieldName("right");
        const ids = left ? namedChildren(left) : [];
        const vals = right ? namedChildren(right) : [];
        ids.forEach((id, i) => {
          const v = vals[i];
          const op = v?.type === "unary_expression" ? v.childForFieldName("operator")?.text : undefined;
          const lit = v?.type === "unary_expression" ? v.childForFieldName("operand") : v;
          if (id.type === "identifier" && lit?.type === "composite_literal") {
            const t = typePath(lit.childForFieldName("type"));
            if (t) c.bindType(id.text, t);
          } else if (id.type === "identifier" && lit?.type === "identifier" && (v === lit || op === "&" || op === "*")) {
            // `nn := n`, `p := &v`: the type of another local (a receiver, a parameter, `var v T`).
            const t = lit.text === ctx.self?.name ? [ctx.self.type] : c.isLocal(lit.text) ? c.typeOf(lit.text) : undefined;
            if (t) c.bindType(id.text, t);
          }
        });
        if (right) walk(right, { ...deeper, use: "value" });
        return;
      }
      case "var_spec":
      case "const_spec": {
        const t = node.childForFieldName("type");
        const tp = typePath(t);
        if (tp && c.inFunction) for (const n of node.childrenForFieldName("name")) if (n !== null) c.bindType(n.text, tp);
        if (t) walk(t, { ...deeper, use: "type" });
        const v = node.childForFieldName("value");
        if (v) walk(v, { ...deeper, use: "value" });
        return;
      }
      case "range_clause": {
        const right = node.childForFieldName("right");
        if (right) walk(right, { ...deeper, use: "value" });
        return;
      }
      case "labeled_statement":
      case "goto_statement":
      case "break_statement":
      case "continue_statement":
        for (const k of namedChildren(node)) if (k.type !== "label_name") walk(k, deeper);
        return;
      case "parameter_declaration":
      case "variadic_parameter_declaration": {
        const t = node.childForFieldName("type");
        if (t) walk(t, { ...deeper, use: "type" });
        return;
      }
      case "generic_type": {
        const t = node.childForFieldName("type");
        if (t) walk(t, deeper);
        for (const k of namedChildren(node)) if (k.id !== t?.id) walk(k, { ...deeper, use: "type" });
        return;
      }
      case "type_conversion_expression":
      case "type_assertion_expression": {
        const t = node.childForFieldName("type");
        if (t) walk(t, { ...deeper, use: "type" });
        for (const k of namedChildren(node)) if (k.id !== t?.id) walk(k, { ...deeper, use: "value" });
        return;
      }
      default: {
        const typeish = /(_type|^type_arguments|^type_elem|^constraint_elem)$/.test(node.type);
        walkChildren(node, { ...deeper, use: typeish ? (ctx.use === "inherit" ? "inherit" : "type") : ctx.use === "type" || ctx.use === "inherit" ? ctx.use : "value" });
      }
    }
  };

  const walkImports = (decl: SyntaxNode) => {
    const specs: SyntaxNode[] = [];
    for (const k of namedChildren(decl)) {
      if (k.type === "import_spec") specs.push(k);
      else if (k.type === "import_spec_list") specs.push(...namedChildren(k).filter((s) => s.type === "import_spec"));
    }
    for (const spec of specs) {
      const pathNode = spec.childForFieldName("path");
      const content = pathNode ? namedChildren(pathNode).find((k) => k.type === "interpreted_string_literal_content" || k.type === "raw_string_literal_content")?.text ?? pathNode.text.replace(/^["`]|["`]$/g, "") : undefined;
      if (!content) continue;
      const name = spec.childForFieldName("name");
      const line = spec.startPosition.row + 1;
      if (name?.type === "blank_identifier" || name?.text === "_") continue;
      if (name?.type === "dot" || name?.text === ".") {
        c.bind({ local: "*", specifier: content, member: "*", line }, spec, true);
        continue;
      }
      c.bind({ local: name?.text ?? defaultPackageName(content), specifier: content, line }, spec, true);
    }
  };

  walkChildren(root, { use: "value", depth: 0 });
  return c.facts();
}

function lastPart(node: SyntaxNode): SyntaxNode {
  if (node.type === "selector_expression") return node.childForFieldName("field") ?? node;
  if (node.type === "qualified_type") return node.childForFieldName("name") ?? node;
  return node;
}
