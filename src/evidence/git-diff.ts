/**
 * `read_git_diff`: git changes as one `diff` record per hunk (git invocation
 * hardened per git-config(1) `core.fsmonitor`, git-diff(1) `--no-ext-diff`/`--no-textconv`, gitcli(7)
 * `--end-of-options`).
 *
 * Safety rules (each has a test in `test/evidence/bad-input.test.ts` or `bad-input-attacks.test.ts`):
 * - `git` is spawned by absolute path ({@link findExecutable}: absolute `PATH` entries only,
 *   skipping folders inside the workspace), so a repository cannot ship its own `git`; with an
 *   argv array, never a shell. The environment drops every `GIT_*`
 *   variable of the parent and sets `GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL=/dev/null`,
 *   `GIT_TERMINAL_PROMPT=0`, `GIT_OPTIONAL_LOCKS=0`, `GIT_LITERAL_PATHSPECS=1`,
 *   `GIT_NO_LAZY_FETCH=1`, `LC_ALL=C`, and `GIT_CEILING_DIRECTORIES` = the root's parent for the
 *   first discovery.
 * - Repository configuration cannot run programs: `-c core.fsmonitor=false`,
 *   `-c core.hooksPath=/dev/null`, `-c diff.external=`, `-c protocol.allow=never` (no lazy fetch of
 *   missing objects), `--no-ext-diff --no-textconv`, every configured `filter.<driver>` gets empty
 *   `clean`/`smudge`/`process` commands (a clean filter would otherwise run on a plain
 *   `git diff`), and submodule work trees are not inspected (`--ignore-submodules=dirty`).
 * - Refs must match {@link REF_PATTERN}, must not start with `-`, contain `..`, `@{` or `:`, and are
 *   turned into object ids with `git rev-parse --verify --quiet --end-of-options <ref>^{commit}`;
 *   only those hex ids reach `git diff`. `--no-index` can never be formed.
 * - `path` is validated by the Workspace (lexically and against the deny-list; it need not exist,
 *   a deleted file has a diff), may not start with `:` (pathspec magic), and is passed after `--`.
 * - Repository discovery: the root itself is tried first (ceiling at its parent). When the root
 *   lies inside a bigger repository, that repository is used only if it tracks files under the
 *   root; the diff then runs with `--relative`, so only paths under the root appear, relative to
 *   the root. A root that is untracked in (or unrelated to) an enclosing repository gives
 *   `UNSUPPORTED` "not a git repository", never the parent's diff.
 * - The repository must belong to the root ({@link checkRepoOwnership}): its work tree must be
 *   the root or contain it (a `core.worktree` elsewhere would diff files outside the root), and
 *   its git directory and common directory must lie inside the work tree, unless git's own
 *   bookkeeping links them back to this work tree (a linked worktree's `gitdir` file, or a
 *   submodule's `core.worktree`). A `.git` file, `.git` symlink or `commondir` file pointing at
 *   some other repository on the machine is refused with `UNSUPPORTED`.
 * - Denied files (deny-list) are never shown; the note only counts them. A rename counts as
 *   denied when either its old or its new path is denied (a hunk of `.env` → `env.example` shows
 *   the old secret values as removed lines).
 * - Files whose content on either side of the diff holds a private-key block
 *   (`sandbox/secret-content.ts`, the rule `read_evidence` applies) are not shown either, whatever
 *   their names, and neither is a working-tree file the workspace refuses to open (more than one
 *   hard link): a hunk shows the removed lines of a key deleted long ago, or a key's middle lines
 *   without its armour. Each side is the whole file, not the hunk: the committed blobs are
 *   pre-filtered with `git grep` for the armour words and confirmed with `git cat-file blob`; the
 *   working-tree file is opened through the workspace ({@link withheldFiles}). The hunks as git
 *   printed them are checked as well (git may print converted text: {@link hunksShowingKeys}).
 *
 * Records: `path` = the new path (the old path for a deleted file), `name` = the same path,
 * `start_line..end_line` = the hunk's new-file range; for a hunk that only deletes lines the
 * old-file range is used and the record is flagged `old_lines`. `snippet` = the hunk exactly as git
 * prints it, including its `@@ … @@` header and the ` `/`+`/`-` prefixes, with a `\r` at line end
 * dropped; a hunk longer than {@link MAX_HUNK_LINES} lines or {@link MAX_HUNK_CHARS} characters
 * is cut and flagged `truncated`. Results are capped at {@link RESULT_TEXT_CHARS} characters (snippets,
 * paths and names together) and {@link MAX_HUNKS} records; the note lists up to 20 changed files
 * with their +/− counts, each path shown with at most {@link MAX_NOTE_PATH_CHARS} characters.
 */
import { CUT_MARK, advice, joinAdvice, param, plain, tool, type AdviceText } from "./advice.js";
import { promises as fsp } from "node:fs";
import path from "node:path";
import { checkBeforeGit, checkObjectStores, checkWorkTreeGitFiles, readGitFile, refuseStore } from "./git-store.js";
import { TextDecoder } from "node:util";
import type { ReadGitDiffArgs } from "./args.js";
import { type Evidence, type EvidenceFlag, type EvidenceResult, ToolError, compareEvidence, hideHostPaths } from "./evidence.js";
import { RESULT_TEXT_CHARS, type OutputScope } from "./budget.js";
import { closeNames } from "./close-names.js";
import { isDeniedPath } from "./sandbox/deny-list.js";
import { isInside } from "../paths.js";
import { isCleanRelative } from "./sandbox/path-policy.js";
import { findExecutable, runProcess, scrubbedEnv } from "./sandbox/spawn.js";
import { bytesHavePrivateKeyBlock, hasPrivateKeyBlock, KEY_WORDS, MAX_SECRET_SCAN_BYTES } from "./sandbox/secret-content.js";
import { hasInvisibleUnicode } from "./sandbox/text-file.js";
import type { Workspace } from "./sandbox/workspace.js";

/** Accepted ref syntax: a branch, tag, `HEAD`, a commit id, with `~N`/`^N` suffixes. */
export const REF_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._/~^-]{0,199}$/;
/** Most hunk records returned. */
export const MAX_HUNKS = 60;
/** Longest hunk snippet, in lines (header included). */
export const MAX_HUNK_LINES = 120;
/** Longest hunk snippet, in characters. */
export const MAX_HUNK_CHARS = 6000;
/** Most bytes of `git diff` output read; git is killed beyond it. */
export const MAX_PATCH_BYTES = 4 * 1024 * 1024;
/** Time limit for one git run, in ms. */
export const GIT_TIMEOUT_MS = 30_000;
/** Flag of a record whose lines are the old file's (a hunk that only deletes lines). */
export const OLD_LINES_FLAG = "old_lines";
/** Longest path shown in the note's file list (longer ones are cut in the middle). */
export const MAX_NOTE_PATH_CHARS = 160;
/** Bytes of `git diff --numstat` output read. */
const MAX_NUMSTAT_BYTES = 1024 * 1024;

/** Settings that stop repository configuration from running programs. */
const HARDENING = [
  "-c", "core.fsmonitor=false",
  "-c", "core.hooksPath=/dev/null",
  "-c", "diff.external=",
  "-c", "protocol.allow=never",
  "-c", "core.quotepath=off",
  "-c", "diff.noprefix=false",
  "-c", "diff.mnemonicPrefix=false",
  "-c", "diff.submodule=short",
  "-c", "color.ui=false",
  "-c", "diff.suppressBlankEmpty=false",
];

interface Repo {
  /** Work-tree top level (real path). */
  top: string;
  /** The root is below `top` (so `--relative` matters). */
  nested: boolean;
  /** Extra `-c` arguments neutralising filter drivers. */
  filterArgs: string[];
}

/**
 * Reads the changes between two commits, or between a commit and the working tree.
 * Default (no `base`, no `head`): the working tree against `HEAD`. `base` alone: the working tree
 * against `base`. `head` alone: `HEAD` against `head` (git-diff(1)).
 * @param args `base`, `head` (refs), `path` (file or folder), `context_lines` (0–20, default 3).
 * @throws ToolError `INVALID_ARGUMENT` (bad ref syntax, NUL, pathspec magic, bad path),
 *   `OUTSIDE_ROOT`, `DENIED`, `NOT_FOUND` (unknown ref, no commits yet), `UNSUPPORTED` (not a git
 *   repository, git missing), `TIMEOUT`.
 */
export async function readGitDiff(ws: Workspace, args: ReadGitDiffArgs, signal?: AbortSignal, scope?: OutputScope): Promise<EvidenceResult> {
  const all = scope?.all === true;
  const base = optionalRef(args.base, "base");
  const head = optionalRef(args.head, "head");
  const context = args.context_lines ?? 3;
  if (!Number.isInteger(context) || context < 0 || context > 20) {
    throw new ToolError("INVALID_ARGUMENT", advice`${param("context_lines")} must be a whole number from 0 to 20`, advice`Pass ${param("context_lines", 3)}, or leave it out.`);
  }
  const pathspec = validatePathspec(ws, args.path);

  const repo = await findRepo(ws, signal);
  const baseSha = await revParse(ws, repo, base ?? "HEAD", signal);
  const headSha = head === undefined ? undefined : await revParse(ws, repo, head, signal);

  const revs = headSha === undefined ? [baseSha] : [baseSha, headSha];
  const tail = ["--end-of-options", ...revs, "--", ...(pathspec === undefined ? [] : [pathspec])];
  const diffOpts = [
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--relative",
    "--ignore-submodules=dirty",
    "--submodule=short",
    "--find-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "-O/dev/null",
  ];

  const stat = await git(ws, repo, ["diff", ...diffOpts, "--numstat", "-z", ...tail], signal, MAX_NUMSTAT_BYTES);
  const files = parseNumstat(stat.stdout);
  const patch = await git(ws, repo, ["diff", ...diffOpts, `--unified=${context}`, ...tail], signal, MAX_PATCH_BYTES);
  const hunks = parsePatch(patch.stdout.toString("utf8"));
  const cutOutput = patch.overflow;

  // A path that is not clean (`../x`, forged in the repository's index or trees) was read from
  // outside the work tree by git: it is never shown.
  const unsafe = (f: { path: string; oldPath?: string }) =>
    !isCleanRelative(f.path) || (f.oldPath !== undefined && !isCleanRelative(f.oldPath));
  // A change is denied when any path it touches is (rename from or to a secret).
  const fileDenied = (f: { path: string; oldPath?: string }) =>
    isDeniedPath(f.path) || (f.oldPath !== undefined && isDeniedPath(f.oldPath));
  const unsafeFiles = new Set([...files.filter(unsafe).map((f) => f.path), ...hunks.filter(unsafe).map((h) => h.path)]);
  const visibleHunks = hunks.filter((h) => !unsafe(h) && !fileDenied(h));
  const deniedFiles = new Set(files.filter((f) => !unsafe(f) && fileDenied(f)).map((f) => f.path));
  for (const h of hunks) if (!unsafe(h) && fileDenied(h)) deniedFiles.add(h.path);
  const withheld = await withheldFiles(ws, repo, visibleHunks, baseSha, headSha, signal);
  const visible = visibleHunks.filter((h) => !withheld.has(h.path));
  const shownFiles = files.filter((f) => !unsafe(f) && !fileDenied(f) && !withheld.has(f.path));

  const evidence: Evidence[] = [];
  let chars = 0;
  let cutHunk = false;
  const lastHunk = hunks[hunks.length - 1];
  for (const h of visible) {
    if (!all && evidence.length >= MAX_HUNKS) break;
    const rec = toEvidence(h, cutOutput && h === lastHunk, all ? scope?.maxSnippetLines ?? Infinity : undefined);
    // Budget: the snippet, the path and the name (the path again) all reach the model.
    const cost = rec.snippet.length + rec.path.length + rec.name.length;
    if (!all && evidence.length > 0 && chars + cost > RESULT_TEXT_CHARS) break;
    chars += cost;
    if (rec.flags?.includes("truncated")) cutHunk = true;
    evidence.push(rec);
  }
  evidence.sort(compareEvidence);

  const total = visible.length;
  const truncated = cutOutput || evidence.length < total || cutHunk;
  const what = describeRange(base, head);
  const notes: AdviceText[] = [];
  if (shownFiles.length === 0 && visible.length === 0) {
    // A path that is not in the working tree and shows no change (a deleted file would): a typo,
    // answered as a read would be (NOT_FOUND, with close names).
    if (pathspec !== undefined && head === undefined && deniedFiles.size + unsafeFiles.size + withheld.size === 0) await ws.resolve(pathspec);
    const none = deniedFiles.size + unsafeFiles.size + withheld.size > 0 ? "No changes to show" : "No changes";
    notes.push(plain(`${none} (${what}${pathspec ? ` under ${pathspec}` : ""}).`));
    if (head === undefined) notes.push(plain("Untracked files are not shown."));
    if (head !== undefined && base === undefined) {
      notes.push(advice`${param("base")} defaults to HEAD; to see what one commit changed, pass ${param("base", "<commit>~1")} and ${param("head", "<commit>")}.`);
    }
  } else {
    notes.push(plain(`${what}: ${summarizeFiles(shownFiles, stat.overflow)}.`));
    if (evidence.length < total) {
      notes.push(advice`Showing ${evidence.length} of ${total}${cutOutput ? "+" : ""} hunks; pass ${param("path")} to see one file's hunks.`);
    } else if (cutOutput) {
      notes.push(advice`The diff is larger than the output cap; pass ${param("path")} to see one file's hunks.`);
    }
    // The cap the hunks were cut to: `--max-lines` under an `all` scope (else only the last hunk of a cut output is cut).
    const hunkCap = all ? (scope?.maxSnippetLines ?? Infinity) : MAX_HUNK_LINES;
    if (cutHunk) notes.push(Number.isFinite(hunkCap) ? advice`Long hunks were cut to ${hunkCap} lines ${CUT_MARK}.` : advice`The last hunk was cut ${CUT_MARK}.`);
  }
  if (deniedFiles.size > 0) notes.push(plain(`${deniedFiles.size} changed file(s) on the secrets deny-list are not shown.`));
  const withheldFor = (why: WithheldReason) => [...withheld.values()].filter((w) => w === why).length;
  if (withheldFor("private_key") > 0) notes.push(plain(`${withheldFor("private_key")} changed file(s) holding a private key are not shown.`));
  if (withheldFor("hard_link") > 0) notes.push(plain(`${withheldFor("hard_link")} changed file(s) with more than one hard link are not shown.`));
  if (unsafeFiles.size > 0) {
    notes.push(plain(`${unsafeFiles.size} change(s) with invalid paths (outside the work tree; a damaged or forged git index) are not shown.`));
  }
  return { evidence, total, truncated, note: joinAdvice(...notes) };
}

/** Why a changed file's hunks are withheld: a side holds a private key, or its working-tree file has several hard links. */
type WithheldReason = "private_key" | "hard_link";

/** Pathspecs per `git grep` run (keeps the argument list short). */
const GREP_PATHS_PER_RUN = 500;

/**
 * The changed files whose hunks must not be shown, by new path (see the module rules): either
 * side holds a private-key block, or the working-tree side is refused by the workspace (hard
 * links, a key found when opening). Old side: `baseSha`; new side: `headSha`, else the working tree.
 */
async function withheldFiles(
  ws: Workspace,
  repo: Repo,
  hunks: readonly Hunk[],
  baseSha: string,
  headSha: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Map<string, WithheldReason>> {
  const withheld = new Map<string, WithheldReason>();
  const byFile = new Map<string, string>();
  for (const h of hunks) byFile.set(h.path, h.oldPath ?? h.path);
  if (byFile.size === 0) return withheld;
  const shown = hunksShowingKeys(hunks);
  const oldSide = await blobsHoldingKeys(ws, repo, baseSha, [...new Set(byFile.values())], signal);
  const newSide = headSha === undefined ? new Set<string>() : await blobsHoldingKeys(ws, repo, headSha, [...byFile.keys()], signal);
  for (const [file, old] of byFile) {
    if (shown.has(file) || oldSide.has(old) || newSide.has(file)) withheld.set(file, "private_key");
    else if (headSha === undefined) {
      const why = await workingTreeRefusal(ws, file);
      if (why !== undefined) withheld.set(file, why);
    }
  }
  return withheld;
}

/**
 * The files whose hunks, as git printed them, show a private-key block on the old side (context
 * and removed lines) or the new side (context and added lines). The text git prints is not always
 * a file's bytes: a `working-tree-encoding` attribute makes git convert the working-tree file
 * (UTF-16 without a byte-order mark) to UTF-8, and a `diff` attribute makes it print a UTF-16 file
 * byte by byte. NUL characters are dropped, so UTF-16 printed byte by byte reads as its text.
 */
function hunksShowingKeys(hunks: readonly Hunk[]): Set<string> {
  const sides = new Map<string, { old: string[]; new: string[] }>();
  for (const h of hunks) {
    let side = sides.get(h.path);
    if (side === undefined) sides.set(h.path, (side = { old: [], new: [] }));
    for (const line of h.lines.slice(1)) {
      const body = line.slice(1).replaceAll("\0", "");
      if (line.startsWith(" ") || line.startsWith("-")) side.old.push(body);
      if (line.startsWith(" ") || line.startsWith("+")) side.new.push(body);
    }
  }
  const found = new Set<string>();
  for (const [file, side] of sides) if (hasPrivateKeyBlock(side.old.join("\n")) || hasPrivateKeyBlock(side.new.join("\n"))) found.add(file);
  return found;
}

/** Of `paths` (relative to the root), those whose blob at commit `sha` holds a private-key block. */
async function blobsHoldingKeys(ws: Workspace, repo: Repo, sha: string, paths: readonly string[], signal: AbortSignal | undefined): Promise<Set<string>> {
  const found = new Set<string>();
  const env = gitEnv(repo.nested ? undefined : path.dirname(ws.root));
  for (let i = 0; i < paths.length; i += GREP_PATHS_PER_RUN) {
    const chunk = paths.slice(i, i + GREP_PATHS_PER_RUN);
    const args = [...repo.filterArgs, "grep", "-l", "-z", "--no-color", "--fixed-strings", ...KEY_WORDS.flatMap((w) => ["-e", w]), sha, "--", ...chunk];
    // `sha` is a hex object id from rev-parse (git grep takes no --end-of-options before its revisions).
    const res = await rawGit(ws.root, args, env, signal, MAX_NUMSTAT_BYTES);
    // Exit 1: no match. Anything else but 0 cannot be checked, so every file of the run is withheld.
    if (res.code !== 0 && res.code !== 1) {
      for (const p of chunk) found.add(p);
      continue;
    }
    const prefix = `${sha}:`;
    for (const name of res.stdout.toString("utf8").split("\0")) {
      if (!name.startsWith(prefix)) continue;
      const rel = name.slice(prefix.length);
      // `<sha>:./<path>`: the path relative to the root, as git grep printed it.
      const blob = await rawGit(ws.root, [...repo.filterArgs, "cat-file", "blob", `${sha}:./${rel}`], env, signal, MAX_SECRET_SCAN_BYTES);
      if (blob.code !== 0 || bytesHavePrivateKeyBlock(blob.stdout)) found.add(rel);
    }
  }
  return found;
}

/** Why the workspace refuses to open the working-tree file `rel`, if it does (a missing file is no refusal). */
async function workingTreeRefusal(ws: Workspace, rel: string): Promise<WithheldReason | undefined> {
  try {
    const f = await ws.openFile(rel);
    await f.handle.close().catch(() => undefined);
    return undefined;
  } catch (err) {
    if (!(err instanceof ToolError) || err.code !== "DENIED") return undefined;
    return /hard link/.test(err.message) ? "hard_link" : "private_key";
  }
}

function optionalRef(v: string | undefined, name: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw new ToolError("INVALID_ARGUMENT", `${name} must be a string`, "Pass a branch, tag or commit id as a string.");
  if (v.trim() === "") return undefined;
  validateRef(v, name);
  return v;
}

/**
 * Checks a ref against the syntax allowlist.
 * @throws ToolError `INVALID_ARGUMENT` naming the rule that failed.
 */
export function validateRef(ref: string, name = "ref"): void {
  const bad = (why: string | AdviceText) =>
    new ToolError(
      "INVALID_ARGUMENT",
      advice`${name} ${JSON.stringify(ref.slice(0, 80))} is not an accepted git ref: ${why}`,
      "Use a branch or tag name, a commit id, HEAD or HEAD~N.",
    );
  if (ref.includes("\0")) throw bad("it contains a NUL byte");
  if (ref.startsWith("-")) throw bad("it starts with '-'");
  if (ref.length > 200) throw bad("it is longer than 200 characters");
  if (ref.includes("..")) throw bad(advice`ranges ('..') are not accepted; pass ${param("base")} and ${param("head")} separately`);
  if (ref.includes("@{")) throw bad("reflog syntax ('@{') is not accepted");
  if (ref.includes(":")) throw bad("'ref:path' syntax is not accepted");
  if (!REF_PATTERN.test(ref)) throw bad("only letters, digits and . _ / ~ ^ - are allowed");
}

function validatePathspec(ws: Workspace, p: string | undefined): string | undefined {
  if (p === undefined || p.trim() === "") return undefined;
  if (p.startsWith(":")) {
    throw new ToolError(
      "INVALID_ARGUMENT",
      "pathspec magic (a path starting with ':') is not accepted",
      "Pass a plain repository-relative file or folder path.",
    );
  }
  const rel = ws.normalize(p);
  return rel === "" ? undefined : rel;
}

function describeRange(base: string | undefined, head: string | undefined): string {
  if (head === undefined) return `working tree against ${base ?? "HEAD"}`;
  return `${base ?? "HEAD"} against ${head}`;
}

function gitEnv(ceiling: string | undefined): NodeJS.ProcessEnv {
  const extra: Record<string, string> = {
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_LITERAL_PATHSPECS: "1",
    GIT_NO_LAZY_FETCH: "1",
    GIT_PAGER: "cat",
    LC_ALL: "C",
    ...Object.fromEntries(NEUTRAL_FILTER.map(([, value, variable]) => [variable, value])),
  };
  if (ceiling !== undefined) extra.GIT_CEILING_DIRECTORIES = ceiling;
  return scrubbedEnv(extra);
}

interface GitOut {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  overflow: boolean;
}

async function rawGit(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
  maxBytes: number,
): Promise<GitOut> {
  const gitPath = await findExecutable("git", { notUnder: cwd });
  if (gitPath === undefined) {
    throw new ToolError(
      "UNSUPPORTED",
      "git was not found on PATH (programs inside the repository are never run)",
      advice`Install git (and put its folder on PATH) to use ${tool("read_git_diff")}; ${tool("search_code")} and ${tool("read_evidence")} work without it.`,
    );
  }
  let res;
  try {
    res = await runProcess(gitPath, ["--no-pager", ...HARDENING, ...args], {
      cwd,
      env,
      timeoutMs: GIT_TIMEOUT_MS,
      signal,
      maxStdoutBytes: maxBytes,
    });
  } catch (err) {
    if (err instanceof ToolError && err.code === "INTERNAL") {
      throw new ToolError("UNSUPPORTED", `git could not be started (${err.message})`, advice`Install git to use ${tool("read_git_diff")}.`);
    }
    throw err;
  }
  if (res.timedOut) throw new ToolError("TIMEOUT", `git took longer than ${GIT_TIMEOUT_MS / 1000} s`, advice`Pass ${param("path")} to limit the diff.`);
  return res;
}

/** Runs git in the workspace root with the repository's hardening. */
async function git(
  ws: Workspace,
  repo: Repo,
  args: string[],
  signal: AbortSignal | undefined,
  maxBytes: number,
): Promise<GitOut> {
  const res = await rawGit(ws.root, [...repo.filterArgs, ...args], gitEnv(repo.nested ? undefined : path.dirname(ws.root)), signal, maxBytes);
  if (res.code !== 0 && !res.overflow) {
    const msg = firstLine(res.stderr);
    if (/beyond a symbolic link|outside repository|is outside/i.test(msg)) {
      throw new ToolError(
        "INVALID_ARGUMENT",
        `path cannot be diffed: ${hideHostPaths(msg, ws.root)}`,
        "Pass a path of a tracked file or folder; paths through symbolic links are not followed.",
      );
    }
    throw new ToolError("INTERNAL", `git ${args[0]} failed: ${hideHostPaths(msg, ws.root)}`, advice`Try again without ${param("path")}, or with other refs.`);
  }
  return res;
}

async function hasDotGit(root: string): Promise<boolean> {
  try {
    await fsp.lstat(path.join(root, ".git"));
    return true;
  } catch {
    return false;
  }
}

function firstLine(s: string): string {
  return (s.split("\n").find((l) => l.trim() !== "") ?? "no message").replace(/^(fatal|error): /, "").slice(0, 300);
}

function notARepo(): ToolError {
  return new ToolError(
    "UNSUPPORTED",
    "not a git repository: the workspace root is not inside a git work tree that tracks it",
    advice`${tool("read_git_diff")} needs a git repository; use ${tool("search_code")} or ${tool("read_evidence")} instead.`,
  );
}

/** Finds the repository for the root (see the module rules) and its filter drivers. */
async function findRepo(ws: Workspace, signal: AbortSignal | undefined): Promise<Repo> {
  const parent = path.dirname(ws.root);
  const probe = ["rev-parse", "--show-toplevel"];
  let nested = false;
  // Git reads the configuration (with its includes), HEAD and commondir while it discovers the
  // repository: they are checked before it runs (git-store.ts).
  const found = await checkBeforeGit(ws.root, signal);
  const res = await rawGit(ws.root, probe, gitEnv(parent === ws.root ? undefined : parent), signal, 64 * 1024);
  if (res.code !== 0) {
    if (/dubious ownership/i.test(res.stderr)) {
      throw new ToolError(
        "UNSUPPORTED",
        "git refuses this repository: it is owned by another user (safe.directory)",
        advice`${tool("read_git_diff")} is not available here; use ${tool("search_code")} or ${tool("read_evidence")} instead.`,
      );
    }
    // The root has a .git of its own that git cannot use: say why instead of "not a repository".
    if (await hasDotGit(ws.root)) {
      throw new ToolError(
        "UNSUPPORTED",
        `git cannot use the repository at the workspace root: ${hideHostPaths(firstLine(res.stderr), ws.root)}`,
        advice`Check the root's .git (a .git file must name an existing git directory); meanwhile use ${tool("search_code")} or ${tool("read_evidence")}.`,
      );
    }
    // Not a repository at the root itself: look for an enclosing one that tracks the root.
    const outer = await rawGit(ws.root, probe, gitEnv(undefined), signal, 64 * 1024);
    if (outer.code !== 0) throw notARepo();
    nested = true;
  }
  const { top, gitDir, common } = await checkRepoOwnership(ws, nested, signal);
  if (found === undefined || found.gitDir !== gitDir || found.common !== common) {
    throw refuseStore("git uses another git directory than the one found and checked before it ran");
  }
  // (Also when the ceiling did not stop discovery, e.g. a parent path containing ':'.)
  nested = top !== ws.root;
  const listing = await indexListing(ws, top, nested, nested ? path.relative(top, ws.root).split(path.sep).join("/") : "", signal);
  await checkObjectStores(top, gitDir, common, listing.gitlinks);
  checkWorkTreeGitFiles(top, listing.folders);
  if (nested) {
    const tracked = await rawGit(ws.root, ["ls-files", "-z", "--", "."], gitEnv(undefined), signal, 4096);
    if ((tracked.code !== 0 && !tracked.overflow) || tracked.stdout.length === 0) throw notARepo();
  }
  // Neutralise every configured filter driver (clean/process run on a plain `git diff`).
  const cfg = await rawGit(
    ws.root,
    ["config", "--name-only", "-z", "--get-regexp", "^filter\\."],
    gitEnv(nested ? undefined : parent),
    signal,
    256 * 1024,
  );
  const tooMany = `its git configuration names more filter drivers (or longer names) than the ${MAX_FILTER_DRIVERS} it may`;
  if (cfg.overflow) throw refuseStore(tooMany);
  const drivers = new Set<string>();
  for (const key of cfg.stdout.toString("utf8").split("\0")) {
    const m = /^filter\.(.+)\.[^.]+$/s.exec(key.trim());
    if (m?.[1] !== undefined) drivers.add(m[1]);
  }
  if (drivers.size > MAX_FILTER_DRIVERS) throw refuseStore(tooMany);
  return { top, nested, filterArgs: [...drivers].flatMap(neutralFilter) };
}

/**
 * Most filter drivers one repository may configure. Each adds four settings to every git run: a
 * real project has a few (Git LFS: one); thousands exceeded the argument list (`E2BIG`) or kept
 * git reading its settings past its time limit.
 */
const MAX_FILTER_DRIVERS = 64;

/** Settings that neutralise a filter driver, and the environment variable holding each value ({@link neutralFilter}). */
const NEUTRAL_FILTER: ReadonlyArray<readonly [setting: string, value: string, variable: string]> = [
  ["clean", "", "CODECITE_GIT_EMPTY"],
  ["smudge", "", "CODECITE_GIT_EMPTY"],
  ["process", "", "CODECITE_GIT_EMPTY"],
  ["required", "false", "CODECITE_GIT_FALSE"],
];

/**
 * The settings that empty the filter driver `d`'s programs. `-c name=value` splits at the first
 * `=` (git(1) "-c"), so for a driver named `x=y` it would set `filter.x` and leave the driver's
 * program in place; its settings are given with `--config-env=name=VAR` (git 2.31 and later),
 * which splits at the last `=`. An older git refuses that option, so the diff fails rather than
 * runs the driver.
 */
function neutralFilter(d: string): string[] {
  return NEUTRAL_FILTER.flatMap(([setting, value, variable]) =>
    d.includes("=") ? [`--config-env=filter.${d}.${setting}=${variable}`] : ["-c", `filter.${d}.${setting}=${value}`],
  );
}

/**
 * Checks that the repository git found for the root belongs to it, and returns the real path of
 * its work tree (see the module rules). Without this, a repository-local `core.worktree` (a
 * hostile repository archive can carry one) would make `git diff` compare a commit with files
 * outside the root, and a `.git` file, `.git` symlink or `.git/commondir` naming another
 * repository would show that repository's history.
 * @throws ToolError `UNSUPPORTED` when the repository does not belong to the root.
 * @returns the real paths of the work tree, the git directory and the common directory.
 */
async function checkRepoOwnership(
  ws: Workspace,
  nested: boolean,
  signal: AbortSignal | undefined,
): Promise<{ top: string; gitDir: string; common: string }> {
  const env = gitEnv(nested ? undefined : path.dirname(ws.root));
  const refuse = (why: string) =>
    new ToolError(
      "UNSUPPORTED",
      advice`${tool("read_git_diff")} refuses this repository: ${why}`,
      advice`Only a repository whose work tree is the workspace root (or contains it) can be diffed; use ${tool("search_code")} or ${tool("read_evidence")} instead.`,
    );
  const info = await rawGit(
    ws.root,
    ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir"],
    env,
    signal,
    64 * 1024,
  );
  const [topRaw, gitDirRaw, commonRaw] = info.stdout.toString("utf8").split("\n");
  if (info.code !== 0 || !topRaw || !gitDirRaw || !commonRaw) throw notARepo();
  let top: string;
  let gitDir: string;
  let common: string;
  try {
    top = await fsp.realpath(topRaw);
    gitDir = await fsp.realpath(gitDirRaw);
    common = await fsp.realpath(commonRaw);
  } catch {
    throw notARepo();
  }
  if (!isInside(ws.root, top)) throw refuse("its work tree (core.worktree) lies outside the workspace root");
  const inTop = (p: string) => isInside(p, top) && p !== top;
  const ok = { top, gitDir, common };
  if (inTop(gitDir) && inTop(common)) return ok;
  // A linked worktree: <common>/worktrees/<name>, whose `gitdir` file names <top>/.git.
  if (path.dirname(gitDir) === path.join(common, "worktrees")) {
    try {
      const back = (await readGitFile(path.join(gitDir, "gitdir"), "the worktree's gitdir file"))?.trim() ?? "";
      const backReal = await fsp.realpath(path.resolve(gitDir, back));
      const ours = await fsp.realpath(path.join(top, ".git"));
      if (backReal === ours) return ok;
    } catch {
      // not a valid worktree link
    }
    throw refuse("its .git points at a worktree entry of another repository");
  }
  // A submodule (or any git dir kept elsewhere) whose core.worktree names this work tree.
  if (gitDir === common) {
    const wt = await rawGit(ws.root, ["config", "--get", "core.worktree"], env, signal, 64 * 1024);
    const value = wt.stdout.toString("utf8").trim();
    if (wt.code === 0 && value !== "") {
      try {
        if ((await fsp.realpath(path.resolve(gitDir, value))) === top) return ok;
      } catch {
        // fall through
      }
    }
    throw refuse("its git directory lies outside the work tree (a .git file or symlink naming another repository)");
  }
  throw refuse("its objects and refs come from another repository (commondir)");
}

/** Most bytes of `git ls-files --stage` output read to find submodules (gitlinks). */
const MAX_INDEX_LISTING_BYTES = 64 * 1024 * 1024;

/**
 * From `git ls-files --stage -z` run in the work tree `top` (`<mode> <id> <stage>\t<path>`
 * records): the work-tree-relative paths of the index's gitlinks (mode 160000: submodules), and
 * the folders holding tracked paths ("" for `top`) at or below `under` (work-tree-relative, ""
 * for all) or above it — the folders whose `.gitattributes` git reads for the paths it diffs.
 * @throws ToolError `UNSUPPORTED` when the index is too large to list.
 */
async function indexListing(
  ws: Workspace,
  top: string,
  nested: boolean,
  under: string,
  signal: AbortSignal | undefined,
): Promise<{ gitlinks: string[]; folders: Set<string> }> {
  // Run at the top level: ls-files lists only the current folder, and GIT_LITERAL_PATHSPECS
  // turns off the `:/` magic.
  const res = await rawGit(
    top,
    ["ls-files", "--stage", "-z"],
    gitEnv(nested ? undefined : path.dirname(ws.root)),
    signal,
    MAX_INDEX_LISTING_BYTES,
  );
  if (res.overflow) throw refuseStore("its index is too large to check for submodules");
  const gitlinks: string[] = [];
  const folders = new Set<string>([""]);
  for (const rec of res.stdout.toString("utf8").split("\0")) {
    const tab = rec.indexOf("\t");
    const p = rec.slice(tab + 1);
    if (tab <= 0 || !isCleanRelative(p)) continue;
    if (rec.startsWith("160000 ")) gitlinks.push(p);
    for (let i = p.lastIndexOf("/"); i > 0; i = p.lastIndexOf("/", i - 1)) {
      const dir = p.slice(0, i);
      if (folders.has(dir)) break;
      if (under === "" || dir === under || dir.startsWith(`${under}/`) || under.startsWith(`${dir}/`)) folders.add(dir);
    }
  }
  return { gitlinks, folders };
}

/** `git rev-parse --verify --quiet --end-of-options <ref>^{commit}` → object id. */
async function revParse(ws: Workspace, repo: Repo, ref: string, signal: AbortSignal | undefined): Promise<string> {
  validateRef(ref);
  const res = await rawGit(
    ws.root,
    [...repo.filterArgs, "rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`],
    gitEnv(repo.nested ? undefined : path.dirname(ws.root)),
    signal,
    4096,
  );
  const sha = res.stdout.toString("utf8").trim();
  if (res.code !== 0 || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) {
    // The ref itself (refs only, no object read): when it names an id, the object store is at fault.
    const bare = await rawGit(
      ws.root,
      ["rev-parse", "--verify", "--quiet", "--end-of-options", ref],
      gitEnv(repo.nested ? undefined : path.dirname(ws.root)),
      signal,
      4096,
    );
    const id = bare.stdout.toString("utf8").trim();
    if (bare.code === 0 && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(id)) {
      throw new ToolError(
        "UNSUPPORTED",
        `${ref === "HEAD" ? "HEAD" : JSON.stringify(ref)} names ${id.slice(0, 12)}, but no commit with that id can be read: the repository's object store is damaged or incomplete (or it is not a commit)`,
        advice`Run \`git fsck\` in the repository; meanwhile use ${tool("search_code")} or ${tool("read_evidence")}.`,
      );
    }
    if (ref === "HEAD") {
      throw new ToolError(
        "NOT_FOUND",
        "HEAD does not name a commit (the repository has no commits yet)",
        advice`There is no history to diff yet; use ${tool("search_code")} or ${tool("read_evidence")} instead.`,
      );
    }
    const close = await closeRefs(ws, repo, ref, signal);
    throw new ToolError(
      "NOT_FOUND",
      `unknown revision ${JSON.stringify(ref)}`,
      `${close.length > 0 ? `Did you mean ${close.map((c) => `'${c}'`).join(" or ")}? ` : ""}Use an existing branch, tag or commit id, or HEAD~N.`,
    );
  }
  return sha;
}

/**
 * Branch and tag names close to a mistyped `ref` (`close-names.ts`), with its `~N`/`^N` suffix
 * kept (`mian~2` → `main~2`). Names come from `git for-each-ref` (refs only, no object read);
 * none when that fails. At most 3.
 */
async function closeRefs(ws: Workspace, repo: Repo, ref: string, signal: AbortSignal | undefined): Promise<string[]> {
  const m = /^([^~^]*)(.*)$/.exec(ref) as RegExpExecArray;
  const [name, suffix] = [m[1] as string, m[2] as string];
  if (name === "") return [];
  const res = await rawGit(
    ws.root,
    ["for-each-ref", "--format=%(refname:short)", "refs/heads", "refs/tags", "refs/remotes"],
    gitEnv(repo.nested ? undefined : path.dirname(ws.root)),
    signal,
    256 * 1024,
  );
  if (res.code !== 0) return [];
  const names = res.stdout.toString("utf8").split("\n").filter((n) => n !== "" && !hasInvisibleUnicode(n));
  return closeNames(name, names, 3).map((n) => `${n}${suffix}`);
}

interface FileStat {
  path: string;
  /** The old path of a rename or copy. */
  oldPath?: string;
  added: number | undefined;
  deleted: number | undefined;
}

/** Parses `git diff --numstat -z` (renames: `a\tb\t\0old\0new\0`). */
function parseNumstat(buf: Buffer): FileStat[] {
  const parts = buf.toString("utf8").split("\0");
  const out: FileStat[] = [];
  for (let i = 0; i < parts.length; i++) {
    const rec = parts[i] as string;
    if (rec === "") continue;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec);
    if (!m) continue;
    let p = m[3] as string;
    let oldPath: string | undefined;
    if (p === "") {
      // rename: the next two fields are the old and the new path
      oldPath = parts[i + 1] ?? "";
      i += 2;
      p = parts[i] ?? "";
    }
    const stat: FileStat = { path: p, added: m[1] === "-" ? undefined : Number(m[1]), deleted: m[2] === "-" ? undefined : Number(m[2]) };
    if (oldPath !== undefined) stat.oldPath = oldPath;
    out.push(stat);
  }
  return out;
}

function summarizeFiles(files: readonly FileStat[], incomplete: boolean): string {
  if (files.length === 0) return "no file changes listed";
  const shown = files.slice(0, 20).map((f) => {
    const p = shortPath(f.path);
    return f.added === undefined ? `${p} (binary)` : `${p} (+${f.added} -${f.deleted ?? 0})`;
  });
  const more = files.length > 20 ? `, and ${files.length - 20}${incomplete ? "+" : ""} more` : incomplete ? ", and more" : "";
  return `${incomplete ? "at least " : ""}${files.length} file(s) changed: ${shown.join(", ")}${more}`;
}

/** A path cut in the middle to {@link MAX_NOTE_PATH_CHARS} characters (for the note only). */
function shortPath(p: string): string {
  if (p.length <= MAX_NOTE_PATH_CHARS) return p;
  const half = Math.floor((MAX_NOTE_PATH_CHARS - 1) / 2);
  return `${p.slice(0, half)}…${p.slice(p.length - half)}`;
}

interface Hunk {
  path: string;
  /** The old path when it differs from `path` (a rename or copy). */
  oldPath?: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: string[];
}

const lossy = new TextDecoder("utf-8", { fatal: false });

/** Undoes git's C-style quoting of a path (`"a\tb\303\251"`). */
export function unquoteGitPath(s: string): string {
  if (!s.startsWith('"') || !s.endsWith('"') || s.length < 2) return s;
  const body = s.slice(1, -1);
  const bytes: number[] = [];
  const esc: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== "\\") {
      for (const b of Buffer.from(c, "utf8")) bytes.push(b);
      continue;
    }
    const n = body[i + 1] ?? "";
    if (/[0-7]/.test(n)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8) & 0xff);
      i += 3;
    } else {
      bytes.push(esc[n] ?? n.charCodeAt(0));
      i += 1;
    }
  }
  return lossy.decode(Uint8Array.from(bytes));
}

/** `--- a/x` / `+++ b/x` → `x`; `/dev/null` → undefined. */
function headerPath(rest: string, prefix: string): string | undefined {
  const v = unquoteGitPath(rest.replace(/\t$/, ""));
  if (v === "/dev/null") return undefined;
  return v.startsWith(prefix) ? v.slice(prefix.length) : v;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses unified diff output into hunks (one per `@@` header), each with its file's path. */
function parsePatch(text: string): Hunk[] {
  const out: Hunk[] = [];
  let oldPath: string | undefined;
  let newPath: string | undefined;
  let renameFrom: string | undefined;
  let cur: Hunk | undefined;
  let inHeader = false;
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const raw of lines) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.startsWith("diff --git ") || line.startsWith("diff --cc ")) {
      cur = undefined;
      inHeader = true;
      oldPath = undefined;
      newPath = undefined;
      renameFrom = undefined;
      continue;
    }
    if (inHeader) {
      if (line.startsWith("--- ")) oldPath = headerPath(line.slice(4), "a/");
      else if (line.startsWith("+++ ")) newPath = headerPath(line.slice(4), "b/");
      else if (line.startsWith("rename from ")) renameFrom = unquoteGitPath(line.slice(12));
      else if (line.startsWith("copy from ")) renameFrom = unquoteGitPath(line.slice(10));
      else if (line.startsWith("@@")) inHeader = false;
      if (inHeader) continue;
    }
    const m = HUNK_HEADER.exec(line);
    if (m) {
      const p = newPath ?? oldPath;
      if (p === undefined) {
        cur = undefined;
        continue;
      }
      cur = {
        path: p,
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        lines: [line],
      };
      if (oldPath !== undefined && oldPath !== p) cur.oldPath = oldPath;
      if (renameFrom !== undefined && renameFrom !== p) cur.oldPath ??= renameFrom;
      out.push(cur);
      continue;
    }
    if (cur && (line.startsWith(" ") || line.startsWith("+") || line.startsWith("-") || line.startsWith("\\") || line === "")) {
      cur.lines.push(line);
    }
  }
  return out;
}

/**
 * One hunk as a `diff` record, cut to {@link MAX_HUNK_LINES} lines and {@link MAX_HUNK_CHARS}
 * characters, or with `maxLines` (an `all` scope) to that many lines and no character limit.
 */
function toEvidence(h: Hunk, incomplete: boolean, maxLines?: number): Evidence {
  const flags: EvidenceFlag[] = [];
  let start: number;
  let end: number;
  if (h.newCount > 0) {
    start = h.newStart;
    end = h.newStart + h.newCount - 1;
  } else {
    flags.push(OLD_LINES_FLAG);
    start = Math.max(1, h.oldStart);
    end = Math.max(start, h.oldStart + h.oldCount - 1);
  }
  let lines = h.lines;
  let cut = incomplete;
  const lineCap = maxLines ?? MAX_HUNK_LINES;
  if (lines.length > lineCap) {
    lines = lines.slice(0, lineCap);
    cut = true;
  }
  let snippet = lines.join("\n");
  if (maxLines === undefined && snippet.length > MAX_HUNK_CHARS) {
    const nl = snippet.lastIndexOf("\n", MAX_HUNK_CHARS);
    snippet = snippet.slice(0, nl > 0 ? nl : MAX_HUNK_CHARS);
    cut = true;
  }
  if (cut) flags.unshift("truncated");
  if (hasInvisibleUnicode(snippet)) flags.push("invisible_unicode");
  const rec: Evidence = { path: h.path, start_line: start, end_line: end, kind: "diff", name: h.path, snippet };
  if (flags.length > 0) rec.flags = flags;
  return rec;
}
