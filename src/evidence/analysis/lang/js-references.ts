/**
 * JavaScript, TypeScript and TSX: the name uses and import bindings of one file, for
 * `find_references` (one walker for the three grammars, whose node shapes agree; scoping per
 * ECMA-262 "Declarations and the Variable Statement" and "FunctionDeclarationInstantiation").
 *
 * - **Locals** (which hide a top-level name): parameters and everything a function body declares
 *   (`var`/`let`/`const` declarators and their destructuring patterns, nested `function`/`class`
 *   declarations, `catch` parameters, `for … of/in` bindings), counted for the whole function —
 *   a block-scoped name shadows through the function, a simplification. Top-level declarations are
 *   the file's definitions, not locals.
 * - **Uses**: identifiers and member paths (`a.b.c`, `this.m`; every prefix implied) in
 *   expressions, template substitutions, JSX element names, closing tags too (`call`), calls and `new` (`call`),
 *   type positions (`type`: annotations, type arguments, `typeof X` in a type), `extends`/
 *   `implements` (`inherit`), import and export clauses (`import`), `export default x` and object
 *   shorthand `{ f }` (`value`). Strings, comments and property keys give none.
 * - **Receivers**: `this` inside a class method (or an arrow function within one) carries the
 *   class; a local bound by `new C()` or declared `x: C` (variable or parameter) carries `C`.
 *   Inside a method of a class declared in a function (`class DraftMap extends Map` in a plugin's
 *   `enable()`), `this.m` is led by that declaration (`NameUse.localDef`, its first line): the
 *   class has no qualified name in the file, but `m` can only be its member (or an inherited one).
 *   This holds in every method, computed names (`[Symbol.iterator]()`) included. A local bound by
 *   `const x = f(…)` (`m.f(…)`, `this.get(…)`) and the receiver of `f(…).m` carry the call
 *   (`NameUse.receiverCall`): its type is the callee's declared return type (`function f(): C`,
 *   `m(): C` in a class, `const f = (): C => …`; also `C | null | undefined`), recorded in
 *   `ReferenceFacts.returns` for top-level functions and methods of top-level classes.
 * - **Bindings**: `import d, { f as g } from "m"` (`d` → member `default`, `g` → member `f`),
 *   `import * as ns` (the module), `import x = require("m")`, `const x = require("m")`,
 *   `const { f, g: h } = require("m")`, and re-exports `export { f as g } from "m"`,
 *   `export * from "m"` (a wildcard), `export * as ns from "m"`. `export { a as b }` and
 *   `export default a` give export aliases.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, UseKind } from "./language.js";
import { literalValue } from "./js-family.js";
import { ReferenceCollector } from "./reference-walk.js";
import { namedChildren, walkNodes } from "./syntax.js";
import { namePath, type NameStep } from "./name-path.js";

const MAX_DEPTH = 400;

const FUNCTIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "function",
  "generator_function",
  "arrow_function",
  "method_definition",
]);
const CLASSES = new Set(["class_declaration", "abstract_class_declaration", "class"]);
/** Node types of type positions: an identifier below one is a `type` use. */
const TYPE_NODES = new Set(["type_annotation", "type_arguments", "type_alias_declaration", "constraint", "type_parameters", "opting_type_annotation", "asserts_annotation"]);

/** The path of an `identifier`/`this`/`member_expression`/`nested_identifier` chain, or `undefined`. */
function memberPath(node: SyntaxNode): string[] | undefined {
  return namePath(node, jsStep);
}

function jsStep(n: SyntaxNode): NameStep {
  switch (n.type) {
    case "identifier":
    case "type_identifier":
    case "this":
    case "shorthand_property_identifier":
      return { head: n.text };
    case "member_expression": {
      const prop = n.childForFieldName("property");
      return prop === null || prop.type === "private_property_identifier" ? undefined : { part: prop.text, next: n.childForFieldName("object") };
    }
    case "nested_identifier":
    case "nested_type_identifier": {
      const kids = namedChildren(n);
      const last = kids[kids.length - 1];
      return last === undefined || kids.length < 2 ? undefined : { part: last.text, next: kids[0] ?? null };
    }
    case "generic_type":
      return { through: n.childForFieldName("name") ?? namedChildren(n)[0] ?? null };
    default:
      return undefined;
  }
}

/** Names a binding pattern binds (`a`, `{a, b: c}`, `[a, ...b]`, `a = 1`). */
function patternNames(node: SyntaxNode | null, out: Set<string>, depth = 0): void {
  if (node === null || depth > 50) return;
  switch (node.type) {
    case "identifier":
    case "shorthand_property_identifier_pattern":
      out.add(node.text);
      return;
    case "pair_pattern":
      patternNames(node.childForFieldName("value"), out, depth + 1);
      return;
    case "assignment_pattern":
    case "object_assignment_pattern":
      patternNames(node.childForFieldName("left"), out, depth + 1);
      return;
    case "required_parameter":
    case "optional_parameter":
      patternNames(node.childForFieldName("pattern"), out, depth + 1);
      return;
    default:
      for (const c of namedChildren(node)) {
        if (c.type === "type_annotation" || c.type === "property_identifier") continue;
        if (node.type === "object_pattern" || node.type === "array_pattern" || node.type === "rest_pattern" || node.type === "formal_parameters") patternNames(c, out, depth + 1);
      }
  }
}

/**
 * Everything a function binds: parameters and its body's declarations, not entering nested
 * functions; `defs` receives the first line of each nested function or class declaration.
 */
function functionLocals(fn: SyntaxNode, defs: Map<string, number> = new Map()): Set<string> {
  const locals = new Set<string>();
  const params = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
  if (params) patternNames(params, locals);
  const body = fn.childForFieldName("body");
  if (!body) return locals;
  walkNodes([body], (n) => {
    if (n !== body && (FUNCTIONS.has(n.type) || CLASSES.has(n.type))) {
      const name = n.childForFieldName("name");
      if (name && n.type.endsWith("_declaration")) {
        locals.add(name.text);
        defs.set(name.text, n.startPosition.row + 1);
      }
      return "skip";
    }
    switch (n.type) {
      case "variable_declarator":
        patternNames(n.childForFieldName("name"), locals);
        break;
      case "catch_clause":
        patternNames(n.childForFieldName("parameter"), locals);
        break;
      case "for_in_statement":
        patternNames(n.childForFieldName("left"), locals);
        break;
      case "string":
      case "comment":
        return "skip";
      default:
    }
  });
  return locals;
}

/** `C` of `new C(…)` (also parenthesized, `(new C()).m`), as a path. */
function constructedClass(value: SyntaxNode | null): string[] | undefined {
  let v = value;
  while (v?.type === "parenthesized_expression") v = v.firstNamedChild;
  if (v?.type !== "new_expression") return undefined;
  const ctor = v.childForFieldName("constructor");
  return ctor ? memberPath(ctor) : undefined;
}

/** `C` of `new C()` / `x: C`, as a path. */
function typeOfDeclarator(d: SyntaxNode): string[] | undefined {
  const value = d.childForFieldName("value");
  if (value?.type === "new_expression") {
    const ctor = value.childForFieldName("constructor");
    if (ctor) return memberPath(ctor);
  }
  const ann = d.childForFieldName("type");
  const t = ann?.firstNamedChild;
  return t ? memberPath(t) : undefined;
}

/**
 * The function a call `value` calls (see the module comment): a name or member path not led by a
 * local; `this.m(…)` inside a class (`self`: its qualified name). `undefined` for anything else.
 */
function calledFunction(c: ReferenceCollector, value: SyntaxNode | null, self: string | undefined): { path: string[]; selfClass?: string } | undefined {
  let v = value;
  while (v?.type === "parenthesized_expression" || v?.type === "await_expression" || v?.type === "non_null_expression") v = v.firstNamedChild;
  if (v?.type !== "call_expression") return undefined;
  const fn = v.childForFieldName("function");
  const path = fn ? memberPath(fn) : undefined;
  const head = path?.[0];
  if (path === undefined || head === undefined) return undefined;
  if (head === "this") return self !== undefined && path.length === 2 ? { path, selfClass: self } : undefined;
  return c.isLocal(head) ? undefined : { path };
}

/** The class a return type annotation names: one name or dotted path, alone or with `null`/`undefined` (`C | undefined`). */
function returnedType(annotation: SyntaxNode | null): string[] | undefined {
  const t = annotation?.type === "type_annotation" ? annotation.firstNamedChild : annotation;
  if (t === null || t === undefined) return undefined;
  if (t.type === "union_type") {
    const kinds = namedChildren(t).filter((k) => !/^(null|undefined)$/.test(k.text));
    return kinds.length === 1 ? returnedType(kinds[0] as SyntaxNode) : undefined;
  }
  return t.type === "type_identifier" || t.type === "nested_type_identifier" ? memberPath(t) : undefined;
}

/** `C.prototype.m = function …` (anywhere): the function is method `m` of `C`, and `this` in it is a `C`. */
function prototypeMethod(fn: SyntaxNode): { owner: string; name: string } | undefined {
  if (fn.type !== "function_expression" && fn.type !== "generator_function") return undefined;
  const assign = fn.parent;
  if (assign?.type !== "assignment_expression" || assign.childForFieldName("right")?.id !== fn.id) return undefined;
  const left = assign.childForFieldName("left");
  const object = left?.type === "member_expression" ? left.childForFieldName("object") : null;
  if (object?.type !== "member_expression" || object.childForFieldName("property")?.text !== "prototype") return undefined;
  const owner = object.childForFieldName("object");
  const name = left?.childForFieldName("property")?.text;
  return owner?.type === "identifier" && name !== undefined ? { owner: owner.text, name } : undefined;
}

interface Ctx {
  /** Enclosing classes and namespaces, outermost first (the container chain of definitions). */
  chain: string[];
  /** The class `this` stands for, when known. */
  self?: string;
  /** The first line of the class declared in a function that `this` stands for (see the module comment). */
  selfLocal?: number;
  use: UseKind;
  depth: number;
}

/** Extracts {@link ReferenceFacts} from a JavaScript, TypeScript or TSX `program` tree (see the module comment). */
export function extractJsReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector();

  const usePath = (node: SyntaxNode, ctx: Ctx, use: UseKind, constructs = false): boolean => {
    const path = memberPath(node);
    if (path === undefined) return false;
    const head = path[0] as string;
    const last = lastPart(node);
    if (head === "this") {
      if (path.length > 1) c.use(path, last, use, ctx.selfLocal !== undefined ? { localDef: ctx.selfLocal } : ctx.self !== undefined ? { selfClass: ctx.self } : {});
      return true;
    }
    if (c.isLocal(head)) {
      const type = c.typeOf(head);
      const localDef = c.localDefOf(head);
      if (localDef !== undefined) c.use(path, last, use, { localDef, constructs });
      else if (path.length > 1) c.use(type ? path : ["", ...path.slice(1)], last, use, type ? { receiverType: type } : { receiverCall: c.callOf(head) });
      return true;
    }
    const type = path.length > 1 ? c.typeOf(head) : undefined;
    c.use(path, last, use, { constructs, ...(type ? { receiverType: type } : path.length > 1 ? { receiverCall: c.callOf(head) } : {}) });
    return true;
  };

  const walkChildren = (node: SyntaxNode, ctx: Ctx) => {
    for (const child of namedChildren(node)) walk(child, ctx);
  };

  const walkFunction = (fn: SyntaxNode, ctx: Ctx) => {
    const nameNode = fn.childForFieldName("name");
    let name = nameNode?.text;
    if (name === undefined && fn.parent?.type === "variable_declarator") name = fn.parent.childForFieldName("name")?.text;
    const isMethod = fn.type === "method_definition";
    const proto = prototypeMethod(fn);
    const qualified =
      proto !== undefined
        ? `${proto.owner}.${proto.name}`
        : name === undefined || (!isMethod && c.inFunction && fn.type !== "function_declaration") ? undefined : isMethod && ctx.chain.length > 0 ? `${ctx.chain.join(".")}.${name}` : name;
    const params = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
    // Defaults and annotations of parameters, and the return type.
    for (const p of params ? namedChildren(params) : []) {
      const type = p.childForFieldName("type");
      if (type) walk(type, { ...ctx, use: "type" });
      const value = p.childForFieldName("value");
      if (value) walk(value, { ...ctx, use: "value" });
      for (const d of namedChildren(p)) if (d.type === "decorator") walkChildren(d, { ...ctx, use: "call" });
    }
    const ret = fn.childForFieldName("return_type");
    if (ret) walk(ret, { ...ctx, use: "type" });
    const returned = qualified !== undefined && proto === undefined && !c.inFunction ? returnedType(ret) : undefined;
    if (returned !== undefined) c.returns.push({ name: qualified as string, type: returned });
    if (qualified) c.pushContext(qualified);
    const defs = new Map<string, number>();
    const scope = c.pushScope("function", functionLocals(fn, defs), defs);
    for (const p of params ? namedChildren(params) : []) {
      const pat = p.childForFieldName("pattern");
      const t = p.childForFieldName("type")?.firstNamedChild;
      const tp = t ? memberPath(t) : undefined;
      if (pat?.type === "identifier" && tp) scope.types.set(pat.text, tp);
    }
    // `this`: the class for methods and arrow functions in them; unknown in other functions.
    const self = isMethod ? (ctx.chain.length > 0 ? ctx.chain.join(".") : undefined) : proto !== undefined ? proto.owner : fn.type === "arrow_function" ? ctx.self : undefined;
    const body = fn.childForFieldName("body");
    const selfLocal = isMethod || fn.type === "arrow_function" ? ctx.selfLocal : undefined;
    const inner: Ctx = { chain: [], use: "value", depth: ctx.depth + 1, ...(self !== undefined ? { self } : {}), ...(selfLocal !== undefined ? { selfLocal } : {}) };
    if (body) {
      if (body.type === "statement_block") walkChildren(body, inner);
      else walk(body, inner);
    }
    c.popScope();
    if (qualified) c.popContext();
  };

  const walkClass = (cls: SyntaxNode, ctx: Ctx) => {
    let name = cls.childForFieldName("name")?.text;
    if (name === undefined && cls.parent?.type === "variable_declarator") name = cls.parent.childForFieldName("name")?.text;
    const chain = name ? [...ctx.chain, name] : ctx.chain;
    const bases: string[][] = [];
    for (const k of namedChildren(cls)) {
      if (k.type === "decorator") walkChildren(k, { ...ctx, use: "call" });
      if (k.type !== "class_heritage") continue;
      for (const clause of namedChildren(k)) {
        for (const b of namedChildren(clause)) {
          const p = memberPath(b.type === "expression" ? (b.firstNamedChild ?? b) : b);
          if (p && !c.isLocal(p[0] as string)) bases.push(p);
          walk(b, { ...ctx, use: "inherit" });
        }
      }
    }
    if (name && !c.inFunction) c.classes.push({ name: chain.join("."), bases });
    const body = cls.childForFieldName("body");
    if (!body) return;
    if (name && !c.inFunction) c.pushContext(chain.join("."));
    // A class declared in a function: `this` in its methods is led by the declaration (`functionLocals` keeps its first line).
    const selfLocal = c.inFunction && cls.type !== "class" && name !== undefined ? cls.startPosition.row + 1 : undefined;
    for (const member of namedChildren(body))
      walk(member, { chain: name && !c.inFunction ? chain : ctx.chain, self: chain.join("."), use: "value", depth: ctx.depth + 1, ...(selfLocal !== undefined ? { selfLocal } : {}) });
    if (name && !c.inFunction) c.popContext();
  };

  const bindImportClause = (clause: SyntaxNode, specifier: string, line: number) => {
    for (const part of namedChildren(clause)) {
      if (part.type === "identifier") c.bind({ local: part.text, specifier, member: "default", line }, part);
      else if (part.type === "namespace_import") {
        const id = namedChildren(part).find((n) => n.type === "identifier");
        if (id) c.bind({ local: id.text, specifier, line }, id, true);
      } else if (part.type === "named_imports") {
        for (const s of namedChildren(part)) {
          if (s.type !== "import_specifier") continue;
          const nameNode = s.childForFieldName("name");
          const alias = s.childForFieldName("alias");
          if (!nameNode) continue;
          const member = nameNode.type === "string" ? (literalValue(nameNode) ?? nameNode.text) : nameNode.text;
          c.bind({ local: alias?.text ?? member, specifier, member, line }, nameNode);
        }
      }
    }
  };

  const walkImport = (stmt: SyntaxNode) => {
    const source = stmt.childForFieldName("source");
    const line = stmt.startPosition.row + 1;
    const requireClause = namedChildren(stmt).find((n) => n.type === "import_require_clause");
    if (requireClause) {
      const src = requireClause.childForFieldName("source");
      const id = namedChildren(requireClause).find((n) => n.type === "identifier");
      const spec = src ? literalValue(src) : undefined;
      if (id && spec !== undefined) c.bind({ local: id.text, specifier: spec, line }, id, true);
      return;
    }
    const spec = source ? literalValue(source) : undefined;
    if (spec === undefined) return;
    for (const k of namedChildren(stmt)) if (k.type === "import_clause") bindImportClause(k, spec, line);
  };

  const walkExport = (stmt: SyntaxNode, ctx: Ctx) => {
    const source = stmt.childForFieldName("source");
    const line = stmt.startPosition.row + 1;
    if (source) {
      const spec = literalValue(source);
      if (spec === undefined) return;
      let any = false;
      for (const k of namedChildren(stmt)) {
        if (k.type === "export_clause") {
          any = true;
          for (const s of namedChildren(k)) {
            if (s.type !== "export_specifier") continue;
            const nameNode = s.childForFieldName("name");
            const alias = s.childForFieldName("alias");
            if (nameNode) c.bind({ local: alias?.text ?? nameNode.text, specifier: spec, member: nameNode.text, line }, nameNode);
          }
        } else if (k.type === "namespace_export") {
          any = true;
          const id = namedChildren(k).find((n) => n.type === "identifier");
          if (id) c.bind({ local: id.text, specifier: spec, line }, id, true);
        }
      }
      if (!any) c.bind({ local: "*", specifier: spec, member: "*", line }, stmt, true);
      return;
    }
    for (const k of namedChildren(stmt)) {
      if (k.type === "export_clause") {
        for (const s of namedChildren(k)) {
          if (s.type !== "export_specifier") continue;
          const nameNode = s.childForFieldName("name");
          const alias = s.childForFieldName("alias");
          if (!nameNode) continue;
          if (alias && alias.text !== nameNode.text) c.exportAliases.push({ exported: alias.text, local: nameNode.text });
          if (!c.isLocal(nameNode.text)) c.use([nameNode.text], nameNode, "import");
        }
        continue;
      }
      if (k.type === "decorator") {
        walkChildren(k, { ...ctx, use: "call" });
        continue;
      }
      // `export default <declaration or expression>`, `export <declaration>`
      const isDefault = stmt.children.some((ch) => ch !== null && !ch.isNamed && ch.type === "default");
      if (isDefault) {
        const n = k.type === "identifier" ? k.text : k.childForFieldName("name")?.text;
        if (n !== undefined && (k.type === "identifier" || FUNCTIONS.has(k.type) || CLASSES.has(k.type))) c.exportAliases.push({ exported: "default", local: n });
      }
      walk(k, ctx);
    }
  };

  const walk = (node: SyntaxNode, ctx: Ctx): void => {
    if (ctx.depth > MAX_DEPTH) return;
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1 };
    const t = node.type;
    if (FUNCTIONS.has(t)) {
      walkFunction(node, deeper);
      return;
    }
    if (CLASSES.has(t)) {
      walkClass(node, deeper);
      return;
    }
    if (TYPE_NODES.has(t)) {
      walkChildren(node, { ...deeper, use: "type" });
      return;
    }
    switch (t) {
      case "comment":
      case "string":
      case "regex":
      case "property_identifier":
      case "statement_identifier":
        return;
      case "template_string":
        for (const k of namedChildren(node)) if (k.type === "template_substitution") walkChildren(k, { ...deeper, use: "value" });
        return;
      case "import_statement":
        walkImport(node);
        return;
      case "export_statement":
        walkExport(node, deeper);
        return;
      case "identifier":
      case "type_identifier":
      case "shorthand_property_identifier":
      case "this":
      case "nested_identifier":
      case "nested_type_identifier":
        usePath(node, ctx, ctx.use);
        return;
      case "member_expression":
        walkMember(node, deeper, ctx.use);
        return;
      case "call_expression": {
        const fn = node.childForFieldName("function");
        if (fn?.type === "identifier" && fn.text === "require") return; // an import (bindings come from the declarator)
        if (fn?.type === "import") return;
        if (fn?.type === "member_expression") walkMember(fn, deeper, "call");
        else if (fn && !usePath(fn, deeper, "call")) walk(fn, { ...deeper, use: "value" });
        for (const k of namedChildren(node)) if (k.id !== fn?.id) walk(k, { ...deeper, use: "value" });
        return;
      }
      case "new_expression": {
        const ctor = node.childForFieldName("constructor");
        if (ctor?.type === "member_expression") walkMember(ctor, deeper, "call", true);
        else if (ctor && !usePath(ctor, deeper, "call", true)) walk(ctor, { ...deeper, use: "value" });
        for (const k of namedChildren(node)) if (k.id !== ctor?.id) walk(k, { ...deeper, use: "value" });
        return;
      }
      case "jsx_opening_element":
      case "jsx_self_closing_element": {
        const name = node.childForFieldName("name");
        if (name && /^[A-Z]/.test(name.text.split(".").pop() ?? "")) usePath(name, deeper, "call");
        for (const k of namedChildren(node)) if (k.id !== name?.id) walk(k, { ...deeper, use: "value" });
        return;
      }
      case "jsx_closing_element": {
        // `</Button>` names the component again (the TypeScript service lists it as a reference).
        const name = node.childForFieldName("name");
        if (name && /^[A-Z]/.test(name.text.split(".").pop() ?? "")) usePath(name, deeper, "call");
        return;
      }
      case "jsx_attribute":
        for (const k of namedChildren(node).slice(1)) walk(k, { ...deeper, use: "value" });
        return;
      case "variable_declarator": {
        const name = node.childForFieldName("name");
        const value = node.childForFieldName("value");
        const type = node.childForFieldName("type");
        if (value?.type === "call_expression" && value.childForFieldName("function")?.text === "require") {
          bindRequire(node, name, value);
          return;
        }
        if (name?.type === "identifier") {
          const tp = typeOfDeclarator(node);
          const call = tp === undefined ? calledFunction(c, value, ctx.self) : undefined;
          if (tp && !(tp.length === 1 && c.isLocal(tp[0] as string))) c.bindType(name.text, tp);
          else if (call !== undefined) c.bindCall(name.text, call);
        } else if (name) walkPatternDefaults(name, deeper);
        if (type) walk(type, { ...deeper, use: "type" });
        if (value) walk(value, { ...deeper, use: "value" });
        return;
      }
      case "pair": {
        const v = node.childForFieldName("value");
        const k = node.childForFieldName("key");
        if (k?.type === "computed_property_name") walk(k, { ...deeper, use: "value" });
        if (v) walk(v, { ...deeper, use: "value" });
        return;
      }
      case "public_field_definition":
      case "field_definition": {
        for (const k of namedChildren(node)) {
          if (k.type === "property_identifier" || k.type === "private_property_identifier") continue;
          walk(k, { ...deeper, use: k.type === "type_annotation" ? "type" : "value" });
        }
        return;
      }
      case "extends_type_clause":
      case "implements_clause":
      case "extends_clause":
        walkChildren(node, { ...deeper, use: "inherit" });
        return;
      case "interface_declaration":
      case "type_alias_declaration":
      case "enum_declaration":
      case "internal_module":
      case "module": {
        const name = node.childForFieldName("name");
        const inner: UseKind = t === "interface_declaration" || t === "type_alias_declaration" ? "type" : "value";
        for (const k of namedChildren(node)) if (k.id !== name?.id) walk(k, { ...deeper, use: k.type === "extends_type_clause" ? "inherit" : inner });
        return;
      }
      case "enum_body":
        for (const k of namedChildren(node)) {
          if (k.type === "enum_assignment") {
            const v = k.childForFieldName("value");
            if (v) walk(v, { ...deeper, use: "value" });
          }
        }
        return;
      case "labeled_statement":
      case "break_statement":
      case "continue_statement":
        for (const k of namedChildren(node)) if (k.type !== "statement_identifier") walk(k, deeper);
        return;
      default:
        walkChildren(node, { ...deeper, use: ctx.use === "type" || ctx.use === "inherit" ? ctx.use : "value" });
    }
  };

  /** Defaults inside a destructuring pattern are expressions. */
  const walkPatternDefaults = (pattern: SyntaxNode, ctx: Ctx, depth = 0): void => {
    if (depth > 50) return;
    for (const k of namedChildren(pattern)) {
      if (k.type === "assignment_pattern" || k.type === "object_assignment_pattern") {
        const right = k.childForFieldName("right");
        if (right) walk(right, { ...ctx, use: "value" });
      } else walkPatternDefaults(k, ctx, depth + 1);
    }
  };

  const bindRequire = (decl: SyntaxNode, name: SyntaxNode | null, call: SyntaxNode) => {
    const args = call.childForFieldName("arguments");
    const arg = args ? namedChildren(args).find((n) => n.type !== "comment") : undefined;
    const spec = arg ? literalValue(arg) : undefined;
    if (spec === undefined || name === null) return;
    const line = decl.startPosition.row + 1;
    if (name.type === "identifier") {
      if (!c.inFunction) c.bind({ local: name.text, specifier: spec, line }, name, true);
      return;
    }
    if (name.type !== "object_pattern") return;
    for (const p of namedChildren(name)) {
      if (p.type === "shorthand_property_identifier_pattern") c.bind({ local: p.text, specifier: spec, member: p.text, line }, p);
      else if (p.type === "pair_pattern") {
        const key = p.childForFieldName("key");
        const value = p.childForFieldName("value");
        if (key && value?.type === "identifier") c.bind({ local: value.text, specifier: spec, member: key.text, line }, key);
      }
    }
  };

  /**
   * `a.b.c` is one path use; `new C().m` walks `new C()` and uses `m` of class `C` (unless `C` is
   * a local variable); `f().m` walks `f()` and uses `m` of an unknown receiver.
   */
  const walkMember = (node: SyntaxNode, ctx: Ctx, use: UseKind, constructs = false): void => {
    if (usePath(node, ctx, use, constructs)) return;
    const obj = node.childForFieldName("object");
    const prop = node.childForFieldName("property");
    if (obj) walk(obj, { ...ctx, use: "value" });
    if (prop?.type !== "property_identifier") return;
    const type = constructedClass(obj);
    const head = type?.[0];
    const localDef = head !== undefined ? c.localDefOf(head) : undefined;
    if (type === undefined || head === undefined || (c.isLocal(head) && localDef === undefined)) c.use(["", prop.text], prop, use, { receiverCall: calledFunction(c, obj, ctx.self) });
    else c.use([...type, prop.text], prop, use, { from: type.length, ...(localDef !== undefined ? { localDef } : {}) });
  };

  walkChildren(root, { chain: [], use: "value", depth: 0 });
  return c.facts();
}

/** The node of a path's last part (its line is the use's line). */
function lastPart(node: SyntaxNode): SyntaxNode {
  if (node.type === "member_expression") return node.childForFieldName("property") ?? node;
  if (node.type === "nested_identifier" || node.type === "nested_type_identifier") {
    const kids = namedChildren(node);
    return kids[kids.length - 1] ?? node;
  }
  return node;
}
