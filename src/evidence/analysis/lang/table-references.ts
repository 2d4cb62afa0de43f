/**
 * One walker for the reference extractors of languages whose names follow the class-based pattern
 * of Java (C#, Kotlin): a language describes what each node of its grammar is
 * ({@link ReferenceGrammar.classify}), and this module turns the tree into {@link ReferenceFacts}
 * with the same rules for all of them:
 *
 * - **Locals**: a function's parameters and the local variables declared in it so far (in source
 *   order) hide a member or file-level name of the same spelling; lambda parameters likewise.
 * - **Uses**: every name or dotted path outside the declared names; `call` for a callee and the
 *   type of an instantiation, `type` in type positions, `inherit` in base lists, `value` else.
 *   Skipped nodes (comments, strings, the language's declarations of names) give none.
 * - **Receivers**: `this.m` and, inside a class, a one-part name carry the class
 *   (`NameUse.selfClass`: a member first, for a type name a member type, so a nested type named
 *   bare in a signature is found; not in a base list, nor in a language without implicit `this`,
 *   `ReferenceGrammar.noImplicitSelf`); `x.m` where `x` is a local, parameter or field declared
 *   with a type, or bound to an instantiation, carries that type (`NameUse.receiverType`), and so
 *   does a local in a branch its condition narrows (`instanceof`). Inside a lambda that receives a
 *   value as `this` (`NodeRole` `call.receiver`: Kotlin `with(x) {…}`), a bare called or read name
 *   is first a member of that value (of its type when known: `NameUse.receiverType`; of a
 *   file-scope name: `[x, m]` from part 1; else a receiver of unknown type `["", m]`), then, as an
 *   alternative reading (`NameUse.alternative`), what it would be outside the lambda. A loop
 *   variable over a local or field whose declared type is a collection of a known element type
 *   (`NodeRole` `variable.elementOf`, `ReferenceGrammar.elementType`) carries that element type.
 * - **Contexts**: the enclosing class and function, qualified by the enclosing classes.
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, UseKind } from "./language.js";
import { ReferenceCollector } from "./reference-walk.js";
import { namedChildren } from "./syntax.js";

const MAX_DEPTH = 300;

/** What a node of the grammar is, for the walker. Nodes the language does not classify are walked child by child. */
export type NodeRole =
  /** Walked no further (a comment, a literal, a declared name). */
  | { role: "skip" }
  /** A name or a path the language reads with {@link ReferenceGrammar.path}. */
  | { role: "path" }
  /** A class-like declaration: its name, base types (`inherit`), other parts walked as types (annotations, type parameters), its body. */
  | { role: "class"; name: string | undefined; bases: SyntaxNode[]; types: SyntaxNode[]; body: SyntaxNode[] }
  /** A function, method, constructor or accessor: parameters (name, type), parts walked as types (return type), the body. */
  | { role: "function"; name: string | undefined; params: { name: string | undefined; type: SyntaxNode | null; rest: SyntaxNode[] }[]; types: SyntaxNode[]; body: SyntaxNode[] }
  /** A lambda: parameter names and the body. */
  | { role: "lambda"; params: string[]; body: SyntaxNode[] }
  /**
   * A variable declaration (local in a function, a field in a class body): names, declared type,
   * initial values. `elementOf`: the names take the element type of this collection (C# `foreach
   * (var x in items)`), when its declared type gives one ({@link ReferenceGrammar.elementType}).
   */
  | { role: "variable"; names: string[]; type: SyntaxNode | null; values: SyntaxNode[]; elementOf?: SyntaxNode }
  /**
   * A call: the callee (`call` use; the node itself when the call is the path, PHP `$x->m()`) and
   * the other parts (arguments, `value`). `receiver`: the value the call's lambdas among `rest`
   * receive as `this` (Kotlin `with(x) {…}`, `x.run {…}`, `x.apply {…}`), walked with `callee`.
   */
  | { role: "call"; callee: SyntaxNode; rest: SyntaxNode[]; receiver?: SyntaxNode }
  /** An instantiation `new T(…)`: the type (`call` use) and the other parts. */
  | { role: "new"; type: SyntaxNode; rest: SyntaxNode[] }
  /**
   * A branch taken when locals are instances of a type (PHP `if ($x instanceof C)`): the condition,
   * then the body with each local's type narrowed (`NameUse.receiverType`), then the other branches.
   */
  | { role: "narrow"; condition: SyntaxNode[]; narrowed: { name: string; type: SyntaxNode }[]; body: SyntaxNode[]; rest: SyntaxNode[] }
  /** Nodes in a type position (every name below is a `type` use). */
  | { role: "type"; nodes: SyntaxNode[] }
  /** Parts walked as types and as values; the rest (a declared name) not at all (an enum member, a cast, a named argument). */
  | { role: "parts"; types?: SyntaxNode[]; values: SyntaxNode[] };

/**
 * The type a constructor call without `new` gives a variable (Kotlin `C(…)`, Swift `T(…)`): the
 * callee's path when its last part is capitalised, as both languages' style guides name types
 * (https://kotlinlang.org/docs/coding-conventions.html#naming-rules,
 * https://www.swift.org/documentation/api-design-guidelines/#follow-case-conventions);
 * `undefined` for any other value.
 */
export function capitalisedCallType(value: SyntaxNode, path: (node: SyntaxNode) => string[] | undefined): string[] | undefined {
  if (value.type !== "call_expression") return undefined;
  const callee = namedChildren(value)[0];
  const parts = callee === undefined ? undefined : path(callee);
  return parts !== undefined && parts[0] !== "" && /^[A-Z]/.test(parts[parts.length - 1] as string) ? parts : undefined;
}

/** A language's description of its grammar for {@link extractTableReferences}. */
export interface ReferenceGrammar {
  classify(node: SyntaxNode): NodeRole | undefined;
  /** The parts of a name or path node (`a.b.C` → `a b C`; `this.m` → `this m`; `f().m` → `"" m`), `undefined` when it is none. */
  path(node: SyntaxNode): string[] | undefined;
  /** The node of the path's last part (its line is the use's line). */
  lastPart(node: SyntaxNode): SyntaxNode;
  /** The type an initial value gives a variable (`new T()`, Kotlin `T()`), as a path. */
  valueType?(value: SyntaxNode): string[] | undefined;
  /** The element type a collection type gives (C# `T[]`, `List<T>`, `IEnumerable<T>`), as a path. */
  elementType?(type: SyntaxNode): string[] | undefined;
  /** True for a path node that names a type wherever it stands (Kotlin `user_type`): a `type` use unless in a base list or instantiation. */
  isType?(node: SyntaxNode): boolean;
  /** Nodes inside a path node that are walked as types after it (type arguments of `List<Order>`). */
  typeArguments?(node: SyntaxNode): SyntaxNode[];
  /** True when a one-part name inside a class never names a member of it (PHP: members only through `$this->`, `self::`). */
  noImplicitSelf?: boolean;
}

interface Ctx {
  use: UseKind;
  depth: number;
  /** Enclosing classes, outermost first. */
  chain: string[];
  /** The innermost implicit receiver of a lambda around ({@link ImplicitReceiver}), if any. */
  implicit?: ImplicitReceiver;
}

/**
 * The value a lambda receives as `this` (`NodeRole` `call.receiver`): of a known type (a typed
 * local, `C(…)`), a name of the file's scope (`head`: a top-level `val`, an `object`), or neither
 * (a member chain, a local of unknown type).
 */
interface ImplicitReceiver {
  type?: string[];
  head?: string;
}

/**
 * Walks `root` by `grammar` (see the module comment) into `c`, which may already hold the file's
 * import bindings; returns the collected facts.
 */
export function extractTableReferences(root: SyntaxNode, grammar: ReferenceGrammar, c: ReferenceCollector = new ReferenceCollector()): ReferenceFacts {
  /** The type the first initial value that gives one gives (`new T()`, `T(…)`). */
  const firstValueType = (values: readonly SyntaxNode[]): string[] | undefined => {
    for (const v of values) {
      const t = grammar.valueType?.(v);
      if (t !== undefined) return t;
    }
    return undefined;
  };

  const pathUse = (path: string[], last: SyntaxNode, ctx: Ctx, use: UseKind) => {
    const head = path[0] as string;
    const cls = ctx.chain.length > 0 ? ctx.chain.join(".") : undefined;
    if (head === "this") {
      if (path.length > 1) c.use(path, last, use, cls !== undefined ? { selfClass: cls } : {});
      return;
    }
    if (head === "") {
      c.use(path, last, use);
      return;
    }
    if (c.isLocal(head)) {
      if (path.length === 1) return;
      const type = c.typeOf(head);
      c.use(type ? path : ["", ...path.slice(1)], last, use, type ? { receiverType: type } : {});
      return;
    }
    if (path.length === 1 && ctx.implicit !== undefined && (use === "call" || use === "value")) {
      // Inside a lambda with a receiver (`with(x) { m() }`) a bare name is first a member of the
      // receiver (Kotlin "Scope functions": `this` is the context object; implicit receivers come
      // before the enclosing class's); the usual reading follows as an alternative.
      const { type: t, head: h } = ctx.implicit;
      if (t !== undefined) c.use(["", head], last, use, { receiverType: t });
      else if (h !== undefined) c.use([h, head], last, use, { from: 1 });
      else c.use(["", head], last, use);
      c.use(path, last, use, cls !== undefined && grammar.noImplicitSelf !== true ? { selfClass: cls, alternative: true } : { alternative: true });
      return;
    }
    const type = path.length > 1 ? c.typeOf(head) : undefined;
    const extra = type ? { receiverType: type } : path.length === 1 && cls !== undefined && use !== "inherit" && grammar.noImplicitSelf !== true ? { selfClass: cls } : {};
    c.use(path, last, use, extra);
  };

  const usePath = (node: SyntaxNode, ctx: Ctx, use: UseKind): boolean => {
    const path = grammar.path(node);
    if (path === undefined) return false;
    const last = grammar.lastPart(node);
    const receiver = path[0] === "" && last.id !== node.id ? namedChildren(node).filter((k) => k.id !== last.id) : [];
    // `new T().m`: the receiver's type is the instantiated one.
    const created = receiver.length > 0 ? grammar.valueType?.(receiver[0] as SyntaxNode) : undefined;
    if (created !== undefined && path.length === 2) c.use(path, last, use, { receiverType: created });
    else pathUse(path, last, ctx, use);
    walkAll(grammar.typeArguments?.(node) ?? [], ctx, "type");
    // A receiver that is no path (`f().m`, `a[0].m`) is walked for its own uses.
    walkAll(receiver, ctx, "value");
    return true;
  };

  /** The element type a declared type, else the first initial value (`new List<T>()`, `new T[n]`), gives. */
  const elementsOf = (type: SyntaxNode | null, values: readonly SyntaxNode[]): string[] | undefined => {
    if (grammar.elementType === undefined) return undefined;
    const declared = type === null ? undefined : grammar.elementType(type);
    if (declared !== undefined) return declared;
    for (const v of values) {
      const t = grammar.elementType(v);
      if (t !== undefined) return t;
    }
    return undefined;
  };

  /** The element type of the collection `node` names (a local, a field, `this.field`), if known. */
  const elementTypeOf = (node: SyntaxNode): string[] | undefined => {
    const path = grammar.path(node);
    if (path === undefined) return undefined;
    const name = path.length === 1 ? path[0] : path.length === 2 && path[0] === "this" ? path[1] : undefined;
    return name === undefined ? undefined : c.elementTypeOf(name);
  };

  /** The implicit receiver a lambda gets from `node` (`undefined` for `this`: the class's own reading). */
  const receiverOf = (node: SyntaxNode): ImplicitReceiver | undefined => {
    const created = grammar.valueType?.(node);
    if (created !== undefined) return { type: created };
    const path = grammar.path(node);
    if (path === undefined || path.length !== 1) return {};
    const name = path[0] as string;
    if (name === "this") return undefined;
    if (!c.isLocal(name)) return { head: name };
    const type = c.typeOf(name);
    return type === undefined ? {} : { type };
  };

  const walkAll = (nodes: readonly SyntaxNode[], ctx: Ctx, use: UseKind) => {
    for (const n of nodes) walk(n, { ...ctx, use, depth: ctx.depth + 1 });
  };

  const walk = (node: SyntaxNode, ctx: Ctx): void => {
    if (ctx.depth > MAX_DEPTH) return;
    const r = grammar.classify(node);
    if (r === undefined) {
      walkAll(namedChildren(node), ctx, ctx.use === "type" || ctx.use === "inherit" ? ctx.use : "value");
      return;
    }
    switch (r.role) {
      case "skip":
        return;
      case "path": {
        const use = grammar.isType?.(node) === true && ctx.use !== "inherit" && ctx.use !== "call" ? "type" : ctx.use;
        if (!usePath(node, ctx, use)) walkAll(namedChildren(node), ctx, use);
        return;
      }
      case "class": {
        const top = !c.inFunction && r.name !== undefined;
        const chain = top ? [...ctx.chain, r.name as string] : ctx.chain;
        const bases = r.bases.map((b) => grammar.path(b)).filter((p): p is string[] => p !== undefined);
        walkAll(r.bases, ctx, "inherit");
        walkAll(r.types, ctx, "type");
        if (top) {
          c.classes.push({ name: chain.join("."), bases });
          c.pushContext(chain.join("."));
        }
        const scope = c.pushScope("block");
        // Field types first, so `x.m()` on a field declared below resolves too.
        for (const member of r.body.flatMap((b) => [b, ...namedChildren(b).flatMap((m) => [m, ...namedChildren(m)])])) {
          const m = grammar.classify(member);
          if (m?.role !== "variable") continue;
          const t = m.type === null ? undefined : grammar.path(m.type);
          const vt = t ?? firstValueType(m.values);
          if (vt !== undefined) for (const n of m.names) scope.types.set(n, vt);
          const et = elementsOf(m.type, m.values);
          if (et !== undefined) for (const n of m.names) scope.elements.set(n, et);
        }
        walkAll(r.body, { ...ctx, chain, implicit: undefined }, "value");
        c.popScope();
        if (top) c.popContext();
        return;
      }
      case "function": {
        const qualified = r.name !== undefined && !c.inFunction ? [...ctx.chain, r.name].join(".") : undefined;
        if (qualified !== undefined) c.pushContext(qualified);
        walkAll(r.types, ctx, "type");
        const scope = c.pushScope("function");
        for (const p of r.params) {
          if (p.type !== null) walk(p.type, { ...ctx, use: "type", depth: ctx.depth + 1 });
          walkAll(p.rest, ctx, "value");
          if (p.name === undefined) continue;
          scope.locals.add(p.name);
          const t = p.type === null ? undefined : grammar.path(p.type);
          if (t !== undefined) scope.types.set(p.name, t);
          const et = elementsOf(p.type, []);
          if (et !== undefined) scope.elements.set(p.name, et);
        }
        walkAll(r.body, ctx, "value");
        c.popScope();
        if (qualified !== undefined) c.popContext();
        return;
      }
      case "lambda":
        c.pushScope("function", r.params);
        walkAll(r.body, ctx, "value");
        c.popScope();
        return;
      case "variable": {
        if (r.type !== null) walk(r.type, { ...ctx, use: "type", depth: ctx.depth + 1 });
        const s = c.scope;
        if (s !== undefined && s.kind === "function") {
          const t = r.type === null ? undefined : grammar.path(r.type);
          const vt = t ?? (r.elementOf !== undefined ? elementTypeOf(r.elementOf) : firstValueType(r.values));
          const et = r.elementOf === undefined ? elementsOf(r.type, r.values) : undefined;
          for (const n of r.names) {
            s.locals.add(n);
            if (vt !== undefined) s.types.set(n, vt);
            if (et !== undefined) s.elements.set(n, et);
          }
        }
        walkAll(r.values, ctx, "value");
        return;
      }
      case "call":
        if (!usePath(r.callee, ctx, "call")) {
          if (r.callee.id === node.id) walkAll(namedChildren(node), ctx, "value");
          else walk(r.callee, { ...ctx, use: "value", depth: ctx.depth + 1 });
        }
        walkAll(r.rest, r.receiver === undefined ? ctx : { ...ctx, implicit: receiverOf(r.receiver) }, "value");
        return;
      case "new":
        if (!usePath(r.type, ctx, "call")) walk(r.type, { ...ctx, use: "type", depth: ctx.depth + 1 });
        walkAll(r.rest, ctx, "value");
        return;
      case "type":
        walkAll(r.nodes, ctx, ctx.use === "inherit" || ctx.use === "call" ? ctx.use : "type");
        return;
      case "narrow": {
        walkAll(r.condition, ctx, "value");
        const restore: (() => void)[] = [];
        for (const { name, type } of r.narrowed) {
          const t = grammar.path(type);
          const s = c.scopeOf(name);
          if (t === undefined || s === undefined) continue;
          const before = s.types.get(name);
          s.types.set(name, t);
          restore.push(() => (before === undefined ? s.types.delete(name) : s.types.set(name, before)));
        }
        walkAll(r.body, ctx, "value");
        for (const undo of restore.reverse()) undo();
        walkAll(r.rest, ctx, "value");
        return;
      }
      case "parts":
        walkAll(r.types ?? [], ctx, "type");
        walkAll(r.values, ctx, "value");
        return;
    }
  };

  walkAll(namedChildren(root), { use: "value", depth: 0, chain: [] }, "value");
  return c.facts();
}
