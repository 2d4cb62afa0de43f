/**
 * The tool shim's public surface (TEAM.md "E1 src/toolshim/index.ts exports"): recover tool
 * calls that models write as text, render the shim `on` mode prompt and history, filter a
 * streamed reply, resolve tool names.
 */
export { recover, recoverDeterministic, showsToolIntent, type Interpreter, type RecoverOptions } from "./recover.js";
export { createInterpreter, interpreterFormat, interpreterRequest, parseInterpreterReply } from "./interpreter.js";
export { renderCatalogPrompt, renderHistoryForShim } from "./prompt.js";
export { StreamFilter } from "./stream-filter.js";
export { ReasoningStream } from "./reasoning-stream.js";
export { resolveToolName } from "./names.js";
export type {
  AssistantTurn,
  OfferedTool,
  RecoverResult,
  RecoveredBy,
  RejectedCall,
  ShimDiagnostic,
} from "./types.js";
