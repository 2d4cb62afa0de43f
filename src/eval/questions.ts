/**
 * The exam of `codecite eval`: questions about one repository, each with a key computed by the
 * read-only tools themselves and checked before use.
 *
 * Kinds (each needs what the repository has; a kind with no candidate is left out):
 * - `definition`: where a name with exactly one definition is defined (key: that definition);
 * - `definition_ambiguous`: where a name with two to four definitions is defined (key: all of them);
 * - `importers`: which files import a repository file (key: every import statement, 1–6 files);
 * - `references`: who calls a function (key: every reference; only when the registry has
 *   `find_references`);
 * - `diff`: what changed in a file between `HEAD~1` and `HEAD` (key: its hunks);
 * - `unanswerable`: where a name the repository does not define is defined (no key: the right
 *   answer says it is not there, with no invalid citation).
 *
 * Selection is deterministic for a seed and stable under change: candidates of a kind are ranked
 * by a hash of (seed, candidate id) and the first that the tools confirm are taken, so adding or
 * editing a file replaces at most the questions it touches. Every key is the tool's own result
 * for the question's call, re-run before the question is used; a candidate whose result is empty,
 * cut (`truncated`) or different on the second run is skipped.
 */
import { createHash } from "node:crypto";
import type { CatalogDefinition, DispatchResult, Evidence, RepositoryCatalog, ToolRegistry, Workspace } from "../tools/index.js";

/** The kinds of question the generator writes (`custom` for questions read from a file). */
export type QuestionKind = "definition" | "definition_ambiguous" | "importers" | "references" | "diff" | "unanswerable" | "custom";

/** One location a correct answer cites: a path and a line range (1-based, inclusive). */
export interface KeyLocation {
  path: string;
  start_line: number;
  end_line: number;
}

/** One exam question with its key. */
export interface EvalQuestion {
  /** Stable id, e.g. `definition:src/app.py:create_app`. */
  id: string;
  kind: QuestionKind;
  question: string;
  /** `en` or `zh`: the language the question is written in. */
  language: "en" | "zh";
  /** False when the repository has no answer (the right answer says so). */
  answerable: boolean;
  /** Where the answer is; a citation matches a location when its lines overlap the range. */
  key: KeyLocation[];
  /** The tool call whose result is the key (absent for questions read from a file). */
  key_call?: { name: string; arguments: Record<string, unknown> };
  /** The tool a model should use (the key call's tool; `find_symbol` for unanswerable ones). */
  expected_tool?: string;
  /** Digest of the question, its key and the key's lines: results cached under another digest are stale. */
  fingerprint: string;
}

/** Options of {@link generateQuestions}. */
export interface GenerateOptions {
  /** Number of questions (default 30; at most 500). */
  count?: number;
  /** Seed of the selection and phrasing (default 1). */
  seed?: number;
  /** Language of the questions: `en`, `zh`, or `mixed` (every other question in Chinese). Default `en`. */
  language?: "en" | "zh" | "mixed";
  signal?: AbortSignal;
}

/** Share of each kind in an exam (renormalised over the kinds the repository supports). */
const KIND_WEIGHTS: ReadonlyArray<readonly [QuestionKind, number]> = [
  ["definition", 0.3],
  ["importers", 0.25],
  ["references", 0.15],
  ["definition_ambiguous", 0.1],
  ["diff", 0.1],
  ["unanswerable", 0.1],
];

/** Most candidates tried per kind (each try runs one or two tool calls). */
const MAX_TRIES_PER_KIND = 80;
/** Largest key a question may have (more locations make a list question, not a lookup). */
const MAX_KEY_LOCATIONS = 6;

const TEMPLATES: Record<Exclude<QuestionKind, "custom">, { en: readonly string[]; zh: readonly string[] }> = {
  definition: {
    en: ["Where is `{x}` defined?", "Which file and line define `{x}`?", "Show me the definition of `{x}`.", "In which file is `{x}` implemented?"],
    zh: ["`{x}` 定義在哪裡？", "哪個檔案的哪一行定義了 `{x}`？", "請找出 `{x}` 的定義。"],
  },
  definition_ambiguous: {
    en: ["Where are all the definitions named `{x}`?", "`{x}` is defined more than once: list every definition.", "Which files define something called `{x}`?"],
    zh: ["所有名為 `{x}` 的定義在哪裡？", "`{x}` 被定義了不只一次，請列出每一個定義。"],
  },
  importers: {
    en: ["Which files import `{x}`?", "What imports `{x}` directly?", "List the files that depend on `{x}` through an import."],
    zh: ["哪些檔案直接 import `{x}`？", "有哪些檔案匯入了 `{x}`？"],
  },
  references: {
    en: ["Who calls `{x}`?", "Where is `{x}` used?", "Find every call site of `{x}`."],
    zh: ["誰呼叫了 `{x}`？", "`{x}` 在哪裡被使用？"],
  },
  diff: {
    en: ["What changed in `{x}` in the last commit?", "How was `{x}` modified between HEAD~1 and HEAD?", "Summarise the last commit's changes to `{x}`."],
    zh: ["最近一次提交對 `{x}` 改了什麼？", "`{x}` 在 HEAD~1 和 HEAD 之間有什麼變化？"],
  },
  unanswerable: {
    en: ["Where is `{x}` defined?", "Which file defines `{x}`?", "Show me the implementation of `{x}`."],
    zh: ["`{x}` 定義在哪裡？", "哪個檔案實作了 `{x}`？"],
  },
};

/** The rank of a candidate for a seed: the first 8 hex digits of sha1(`seed:id`), as a number. */
function rank(seed: number, id: string): number {
  return parseInt(createHash("sha1").update(`${seed}:${id}`).digest("hex").slice(0, 8), 16);
}

function byRank<T>(seed: number, items: readonly T[], id: (t: T) => string): T[] {
  return items
    .map((t) => ({ t, r: rank(seed, id(t)), k: id(t) }))
    .sort((a, b) => a.r - b.r || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((x) => x.t);
}

function evidenceOf(r: DispatchResult): Evidence[] | undefined {
  return r.ok && "evidence" in r ? r.evidence : undefined;
}

/** The digest that keys cached results of a question. */
function questionFingerprint(question: string, key: readonly KeyLocation[], snippets: readonly string[] = []): string {
  return createHash("sha1").update(JSON.stringify([question, key, snippets])).digest("hex").slice(0, 16);
}

interface Candidate {
  id: string;
  /** The name shown in the question. */
  subject: string;
  call: { name: string; arguments: Record<string, unknown> };
  /** Accept a key of this many locations. */
  accept: (n: number) => boolean;
  /** The records the catalogue predicts (definitions), in the tool's order (path, then line). */
  expect?: ReadonlyArray<{ path: string; start_line: number }>;
}

/**
 * Runs the candidate's call and returns its evidence when it is a usable key: not an error, not
 * cut (`truncated`), every record shown, and a size the candidate accepts; for a definition
 * candidate the record must also be the catalogue's definition (two sources agree).
 */
async function confirmKey(registry: ToolRegistry, ws: Workspace, c: Candidate, signal?: AbortSignal): Promise<Evidence[] | undefined> {
  const ctx = { workspace: ws, ...(signal ? { signal } : {}) };
  const result = await registry.dispatch(c.call, ctx);
  const ev = evidenceOf(result);
  if (ev === undefined || !result.ok || !("truncated" in result) || result.truncated) return undefined;
  if (result.total !== ev.length || !c.accept(ev.length)) return undefined;
  if (c.expect !== undefined && !ev.every((e, i) => e.path === c.expect![i]?.path && e.start_line === c.expect![i]?.start_line)) return undefined;
  return ev;
}

function qualified(d: CatalogDefinition): string {
  return d.container !== undefined ? `${d.container}.${d.name}` : d.name;
}

const DEFINITION_KINDS = new Set(["function", "class", "method", "interface", "type", "enum", "struct", "trait"]);

function isTestPath(p: string): boolean {
  return /(^|\/)(tests?|__tests__|spec|testdata|fixtures?)(\/|$)|[._-](test|spec)\.[a-z]+$|(^|\/)test_[^/]*$/i.test(p);
}

/** Names worth asking about: not private-looking, not dunder, at least 4 characters. */
function askable(name: string): boolean {
  return name.length >= 4 && name.length <= 60 && !name.startsWith("__") && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

function definitionCandidates(cat: RepositoryCatalog): { unique: Candidate[]; ambiguous: Candidate[] } {
  const byName = new Map<string, CatalogDefinition[]>();
  for (const d of cat.definitions) {
    if (!DEFINITION_KINDS.has(d.kind) || !askable(d.name) || isTestPath(d.path)) continue;
    const list = byName.get(d.name) ?? [];
    list.push(d);
    byName.set(d.name, list);
  }
  const unique: Candidate[] = [];
  const ambiguous: Candidate[] = [];
  for (const [name, defs] of byName) {
    if (defs.length === 1) {
      const d = defs[0]!;
      const subject = qualified(d);
      unique.push({ id: `definition:${d.path}:${subject}`, subject, call: { name: "find_symbol", arguments: { name: subject } }, accept: (n) => n === 1, expect: [d] });
    } else if (defs.length <= 4 && new Set(defs.map((d) => d.path)).size >= 2) {
      ambiguous.push({ id: `definition_ambiguous:${name}`, subject: name, call: { name: "find_symbol", arguments: { name } }, accept: (n) => n >= 2 && n <= 4, expect: defs });
    }
  }
  return { unique, ambiguous };
}

/** File name without folders and extension: `src/pkg/rag_common.py` → `rag_common`. */
function stem(p: string): string {
  const base = p.slice(p.lastIndexOf("/") + 1);
  const dot = base.indexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * Files some import statement may name: the file's stem occurs as a word in a specifier
 * (`rag_common` in `from rag_common import …`, `./util.js` for `util.ts`); `index`/`__init__`
 * files are named by their folder. Files no statement can name are not tried.
 */
function importerCandidates(cat: RepositoryCatalog): Candidate[] {
  const words = new Set<string>();
  for (const i of cat.imports) for (const w of i.specifier.split(/[^A-Za-z0-9_-]+/)) if (w !== "") words.add(w);
  const named = (p: string): boolean => {
    const s = stem(p);
    if (s === "index" || s === "__init__" || s === "mod" || s === "lib") {
      const dir = p.slice(0, p.lastIndexOf("/"));
      return words.has(dir.slice(dir.lastIndexOf("/") + 1));
    }
    return words.has(s);
  };
  const withDefs = [...new Set(cat.definitions.map((d) => d.path))].filter((p) => !isTestPath(p) && named(p));
  return withDefs.map((p) => ({
    id: `importers:${p}`,
    subject: p,
    call: { name: "find_importers", arguments: { module_name: p } },
    accept: (n) => n >= 1 && n <= MAX_KEY_LOCATIONS,
  }));
}

function referenceCandidates(cat: RepositoryCatalog): Candidate[] {
  const counts = new Map<string, number>();
  for (const d of cat.definitions) counts.set(d.name, (counts.get(d.name) ?? 0) + 1);
  return cat.definitions
    .filter((d) => (d.kind === "function" || d.kind === "method") && askable(d.name) && counts.get(d.name) === 1 && !isTestPath(d.path))
    .map((d) => ({
      id: `references:${d.path}:${qualified(d)}`,
      subject: qualified(d),
      call: { name: "find_references", arguments: { name: qualified(d), path: d.path } },
      accept: (n) => n >= 1 && n <= MAX_KEY_LOCATIONS,
    }));
}

/** Names the repository does not define, in its own naming style (snake_case or camelCase). */
function unanswerableNames(cat: RepositoryCatalog, seed: number): string[] {
  const snake = cat.definitions.filter((d) => d.name.includes("_")).length >= cat.definitions.filter((d) => /[a-z][A-Z]/.test(d.name)).length;
  const verbs = ["load", "parse", "resolve", "render", "compute", "validate", "merge", "flush", "encode", "schedule"];
  const nouns = ["quantum_ledger", "orbit_cache", "glacier_token", "nebula_index", "velvet_queue", "prism_budget", "walrus_config", "tundra_session"];
  const out: string[] = [];
  for (const v of verbs) for (const n of nouns) {
    const snakeName = `${v}_${n}`;
    out.push(snake ? snakeName : snakeName.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()));
  }
  return byRank(seed, out, (s) => s);
}

function render(kind: Exclude<QuestionKind, "custom">, subject: string, language: "en" | "zh", seed: number, id: string): string {
  const list = TEMPLATES[kind][language];
  return list[rank(seed + 7, id) % list.length]!.replaceAll("{x}", subject);
}

function quotas(kinds: readonly QuestionKind[], count: number): Map<QuestionKind, number> {
  const weights = KIND_WEIGHTS.filter(([k]) => kinds.includes(k));
  const total = weights.reduce((s, [, w]) => s + w, 0);
  const out = new Map<QuestionKind, number>();
  let given = 0;
  for (const [k, w] of weights) {
    const n = Math.floor((count * w) / total);
    out.set(k, n);
    given += n;
  }
  // Remainders go to the kinds in weight order, one each.
  for (let i = 0; given < count && weights.length > 0; i = (i + 1) % weights.length) {
    const k = weights[i]![0];
    out.set(k, out.get(k)! + 1);
    given++;
  }
  return out;
}

/**
 * Writes an exam for the repository of `ws`.
 * @param catalog what the repository defines and imports (`repositoryCatalog`).
 * @param registry the code tools (`createCodeToolRegistry()`); a key is the result of one of its calls.
 * @returns up to `count` questions (fewer when the repository has too few candidates), in a
 *   deterministic order for the seed.
 */
export async function generateQuestions(
  ws: Workspace,
  registry: ToolRegistry,
  catalog: RepositoryCatalog,
  opts: GenerateOptions = {},
): Promise<EvalQuestion[]> {
  const count = Math.max(1, Math.min(500, opts.count ?? 30));
  const seed = opts.seed ?? 1;
  const signal = opts.signal;
  const ctx = { workspace: ws, ...(signal ? { signal } : {}) };
  const { unique, ambiguous } = definitionCandidates(catalog);
  const candidates = new Map<QuestionKind, Candidate[]>([
    ["definition", unique],
    ["definition_ambiguous", ambiguous],
    ["importers", importerCandidates(catalog)],
    ["references", registry.has("find_references") ? referenceCandidates(catalog) : []],
  ]);

  // Diff questions: files changed by the last commit, when the repository has one.
  const diffCands: Candidate[] = [];
  const lastCommit = await registry.dispatch({ name: "read_git_diff", arguments: { base: "HEAD~1", head: "HEAD", context_lines: 0 } }, ctx);
  const hunks = evidenceOf(lastCommit);
  if (hunks !== undefined && lastCommit.ok && "truncated" in lastCommit && !lastCommit.truncated) {
    const perFile = new Map<string, number>();
    for (const h of hunks) perFile.set(h.path, (perFile.get(h.path) ?? 0) + 1);
    for (const [p, n] of perFile) {
      if (n > 3) continue;
      diffCands.push({
        id: `diff:${p}`,
        subject: p,
        call: { name: "read_git_diff", arguments: { base: "HEAD~1", head: "HEAD", path: p, context_lines: 0 } },
        accept: (k) => k >= 1 && k <= 3,
      });
    }
  }
  candidates.set("diff", diffCands);

  const kinds = [...candidates.entries()].filter(([, c]) => c.length > 0).map(([k]) => k);
  kinds.push("unanswerable");
  const quota = quotas(kinds, count);
  const out: EvalQuestion[] = [];
  let n = 0;
  const languageOf = (): "en" | "zh" => (opts.language === "zh" ? "zh" : opts.language === "mixed" ? (n++ % 2 === 0 ? "en" : "zh") : "en");

  // Two passes: each kind's share, then the shortfall from the kinds that have candidates left.
  const taken = new Set<string>();
  for (let pass = 0; pass < 2 && out.length < count; pass++) {
  for (const [kind, share] of quota) {
    const want = pass === 0 ? share : count - out.length;
    if (want <= 0) continue;
    if (kind === "unanswerable") {
      let got = 0;
      let tries = 0;
      for (const name of unanswerableNames(catalog, seed)) {
        if (got >= want || tries++ >= MAX_TRIES_PER_KIND) break;
        if (taken.has(`unanswerable:${name}`)) continue;
        taken.add(`unanswerable:${name}`);
        const sym = await registry.dispatch({ name: "find_symbol", arguments: { name } }, ctx);
        const found = await registry.dispatch({ name: "search_code", arguments: { query: name } }, ctx);
        if (!sym.ok || !found.ok || !("total" in sym) || !("total" in found) || sym.total !== 0 || found.total !== 0) continue;
        const id = `unanswerable:${name}`;
        const language = languageOf();
        const question = render("unanswerable", name, language, seed, id);
        out.push({ id, kind, question, language, answerable: false, key: [], expected_tool: "find_symbol", key_call: { name: "find_symbol", arguments: { name } }, fingerprint: questionFingerprint(question, []) });
        got++;
      }
      continue;
    }
    let got = 0;
    let tries = 0;
    for (const c of byRank(seed, candidates.get(kind)!, (c) => c.id)) {
      if (got >= want || tries++ >= MAX_TRIES_PER_KIND) break;
      if (taken.has(c.id)) continue;
      taken.add(c.id);
      signal?.throwIfAborted();
      const ev = await confirmKey(registry, ws, c, signal);
      if (ev === undefined) continue;
      const key = ev.map((e) => ({ path: e.path, start_line: e.start_line, end_line: e.end_line }));
      const language = languageOf();
      const question = render(kind as Exclude<QuestionKind, "custom">, c.subject, language, seed, c.id);
      out.push({
        id: c.id,
        kind,
        question,
        language,
        answerable: true,
        key,
        key_call: c.call,
        expected_tool: c.call.name,
        fingerprint: questionFingerprint(question, key, ev.map((e) => e.snippet)),
      });
      got++;
    }
  }
  }
  return out;
}

/**
 * Parses a questions file: JSON Lines of `{question, answer_locations: [[path, line], …], answerable}`
 * (`answerable` defaults to true when locations are given). Blank lines and lines starting with `#`
 * are skipped.
 * @throws Error naming the line number for a line that is not such an object.
 */
export function parseQuestionsFile(text: string): EvalQuestion[] {
  const out: EvalQuestion[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1}: not JSON`);
    }
    const o = v as { question?: unknown; answer_locations?: unknown; answerable?: unknown };
    if (typeof v !== "object" || v === null || typeof o.question !== "string" || o.question.trim() === "") {
      throw new Error(`line ${i + 1}: expected {"question": "…", "answer_locations": [[path, line], …], "answerable": true|false}`);
    }
    const locs = o.answer_locations ?? [];
    if (!Array.isArray(locs) || !locs.every((l) => Array.isArray(l) && typeof l[0] === "string" && Number.isInteger(l[1]) && (l[1] as number) >= 1)) {
      throw new Error(`line ${i + 1}: answer_locations must be [[path, line], …] with 1-based lines`);
    }
    if (o.answerable !== undefined && typeof o.answerable !== "boolean") throw new Error(`line ${i + 1}: answerable must be true or false`);
    const key = (locs as Array<[string, number]>).map(([p, l]) => ({ path: p.replace(/\\/g, "/").replace(/^\.\//, ""), start_line: l, end_line: l }));
    const answerable = (o.answerable as boolean | undefined) ?? key.length > 0;
    if (answerable && key.length === 0) throw new Error(`line ${i + 1}: an answerable question needs answer_locations`);
    const question = o.question.trim();
    out.push({
      id: `custom:${createHash("sha1").update(question).digest("hex").slice(0, 12)}`,
      kind: answerable ? "custom" : "unanswerable",
      question,
      language: /[\u3400-\u9fff]/.test(question) ? "zh" : "en",
      answerable,
      key,
      fingerprint: questionFingerprint(question, key),
    });
  });
  return out;
}

/**
 * Checks the keys of questions read from a file against the repository: every location must be
 * a readable file inside the root with that line.
 * @returns the questions whose keys hold, and one message per question left out.
 */
export async function checkQuestionKeys(
  ws: Workspace,
  registry: ToolRegistry,
  questions: readonly EvalQuestion[],
  signal?: AbortSignal,
): Promise<{ usable: EvalQuestion[]; problems: string[] }> {
  const usable: EvalQuestion[] = [];
  const problems: string[] = [];
  const ctx = { workspace: ws, ...(signal ? { signal } : {}) };
  for (const q of questions) {
    let bad: string | undefined;
    for (const k of q.key) {
      const r = await registry.dispatch({ name: "read_evidence", arguments: { path: k.path, start_line: k.start_line, end_line: k.end_line } }, ctx);
      const ev = evidenceOf(r);
      if (!r.ok || ev === undefined || ev.length === 0 || ev[0]!.start_line !== k.start_line) {
        bad = `${k.path}:${k.start_line} ${r.ok ? "is past the end of the file" : `cannot be read (${r.error.code})`}`;
        break;
      }
    }
    if (bad === undefined) usable.push(q);
    else problems.push(`question ${JSON.stringify(q.question.slice(0, 80))} left out: ${bad}`);
  }
  return { usable, problems };
}
