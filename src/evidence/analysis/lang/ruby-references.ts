/**
 * Ruby: the name uses and `require` bindings of one file, for `find_references` (tree-sitter-ruby
 * 0.23 grammar; constant lookup after the Ruby documentation "Modules and classes" / "Constants"
 * (https://docs.ruby-lang.org/en/master/syntax/modules_and_classes_rdoc.html) and
 * `Module.nesting`). Definitions are global and open (`ReferenceRules.globalDefinitions`): a
 * constant path names the definitions of its qualified name wherever they are, and a class
 * reopened in several files is one class.
 *
 * - **Requires**: every `require`, `require_relative` and `load` with a literal path is a wildcard
 *   binding (the required file's top-level names, and those it requires, are visible).
 * - **Constants**: `X`, `A::B` (a `scope_resolution`), `::X` (top level only). A relative constant
 *   is read in each lexical scope of `Module.nesting`, innermost first, then at the top level
 *   (`NameUse.from`, `NameUse.alternative`): inside `module A; class B` the name `X` is `A::B::X`,
 *   else `A::X`, else `X`; inside `class A::B` it is `A::B::X`, else `X` (`A` is no lexical scope
 *   there). The first reading that names a definition of the tree wins.
 * - **Locals** (hide a method of the same name; `def`, `class` and `module` bodies start afresh,
 *   blocks see the enclosing locals): parameters of methods, blocks and lambdas, names assigned
 *   (`x = …`, `a, b = …`, `x ||= …`), `for` variables, `rescue => e`.
 * - **Calls**: a bare name that is no local, `m(…)`, `m …` and `self.m` are calls of a method of the
 *   enclosing class or module (`NameUse.selfClass`), else of a top-level method; `C.m`/`C::m` a
 *   method of `C`; `C.new` a `call` use of `C`; `x.m` where `x` is a local assigned `C.new(…)`, or
 *   an instance variable assigned `C.new(…)` anywhere in the class, a method of `C` (each lexical
 *   reading of `C`); any other receiver (a method's result, a parameter) has an unknown type: the
 *   engine's `by_name` rule decides. `x.m = v` calls `m=`.
 * - **Classes made by a block**: `X = Struct.new(:a) do … end` (any call with a block assigned to a
 *   constant) is read as a class `X` around the call, as `ruby.ts` files the block's `def`s.
 * - **Bases**: the superclass (`inherit`), and the modules of `include`, `extend`, `prepend` in the
 *   body (`inherit`), in each lexical reading; a class's members are looked up in them too.
 * - **Symbols naming methods**: the symbol arguments of `module_function`, `private`, `public`,
 *   `protected`, `private_class_method`, `public_class_method`, `remove_method`, `undef_method`,
 *   and the second of `alias_method`, are `value` uses of the method they name (as a bare call).
 * - **Not uses**: comments, strings (but `#{…}` inside them), other symbols (`send(:m)`,
 *   `before_action :m`), `alias`/`undef`, the names being defined, `super` (the overridden
 *   method is not resolved). `require` calls are bindings, not uses.
 * - **Contexts**: the enclosing class or module and method, qualified (`A.B.m`).
 */
import type { Node as SyntaxNode } from "web-tree-sitter";
import type { ReferenceFacts, ReferenceRules, UseKind } from "./language.js";
import { ReferenceCollector } from "./reference-walk.js";
import { REQUIRES, requires } from "./ruby-requires.js";
import { namedChildren } from "./syntax.js";

const MAX_DEPTH = 300;

/** Nodes that give no uses (literals, comments, symbols, the heredoc markers). */
const SKIP = new Set([
  "comment", "string_content", "escape_sequence", "simple_symbol", "hash_key_symbol", "integer", "float", "complex", "rational",
  "character", "true", "false", "nil", "self", "instance_variable", "class_variable", "global_variable", "heredoc_beginning",
  "heredoc_content", "heredoc_end", "uninterpreted", "alias", "undef", "super", "encoding", "file", "line", "bare_symbol",
  "forward_argument", "forward_parameter", "hash_splat_nil", "operator",
]);

/**
 * Module methods whose symbol arguments name methods of the class or module (`module_function :m`,
 * `private :m`, `alias_method :new, :old`): each symbol is a `value` use of that method.
 */
const METHOD_SYMBOLS = new Set(["module_function", "private", "public", "protected", "private_class_method", "public_class_method", "alias_method", "remove_method", "undef_method"]);

/** Module methods whose constant arguments are mixed into the class or module (bases). */
const MIXINS = new Set(["include", "extend", "prepend"]);

interface Ctx {
  use: UseKind;
  depth: number;
  /** `Module.nesting` as written, outermost first, each entry a full path (`module A; class B` → `[A]`, `[A, B]`). */
  nesting: string[][];
  /** Instance variable → the path of the class it is assigned `C.new` of, in the enclosing class. */
  ivars: Map<string, string[]>;
}

/** A local variable scope: names and the class each was assigned `C.new` of; `gate` scopes hide the ones around them. */
interface Scope {
  locals: Map<string, string[] | undefined>;
  gate: boolean;
}

/** The parts of a constant path (`A::B::C` → `A B C`); `absolute` for `::A`; `undefined` when a part is no constant (`x::C`). */
function constantPath(node: SyntaxNode): { parts: string[]; absolute: boolean; last: SyntaxNode } | undefined {
  if (node.type === "constant") return { parts: [node.text], absolute: false, last: node };
  if (node.type !== "scope_resolution") return undefined;
  const name = node.childForFieldName("name");
  if (name === null || name.type !== "constant") return undefined;
  const scope = node.childForFieldName("scope");
  if (scope === null) return { parts: [name.text], absolute: true, last: name };
  const head = constantPath(scope);
  return head === undefined ? undefined : { parts: [...head.parts, name.text], absolute: head.absolute, last: name };
}

/** The class path of `C.new(…)` (`C` a constant path), else `undefined`. */
function newOf(node: SyntaxNode | null): { parts: string[]; absolute: boolean } | undefined {
  if (node === null || node.type !== "call" || node.childForFieldName("method")?.text !== "new") return undefined;
  const receiver = node.childForFieldName("receiver");
  return receiver === null ? undefined : constantPath(receiver);
}

/** The names a parameter list binds (`a`, `b = 1`, `*r`, `k:`, `**o`, `&blk`, `(x, y)`). */
function parameterNames(list: SyntaxNode | null): { names: string[]; defaults: SyntaxNode[] } {
  const names: string[] = [];
  const defaults: SyntaxNode[] = [];
  const stack = list === null ? [] : namedChildren(list);
  for (let steps = 0; stack.length > 0 && steps < 1000; steps++) {
    const p = stack.shift() as SyntaxNode;
    if (p.type === "identifier") names.push(p.text);
    else if (p.type === "destructured_parameter") stack.push(...namedChildren(p));
    else {
      const name = p.childForFieldName("name");
      if (name !== null) names.push(name.text);
      const value = p.childForFieldName("value");
      if (value !== null) defaults.push(value);
    }
  }
  return { names, defaults };
}

/** Extracts {@link ReferenceFacts} from a tree-sitter-ruby `program` (see the module comment). */
function extractRubyReferences(root: SyntaxNode): ReferenceFacts {
  const c = new ReferenceCollector();
  for (const ref of requires(root)) {
    if (ref.flags?.includes("unresolved") === true) continue;
    c.bindings.push({ local: "*", specifier: ref.specifier, member: "*", line: ref.start_line, ...(ref.flags !== undefined ? { flags: ref.flags } : {}) });
  }
  const scopes: Scope[] = [{ locals: new Map(), gate: true }];
  const lookup = (name: string): { type: string[] | undefined } | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const s = scopes[i] as Scope;
      if (s.locals.has(name)) return { type: s.locals.get(name) };
      if (s.gate) break;
    }
    return undefined;
  };
  const declare = (name: string, type?: string[]) => (scopes[scopes.length - 1] as Scope).locals.set(name, type);
  const withScope = (gate: boolean, names: readonly string[], body: () => void) => {
    scopes.push({ locals: new Map(names.map((n) => [n, undefined])), gate });
    try {
      body();
    } finally {
      scopes.pop();
    }
  };
  const selfClass = (ctx: Ctx) => ctx.nesting[ctx.nesting.length - 1]?.join(".");

  /** The lexical readings of a relative constant path, innermost first (the top level last). */
  const readings = (parts: readonly string[], absolute: boolean, nesting: readonly string[][]): { path: string[]; from: number }[] => {
    const out = absolute ? [] : [...nesting].reverse().map((p) => ({ path: [...p, ...parts], from: p.length }));
    out.push({ path: [...parts], from: 0 });
    return out;
  };

  /** A constant path (with `tail` parts after it, a method) used as `use`: one reading per lexical scope. */
  const constantUse = (path: { parts: string[]; absolute: boolean }, tail: string[], last: SyntaxNode, ctx: Ctx, use: UseKind) => {
    readings(path.parts, path.absolute, ctx.nesting).forEach((r, k) => c.use([...r.path, ...tail], last, use, { from: r.from, alternative: k > 0 }));
  };

  /** A call `m` on a receiver of class `type` (each lexical reading of it), or of unknown type. */
  const typedCall = (m: string, at: SyntaxNode, ctx: Ctx, use: UseKind, type: { parts: string[]; absolute: boolean } | undefined) => {
    if (type === undefined) {
      c.use(["", m], at, use);
      return;
    }
    for (const r of readings(type.parts, type.absolute, ctx.nesting)) c.use(["", m], at, use, { receiverType: r.path });
  };

  /** A bare call of `m` (implicit `self`). */
  const selfCall = (m: string, at: SyntaxNode, ctx: Ctx, use: UseKind) => {
    const cls = selfClass(ctx);
    c.use([m], at, use, cls !== undefined ? { selfClass: cls } : {});
  };

  const walkAll = (nodes: readonly (SyntaxNode | null)[], ctx: Ctx, use: UseKind = "value") => {
    for (const n of nodes) if (n !== null) walk(n, { ...ctx, use, depth: ctx.depth + 1 });
  };

  /** A receiver's type, when it is a local or instance variable assigned `C.new`, or `C.new` itself. */
  const receiverClass = (receiver: SyntaxNode, ctx: Ctx): { parts: string[]; absolute: boolean } | undefined => {
    if (receiver.type === "identifier") {
      const t = lookup(receiver.text)?.type;
      return t === undefined ? undefined : { parts: t, absolute: false };
    }
    if (receiver.type === "instance_variable") {
      const t = ctx.ivars.get(receiver.text);
      return t === undefined ? undefined : { parts: t, absolute: false };
    }
    return newOf(receiver);
  };

  const call = (node: SyntaxNode, ctx: Ctx, setter: boolean) => {
    const receiver = node.childForFieldName("receiver");
    const methodNode = node.childForFieldName("method");
    const m = methodNode === null ? undefined : `${methodNode.text}${setter ? "=" : ""}`;
    const args = node.childForFieldName("arguments");
    const block = node.childForFieldName("block");
    if (receiver === null) {
      if (m !== undefined && REQUIRES.has(m)) return;
      if (m !== undefined && MIXINS.has(m)) {
        for (const a of namedChildren(args ?? node)) {
          const p = constantPath(a);
          if (p !== undefined) constantUse(p, [], p.last, ctx, "inherit");
          else walk(a, { ...ctx, use: "value", depth: ctx.depth + 1 });
        }
        return;
      }
      if (m !== undefined && methodNode !== null) selfCall(m, methodNode, ctx, "call");
      if (m !== undefined && METHOD_SYMBOLS.has(m)) {
        // `alias_method :new, :old` names a new method first; the others name existing ones.
        const symbols = namedChildren(args ?? node).filter((a) => a.type === "simple_symbol");
        for (const a of m === "alias_method" ? symbols.slice(1) : symbols) selfCall(a.text.slice(1), a, ctx, "value");
      }
    } else if (m !== undefined && methodNode !== null) {
      const constant = constantPath(receiver);
      if (receiver.type === "self") {
        const cls = selfClass(ctx);
        c.use(["self", m], methodNode, "call", cls !== undefined ? { selfClass: cls } : {});
      } else if (constant !== undefined && m === "new") {
        constantUse(constant, [], constant.last, ctx, "call");
      } else if (constant !== undefined) {
        constantUse(constant, [m], methodNode, ctx, "call");
      } else {
        const type = receiverClass(receiver, ctx);
        // A receiver that is a bare name but no local is itself a call of a method (`request.params`).
        if (receiver.type === "identifier" && lookup(receiver.text) === undefined) selfCall(receiver.text, receiver, ctx, "call");
        else if (receiver.type !== "identifier" && receiver.type !== "instance_variable") walk(receiver, { ...ctx, use: "value", depth: ctx.depth + 1 });
        typedCall(m, methodNode, ctx, "call", type);
      }
    } else if (receiver !== null) {
      walk(receiver, { ...ctx, use: "value", depth: ctx.depth + 1 });
    }
    walkAll([args, block], ctx);
  };

  /** Declares the names an assignment's left side binds, or walks it when it is no name. */
  const assignTo = (left: SyntaxNode, ctx: Ctx, type: string[] | undefined) => {
    switch (left.type) {
      case "identifier":
        if (lookup(left.text) === undefined || type !== undefined) declare(left.text, type);
        return;
      case "left_assignment_list":
      case "destructured_left_assignment":
        for (const k of namedChildren(left)) assignTo(k, ctx, undefined);
        return;
      case "rest_assignment":
        for (const k of namedChildren(left)) assignTo(k, ctx, undefined);
        return;
      case "constant":
      case "instance_variable":
      case "class_variable":
      case "global_variable":
        return;
      case "scope_resolution": {
        // `A::X = 1` defines X; A is a use.
        const scope = left.childForFieldName("scope");
        if (scope !== null) walk(scope, { ...ctx, use: "value", depth: ctx.depth + 1 });
        return;
      }
      case "call":
        call(left, ctx, true);
        return;
      default:
        walk(left, { ...ctx, use: "value", depth: ctx.depth + 1 });
    }
  };

  /** Instance variables assigned `C.new(…)` anywhere in a class body (methods included). */
  const ivarTypes = (body: SyntaxNode | null): Map<string, string[]> => {
    const out = new Map<string, string[]>();
    const stack = body === null ? [] : [body];
    for (let steps = 0; stack.length > 0 && steps < 20_000; steps++) {
      const n = stack.pop() as SyntaxNode;
      if (n.type === "class" || n.type === "module") continue;
      if (n.type === "assignment" || n.type === "operator_assignment") {
        const left = n.childForFieldName("left");
        const created = newOf(n.childForFieldName("right"));
        if (left?.type === "instance_variable" && created !== undefined && !created.absolute) out.set(left.text, created.parts);
      }
      stack.push(...namedChildren(n));
    }
    return out;
  };

  /**
   * `X = Struct.new(:a) do … end`, `X = Class.new(Base) { … }`: a constant assigned a call with a
   * block is the class the block's `def`s belong to (`ruby.ts` files them under `X`), so the call is
   * read with `X` as the innermost lexical scope (a bare `m(…)` in the block is `X`'s method).
   * False (nothing read) when `left` is no constant or `right` no call with a block.
   */
  const classByBlock = (left: SyntaxNode | null, right: SyntaxNode | null, ctx: Ctx): boolean => {
    const written = left === null || (left.type !== "constant" && left.type !== "scope_resolution") ? undefined : constantPath(left);
    const block = right?.type === "call" ? right.childForFieldName("block") : null;
    if (written === undefined || right === null || block === null) return false;
    const full = written.absolute ? written.parts : [...(ctx.nesting[ctx.nesting.length - 1] ?? []), ...written.parts];
    const qualified = full.join(".");
    c.classes.push({ name: qualified, bases: [] });
    c.pushContext(qualified);
    walkAll([right], { ...ctx, nesting: [...ctx.nesting, full], ivars: ivarTypes(block), depth: ctx.depth + 1 });
    c.popContext();
    return true;
  };

  /** A class or module: its name's scope and superclass are read outside it, its body inside. */
  const classLike = (node: SyntaxNode, ctx: Ctx) => {
    const nameNode = node.childForFieldName("name");
    const written = nameNode === null ? undefined : constantPath(nameNode);
    if (written === undefined) {
      walkAll(namedChildren(node), ctx);
      return;
    }
    const scopeNode = nameNode?.type === "scope_resolution" ? nameNode.childForFieldName("scope") : null;
    if (scopeNode !== null) walk(scopeNode, { ...ctx, use: "value", depth: ctx.depth + 1 });
    const full = written.absolute ? written.parts : [...(ctx.nesting[ctx.nesting.length - 1] ?? []), ...written.parts];
    const superclass = node.childForFieldName("superclass");
    const inner: Ctx = { ...ctx, nesting: [...ctx.nesting, full], ivars: ivarTypes(node.childForFieldName("body")), depth: ctx.depth + 1 };
    const bases: string[][] = [];
    const superPath = superclass === null ? undefined : namedChildren(superclass).map(constantPath).find((p) => p !== undefined);
    const body = node.childForFieldName("body");
    for (const k of body === null ? [] : namedChildren(body)) {
      if (k.type !== "call" || k.childForFieldName("receiver") !== null || !MIXINS.has(k.childForFieldName("method")?.text ?? "")) continue;
      for (const a of namedChildren(k.childForFieldName("arguments") ?? k)) {
        const p = constantPath(a);
        if (p !== undefined) for (const r of readings(p.parts, p.absolute, inner.nesting)) bases.push(r.path);
      }
    }
    if (superPath !== undefined) for (const r of readings(superPath.parts, superPath.absolute, ctx.nesting)) bases.push(r.path);
    if (superclass !== null) walkAll(namedChildren(superclass), ctx, "inherit");
    const qualified = full.join(".");
    c.classes.push({ name: qualified, bases });
    c.pushContext(qualified);
    withScope(true, [], () => walkAll([body], inner));
    c.popContext();
  };

  const method = (node: SyntaxNode, ctx: Ctx) => {
    const name = node.childForFieldName("name")?.text;
    const object = node.childForFieldName("object");
    if (object !== null && object.type !== "self") walk(object, { ...ctx, use: "value", depth: ctx.depth + 1 });
    const cls = selfClass(ctx);
    const qualified = name === undefined ? undefined : cls !== undefined ? `${cls}.${name}` : name;
    if (qualified !== undefined) c.pushContext(qualified);
    const params = parameterNames(node.childForFieldName("parameters"));
    withScope(true, [], () => {
      // Default values see the parameters before them; declaring all first is close enough.
      for (const p of params.names) declare(p);
      walkAll(params.defaults, ctx);
      walkAll([node.childForFieldName("body")], ctx);
    });
    if (qualified !== undefined) c.popContext();
  };

  const walk = (node: SyntaxNode, ctx: Ctx): void => {
    if (ctx.depth > MAX_DEPTH || SKIP.has(node.type)) return;
    switch (node.type) {
      case "constant":
      case "scope_resolution": {
        const p = constantPath(node);
        if (p !== undefined) constantUse(p, [], p.last, ctx, ctx.use);
        else walkAll(namedChildren(node), ctx, ctx.use);
        return;
      }
      case "identifier":
        if (lookup(node.text) === undefined) selfCall(node.text, node, ctx, "call");
        return;
      case "call":
        call(node, ctx, false);
        return;
      case "assignment":
      case "operator_assignment": {
        const left = node.childForFieldName("left");
        const right = node.childForFieldName("right");
        if (!classByBlock(left, right, ctx)) walkAll([right], ctx);
        const created = newOf(right);
        if (left !== null) assignTo(left, ctx, created === undefined || created.absolute ? undefined : created.parts);
        return;
      }
      case "class":
      case "module":
        classLike(node, ctx);
        return;
      case "singleton_class": {
        const value = node.childForFieldName("value");
        if (value !== null && value.type !== "self") walk(value, { ...ctx, use: "value", depth: ctx.depth + 1 });
        withScope(true, [], () => walkAll([node.childForFieldName("body")], ctx));
        return;
      }
      case "method":
      case "singleton_method":
        method(node, ctx);
        return;
      case "block":
      case "do_block":
      case "lambda": {
        const params = parameterNames(node.childForFieldName("parameters"));
        withScope(false, params.names, () => {
          walkAll(params.defaults, ctx);
          walkAll([node.childForFieldName("body")], ctx);
        });
        return;
      }
      case "for": {
        const pattern = node.childForFieldName("pattern");
        walkAll([node.childForFieldName("value")], ctx);
        if (pattern !== null) assignTo(pattern, ctx, undefined);
        walkAll([node.childForFieldName("body")], ctx);
        return;
      }
      case "exception_variable":
        for (const k of namedChildren(node)) if (k.type === "identifier") declare(k.text);
        return;
      case "pair": {
        const key = node.childForFieldName("key");
        walkAll([key?.type === "hash_key_symbol" ? null : key, node.childForFieldName("value")], ctx);
        return;
      }
      default:
        walkAll(namedChildren(node), ctx, ctx.use === "inherit" ? "inherit" : "value");
    }
  };

  walkAll(namedChildren(root), { use: "value", depth: 0, nesting: [], ivars: new Map() });
  return c.facts();
}

/** The reference rules of Ruby (`ruby.ts`). */
export const RUBY_REFERENCE_RULES: ReferenceRules = {
  extract: (root) => extractRubyReferences(root),
  globalDefinitions: true,
};
