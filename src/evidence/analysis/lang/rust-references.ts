/**
 * Rust: the name uses and `use` bindings of one file, for `find_references` (tree-sitter-rust 0.24
 * grammar; names per The Rust Reference, "Paths", "Use declarations" and "Names — Scopes").
 *
 * - **Locals** (which hide an item of the same name): function and closure parameters and the
 *   bindings of `let`, `if let`/`while let`, `for` and `match` patterns (lower-case identifiers;
 *   an upper-case name in a pattern is a constant or variant, a use), counted for the whole
 *   function — a simplification of block scopes.
 * - **Uses**: identifiers and `::` paths (`crate::a::f`, `Type::method`, `Self::new`; every prefix
 *   implied) in expressions (`call` when called, for struct literals `T { … }` and macro
 *   invocations), types (`type`), the trait of `impl Trait for T` (`inherit`), `use` declarations
 *   (`import`), and identifiers inside macro token trees (`value`, `.m` there as a member of an
 *   unknown receiver). Strings and comments give none.
 *   `x.f` not called is a field access, no use; `Self` alone (the impl's own type) is no use of it.
 * - **Receivers**: `self.m()` and `Self::m()` inside an `impl` carry its type; a local declared
 *   `x: T`/`&T`, or bound by `T { … }` or `T::new(…)`-style calls on a CamelCase type, carries `T`.
 * - **Bindings**: `use a::b::c;` binds `c` to member `c` of module `a::b` (an item or a submodule),
 *   `use a::b::{c, d as e}` binds `c`
 *   and `e`, `use a::b::*` is a wildcard, `use a::b::{self}` binds `b`; each carries the inline
 *   modules around it. A path led by an unbound name (`crate::`, `super::`, a child module) is
 *   resolved as a module path.
 * - **Classes**: `impl Trait for T` makes `Trait` a base of `T` (default methods resolve).
 *   Methods of `T` may live in any `impl T` block of the crate (`ReferenceRules.membersAnywhere`).
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, UseKind } from "./language.js";
import { ReferenceCollector } from "./reference-walk.js";
import { namedChildren, walkNodes } from "./syntax.js";
import { namePath, type NameStep } from "./name-path.js";

const MAX_DEPTH = 400;

/** The path of an identifier / `a::b::c` / type chain, or `undefined` (generic arguments dropped). */
function rustPath(node: SyntaxNode): string[] | undefined {
  return namePath(node, rustStep);
}

function rustStep(n: SyntaxNode): NameStep {
  switch (n.type) {
    case "identifier":
    case "type_identifier":
    case "crate":
    case "self":
    case "super":
    case "metavariable":
      return { head: n.text };
    case "scoped_identifier":
    case "scoped_type_identifier": {
      const name = n.childForFieldName("name");
      if (name === null) return undefined;
      const path = n.childForFieldName("path");
      return path === null ? { head: name.text } : { part: name.text, next: path };
    }
    case "generic_type":
    case "generic_function":
      return { through: n.childForFieldName("type") ?? n.childForFieldName("function") };
    case "reference_type":
    case "pointer_type":
      return { through: n.childForFieldName("type"), headOnly: true };
    default:
      return undefined;
  }
}

/** Binding identifiers of a pattern (lower-case names; `ref`/`mut` allowed). */
function patternNames(node: SyntaxNode | null, out: Set<string>, depth = 0): void {
  if (node === null || depth > 50) return;
  if (node.type === "identifier") {
    if (!/^[A-Z]/.test(node.text)) out.add(node.text);
    return;
  }
  if (node.type === "scoped_identifier" || node.type === "field_identifier") return;
  for (const [i, k] of namedChildren(node).entries()) {
    // `Some(x)`, `Point { x, y: z }`: the type part is a path, not a binding.
    if (i === 0 && (node.type === "tuple_struct_pattern" || node.type === "struct_pattern")) continue;
    if (node.type === "field_pattern" && k.type === "field_identifier" && node.childForFieldName("pattern") !== null) continue;
    if (node.type === "field_pattern" && k.type === "shorthand_field_identifier") {
      out.add(k.text);
      continue;
    }
    patternNames(k, out, depth + 1);
  }
}

/** Everything a function body binds (see the module comment), not entering nested items. */
function functionLocals(fn: SyntaxNode): Set<string> {
  const out = new Set<string>();
  walkNodes(namedChildren(fn), (n) => {
    if (n.type.endsWith("_item") && n.type !== "expression_item") return "skip";
    switch (n.type) {
      case "parameter":
      case "let_declaration":
      case "let_condition":
      case "for_expression":
        patternNames(n.childForFieldName("pattern"), out);
        break;
      case "match_pattern":
        patternNames(n, out);
        break;
      case "closure_parameters":
        for (const k of namedChildren(n)) patternNames(k.type === "parameter" ? k.childForFieldName("pattern") : k, out);
        break;
      case "line_comment":
      case "block_comment":
      case "string_literal":
      case "raw_string_literal":
        return "skip";
      default:
    }
  });
  return out;
}

/** The type of `x` in `x: T` (a parameter or `let`), or bound by `T { … }` / `T::new(…)`. */
function boundType(decl: SyntaxNode): string[] | undefined {
  const t = decl.childForFieldName("type");
  const tp = t ? rustPath(t) : undefined;
  if (tp) return tp;
  const v = decl.childForFieldName("value");
  if (v?.type === "struct_expression") {
    const name = v.childForFieldName("name");
    return name ? rustPath(name) : undefined;
  }
  if (v?.type === "call_expression") {
    const p = rustPath(v.childForFieldName("function") ?? v);
    if (p && p.length >= 2 && /^[A-Z]/.test(p[p.length - 2] as string)) return p.slice(0, -1);
  }
  return undefined;
}

interface Ctx {
  use: UseKind;
  depth: number;
  /** The `impl`/`trait` type, for `self` and `Self`. */
  selfType?: string;
  /** Enclosing inline modules. */
  mods: string[];
}

/** Extracts {@link ReferenceFacts} from a tree-sitter-rust `source_file` (see the module comment). */
export function extractRustReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector();

  const pathUse = (path: string[], last: SyntaxNode, ctx: Ctx, use: UseKind) => {
    const head = path[0] as string;
    if ((head === "self" || head === "Self") && ctx.selfType !== undefined && (head === "Self" || c.isLocal("self"))) {
      // `Self` alone names the impl's own type from inside it: no other place uses the type there.
      if (path.length > 1) c.use(path, last, use, { selfClass: ctx.selfType });
      return;
    }
    if (c.isLocal(head)) {
      const type = c.typeOf(head);
      if (path.length > 1) c.use(type ? path : ["", ...path.slice(1)], last, use, type ? { receiverType: type } : {});
      return;
    }
    c.use(path, last, use);
  };

  const usePath = (node: SyntaxNode, ctx: Ctx, use: UseKind): boolean => {
    const path = rustPath(node);
    if (path === undefined) return false;
    pathUse(path, lastPart(node), ctx, use);
    for (const k of namedChildren(node)) if (k.type === "type_arguments") walk(k, { ...ctx, use: "type" });
    return true;
  };

  const walkChildren = (node: SyntaxNode, ctx: Ctx) => {
    for (const k of namedChildren(node)) walk(k, ctx);
  };

  const walkFunction = (fn: SyntaxNode, ctx: Ctx) => {
    const name = fn.childForFieldName("name")?.text;
    const qualified = name === undefined || c.inFunction ? undefined : ctx.selfType ? `${ctx.selfType}.${name}` : name;
    if (qualified) c.pushContext(qualified);
    const params = fn.childForFieldName("parameters");
    const locals = functionLocals(fn);
    if (params && namedChildren(params).some((p) => p.type === "self_parameter")) locals.add("self");
    for (const k of namedChildren(fn)) if (k.type !== "block" && k.type !== "parameters" && k.type !== "identifier") walk(k, { ...ctx, use: "type" });
    const scope = c.pushScope("function", locals);
    for (const p of params ? namedChildren(params) : []) {
      const t = p.childForFieldName("type");
      if (t) walk(t, { ...ctx, use: "type" });
      const pat = p.childForFieldName("pattern");
      const tp = p.type === "parameter" ? boundType(p) : undefined;
      if (pat?.type === "identifier" && tp) scope.types.set(pat.text, tp);
    }
    const body = fn.childForFieldName("body");
    if (body) walk(body, { ...ctx, use: "value", depth: ctx.depth + 1 });
    c.popScope();
    if (qualified) c.popContext();
  };

  const walkUse = (decl: SyntaxNode, ctx: Ctx) => {
    const line = decl.startPosition.row + 1;
    const scope = ctx.mods.length > 0 ? { scope: [...ctx.mods] } : {};
    const visit = (node: SyntaxNode, prefix: string[], depth: number): void => {
      if (depth > 30) return;
      switch (node.type) {
        case "scoped_use_list": {
          const p = node.childForFieldName("path");
          const pp = p ? (rustPath(p) ?? []) : [];
          const list = node.childForFieldName("list");
          for (const k of list ? namedChildren(list) : []) visit(k, [...prefix, ...pp], depth + 1);
          return;
        }
        case "use_list":
          for (const k of namedChildren(node)) visit(k, prefix, depth + 1);
          return;
        case "use_wildcard": {
          const p = namedChildren(node)[0];
          const pp = p ? (rustPath(p) ?? []) : [];
          const spec = [...prefix, ...pp].join("::");
          if (spec !== "") c.bind({ local: "*", specifier: spec, member: "*", line, ...scope }, node, true);
          return;
        }
        case "use_as_clause": {
          const p = node.childForFieldName("path");
          const alias = node.childForFieldName("alias");
          const pp = p ? rustPath(p) : undefined;
          if (!pp || !alias || alias.text === "_") return;
          bindPath([...prefix, ...pp], alias.text, p ? lastPart(p) : node);
          return;
        }
        default: {
          const pp = rustPath(node);
          if (!pp) return;
          const full = [...prefix, ...pp];
          // `use a::b::{self}` binds `b`.
          if (pp.length === 1 && pp[0] === "self") bindPath(prefix, prefix[prefix.length - 1] ?? "self", node);
          else bindPath(full, full[full.length - 1] as string, lastPart(node));
        }
      }
    };
    const bindPath = (full: string[], local: string, at: SyntaxNode) => {
      if (full.length === 0) return;
      // Like `from X import y`: the module before the last part, then the last part as a member of it
      // (an item, or a submodule).
      const binding = full.length === 1 ? { local, specifier: full[0] as string, line, ...scope } : { local, specifier: full.slice(0, -1).join("::"), member: full[full.length - 1] as string, line, ...scope };
      c.bindings.push(binding);
      c.uses.push({ path: [full[full.length - 1] as string], line: at.startPosition.row + 1, start_line: line, end_line: decl.endPosition.row + 1, use: "import", binding: c.bindings.length - 1, ...(c.context ? { context: c.context } : {}) });
    };
    const arg = decl.childForFieldName("argument");
    if (arg) visit(arg, [], 0);
  };

  const walk = (node: SyntaxNode, ctx: Ctx): void => {
    if (ctx.depth > MAX_DEPTH) return;
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1 };
    switch (node.type) {
      case "line_comment":
      case "block_comment":
      case "string_literal":
      case "raw_string_literal":
      case "char_literal":
      case "attribute_item":
      case "inner_attribute_item":
      case "field_identifier":
      case "shorthand_field_identifier":
      case "lifetime":
      case "label":
        return;
      case "use_declaration":
        walkUse(node, ctx);
        return;
      case "mod_item": {
        const name = node.childForFieldName("name");
        const body = node.childForFieldName("body");
        // `mod x;` needs no binding: a path led by `x` is tried as a child module (`ReferenceRules.modulePath`).
        if (body && name) walkChildren(body, { ...deeper, mods: [...ctx.mods, name.text] });
        return;
      }
      case "function_item":
      case "function_signature_item":
        walkFunction(node, deeper);
        return;
      case "closure_expression": {
        c.pushScope("function", functionLocals(node));
        const body = node.childForFieldName("body");
        if (body) walk(body, { ...deeper, use: "value" });
        c.popScope();
        return;
      }
      case "impl_item": {
        const type = node.childForFieldName("type");
        const trait = node.childForFieldName("trait");
        const tp = type ? rustPath(type) : undefined;
        const self = tp?.[tp.length - 1];
        if (trait) walk(trait, { ...deeper, use: "inherit" });
        if (type) walk(type, { ...deeper, use: "type" });
        const tr = trait ? rustPath(trait) : undefined;
        if (self && tr && !c.inFunction) c.classes.push({ name: self, bases: [tr] });
        const body = node.childForFieldName("body");
        if (body) walkChildren(body, { ...deeper, use: "value", ...(self ? { selfType: self } : {}) });
        return;
      }
      case "trait_item": {
        const name = node.childForFieldName("name")?.text;
        for (const k of namedChildren(node)) {
          if (k.type === "declaration_list") walkChildren(k, { ...deeper, use: "value", ...(name ? { selfType: name } : {}) });
          else if (k.type === "trait_bounds") walk(k, { ...deeper, use: "inherit" });
          else if (k.type !== "type_identifier") walk(k, { ...deeper, use: "type" });
        }
        return;
      }
      case "struct_item":
      case "enum_item":
      case "union_item":
      case "type_item":
      case "const_item":
      case "static_item": {
        const name = node.childForFieldName("name");
        for (const k of namedChildren(node)) {
          if (k.id === name?.id) continue;
          walk(k, { ...deeper, use: k.id === node.childForFieldName("value")?.id ? "value" : "type" });
        }
        return;
      }
      case "enum_variant": {
        const name = node.childForFieldName("name");
        for (const k of namedChildren(node)) if (k.id !== name?.id) walk(k, { ...deeper, use: k.id === node.childForFieldName("value")?.id ? "value" : "type" });
        return;
      }
      case "field_declaration": {
        const t = node.childForFieldName("type");
        if (t) walk(t, { ...deeper, use: "type" });
        return;
      }
      case "identifier":
      case "type_identifier":
      case "scoped_identifier":
      case "scoped_type_identifier":
      case "self":
      case "crate":
      case "super":
        usePath(node, ctx, ctx.use);
        return;
      case "generic_type":
      case "generic_function": {
        const head = node.childForFieldName("type") ?? node.childForFieldName("function");
        if (head) walk(head, deeper);
        for (const k of namedChildren(node)) if (k.id !== head?.id) walk(k, { ...deeper, use: "type" });
        return;
      }
      case "field_expression": {
        const value = node.childForFieldName("value");
        const field = node.childForFieldName("field");
        if (!field) return;
        // `x.f` that is not called reads a field (a method is only ever called: The Rust Reference,
        // "Field access expressions", "Method call expressions"); fields are no definitions here.
        if (ctx.use !== "call") {
          if (value) walk(value, { ...deeper, use: "value" });
          return;
        }
        const vp = value && (value.type === "identifier" || value.type === "self") ? [value.text] : undefined;
        if (vp) pathUse([...vp, field.text], field, deeper, ctx.use);
        else {
          if (value) walk(value, { ...deeper, use: "value" });
          c.use(["", field.text], field, ctx.use);
        }
        return;
      }
      case "call_expression": {
        const fn = node.childForFieldName("function");
        if (fn) walk(fn, { ...deeper, use: "call" });
        const args = node.childForFieldName("arguments");
        if (args) walk(args, { ...deeper, use: "value" });
        return;
      }
      case "struct_expression": {
        const name = node.childForFieldName("name");
        if (name) walk(name, { ...deeper, use: "call" });
        const body = node.childForFieldName("body");
        if (body) walk(body, { ...deeper, use: "value" });
        return;
      }
      case "field_initializer": {
        const v = node.childForFieldName("value");
        if (v) walk(v, { ...deeper, use: "value" });
        return;
      }
      case "let_declaration": {
        const pat = node.childForFieldName("pattern");
        const tp = boundType(node);
        if (pat?.type === "identifier" && tp) c.bindType(pat.text, tp);
        if (pat) walkPattern(pat, deeper);
        for (const k of namedChildren(node)) {
          if (k.id === pat?.id) continue;
          walk(k, { ...deeper, use: k.id === node.childForFieldName("type")?.id ? "type" : "value" });
        }
        return;
      }
      case "macro_invocation": {
        const m = node.childForFieldName("macro");
        if (m) usePath(m, deeper, "call");
        for (const k of namedChildren(node)) if (k.type === "token_tree") walkTokens(k, deeper, 0);
        return;
      }
      case "match_pattern":
      case "tuple_struct_pattern":
      case "struct_pattern":
        walkPattern(node, deeper);
        return;
      case "for_expression": {
        const pat = node.childForFieldName("pattern");
        if (pat) walkPattern(pat, deeper);
        for (const k of namedChildren(node)) if (k.id !== pat?.id) walk(k, { ...deeper, use: "value" });
        return;
      }
      case "let_condition": {
        const pat = node.childForFieldName("pattern");
        if (pat) walkPattern(pat, deeper);
        const v = node.childForFieldName("value");
        if (v) walk(v, { ...deeper, use: "value" });
        return;
      }
      case "type_arguments":
      case "bounded_type":
      case "trait_bounds":
      case "where_clause":
        walkChildren(node, { ...deeper, use: ctx.use === "inherit" ? "inherit" : "type" });
        return;
      default: {
        const typeish = /_type$/.test(node.type);
        walkChildren(node, { ...deeper, use: typeish ? "type" : ctx.use === "type" || ctx.use === "inherit" ? ctx.use : "value" });
      }
    }
  };

  /** In a pattern, lower-case identifiers bind; paths and upper-case names are uses (variants, constants). */
  const walkPattern = (node: SyntaxNode, ctx: Ctx, depth = 0): void => {
    if (depth > 50) return;
    if (node.type === "identifier") {
      if (/^[A-Z]/.test(node.text)) usePath(node, ctx, "value");
      return;
    }
    if (node.type === "scoped_identifier" || node.type === "type_identifier" || node.type === "scoped_type_identifier") {
      usePath(node, ctx, "value");
      return;
    }
    if (node.type === "field_identifier" || node.type === "shorthand_field_identifier") return;
    for (const k of namedChildren(node)) walkPattern(k, ctx, depth + 1);
  };

  /** Identifiers inside a macro's token tree: plain names are `value` uses, `.m` a member of an unknown receiver. */
  const walkTokens = (tree: SyntaxNode, ctx: Ctx, depth: number): void => {
    if (depth > 50) return;
    const kids = tree.children.filter((k): k is SyntaxNode => k !== null);
    kids.forEach((k, i) => {
      if (k.type === "token_tree") {
        walkTokens(k, ctx, depth + 1);
        return;
      }
      if (k.type !== "identifier") return;
      const prev = kids[i - 1];
      const next = kids[i + 1];
      const called = next?.type === "token_tree" && next.text.startsWith("(");
      if (prev?.type === ".") {
        const recv = kids[i - 2];
        const head = recv?.type === "identifier" || recv?.type === "self" ? recv.text : undefined;
        if (head !== undefined && kids[i - 3]?.type !== ".") pathUse([head, k.text], k, ctx, called ? "call" : "value");
        else c.use(["", k.text], k, called ? "call" : "value");
      }
      else if (prev?.type === "::") return;
      else {
        // `a::b::c` written in tokens: one path.
        const path = [k.text];
        let j = i + 1;
        while (kids[j]?.type === "::" && kids[j + 1]?.type === "identifier") {
          path.push((kids[j + 1] as SyntaxNode).text);
          j += 2;
        }
        const afterCall = kids[j]?.type === "token_tree" && (kids[j] as SyntaxNode).text.startsWith("(");
        if (!c.isLocal(k.text) || path.length > 1) pathUse(path, kids[j - 1] ?? k, ctx, afterCall ? "call" : "value");
      }
    });
  };

  walkChildren(root, { use: "value", depth: 0, mods: [] });
  return c.facts();
}

function lastPart(node: SyntaxNode): SyntaxNode {
  if (node.type === "scoped_identifier" || node.type === "scoped_type_identifier") return node.childForFieldName("name") ?? node;
  if (node.type === "generic_type" || node.type === "generic_function") return lastPart(node.childForFieldName("type") ?? node.childForFieldName("function") ?? node);
  return node;
}
