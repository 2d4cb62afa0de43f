/**
 * `search_code`: text search with ripgrep (hardened invocation in
 * `sandbox/ripgrep.ts`).
 *
 * ripgrep runs with an argv array, `--json --no-config`, no `RIPGREP_CONFIG_PATH`, the hardened
 * walk arguments of `ripgrep.ts` (ignore files honoured outside git, `.git`/`node_modules`/venvs
 * never walked, symlinks not followed, secrets excluded by `--iglob=!…`), its default linear-time
 * regex engine (never PCRE2, never `--pre`), the query as `--regexp=<query>` (plus
 * `--fixed-strings` unless `regex` is true), the user glob as `--glob=<glob>` and the validated
 * path after `--`. Files over {@link SEARCH_MAX_FILE_BYTES} are not searched. ripgrep's output
 * goes to an unlinked temporary file read in batches (`spawn.ts` `spoolStdout`), not a pipe: it
 * writes once per file with matches, and a pipe woke this process for each of those writes. When
 * the file could not take all of it (a full file system, `ulimit -f`), ripgrep runs again through a
 * pipe ({@link runRipgrep}).
 *
 * Determinism: records are sorted by path, then line. ripgrep searches in parallel; when the
 * number of matching lines stays within {@link COLLECT_CAP} the result is exact and complete.
 * When it exceeds the cap, ripgrep is killed and run again with `--sort=path` (single-threaded,
 * stable order) and stopped once enough records are collected, so the records shown are still
 * the same on every run; `total` is then a lower bound and the note says so.
 *
 * Snippets follow `text-file.ts` (`\r` dropped, same line numbers as `read_evidence`); a line
 * longer than {@link DEFAULT_LINE_CHARS} is cut around the first match and flagged `truncated`.
 * Each line is cut as soon as its event is read, so memory stays bounded by the number of hits,
 * not by line length; ripgrep's output is read by `ripgrep-json.ts` (linear time, bounded events).
 * When an event was too large to keep whole and its first match lies past the kept prefix, the
 * window around the match is read back from the file (race-safely, through the Workspace).
 *
 * Budget: at most {@link RESULT_TEXT_CHARS} characters of snippets, paths and names together (a
 * repository with very long paths cannot blow the budget), and at most `max_results` records.
 *
 * A `glob` only narrows the search: ripgrep's `--glob` would also re-include files that
 * `.gitignore`/`.ignore` exclude, so with a glob the hits are kept only when the file is walkable
 * (`Workspace.walkPaths`, listed concurrently), and search sees exactly the files other tools see.
 */
import { CUT_MARK, advice, joinAdvice, listAdvice, oneClause, param, plain, tool, type AdviceText, type Term } from "./advice.js";
import { closeSync, constants as fsc, openSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { TextDecoder } from "node:util";
import type { SearchCodeArgs } from "./args.js";
import { type Evidence, type EvidenceFlag, type EvidenceResult, ToolError, compareEvidence } from "./evidence.js";
import { DEFAULT_LINE_CHARS, RESULT_TEXT_CHARS, type OutputScope } from "./budget.js";
import { isDeniedPath } from "./sandbox/deny-list.js";
import { bytesHavePrivateKeyBlock, MAX_SECRET_SCAN_BYTES } from "./sandbox/secret-content.js";
import { toPosix } from "./sandbox/path-policy.js";
import { baseRipgrepArgs, ripgrepEnv, ripgrepMissing, ripgrepPath, ripgrepPathArg } from "./sandbox/ripgrep.js";
import { RgJsonReader, type RgMatchEvent, type RgText } from "./ripgrep-json.js";
import { publishTiming, timingStart } from "../fact-cache/activity.js";
import { runProcess } from "./sandbox/spawn.js";
import {
  BARE_CR_FLAG,
  BINARY_SNIFF_BYTES,
  cutText,
  hasInvisibleUnicode,
  sniff,
  snippetLine,
  stripLineEnding,
} from "./sandbox/text-file.js";
import type { OpenedFileSync, Workspace } from "./sandbox/workspace.js";

/** Files larger than this are not searched (ripgrep `--max-filesize`): 16 MiB. */
export const SEARCH_MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Matching lines collected from a parallel run before switching to a sorted, stopped run. */
export const COLLECT_CAP = 5000;
/** Longest accepted query, in characters. */
export const MAX_QUERY_CHARS = 1000;
/** Bytes {@link verifyHits} reads between two turns of the event loop: 8 MiB. */
const VERIFY_YIELD_BYTES = 8 * 1024 * 1024;
/** Time limit for one ripgrep run, in ms. */
export const SEARCH_TIMEOUT_MS = 30_000;

/** Optional arguments used only by tests and library callers. */
export interface SearchOptions {
  /** Override {@link SEARCH_TIMEOUT_MS} (ms). */
  timeoutMs?: number;
  /** Override {@link COLLECT_CAP}. */
  collectCap?: number;
  /** Override the ripgrep event limits of `ripgrep-json.ts` (bytes; tests). */
  eventLimits?: { maxParsedBytes?: number; keptLineBytes?: number };
}

/**
 * One matching line. Its snippet is made by {@link settle} when the hit is about to be shown: most
 * hits of a common word are only counted (perf, issue 17). Until then `source` holds the line.
 */
interface Hit {
  path: string;
  line: number;
  /** The path is not valid UTF-8 (flag `non_utf8_path`; the file has no openable name). */
  nonUtf8Path: boolean;
  /** The line as ripgrep reported it, while the snippet is not made yet. */
  source?: LineSource;
  /** The snippet (cut to {@link DEFAULT_LINE_CHARS}, `\r` shown as `\n`); valid once settled. */
  snippet: string;
  /** Valid once settled. */
  flags: EvidenceFlag[];
  /**
   * Set when only a prefix of a very long line was read and the first match lies beyond it: the
   * byte offsets (in ripgrep's BOM-less stream) to read the window from the file.
   */
  window?: { lineOffset: number; matchOffset: number };
}

/** A matching line as ripgrep reported it (see {@link toHit}). */
interface LineSource {
  /** The line, decoded (lossily when `raw` is not valid UTF-8). */
  value: string;
  /** The line's bytes, when ripgrep sent them as base64. */
  raw?: Buffer;
  /** Whether `value` is the whole line with its terminator (else a prefix of a long line). */
  complete: boolean;
  /** Byte offset of the first match in the line. */
  firstByte: number;
  /** ripgrep's `absolute_offset` of the line. */
  absoluteOffset: number | null;
}

/**
 * Lines up to this many characters wait in {@link Hit.source} for {@link settle}: no longer than
 * their snippet would be, so a waiting hit holds no more than a settled one. Longer lines are
 * cut at once.
 */
const LAZY_LINE_CHARS = DEFAULT_LINE_CHARS;

/**
 * Searches file contents and returns one `match` record per matching line (name = the query).
 *
 * @param args `query` (literal unless `regex`), `path` (file or folder, validated by the
 *   Workspace; `""` means the whole root), `glob` (ripgrep glob; `..` refused),
 *   `case_sensitive` (undefined → smart case), `max_results` (1–200).
 * @returns records sorted by path then line; `total` = matching lines found (a lower bound when
 *   the note says "more than"); `truncated` when records were left out or snippets cut; `note`
 *   on an empty or shortened result.
 * @throws ToolError `INVALID_ARGUMENT` (bad query, glob or regex: ripgrep's message plus a
 *   hint), `OUTSIDE_ROOT`/`DENIED`/`NOT_FOUND` for `path`, `TIMEOUT`, `UNSUPPORTED` without rg.
 */
export async function searchCode(
  ws: Workspace,
  args: SearchCodeArgs,
  signal?: AbortSignal,
  opts: SearchOptions = {},
  scope?: OutputScope,
): Promise<EvidenceResult> {
  const all = scope?.all === true;
  const query = args.query;
  if (typeof query !== "string" || query === "") {
    throw new ToolError("INVALID_ARGUMENT", "query must be a non-empty string", "Pass the text to find, e.g. \"load_index\".");
  }
  if (query.includes("\0")) {
    throw new ToolError("INVALID_ARGUMENT", "query contains a NUL byte", "Search for printable text; binary files are not searched.");
  }
  if (query.length > MAX_QUERY_CHARS) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      `query is too long (${query.length} characters, limit ${MAX_QUERY_CHARS})`,
      "Search for a short, distinctive part of the text.",
    );
  }
  if (/[\r\n]/.test(query)) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      advice`query contains a line break; ${tool("search_code")} matches within one line`,
      advice`Search for one line of the text, then ${tool("read_evidence")} around the hit.`,
    );
  }
  const maxResults = all ? Infinity : clampInt(args.max_results ?? 50, 1, 200);
  const globArgs = validateGlob(args.glob);
  const target = args.path === undefined || args.path.trim() === "" ? undefined : await ws.walkTarget(args.path);
  if (target !== undefined) refuseOversizedFile(ws, target);
  const scanStart = timingStart();
  await ws.checkIgnoreFiles();
  publishTiming("ignore-file check", scanStart);

  const common = [
    "--json",
    ...globArgs, // before the exclusions: with ripgrep the last matching glob wins, so excludes win
    ...baseRipgrepArgs(),
    `--max-filesize=${SEARCH_MAX_FILE_BYTES}`,
    args.case_sensitive === undefined ? "--smart-case" : args.case_sensitive ? "--case-sensitive" : "--ignore-case",
  ];
  if (args.regex !== true) common.push("--fixed-strings");
  common.push(`--regexp=${query}`, "--", ripgrepPathArg(target ?? ""));

  const cap = opts.collectCap ?? (all ? Number.MAX_SAFE_INTEGER : COLLECT_CAP);
  const timeoutMs = opts.timeoutMs ?? SEARCH_TIMEOUT_MS;
  // A glob also re-includes ignored files in ripgrep; list the walkable files alongside.
  const walkAbort = new AbortController();
  const onAbort = () => walkAbort.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const walk = globArgs.length > 0 ? ws.walkPaths(target, walkAbort.signal) : undefined;
  walk?.catch(() => undefined); // awaited below; never an unhandled rejection
  let hits: Hit[];
  let first: RunOutcome;
  let over = false;
  let ignoredByGlob = 0;
  let walkable: Set<string> | undefined;
  try {
    // The pattern as the user wrote it, for a regex ripgrep cannot parse (RegexSyntaxError).
    const regex = args.regex === true ? query : undefined;
    first = await runRipgrep(ws, common, regex, cap, timeoutMs, signal, opts.eventLimits);
    hits = first.hits;
    if (first.stopped) {
      // Too many hits for a complete parallel run: take a stable first slice in path order.
      over = true;
      const sorted = await runRipgrep(ws, ["--sort=path", ...common], regex, maxResults * 4 + 64, timeoutMs, signal, opts.eventLimits);
      hits = sorted.hits;
    }
    if (walk !== undefined) walkable = new Set(await walk);
  } finally {
    walkAbort.abort();
    signal?.removeEventListener("abort", onAbort);
  }

  // Post-filters: deny-list (defence in depth), ignore rules under a glob, virtual envs,
  // binary files (our 8 KiB rule).
  const deniedPaths = new Map<string, boolean>(); // one deny check per file, not per hit
  hits = hits.filter((h) => {
    let denied = deniedPaths.get(h.path);
    if (denied === undefined) deniedPaths.set(h.path, (denied = isDeniedPath(h.path)));
    return !denied;
  });
  if (walkable !== undefined) {
    const kept = hits.filter((h) => walkable.has(h.path) || h.nonUtf8Path);
    ignoredByGlob = hits.length - kept.length;
    hits = kept;
  }
  const inVenv = await ws.virtualEnvFilter([...new Set(hits.map((h) => h.path))]);
  hits = hits.filter((h) => !inVenv(h.path));
  hits.sort((a, b) => (a.path !== b.path ? (a.path < b.path ? -1 : 1) : a.line - b.line));

  // Binary files (our 8 KiB rule) are checked as the scan below meets them, so only files whose
  // hits come before the cut are read. The files after it need no check for `total`: during a walk
  // ripgrep looks at a file's first buffer (64 KiB) before reporting any match in it and skips the
  // file when that holds a NUL; a file named as `path` is searched whatever it holds, and its hits
  // are all met here. A binary file's hits are contiguous (sorted by path) and all dropped.
  // Each file is opened once, for its binary check and then the verification of its chosen hits
  // (`HitFiles`).
  const binary = new Set<string>();
  const files = new HitFiles(ws);
  let binaryHits = 0;
  const chosen: Hit[] = [];
  let chars = 0;
  let budgetHit = false;
  try {
    for (const h of hits) {
      if (files.readEnough()) await new Promise<void>((resolve) => setImmediate(resolve));
      const isBinary = files.enter(h);
      if (isBinary) {
        binary.add(h.path);
        binaryHits++;
        continue;
      }
      if (chosen.length >= maxResults) break;
      settle(h);
      // Budget: snippet, path and name (the query) all reach the model.
      const cost = h.snippet.length + h.path.length + query.length;
      if (!all && chosen.length > 0 && chars + cost > RESULT_TEXT_CHARS) {
        budgetHit = true;
        break;
      }
      chars += cost;
      chosen.push(h);
      files.choose(h);
    }
    files.finish();
  } finally {
    files.close();
  }
  await fillWindows(ws, chosen);
  // Files with hits whose window was read from the file are verified now, with those snippets.
  const late = await verifyHits(ws, chosen.filter((h) => files.deferred.has(h.path)));
  const dropped = new Set([...files.dropped, ...late.dropped]);
  const check = { kept: chosen.filter((h) => !dropped.has(h.path)), dropped };
  const droppedHits = hits.filter((h) => check.dropped.has(h.path)).length;
  const total = (over ? Math.max(first.hits.length - ignoredByGlob, hits.length) : hits.length) - binaryHits - droppedHits;
  const evidence = check.kept.map((h) => toEvidence(h, query));
  const cutSnippet = evidence.some((e) => e.flags?.includes("truncated") === true);
  evidence.sort(compareEvidence);

  const truncated = over || evidence.length < total || cutSnippet;
  let note: AdviceText | undefined;
  if (evidence.length === 0) {
    const where = target === undefined ? "" : ` under ${target}`;
    // The query as typed: JSON quoting would double each backslash of a regex (`\\*` for `\*`).
    note = plain(
      `No match for "${query}"${where}${args.glob ? ` in files matching ${args.glob}` : ""} ` +
      `(${first.searched} files searched; binary files, files over ${SEARCH_MAX_FILE_BYTES / (1024 * 1024)} MiB, ` +
      `ignored and denied files are not searched)` +
      (binary.size > 0 ? `; ${binary.size} binary file(s) skipped` : "") +
      ".",
    );
    if (args.regex !== true && /[.*+?()[\]{}|\\^$]/.test(query)) note = joinAdvice(note, advice`The query was matched literally; ${{ kind: "set_flag", param: "regex", value: true }} for a pattern.`);
    if (args.regex === true) note = joinAdvice(note, await plainTextReading(ws, args, signal, opts));
    if (ignoredByGlob > 0) note = joinAdvice(note, plain(`${ignoredByGlob} matching line(s) in ignored files were left out.`));
  } else if (truncated) {
    const parts: (string | Term)[][] = [];
    if (over) parts.push([`more than ${cap} matching lines; showing the first ${evidence.length} in path order`]);
    else if (evidence.length < total) parts.push([`showing ${evidence.length} of ${total} matching lines`]);
    if (budgetHit) parts.push([`output budget of ${RESULT_TEXT_CHARS} characters reached`]);
    if (cutSnippet) parts.push([`long lines cut to ${DEFAULT_LINE_CHARS} characters `, CUT_MARK]);
    // Advice names only search_code's own parameters; raising max_results helps when it, not the budget, stopped the records.
    const raise = !budgetHit && evidence.length >= maxResults && maxResults < 200 ? advice`Or raise ${param("max_results")} to see more.` : undefined;
    // Narrowing shows the records left out; it does nothing for lines cut for length.
    const leftOut = over || evidence.length < total || budgetHit;
    note = leftOut
      ? joinAdvice(advice`${listAdvice(parts, "; ")}. Narrow the search with ${param("path")} or ${param("glob")}, or a more specific query.`, raise)
      : advice`${listAdvice(parts, "; ")}.`;
  }
  if (check.dropped.size > 0) {
    note = joinAdvice(note, plain(`${check.dropped.size} file(s) with matches were left out (denied, hard-linked, or changed while being searched).`));
  }
  return note === undefined ? { evidence, total, truncated } : { evidence, total, truncated, note };
}

/** Characters that are operators in a regex (Rust `regex` syntax) and plain text in a literal search. */
const REGEX_OPERATORS = /[.*+?()[\]{}|^$\\]/;

/**
 * What to tell a model whose regex matched nothing while its characters read as text might match:
 * `func (c \*Command) Exec` groups `(c \*Command)`, where the author meant the parentheses. The
 * query read as plain text (a `\` before punctuation dropped, as a regex reads it) is searched
 * once, literally: when it matches, the note says so and how to search it; otherwise, when the
 * query has operators, which characters are operators and how to match them as text. `undefined`
 * for a query without operators.
 */
async function plainTextReading(ws: Workspace, args: SearchCodeArgs, signal: AbortSignal | undefined, opts: SearchOptions): Promise<AdviceText | undefined> {
  if (!REGEX_OPERATORS.test(args.query)) return undefined;
  const operators = "( ) group, and . * + ? [ ] { } | ^ $ \\ are operators";
  const text = args.query.replace(/\\([^\w\s])/g, "$1");
  // A class escape (`\d`, `\w`) has no plain-text reading.
  if (!text.includes("\\")) {
    const literal = await searchCode(ws, { ...args, query: text, regex: false, max_results: 1 }, signal, opts);
    const lines = literal.total === 1 ? "1 line" : `${literal.total} lines`;
    if (literal.total > 0) return oneClause(advice`As plain text, "${text}" matches ${lines}: ${{ kind: "set_flag", param: "regex", value: false }} and search for that (in a regex, ${operators}).`);
  }
  return oneClause(advice`In a regex, ${operators}: put \\ before one to match it as text, or ${{ kind: "set_flag", param: "regex", value: false }} to match the query as plain text.`);
}

/**
 * Re-checks what ripgrep printed (ripgrep opens files by name, so a file swapped for a symbolic
 * link to an outside file during the search would be read through it). {@link HitFiles} does this
 * for the files it opened for their binary check; this function does it for the files it left
 * (hits whose window was read from the file). Each file with chosen
 * hits is opened through the Workspace (`tryOpenFileSync`, race-safe: `O_NOFOLLOW`, descriptor
 * verified inside the root; deny-list and hard links checked) and read once here (private-key
 * content checked on those bytes), and every hit's snippet must still be part of that line of
 * the file as read now. The files are opened and read synchronously, one after the other (a few
 * dozen small files: promises cost more than the reads, perf issue 17), with a turn of the event
 * loop after every {@link VERIFY_YIELD_BYTES} read so a server stays responsive; only the lines
 * with hits are decoded. Files that fail are dropped with all their hits. Files with non-UTF-8
 * names (no openable name) and UTF-16 files (transcoded by ripgrep) are opened the same way only
 * when possible and otherwise kept as ripgrep reported them.
 */
async function verifyHits(ws: Workspace, hits: readonly Hit[]): Promise<{ kept: Hit[]; dropped: Set<string> }> {
  const byPath = new Map<string, Hit[]>();
  for (const h of hits) {
    const list = byPath.get(h.path);
    if (list) list.push(h);
    else byPath.set(h.path, [h]);
  }
  const dropped = new Set<string>();
  let sinceYield = 0;
  for (const [rel, list] of byPath) {
    if (list.some((h) => h.nonUtf8Path)) continue;
    if (sinceYield >= VERIFY_YIELD_BYTES) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const f = ws.tryOpenFileSync(rel);
    if (f === undefined) {
      dropped.add(rel);
      continue;
    }
    try {
      const v = verifyOpened(ws, f, list);
      sinceYield += v.bytesRead;
      if (!v.ok) dropped.add(rel);
    } finally {
      closeSync(f.fd);
    }
  }
  return { kept: hits.filter((h) => !dropped.has(h.path)), dropped };
}

/**
 * The check of {@link verifyHits} for one opened file and its hits: the file is read (up to
 * {@link SEARCH_MAX_FILE_BYTES}); `ok` is false when it holds a private-key block (counted as
 * denied), when a UTF-8 file no longer has a hit's snippet on its line, or when reading fails.
 * The descriptor stays open.
 */
function verifyOpened(ws: Workspace, f: OpenedFileSync, hits: readonly Hit[]): { ok: boolean; bytesRead: number } {
  let n = 0;
  try {
    const size = Math.min(f.size, SEARCH_MAX_FILE_BYTES);
    const buf = Buffer.allocUnsafe(size);
    while (n < size) {
      const bytesRead = readSync(f.fd, buf, n, size - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    const bytes = buf.subarray(0, n);
    if (bytesHavePrivateKeyBlock(bytes.subarray(0, MAX_SECRET_SCAN_BYTES))) {
      ws.skipped.denied++;
      return { ok: false, bytesRead: n };
    }
    const enc = sniff(bytes.subarray(0, BINARY_SNIFF_BYTES));
    if (enc.encoding !== "utf-8") return { ok: true, bytesRead: n };
    return { ok: hitsStillThere(bytes.subarray(enc.bomBytes), hits), bytesRead: n };
  } catch {
    return { ok: false, bytesRead: n };
  }
}

/**
 * The files of the sorted hits, met one after the other by the selection loop of
 * {@link searchCode}: each is opened once through the Workspace (`tryOpenFileSync`), for the
 * binary check of its first {@link BINARY_SNIFF_BYTES} and, when the loop leaves it, for the
 * verification of its chosen hits ({@link verifyOpened}); at most one descriptor is open. The
 * outcome is the one of the binary check ({@link isBinaryFile}, used as is when the file cannot be
 * opened that way) followed by {@link verifyHits} of the chosen hits: a file that cannot be opened
 * is dropped when it has chosen hits; files with hits whose window is still to be read from the
 * file ({@link fillWindows}) are left in {@link deferred} for {@link verifyHits}.
 */
class HitFiles {
  readonly dropped = new Set<string>();
  readonly deferred = new Set<string>();
  private current: { rel: string; binary: boolean; file: OpenedFileSync | undefined; unopened: boolean; chosen: Hit[] } | undefined;
  private sinceYield = 0;

  constructor(private readonly ws: Workspace) {}

  /** True (once) when {@link VERIFY_YIELD_BYTES} were read since the last time it said so: time for a turn of the event loop. */
  readEnough(): boolean {
    if (this.sinceYield < VERIFY_YIELD_BYTES) return false;
    this.sinceYield = 0;
    return true;
  }

  /** Moves to the file of `h` (when it is another) and says whether that file is binary. */
  enter(h: Hit): boolean {
    if (this.current?.rel === h.path) return this.current.binary;
    this.finish();
    if (h.nonUtf8Path) {
      // No openable name: kept as ripgrep reported it.
      this.current = { rel: h.path, binary: false, file: undefined, unopened: false, chosen: [] };
      return false;
    }
    const file = this.ws.tryOpenFileSync(h.path);
    let binary: boolean;
    if (file === undefined) binary = isBinaryFile(this.ws, h.path);
    else {
      try {
        const head = Buffer.alloc(BINARY_SNIFF_BYTES);
        const n = readSync(file.fd, head, 0, BINARY_SNIFF_BYTES, 0);
        binary = sniff(head.subarray(0, n)).binary;
      } catch {
        binary = false; // unreadable now: ripgrep read it a moment ago; keep its result
      }
    }
    this.current = { rel: h.path, binary, file, unopened: file === undefined, chosen: [] };
    return binary;
  }

  /** Notes a chosen hit of the current file. */
  choose(h: Hit): void {
    this.current?.chosen.push(h);
  }

  /** Closes the current file without verifying it (the search failed). */
  close(): void {
    if (this.current?.file !== undefined) closeSync(this.current.file.fd);
    this.current = undefined;
  }

  /** Verifies the current file's chosen hits and closes it. */
  finish(): void {
    const cur = this.current;
    if (cur === undefined) return;
    this.current = undefined;
    try {
      if (cur.chosen.length === 0) return;
      if (cur.unopened) this.dropped.add(cur.rel);
      else if (cur.chosen.some((h) => h.window !== undefined)) this.deferred.add(cur.rel);
      else if (cur.file !== undefined) {
        const v = verifyOpened(this.ws, cur.file, cur.chosen);
        this.sinceYield += v.bytesRead;
        if (!v.ok) this.dropped.add(cur.rel);
      }
    } finally {
      if (cur.file !== undefined) closeSync(cur.file.fd);
    }
  }
}

/**
 * Whether each hit's snippet is part of its line of `bytes` (UTF-8, BOM removed). Lines end at
 * `\n` (a `\r` before it dropped), as `text-file.ts` splits them; only the lines with hits are
 * decoded, each on its own: `\n` never occurs inside a UTF-8 sequence, so a line decodes to the
 * same text as its part of the whole file.
 */
function hitsStillThere(bytes: Buffer, hits: readonly Hit[]): boolean {
  const wanted = [...hits].sort((a, b) => a.line - b.line);
  // Line ends are found in a one-byte string of the same bytes (latin1: one character per byte, so
  // offsets agree): String#indexOf is a V8 builtin, while each Buffer#indexOf call crosses into
  // C++ (perf, issue 17: a few hundred calls per verified file).
  const text = bytes.toString("latin1");
  let line = 1;
  let start = 0;
  for (const h of wanted) {
    while (line < h.line) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) return false; // the file has fewer lines now
      start = nl + 1;
      line++;
    }
    const nl = text.indexOf("\n", start);
    const lineText = lossy.decode(bytes.subarray(start, nl < 0 ? bytes.length : nl));
    if (!snippetLine(lineText.endsWith("\r") ? lineText.slice(0, -1) : lineText).text.includes(h.snippet)) return false;
  }
  return true;
}

/** Validates the user glob; returns the ripgrep arguments for it. */
function validateGlob(glob: string | undefined): string[] {
  if (glob === undefined || glob.trim() === "") return [];
  const hint = "Globs match files inside the repository only, e.g. '*.py' or 'src/**/*.ts'.";
  if (glob.includes("\0")) throw new ToolError("INVALID_ARGUMENT", "glob contains a NUL byte", hint);
  if (glob.length > 500) throw new ToolError("INVALID_ARGUMENT", "glob is too long (limit 500 characters)", hint);
  if (/(^|[\\/])\.\.([\\/]|$)/.test(glob)) {
    throw new ToolError("INVALID_ARGUMENT", "glob must not contain '..'", hint);
  }
  return [`--glob=${glob}`];
}

function clampInt(n: number, lo: number, hi: number): number {
  if (!Number.isFinite(n)) return hi;
  return Math.min(hi, Math.max(lo, Math.trunc(n)));
}

/**
 * ripgrep's message (Rust `io::Error`) for a write to its standard output that the file system
 * refused: ENOSPC (28), EDQUOT (122), EFBIG (27).
 */
const SPOOL_WRITE_FAILED = /\(os error (?:28|122|27)\)/;

interface RunOutcome {
  hits: Hit[];
  stopped: boolean;
  /** Files searched, from ripgrep's summary (0 when killed). */
  searched: number;
}

/**
 * Runs ripgrep with JSON output and collects up to `cap` matching lines, killing it at the cap.
 * `regex`: the query when it is searched as a regular expression (a parse error then names it).
 */
async function runRipgrep(
  ws: Workspace,
  args: string[],
  regex: string | undefined,
  cap: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  limits: SearchOptions["eventLimits"],
  spool = true,
): Promise<RunOutcome> {
  const rg = await ripgrepPath(ws.root);
  const hits: Hit[] = [];
  let searched = 0;
  let sawSummary = false;
  const reader = new RgJsonReader((ev) => {
    if (ev.type === "match") {
      const hit = toHit(ev);
      if (hit) hits.push(hit);
      if (hits.length >= cap) return "stop";
    } else if (ev.type === "summary") {
      sawSummary = true;
      searched = ev.searches;
    }
  }, limits);
  let res;
  const runStart = timingStart();
  try {
    res = await runProcess(rg, args, {
      cwd: ws.root,
      env: ripgrepEnv(),
      timeoutMs,
      signal,
      onStdout: (chunk) => reader.push(chunk),
      spoolStdout: spool,
    });
  } catch (err) {
    if (err instanceof ToolError && err.code === "INTERNAL") throw ripgrepMissing(err);
    throw err;
  } finally {
    publishTiming("ripgrep", runStart);
  }
  if (res.timedOut) {
    throw new ToolError(
      "TIMEOUT",
      `search took longer than ${Math.round(timeoutMs / 1000)} s`,
      advice`Narrow the search with ${param("path")} or ${param("glob")}, or use a more specific query.`,
    );
  }
  // The temporary file did not take all that ripgrep wrote: the file system filled up during the
  // run (ripgrep reports each refused write and goes on), or a file-size limit (`ulimit -f`) ended
  // ripgrep with SIGXFSZ — a signal this process did not send. Run again through a pipe.
  if (res.spooled && (SPOOL_WRITE_FAILED.test(res.stderr) || (res.code === null && !res.stopped))) {
    return runRipgrep(ws, args, regex, cap, timeoutMs, signal, limits, false);
  }
  if (!res.stopped) reader.end();
  // Exit code 2 with a summary means some files could not be read (warnings); without one,
  // ripgrep refused the arguments (regex or glob) before searching.
  if (!res.stopped && res.code === 2 && hits.length === 0 && !sawSummary) {
    throw (regex === undefined ? undefined : regexSyntaxError(res.stderr, regex)) ?? ripgrepFailure(res.stderr);
  }
  return { hits, stopped: res.stopped, searched };
}

/**
 * A regex ripgrep could not parse, shown as the user wrote it: ripgrep reports the pattern
 * wrapped in its own group, `(?:retry()`, with carets under that text (ripgrep's
 * `regex parse error:` block: the wrapped pattern, a caret line, `error: <problem>`). The
 * wrapper is taken off and the carets moved with it; a caret on the wrapper itself (an
 * `unclosed group` is reported at the wrapper's `(`) points at the pattern's first unclosed `(`.
 */
export class RegexSyntaxError extends ToolError {
  constructor(
    readonly pattern: string,
    /** Spaces and `^` under `pattern` (`""`: no position known). */
    readonly carets: string,
    /** ripgrep's words: `unclosed group`. */
    readonly problem: string,
    hint: AdviceText,
  ) {
    super("INVALID_ARGUMENT", `search failed: regex parse error: ${problem}\n    ${pattern}${carets === "" ? "" : `\n    ${carets}`}`, hint);
  }
}

/** {@link RegexSyntaxError} from ripgrep's stderr for `pattern`, or `undefined` when it is not a one-line parse error of it. */
function regexSyntaxError(stderr: string, pattern: string): RegexSyntaxError | undefined {
  const lines = stderr.split("\n").map((l) => l.replace(/^rg: /, "").trimEnd());
  const at = lines.indexOf("regex parse error:");
  const wrapped = lines[at + 1]?.replace(/^ {4}/, "");
  const caretLine = lines[at + 2]?.replace(/^ {4}/, "") ?? "";
  const problem = /^error: (.+)$/.exec(lines[at + 3] ?? "")?.[1];
  if (at < 0 || wrapped !== `(?:${pattern})` || !/^[ ^]*$/.test(caretLine) || problem === undefined) return undefined;
  const WRAP = "(?:".length;
  let cols = [...caretLine].flatMap((c, i) => (c === "^" && i >= WRAP && i - WRAP < pattern.length ? [i - WRAP] : []));
  if (cols.length === 0 && (problem === "unclosed group" || problem === "unopened group")) {
    const unmatched = unmatchedParens(pattern)[problem === "unclosed group" ? "open" : "close"];
    if (unmatched !== undefined) cols = [unmatched];
  }
  const carets = cols.length === 0 ? "" : Array.from({ length: Math.max(...cols) + 1 }, (_, i) => (cols.includes(i) ? "^" : " ")).join("");
  return new RegexSyntaxError(pattern, carets, problem, ripgrepFailure(stderr).hintText ?? []);
}

/** Indexes of the first `(` of `pattern` left open and the first `)` closing nothing (escapes and `[...]` classes skipped). */
function unmatchedParens(pattern: string): { open?: number; close?: number } {
  const open: number[] = [];
  let close: number | undefined;
  let classDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (classDepth > 0) classDepth += c === "[" ? 1 : c === "]" ? -1 : 0;
    else if (c === "[") {
      classDepth = 1;
      if (pattern[i + 1] === "^") i++;
      if (pattern[i + 1] === "]") i++; // a leading `]` is a literal
    } else if (c === "(") open.push(i);
    else if (c === ")" && open.pop() === undefined) close ??= i;
  }
  return { ...(open[0] === undefined ? {} : { open: open[0] }), ...(close === undefined ? {} : { close }) };
}

/** Turns ripgrep's error output into `INVALID_ARGUMENT` with a hint for a small model. */
function ripgrepFailure(stderr: string): ToolError {
  const msg = stderr
    .split("\n")
    .map((l) => l.replace(/^rg: /, "").trimEnd())
    .filter((l) => l !== "" && !/^Consider enabling/.test(l) && !/^(and look-around|When multiline mode|new line characters)/.test(l))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  let hint: AdviceText = advice`Check the regular expression (Rust regex syntax), or ${{ kind: "set_flag", param: "regex", value: false }} for a literal search.`;
  if (/look-?around|look-ahead|look-behind/i.test(msg)) {
    hint = plain("Look-around is not supported; rewrite the regex without (?=, (?!, (?<= or (?<!, e.g. search for 'foo' and read the hits.");
  } else if (/backreference/i.test(msg)) {
    hint = plain("Backreferences are not supported; search for a simpler pattern.");
  } else if (/size limit/i.test(msg)) {
    hint = plain("The regex is too large; simplify it (smaller repetition counts).");
  } else if (/error parsing glob/i.test(msg)) {
    hint = plain("Check the glob syntax, e.g. '*.py' or 'src/**/*.ts'.");
  } else if (/literal "\\n"|not allowed in a regex/i.test(msg)) {
    hint = plain("Matches cannot span lines; search for a single line.");
  }
  if (msg === "") return new ToolError("INTERNAL", "ripgrep failed without a message", "Try again with a simpler query.");
  return new ToolError("INVALID_ARGUMENT", `search failed: ${msg.slice(0, 500)}`, hint);
}

const lossy = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes a ripgrep `{text}` or `{bytes: base64}` value; `exact` is false when bytes were not valid UTF-8. */
function decodeRg(v: RgText): { value: string; exact: boolean; raw?: Buffer } {
  if (typeof v.text === "string") return { value: v.text, exact: true };
  const raw = Buffer.from(v.bytes ?? "", "base64");
  try {
    return { value: strict.decode(raw), exact: true, raw };
  } catch {
    return { value: lossy.decode(raw), exact: false, raw };
  }
}

/**
 * Reduces a match event to a hit. A line of at most {@link LAZY_LINE_CHARS} characters is kept
 * for {@link settle}; a longer one is cut to its snippet at once (the whole line is not kept).
 */
function toHit(m: RgMatchEvent): Hit | undefined {
  if (m.line_number === null) return undefined;
  const p = decodeRg(m.path);
  let rel = toPosix(p.value);
  if (rel.startsWith("./")) rel = rel.slice(2);
  const l = decodeRg(m.lines);
  const source: LineSource = { value: l.value, complete: m.complete, firstByte: m.first_start ?? 0, absoluteOffset: m.absolute_offset };
  if (l.raw !== undefined) source.raw = l.raw;
  const hit: Hit = { path: rel, line: m.line_number, nonUtf8Path: !p.exact, source, snippet: "", flags: [] };
  return l.value.length <= LAZY_LINE_CHARS ? hit : settle(hit);
}

/** Makes a hit's snippet and flags from its {@link Hit.source} (once; a settled hit is returned as is). */
function settle(hit: Hit): Hit {
  const s = hit.source;
  if (s === undefined) return hit;
  hit.source = undefined;
  // Submatch offsets are in bytes of the raw line; convert the first to a UTF-16 offset.
  const raw = s.raw ?? Buffer.from(s.value, "utf8");
  // The kept prefix serves only when the whole window (≤ DEFAULT_LINE_CHARS characters of at most
  // 4 bytes after the match) lies inside it; otherwise the window is read from the file, so the
  // snippet is the same as for a line that was read whole.
  const beyond = !s.complete && s.firstByte + 4 * DEFAULT_LINE_CHARS + 4 > raw.length;
  const at = beyond ? 0 : lossy.decode(raw.subarray(0, s.firstByte)).length;
  const text = s.complete ? stripLineEnding(s.value) : s.value;
  const made = snippetHit(hit.path, hit.line, text, at, !s.complete);
  hit.snippet = made.snippet;
  hit.flags = made.flags;
  if (hit.nonUtf8Path) hit.flags.push("non_utf8_path");
  if (beyond && s.absoluteOffset !== null) hit.window = { lineOffset: s.absoluteOffset, matchOffset: s.firstByte };
  return hit;
}

/** Builds a hit from (part of) a line: cut around `at`, `\r` shown as `\n`, flags set. */
function snippetHit(path: string, line: number, text: string, at: number, partial: boolean): Hit {
  const flags: EvidenceFlag[] = [];
  const cut = cutText(text, DEFAULT_LINE_CHARS, at);
  // A lone "\r" is one character either way, so cutting first keeps the window and the flags
  // describe exactly what is shown.
  const { text: shown, bareCr } = snippetLine(cut.text);
  if (cut.cut || partial) flags.push("truncated");
  if (bareCr) flags.push(BARE_CR_FLAG);
  if (hasInvisibleUnicode(shown)) flags.push("invisible_unicode");
  return { path, line, nonUtf8Path: false, snippet: shown, flags };
}

/**
 * For hits whose first match lies beyond the part of a very long line that was read, reads the
 * window around the match from the file (opened through the Workspace: race-safe, deny-checked).
 * UTF-16 files (transcoded offsets) keep the start of the line. Failures keep the snippet as is.
 */
async function fillWindows(ws: Workspace, hits: Hit[]): Promise<void> {
  for (let i = 0; i < hits.length; i++) {
    const h = hits[i] as Hit;
    if (h.window === undefined) continue;
    let f;
    try {
      f = await ws.openFile(h.path);
    } catch {
      continue;
    }
    try {
      const head = Buffer.alloc(4);
      const { bytesRead } = await f.handle.read(head, 0, 4, 0);
      const enc = sniff(head.subarray(0, bytesRead));
      if (enc.encoding !== "utf-8") continue;
      const lineStart = enc.bomBytes + h.window.lineOffset;
      const match = lineStart + h.window.matchOffset;
      const from = Math.max(lineStart, match - 4 * DEFAULT_LINE_CHARS);
      const buf = Buffer.alloc(match - from + 4 * DEFAULT_LINE_CHARS);
      const { bytesRead: n } = await f.handle.read(buf, 0, buf.length, from);
      let bytes = buf.subarray(0, n);
      let skip = 0;
      while (from > lineStart && skip < 3 && skip < bytes.length && ((bytes[skip] as number) & 0xc0) === 0x80) skip++;
      bytes = bytes.subarray(skip);
      const nl = bytes.indexOf(0x0a, match - from - skip);
      // The window holds the whole line when it starts at the line and reaches its end (or EOF).
      const whole = from === lineStart && (nl >= 0 || n < buf.length);
      if (nl >= 0) bytes = bytes.subarray(0, nl);
      const text = whole || nl >= 0 ? stripLineEnding(lossy.decode(bytes)) : lossy.decode(bytes);
      const at = lossy.decode(bytes.subarray(0, Math.max(0, match - from - skip))).length;
      const filled = snippetHit(h.path, h.line, text, at, !whole);
      filled.flags.push(...h.flags.filter((fl) => fl === "non_utf8_path"));
      filled.nonUtf8Path = h.nonUtf8Path;
      hits[i] = filled;
    } catch {
      // keep the prefix snippet
    } finally {
      await f.handle.close().catch(() => undefined);
    }
  }
}

function toEvidence(h: Hit, query: string): Evidence {
  const rec: Evidence = {
    path: h.path,
    start_line: h.line,
    end_line: h.line,
    kind: "match",
    name: query,
    snippet: h.snippet,
  };
  if (h.flags.length > 0) rec.flags = [...h.flags];
  return rec;
}

/**
 * Refuses a search whose target `rel` (a real repository-relative path from `walkTarget`) is a
 * file over {@link SEARCH_MAX_FILE_BYTES}: ripgrep applies `--max-filesize` only to the files it
 * finds by walking, and reads a file named as its path to the end (a sparse 100 GB file held it
 * until the time limit).
 * @throws ToolError `UNSUPPORTED` naming the file and its size.
 */
function refuseOversizedFile(ws: Workspace, rel: string): void {
  let size: number;
  try {
    const st = statSync(path.join(ws.root, ...rel.split("/")));
    if (!st.isFile()) return;
    size = st.size;
  } catch {
    return; // gone: ripgrep reports nothing
  }
  if (size <= SEARCH_MAX_FILE_BYTES) return;
  throw new ToolError(
    "UNSUPPORTED",
    `${rel} is over ${SEARCH_MAX_FILE_BYTES / (1024 * 1024)} MiB (${size} bytes) and is not searched`,
    advice`Use ${{ kind: "read_range" }} to read a part of it, or search its folder for other files.`,
  );
}

/**
 * Whether a file is binary by the 8 KiB NUL rule (ripgrep's own check looks further). Synchronous:
 * one open, read and close, cheaper than their promises for the few files checked per search.
 */
function isBinaryFile(ws: Workspace, rel: string): boolean {
  let fd: number | undefined;
  try {
    // O_NOFOLLOW: only the first bytes are looked at, and never through a symlink.
    fd = openSync(path.join(ws.root, rel), fsc.O_RDONLY | (fsc.O_NOFOLLOW ?? 0) | (fsc.O_NONBLOCK ?? 0));
    const head = Buffer.alloc(BINARY_SNIFF_BYTES);
    const bytesRead = readSync(fd, head, 0, BINARY_SNIFF_BYTES, 0);
    return sniff(head.subarray(0, bytesRead)).binary;
  } catch {
    return false; // unreadable now: ripgrep read it a moment ago; keep its result
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
