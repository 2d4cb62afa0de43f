/**
 * Shared pieces of the languages' reference extractors (`ReferenceRules.extract`): the scopes of
 * local names (so a parameter or local `f` hides a top-level `f`), the enclosing definitions (the
 * `context` of a use), and the line range reported for a use. Each language walks its own tree and
 * decides what binds a local name; this module only keeps the books.
 */
import type { Node as SyntaxNode, Point } from "web-tree-sitter";
import type { ClassFact, NameBinding, NameUse, ReferenceFacts, UseKind } from "./language.js";
import { namedChildren, nodeLines, type LineRange } from "./syntax.js";

/**
 * What the collector reads of a syntax node: web-tree-sitter's `Node`, or the `PlainNode` of a
 * `plain-tree.ts` copy (`N` is the node type itself).
 */
export interface WalkedNode<N> {
  readonly id: number;
  readonly type: string;
  readonly parent: N | null;
  readonly startPosition: Point;
  readonly endPosition: Point;
  readonly namedChildren: readonly (N | null)[];
  childForFieldName(name: string): N | null;
  childrenForFieldName(name: string): readonly (N | null)[];
}

/** Statements longer than this many lines are not reported whole for a use inside them. */
const MAX_USE_LINES = 4;

/** Node types that are a statement or declaration of some grammar (tree-sitter naming conventions). */
const STATEMENT = /(_statement|_declaration|_definition|_item|_spec|^decorator|^field_declaration|^export_statement)$/;
/** Nodes above which a use's range is never looked for. */
const BLOCK =
  /^(block|statement_block|module|program|source_file|class_body|declaration_list|compilation_unit|interface_body|enum_body|field_declaration_list|statements|function_body|body_statement|block_body|then|else|do|ensure|parenthesized_statements)$/;

/**
 * The lines reported for a use at `node`: the enclosing statement when it spans at most
 * {@link MAX_USE_LINES} lines, else the largest enclosing expression that does (at least the
 * node's own lines). Walks at most 30 ancestors. `tree` caches parents and lines by node id:
 * `node.parent` walks down from the root in web-tree-sitter (tree-sitter's `ts_node_parent`), so
 * the parents a walk met on its way down ({@link ReferenceCollector.children} and its siblings)
 * are taken from there, and the uses of one statement share their ancestors.
 */
function useRange<N extends WalkedNode<N>>(node: N, tree: TreeCache<N>): LineRange {
  const known = tree.ranges.get(node.id);
  if (known !== undefined) return known;
  let best = tree.lines(node);
  let p = tree.parent(node);
  let out: LineRange | undefined;
  for (let depth = 0; p !== null && depth < 30; depth++, p = tree.parent(p)) {
    if (BLOCK.test(p.type)) break;
    const lines = tree.lines(p);
    const fits = lines.end_line - lines.start_line < MAX_USE_LINES;
    if (STATEMENT.test(p.type) || p.type === "expression_statement") {
      out = fits ? lines : best;
      break;
    }
    if (fits) best = lines;
  }
  out ??= best;
  tree.ranges.set(node.id, out);
  return out;
}

/**
 * Parents, lines and use ranges of the nodes of one tree, by node id. Parents are remembered only
 * when asking a node for its parent costs (`parentsKnown` false: web-tree-sitter's `Node`).
 */
class TreeCache<N extends WalkedNode<N>> {
  readonly ranges = new Map<number, LineRange>();
  readonly #parents = new Map<number, N | null>();
  readonly #lines = new Map<number, LineRange>();

  constructor(readonly parentsKnown: boolean) {}

  /** Remembers `parent` as the parent of `child` (a walk reached `child` from it). */
  adopt(parent: N, child: N): void {
    this.#parents.set(child.id, parent);
  }

  parent(node: N): N | null {
    if (this.parentsKnown) return node.parent;
    let p = this.#parents.get(node.id);
    if (p === undefined) {
      p = node.parent;
      this.#parents.set(node.id, p);
    }
    return p;
  }

  lines(node: N): LineRange {
    let l = this.#lines.get(node.id);
    if (l === undefined) {
      l = nodeLines(node);
      this.#lines.set(node.id, l);
    }
    return l;
  }
}

/**
 * One scope of local names: a function (or lambda, comprehension), a class body whose names only
 * its own statements see (Python), or a block whose names and types every inner scope sees (a
 * Java class's fields).
 */
export interface Scope {
  kind: "function" | "class" | "block";
  /** Names bound here (parameters, assigned names, nested definitions). */
  locals: Set<string>;
  /** Local name → the type it is bound to, as written (`x = C()` → `["C"]`). */
  types: Map<string, string[]>;
  /** Local name → first line of the nested function or class declaration that binds it. */
  defs: Map<string, number>;
  /** Local name → the function whose call result it is bound to (`x = make()`), as {@link NameUse.receiverCall}. */
  calls: Map<string, { path: string[]; selfClass?: string }>;
  /** Local name → the type of the elements of the collection it holds (`T[] x`, `List<T> x`), as written. */
  elements: Map<string, string[]>;
}

/**
 * Collects the {@link ReferenceFacts} of one file while a language walks its tree. Scopes are
 * pushed and popped by the walker; a name is local when a scope on the stack binds it (class
 * scopes are seen only from directly inside them, as in Python; languages whose methods see class
 * members by name do not push class scopes). Top-level names are not locals: they are the file's
 * definitions, which the engine resolves.
 */
export class ReferenceCollector<N extends WalkedNode<N> = SyntaxNode> {
  readonly uses: NameUse[] = [];
  readonly bindings: NameBinding[] = [];
  readonly classes: ClassFact[] = [];
  readonly exportAliases: { exported: string; local: string }[] = [];
  readonly #scopes: Scope[] = [];
  readonly #tree: TreeCache<N>;
  readonly #contexts: string[] = [];
  /** Top-level (module or file scope) name → type, for `x = C()` at the top. */
  readonly topTypes = new Map<string, string[]>();
  /** Top-level name → the function whose call result it is bound to, for `x = make()` at the top. */
  readonly topCalls = new Map<string, { path: string[]; selfClass?: string }>();
  /** {@link ReferenceFacts.returns}. */
  readonly returns: { name: string; type: string[] }[] = [];

  /**
   * @param opts.parentsKnown the walked nodes hold their parent and their named children
   *   without `null`s, at no cost (the `PlainNode`s of a `plain-tree.ts` copy): nothing is
   *   remembered for {@link use} and {@link children} gives a node's own list.
   */
  constructor(opts: { parentsKnown?: boolean } = {}) {
    this.#tree = new TreeCache<N>(opts.parentsKnown === true);
  }

  /**
   * The named children of `node` (`syntax.ts` {@link namedChildren}; not to be changed). A walker
   * that reaches nodes through this method and {@link field}/{@link fields} lets {@link use} find
   * the ancestors of a use without asking the parser for them.
   */
  children(node: N): readonly N[] {
    if (this.#tree.parentsKnown) return node.namedChildren as readonly N[];
    const kids = namedChildren(node);
    for (const k of kids) this.#tree.adopt(node, k);
    return kids;
  }

  /** `node.childForFieldName(name)`, remembered as {@link children} does. */
  field(node: N, name: string): N | null {
    const k = node.childForFieldName(name);
    if (k !== null && !this.#tree.parentsKnown) this.#tree.adopt(node, k);
    return k;
  }

  /** `node.childrenForFieldName(name)` without `null`s, remembered as {@link children} does. */
  fields(node: N, name: string): N[] {
    const out: N[] = [];
    for (const k of node.childrenForFieldName(name)) {
      if (k === null) continue;
      if (!this.#tree.parentsKnown) this.#tree.adopt(node, k);
      out.push(k);
    }
    return out;
  }

  /** Opens a scope binding `locals`; pair with {@link popScope}. */
  pushScope(kind: Scope["kind"], locals: Iterable<string> = [], defs: ReadonlyMap<string, number> = new Map()): Scope {
    const scope: Scope = { kind, locals: new Set(locals), types: new Map(), defs: new Map(defs), calls: new Map(), elements: new Map() };
    this.#scopes.push(scope);
    return scope;
  }

  popScope(): void {
    this.#scopes.pop();
  }

  /** The innermost scope, if any. */
  get scope(): Scope | undefined {
    return this.#scopes[this.#scopes.length - 1];
  }

  /** True when inside any function scope. */
  get inFunction(): boolean {
    return this.#scopes.some((s) => s.kind === "function");
  }

  /** True when `name` is bound by a scope that a use here sees (class scopes only when innermost). */
  isLocal(name: string): boolean {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const s = this.#scopes[i] as Scope;
      if (s.kind === "class" && i !== this.#scopes.length - 1) continue;
      if (s.locals.has(name)) return true;
    }
    return false;
  }

  /** The scope that binds the visible local `name`, if any. */
  scopeOf(name: string): Scope | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const s = this.#scopes[i] as Scope;
      if (s.kind === "class" && i !== this.#scopes.length - 1) continue;
      if (s.locals.has(name)) return s;
    }
    return undefined;
  }

  /** The declaration line of the nested function or class a visible local names, if it is one. */
  localDefOf(name: string): number | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const s = this.#scopes[i] as Scope;
      if (s.kind === "class" && i !== this.#scopes.length - 1) continue;
      if (s.locals.has(name)) return s.defs.get(name);
    }
    return undefined;
  }

  /**
   * What `pick` binds `name` to in the innermost scope that binds or declares it (a class scope only
   * when it is the innermost): the binding, `null` when a local declares the name without one, or
   * `undefined` when no scope knows the name.
   */
  #bound(name: string, pick: (s: Scope) => ReadonlyMap<string, string[]>): string[] | null | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const s = this.#scopes[i] as Scope;
      if (s.kind === "class" && i !== this.#scopes.length - 1) continue;
      const t = pick(s).get(name);
      if (t !== undefined) return t;
      if (s.locals.has(name)) return null;
    }
    return undefined;
  }

  /** The type a visible local (or, outside functions, a top-level name) is bound to, if known. */
  typeOf(name: string): string[] | undefined {
    const t = this.#bound(name, (s) => s.types);
    return t === null ? undefined : (t ?? this.topTypes.get(name));
  }

  /** The element type of the collection a visible local or field holds, if known ({@link Scope.elements}). */
  elementTypeOf(name: string): string[] | undefined {
    return this.#bound(name, (s) => s.elements) ?? undefined;
  }

  /** The function whose call result a visible local (or, outside functions, a top-level name) is bound to, if known. */
  callOf(name: string): { path: string[]; selfClass?: string } | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const s = this.#scopes[i] as Scope;
      if (s.kind === "class" && i !== this.#scopes.length - 1) continue;
      const t = s.calls.get(name);
      if (t !== undefined) return t;
      if (s.locals.has(name) || s.types.has(name)) return undefined;
    }
    return this.topTypes.has(name) ? undefined : this.topCalls.get(name);
  }

  /**
   * Records that `name` is bound to the result of a call of `callee` in the innermost scope (or
   * at the top); a later binding of `name` to a type or another call replaces it.
   */
  bindCall(name: string, callee: { path: string[]; selfClass?: string }): void {
    const s = this.scope;
    if (s === undefined) {
      this.topTypes.delete(name);
      this.topCalls.set(name, callee);
    } else {
      s.types.delete(name);
      s.calls.set(name, callee);
    }
  }

  /** Records that `name` is bound to an instance of `type` in the innermost scope (or at the top). */
  bindType(name: string, type: string[]): void {
    const s = this.scope;
    if (s === undefined) {
      this.topCalls.delete(name);
      this.topTypes.set(name, type);
    } else {
      s.calls.delete(name);
      s.types.set(name, type);
    }
  }

  /** Enters a definition named `qualified` (the `context` of the uses inside it). */
  pushContext(qualified: string): void {
    this.#contexts.push(qualified);
  }

  popContext(): void {
    this.#contexts.pop();
  }

  /** The innermost enclosing definition's qualified name. */
  get context(): string | undefined {
    return this.#contexts[this.#contexts.length - 1];
  }

  /**
   * Records a use of `path` whose last part is the node `at` (its line) and whose range is
   * {@link useRange} of `rangeNode` (default `at`). Paths with an empty part other than the
   * first, or empty paths, are dropped.
   */
  use(
    path: string[],
    at: N,
    use: UseKind,
    extra: {
      rangeNode?: N;
      selfClass?: string;
      receiverType?: string[];
      localDef?: number;
      from?: number;
      alternative?: boolean;
      methodRef?: boolean;
      constructs?: boolean;
      receiverCall?: { path: string[]; selfClass?: string } | undefined;
      fixture?: boolean;
    } = {},
  ): void {
    if (path.length === 0 || (path.length === 1 && path[0] === "")) return;
    for (let i = 1; i < path.length; i++) if (path[i] === "") return;
    const range = useRange(extra.rangeNode ?? at, this.#tree);
    const u: NameUse = { path, line: at.startPosition.row + 1, ...range, use };
    const ctx = this.context;
    if (ctx !== undefined) u.context = ctx;
    if (extra.selfClass !== undefined) u.selfClass = extra.selfClass;
    if (extra.receiverType !== undefined) u.receiverType = extra.receiverType;
    if (extra.localDef !== undefined) u.localDef = extra.localDef;
    if (extra.from !== undefined && extra.from > 0) u.from = extra.from;
    if (extra.alternative === true) u.alternative = true;
    if (extra.methodRef === true) u.methodRef = true;
    if (extra.constructs === true) u.constructs = true;
    if (extra.receiverCall !== undefined) u.receiverCall = extra.receiverCall;
    if (extra.fixture === true) u.fixture = true;
    this.uses.push(u);
  }

  /**
   * Records an import binding and, unless `silent`, its `import` use at `at`, whose path is the
   * imported name as written (`f` of `from a import f as g`); the statement's range when it is short.
   */
  bind(binding: NameBinding, at: N, silent = false): void {
    this.bindings.push(binding);
    if (silent) return;
    const range = useRange(at, this.#tree);
    const written = binding.member !== undefined && binding.member !== "*" ? binding.member : binding.local;
    const u: NameUse = { path: [written], line: at.startPosition.row + 1, ...range, use: "import", binding: this.bindings.length - 1 };
    const ctx = this.context;
    if (ctx !== undefined) u.context = ctx;
    this.uses.push(u);
  }

  /** The collected facts. */
  facts(): ReferenceFacts {
    const out: ReferenceFacts = { uses: this.uses, bindings: this.bindings, classes: this.classes };
    if (this.exportAliases.length > 0) out.exportAliases = this.exportAliases;
    if (this.returns.length > 0) out.returns = this.returns;
    return out;
  }
}
