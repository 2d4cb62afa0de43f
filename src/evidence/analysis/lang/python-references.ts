/**
 * Python: the name uses and import bindings of one file, for `find_references`
 * (tree-sitter-python 0.25 grammar; scoping per the Python Language Reference, "Execution model —
 * Resolution of names").
 *
 * - **Locals** (which hide a module-level name of the same spelling): parameters, names assigned
 *   anywhere in the function (`=`, augmented and annotated assignment, `:=`, `for`/`with`/`except`
 *   targets, `del`), nested `def`/`class` names, unless declared `global`/`nonlocal`; lambda
 *   parameters and comprehension variables in their own scope. Names bound in a class body are
 *   seen only from the class body itself, not from its methods. Names an import binds inside a
 *   function are not locals: they are bindings, resolved like the file's other imports.
 * - **Uses**: identifiers and dotted paths (`a.b.c`, one use per path, every prefix implied) in
 *   expressions, f-string interpolations, decorators (`call`), annotations (`type`), base classes
 *   (`inherit`). Strings, comments and docstrings give none.
 * - **Receivers**: `self`/`cls` (the first parameter of a function defined directly in a class,
 *   unless `@staticmethod`) carry the class; a local bound by `x = C(...)`/`x = m.C(...)` (a
 *   CapWords callee) or annotated `x: C` carries that type. A name bound by `x = f(...)`
 *   (`m.f(...)`, `self.get(...)`) and the receiver of `f(...).m` carry the call
 *   (`NameUse.receiverCall`): its type is the callee's declared return type (PEP 484/3107
 *   annotations: `-> C`, `-> "C"`, `-> m.C`, `-> C | None`, `-> Optional[C]`), recorded in
 *   `ReferenceFacts.returns` for top-level functions and methods of top-level classes.
 * - **pytest fixtures**: a parameter of a function named `test…` or decorated `@pytest.fixture`
 *   (not `self`/`cls`, not one with a default, not one `@pytest.mark.parametrize` names: direct
 *   parametrization overrides a fixture), and its uses in that function's body, name
 *   the fixture of that name (`NameUse.fixture`); top-level fixtures are listed in
 *   `ReferenceFacts.fixtures` (pytest "How to use fixtures", "conftest.py").
 * - **Bindings**: `import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`; `from X import y
 *   as z` binds `z` to member `y` of `X`; `from X import *` is a wildcard.
 *
 * The walk reads a JavaScript copy of the tree made with one tree cursor (`plain-tree.ts`, as the
 * C/C++ walk does), not the parser's nodes: each question to one of those (children, a field, a
 * type, a position) is a call into the WASM module, several per node of the tree.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, UseKind } from "./language.js";
import { plainTree, type PlainNode, type PlainTreeOptions } from "./plain-tree.js";
import { ReferenceCollector } from "./reference-walk.js";

/** Deepest nesting walked. */
const MAX_DEPTH = 400;

/**
 * What the walk reads of the tree (`plain-tree.ts`): no anonymous node outside a field (it reads
 * the `operator` of a `binary_operator`), nothing inside a comment or a string's text parts, and of
 * a string only its own text and its `interpolation`s, which only an f-string (or t-string, PEP
 * 750) has: a string whose prefix (the letters before its quote) has no `f` or `t` is copied
 * without its children.
 */
const COPY: PlainTreeOptions = {
  namedOnly: true,
  leaves: (n) => n.type === "comment" || n.type === "string_content" || (n.type === "string" && !/^[A-Za-z]*[fFtT]/.test(n.text)),
};

/** The first named child of `node`, or null (web-tree-sitter's `Node.firstNamedChild`). */
function firstNamed(node: PlainNode): PlainNode | null {
  return node.namedChildren[0] ?? null;
}

/**
 * The path of an `identifier`/`attribute` chain (`a.b.c` → `["a","b","c"]`), or `undefined`;
 * `nodeType` is the type of `node` when the caller read it already.
 */
function attributePath(node: PlainNode, nodeType?: string): string[] | undefined {
  const parts: string[] = [];
  let n: PlainNode | null = node;
  for (let i = 0; n !== null && i < 64; i++) {
    const type = i === 0 && nodeType !== undefined ? nodeType : n.type;
    if (type === "identifier") {
      parts.unshift(n.text);
      return parts;
    }
    if (type !== "attribute") return undefined;
    const attr = n.childForFieldName("attribute");
    if (attr === null) return undefined;
    parts.unshift(attr.text);
    n = n.childForFieldName("object");
  }
  return undefined;
}

/** Identifiers bound by an assignment target (`a`, `a, b`, `[a, *b]`); attributes and subscripts bind nothing. */
function targetNames(node: PlainNode | null, out: Set<string>, depth = 0): void {
  if (node === null || depth > 50) return;
  switch (node.type) {
    case "identifier":
      out.add(node.text);
      return;
    case "pattern_list":
    case "tuple_pattern":
    case "list_pattern":
    case "list_splat_pattern":
    case "tuple":
    case "list":
    case "parenthesized_expression":
    case "as_pattern_target":
      for (const c of node.namedChildren) targetNames(c, out, depth + 1);
      return;
    default:
  }
}

/** Names bound by parameters (`a`, `a: T`, `a=1`, `*a`, `**k`). */
function parameterNames(params: PlainNode | null): string[] {
  if (params === null) return [];
  const out: string[] = [];
  for (const p of params.namedChildren) {
    if (p.type === "identifier") out.push(p.text);
    else if (p.type === "default_parameter" || p.type === "typed_default_parameter") {
      const n = p.childForFieldName("name");
      if (n) out.push(n.text);
    } else if (p.type === "typed_parameter" || p.type === "list_splat_pattern" || p.type === "dictionary_splat_pattern") {
      const n = p.namedChildren.find((c) => c.type === "identifier");
      if (n) out.push(n.text);
    }
  }
  return out;
}

/**
 * Nodes of a function body whose insides bind no name of the function: nested scopes (their own
 * `def`/`class` name is bound), decorators of a nested definition, literals, and `global`/`nonlocal`
 * (read for the names they declare). Imports and comments hold no binding node.
 */
const OPAQUE: ReadonlySet<string> = new Set([
  "function_definition", "class_definition", "decorator", "lambda", "list_comprehension", "set_comprehension",
  "dictionary_comprehension", "generator_expression", "string", "global_statement", "nonlocal_statement",
]);

/** Nodes that bind the names of their targets. */
const BINDERS: ReadonlySet<string> = new Set(["assignment", "augmented_assignment", "named_expression", "for_statement", "as_pattern", "except_clause", "delete_statement"]);

/**
 * The names a function body binds (see the module comment), not entering nested scopes (whose
 * `def`/`class` names are bound here; `defs` gets the first line of the first one of each name).
 * One walk of the body that does not descend into the {@link OPAQUE} nodes; the names of nested
 * definitions are added first, then those of the binding nodes, each in document order.
 */
function functionLocals(body: PlainNode, defs: Map<string, number> = new Map()): Set<string> {
  const locals = new Set<string>();
  const declared = new Set<string>();
  const binders: PlainNode[] = [];
  const stack: PlainNode[] = [];
  const pushChildren = (n: PlainNode) => {
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as PlainNode);
  };
  pushChildren(body);
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    const type = n.type;
    if (OPAQUE.has(type)) {
      if (type === "function_definition" || type === "class_definition") {
        const name = n.childForFieldName("name");
        if (name) {
          locals.add(name.text);
          const outer = n.parent?.type === "decorated_definition" ? n.parent : n;
          if (!defs.has(name.text)) defs.set(name.text, outer.startPosition.row + 1);
        }
      } else if (type === "global_statement" || type === "nonlocal_statement") {
        for (const c of n.namedChildren) if (c.type === "identifier") declared.add(c.text);
      }
      continue;
    }
    if (BINDERS.has(type)) binders.push(n);
    pushChildren(n);
  }
  for (const n of binders) {
    switch (n.type) {
      case "assignment":
      case "augmented_assignment":
        targetNames(n.childForFieldName("left"), locals);
        break;
      case "named_expression":
        targetNames(n.childForFieldName("name"), locals);
        break;
      case "for_statement":
        targetNames(n.childForFieldName("left"), locals);
        break;
      case "as_pattern":
        targetNames(n.childForFieldName("alias"), locals);
        break;
      case "except_clause": {
        // `except E as e` (older grammars: identifier after `as`)
        const kids = n.namedChildren;
        const asPat = kids.find((k) => k.type === "as_pattern");
        if (asPat === undefined && kids.length >= 2 && kids[1]?.type === "identifier") locals.add(kids[1].text);
        break;
      }
      case "delete_statement":
        for (const c of n.namedChildren) targetNames(c, locals);
        break;
      default:
    }
  }
  for (const d of declared) locals.delete(d);
  return locals;
}

/**
 * The callee path of `C(...)`/`m.C(...)` when `value` is such a call and the callee is named like a
 * class (CapWords, PEP 8 "Class Names"); `x = get()` gives no type.
 */
function constructedType(value: PlainNode | null): string[] | undefined {
  if (value?.type !== "call") return undefined;
  const fn = value.childForFieldName("function");
  const path = fn ? attributePath(fn) : undefined;
  return path !== undefined && /^_*[A-Z]/.test(path[path.length - 1] as string) ? path : undefined;
}

/**
 * The function a call `value` calls, as {@link NameUse.receiverCall}: a name or dotted path not led
 * by a local other than `self` (`make()`, `mod.make()`, `self.get()`); `undefined` for anything
 * else (a CapWords callee is a class: {@link constructedType}).
 */
function calledFunction(c: ReferenceCollector<PlainNode>, value: PlainNode | null, self: { name: string; cls: string } | undefined): { path: string[]; selfClass?: string } | undefined {
  if (value?.type !== "call" || constructedType(value) !== undefined) return undefined;
  const fn = value.childForFieldName("function");
  const path = fn ? attributePath(fn) : undefined;
  const head = path?.[0];
  if (path === undefined || head === undefined) return undefined;
  if (self !== undefined && head === self.name && c.isLocal(head)) return path.length === 2 ? { path, selfClass: self.cls } : undefined;
  return c.isLocal(head) ? undefined : { path };
}

/**
 * The type a return annotation names (see the module comment): one class name or dotted path,
 * written plainly or in a string, alone or with `None` (`C | None`, `Optional[C]`).
 */
function returnedType(node: PlainNode | null, depth = 0): string[] | undefined {
  if (node === null || depth > 8) return undefined;
  switch (node.type) {
    case "type":
      return returnedType(firstNamed(node), depth + 1);
    case "identifier":
    case "attribute": {
      const p = attributePath(node);
      return p?.length === 1 && p[0] === "None" ? undefined : p;
    }
    case "string": {
      const text = node.text.replace(/^[rRbBuU]*(['"])(.*)\1$/s, "$2");
      return /^[A-Za-z_][\w.]*$/.test(text) ? text.split(".") : undefined;
    }
    case "binary_operator": {
      const sides = [node.childForFieldName("left"), node.childForFieldName("right")].filter((x) => x !== null && x.text !== "None");
      return sides.length === 1 && node.childForFieldName("operator")?.text === "|" ? returnedType(sides[0] as PlainNode, depth + 1) : undefined;
    }
    case "generic_type":
    case "subscript": {
      const head = node.type === "subscript" ? node.childForFieldName("value") : firstNamed(node);
      const args = node.type === "subscript" ? node.childrenForFieldName("subscript") : (node.namedChildren.at(-1) ?? node).namedChildren.map((x) => (x.type === "type" ? (firstNamed(x) ?? x) : x));
      const name = head?.text.split(".").pop();
      return name === "Optional" && args.length === 1 ? returnedType(args[0] as PlainNode, depth + 1) : undefined;
    }
    default:
      return undefined;
  }
}

/** The path written in an annotation `x: C` / `x: m.C` (not `list[C]`, not strings). */
function annotatedType(type: PlainNode | null): string[] | undefined {
  const inner = type?.type === "type" ? firstNamed(type) : type;
  return inner ? attributePath(inner) : undefined;
}

/**
 * The path and options of a use of member `name` of the value of `receiver`: `[...C, name]` from
 * part `C.length` on when the receiver constructs a class `C` (`C()`, as {@link constructedType})
 * that is not a local variable (a class declared in the enclosing function carries its line), else
 * `["", name]` (a receiver of unknown type).
 */
function memberOfCall(c: ReferenceCollector<PlainNode>, receiver: PlainNode | null, name: string): [string[], { from?: number; localDef?: number }] {
  const type = constructedType(receiver);
  const head = type?.[0];
  if (type === undefined || head === undefined) return [["", name], {}];
  const localDef = c.localDefOf(head);
  if (c.isLocal(head) && localDef === undefined) return [["", name], {}];
  return [[...type, name], { from: type.length, ...(localDef !== undefined ? { localDef } : {}) }];
}

/** `ctx` one level down (contexts are never changed once made). */
function down(ctx: Ctx): Ctx {
  return { ...ctx, depth: ctx.depth + 1 };
}

/** `ctx` one level down for a use of kind `use` (made for every node the walk passes through: no spread). */
function below(ctx: Ctx, use: UseKind): Ctx {
  return { classes: ctx.classes, self: ctx.self, inClassBody: ctx.inClassBody, use, depth: ctx.depth + 1 };
}

interface Ctx {
  /** Enclosing classes, outermost first, since the nearest function. */
  classes: string[];
  /** Name of `self`/`cls` in the current method and the class it stands for. */
  self?: { name: string; cls: string };
  /** Directly in a class body (not in a method). */
  inClassBody: boolean;
  use: UseKind;
  depth: number;
}

/** Extracts {@link ReferenceFacts} from a tree-sitter-python `module` tree (see the module comment). */
export function extractPythonReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector<PlainNode>({ parentsKnown: true });
  const fixtures: string[] = [];
  /** The fixture parameters of each function scope that has some. */
  const fixtureParams = new WeakMap<object, Set<string>>();

  /** A use of the path `node` writes (`nodeType`: the node's type when the caller read it already). */
  const usePath = (node: PlainNode, ctx: Ctx, use: UseKind, rangeNode?: PlainNode, nodeType: string = node.type): boolean => {
    const path = attributePath(node, nodeType);
    if (path === undefined) return false;
    const head = path[0] as string;
    const last = nodeType === "attribute" ? (c.field(node, "attribute") as PlainNode) : node;
    if (ctx.self !== undefined && head === ctx.self.name && c.isLocal(head)) {
      if (path.length > 1) c.use(path, last, use, { rangeNode, selfClass: ctx.self.cls });
      return true;
    }
    if (c.isLocal(head)) {
      const type = c.typeOf(head);
      const localDef = c.localDefOf(head);
      const scope = c.scopeOf(head);
      if (scope !== undefined && fixtureParams.get(scope)?.has(head) === true) c.use([head], path.length === 1 ? last : (node.type === "attribute" ? innermost(node) : node), use, { rangeNode, fixture: true });
      if (localDef !== undefined) c.use(path, last, use, { rangeNode, localDef });
      else if (path.length > 1) c.use(type ? path : ["", ...path.slice(1)], last, use, type ? { rangeNode, receiverType: type } : { rangeNode, receiverCall: c.callOf(head) });
      return true;
    }
    const type = path.length > 1 ? c.typeOf(head) : undefined;
    c.use(path, last, use, type ? { rangeNode, receiverType: type } : path.length > 1 ? { rangeNode, receiverCall: c.callOf(head) } : { rangeNode });
    return true;
  };

  const walkChildren = (node: PlainNode, ctx: Ctx) => {
    for (const child of c.children(node)) walk(child, ctx);
  };

  const walkFunction = (def: PlainNode, ctx: Ctx, decorators: PlainNode[]) => {
    const name = c.field(def, "name")?.text;
    const params = c.field(def, "parameters");
    const body = c.field(def, "body");
    // Defaults and annotations are evaluated in the enclosing scope.
    for (const p of params ? c.children(params) : []) {
      const type = c.field(p, "type");
      if (type) walk(type, { ...ctx, use: "type" });
      const value = c.field(p, "value");
      if (value) walk(value, { ...ctx, use: "value" });
    }
    const ret = c.field(def, "return_type");
    if (ret) walk(ret, { ...ctx, use: "type" });
    const paramNames = parameterNames(params);
    const direct = ctx.inClassBody;
    const isStatic = decorators.some((d) => /^@\s*staticmethod\b/.test(d.text));
    const qualified = name === undefined ? undefined : direct ? `${ctx.classes.join(".")}.${name}` : name;
    const isFixture = decorators.some((d) => /^@\s*(pytest\.)?fixture\b/.test(d.text) && !/\bname\s*=/.test(d.text));
    if (isFixture && name !== undefined && !direct && !c.inFunction) fixtures.push(name);
    const returned = qualified !== undefined && !c.inFunction ? returnedType(ret) : undefined;
    if (returned !== undefined) c.returns.push({ name: qualified as string, type: returned });
    if (qualified) c.pushContext(qualified);
    const defs = new Map<string, number>();
    const scope = c.pushScope("function", [...paramNames, ...(body ? functionLocals(body, defs) : [])], defs);
    for (const p of paramNames) scope.defs.delete(p);
    if (isFixture || name?.startsWith("test") === true) {
      const named = params ? c.children(params).filter((p) => p.type === "identifier") : [];
      const parametrized = parametrizedNames(decorators);
      const taking = (direct && !isStatic ? named.slice(1) : named).filter((p) => !parametrized.has(p.text));
      if (taking.length > 0) fixtureParams.set(scope, new Set(taking.map((p) => p.text)));
      for (const p of taking) c.use([p.text], p, "value", { fixture: true });
    }
    // Annotated parameters carry their type (`def f(x: C)`).
    for (const p of params ? c.children(params) : []) {
      if (p.type !== "typed_parameter" && p.type !== "typed_default_parameter") continue;
      const pn = p.type === "typed_parameter" ? c.children(p).find((k) => k.type === "identifier")?.text : c.field(p, "name")?.text;
      const t = annotatedType(c.field(p, "type"));
      if (pn && t) scope.types.set(pn, t);
    }
    const first = paramNames[0];
    const self = direct && !isStatic && first !== undefined ? { name: first, cls: ctx.classes.join(".") } : ctx.self;
    if (body) walkChildren(body, { classes: [], ...(self ? { self } : {}), inClassBody: false, use: "value", depth: ctx.depth + 1 });
    c.popScope();
    if (qualified) c.popContext();
  };

  const walkClass = (def: PlainNode, ctx: Ctx) => {
    const name = c.field(def, "name")?.text;
    const supers = c.field(def, "superclasses");
    const classes = name ? [...ctx.classes, name] : ctx.classes;
    const bases: string[][] = [];
    for (const s of supers ? c.children(supers) : []) {
      if (s.type === "keyword_argument") {
        const v = c.field(s, "value");
        if (v) walk(v, { ...ctx, use: "value" });
        continue;
      }
      const p = attributePath(s);
      if (p && !c.isLocal(p[0] as string)) bases.push(p);
      walk(s, { ...ctx, use: "inherit" });
    }
    if (name) c.classes.push({ name: classes.join("."), bases });
    const body = c.field(def, "body");
    if (!body) return;
    const qualified = classes.join(".");
    c.pushContext(qualified);
    c.pushScope("class", classBodyNames(body));
    walkChildren(body, { classes, ...(ctx.self ? { self: ctx.self } : {}), inClassBody: true, use: "value", depth: ctx.depth + 1 });
    c.popScope();
    c.popContext();
  };

  const walkImport = (stmt: PlainNode) => {
    const line = stmt.startPosition.row + 1;
    if (stmt.type === "import_statement") {
      for (const child of c.fields(stmt, "name")) {
        if (child.type === "aliased_import") {
          const name = c.field(child, "name")?.text;
          const alias = c.field(child, "alias");
          if (name && alias) c.bind({ local: alias.text, specifier: name, line }, alias, true);
        } else {
          const head = child.text.split(".")[0] as string;
          c.bind({ local: head, specifier: head, line }, child, true);
        }
      }
      return;
    }
    if (stmt.type === "future_import_statement") return;
    const specifier = (c.field(stmt, "module_name")?.text ?? "").replace(/\s+/g, "");
    if (specifier === "") return;
    const names = c.fields(stmt, "name");
    if (names.length === 0) {
      c.bind({ local: "*", specifier, member: "*", line }, stmt, true);
      return;
    }
    for (const n of names) {
      const nameNode = n.type === "aliased_import" ? c.field(n, "name") : n;
      const alias = n.type === "aliased_import" ? c.field(n, "alias") : null;
      if (!nameNode) continue;
      const member = nameNode.text;
      c.bind({ local: alias?.text ?? member, specifier, member, line }, nameNode, false);
    }
  };

  const walk = (node: PlainNode, ctx: Ctx): void => {
    if (ctx.depth > MAX_DEPTH) return;
    const type = node.type;
    if (type === "identifier") {
      usePath(node, ctx, ctx.use, undefined, "identifier");
      return;
    }
    switch (type) {
      case "comment":
        return;
      case "string":
        for (const child of c.children(node)) if (child.type === "interpolation") walkChildren(child, { ...ctx, depth: ctx.depth + 1, use: "value" });
        return;
      case "import_statement":
      case "import_from_statement":
      case "future_import_statement":
        walkImport(node);
        return;
      case "decorated_definition": {
        const decorators = c.children(node).filter((d) => d.type === "decorator");
        for (const d of decorators) {
          const expr = firstNamed(d);
          if (expr && !usePath(expr, ctx, "call", d)) walk(expr, down(ctx));
        }
        const def = c.field(node, "definition");
        if (def?.type === "function_definition") walkFunction(def, down(ctx), decorators);
        else if (def?.type === "class_definition") walkClass(def, down(ctx));
        return;
      }
      case "function_definition":
        walkFunction(node, down(ctx), []);
        return;
      case "class_definition":
        walkClass(node, down(ctx));
        return;
      case "lambda": {
        const params = c.field(node, "parameters");
        for (const p of params ? c.children(params) : []) {
          const v = c.field(p, "value");
          if (v) walk(v, down(ctx));
        }
        c.pushScope("function", parameterNames(params));
        const body = c.field(node, "body");
        if (body) walk(body, { ...ctx, depth: ctx.depth + 1, use: "value" });
        c.popScope();
        return;
      }
      case "list_comprehension":
      case "set_comprehension":
      case "dictionary_comprehension":
      case "generator_expression": {
        const names = new Set<string>();
        for (const k of c.children(node)) if (k.type === "for_in_clause") targetNames(c.field(k, "left"), names);
        c.pushScope("function", names);
        for (const k of c.children(node)) {
          if (k.type === "for_in_clause") {
            const right = c.field(k, "right");
            if (right) walk(right, { ...ctx, depth: ctx.depth + 1, use: "value" });
          } else walk(k, { ...ctx, depth: ctx.depth + 1, use: "value" });
        }
        c.popScope();
        return;
      }
      case "attribute":
        walkAttribute(node, down(ctx), ctx.use);
        return;
      case "call": {
        const fn = c.field(node, "function");
        const fnType = fn?.type;
        if (fn !== null && fnType === "identifier") usePath(fn, ctx, "call", undefined, fnType);
        else if (fn !== null && fnType === "attribute") walkAttribute(fn, down(ctx), "call");
        else if (fn) walk(fn, { ...ctx, depth: ctx.depth + 1, use: "value" });
        const args = c.field(node, "arguments");
        if (args) walk(args, { ...ctx, depth: ctx.depth + 1, use: "value" });
        return;
      }
      case "keyword_argument": {
        const v = c.field(node, "value");
        if (v) walk(v, down(ctx));
        return;
      }
      case "type":
        walkChildren(node, { ...ctx, depth: ctx.depth + 1, use: "type" });
        return;
      case "assignment": {
        const left = c.field(node, "left");
        const right = c.field(node, "right");
        const type = c.field(node, "type");
        if (left?.type === "identifier") {
          const t = constructedType(right) ?? annotatedType(type);
          const call = t === undefined ? calledFunction(c, right, ctx.self) : undefined;
          if (t && !(t.length === 1 && c.isLocal(t[0] as string))) c.bindType(left.text, t);
          else if (call !== undefined) c.bindCall(left.text, call);
        }
        if (left) walkTarget(left, down(ctx));
        if (type) walk(type, { ...ctx, depth: ctx.depth + 1, use: "type" });
        if (right) walk(right, { ...ctx, depth: ctx.depth + 1, use: "value" });
        return;
      }
      case "augmented_assignment": {
        const left = c.field(node, "left");
        const right = c.field(node, "right");
        if (left) walk(left, { ...ctx, depth: ctx.depth + 1, use: "value" });
        if (right) walk(right, { ...ctx, depth: ctx.depth + 1, use: "value" });
        return;
      }
      case "for_statement":
      case "for_in_clause": {
        const left = c.field(node, "left");
        if (left) walkTarget(left, down(ctx));
        for (const k of c.children(node)) if (k.id !== left?.id) walk(k, { ...ctx, depth: ctx.depth + 1, use: "value" });
        return;
      }
      case "as_pattern_target":
        walkTarget(node, down(ctx));
        return;
      case "named_expression": {
        const v = c.field(node, "value");
        if (v) walk(v, { ...ctx, depth: ctx.depth + 1, use: "value" });
        return;
      }
      case "global_statement":
      case "nonlocal_statement":
        return;
      default:
        walkChildren(node, below(ctx, ctx.use === "type" || ctx.use === "inherit" ? ctx.use : "value"));
    }
  };

  /** In an assignment target, identifiers bind (no use); attributes and subscripts read their objects. */
  const walkTarget = (node: PlainNode, ctx: Ctx, depth = 0): void => {
    if (depth > 50) return;
    if (node.type === "identifier") return;
    if (node.type === "attribute") {
      const obj = c.field(node, "object");
      if (obj) walk(obj, { ...ctx, use: "value" });
      return;
    }
    if (node.type === "subscript") {
      walkChildren(node, { ...ctx, use: "value" });
      return;
    }
    for (const k of c.children(node)) walkTarget(k, ctx, depth + 1);
  };

  /**
   * `a.b.c` is one path use; `C().m` walks `C()` and uses `m` of class `C` (a CapWords callee, as
   * {@link constructedType}); `f().m` walks `f()` and uses `m` of an unknown receiver.
   */
  const walkAttribute = (node: PlainNode, ctx: Ctx, use: UseKind): void => {
    if (usePath(node, ctx, use, undefined, "attribute")) return;
    const obj = c.field(node, "object");
    const attr = c.field(node, "attribute");
    if (obj) walk(obj, { ...ctx, use: "value" });
    if (attr) {
      const [path, extra] = memberOfCall(c, obj, attr.text);
      c.use(path, attr, use, { ...extra, receiverCall: path[0] === "" ? calledFunction(c, obj, ctx.self) : undefined });
    }
  };

  walkChildren(plainTree(root, COPY), { classes: [], inClassBody: false, use: "value", depth: 0 });
  const out = c.facts();
  if (fixtures.length > 0) out.fixtures = fixtures;
  return out;
}

/** The argument names of `@pytest.mark.parametrize("a, b", …)` / `(("a", "b"), …)` decorators. */
function parametrizedNames(decorators: readonly PlainNode[]): Set<string> {
  const out = new Set<string>();
  for (const d of decorators) {
    const m = /\bparametrize\s*\(\s*[([]?\s*((?:(?:"[^"]*"|'[^']*')\s*,?\s*)+)/.exec(d.text);
    for (const w of m?.[1]?.match(/[A-Za-z_]\w*/g) ?? []) out.add(w);
  }
  return out;
}

/** The `identifier` that leads an `attribute` chain. */
function innermost(node: PlainNode): PlainNode {
  let n = node;
  for (let i = 0; n.type === "attribute" && i < 64; i++) n = n.childForFieldName("object") ?? n;
  return n;
}

/** Names a class body binds directly (assignments, nested `def`/`class`). */
function classBodyNames(body: PlainNode): Set<string> {
  const out = new Set<string>();
  for (const s of body.namedChildren) {
    const stmt = s.type === "decorated_definition" ? s.childForFieldName("definition") : s;
    if (stmt === null) continue;
    if (stmt.type === "function_definition" || stmt.type === "class_definition") {
      const n = stmt.childForFieldName("name");
      if (n) out.add(n.text);
    } else if (stmt.type === "expression_statement") {
      for (const e of stmt.namedChildren) if (e.type === "assignment") targetNames(e.childForFieldName("left"), out);
    }
  }
  return out;
}
