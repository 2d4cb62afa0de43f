/**
 * Answers of `find_references` kept for later processes of the same tree, so that a warm query
 * whose inputs are unchanged reads one record instead of the references of every mentioning file
 * and the definitions of their include closure (C/C++: ~70 files and ~300 headers on the bench
 * tree, 8 MB of cached uses). Used where a query's answer follows only from the files it read
 * (`references.ts` `closureLookups`: C/C++, whose lookups follow definitions and includes only).
 *
 * **What is kept** (the fact cache's side table through `project-view.ts` {@link saveDerived},
 * one record per slot of {@link SLOTS}, the slot chosen by a digest of the query's key): the key
 * in full (everything besides file contents that decides the answer: the code computing it
 * ({@link answerCodeVersion}), the facts version, the workspace's read limits, the definition
 * located and the names looked for), the files the query loaded in its first round (the text
 * prefilter's answer), the state of every file whose content it used ({@link KeptStat}: size,
 * mtime, ctime, inode, when it was stat'ed, before it was read), the references found with the
 * counts and skips the answer reports, and the lines of the records' files the output read.
 *
 * **When it holds**: `loadDerived`'s rules (the same walk of the tree, every file read through the
 * view — `compile_commands.json` — unchanged), the same key, the same files loaded in the first
 * round, and every used file's state holding by the fact cache's stat-hit rule (`fact-store.ts`
 * `isStatHit`: same size, mtime, ctime and inode, read outside the racy window). A file whose
 * state was racy when read keeps nothing; an edit of any used file (a mentioning file, a header of
 * the closure) or a new file (a new walk) makes the next query compute the answer again.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FileStat } from "../fact-cache/fact-index.js";
import type { FactsSkipReason } from "./analysis/facts.js";
import { factsVersion } from "./analysis/facts.js";
import type { ProjectView } from "./analysis/lang/language.js";
import { keptStat, keptStatHolds, loadDerived, saveDerived, statFiles, type KeptStat } from "./analysis/project-view.js";
import type { ReferenceHit } from "./references.js";
import type { Workspace } from "./sandbox/workspace.js";

/** Slots of kept answers per tree: a query whose key's digest falls in a used slot replaces its answer. */
const SLOTS = 256;

/** Above this many characters of JSON an answer is not kept (the next query computes it again). */
const MAX_ANSWER_CHARS = 4_000_000;

/** What a kept answer gives back. */
export interface KeptAnswer {
  hits: ReferenceHit[];
  leftOut: number;
  definers: number;
  skipped: Map<string, FactsSkipReason>;
  /**
   * Lines of the records' files as the output read them: file → its lines, only those inside a
   * record's range present (the array has the file's length).
   */
  lines: Map<string, readonly string[]>;
  /** The used files' states as kept (for {@link keepAnswer} of more lines). */
  files: [string, KeptStat][];
}

/** The persisted form (version 1). */
interface Stored {
  v: 1;
  key: string;
  loaded: string[];
  files: [string, KeptStat][];
  hits: ReferenceHit[];
  leftOut: number;
  definers: number;
  skipped: [string, FactsSkipReason][];
  /** file → [line count, [line number, text]…] */
  lines: [string, number, [number, string][]][];
}

let codeVersion: string | undefined;

/** Set by the command-line bundle (scripts/bundle-cli.ts) to {@link answerCodeVersion} of the dist/ files it bundles. */
declare const __CODECITE_ANSWER_CODE_VERSION__: string | undefined;

/**
 * A digest of the code that computes an answer (this module's file and `references`' beside it, as
 * built), so that a changed resolver never reads an answer kept by another build; the extractor
 * and resolver rules of `lang/` are in {@link factsVersion}. Computed once per process; in the
 * command-line bundle, once when it was built (as {@link factsVersion} is), so a warm query does
 * not read and hash the two dist/ files again.
 * @public (called by scripts/bundle-cli.ts on the built dist/ files)
 */
export function answerCodeVersion(): string {
  if (codeVersion !== undefined) return codeVersion;
  if (typeof __CODECITE_ANSWER_CODE_VERSION__ === "string") return (codeVersion = __CODECITE_ANSWER_CODE_VERSION__);
  const here = fileURLToPath(import.meta.url);
  const digest = createHash("sha1");
  for (const f of [here, here.replace(/reference-answers(\.[cm]?[jt]s)$/, "references$1")]) {
    try {
      digest.update(readFileSync(f));
    } catch {
      digest.update(`unreadable ${f}`);
    }
  }
  codeVersion = digest.digest("hex").slice(0, 12);
  return codeVersion;
}

/** The key of a query: `parts` (what decides the answer besides file contents) with the code, facts version and the workspace's limits. */
export function answerKey(ws: Workspace, parts: unknown): string {
  return JSON.stringify({ code: answerCodeVersion(), facts: factsVersion(), maxFileBytes: ws.maxFileBytes, hardLinks: ws.allowHardLinks, query: parts });
}

function slotName(key: string): string {
  const n = Number.parseInt(createHash("sha1").update(key).digest("hex").slice(0, 8), 16) % SLOTS;
  return `references:answer:${n}`;
}

/**
 * The answer kept for `key` when it still holds (see the module comment), else `undefined`.
 * @param loaded the files the query loads in its first round, in its order.
 */
export function keptAnswer(ws: Workspace, view: ProjectView, key: string, loaded: readonly string[]): KeptAnswer | undefined {
  const data = loadDerived<Stored>(view, slotName(key));
  if (data?.v !== 1 || data.key !== key || !Array.isArray(data.loaded) || !Array.isArray(data.files)) return undefined;
  if (data.loaded.length !== loaded.length || data.loaded.some((f, i) => f !== loaded[i])) return undefined;
  const now = new Map(statFiles(ws, data.files.map(([f]) => f)).map((st) => [st.path, st] as const));
  for (const [f, kept] of data.files) {
    const st = now.get(f);
    if (st === undefined || !keptStatHolds(kept, st)) return undefined;
  }
  const lines = new Map<string, readonly string[]>();
  for (const [file, count, at] of data.lines) {
    const l = new Array<string>(count);
    for (const [n, text] of at) l[n - 1] = text;
    lines.set(file, l);
  }
  return { hits: data.hits, leftOut: data.leftOut, definers: data.definers, skipped: new Map(data.skipped), lines, files: data.files };
}

/**
 * The files a query used, with their state when stat'ed (before being read). {@link stat} records
 * what it stats; a file gone when stat'ed, or one changed within the racy window, makes the answer
 * one that is not kept.
 */
export class UsedFiles {
  readonly #files = new Map<string, KeptStat>();
  #keepable = true;

  constructor(private readonly ws: Workspace) {}

  /** `statFiles` of `paths`, recording each state (the first one seen of a file is kept). */
  stat(paths: readonly string[]): FileStat[] {
    const checkedMs = Date.now();
    const out = statFiles(this.ws, paths);
    if (out.length !== paths.length) this.#keepable = false;
    for (const st of out) {
      if (this.#files.has(st.path)) continue;
      const kept = keptStat(st, checkedMs);
      if (!keptStatHolds(kept, st)) this.#keepable = false;
      this.#files.set(st.path, kept);
    }
    return out;
  }

  /** Marks the answer as one not to keep (it depends on something not recorded here). */
  spoil(): void {
    this.#keepable = false;
  }

  /** The recorded files, or `undefined` when the answer must not be kept. */
  recorded(): [string, KeptStat][] | undefined {
    return this.#keepable ? [...this.#files] : undefined;
  }
}

/**
 * Keeps an answer for later processes (see the module comment); nothing is kept when the view is
 * racy or the answer is over {@link MAX_ANSWER_CHARS}.
 * @param files the used files' states ({@link UsedFiles.recorded}, or a kept answer's).
 * @param texts lines of files the output read (`undefined`: unreadable, not kept).
 */
export function keepAnswer(
  view: ProjectView,
  key: string,
  loaded: readonly string[],
  files: [string, KeptStat][],
  answer: { hits: readonly ReferenceHit[]; leftOut: number; definers: number; skipped: ReadonlyMap<string, FactsSkipReason> },
  texts: ReadonlyMap<string, readonly string[] | undefined>,
): void {
  const byFile = new Map<string, Map<number, string>>();
  for (const h of answer.hits) {
    const text = texts.get(h.file);
    if (text === undefined) continue;
    let at = byFile.get(h.file);
    if (at === undefined) byFile.set(h.file, (at = new Map()));
    // The range linesEvidence shows (clamped to the file).
    const last = Math.max(1, text.length);
    const start = Math.min(Math.max(1, h.start_line), last);
    const end = Math.min(Math.max(start, h.end_line), last);
    for (let n = start; n <= end; n++) at.set(n, text[n - 1] ?? "");
  }
  const data: Stored = {
    v: 1,
    key,
    loaded: [...loaded],
    files,
    hits: answer.hits.map((h) => ({ file: h.file, line: h.line, start_line: h.start_line, end_line: h.end_line, use: h.use, context: h.context, byName: h.byName })),
    leftOut: answer.leftOut,
    definers: answer.definers,
    skipped: [...answer.skipped],
    lines: [...byFile].map(([file, at]) => [file, (texts.get(file) as readonly string[]).length, [...at]]),
  };
  if (JSON.stringify(data).length > MAX_ANSWER_CHARS) return;
  saveDerived(view, slotName(key), data);
}
