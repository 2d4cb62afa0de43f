/**
 * codecite as a library: the public surface is exactly what this file exports.
 *
 * - Tools: `defineTool` (zod schema → JSON Schema), `ToolRegistry` (frozen whitelist, validated
 *   dispatch that never throws), `createCodeToolRegistry` (the six read-only code tools).
 * - Evidence: `Workspace` (the sandbox every file access goes through), the `Evidence` record
 *   and tool result envelope types, `ToolError`.
 * - Models: `runAgent` (the tool-calling loop with grounding), the providers
 *   (`OllamaProvider`, `OpenAIProvider`, `LlamaCppProvider`) and their message types.
 * - Tool shim: `recover` (tool calls written as text → structured calls, whitelist only) and
 *   `createInterpreter` (its optional second-model stage).
 */
export { defineTool, type Tool, type ToolSpec, type ToolContext } from "./tools/define-tool.js";
export {
  ToolRegistry,
  type ToolDefinition,
  type DispatchResult,
  type ToolCallRequest,
  type ValueSuccess,
} from "./tools/registry.js";
export { createCodeToolRegistry, CODE_TOOL_NAMES } from "./tools/code-tools.js";
export { Workspace } from "./evidence/sandbox/workspace.js";
export {
  ToolError,
  type Evidence,
  type EvidenceKind,
  type EvidenceFlag,
  type EvidenceResult,
  type SymbolKind,
  type ToolErrorCode,
  type ToolResult,
  type ToolSuccess,
  type ToolFailure,
} from "./evidence/evidence.js";
export {
  runAgent,
  DEFAULT_MAX_STEPS,
  type RunAgentOptions,
  type AgentResult,
  type AgentStep,
  type AgentEvent,
  type AgentToolshimMode,
} from "./agent/run-agent.js";
export type { Citation } from "./agent/grounding.js";
export { OllamaProvider, type OllamaProviderOptions } from "./llm/ollama.js";
export { AddressError } from "./llm/server-address.js";
export { OpenAIProvider, type OpenAIProviderOptions } from "./llm/openai.js";
export { LlamaCppProvider, type LlamaCppProviderOptions } from "./llm/llama-cpp.js";
export {
  ProviderError,
  type Provider,
  type ProviderErrorCode,
  type Message,
  type Role,
  type ToolCall,
  type ChatRequest,
  type ChatOptions,
  type ChatTurn,
  type ModelInfo,
  type JsonSchema,
} from "./llm/types.js";
export {
  recover,
  createInterpreter,
  type Interpreter,
  type RecoverOptions,
  type AssistantTurn,
  type OfferedTool,
  type RecoverResult,
  type RecoveredBy,
  type RejectedCall,
  type ShimDiagnostic,
} from "./toolshim/index.js";
export {
  generateQuestions,
  parseQuestionsFile,
  checkQuestionKeys,
  scoreResult,
  runEval,
  ResultCache,
  summarize,
  recommend,
  renderReport,
  type EvalQuestion,
  type EvalRow,
  type EvalSettings,
  type ModelSummary,
  type Recommendation,
} from "./eval/index.js";
export { repositoryCatalog, type RepositoryCatalog } from "./tools/index.js";
