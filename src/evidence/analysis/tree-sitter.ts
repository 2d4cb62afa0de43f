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
import { createRequire } from "node:module";
import { Language, Parser, Query, type Tree } from "web-tree-sitter";
import type { FileFacts, LanguageSpec } from "./lang/language.js";
import { LANGUAGES } from "./lang/index.js";
import { useQueryClass } from "./lang/query-cache.js";

useQueryClass(Query);

const requireFromHere = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;
const grammars = new Map<string, Promise<Language>>();
let parser: Parser | undefined;

/** Initialises the WASM runtime once. Later calls return the same promise. */
function initTreeSitter(): Promise<void> {
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
 * @throws Error when the `.wasm` is missing or its ABI is not supported by the runtime.
 */
async function loadGrammar(lang: Pick<LanguageSpec, "wasm">): Promise<Language> {
  let pending = grammars.get(lang.wasm);
  if (pending === undefined) {
    pending = initTreeSitter().then(() => Language.load(grammarPath(lang.wasm)));
    grammars.set(lang.wasm, pending);
    pending.catch(() => grammars.delete(lang.wasm));
  }
  return pending;
}

/**
 * Parses `source` with the grammar of `lang`. The caller owns the tree and must call
 * `tree.delete()` (or use {@link withTree}). Rows of the tree are 0-based and count `\n` only.
 * @throws Error when the grammar cannot be loaded or the parser gives up (no tree).
 */
export async function parseSource(lang: Pick<LanguageSpec, "wasm" | "id">, source: string): Promise<Tree> {
  const language = await loadGrammar(lang);
  parser ??= new Parser();
  parser.setLanguage(language);
  const tree = parser.parse(source);
  if (tree === null) throw new Error(`tree-sitter could not parse this ${lang.id} source`);
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
 * Parses `source` (as `lang.prepare` gives it, when the language has that step) and extracts its
 * definitions and imports with `lang.extract`, and its name uses with `lang.references.extract` when
 * the language has reference rules (one parse for both).
 */
export function extractFacts(lang: LanguageSpec, source: string): Promise<FileFacts> {
  return withTree(lang, lang.prepare?.(source) ?? source, (tree) => {
    const facts = lang.extract(tree.rootNode, source);
    if (lang.references !== undefined) facts.references = lang.references.extract(tree.rootNode, source);
    return facts;
  });
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
