/**
 * Which files of a set mention some text, remembered across queries: the text prefilter
 * (`text-prefilter.ts` {@link filesMentioning}) of `find_symbol`, `find_importers` and
 * `find_references` without running ripgrep again while the tree has not changed.
 *
 * **What is kept** (in the fact cache's side table, `FactStore.getMeta`/`putMeta`, and in memory
 * for the life of the process): per scope (a set of files, e.g. a language family) and needles,
 * the files whose text matched, with the digest of the *stamp table* they were found under; per
 * scope, the latest stamp table: every file of the scope with its size, mtime, ctime and inode
 * (the fields the fact cache compares, `fact-store.ts`) when it was read.
 *
 * **A query**: the files of the scope are `lstat`ed and their stamps digested. The same digest as
 * the remembered answer's → that answer, nothing read. Another digest, and the remembered table is
 * still the scope's latest → only the files whose stamp differs (edited, new; at most
 * {@link MAX_RECHECK}) are read and searched, gone files dropped, and the answer is remembered under
 * the new table. Otherwise (nothing remembered, too many changes, a changed file this module cannot
 * search as ripgrep would) one ripgrep run answers and is remembered. An answer that could not be
 * trusted (ripgrep failing) is never kept.
 *
 * **The file list must be whole**: ripgrep walks the tree, so it would also find a walkable file
 * that the caller's list lacks. A remembered answer is used only when the caller says its list is
 * complete (`project-view.ts` `listIsComplete`: every folder that could gain a walkable file
 * is watched); otherwise every query runs ripgrep.
 *
 * **Racy stamps** (Git's rule, Documentation/technical/racy-git.txt): a file whose mtime lies
 * within {@link RACY_WINDOW_MS} of the moment its text was searched (or later) could change again
 * without a new size or mtime; its stamp is kept as "racy", which never matches, so it is searched
 * again on the next query until its stamp is old enough.
 *
 * **Searching a changed file in-process** gives ripgrep's answer only for plain literal needles
 * (no regex, case-sensitive, no line break): a byte-for-byte substring test over the file's bytes
 * ({@link literalMatch}). Files ripgrep treats specially — a NUL byte (binary detection, which in
 * ripgrep's `--files-with-matches` mode depends on its buffer boundaries), a UTF-16 or UTF-8
 * byte-order mark (ripgrep transcodes or strips it) — and needles with regexes or ignoring case
 * are answered by a ripgrep run instead.
 */
import { createHash } from "node:crypto";
import { lstatSync } from "node:fs";
import path from "node:path";
import { FactIndex } from "../../fact-cache/fact-index.js";
import { RACY_WINDOW_MS } from "../../fact-cache/cache-dir.js";
import type { FactStore } from "../../fact-cache/fact-store.js";
import { throwIfAborted } from "../evidence.js";
import type { Workspace } from "../sandbox/workspace.js";
import { factsVersion } from "./facts.js";
import { filesMentioning, type Needles } from "./text-prefilter.js";

/** At most this many changed files are searched in-process; more → one ripgrep run. */
const MAX_RECHECK = 256;
/** An answer naming more files than this is not kept (it would cost more to store than to find). */
const MAX_REMEMBERED_FILES = 5000;
/** Answers kept per root (least recently used dropped first). */
const MAX_REMEMBERED_ANSWERS = 512;
/** A changed file larger than this is left to ripgrep (bytes). */
const MAX_RECHECK_BYTES = 16 * 1024 * 1024;

/** Stamp of a file whose text may have changed unseen (never equal to a real stamp). */
const RACY = "racy";

/** Where the answer of a query came from (counters: diagnostics and tests). */
export interface MentionStats {
  /** Answers given by one ripgrep run. */
  ripgrepRuns: number;
  /** Answers given from memory or the side table with nothing read. */
  unchanged: number;
  /** Answers updated by searching changed files in-process. */
  updated: number;
  /** Files read and searched in-process by updates. */
  rechecked: number;
}

const stats: MentionStats = { ripgrepRuns: 0, unchanged: 0, updated: 0, rechecked: 0 };

/** A snapshot of the counters of this process. */
export function mentionStats(): MentionStats {
  return { ...stats };
}

interface StampTable {
  v: 1;
  digest: string;
  paths: string[];
  stamps: string[];
}

interface Answer {
  v: 1;
  /** Digest of the stamp table the answer holds for. */
  digest: string;
  files: string[];
}

interface Memory {
  tables: Map<string, { digest: string; byPath: Map<string, string> }>;
  answers: Map<string, Answer>;
}

const memories = new WeakMap<FactStore, Memory>();

function memoryOf(store: FactStore): Memory {
  let m = memories.get(store);
  if (m === undefined) {
    m = { tables: new Map(), answers: new Map() };
    memories.set(store, m);
  }
  return m;
}

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

/**
 * The stamps of a scope's files at one moment. A stamp is kept as numbers, not text: the digest
 * hashes the paths and the numbers' bytes, so a query whose tree is unchanged formats no stamp
 * (formatting fractional mtimes cost more than the `lstat` calls on the large bench tree); the
 * text form ({@link stampAt}) is made only for a table that is remembered or compared file by file.
 */
interface Stamped {
  paths: string[];
  /** Size, mtime, ctime and inode of `paths[i]` at `4 * i` …; all four -1 for a racy file. */
  fields: Float64Array;
  /** Link counts, by index of {@link paths} (a hard link is left to ripgrep). */
  links: number[];
  digest: string;
  racy: boolean;
}

/** The stamp of file `i` of `table` as kept in a {@link StampTable}: `size:mtime:ctime:ino`, or {@link RACY}. */
function stampAt(table: Stamped, i: number): string {
  const f = table.fields;
  const k = 4 * i;
  return f[k] === -1 ? RACY : `${f[k]}:${f[k + 1]}:${f[k + 2]}:${f[k + 3]}`;
}

/** The stamps of `files` (sorted) now; a file changed at or after `since - RACY_WINDOW_MS` is racy; a gone file is absent. */
function stampsOf(ws: Workspace, files: readonly string[], since: number): Stamped {
  const paths: string[] = [];
  const links: number[] = [];
  const fields = new Float64Array(4 * files.length);
  let racy = false;
  const prefix = ws.root.endsWith(path.sep) ? ws.root : `${ws.root}${path.sep}`;
  let k = 0;
  for (const p of files) {
    const st = lstatSync(prefix + p, { throwIfNoEntry: false });
    if (st === undefined || !st.isFile()) continue;
    if (st.mtimeMs >= since - RACY_WINDOW_MS) {
      racy = true;
      fields.fill(-1, k, k + 4);
    } else {
      fields[k] = st.size;
      fields[k + 1] = st.mtimeMs;
      fields[k + 2] = st.ctimeMs;
      fields[k + 3] = st.ino;
    }
    k += 4;
    paths.push(p);
    links.push(st.nlink);
  }
  // Paths joined by NUL (never in a path), then the numbers' bytes: a different list or any stamp changes the digest.
  const digest = createHash("sha1").update(paths.join("\0")).update(new Uint8Array(fields.buffer, 0, k * 8)).digest("hex");
  return { paths, fields: fields.subarray(0, k), links, digest, racy };
}

function parse<T extends { v: 1 }>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as T;
    return v.v === 1 ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The needles as UTF-8 bytes when a byte search gives ripgrep's answer (see the module comment), else undefined. */
function plainLiterals(needles: Needles): Buffer[] | undefined {
  if ((needles.patterns ?? []).length > 0 || needles.caseInsensitive === true) return undefined;
  const out: Buffer[] = [];
  for (const l of needles.literals) {
    if (l === "") continue;
    if (/[\n\r\0\uFEFF]/.test(l)) return undefined;
    out.push(Buffer.from(l, "utf8"));
  }
  return out;
}

/**
 * Whether the bytes of a file contain one of `needles` as ripgrep's `--files-with-matches` run
 * over the tree would say, or `undefined` when the file is one ripgrep treats specially (a NUL
 * byte: binary detection; a byte-order mark: transcoding) and only a ripgrep run can tell.
 */
export function literalMatch(bytes: Buffer, needles: readonly Buffer[]): boolean | undefined {
  if (bytes.includes(0)) return undefined;
  const b0 = bytes[0];
  if ((b0 === 0xff && bytes[1] === 0xfe) || (b0 === 0xfe && bytes[1] === 0xff) || (b0 === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) return undefined;
  return needles.some((n) => bytes.includes(n));
}

/** The bytes of a listed file through the workspace's checked open, or undefined when it cannot be read (then ripgrep decides). */
async function readListed(ws: Workspace, rel: string): Promise<Buffer | undefined> {
  let f;
  try {
    f = await ws.openFile(rel, { contentScanned: true });
  } catch {
    return undefined;
  }
  try {
    if (f.size > MAX_RECHECK_BYTES) return undefined;
    const buf = Buffer.alloc(f.size + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) return undefined; // grew since fstat
      const { bytesRead } = await f.handle.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return buf.subarray(0, n);
  } catch {
    return undefined;
  } finally {
    await f.handle.close().catch(() => undefined);
  }
}

/** The key of an answer: the scope and everything that decides which files match. */
function answerKey(scope: string, needles: Needles, endings: readonly string[]): string {
  const spec = {
    l: [...new Set(needles.literals.filter((l) => l !== ""))].sort(),
    p: [...new Set(needles.patterns ?? [])].sort(),
    i: needles.caseInsensitive === true,
    e: [...endings].sort(),
  };
  return `mentions:${scope}:${sha1(JSON.stringify(spec))}`;
}

/**
 * The files of `files` whose text matches `needles` as {@link filesMentioning} would say (see the
 * module comment), or `undefined` when no trustworthy answer exists (ripgrep missing or failing):
 * callers then read every file.
 * @param scope names the set of files (e.g. a language family); answers are kept per scope.
 * @param files the scope's files now (repository-relative, sorted), or a promise of them: the first
 *   ripgrep run starts before they are known.
 * @param opts.complete whether `files` holds every walkable file of the scope (`listIsComplete`
 *   of the snapshot they come from; may be pending like `files`); false (the default) → every query runs ripgrep.
 * @param opts.endings file endings of the scope (`.py`), so ripgrep reads no other file.
 * @param opts.unlisted receives the matching paths a ripgrep run found outside `files`.
 * @throws the abort reason when `signal` aborts.
 */
export async function rememberedMentions(
  ws: Workspace,
  scope: string,
  files: readonly string[] | Promise<readonly string[]>,
  needles: Needles,
  opts: { endings?: readonly string[]; signal?: AbortSignal; complete?: boolean | Promise<boolean>; unlisted?: string[] } = {},
): Promise<Set<string> | undefined> {
  // Inputs still pending may reject after another step failed first (the ignore-file check
  // refusing a FIFO rejects both ripgrep's run and the tree walk): the caller gets the first
  // error, and the other rejection must not go unhandled (it would end the process).
  for (const pending of [files, opts.complete]) if (pending instanceof Promise) pending.catch(() => undefined);
  const literals = [...new Set(needles.literals.filter((l) => l !== ""))].sort();
  const patterns = [...new Set(needles.patterns ?? [])].sort();
  if (literals.length === 0 && patterns.length === 0) {
    await files;
    return new Set();
  }
  const clean: Needles = { literals, patterns, ...(needles.caseInsensitive === true ? { caseInsensitive: true } : {}) };
  const store = FactIndex.shared(ws.root, { version: factsVersion() }).store;
  const mem = memoryOf(store);
  const key = answerKey(scope, clean, opts.endings ?? []);
  const tableKey = `mentions-stamps:${scope}`;
  const signalOpt = opts.signal ? { signal: opts.signal } : {};

  const viaRipgrep = async (listed: readonly string[] | Promise<readonly string[]>, keep: boolean | Promise<boolean> | undefined): Promise<Set<string> | undefined> => {
    const started = Date.now();
    stats.ripgrepRuns++;
    // The walk of the scope's files and ripgrep's run go on together on a first query.
    const all = Promise.resolve(listed);
    const found = await filesMentioning(ws, all, clean, {
      ...signalOpt,
      ...(opts.endings ? { endings: opts.endings } : {}),
      ...(opts.unlisted ? { unlisted: opts.unlisted } : {}),
    });
    if (found === undefined || (await keep) !== true) return found;
    remember(stampsOf(ws, await all, started), found);
    return found;
  };

  const remember = (table: Stamped, found: ReadonlySet<string>) => {
    const current = mem.tables.get(scope);
    if (current?.digest !== table.digest) {
      const stamps = table.paths.map((_, i) => stampAt(table, i));
      mem.tables.set(scope, { digest: table.digest, byPath: new Map(table.paths.map((p, i) => [p, stamps[i] as string])) });
      store.putMeta(tableKey, JSON.stringify({ v: 1, digest: table.digest, paths: table.paths, stamps } satisfies StampTable));
    }
    if (found.size > MAX_REMEMBERED_FILES) return;
    const a: Answer = { v: 1, digest: table.digest, files: [...found].sort() };
    mem.answers.delete(key);
    mem.answers.set(key, a);
    store.putMeta(key, JSON.stringify(a));
    if (mem.answers.size > MAX_REMEMBERED_ANSWERS) {
      const oldest = mem.answers.keys().next().value as string;
      mem.answers.delete(oldest);
      store.putMeta(oldest, undefined);
    }
  };

  const answer = mem.answers.get(key) ?? parse<Answer>(store.getMeta(key));
  // Kept only for a complete list: ripgrep also finds walkable files a list lacks, nothing kept could.
  if (answer === undefined) return viaRipgrep(files, opts.complete);
  if ((await opts.complete) !== true) return viaRipgrep(files, false);
  const all = await files;
  throwIfAborted(opts.signal);
  const table = stampsOf(ws, all, Date.now());
  if (table.digest === answer.digest && !table.racy) {
    stats.unchanged++;
    mem.answers.set(key, answer);
    return new Set(answer.files);
  }
  let known = mem.tables.get(scope);
  if (known === undefined) {
    const stored = parse<StampTable>(store.getMeta(tableKey));
    if (stored !== undefined) {
      known = { digest: stored.digest, byPath: new Map(stored.paths.map((p, i) => [p, stored.stamps[i] as string])) };
      mem.tables.set(scope, known);
    }
  }
  const bytesNeedles = plainLiterals(clean);
  if (known?.digest !== answer.digest || bytesNeedles === undefined) return viaRipgrep(all, true);
  const changed: number[] = [];
  table.paths.forEach((p, i) => {
    const stamp = stampAt(table, i);
    if (known.byPath.get(p) !== stamp || stamp === RACY) changed.push(i);
  });
  if (changed.length > MAX_RECHECK) return viaRipgrep(all, true);
  const present = new Set(table.paths);
  const changedSet = new Set(changed.map((i) => table.paths[i] as string));
  const out = new Set(answer.files.filter((f) => present.has(f) && !changedSet.has(f)));
  for (const i of changed) {
    throwIfAborted(opts.signal);
    const f = table.paths[i] as string;
    // A hard-linked file is refused by the workspace's open (and counted as denied): ripgrep reads it.
    const bytes = (table.links[i] as number) > 1 ? undefined : await readListed(ws, f);
    const hit = bytes === undefined ? undefined : literalMatch(bytes, bytesNeedles);
    if (hit === undefined) return viaRipgrep(all, true);
    if (hit) out.add(f);
  }
  stats.updated++;
  stats.rechecked += changed.length;
  remember(table, out);
  return out;
}
