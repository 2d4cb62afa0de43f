/**
 * Derives the answer locations of the prefetch recall questions (spec.json) from checkouts of
 * their repositories with oracles that do not share codecite's code, and writes questions.json:
 * - a definition: universal-ctags (`ctags --fields=+nKs`) on the named file; exactly one tag
 *   of the name (and of the kind / enclosing scope when given) must match;
 * - an import question: every source file with a line matching the regular expression (the
 *   first such line of each file), found by reading the files of `git ls-files`;
 * - a diff: `git diff -U0` of the commit against its first parent (or `base..head`), limited to
 *   `path` when given; the first hunk of the first changed file, new side.
 *
 * Usage: CODECITE_PREFETCH_REPOS=/src/click,/src/httpx,… node --import tsx bench/prefetch-recall/keys.ts
 * Needs git and universal-ctags.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { checkoutAt, HERE, namedCheckouts, readData, REPOS_VARIABLE, type RepoSpec } from "./checkouts.js";

/** How a question's answer locations are derived. */
export type Oracle =
  | { definition: string; path: string; kind?: string; scope?: string }
  | { import: string }
  | { diff: string; path?: string };

export interface SpecQuestion {
  repo: string;
  lang: "en" | "zh";
  question: string;
  oracle: Oracle;
}

/** A question with its answer locations: the prefetched evidence must hold every one. */
export interface KeyedQuestion extends SpecQuestion {
  kind: "definition" | "importers" | "diff";
  keys: Array<{ path: string; line: number }>;
}

const SOURCE_EXT = /\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go)$/;

function definitionKey(root: string, o: Extract<Oracle, { definition: string }>): { path: string; line: number } {
  const out = execFileSync("ctags", ["--fields=+nKs", "-f", "-", o.path], { cwd: root, encoding: "utf8" });
  const hits = out.split("\n").filter((l) => {
    const f = l.split("\t");
    if (f[0] !== o.definition) return false;
    const ext = f.slice(3);
    if (o.kind !== undefined && ext[0] !== o.kind) return false;
    if (o.scope !== undefined && !ext.some((e) => new RegExp(`^[a-z]+:(?:.*\\.)?${o.scope}$`).test(e))) return false;
    return ext[0] !== "unknown" && ext[0] !== "parameter" && ext[0] !== "local";
  });
  if (hits.length !== 1) throw new Error(`ctags: ${hits.length} tags for ${JSON.stringify(o)}`);
  const line = Number(/\tline:(\d+)/.exec(hits[0]!)?.[1]);
  return { path: o.path, line };
}

function importKeys(root: string, pattern: string): Array<{ path: string; line: number }> {
  const re = new RegExp(pattern);
  const keys: Array<{ path: string; line: number }> = [];
  for (const file of execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n")) {
    if (!SOURCE_EXT.test(file)) continue;
    const lines = readFileSync(path.join(root, file), "utf8").split("\n");
    const i = lines.findIndex((l) => re.test(l));
    if (i >= 0) keys.push({ path: file, line: i + 1 });
  }
  if (keys.length === 0) throw new Error(`no file has a line matching ${pattern}`);
  return keys;
}

function diffKey(root: string, o: Extract<Oracle, { diff: string }>): { path: string; line: number } {
  const [base, head] = o.diff.includes("..") ? o.diff.split("..") : [`${o.diff}^`, o.diff];
  const out = execFileSync("git", ["diff", "-U0", "--no-color", "--no-renames", base!, head!, ...(o.path ? ["--", o.path] : [])], { cwd: root, encoding: "utf8" });
  let file: string | undefined;
  for (const l of out.split("\n")) {
    if (l.startsWith("+++ ")) file = l === "+++ /dev/null" ? undefined : l.slice(6);
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (h && file !== undefined) return { path: file, line: Math.max(1, Number(h[1])) };
  }
  throw new Error(`no hunk in ${o.diff}`);
}

/** The answer locations of an oracle over the work tree at `root` (see the module comment). */
export function keysOf(root: string, o: Oracle): KeyedQuestion["keys"] {
  return "definition" in o ? [definitionKey(root, o)] : "import" in o ? importKeys(root, o.import) : [diffKey(root, o)];
}

/** The kind of a question by its oracle. */
export function kindOf(o: Oracle): KeyedQuestion["kind"] {
  return "definition" in o ? "definition" : "import" in o ? "importers" : "diff";
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(HERE, "keys.ts")) {
  const spec = readData<{ about: string; repos: Record<string, RepoSpec>; questions: SpecQuestion[] }>("spec.json");
  const checkouts = namedCheckouts();
  if (checkouts.size === 0) throw new Error(`set ${REPOS_VARIABLE} to checkouts of: ${Object.keys(spec.repos).join(", ")}`);
  const keyed: KeyedQuestion[] = [];
  for (const [name, repo] of Object.entries(spec.repos)) {
    const dir = checkouts.get(name);
    if (dir === undefined) throw new Error(`no checkout named ${name} in ${REPOS_VARIABLE}`);
    const { root, cleanup } = checkoutAt(dir, repo.commit);
    try {
      for (const q of spec.questions.filter((x) => x.repo === name)) {
        keyed.push({ ...q, kind: kindOf(q.oracle), keys: keysOf(root, q.oracle) });
      }
    } finally {
      if (cleanup) rmSync(cleanup, { recursive: true, force: true });
    }
  }
  const body = keyed.map((q) => `    ${JSON.stringify(q)}`).join(",\n");
  writeFileSync(path.join(HERE, "questions.json"), `{\n  "about": ${JSON.stringify(`Generated by keys.ts from spec.json; do not edit. ${spec.about}`)},\n  "repos": ${JSON.stringify(spec.repos)},\n  "questions": [\n${body}\n  ]\n}\n`);
  process.stderr.write(`${keyed.length} questions, ${keyed.reduce((n, q) => n + q.keys.length, 0)} answer locations → bench/prefetch-recall/questions.json\n`);
}
