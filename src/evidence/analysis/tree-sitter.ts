/**
 * The tree-sitter runtime: `web-tree-sitter` 0.25.10 (WASM) with the grammar `.wasm` files that
 * the official grammar packages ship (`tree-sitter-python/tree-sitter-python.wasm` …), resolved
 * with `createRequire(import.meta.url).resolve` (web-tree-sitter README: `Language.load` takes a path).
 *
 * - The runtime is initialised once, lazily (`Parser.init()`), on the first parse.
 * - Each grammar is loaded once and cached (keyed by its `.wasm` specifier).
 * - Trees live in WASM memory: {@link parseSource} hands the tree to the caller, who must call
 *   `tree.delete()`; {@link withTree} and {@link extractFacts} do that themselves.
 * - {@link selfTest} loads every registered grammar and parses its sample, so that an upgrade of
 *   the runtime or a grammar cannot silently break a language (used by `codecite doctor` and a test).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Language, Parser, Query, type Range, type Tree } from "web-tree-sitter";
import type { FileFacts, LanguageSpec, SymbolDef, TextFocus } from "./lang/language.js";
import { LANGUAGES } from "./lang/index.js";
import { useQueryClass } from "./lang/query-cache.js";
import { visitNodes } from "./lang/syntax.js";

useQueryClass(Query);

const requireFromHere = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;
const grammars = new Map<string, Promise<Language>>();
let parser: Parser | undefined;

/** Initialises the WASM runtime once. Later calls return the same promise. */
export function initTreeSitter(): Promise<void> {
  runtime ??= Parser.init().catch((err: unknown) => {
    runtime = undefined;
    throw err;
  });
  return runtime;
}

/**
 * Absolute path of a grammar `.wasm` given as `<package>/<file>.wasm`.
 * @throws Error (`MODULE_NOT_FOUND`) when the grammar package is not installed.
 */
function grammarPath(wasm: string): string {
  return requireFromHere.resolve(wasm);
}

/**
 * The grammar of a language, loaded once. A failed load is not cached, so a later call retries.
 * The `.wasm` is read here and its bytes given to `Language.load`: given a path, web-tree-sitter
 * 0.25 reads it after a dynamic `import("fs/promises")` (tree-sitter.cjs `Language.load`), which
 * in the command line's CommonJS query bundles starts Node's ES module loader (eight of Node's
 * own modules compiled, without their embedded code cache once main.cjs has set its V8 flag)
 * only to read one file.
 * @throws Error when the `.wasm` is missing or its ABI is not supported by the runtime.
 */
async function loadGrammar(lang: Pick<LanguageSpec, "wasm">): Promise<Language> {
  let pending = grammars.get(lang.wasm);
  if (pending === undefined) {
    const bytes = Promise.resolve().then(() => readFile(grammarPath(lang.wasm)));
    bytes.catch(() => undefined); // awaited below, after the runtime's start; its rejection is the load's
    pending = initTreeSitter().then(async () => Language.load(await bytes));
    grammars.set(lang.wasm, pending);
    pending.catch(() => grammars.delete(lang.wasm));
  }
  return pending;
}

/**
 * Starts the runtime and loads the grammar of `lang` ahead of its first parse (a failure is left to
 * that parse to report).
 */
export function prepareGrammar(lang: Pick<LanguageSpec, "wasm">): Promise<void> {
  return loadGrammar(lang).then(() => undefined);
}

/**
 * Wall-clock limit of one parse in ms (10 s), unless `CODECITE_PARSE_TIME_LIMIT_MS` (a positive
 * number) sets another. Ordinary code parses at hundreds of KB per second even on a loaded machine
 * (a 1 MB minified bundle: about 1 s idle), so a 1 MiB file (the workspace's size limit) stays far
 * below it; text made to drive the parser into error recovery on deep stacks (thousands of open
 * brackets, ambiguous generics) parses at tens of KB per second and is cut.
 */
const PARSE_TIME_LIMIT_MS = 10_000;

/** The parse time limit in force: `CODECITE_PARSE_TIME_LIMIT_MS` when it is a positive number, else {@link PARSE_TIME_LIMIT_MS}. */
function parseTimeLimitMs(): number {
  const set = Number(process.env.CODECITE_PARSE_TIME_LIMIT_MS);
  return Number.isFinite(set) && set > 0 ? set : PARSE_TIME_LIMIT_MS;
}

/** {@link parseSource} gave up after the parse time limit (its `name` survives the parse pool). */
export class ParseTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`parsing took longer than ${limitMs} ms`);
    this.name = "ParseTimeoutError";
  }
}

/**
 * Parses `source` with the grammar of `lang`. The caller owns the tree and must call
 * `tree.delete()` (or use {@link withTree}). Rows of the tree are 0-based and count `\n` only.
 * The parse is cancelled after the parse time limit ({@link PARSE_TIME_LIMIT_MS}): tree-sitter
 * calls the `progressCallback` of its parse options every 100 parse operations and stops when it
 * returns true (web-tree-sitter `ParseOptions`; tree-sitter `ts_parser_parse_with_options`), and
 * the parser is then reset so that the next parse starts afresh.
 * @throws ParseTimeoutError past the time limit; Error when the grammar cannot be loaded or the
 *   parser gives up (no tree).
 */
export async function parseSource(lang: Pick<LanguageSpec, "wasm" | "id">, source: string, includedRanges?: Range[]): Promise<Tree> {
  const language = await loadGrammar(lang);
  parser ??= new Parser();
  parser.setLanguage(language);
  const limitMs = parseTimeLimitMs();
  const deadline = Date.now() + limitMs; // not performance.now(): that global loads perf_hooks on first use
  let late = false;
  const tree = parser.parse(source, null, { progressCallback: () => (late = Date.now() > deadline), ...(includedRanges !== undefined ? { includedRanges } : {}) });
  if (tree === null) {
    parser.reset();
    if (late) throw new ParseTimeoutError(limitMs);
    throw new Error(`tree-sitter could not parse this ${lang.id} source`);
  }
  return tree;
}

/** Parses `source`, runs `fn` on the tree and deletes the tree afterwards (also when `fn` throws). */
async function withTree<T>(
  lang: Pick<LanguageSpec, "wasm" | "id">,
  source: string,
  fn: (tree: Tree) => T,
): Promise<T> {
  const tree = await parseSource(lang, source);
  try {
    return fn(tree);
  } finally {
    tree.delete();
  }
}

/**
 * Deepest syntax tree whose facts are extracted. Real sources stay far below it (about 30–80 levels
 * in minified bundles and in the TypeScript compiler's 9 MB `typescript.js`); a file of thousands
 * of nested functions goes far above it, and extractors that walk up to parents would then cost
 * depth × nodes.
 */
export const MAX_SYNTAX_DEPTH = 512;

/** {@link extractFacts} refused a tree deeper than {@link MAX_SYNTAX_DEPTH} (its `name` survives the parse pool). */
export class SyntaxTooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`the syntax tree is nested more than ${limit} levels deep`);
    this.name = "SyntaxTooDeepError";
  }
}

/**
 * Whether the tree under `root` is deeper than `limit` levels (a node `limit + 1` levels below
 * `root`, counting every node as a tree cursor walks them). A subtree of `n` nodes is at most
 * `n - 1` levels deep (`Node.descendantCount` counts the node itself, and tree-sitter keeps the
 * count in each subtree), so the walk descends only into subtrees big enough to reach past
 * `limit`: in ordinary sources it looks at a few top-level nodes instead of every node.
 */
export function syntaxDepthExceeds(root: Tree["rootNode"], limit: number): boolean {
  const stack: { node: Tree["rootNode"]; depth: number }[] = [{ node: root, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, depth } = top;
    if (depth + node.descendantCount - 1 <= limit) continue;
    if (depth === limit) return true; // it has children (it has descendants), one level too deep
    for (const child of node.children) if (child !== null) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}

/** A line longer than this (UTF-16 code units) is minified or generated: definitions on it get `start_column`. */
export const LONG_LINE_CHARS = 300;

/** Fields under which grammars put a definition's name (`name`; `key` of an object pair; `property` of `a.b = …`; C's `declarator`). */
const NAME_FIELDS = new Set(["name", "key", "property", "declarator"]);

/**
 * Sets `start_column` on the definitions whose start line is longer than {@link LONG_LINE_CHARS}:
 * the column of an identifier with the definition's name in a name field on that line (the k-th
 * such identifier for the k-th definition of that name there, in document order), else of the
 * name's first whole-word occurrence on the line. One cursor walk, only when such lines exist.
 */
function addLongLineColumns(root: Tree["rootNode"], source: string, symbols: SymbolDef[]): void {
  const lineStarts = [0];
  let longest = 0;
  for (let nl = source.indexOf("\n"); nl >= 0; nl = source.indexOf("\n", nl + 1)) {
    longest = Math.max(longest, nl - lineStarts[lineStarts.length - 1]!);
    lineStarts.push(nl + 1);
  }
  longest = Math.max(longest, source.length - lineStarts[lineStarts.length - 1]!);
  if (longest <= LONG_LINE_CHARS) return;
  const lineLength = (row: number): number => (row + 1 < lineStarts.length ? lineStarts[row + 1]! - 1 : source.length) - (lineStarts[row] ?? 0);
  const wanted = new Map<string, SymbolDef[]>(); // `${row} ${name}` → definitions, in list order
  for (const def of symbols) {
    const row = def.start_line - 1;
    if (lineLength(row) <= LONG_LINE_CHARS) continue;
    const key = `${row} ${def.name}`;
    const list = wanted.get(key);
    if (list) list.push(def);
    else wanted.set(key, [def]);
  }
  if (wanted.size === 0) return;
  const columns = new Map<string, number[]>();
  visitNodes(
    root,
    (cursor) => {
      const field = cursor.currentFieldName;
      if (field !== null && NAME_FIELDS.has(field)) {
        const row = cursor.startPosition.row;
        const key = `${row} ${cursor.currentNode.text}`;
        if (wanted.has(key)) {
          const list = columns.get(key);
          if (list) list.push(cursor.startPosition.column);
          else columns.set(key, [cursor.startPosition.column]);
        }
      }
      return true;
    },
    MAX_SYNTAX_DEPTH,
  );
  for (const [key, defs] of wanted) {
    const found = columns.get(key) ?? [];
    const row = Number(key.slice(0, key.indexOf(" ")));
    defs.forEach((def, k) => {
      let column = found[k] ?? found[0];
      if (column === undefined) {
        const line = source.slice(lineStarts[row], lineStarts[row]! + lineLength(row));
        const m = new RegExp(`(?<![\\w$])${def.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w$])`).exec(line);
        column = m?.index;
      }
      if (column !== undefined) def.start_column = column;
    });
  }
}

/**
 * Parses `source` (as `lang.prepare` gives it, when the language has that step) and extracts its
 * definitions and imports with `lang.extract`, and, unless `opts.references` is false, its name uses
 * with `lang.references.extract` when the language has reference rules (one parse for both; the uses
 * cost more than the rest together, so queries that need no references leave them out).
 * @throws SyntaxTooDeepError when the tree is deeper than {@link MAX_SYNTAX_DEPTH} (extraction
 *   would be superlinear); ParseTimeoutError when the parse takes longer than its time limit;
 *   Error when the parser gives up.
 */
export function extractFacts(lang: LanguageSpec, source: string, opts: { references?: boolean } = {}): Promise<FileFacts> {
  const references = opts.references ?? true;
  return withTree(lang, lang.prepare?.(source) ?? source, (tree) => {
    if (syntaxDepthExceeds(tree.rootNode, MAX_SYNTAX_DEPTH)) throw new SyntaxTooDeepError(MAX_SYNTAX_DEPTH);
    const facts = lang.extract(tree.rootNode, source);
    addLongLineColumns(tree.rootNode, source, facts.symbols);
    if (references && lang.references !== undefined) facts.references = lang.references.extract(tree.rootNode, source, facts);
    return facts;
  });
}

/**
 * Tree-sitter ranges of `spans` of `text` (UTF-16 indices, as the runtime takes them; rows and
 * columns from the text's line ends).
 */
function rangesOf(text: string, spans: readonly { start: number; end: number }[]): Range[] {
  const out: Range[] = [];
  let row = 0;
  let lineStart = 0;
  let at = 0;
  const point = (index: number) => {
    for (let nl = text.indexOf("\n", at); nl >= 0 && nl < index; nl = text.indexOf("\n", nl + 1)) {
      row++;
      lineStart = nl + 1;
    }
    at = Math.max(at, index);
    return { row, column: index - lineStart };
  };
  for (const s of spans) {
    const startPosition = point(s.start);
    out.push({ startIndex: s.start, endIndex: s.end, startPosition, endPosition: point(s.end) });
  }
  return out;
}

/**
 * The facts of `source` that name one of `names`, from a parse of only the ranges the language's
 * `ReferenceRules.focus` gives (see there): the imports whole (read from the text), the
 * definitions and uses written with one of the names as the whole text's parse gives them, and
 * others only where the ranges hold them; with the focus, which tells the other names whose
 * definitions are whole. `undefined` when the language has no such ranges, they cannot be told,
 * or their parse holds an error (the whole text must be parsed).
 * @throws as {@link extractFacts}.
 */
export async function extractFocusedFacts(lang: LanguageSpec, source: string, names: readonly string[]): Promise<{ facts: FileFacts; focus: TextFocus } | undefined> {
  const rules = lang.references;
  if (rules?.focus === undefined) return undefined;
  const text = lang.prepare?.(source) ?? source;
  const focus = rules.focus(text, names);
  if (focus === undefined) return undefined;
  // No range: an empty text's parse, whose facts still carry the imports (read from the text).
  const tree = focus.ranges.length === 0 ? await parseSource(lang, "") : await parseSource(lang, text, rangesOf(text, focus.ranges));
  try {
    if (tree.rootNode.hasError || syntaxDepthExceeds(tree.rootNode, MAX_SYNTAX_DEPTH)) return undefined;
    const facts = lang.extract(tree.rootNode, source);
    addLongLineColumns(tree.rootNode, source, facts.symbols);
    facts.references = rules.extract(tree.rootNode, source, facts);
    return { facts, focus };
  } finally {
    tree.delete();
  }
}

/** The outcome of loading one grammar in {@link selfTest}. */
export interface GrammarStatus {
  /** Language id (`python`, `tsx` …). */
  language: string;
  /** The grammar specifier (`tree-sitter-python/tree-sitter-python.wasm`). */
  wasm: string;
  ok: boolean;
  /** The grammar's ABI (language) version when it loaded. */
  abi?: number;
  /** Why it failed. */
  error?: string;
}

/**
 * Loads every registered grammar and parses its `sample` (empty text when none), checking that a
 * tree comes back without error nodes. Never throws; one entry per language of {@link LANGUAGES},
 * in registration order.
 */
export async function selfTest(languages: readonly LanguageSpec[] = LANGUAGES): Promise<GrammarStatus[]> {
  const out: GrammarStatus[] = [];
  for (const lang of languages) {
    const status: GrammarStatus = { language: lang.id, wasm: lang.wasm, ok: false };
    try {
      const language = await loadGrammar(lang);
      status.abi = language.abiVersion;
      const hasError = await withTree(lang, lang.sample ?? "", (tree) => tree.rootNode.hasError);
      if (hasError) status.error = "the sample did not parse cleanly";
      else status.ok = true;
    } catch (err) {
      status.error = err instanceof Error ? err.message || err.name : String(err);
    }
    out.push(status);
  }
  return out;
}
