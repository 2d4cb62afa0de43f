/**
 * A cheap text prefilter for the code-intelligence tools: which files mention any of some
 * needles, found with one ripgrep run (`--files-with-matches`, the hardened arguments of
 * `ripgrep.ts`, so the walk equals {@link Workspace.listFiles}). A file that never mentions a
 * symbol's name cannot define it, and one that never names a module cannot import it (each
 * language states the needles for its import forms, `LanguageSpec.importerHints`), so only the
 * files found need parsing.
 */
import { baseRipgrepArgs, ripgrepEnv, ripgrepPath, ripgrepPathArg } from "../sandbox/ripgrep.js";
import { allowedDistance } from "../close-names.js";
import { escapeRustRegex } from "./rust-regex.js";
import { runProcess } from "../sandbox/spawn.js";
import type { Workspace } from "../sandbox/workspace.js";

/** What to look for. */
export interface Needles {
  /** Plain strings. */
  literals: readonly string[];
  /** Regexes in Rust `regex` syntax (ripgrep's). */
  patterns?: readonly string[];
  caseInsensitive?: boolean;
}

const PREFILTER_TIMEOUT_MS = 30_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** Repository-relative paths, as a list or a set. */
type FileList = readonly string[] | ReadonlySet<string>;

/**
 * The subset of `files` (repository-relative) whose text matches any needle, or `undefined` when
 * the prefilter cannot run (ripgrep missing or failing, timeout): callers then parse every file.
 * With no needles at all the result is the empty set.
 * @param files the files of interest, or a promise of them: ripgrep then starts at once and runs
 *   (in its own process) while the caller still computes the list; the list is awaited only to
 *   filter ripgrep's answer, and a rejection of it is this call's rejection.
 * @param opts.under limit the ripgrep walk to this repository-relative folder or file (already validated).
 * @param opts.unlisted receives the matching paths that are not in `files` (a list that may be stale).
 * @param opts.endings read only files whose name ends so, any case (`.py`; ripgrep `--iglob`);
 *   the deny-list and the folders never walked still apply.
 * @throws the abort reason when `signal` aborts.
 */
export async function filesMentioning(
  ws: Workspace,
  files: FileList | Promise<FileList>,
  needles: Needles,
  opts: { under?: string; signal?: AbortSignal; unlisted?: string[]; endings?: readonly string[] } = {},
): Promise<Set<string> | undefined> {
  const set = (list: FileList): ReadonlySet<string> => (list instanceof Set ? list : new Set(list));
  let wanted: ReadonlySet<string> | Promise<ReadonlySet<string>>;
  if (files instanceof Promise) {
    wanted = files.then(set);
    wanted.catch(() => undefined); // awaited below, unless ripgrep fails first: never an unhandled rejection
  } else wanted = set(files);
  const alternatives = [...new Set(needles.literals.filter((l) => l !== "").map(escapeRustRegex)), ...(needles.patterns ?? [])];
  if (alternatives.length === 0) {
    await wanted;
    return new Set();
  }
  if (!(wanted instanceof Promise) && wanted.size === 0) return new Set();
  const rg = await usableRipgrep(ws);
  if (rg === undefined) {
    await wanted;
    return undefined;
  }
  // Include globs first: a later glob wins in ripgrep, so the exclusions of the base arguments still apply.
  const endings = (opts.endings ?? []).map((e) => `--iglob=*${e.replace(/[\\*?[\]{}!]/g, "\\$&")}`);
  const args = ["--files-with-matches", "--null", "--no-messages", ...endings, ...baseRipgrepArgs()];
  if (needles.caseInsensitive) args.push("--ignore-case");
  else args.push("--case-sensitive");
  args.push(`--regexp=${alternatives.join("|")}`);
  if (opts.under !== undefined && opts.under !== "") args.push("--", ripgrepPathArg(opts.under));
  const stdout = await runPrefilter(ws, rg, args, MAX_OUTPUT_BYTES, opts.signal);
  const listed = await wanted;
  if (listed.size === 0) return new Set();
  if (stdout === undefined) return undefined;
  const out = new Set<string>();
  for (const raw of stdout.split("\0")) {
    if (raw === "") continue;
    const rel = raw.startsWith("./") ? raw.slice(2) : raw;
    if (listed.has(rel)) out.add(rel);
    else opts.unlisted?.push(rel);
  }
  return out;
}

/**
 * Regex (Rust syntax) for names written after a definition keyword in the languages codecite
 * parses: `def`/`class` (Python), `function`/`class`/`interface`/`type`/`enum`/`const`/`let`/`var`
 * (TS/JS), `func` with an optional receiver/`type`/`struct` (Go), `fn`/`struct`/`enum`/`trait`/
 * `type`/`mod`/`static`/`const`/`macro_rules!` (Rust), `class`/`interface`/`enum`/`record` and
 * methods after an access modifier (Java). Group 1 or 2 is the name, matched by `name` (a regex
 * for one identifier). It over-approximates (a comment may match); callers confirm names by parsing.
 */
function definitionNamePattern(name = String.raw`[A-Za-z_$][\w$]*`): string {
  return (
    String.raw`\b(?:def|class|function|func|fn|struct|enum|trait|interface|type|const|let|var|static|mod|record|macro_rules!)\s+(?:\([^)]*\)\s*)?(${name})` +
    String.raw`|\b(?:public|private|protected)\s+(?:(?:static|final|abstract|synchronized|native|default)\s+)*[\w<>\[\],.?]+(?:\s*<[^>]*>)?\s+(${name})\s*\(`
  );
}

/**
 * A regex (Rust syntax) for one identifier that can be close to `query` in the sense of
 * `close-names.ts`, to keep the names listed by {@link definitionNamesIn} few: a name within edit
 * distance `d` of the query shares at least one of `d + 1` disjoint pieces of it (pigeonhole), so
 * when those pieces have 3 characters or more the name must contain one (any case); otherwise the
 * name's length must lie within `d` of the query's. Names containing the query (any case) always
 * pass.
 */
function closeNamePattern(query: string): string {
  const q = query.toLowerCase();
  const d = allowedDistance(query);
  const containing = String.raw`[\w$]*(?i:${escapeRustRegex(q)})[\w$]*`;
  const size = Math.floor(q.length / (d + 1));
  if (size >= 3) {
    const pieces = Array.from({ length: d + 1 }, (_, i) => q.slice(i * size, i === d ? q.length : (i + 1) * size));
    return String.raw`[\w$]*(?i:${[...new Set(pieces)].map(escapeRustRegex).join("|")})[\w$]*`;
  }
  const lo = Math.max(1, q.length - d);
  const hi = q.length + d;
  return String.raw`${containing}|[A-Za-z_$][\w$]{${lo - 1},${hi - 1}}\b`;
}

/** At most this many bytes of names are read from {@link definitionNamesIn}'s ripgrep run. */
const MAX_NAME_BYTES = 32 * 1024 * 1024;

/**
 * The distinct names written after definition keywords ({@link definitionNamePattern}) in the
 * walkable files (one ripgrep run, hardened arguments, names only), for "did you mean" notes;
 * with `near`, only names that can be close to it ({@link closeNamePattern}).
 * `undefined` when ripgrep cannot run or gives up (timeout, output over 32 MiB).
 * @param opts.under limit the walk to this repository-relative folder or file (already validated).
 * @throws the abort reason when `signal` aborts.
 */
export async function definitionNamesIn(
  ws: Workspace,
  opts: { under?: string; signal?: AbortSignal; near?: string } = {},
): Promise<Set<string> | undefined> {
  const rg = await usableRipgrep(ws);
  if (rg === undefined) return undefined;
  const args = [
    "--only-matching",
    "--no-filename",
    "--no-line-number",
    "--no-heading",
    "--no-messages",
    "--case-sensitive",
    ...baseRipgrepArgs(),
    `--regexp=${definitionNamePattern(opts.near === undefined ? undefined : closeNamePattern(opts.near))}`,
    "--replace=$1$2",
  ];
  if (opts.under !== undefined && opts.under !== "") args.push("--", ripgrepPathArg(opts.under));
  const stdout = await runPrefilter(ws, rg, args, MAX_NAME_BYTES, opts.signal);
  if (stdout === undefined) return undefined;
  const names = new Set<string>();
  for (const line of stdout.split("\n")) if (line !== "") names.add(line.trimEnd());
  return names;
}

/**
 * Runs one prefilter ripgrep with the workspace's hardened environment and returns its stdout
 * (UTF-8), or `undefined` when the answer cannot be trusted (timeout, output over `maxBytes`,
 * rg exit code 2 — an error, possibly with partial results); the caller then parses everything.
 * rg exit codes: 0 = matches, 1 = no match, 2 = error.
 * @throws the abort reason when `signal` aborted the run.
 */
async function runPrefilter(
  ws: Workspace,
  rg: string,
  args: string[],
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  let res;
  try {
    res = await runProcess(rg, args, {
      cwd: ws.root,
      env: ripgrepEnv(),
      timeoutMs: PREFILTER_TIMEOUT_MS,
      maxStdoutBytes: maxBytes,
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    return undefined;
  }
  if (res.timedOut || res.overflow || (res.code !== 0 && res.code !== 1)) return undefined;
  return res.stdout.toString("utf8");
}

/** The ripgrep binary for `ws`, or `undefined` when the ignore files cannot be read or ripgrep is missing (the callers then scan without a prefilter). */
async function usableRipgrep(ws: Workspace): Promise<string | undefined> {
  try {
    await ws.checkIgnoreFiles();
    return await ripgrepPath(ws.root);
  } catch {
    return undefined;
  }
}
