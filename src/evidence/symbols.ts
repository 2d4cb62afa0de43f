/**
 * `find_symbol`: where a function, class, method, interface, type, enum or constant is defined,
 * as `definition` records spanning the whole definition (what each
 * language reports is stated in `lang/<language>.ts`).
 *
 * - `name` is a plain name (`load_index`) or a qualified one: `Class.method`, `Outer.Inner.method`,
 *   also written `Type::method` or `Class#method`, optionally led by the module's dotted path
 *   (`rag_common.load_index`, `shop.cart.Cart.total`). A plain name also finds methods of that
 *   name (reported as `Class.method`); a qualified name matches the innermost containers
 *   (`Inner.method` finds `Outer.Inner.method`). Matching is exact and case-sensitive.
 * - `kind` keeps only definitions of that kind, and also admits declarations without a body (C/C++
 *   prototypes, `SymbolDef.declaration`), which a query without `kind` leaves out; `path` limits the search to a file or folder
 *   (validated by the workspace: `OUTSIDE_ROOT`, `DENIED`, `NOT_FOUND`).
 * - Only files whose text contains the name are parsed (`text-prefilter.ts`), and of those only the
 *   ones where the name may stand as a definition's (a lexical screen, `definition-scan.ts`; Python;
 *   its verdicts kept per file and state, `definition-verdicts.ts`), and parsed facts are cached
 *   (`facts.ts`), so a warm query costs about one ripgrep run over the tree.
 * - An empty result explains itself in `note`: definitions of other kinds or in other classes,
 *   names that differ only in case or by a small edit (`close-names.ts`), files not parsed, and
 *   the languages that have a parser. Close names are found without parsing the tree: candidate
 *   names come from one ripgrep run that lists the names written after a definition keyword
 *   (`text-prefilter.ts` {@link definitionNamesIn}), and only the files that mention the closest
 *   of them are parsed, so every suggestion is a real definition with its location.
 */
import { advice, joinAdvice, listAdvice, location, param, plain, shortListAdvice, tool, type AdviceText, type Term } from "./advice.js";
import type { FindSymbolArgs } from "./args.js";
import { compareEvidence, throwIfAborted, type Evidence, type EvidenceResult, ToolError } from "./evidence.js";
import { applyBudget, DEFAULT_LINE_CHARS, recordsShown, scopedBudget, type OutputScope } from "./budget.js";
import { mapLimit } from "./concurrency.js";
import { closeNames } from "./close-names.js";
import { describeFactsSkips, loadFacts, warmUpParser, type FactsMap, type FactsTier } from "./analysis/facts.js";
import { loadDefinitionFacts } from "./analysis/definition-verdicts.js";
import { languageFor, LANGUAGES } from "./analysis/lang/index.js";
import type { ProjectView, SymbolDef } from "./analysis/lang/language.js";
import type { FileStat } from "../fact-cache/fact-index.js";
import { memoize } from "./analysis/lang/project-files.js";
import { linesEvidence, linesEvidenceAround } from "./line-evidence.js";
import { changedSince, listIsComplete, statFiles, treeSnapshot, type TreeSnapshot } from "./analysis/project-view.js";
import { rememberedMentions } from "./analysis/mention-index.js";
import { definitionNamesIn, filesMentioning } from "./analysis/text-prefilter.js";
import type { Workspace } from "./sandbox/workspace.js";

/** Longest accepted `name`, in characters. */
export const MAX_SYMBOL_NAME_CHARS = 300;
/** Candidate close names whose definitions are looked up (parsed) for an empty result. */
export const MAX_CLOSE_CANDIDATES = 10;
/** At most this many files are parsed to confirm close names (in path order). */
export const MAX_FILES_FOR_SUGGESTIONS = 1000;

interface SymbolQuery {
  name: string;
  /** Container parts, outermost first (`["Outer", "Inner"]`), empty for a plain name. */
  containers: string[];
}

/** Splits `Outer.Inner.method` / `Type::method` / `Class#method`. */
export function parseSymbolName(raw: string): SymbolQuery {
  if (raw.length > MAX_SYMBOL_NAME_CHARS) {
    throw new ToolError("INVALID_ARGUMENT", `name is too long (${raw.length} characters; limit ${MAX_SYMBOL_NAME_CHARS})`);
  }
  const text = raw.trim().replace(/\(\)$/, "");
  if (text === "" || /[\s\0]/.test(text)) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `name must be one symbol name without spaces (got ${JSON.stringify(raw.slice(0, 60))})`,
      advice`Pass a name such as load_index or Class.method; use ${tool("search_code")} for free text.`,
    );
  }
  const parts = text.split(/\.|::|#/).filter((p) => p !== "");
  const name = parts.pop();
  if (name === undefined) throw new ToolError("INVALID_ARGUMENT", `name ${JSON.stringify(raw)} has no symbol part`);
  return { name, containers: parts };
}

function qualified(def: SymbolDef): string {
  return def.container ? `${def.container}.${def.name}` : def.name;
}

function matches(def: SymbolDef, q: SymbolQuery, file: string): boolean {
  if (def.name !== q.name) return false;
  if (q.containers.length === 0) return true;
  const want = q.containers.join(".");
  if (def.container === want || def.container?.endsWith(`.${want}`)) return true;
  // Module-qualified: `rag_common.load_index`, `shop.cart.Cart.total` (the file's path as dotted parts).
  const dotted = `${file.replace(/(\.d)?\.[^./]+$/, "").replace(/\/(__init__|index)$/, "").split("/").join(".")}.${qualified(def)}`;
  const full = [...q.containers, q.name].join(".");
  return dotted === full || dotted.endsWith(`.${full}`);
}

/** The files to search (repository-relative): all source files, or those under `path`. */
interface SearchScope {
  files: readonly string[];
  /** {@link files} as a set, when already built. */
  set?: ReadonlySet<string>;
  /** The real repository-relative folder or file searched, when `path` was given. */
  under?: string;
  /** Files in scope without a parser. */
  nonSource: number;
  /** True when the files come from the workspace's tree snapshot (which may be stale). */
  fromSnapshot: boolean;
  /** The snapshot's list is whole (`listIsComplete`): a remembered prefilter answer may serve. */
  complete?: boolean;
  /** The view of the tree snapshot taken (what derived values are kept with, `definition-verdicts.ts`). */
  view: ProjectView;
}

/** What the name-text prefilter needs of a scope ({@link mentioning}). */
type MentionScope = Omit<SearchScope, "view">;

/** True when `pathArg` names no narrower scope than the whole tree. */
function isWholeTree(pathArg: string | undefined): boolean {
  return pathArg === undefined || pathArg.trim() === "" || pathArg.trim() === ".";
}

/**
 * @param known the tree snapshot the caller's query already holds (checked once per query), used
 *   unless `refresh` asks for a new walk.
 */
async function sourceFiles(
  ws: Workspace,
  pathArg: string | undefined,
  signal: AbortSignal | undefined,
  refresh: boolean,
  known?: Promise<TreeSnapshot>,
): Promise<SearchScope> {
  const snapshot = async () => (known !== undefined && !refresh ? known : treeSnapshot(ws, { ...(signal ? { signal } : {}), refresh }));
  if (isWholeTree(pathArg)) {
    const snap = await snapshot();
    const { files, set } = memoize(snap.view, "symbols:sources", () => {
      const list = snap.files.filter((f) => languageFor(f) !== undefined);
      return { files: list, set: new Set(list) };
    });
    return { files, set, nonSource: snap.files.length - files.length, fromSnapshot: true, complete: listIsComplete(snap.view), view: snap.view };
  }
  const under = await ws.walkTarget(pathArg);
  if (under === undefined) return sourceFiles(ws, undefined, signal, refresh, known);
  // Inside the walked tree, the snapshot's files; otherwise (a folder never walked, an ignored file
  // named explicitly) walk the path itself.
  const snap = await snapshot();
  let listed = snap.files.filter((f) => f === under || f.startsWith(`${under}/`));
  const fromSnapshot = listed.length > 0;
  if (!fromSnapshot) {
    listed = await ws.walkPaths(under, signal);
    if (listed.length === 0 && statFiles(ws, [under]).length === 1) listed = [under];
  }
  const files = listed.filter((f) => languageFor(f) !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { files, under, nonSource: listed.length - files.length, fromSnapshot, view: snap.view };
}

function languagesLine(): string {
  return [...new Set(LANGUAGES.map((l) => `${l.id} (${l.extensions.join(" ")})`))].join(", ");
}

/**
 * Scopes of at most this many files skip the ripgrep prefilter: their facts come straight from the
 * cache (a `path` naming one file or a small folder), which costs less than starting ripgrep.
 */
const DIRECT_SCOPE_FILES = 16;

/** The source files in scope and the facts of those that mention `q.name` (one ripgrep run, then the fact cache). */
async function parseCandidates(
  ws: Workspace,
  q: SymbolQuery,
  pathArg: string | undefined,
  signal: AbortSignal | undefined,
  tier: FactsTier = "definitions",
  known?: Promise<TreeSnapshot>,
): Promise<{ scope: SearchScope; facts: FactsMap }> {
  let scope: SearchScope;
  let mentioned: Set<string> | undefined | "stale";
  if (isWholeTree(pathArg)) {
    // ripgrep needs no file list to start: it runs (in its own process) while this one reads the
    // cached list of the tree and opens the fact cache.
    const pending = sourceFiles(ws, undefined, signal, false, known);
    warmUpParser(ws);
    mentioned = await mentioning(ws, pending, [q.name], signal);
    scope = await pending;
  } else {
    // The scope needs the walk of the tree (ripgrep): a file named by `path` is parsed after it.
    warmUpParser(ws, languageFor(pathArg ?? ""));
    scope = await sourceFiles(ws, pathArg, signal, false, known);
    if (scope.under !== undefined && scope.files.length <= DIRECT_SCOPE_FILES) return { scope, facts: await load(ws, scope, statFiles(ws, scope.files), q, signal, tier) };
    mentioned = await mentioning(ws, scope, [q.name], signal);
  }
  if (mentioned === "stale") {
    scope = await sourceFiles(ws, pathArg, signal, true);
    mentioned = await mentioning(ws, scope, [q.name], signal);
  }
  const toParse = statFiles(ws, mentioned === undefined || mentioned === "stale" ? scope.files : [...mentioned].sort());
  return { scope, facts: await load(ws, scope, toParse, q, signal, tier) };
}

/**
 * The facts of `files`: a `definitions` load goes through the definition screen and its kept
 * verdicts (`definition-verdicts.ts`), so a file that only uses the name is not parsed; a
 * `references` load parses every file it reads (its caller wants their uses too).
 */
function load(ws: Workspace, scope: SearchScope, files: readonly FileStat[], q: SymbolQuery, signal: AbortSignal | undefined, tier: FactsTier): Promise<FactsMap> {
  return tier === "definitions" ? loadDefinitionFacts(ws, scope.view, files, q.name, signal) : loadFacts(ws, files, signal, tier);
}

/** A definition found by {@link locateDefinitions}. */
export interface LocatedDefinition {
  file: string;
  def: SymbolDef;
  /** `Class.method`, or the name. */
  qualified: string;
}

/**
 * The definitions `name` designates, as `find_symbol` reads names (module comment), also Go's
 * `pkg.Func` (the package folder's name before a top-level name), in path and line order.
 * @param pathArg a file or folder to search in (validated: `OUTSIDE_ROOT`, `DENIED`, `NOT_FOUND`).
 * @param tier the facts to load for the files read (`references` when the caller goes on to their uses).
 * @param snapshot the tree snapshot the caller's query already asked for (`treeSnapshot`), so that
 *   one query checks the cached file list once (each `treeSnapshot` call `lstat`s every folder).
 * @throws ToolError `INVALID_ARGUMENT` (bad name), `TIMEOUT`, and the path errors.
 */
export async function locateDefinitions(
  ws: Workspace,
  name: string,
  pathArg: string | undefined,
  signal?: AbortSignal,
  tier: FactsTier = "definitions",
  snapshot?: Promise<TreeSnapshot>,
): Promise<LocatedDefinition[]> {
  const q = parseSymbolName(name);
  const { facts } = await parseCandidates(ws, q, pathArg, signal, tier, snapshot);
  const out: LocatedDefinition[] = [];
  for (const [file, f] of facts) {
    for (const def of f.symbols) {
      const packageQualified =
        q.containers.length === 1 && def.container === undefined && def.name === q.name && languageFor(file)?.packageFiles !== undefined && file.split("/").at(-2) === q.containers[0];
      if (matches(def, q, file) || packageQualified) out.push({ file, def, qualified: qualified(def) });
    }
  }
  out.sort((a, b) => (a.file !== b.file ? (a.file < b.file ? -1 : 1) : a.def.start_line - b.def.start_line));
  return out;
}

/**
 * Finds definitions named `args.name` (see the module comment).
 * @throws ToolError `INVALID_ARGUMENT` (empty or multi-word name; bad path), `OUTSIDE_ROOT`,
 *   `DENIED`, `NOT_FOUND` (path), `TIMEOUT` (aborted), `UNSUPPORTED` (ripgrep missing).
 */
export async function findSymbol(ws: Workspace, args: FindSymbolArgs, signal?: AbortSignal, output?: OutputScope): Promise<EvidenceResult> {
  const q = parseSymbolName(args.name);
  throwIfAborted(signal);
  const { scope, facts } = await parseCandidates(ws, q, args.path, signal);
  const { files, under, nonSource } = scope;
  if (files.length === 0) {
    const where = args.path ? `under ${args.path}` : "in this repository";
    const extra = nonSource > 0 ? ` (${nonSource} other file${nonSource === 1 ? "" : "s"} have no parser)` : "";
    return {
      evidence: [],
      total: 0,
      truncated: false,
      note: advice`No source files ${where} in a language with a parser${extra}. Languages: ${languagesLine()}. Use ${tool("search_code")} for other files.`,
    };
  }

  const found: { file: string; def: SymbolDef }[] = [];
  const otherKinds: { file: string; def: SymbolDef }[] = [];
  const otherContainers: { file: string; def: SymbolDef }[] = [];
  for (const [file, f] of facts) {
    for (const def of f.symbols) {
      // A prototype only when asked for a kind (the definition is what a plain query wants).
      if (def.declaration === true && args.kind === undefined) continue;
      if (matches(def, q, file)) {
        if (args.kind === undefined || def.kind === args.kind) found.push({ file, def });
        else otherKinds.push({ file, def });
      } else if (def.name === q.name && q.containers.length > 0) {
        otherContainers.push({ file, def });
      }
    }
  }

  // Snippets are read (a few files at once) only for the records the budget can show.
  found.sort((a, b) =>
    a.file !== b.file
      ? a.file < b.file ? -1 : 1
      : a.def.start_line - b.def.start_line || a.def.end_line - b.def.end_line || (qualified(a.def) < qualified(b.def) ? -1 : qualified(a.def) > qualified(b.def) ? 1 : 0),
  );
  const shown = recordsShown(
    found.map((f) => f.file),
    output?.all === true ? Infinity : args.max_results,
  );
  const texts = new Map<string, string[] | undefined>();
  await mapLimit([...new Set([...shown].map((i) => (found[i] as { file: string }).file))], 8, async (file) => {
    throwIfAborted(signal);
    try {
      texts.set(file, (ws.readTextSync(file) ?? (await ws.readText(file))).lines);
    } catch {
      texts.set(file, undefined); // gone or unreadable since it was parsed: its records are left out
    }
  });
  const evidence: Evidence[] = [];
  found.forEach(({ file, def }, i) => {
    const lang = languageFor(file);
    const fields = { kind: "definition" as const, name: qualified(def), ...(lang ? { language: lang.id } : {}), symbol_kind: def.kind };
    if (shown.has(i)) {
      const lines = texts.get(file);
      if (lines === undefined) return;
      // A definition on a long (minified) line: the columns around it, not the line's start.
      const around = def.start_column !== undefined && output?.all !== true;
      evidence.push(
        around
          ? linesEvidenceAround(file, lines, def.start_line, def.end_line, def.start_column!, DEFAULT_LINE_CHARS, fields)
          : linesEvidence(file, lines, def.start_line, def.end_line, fields),
      );
    } else if (texts.get(file) !== undefined || !texts.has(file)) {
      const { kind, name, ...rest } = fields;
      evidence.push({ path: file, start_line: def.start_line, end_line: def.end_line, kind, name, snippet: "", ...rest });
    }
  });
  evidence.sort((a, b) => compareEvidence(a, b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const notes: AdviceText[] = [];
  if (evidence.length === 0) {
    notes.push(await emptyNote(ws, args, q, { files, under, otherKinds, otherContainers, signal }));
  }
  const skipped = describeFactsSkips(facts);
  if (skipped) notes.push(plain(`${skipped}.`));
  const { form: _form, ...result } = applyBudget(evidence, scopedBudget({ maxResults: args.max_results, note: joinAdvice(...notes), narrowWith: ["path", "kind"] }, output));
  return result;
}

/**
 * The files of `scope` that mention any of `literals` ({@link filesMentioning}), `undefined` when
 * the prefilter cannot run, or `"stale"` when ripgrep met files the snapshot lacks. `scope` may
 * still be pending when it is the whole tree (no `under`): ripgrep starts without it. For the whole
 * tree the answer is remembered across queries (`mention-index.ts`): a warm query whose files did
 * not change runs no ripgrep.
 */
async function mentioning(
  ws: Workspace,
  scope: MentionScope | Promise<MentionScope>,
  literals: string[],
  signal: AbortSignal | undefined,
  caseInsensitive = false,
): Promise<Set<string> | undefined | "stale"> {
  const unlisted: string[] = [];
  // Awaited below only when the prefilter succeeds; its own rejection must not go unhandled.
  if (scope instanceof Promise) scope.catch(() => undefined);
  const under = scope instanceof Promise ? undefined : scope.under;
  // The whole tree's source files (the snapshot's list): the answer is remembered across queries.
  const whole = scope instanceof Promise || (scope.fromSnapshot && scope.under === undefined);
  const found =
    whole && !caseInsensitive
      ? await rememberedMentions(ws, "symbols", Promise.resolve(scope).then((s) => s.files), { literals }, {
          complete: Promise.resolve(scope).then((s) => s.fromSnapshot && s.under === undefined && s.complete === true),
          ...(signal ? { signal } : {}),
          unlisted,
        })
      : await filesMentioning(
          ws,
          scope instanceof Promise ? scope.then((s) => s.set ?? s.files) : (scope.set ?? scope.files),
          { literals, ...(caseInsensitive ? { caseInsensitive } : {}) },
          { ...(under ? { under } : {}), ...(signal ? { signal } : {}), unlisted },
        );
  if ((await scope).fromSnapshot && (await changedSince(ws, unlisted.filter((p) => languageFor(p) !== undefined)))) return "stale";
  return found;
}

async function emptyNote(
  ws: Workspace,
  args: FindSymbolArgs,
  q: SymbolQuery,
  ctx: {
    files: readonly string[];
    under: string | undefined;
    otherKinds: { file: string; def: SymbolDef }[];
    otherContainers: { file: string; def: SymbolDef }[];
    signal: AbortSignal | undefined;
  },
): Promise<AdviceText> {
  const where = args.path ? ` under ${args.path}` : "";
  const show = (list: { file: string; def: SymbolDef }[]): AdviceText =>
    shortListAdvice(list.map(({ file, def }) => [`${qualified(def)} (${def.kind}, `, location(file, def.start_line), ")"]));
  if (ctx.otherKinds.length > 0) {
    return advice`No ${args.kind ?? ""} named ${args.name}${where}, but ${ctx.otherKinds.length} definition${ctx.otherKinds.length === 1 ? "" : "s"} of other kinds: ${show(ctx.otherKinds)}. Drop ${param("kind")} to see them.`;
  }
  if (ctx.otherContainers.length > 0) {
    return advice`No definition ${args.name}${where}; ${q.name} is defined as: ${show(ctx.otherContainers)}.`;
  }
  // Close names: candidates from the names written after definition keywords, confirmed by
  // parsing (cached) the files that mention the closest of them.
  const written = await definitionNamesIn(ws, { near: q.name, ...(ctx.under ? { under: ctx.under } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) });
  const candidates = closeNames(q.name, written ?? [], MAX_CLOSE_CANDIDATES);
  if (q.containers.length > 0 && written?.has(q.name)) candidates.push(q.name);
  const names = new Set<string>();
  const where1 = new Map<string, { file: string; line: number }>();
  let limited = written === undefined;
  if (candidates.length > 0) {
    const scope: MentionScope = { files: ctx.files, nonSource: 0, fromSnapshot: false, ...(ctx.under ? { under: ctx.under } : {}) };
    const found = await mentioning(ws, scope, candidates, ctx.signal);
    let confirm = found === undefined || found === "stale" ? [] : ctx.files.filter((f) => found.has(f));
    if (confirm.length > MAX_FILES_FOR_SUGGESTIONS) {
      confirm = confirm.slice(0, MAX_FILES_FOR_SUGGESTIONS);
      limited = true;
    }
    const wantedNames = new Set(candidates);
    const pool = await loadFacts(ws, statFiles(ws, confirm), ctx.signal);
    for (const [file, f] of pool) {
      for (const def of f.symbols) {
        if (!wantedNames.has(def.name)) continue;
        const n = q.containers.length > 0 ? qualified(def) : def.name;
        names.add(n);
        if (!where1.has(n)) where1.set(n, { file, line: def.start_line });
      }
    }
  }
  const wanted = q.containers.length > 0 ? [...q.containers, q.name].join(".") : q.name;
  const close = closeNames(wanted, names, 5);
  const base = `No definition named ${args.name}${args.kind ? ` of kind ${args.kind}` : ""}${where} (searched ${ctx.files.length} source file${ctx.files.length === 1 ? "" : "s"}; definitions come from tree-sitter for ${[...new Set(LANGUAGES.map((l) => l.id))].join(", ")}).`;
  if (close.length > 0) {
    const at = (n: string): (string | Term)[] => {
      const w = where1.get(n);
      return w === undefined ? [`${n} (?)`] : [`${n} (`, location(w.file, w.line), ")"];
    };
    return advice`${base} Close names: ${listAdvice(close.map(at))}.`;
  }
  return advice`${base}${limited ? " Close names were looked for only in part of the tree." : ""} Try ${tool("search_code")} for the text.`;
}
