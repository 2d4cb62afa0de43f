/**
 * Which files of a set mention some names, remembered across queries: the text prefilter of
 * `find_references` (`text-prefilter.ts`) without reading the tree again while it has not changed.
 *
 * **What is kept** (in the fact cache's side table, `FactStore.getMeta`/`putMeta`, and in memory
 * for the life of the process): per scope (a language family) and set of names, the files whose
 * text contained one of the names, with the digest of the *stamp table* they were found under;
 * per scope, the latest stamp table: every file of the scope with its size, mtime, ctime and inode
 * (the fields the fact cache compares, `fact-store.ts`) when it was read.
 *
 * **A query**: the files of the scope are `lstat`ed and their stamps digested. The same digest as
 * the remembered answer's → that answer, nothing read. Another digest, and the remembered table is
 * still the scope's latest → only the files whose stamp differs (edited, new; at most
 * {@link MAX_RECHECK}) are read and searched, gone files dropped, and the answer is remembered under
 * the new table. Otherwise (nothing remembered, too many changes) one ripgrep run answers
 * (`filesMentioning`) and is remembered. An answer that could not be trusted (ripgrep failing) is
 * never kept.
 *
 * **Racy stamps** (Git's rule, Documentation/technical/racy-git.txt): a file whose mtime lies
 * within {@link RACY_WINDOW_MS} of the moment its text was searched (or later) could change again
 * without a new size or mtime; its stamp is kept as "racy", which never matches, so it is searched
 * again on the next query until its stamp is old enough.
 *
 * A name is matched as ripgrep's literal would (the name's text anywhere in the file, case
 * sensitive), so a remembered answer and a fresh run agree.
 */
import { createHash } from "node:crypto";
import { lstatSync } from "node:fs";
import path from "node:path";
import { FactIndex } from "../../fact-cache/fact-index.js";
import { RACY_WINDOW_MS, type FactStore } from "../../fact-cache/fact-store.js";
import { throwIfAborted } from "../evidence.js";
import type { Workspace } from "../sandbox/workspace.js";
import { factsVersion } from "./facts.js";
import { filesMentioning } from "./text-prefilter.js";

/** At most this many changed files are searched in-process; more → one ripgrep run. */
const MAX_RECHECK = 256;
/** An answer naming more files than this is not kept (it would cost more to store than to find). */
const MAX_REMEMBERED_FILES = 5000;
/** Answers kept per root (least recently used dropped first). */
const MAX_REMEMBERED_ANSWERS = 512;

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

/** The stamps of `files` (sorted) now; a file changed at or after `since - RACY_WINDOW_MS` is racy; a gone file is absent. */
function stampsOf(ws: Workspace, files: readonly string[], since: number): { paths: string[]; stamps: string[]; digest: string; racy: boolean } {
  const paths: string[] = [];
  const stamps: string[] = [];
  let racy = false;
  const h = createHash("sha1");
  const prefix = ws.root.endsWith(path.sep) ? ws.root : `${ws.root}${path.sep}`;
  for (const p of files) {
    const st = lstatSync(prefix + p, { throwIfNoEntry: false });
    if (st === undefined || !st.isFile()) continue;
    const stamp = st.mtimeMs >= since - RACY_WINDOW_MS ? RACY : `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
    racy ||= stamp === RACY;
    paths.push(p);
    stamps.push(stamp);
    h.update(p).update("\0").update(stamp).update("\n");
  }
  return { paths, stamps, digest: h.digest("hex"), racy };
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

/**
 * The files of `files` whose text contains one of `literals` (see the module comment), or
 * `undefined` when no trustworthy answer exists (ripgrep missing or failing): callers then read
 * every file.
 * @param scope names the set of files (e.g. a language family); answers are kept per scope.
 * @param files the scope's files now (repository-relative, sorted), or a promise of them: the first
 *   ripgrep run starts before they are known.
 * @param opts.endings file endings of the scope (`.py`), so ripgrep reads no other file.
 * @throws the abort reason when `signal` aborts.
 */
export async function rememberedMentions(
  ws: Workspace,
  scope: string,
  files: readonly string[] | Promise<readonly string[]>,
  literals: readonly string[],
  opts: { endings?: readonly string[]; signal?: AbortSignal } = {},
): Promise<Set<string> | undefined> {
  const names = [...new Set(literals.filter((l) => l !== ""))].sort();
  if (names.length === 0) return new Set();
  const store = FactIndex.shared(ws.root, { version: factsVersion() }).store;
  const mem = memoryOf(store);
  const key = `mentions:${scope}:${sha1(names.join("\0"))}`;
  const tableKey = `mentions-stamps:${scope}`;
  const answer = mem.answers.get(key) ?? parse<Answer>(store.getMeta(key));
  const signalOpt = opts.signal ? { signal: opts.signal } : {};

  const viaRipgrep = async (listed?: readonly string[]): Promise<Set<string> | undefined> => {
    const started = Date.now();
    stats.ripgrepRuns++;
    // The walk of the scope's files and ripgrep's run go on together on a first query.
    const all = Promise.resolve(listed ?? files);
    const found = await filesMentioning(ws, all, { literals: names }, { ...signalOpt, ...(opts.endings ? { endings: opts.endings } : {}) });
    if (found === undefined) return undefined;
    remember(stampsOf(ws, await all, started), found);
    return found;
  };

  const remember = (table: { paths: string[]; stamps: string[]; digest: string }, found: ReadonlySet<string>) => {
    const current = mem.tables.get(scope);
    if (current?.digest !== table.digest) {
      mem.tables.set(scope, { digest: table.digest, byPath: new Map(table.paths.map((p, i) => [p, table.stamps[i] as string])) });
      store.putMeta(tableKey, JSON.stringify({ v: 1, ...table } satisfies StampTable));
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

  if (answer === undefined) return viaRipgrep();
  const all = await files;
  throwIfAborted(opts.signal);
  const now = Date.now();
  const table = stampsOf(ws, all, now);
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
  if (known?.digest !== answer.digest) return viaRipgrep(all);
  const changed: string[] = [];
  table.paths.forEach((p, i) => {
    if (known.byPath.get(p) !== table.stamps[i] || table.stamps[i] === RACY) changed.push(p);
  });
  if (changed.length > MAX_RECHECK) return viaRipgrep(all);
  const present = new Set(table.paths);
  const changedSet = new Set(changed);
  const out = new Set(answer.files.filter((f) => present.has(f) && !changedSet.has(f)));
  for (const f of changed) {
    throwIfAborted(opts.signal);
    let text: string;
    try {
      text = (await ws.readText(f)).lines.join("\n");
    } catch {
      continue; // unreadable, binary, denied: no facts either
    }
    if (names.some((n) => text.includes(n))) out.add(f);
  }
  stats.updated++;
  stats.rechecked += changed.length;
  remember(table, out);
  return out;
}
