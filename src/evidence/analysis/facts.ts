/**
 * Facts (definitions and imports) of many files: the one place where files are parsed.
 *
 * {@link loadFacts} goes through the incremental cache of `src/fact-cache/` ({@link FactIndex}): per file
 * `(size, mtime, content hash)` → facts, kept in memory for the life of the process and on disk in
 * the user's cache folder (`$CODECITE_CACHE_DIR`, else `$XDG_CACHE_HOME/codecite`, else
 * `~/.cache/codecite`; one SQLite file per root, never inside the project). Only files whose
 * content changed are parsed again. Entries are keyed by {@link factsVersion}, so facts written by
 * another codecite release, extractor or grammar are never read.
 *
 * Parsing runs in-process for a few files. When more than {@link POOL_THRESHOLD} files and
 * {@link POOL_THRESHOLD_BYTES} bytes of one load need it (with a screen, {@link LoadFactsOptions}:
 * estimated from the share of the files read so far that passed it), worker threads help (`src/fact-cache/parse-pool.ts`, one per core but one): each is given
 * up to {@link TASKS_PER_WORKER} files at a time and the process parses the others meanwhile, so
 * the files parsed while a worker starts (loading modules, compiling the grammar) are not waited for.
 *
 * Facts come in two tiers ({@link FactsTier}): definitions and imports, which every query needs,
 * and the references (`FileFacts.references`), which only `find_references` reads and which cost
 * more to extract than the rest together. They are cached side by side (the fact cache's detail
 * tier, `src/fact-cache/fact-index.ts`); a load of the first tier never computes nor reads them.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FactIndex, type DetailTier, type FileStat, type LoadResult, type ParseContext } from "../../fact-cache/fact-index.js";
import { ParsePool } from "../../fact-cache/parse-pool.js";
import { ToolError, throwIfAborted } from "../evidence.js";
import { LANGUAGES, languageFor } from "./lang/index.js";
import type { FileFacts, LanguageSpec, ReferenceFacts, TextFocus } from "./lang/language.js";
import { factsFromSource, focusedFactsFromSource, type ParseInput } from "./parse-task.js";
import { SkippedFileError, type Workspace } from "../sandbox/workspace.js";

/**
 * Why a file has no facts: read refused (`binary`, `too_large`, `denied`, `unreadable`),
 * `no_parser`, `too_deep` (syntax tree deeper than `MAX_SYNTAX_DEPTH` of `tree-sitter.ts`), `too_slow`
 * (the parse passed its time limit, `ParseTimeoutError` of `tree-sitter.ts`), `parse_failed`.
 */
export type FactsSkipReason = "binary" | "too_large" | "denied" | "unreadable" | "no_parser" | "too_deep" | "too_slow" | "parse_failed";

/**
 * Number of the shape of {@link FileFacts} and of what extractors put in it. Bump it when a change
 * to `lang/*.ts` must not reuse cached facts (the digest in {@link factsVersion} also catches edits).
 */
const EXTRACTOR_SCHEMA = 5;

/**
 * Above this many files to parse in one load, worker threads help. A worker's start (Node's
 * worker bootstrap, the ES modules of the extractors loaded without a code cache, the runtime and
 * grammar `.wasm` compiled again, its first parses on code not yet optimised) costs 230–370 ms of
 * CPU before its first result (measured: one 1 KB Python file through `ParsePool`), while the
 * process, warmed up, parses a 10–17 KB Python file in 3–10 ms; meanwhile the process parses
 * dozens of files, so with fewer than about a hundred a worker costs CPU and finishes its share
 * no sooner (medium bench tree, `importers acme.core.rag_common` on an empty cache: 33 files, 8 of
 * them in a worker at a threshold of 32).
 */
const POOL_THRESHOLD = 96;

/**
 * …and this many bytes: small files parse fast, and a worker's start (the grammar's `.wasm` is
 * compiled again in each thread, 3.4 MB for C++) would cost more than it saves.
 */
const POOL_THRESHOLD_BYTES = 768 * 1024;

/** Files handed to one worker at a time (one running, one waiting), so it never waits for the process's own parse to end. */
const TASKS_PER_WORKER = 2;

/**
 * A source of at least this many characters is always parsed in a worker thread, so that one big
 * file never blocks the event loop (an MCP server keeps answering, a cancelled query returns at
 * once).
 */
const POOL_MIN_SOURCE_CHARS = 128 * 1024;

/**
 * What {@link loadFacts} returns: path → facts for every file that was parsed, in input order, plus
 * the files that were not, with the reason.
 */
export class FactsMap extends Map<string, FileFacts> {
  /** path → why it has no facts. */
  readonly skipped = new Map<string, FactsSkipReason>();
  /** Files whose facts were computed by this load (the others came from the cache), in input order. */
  readonly parsed: string[] = [];
  /** Files read but not parsed because the load's `screen` ruled them out ({@link LoadFactsOptions}). */
  readonly screened = new Set<string>();
  /**
   * Files whose facts are whole only for the load's `focus` names and those their focus covers
   * (`TextFocus.covers`; {@link LoadFactsOptions}), with their text; never cached.
   */
  readonly focused = new Map<string, { text: string; focus: TextFocus }>();

  /** Counts of {@link skipped} by reason. */
  skipCounts(): Partial<Record<FactsSkipReason, number>> {
    const out: Partial<Record<FactsSkipReason, number>> = {};
    for (const r of this.skipped.values()) out[r] = (out[r] ?? 0) + 1;
    return out;
  }
}

/**
 * What a load needs: `definitions` (symbols and imports; `references` left out) or `references`
 * (the same plus `FileFacts.references` for languages with reference rules).
 */
export type FactsTier = "definitions" | "references";

/** Cumulative counters of this process's fact loads (diagnostics and tests). */
export interface FactsStats {
  /** Files parsed (in-process or in workers). */
  parsed: number;
  /** Files parsed in worker threads (part of `parsed`). */
  parsedInWorkers: number;
  /** Files parsed only where a load's `focus` names are written (part of `parsed`; {@link LoadFactsOptions}). */
  focused: number;
  /** Files read and hashed whose content was unchanged. */
  rehashed: number;
  /** Files answered by the in-memory or on-disk cache without reading them. */
  cached: number;
}

const stats: FactsStats = { parsed: 0, parsedInWorkers: 0, focused: 0, rehashed: 0, cached: 0 };

/** A snapshot of the counters of {@link loadFacts} in this process. */
export function factsStats(): FactsStats {
  return { ...stats };
}

let version: string | undefined;

/**
 * {@link factsVersion} as computed when the command-line bundle was built (`scripts/bundle-cli.ts`
 * defines it from the same `dist/` files the bundle holds); not defined anywhere else (sources,
 * the library in `dist/`), where it is computed at first use.
 */
declare const __CODECITE_FACTS_VERSION__: string | undefined;

/** `name` and `version` of a package.json, `undefined` when unreadable. */
function packageMeta(file: string): { name?: string; version?: string } | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
  } catch {
    return undefined;
  }
}

/**
 * The npm package of a grammar specifier: `tree-sitter-c/tree-sitter-c.wasm` → `tree-sitter-c`,
 * `@tree-sitter-grammars/tree-sitter-kotlin/x.wasm` → `@tree-sitter-grammars/tree-sitter-kotlin`,
 * `tree-sitter-wasms/out/tree-sitter-swift.wasm` → `tree-sitter-wasms`.
 */
export function grammarPackage(wasm: string): string {
  const parts = wasm.split("/");
  return (wasm.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/**
 * The cache version of facts: codecite's version, {@link EXTRACTOR_SCHEMA}, the version of
 * `web-tree-sitter` and of every grammar package, and a digest of the extractor code (`lang/`,
 * `tree-sitter`, `parse-task`), e.g. `0.1.0+s1+web-tree-sitter@0.25.10+tree-sitter-python@0.25.0+…+x1a2b3c4d`.
 * Computed once per process; in the command-line bundle, once when it was built (reading the
 * grammar packages and the extractor code costs a fresh process tens of ms).
 */
export function factsVersion(): string {
  if (version !== undefined) return version;
  if (typeof __CODECITE_FACTS_VERSION__ === "string") return (version = __CODECITE_FACTS_VERSION__);
  const here = fileURLToPath(import.meta.url);
  const require = createRequire(import.meta.url);
  const parts = [packageMeta(path.join(path.dirname(here), "..", "..", "..", "package.json"))?.version ?? "?", `s${EXTRACTOR_SCHEMA}`];
  // One entry per package, scoped (`@scope/name`) and nested (`pkg/out/x.wasm`) specifiers included.
  const specifiers = new Map<string, string>([["web-tree-sitter", "web-tree-sitter"]]);
  for (const l of LANGUAGES) {
    const name = grammarPackage(l.wasm);
    if (!specifiers.has(name)) specifiers.set(name, l.wasm);
  }
  for (const [name, specifier] of specifiers) {
    let v = "?";
    try {
      const main = require.resolve(specifier);
      // The nearest package.json above the resolved file that carries this package's name.
      for (let dir = path.dirname(main); dir !== path.dirname(dir); dir = path.dirname(dir)) {
        const meta = packageMeta(path.join(dir, "package.json"));
        if (meta?.name === name) {
          v = meta.version ?? "?";
          break;
        }
      }
    } catch {
      // not installed: parsing will say so
    }
    parts.push(`${name}@${v}`);
  }
  const digest = createHash("sha1");
  const ext = path.extname(here);
  const langDir = path.join(path.dirname(here), "lang");
  try {
    const code = readdirSync(langDir)
      .filter((f) => f.endsWith(ext) && !f.endsWith(`.d${ext}`))
      .sort()
      .map((f) => path.join(langDir, f));
    for (const f of [...code, path.join(path.dirname(here), `tree-sitter${ext}`), path.join(path.dirname(here), `parse-task${ext}`)]) digest.update(readFileSync(f));
  } catch {
    digest.update("unreadable");
  }
  parts.push(`x${digest.digest("hex").slice(0, 8)}`);
  version = parts.join("+");
  return version;
}

let pool: ParsePool<ParseInput, FileFacts> | undefined;

/** Files given to the pool whose result has not come back (every load of the process). */
let inPool = 0;

/**
 * The process-wide parse pool: one worker per core but one (the process parses too), at least one;
 * workers start on demand and never keep the process alive when idle.
 */
function parsePool(): ParsePool<ParseInput, FileFacts> {
  pool ??= new ParsePool({ module: new URL("./parse-task.js", import.meta.url), exportName: "parseFactsTask", size: Math.max(1, availableParallelism() - 1) });
  return pool;
}

/**
 * Starts the tree-sitter runtime (its module and `Parser.init`, the same for every language), and
 * loads the grammar of `language` when given, when the fact cache holds no facts of `ws`'s tree: a
 * first query parses every candidate file, so a caller that is about to wait for ripgrep (in its
 * own process: the walk of the tree, the text prefilter) has the runtime made meanwhile instead of
 * after. It starts a turn of the event loop after the workspace's ignore-file check, which every
 * ripgrep run waits for: the runs that check releases are started (in the same turn) before the
 * runtime's start takes the thread. A failure is left to the first parse to report.
 */
export function warmUpParser(ws: Workspace, language?: LanguageSpec): void {
  if (FactIndex.shared<FileFacts>(ws.root, { version: factsVersion() }).store.hasFacts()) return;
  const start = () =>
    void import("./tree-sitter.js").then((m) => (language === undefined ? m.initTreeSitter() : m.prepareGrammar(language))).catch(() => undefined);
  ws.checkIgnoreFiles().then(
    () => setImmediate(start),
    () => undefined, // the ripgrep runs report it
  );
}

/** Options of {@link loadFacts}. */
export interface LoadFactsOptions {
  /**
   * Called with the text of each file that must be parsed (its facts are neither cached nor known
   * by content hash); `false` leaves the file out unparsed (in `FactsMap.screened`, not cached), e.g.
   * a lexical check that none of its import statements can name a module (`import-scan.ts`).
   */
  screen?: (path: string, source: string) => boolean;
  /**
   * For a `references` load: the names the query asks about. A file that must be parsed, of a
   * language with `ReferenceRules.focus`, is parsed only where those names are written
   * (`parse-task.ts` `focusedFactsFromSource`): its facts are whole only for them (definitions
   * and uses of other names may be missing), so they are returned in `FactsMap.focused` and never
   * cached; a file whose ranges cannot be told is parsed whole (and cached) as without `focus`.
   */
  focus?: readonly string[];
}

/**
 * Why the workspace refused to read a file (`Workspace.readText`'s error): its skip reason
 * (`binary`, `too_large` …), `denied`, else `unreadable`.
 */
export function readRefusal(err: unknown): FactsSkipReason {
  if (err instanceof SkippedFileError) return err.reason;
  if (err instanceof ToolError && err.code === "DENIED") return "denied";
  return "unreadable";
}

/** A file the load's `screen` ruled out. */
class Screened extends Error {}

/** Facts whole only for the load's `focus` names, carried past the fact cache (a failed parse is not cached). */
class Focused extends Error {
  constructor(
    readonly facts: FileFacts,
    readonly text: string,
    readonly focus: TextFocus,
  ) {
    super("focused facts");
  }
}

/** A read the workspace refused, with the reason to count. */
class ReadRefused extends Error {
  constructor(readonly reason: FactsSkipReason) {
    super(reason);
  }
}

/**
 * The fact cache's detail tier for {@link FileFacts}: the references are the detail, wanted by
 * `references` loads for languages with reference rules.
 */
function referencesTier(tier: FactsTier): DetailTier<FileFacts> {
  return {
    wanted: (p) => tier === "references" && languageFor(p)?.references !== undefined,
    split: ({ references, ...rest }) => ({ value: rest, detail: references }),
    join: (value, detail) => ({ ...value, references: detail as ReferenceFacts }),
  };
}

/**
 * Reads (through the workspace: deny-list, size cap, binary check) and parses `files`, reusing
 * cached facts of files whose size and mtime (or content hash) are unchanged (see the module
 * comment). Files without a language, refused by the workspace, or that fail to parse are left
 * out and counted in `skipped`.
 * @param files size, mtime, ctime and inode as `lstat` gives them now (they key the cache; `statFiles`).
 * @param tier `references` to have `FileFacts.references` (see {@link FactsTier}); default `definitions`.
 * @throws ToolError `TIMEOUT` when `signal` aborts (work finished so far stays cached).
 */
export async function loadFacts(
  ws: Workspace,
  files: readonly FileStat[],
  signal?: AbortSignal,
  tier: FactsTier = "definitions",
  opts: LoadFactsOptions = {},
): Promise<FactsMap> {
  const out = new FactsMap();
  throwIfAborted(signal);
  const parsable: FileStat[] = [];
  for (const f of files) {
    if (languageFor(f.path) === undefined) out.skipped.set(f.path, "no_parser");
    else parsable.push(f);
  }
  if (parsable.length === 0) return out;
  const index = FactIndex.shared<FileFacts>(ws.root, { version: factsVersion() });
  let inWorkers = 0;
  // With a screen, the load's misses are estimated from the share of files that passed it so far:
  // files it rules out cost no parse, so they must not start workers.
  let seen = 0;
  let seenBytes = 0;
  let passed = 0;
  let passedBytes = 0;
  let result: LoadResult<FileFacts>;
  try {
    result = await index.load(parsable, {
      read: async (p) => {
        try {
          // Without a thread-pool round trip per step; a refusal is asked of readText, which says why.
          return (ws.readTextSync(p) ?? (await ws.readText(p))).lines.join("\n");
        } catch (err) {
          throw new ReadRefused(readRefusal(err));
        }
      },
      parse: (p, content, ctx: ParseContext) => parseOrRefuse(async () => {
        const source = typeof content === "string" ? content : Buffer.from(content).toString("utf8");
        let { misses, missBytes } = ctx;
        if (opts.screen !== undefined) {
          seen++;
          seenBytes += source.length;
          if (!opts.screen(p, source)) throw new Screened(p);
          passed++;
          passedBytes += source.length;
          const share = passed / seen;
          misses = passed + Math.max(0, ctx.misses - seen) * share;
          missBytes = passedBytes + Math.max(0, ctx.missBytes - seenBytes) * share;
        }
        if (opts.focus !== undefined && ctx.detail && source.length < POOL_MIN_SOURCE_CHARS) {
          const got = await focusedFactsFromSource(p, source, opts.focus);
          if (got !== undefined) throw new Focused(got.facts, source, got.focus);
        }
        if (source.length >= POOL_MIN_SOURCE_CHARS || (misses > POOL_THRESHOLD && missBytes > POOL_THRESHOLD_BYTES && inPool < parsePool().size * TASKS_PER_WORKER)) {
          inPool++;
          try {
            const facts = await parsePool().run({ path: p, source, references: ctx.detail }, signal ? { signal } : {});
            inWorkers++;
            return facts;
          } finally {
            inPool--;
          }
        }
        const facts = await factsFromSource(p, source, ctx.detail);
        if (facts === undefined) throw new Error(`no parser for ${p}`);
        return facts;
      }),
      detail: referencesTier(tier),
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    throwIfAborted(signal);
    throw err;
  }
  const failed = new Map(result.failed.map((f) => [f.path, f.error] as const));
  for (const f of parsable) {
    const facts = result.facts.get(f.path);
    const error = failed.get(f.path);
    if (facts?.skipped !== undefined) out.skipped.set(f.path, facts.skipped);
    else if (facts !== undefined) out.set(f.path, facts);
    else if (error instanceof Screened) out.screened.add(f.path);
    else if (error instanceof Focused) {
      out.set(f.path, error.facts);
      out.focused.set(f.path, { text: error.text, focus: error.focus });
    }
    else out.skipped.set(f.path, error === undefined ? "parse_failed" : failureReason(error));
  }
  for (const p of result.parsed) out.parsed.push(p); // no spread: 200k files would overflow the stack
  stats.parsed += result.parsed.length + out.focused.size;
  stats.focused += out.focused.size;
  stats.parsedInWorkers += inWorkers;
  stats.rehashed += result.rehashed.length;
  stats.cached += result.hits.memory + result.hits.store;
  return out;
}

/**
 * The facts `parse` gives, or, when the tree was refused as nested too deeply or the parse passed
 * its time limit (in-process or in a parse worker, whose errors keep their `name`), facts marked
 * `skipped: "too_deep"` / `"too_slow"` with empty lists, which the fact cache keeps like any facts:
 * an unchanged file of that kind is then never parsed again (parsing one can take seconds, and
 * every query would pay it).
 */
async function parseOrRefuse(parse: () => Promise<FileFacts>): Promise<FileFacts> {
  try {
    return await parse();
  } catch (error) {
    const reason = failureReason(error);
    if (reason !== "too_deep" && reason !== "too_slow") throw error;
    return { symbols: [], imports: [], references: { uses: [], bindings: [], classes: [] }, skipped: reason };
  }
}

/** The skip reason of a failed read or parse (errors from the parse pool keep their `name`). */
function failureReason(error: unknown): FactsSkipReason {
  if (error instanceof ReadRefused) return error.reason;
  if (error instanceof Error && error.name === "SyntaxTooDeepError") return "too_deep";
  if (error instanceof Error && error.name === "ParseTimeoutError") return "too_slow";
  return "parse_failed";
}

/** A `note` fragment for skipped files, e.g. "2 files not parsed (1 binary, 1 over the size limit)"; `undefined` when none. */
export function describeFactsSkips(facts: FactsMap): string | undefined {
  const c = facts.skipCounts();
  const words: [FactsSkipReason, string][] = [
    ["binary", "binary"],
    ["too_large", "over the size limit"],
    ["denied", "denied"],
    ["unreadable", "unreadable"],
    ["too_deep", "nested too deeply to analyse"],
    ["too_slow", "too slow to parse"],
    ["parse_failed", "failed to parse"],
  ];
  const parts = words.filter(([k]) => (c[k] ?? 0) > 0).map(([k, w]) => `${c[k]} ${w}`);
  if (parts.length === 0) return undefined;
  const n = words.reduce((s, [k]) => s + (c[k] ?? 0), 0);
  return `${n} file${n === 1 ? "" : "s"} not parsed (${parts.join(", ")})`;
}
