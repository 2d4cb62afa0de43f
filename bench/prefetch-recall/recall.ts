/**
 * Prefetch recall: for each question of questions.json whose repository is among the checkouts
 * of `CODECITE_PREFETCH_REPOS`, runs codecite's prefetch (`src/agent/prefetch.ts`) as `ask`
 * would before its first model call (the code tools; a 8192-token context unless given), and checks
 * that the tool results given to the model hold every answer location of the question: a record
 * of the same path whose line range covers the line. Records count as the model gets them in the
 * first request (after the prefetch budget and the context fitter), not as the tools returned them.
 *
 * Standalone: `CODECITE_PREFETCH_REPOS=/src/click,… node --import tsx bench/prefetch-recall/recall.ts`;
 * prints the figures at the default context, 4096 and `--num-ctx 2048`. `npm run bench` runs it
 * too when the variable is set.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { prefetchEvidence } from "../../src/agent/prefetch.js";
import { DEFAULT_CONTEXT_TOKENS } from "../../src/agent/defaults.js";
import { compactHistory, ContextTooSmall } from "../../src/agent/compact.js";
import { prepare } from "../../src/agent/session.js";
import type { Message } from "../../src/llm/types.js";
import type { Provider } from "../../src/llm/types.js";
import { createCodeToolRegistry, Workspace } from "../../src/tools/index.js";
import { checkoutAt, HERE, namedCheckouts, readData, REPOS_VARIABLE, type RepoSpec } from "./checkouts.js";
import type { KeyedQuestion } from "./keys.js";

/** The outcome of one question. */
export interface RecallRow {
  repo: string;
  kind: KeyedQuestion["kind"];
  lang: KeyedQuestion["lang"];
  question: string;
  hit: boolean;
  /** Answer locations not in the prefetched evidence. */
  missing: string[];
  /** The lookups prefetch ran and kept, as `tool(arguments)`. */
  lookups: string[];
}

/** Totals of a set of rows. */
export interface RecallSummary {
  /** The context size the prefetch budget was taken from (`--num-ctx`). */
  contextTokens: number;
  questions: number;
  hits: number;
  recall: number;
  by: Record<string, { questions: number; hits: number }>;
  rows: RecallRow[];
  /** Repositories of the set with no checkout named. */
  skipped: string[];
}

/** A provider that is never called: prefetch runs before the first model call. */
const idle: Provider = { id: "idle", location: "-", chat: () => Promise.reject(new Error("not called")) };

/** The records of the tool messages prefetch put into the history. */
function sentRecords(history: ReadonlyArray<{ role: string; content: string }>): Array<{ path: string; start_line: number; end_line: number }> {
  const out: Array<{ path: string; start_line: number; end_line: number }> = [];
  for (const m of history) {
    if (m.role !== "tool") continue;
    const body = JSON.parse(m.content) as { evidence?: Array<{ path: string; start_line: number; end_line: number }> };
    out.push(...(body.evidence ?? []));
  }
  return out;
}

/** Runs prefetch for one question over an open workspace; `contextTokens` as `--num-ctx`. */
export async function recallOf(workspace: Workspace, q: KeyedQuestion, contextTokens?: number): Promise<RecallRow> {
  const s = await prepare({ provider: idle, model: "m", registry: createCodeToolRegistry(), workspace, question: q.question, contextTokens });
  try {
    await prefetchEvidence(s);
    // The first request's history as the context fitter sends it (a result it cuts to counts is no evidence).
    let sent: readonly Message[] = [];
    try {
      sent = compactHistory(s, s.basePrompt, true).messages;
    } catch (err) {
      if (!(err instanceof ContextTooSmall)) throw err;
    }
    const records = sentRecords(sent);
    const missing = q.keys.filter((k) => !records.some((r) => r.path === k.path && r.start_line <= k.line && k.line <= r.end_line)).map((k) => `${k.path}:${k.line}`);
    const lookups = s.steps.map((st) => `${st.tool}(${JSON.stringify(st.arguments)})`);
    return { repo: q.repo, kind: q.kind, lang: q.lang, question: q.question, hit: missing.length === 0, missing, lookups };
  } finally {
    s.dispose();
  }
}

/** Runs every question whose repository has a checkout in `checkouts` (folder name → path). */
export async function prefetchRecall(checkouts = namedCheckouts(), log: (m: string) => void = () => {}, contextTokens?: number): Promise<RecallSummary> {
  const data = readData<{ repos: Record<string, RepoSpec>; questions: KeyedQuestion[] }>("questions.json");
  const rows: RecallRow[] = [];
  const skipped: string[] = [];
  for (const [name, repo] of Object.entries(data.repos)) {
    const dir = checkouts.get(name);
    if (dir === undefined) {
      skipped.push(name);
      continue;
    }
    const { root, cleanup } = checkoutAt(dir, repo.commit);
    log(`prefetch recall: ${name} at ${repo.commit.slice(0, 10)} (${root})`);
    try {
      const workspace = await Workspace.open(root);
      for (const q of data.questions.filter((x) => x.repo === name)) rows.push(await recallOf(workspace, q, contextTokens));
    } finally {
      if (cleanup) rmSync(cleanup, { recursive: true, force: true });
    }
  }
  const by: RecallSummary["by"] = {};
  for (const r of rows) {
    for (const key of [r.repo, r.kind, r.lang]) {
      const b = (by[key] ??= { questions: 0, hits: 0 });
      b.questions++;
      if (r.hit) b.hits++;
    }
  }
  const hits = rows.filter((r) => r.hit).length;
  return { contextTokens: contextTokens ?? DEFAULT_CONTEXT_TOKENS, questions: rows.length, hits, recall: rows.length === 0 ? 0 : hits / rows.length, by, rows, skipped };
}

/** The summary as text lines: the figure, the breakdown, and every miss with its lookups. */
export function renderRecall(s: RecallSummary): string[] {
  const pct = (h: number, n: number) => `${h}/${n} (${((100 * h) / Math.max(1, n)).toFixed(1)}%)`;
  return [
    `prefetch recall at --num-ctx ${s.contextTokens}: ${pct(s.hits, s.questions)} questions whose prefetched evidence holds every answer location (goal ≥ 90% at the default)`,
    `  ${Object.entries(s.by).map(([k, b]) => `${k} ${pct(b.hits, b.questions)}`).join(" · ")}`,
    ...(s.skipped.length > 0 ? [`  no checkout named for: ${s.skipped.join(", ")}`] : []),
    ...s.rows.filter((r) => !r.hit).map((r) => `  miss [${r.repo} ${r.kind} ${r.lang}] ${r.question} — missing ${r.missing.join(", ")}; looked up: ${r.lookups.join(" ") || "nothing"}`),
  ];
}

/** The context sizes the recall is measured at: the default, a small one and the documented minimum. */
export const RECALL_CONTEXTS = [DEFAULT_CONTEXT_TOKENS, 4096, 2048] as const;

/** Recall at each of {@link RECALL_CONTEXTS} over the named checkouts; none when no checkout is named. */
export async function prefetchRecallRuns(log: (m: string) => void = () => {}): Promise<RecallSummary[]> {
  const checkouts = namedCheckouts();
  if (checkouts.size === 0) {
    log(`prefetch recall: skipped (set ${REPOS_VARIABLE} to checkouts of click, httpx, zustand, mux; see bench/prefetch-recall/)`);
    return [];
  }
  const out: RecallSummary[] = [];
  for (const ctx of RECALL_CONTEXTS) out.push(await prefetchRecall(checkouts, log, ctx));
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(HERE, "recall.ts")) {
  for (const summary of await prefetchRecallRuns((m) => process.stderr.write(`${m}\n`))) process.stdout.write(`${renderRecall(summary).join("\n")}\n`);
}
