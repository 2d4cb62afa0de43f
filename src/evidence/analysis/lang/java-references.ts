/**
 * Java: the name uses and import bindings of one file, for `find_references` (tree-sitter-java
 * 0.23 grammar; names per The Java Language Specification, chapter 6 "Names", and §7.5 "Import
 * Declarations").
 *
 * - **Package scope**: the classes of the other files of the same package (in every source root) are visible
 *   without import (`ReferenceRules.sharedScope` of `java.ts`). A fully qualified name written in
 *   code (`com.acme.Util.run()`) is resolved as a class name (`ReferenceRules.modulePath`).
 * - **Locals** (which hide a member of the same name): parameters, local variables, `for` and
 *   enhanced `for` variables, `catch` parameters, lambda parameters, pattern variables, counted for
 *   the whole method — a simplification of Java's block scopes.
 * - **Uses**: identifiers and dotted names in expressions, method invocations (`call`, with or
 *   without a receiver), `new C()` (`call`), type positions (`type`: declared types, type
 *   arguments, casts, `instanceof`, `throws`), `extends`/`implements` (`inherit`), imports
 *   (`import`). Strings, comments and the names being declared give none.
 * - **Receivers**: `this.m()`/`super.m()` and a bare `m()`, field or type name inside a class carry
 *   the class (a bare name is a member of the class or of an enclosing class first, JLS §6.5.7.1,
 *   §6.5.5.1); `C::m`/`this::m` name `m` through `C`/the class; a local, parameter or field
 *   declared with type `C` carries `C`.
 * - **Bindings**: `import a.b.C;` binds `C` to the class, `import static a.b.C.m;` binds `m` to
 *   member `m` of `C`, `import a.b.*;` and `import static a.b.C.*;` are wildcards.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, UseKind } from "./language.js";
import { ReferenceCollector } from "./reference-walk.js";
import { namedChildren, walkNodes } from "./syntax.js";
import { namePath, type NameStep } from "./name-path.js";

const MAX_DEPTH = 400;

const TYPE_DECLS = new Set(["class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration"]);
const METHODS = new Set(["method_declaration", "constructor_declaration", "compact_constructor_declaration"]);

/** The path of an identifier / `a.b.c` / type chain, or `undefined`. */
function javaPath(node: SyntaxNode): string[] | undefined {
  return namePath(node, javaStep);
}

function javaStep(n: SyntaxNode): NameStep {
  switch (n.type) {
    case "identifier":
    case "type_identifier":
    case "this":
    case "super":
      return { head: n.text };
    case "field_access": {
      const f = n.childForFieldName("field");
      return f === null ? undefined : { part: f.text, next: n.childForFieldName("object") };
    }
    case "scoped_identifier":
    case "scoped_type_identifier": {
      const kids = namedChildren(n);
      const name = n.childForFieldName("name") ?? kids[kids.length - 1] ?? null;
      if (name === null) return undefined;
      return { part: name.text, next: n.childForFieldName("scope") ?? (kids.length > 1 ? (kids[0] as SyntaxNode) : null) };
    }
    case "generic_type":
      return { through: namedChildren(n)[0] ?? null, headOnly: true };
    default:
      return undefined;
  }
}

/** Local names a method or lambda binds (parameters and body declarations, not entering nested classes or lambdas). */
function methodLocals(fn: SyntaxNode): Set<string> {
  const out = new Set<string>();
  walkNodes(namedChildren(fn), (n, push) => {
    if (TYPE_DECLS.has(n.type) || n.type === "class_body" || (n.type === "lambda_expression" && n.id !== fn.id)) return "skip";
    switch (n.type) {
      case "formal_parameter":
      case "spread_parameter":
      case "catch_formal_parameter":
      case "enhanced_for_statement":
      case "variable_declarator":
      case "type_pattern":
      case "record_pattern_component": {
        const name = n.childForFieldName("name") ?? namedChildren(n).find((k) => k.type === "identifier") ?? null;
        if (name) out.add(name.text);
        if (n.type === "spread_parameter") for (const d of namedChildren(n)) if (d.type === "variable_declarator") push(d);
        break;
      }
      case "inferred_parameters":
        for (const k of namedChildren(n)) if (k.type === "identifier") out.add(k.text);
        break;
      case "identifier":
        if (n.parent?.type === "lambda_expression" && n.parent.childForFieldName("parameters")?.id === n.id) out.add(n.text);
        break;
      case "string_literal":
      case "line_comment":
      case "block_comment":
        return "skip";
      default:
    }
  });
  return out;
}

interface Ctx {
  use: UseKind;
  depth: number;
  /** Enclosing types, outermost first. */
  chain: string[];
}

/** Extracts {@link ReferenceFacts} from a tree-sitter-java `program` (see the module comment). */
export function extractJavaReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector();

  const usePath = (node: SyntaxNode, ctx: Ctx, use: UseKind, lastNode?: SyntaxNode): boolean => {
    const path = javaPath(node);
    if (path === undefined) return false;
    pathUse(path, lastNode ?? lastPart(node), ctx, use);
    return true;
  };

  const pathUse = (path: string[], last: SyntaxNode, ctx: Ctx, use: UseKind, methodRef = false) => {
    const head = path[0] as string;
    const cls = ctx.chain.length > 0 ? ctx.chain.join(".") : undefined;
    const ref = methodRef ? { methodRef } : {};
    if (head === "this" || head === "super") {
      if (path.length > 1) c.use(path, last, use, cls !== undefined ? { selfClass: cls, ...ref } : ref);
      return;
    }
    if (c.isLocal(head)) {
      const type = c.typeOf(head);
      if (path.length > 1) c.use(type ? path : ["", ...path.slice(1)], last, use, type ? { receiverType: type, ...ref } : ref);
      return;
    }
    const type = path.length > 1 ? c.typeOf(head) : undefined;
    // A bare name inside a class may be one of its members (implicit `this`), a type name one of
    // its member types (JLS §6.5.5.1).
    const extra = type ? { receiverType: type } : path.length === 1 && cls !== undefined ? { selfClass: cls } : {};
    c.use(path, last, use, { ...extra, ...ref });
  };

  const walkChildren = (node: SyntaxNode, ctx: Ctx) => {
    for (const k of namedChildren(node)) walk(k, ctx);
  };

  const walkType = (decl: SyntaxNode, ctx: Ctx) => {
    const name = decl.childForFieldName("name")?.text;
    const chain = name && !c.inFunction ? [...ctx.chain, name] : ctx.chain;
    const bases: string[][] = [];
    for (const k of namedChildren(decl)) {
      if (k.type === "superclass" || k.type === "super_interfaces" || k.type === "extends_interfaces") {
        const stack = [...namedChildren(k)];
        while (stack.length > 0) {
          const t = stack.shift() as SyntaxNode;
          if (t.type === "type_list") {
            stack.push(...namedChildren(t));
            continue;
          }
          const p = javaPath(t);
          if (p) bases.push(p);
          walk(t, { ...ctx, use: "inherit" });
        }
      } else if (k.type === "modifiers" || k.type === "type_parameters") walk(k, { ...ctx, use: "type" });
    }
    if (name && !c.inFunction) c.classes.push({ name: chain.join("."), bases });
    const body = decl.childForFieldName("body");
    if (!body) return;
    if (name && !c.inFunction) c.pushContext(chain.join("."));
    // Field types: `x.m()` on a field `C x` resolves in `C`.
    const scope = c.pushScope("block");
    for (const f of namedChildren(body)) {
      if (f.type !== "field_declaration" && f.type !== "constant_declaration") continue;
      const t = javaPath(f.childForFieldName("type") ?? f);
      if (!t) continue;
      for (const d of f.childrenForFieldName("declarator")) {
        const n = d?.childForFieldName("name");
        if (n) scope.types.set(n.text, t);
      }
    }
    walkChildren(body, { ...ctx, chain, use: "value" });
    c.popScope();
    if (name && !c.inFunction) c.popContext();
  };

  const walkMethod = (fn: SyntaxNode, ctx: Ctx) => {
    const name = fn.childForFieldName("name")?.text ?? ctx.chain[ctx.chain.length - 1];
    const qualified = name !== undefined && ctx.chain.length > 0 && !c.inFunction ? `${ctx.chain.join(".")}.${name}` : undefined;
    if (qualified) c.pushContext(qualified);
    for (const k of namedChildren(fn)) {
      if (k.type === "block" || k.type === "constructor_body" || k.type === "formal_parameters" || k.type === "identifier") continue;
      walk(k, { ...ctx, use: k.type === "modifiers" ? "value" : "type" });
    }
    const scope = c.pushScope("function", methodLocals(fn));
    const params = fn.childForFieldName("parameters");
    for (const p of params ? namedChildren(params) : []) {
      const t = p.childForFieldName("type");
      if (t) walk(t, { ...ctx, use: "type" });
      const n = p.childForFieldName("name");
      const tp = t ? javaPath(t) : undefined;
      if (n && tp) scope.types.set(n.text, tp);
    }
    const body = fn.childForFieldName("body");
    if (body) walk(body, { ...ctx, use: "value", depth: ctx.depth + 1 });
    c.popScope();
    if (qualified) c.popContext();
  };

  const walk = (node: SyntaxNode, ctx: Ctx): void => {
    if (ctx.depth > MAX_DEPTH) return;
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1 };
    if (TYPE_DECLS.has(node.type)) {
      walkType(node, deeper);
      return;
    }
    if (METHODS.has(node.type)) {
      walkMethod(node, deeper);
      return;
    }
    switch (node.type) {
      case "line_comment":
      case "block_comment":
      case "string_literal":
      case "character_literal":
      case "text_block":
      case "package_declaration":
        return;
      case "import_declaration":
        walkImport(node);
        return;
      case "method_reference": {
        // `C::m`, `this::m`, `x::m`: the method named through its class or receiver (`C::new` uses `C`).
        const [obj, ...rest] = namedChildren(node);
        const name = rest.find((k) => k.type === "identifier");
        const objPath = obj ? javaPath(obj) : undefined;
        if (obj && name && objPath !== undefined) pathUse([...objPath, name.text], name, deeper, "value", true);
        else if (obj) walk(obj, { ...deeper, use: name ? "value" : "call" });
        for (const k of rest) if (k.type === "type_arguments") walk(k, { ...deeper, use: "type" });
        return;
      }
      case "lambda_expression": {
        c.pushScope("function", methodLocals(node));
        const body = node.childForFieldName("body");
        if (body) walk(body, { ...deeper, use: "value" });
        c.popScope();
        return;
      }
      case "identifier":
      case "type_identifier":
      case "field_access":
      case "scoped_identifier":
      case "scoped_type_identifier":
        if (!usePath(node, ctx, ctx.use) && node.type === "field_access") {
          const obj = node.childForFieldName("object");
          const field = node.childForFieldName("field");
          if (obj) walk(obj, { ...deeper, use: "value" });
          if (field) c.use(["", field.text], field, ctx.use);
        }
        return;
      case "method_invocation": {
        const obj = node.childForFieldName("object");
        const name = node.childForFieldName("name");
        if (name) {
          const objPath = obj ? javaPath(obj) : [];
          if (objPath !== undefined) pathUse([...objPath, name.text], name, deeper, "call");
          else {
            if (obj) walk(obj, { ...deeper, use: "value" });
            c.use(["", name.text], name, "call");
          }
        }
        for (const k of namedChildren(node)) if (k.id !== obj?.id && k.id !== name?.id) walk(k, { ...deeper, use: k.type === "type_arguments" ? "type" : "value" });
        return;
      }
      case "object_creation_expression": {
        const type = node.childForFieldName("type");
        if (type) {
          if (type.type === "generic_type") {
            const head = namedChildren(type)[0];
            if (head) walk(head, { ...deeper, use: "call" });
            for (const k of namedChildren(type).slice(1)) walk(k, { ...deeper, use: "type" });
          } else walk(type, { ...deeper, use: "call" });
        }
        for (const k of namedChildren(node)) if (k.id !== type?.id) walk(k, { ...deeper, use: "value" });
        return;
      }
      case "local_variable_declaration":
      case "field_declaration":
      case "constant_declaration": {
        const t = node.childForFieldName("type");
        const tp = t ? javaPath(t) : undefined;
        if (t) walk(t, { ...deeper, use: "type" });
        for (const d of node.childrenForFieldName("declarator")) {
          if (d === null) continue;
          const n = d.childForFieldName("name");
          if (n && tp && node.type === "local_variable_declaration" && !(tp.length === 1 && tp[0] === "var")) c.bindType(n.text, tp);
          const v = d.childForFieldName("value");
          if (n && v?.type === "object_creation_expression" && tp?.[0] === "var") {
            const vt = v.childForFieldName("type");
            const vp = vt ? javaPath(vt) : undefined;
            if (vp) c.bindType(n.text, vp);
          }
          if (v) walk(v, { ...deeper, use: "value" });
          for (const k of namedChildren(d)) if (k.type === "dimensions_expr") walk(k, deeper);
        }
        for (const k of namedChildren(node)) if (k.type === "modifiers") walk(k, deeper);
        return;
      }
      case "formal_parameter":
      case "catch_formal_parameter":
      case "spread_parameter":
        for (const k of namedChildren(node)) if (k.type !== "identifier" && k.type !== "variable_declarator") walk(k, { ...deeper, use: "type" });
        return;
      case "enhanced_for_statement": {
        for (const k of namedChildren(node)) {
          if (k.id === node.childForFieldName("name")?.id) continue;
          walk(k, { ...deeper, use: k.id === node.childForFieldName("type")?.id ? "type" : "value" });
        }
        return;
      }
      case "cast_expression":
      case "instanceof_expression":
      case "type_arguments":
      case "throws":
      case "catch_type":
      case "type_bound":
      case "array_type":
        for (const k of namedChildren(node)) walk(k, { ...deeper, use: k.type.endsWith("type") || k.type === "type_identifier" || k.type === "scoped_type_identifier" || node.type !== "cast_expression" && node.type !== "instanceof_expression" ? "type" : "value" });
        return;
      case "generic_type": {
        // `Store<Order>`: the head keeps the use (an `implements` stays `inherit`), arguments are types.
        const [head, ...rest] = namedChildren(node);
        if (head) walk(head, { ...deeper, use: ctx.use === "inherit" || ctx.use === "call" ? ctx.use : "type" });
        for (const k of rest) walk(k, { ...deeper, use: "type" });
        return;
      }
      case "marker_annotation":
      case "annotation": {
        const name = node.childForFieldName("name");
        if (name) usePath(name, deeper, "type");
        const args = node.childForFieldName("arguments");
        if (args) walk(args, { ...deeper, use: "value" });
        return;
      }
      case "element_value_pair": {
        const v = node.childForFieldName("value");
        if (v) walk(v, deeper);
        return;
      }
      case "labeled_statement":
      case "break_statement":
      case "continue_statement":
        return;
      case "enum_constant": {
        for (const k of namedChildren(node)) if (k.id !== node.childForFieldName("name")?.id) walk(k, { ...deeper, use: "value" });
        return;
      }
      default:
        walkChildren(node, { ...deeper, use: ctx.use === "type" || ctx.use === "inherit" ? ctx.use : "value" });
    }
  };

  const walkImport = (decl: SyntaxNode) => {
    const isStatic = decl.children.some((k) => k !== null && k.type === "static");
    const wildcard = namedChildren(decl).some((k) => k.type === "asterisk");
    const nameNode = namedChildren(decl).find((k) => k.type === "scoped_identifier" || k.type === "identifier");
    if (!nameNode) return;
    const parts = javaPath(nameNode);
    if (!parts || parts.length === 0) return;
    const line = decl.startPosition.row + 1;
    const dotted = parts.join(".");
    if (wildcard) {
      c.bind({ local: "*", specifier: isStatic ? dotted : `${dotted}.*`, member: "*", line }, decl, true);
      return;
    }
    const last = parts[parts.length - 1] as string;
    const lastNode = lastPart(nameNode);
    if (isStatic) c.bind({ local: last, specifier: parts.slice(0, -1).join("."), member: last, line }, lastNode);
    else c.bind({ local: last, specifier: dotted, line }, lastNode);
  };

  walkChildren(root, { use: "value", depth: 0, chain: [] });
  return c.facts();
}

function lastPart(node: SyntaxNode): SyntaxNode {
  if (node.type === "field_access") return node.childForFieldName("field") ?? node;
  if (node.type === "scoped_identifier" || node.type === "scoped_type_identifier") {
    const kids = namedChildren(node);
    return node.childForFieldName("name") ?? kids[kids.length - 1] ?? node;
  }
  if (node.type === "generic_type") return namedChildren(node)[0] ?? node;
  return node;
}
