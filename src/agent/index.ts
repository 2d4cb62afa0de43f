/** The agent layer: the tool-calling loop, its prompt, the context budget and the grounding check. */
export {
  runAgent,
  type AgentEvent,
  type AgentResult,
  type AgentToolshimMode,
  type RunAgentOptions,
} from "./run-agent.js";
export {
  gradeCitations,
  type Citation,
} from "./grounding.js";
export { SYSTEM_PROMPT } from "./prompt.js";
export { REASK_SEPARATOR } from "./finish.js";
