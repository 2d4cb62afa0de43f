/**
 * A plain JavaScript copy of a syntax tree, made with one tree-cursor walk, for extractors that
 * visit every node and ask each for its children, fields and text several times.
 *
 * Every such question to a web-tree-sitter `Node` is a call into the WASM module that copies the
 * answer into a new `Node` object (web-tree-sitter 0.25 `Node.namedChildren`,
 * `Node.childForFieldName`, `Node.endPosition` …), and `Node.parent` walks down again from the root
 * (tree-sitter's `ts_node_parent`). The copy asks the parser once per node, through a single
 * `TreeCursor` (type id, named flag, field id, start and end index and position), and answers the
 * rest from JavaScript objects.
 *
 * The copy answers as the `Node` API does (checked over whole repositories by the C/C++ reference
 * extraction, `test/evidence/plain-tree.test.ts`): the visible children in order (named and
 * anonymous; hidden nodes are looked through as `Node.children` does), a child's field as the
 * cursor names it (`TreeCursor.currentFieldId`: a visible child of a hidden node takes that node's
 * field, as in `Node.childrenForFieldName`), the text sliced from the parsed text, and rows and
 * columns as `Node.startPosition` gives them (0-based; columns in UTF-16 code units).
 */
import type { Language, Node as SyntaxNode, Point } from "web-tree-sitter";

/** The parsed text a tree was made from, the index of its first character in it, and the row and column of an index. */
interface Text {
  readonly text: string;
  readonly base: number;
  readonly at: (index: number) => Point;
}

/** The child list of a node without children (one shared array: most nodes of a tree are tokens). */
const NO_CHILDREN: readonly PlainNode[] = Object.freeze([]);

/** One node of a {@link plainTree} copy (the subset of web-tree-sitter's `Node` the extractors read). */
export class PlainNode {
  /** Visible children, named and anonymous, in document order. */
  children: readonly PlainNode[] = NO_CHILDREN;
  parent: PlainNode | null = null;
  #named: readonly PlainNode[] | undefined;
  /** How many of {@link children} are anonymous. */
  #anonymous = 0;

  constructor(
    /** Unique within its tree (document order, the root is 0). */
    readonly id: number,
    readonly type: string,
    readonly isNamed: boolean,
    /** The field its parent holds it under (`declarator`, `body` …), if any. */
    readonly fieldName: string | null,
    /** Start and end (exclusive) as UTF-16 indices into the parsed text. */
    readonly startIndex: number,
    readonly endIndex: number,
    private readonly source: Text,
  ) {}

  /** Appends `child` (made by the copy) as the last child of this node. */
  adopt(child: PlainNode): void {
    child.parent = this;
    if (this.children === NO_CHILDREN) this.children = [child];
    else (this.children as PlainNode[]).push(child);
    if (!child.isNamed) this.#anonymous++;
  }

  /** Row and column of the start (computed when asked: most nodes are never asked). */
  get startPosition(): Point {
    return this.startIndex < 0 ? NOWHERE : this.source.at(this.startIndex);
  }

  /** Row and column of the end. */
  get endPosition(): Point {
    return this.endIndex < 0 ? NOWHERE : this.source.at(this.endIndex);
  }

  /** The node's text in the parsed text. */
  get text(): string {
    return this.source.text.slice(this.startIndex - this.source.base, this.endIndex - this.source.base);
  }

  /** The named children, in document order. */
  get namedChildren(): readonly PlainNode[] {
    this.#named ??= this.#anonymous === 0 ? this.children : this.children.filter((k) => k.isNamed);
    return this.#named;
  }

  /**
   * The first child held under the field `name`, or null; always null in an `ERROR` node, as
   * `Node.childForFieldName` answers there (tree-sitter's `ts_node_child_by_field_id` reads the
   * field map of the node's own production, and an error node has none, while the cursor still
   * names the fields of the nodes the parser gave up on).
   */
  childForFieldName(name: string): PlainNode | null {
    if (this.type === "ERROR") return null;
    for (const k of this.children) if (k.fieldName === name) return k;
    return null;
  }

  /** The children held under the field `name`, in document order. */
  childrenForFieldName(name: string): PlainNode[] {
    return this.children.filter((k) => k.fieldName === name);
  }

  /** This node (when its type is one of `types`) and the nodes below it of those types, in document order. */
  descendantsOfType(types: readonly string[]): PlainNode[] {
    const wanted = new Set(types);
    const out: PlainNode[] = [];
    const stack: PlainNode[] = [this];
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      if (wanted.has(n.type)) out.push(n);
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as PlainNode);
    }
    return out;
  }
}

/** The position of an anonymous node outside a field (punctuation, keywords), which is not asked for. */
const NOWHERE: Point = Object.freeze({ row: -1, column: -1 });

/** Whether each node type id of a grammar is named (`Language.nodeTypeIsNamed`, one call per id and grammar). */
const namedTypes = new WeakMap<Language, Map<number, boolean>>();

function isNamedType(language: Language, typeId: number): boolean {
  let known = namedTypes.get(language);
  if (known === undefined) namedTypes.set(language, (known = new Map()));
  let named = known.get(typeId);
  if (named === undefined) known.set(typeId, (named = language.nodeTypeIsNamed(typeId)));
  return named;
}

/**
 * Rows and columns of the indices of a text that starts at `base` of the parsed text, at row
 * `row0` and column `col0` there: rows count `\n` only and columns are UTF-16 code units since the
 * line's start, as web-tree-sitter reports positions for a parsed string.
 */
function positions(text: string, base: number, row0: number, col0: number): (index: number) => Point {
  const starts = [0];
  for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", nl + 1)) starts.push(nl + 1);
  return (index) => {
    const at = index - base;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo === 0 ? { row: row0, column: col0 + at } : { row: row0 + lo, column: at - (starts[lo] as number) };
  };
}

/** What a {@link plainTree} copy leaves out, for an extractor that never reads it. */
export interface PlainTreeOptions {
  /**
   * Nodes copied without their children (for a caller that never looks inside them: comments,
   * string literals): a set of node types, or a test of the copied node (its type and text).
   */
  leaves?: ReadonlySet<string> | ((node: PlainNode) => boolean);
  /**
   * Copy only the named nodes and the anonymous nodes held under a field (the operator of a
   * binary expression): an anonymous node under no field (punctuation, keywords; a third of a
   * Python tree) is left out, and so is anything below it (tree-sitter makes such a node from a
   * string in the grammar, or from a rule aliased to one: Python's `not in`, itself held under
   * `operators`). `children` then lists the nodes kept.
   */
  namedOnly?: boolean;
}

/**
 * A {@link PlainNode} copy of the tree under `root`, made with one tree cursor (iterative: a deep
 * tree cannot overflow the stack). An anonymous node held under no field (punctuation, keywords;
 * about 40% of a C/C++ tree) is copied with its type only: start and end index -1, positions
 * `{row: -1, column: -1}`, empty text (or not at all, {@link PlainTreeOptions.namedOnly}). Per node
 * the cursor is asked for its type id, field id and start and end index; rows and columns are
 * computed from the indices and the text when a node's position is asked for (a reference walk
 * asks it of the nodes of its uses only). The caller keeps the tree alive while this runs; the
 * copy does not need it afterwards.
 * @param opts a set of types is {@link PlainTreeOptions.leaves}.
 */
export function plainTree(root: SyntaxNode, opts: PlainTreeOptions | ReadonlySet<string> = {}): PlainNode {
  const { leaves = NO_LEAVES, namedOnly = false } = opts instanceof Set ? { leaves: opts as ReadonlySet<string> } : (opts as PlainTreeOptions);
  const isLeaf = typeof leaves === "function" ? leaves : (n: PlainNode) => leaves.has(n.type);
  const text = root.text;
  const source: Text = { text, base: root.startIndex, at: positions(text, root.startIndex, root.startPosition.row, root.startPosition.column) };
  const language = root.tree.language;
  const { types, fields } = language;
  const cursor = root.walk();
  try {
    let id = 0;
    /** The node at the cursor, or null when the options leave it out (never the top: `keep`). */
    const make = (keep = false): PlainNode | null => {
      const typeId = cursor.nodeTypeId;
      const named = isNamedType(language, typeId);
      const field = fields[cursor.currentFieldId] ?? null;
      if (!named && field === null) return namedOnly && !keep ? null : new PlainNode(id++, types[typeId] || "ERROR", false, null, -1, -1, source);
      return new PlainNode(id++, types[typeId] || "ERROR", named, field, cursor.startIndex, cursor.endIndex, source);
    };
    const top = make(true) as PlainNode;
    let parent = top;
    if (isLeaf(top) || !cursor.gotoFirstChild()) return top;
    for (;;) {
      const node = make();
      if (node !== null) parent.adopt(node);
      if (node !== null && !isLeaf(node) && cursor.gotoFirstChild()) {
        parent = node;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || parent === top) return top;
        parent = parent.parent as PlainNode;
      }
    }
  } finally {
    cursor.delete();
  }
}

const NO_LEAVES: ReadonlySet<string> = new Set();
