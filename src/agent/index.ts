/** The agent layer: the tool-calling loop, its prompt, the context budget and the grounding check. */
export { runAgent, DEFAULT_MAX_STEPS, type AgentEvent, type AgentResult, type AgentStep, type AgentToolshimMode, type RunAgentOptions } from "./run-agent.js";
export { checkCitations, extractCitations, type Citation, type CitedLocation } from "./grounding.js";
export { SYSTEM_PROMPT } from "./prompt.js";
export {
  DEFAULT_CONTEXT_TOKENS,
  answerReserve,
  estimateTokens,
  fitHistory,
  type FitBudget,
  type FitResult,
  type NewestForm,
} from "./context-budget.js";
