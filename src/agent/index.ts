/** The agent layer: the tool-calling loop, its prompt, the context budget and the grounding check. */
export {
  runAgent,
  DEFAULT_MAX_STEPS,
  DEFAULT_MAX_CALLS_PER_TURN,
  DEFAULT_SESSION_TIMEOUT_MS,
  type AgentEvent,
  type AgentResult,
  type AgentStep,
  type AgentToolshimMode,
  type RunAgentOptions,
  type StopReason,
} from "./run-agent.js";
export {
  extractCitations,
  gradeCitations,
  groundingOf,
  statusCounts,
  type Citation,
  type CitationStatus,
  type CitedLocation,
  type Grounding,
  type SeenLines,
} from "./grounding.js";
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
