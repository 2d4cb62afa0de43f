/** The eval layer: exam generation from a repository's facts, the runner, grading, figures and the HTML report. */
export {
  generateQuestions,
  parseQuestionsFile,
  checkQuestionKeys,
  type EvalQuestion,
} from "./questions.js";
export {
  scoreResult,
  type EvalRow,
  type EvalSettings,
} from "./score.js";
export { runEval, ResultCache, type EvalProgress } from "./run.js";
export { summarize, rank, recommend, type ModelSummary, type Recommendation } from "./summary.js";
export { renderReport } from "./report-html.js";
