/**
 * Grading one answer of `codecite eval` against its question's key.
 *
 * - Evidence recall: the share of key locations that some evidence record of the session covers
 *   (same path, overlapping lines).
 * - Answer recall: the share of key locations that the answer cites (a citation of the same path
 *   whose line lies in the location's range; for a definition, within its first
 *   {@link DEFINITION_HEAD_LINES} lines, where the name is).
 * - Correct: an answerable question is answered correctly when the answer cites every key
 *   location and no citation is `unseen` or `invalid`; an unanswerable one when the answer
 *   abstains (`stop_reason` `abstained` or grounding `none`, as the agent judged it) with no
 *   `unseen` or `invalid` citation.
 * - How calls arrived: each tool step's `recovered_by` (native, `dialect:<family>`, inline JSON,
 *   structural, interpreter); a session without any tool call counts once under `none`.
 *   Prefetched steps are codecite's own lookups, not the model's, and are not counted.
 */
import type { AgentResult } from "../agent/index.js";
import type { EvalQuestion, KeyLocation } from "./questions.js";
import type { ToolshimMode } from "../toolshim/types.js";

/** A definition key matches citations within its first lines (decorators, the signature). */
const DEFINITION_HEAD_LINES = 4;

/** Citation statuses (README, `ask --json` `citations[].status`). */
export type CitationStatus = "supported" | "seen" | "unseen" | "invalid";

/** How the tool calls of one session arrived. */
export interface CallCounts {
  native: number;
  dialect: number;
  inline_json: number;
  structural: number;
  interpreter: number;
  none: number;
}

export type CitationCounts = Record<CitationStatus, number>;

/** Timing and token counts of one session (from the server's own counts where it gives them). */
export interface SessionMeasures {
  ms: number;
  /** Time to the first streamed token (content, reasoning or tool call), ms; absent when nothing streamed. */
  ttft_ms?: number;
  prompt_tokens?: number;
  output_tokens?: number;
  /** Output tokens per second of model time (the calls' wall time). */
  tokens_per_second?: number;
}

/** One result row: a model × setting × question. */
export interface EvalRow {
  model: string;
  /** `num_ctx` and tool-shim mode of the run. */
  settings: EvalSettings;
  question_id: string;
  kind: EvalQuestion["kind"];
  question: string;
  answerable: boolean;
  fingerprint: string;
  /** `ok`, or `error` when the provider failed (then `error` says why and the row counts as wrong). */
  outcome: "ok" | "error";
  error?: string;
  correct: boolean;
  right_tool: boolean;
  evidence_recall: number;
  answer_recall: number;
  calls: CallCounts;
  citations: CitationCounts;
  cited: Array<{ path: string; line: number; status: CitationStatus }>;
  answer: string;
  stop_reason?: string;
  grounding?: string;
  steps: number;
  ms: number;
  ttft_ms?: number;
  prompt_tokens?: number;
  output_tokens?: number;
  tokens_per_second?: number;
}

/** The settings a model runs with. */
export interface EvalSettings {
  num_ctx: number;
  toolshim: ToolshimMode;
  /**
   * Whether codecite looks up the question's code names before the first model call (`ask`'s
   * default). Off, the figures measure the model's own tool use; absent means off.
   */
  prefetch?: boolean;
}

/** `8192/auto` (`8192/auto/prefetch` with prefetch): a settings label for tables and cache keys. */
export function settingsLabel(s: EvalSettings): string {
  return `${s.num_ctx}/${s.toolshim}${s.prefetch === true ? "/prefetch" : ""}`;
}

export function emptyCalls(): CallCounts {
  return { native: 0, dialect: 0, inline_json: 0, structural: 0, interpreter: 0, none: 0 };
}

export function emptyCitations(): CitationCounts {
  return { supported: 0, seen: 0, unseen: 0, invalid: 0 };
}

/** The status of a citation: its `status` when the grounding check gave one, else from `verified`. */
function citationStatus(c: { verified: boolean; status?: string }): CitationStatus {
  const s = c.status;
  if (s === "supported" || s === "seen" || s === "unseen" || s === "invalid") return s;
  return c.verified ? "seen" : "invalid";
}

function overlaps(path: string, start: number, end: number, k: KeyLocation, kind: EvalQuestion["kind"]): boolean {
  if (path !== k.path) return false;
  const kEnd = kind === "definition" || kind === "definition_ambiguous" ? Math.min(k.end_line, k.start_line + DEFINITION_HEAD_LINES - 1) : k.end_line;
  return start <= kEnd && end >= k.start_line;
}

function callKind(recoveredBy: string): keyof CallCounts | undefined {
  if (recoveredBy === "native") return "native";
  if (recoveredBy.startsWith("dialect")) return "dialect";
  if (recoveredBy === "inline_json") return "inline_json";
  if (recoveredBy === "structural") return "structural";
  if (recoveredBy === "interpreter") return "interpreter";
  return undefined;
}

/**
 * Grades one finished session.
 * @param result what `runAgent` returned for the question.
 */
export function scoreResult(
  question: EvalQuestion,
  result: Pick<AgentResult, "answer" | "evidence" | "citations" | "steps" | "stop_reason"> & { grounding?: string },
  model: string,
  settings: EvalSettings,
  measures: SessionMeasures,
): EvalRow {
  const calls = emptyCalls();
  let modelCalls = 0;
  for (const s of result.steps) {
    const k = callKind(String(s.recovered_by));
    if (k !== undefined) {
      calls[k]++;
      modelCalls++;
    }
  }
  if (modelCalls === 0) calls.none = 1;
  const citations = emptyCitations();
  const cited = result.citations.map((c) => {
    const status = citationStatus(c as { verified: boolean; status?: string });
    citations[status]++;
    return { path: c.path, line: c.line, status };
  });
  const key = question.key;
  const evidenceHits = key.filter((k) => result.evidence.some((e) => overlaps(e.path, e.start_line, e.end_line, k, "custom")));
  const citedHits = key.filter((k) => result.citations.some((c) => overlaps(c.path, c.line, c.line, k, question.kind)));
  const evidence_recall = key.length === 0 ? 1 : evidenceHits.length / key.length;
  const answer_recall = key.length === 0 ? 1 : citedHits.length / key.length;
  const badCitations = citations.unseen + citations.invalid > 0;
  let correct: boolean;
  if (question.answerable) {
    correct = answer_recall === 1 && !badCitations && result.answer.trim() !== "";
  } else {
    // The agent's own judgement (`stop_reason` `abstained` when an answer without citations says it
    // found nothing; grounding `none` when it makes no claim about the code).
    const abstained = result.stop_reason === "abstained" || result.grounding === "none";
    correct = abstained && !badCitations;
  }
  const used = new Set(result.steps.filter((s) => s.ok && String(s.recovered_by) !== "prefetch").map((s) => s.tool));
  const right_tool = question.expected_tool === undefined ? used.size > 0 : used.has(question.expected_tool);
  const row: EvalRow = {
    ...rowOf(question, model, settings),
    outcome: "ok",
    correct,
    right_tool,
    evidence_recall,
    answer_recall,
    calls,
    citations,
    cited,
    answer: result.answer,
    stop_reason: result.stop_reason,
    steps: result.steps.filter((s) => String(s.recovered_by) !== "prefetch").length,
    ms: measures.ms,
  };
  if (result.grounding !== undefined) row.grounding = result.grounding;
  if (measures.ttft_ms !== undefined) row.ttft_ms = measures.ttft_ms;
  if (measures.prompt_tokens !== undefined) row.prompt_tokens = measures.prompt_tokens;
  if (measures.output_tokens !== undefined) row.output_tokens = measures.output_tokens;
  if (measures.tokens_per_second !== undefined) row.tokens_per_second = measures.tokens_per_second;
  return row;
}

/** The fields of a row that name what was asked of whom. */
function rowOf(question: EvalQuestion, model: string, settings: EvalSettings): Pick<EvalRow, "model" | "settings" | "question_id" | "kind" | "question" | "answerable" | "fingerprint"> {
  return {
    model,
    settings,
    question_id: question.id,
    kind: question.kind,
    question: question.question,
    answerable: question.answerable,
    fingerprint: question.fingerprint,
  };
}

/** The row of a session that failed (provider error, timeout): wrong, with the reason. */
export function errorRow(question: EvalQuestion, model: string, settings: EvalSettings, error: string, ms: number): EvalRow {
  return {
    ...rowOf(question, model, settings),
    outcome: "error",
    error,
    correct: false,
    right_tool: false,
    evidence_recall: 0,
    answer_recall: 0,
    calls: emptyCalls(),
    citations: emptyCitations(),
    cited: [],
    answer: "",
    steps: 0,
    ms,
  };
}
