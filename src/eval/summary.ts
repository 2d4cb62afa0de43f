/**
 * Figures per model × setting from the rows of an exam, and the recommendation: the highest
 * accuracy, ties broken by the lower median wall time, then by name (deterministic).
 */
import { emptyCalls, emptyCitations, settingsLabel, type CallCounts, type CitationCounts, type EvalRow, type EvalSettings } from "./score.js";

/** The figures of one model under one setting (`eval --json` `models[]`). */
export interface ModelSummary {
  model: string;
  settings: EvalSettings;
  questions: number;
  correct: number;
  /** correct / questions, 0..1. */
  accuracy: number;
  /** Rows whose session failed (provider error, timeout). */
  errors: number;
  /** Share of rows whose expected tool was used, 0..1. */
  right_tool: number;
  /** Mean evidence recall, 0..1. */
  evidence_recall: number;
  calls: CallCounts;
  citations: CitationCounts;
  /** Median wall time per question, ms. */
  median_ms: number;
  /** Median time to the first token, ms (absent when no row streamed). */
  median_ttft_ms?: number;
  prompt_tokens: number;
  output_tokens: number;
  /** Median output tokens per second (absent when the server gave no counts). */
  tokens_per_second?: number;
  /** Accuracy per question kind. */
  by_kind: Record<string, { questions: number; correct: number }>;
}

/** The model and setting to use. */
export interface Recommendation {
  model: string;
  settings: EvalSettings;
  accuracy: number;
  median_ms: number;
}

function median(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Groups rows by model and setting, in order of first appearance, and computes the figures. */
export function summarize(rows: readonly EvalRow[]): ModelSummary[] {
  const groups = new Map<string, EvalRow[]>();
  for (const r of rows) {
    const k = `${r.model}\u0000${settingsLabel(r.settings)}`;
    const g = groups.get(k) ?? [];
    g.push(r);
    groups.set(k, g);
  }
  const out: ModelSummary[] = [];
  for (const g of groups.values()) {
    const calls = emptyCalls();
    const citations = emptyCitations();
    const by_kind: ModelSummary["by_kind"] = {};
    let correct = 0;
    let errors = 0;
    let rightTool = 0;
    let recall = 0;
    let prompt = 0;
    let output = 0;
    for (const r of g) {
      if (r.correct) correct++;
      if (r.outcome === "error") errors++;
      if (r.right_tool) rightTool++;
      recall += r.evidence_recall;
      prompt += r.prompt_tokens ?? 0;
      output += r.output_tokens ?? 0;
      for (const k of Object.keys(calls) as Array<keyof CallCounts>) calls[k] += r.calls[k];
      for (const k of Object.keys(citations) as Array<keyof CitationCounts>) citations[k] += r.citations[k];
      const bk = (by_kind[r.kind] ??= { questions: 0, correct: 0 });
      bk.questions++;
      if (r.correct) bk.correct++;
    }
    const first = g[0]!;
    const s: ModelSummary = {
      model: first.model,
      settings: first.settings,
      questions: g.length,
      correct,
      accuracy: correct / g.length,
      errors,
      right_tool: rightTool / g.length,
      evidence_recall: recall / g.length,
      calls,
      citations,
      median_ms: median(g.map((r) => r.ms)) ?? 0,
      prompt_tokens: prompt,
      output_tokens: output,
      by_kind,
    };
    const ttft = median(g.flatMap((r) => (r.ttft_ms !== undefined ? [r.ttft_ms] : [])));
    if (ttft !== undefined) s.median_ttft_ms = ttft;
    const tps = median(g.flatMap((r) => (r.tokens_per_second !== undefined ? [r.tokens_per_second] : [])));
    if (tps !== undefined) s.tokens_per_second = tps;
    out.push(s);
  }
  return out;
}

/** Summaries best first: accuracy descending, then median time ascending, then model name. */
export function rank(summaries: readonly ModelSummary[]): ModelSummary[] {
  return [...summaries].sort(
    (a, b) =>
      b.accuracy - a.accuracy ||
      a.median_ms - b.median_ms ||
      (a.model < b.model ? -1 : a.model > b.model ? 1 : 0) ||
      (settingsLabel(a.settings) < settingsLabel(b.settings) ? -1 : 1),
  );
}

/** The best model and setting, or `undefined` when no group answered any question without error. */
export function recommend(summaries: readonly ModelSummary[]): Recommendation | undefined {
  const best = rank(summaries.filter((s) => s.errors < s.questions))[0];
  if (best === undefined) return undefined;
  return { model: best.model, settings: best.settings, accuracy: best.accuracy, median_ms: best.median_ms };
}
