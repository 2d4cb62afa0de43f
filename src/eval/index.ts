/** The eval layer: exam generation from a repository's facts, the runner, grading, figures and the HTML report. */
export {
  generateQuestions,
  parseQuestionsFile,
  checkQuestionKeys,
  questionFingerprint,
  type EvalQuestion,
  type GenerateOptions,
  type KeyLocation,
  type QuestionKind,
} from "./questions.js";
export {
  scoreResult,
  citationStatus,
  settingsLabel,
  type CallCounts,
  type CitationCounts,
  type CitationStatus,
  type EvalRow,
  type EvalSettings,
  type SessionMeasures,
} from "./score.js";
export { runEval, ResultCache, type EvalProgress, type RunEvalOptions } from "./run.js";
export { summarize, rank, recommend, type ModelSummary, type Recommendation } from "./summary.js";
export { renderReport, type ReportMeta } from "./report-html.js";
