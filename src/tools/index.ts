/**
 * The tools layer's surface for the layers above it (`agent/`, `mcp/`): tool definition and
 * dispatch, the built-in code tools, and the evidence types their results carry. Upper layers
 * import these from here rather than reaching into `evidence/` (ARCHITECTURE.md "Layers").
 */
export { defineTool, type Tool, type ToolSpec, type ToolContext, type JsonSchema } from "./define-tool.js";
export {
  ToolRegistry,
  type ToolDefinition,
  type DispatchResult,
  type ToolCallRequest,
  type ValueSuccess,
} from "./registry.js";
export { expectedParametersHint, schemaValidator } from "./argument-check.js";
export { createCodeToolRegistry, CODE_TOOL_NAMES } from "./code-tools.js";
export { locateFile, type LocatedFile } from "./locate-file.js";
export { Workspace } from "../evidence/sandbox/workspace.js";
export { visibleText } from "../evidence/visible-text.js";
export {
  repositoryCatalog,
  type RepositoryCatalog,
  type CatalogDefinition,
  type CatalogImport,
} from "../evidence/catalog.js";
export type {
  Evidence,
  EvidenceKind,
  EvidenceFlag,
  EvidenceResult,
  SymbolKind,
  ToolErrorCode,
  ToolFailure,
  ToolResult,
  ToolSuccess,
} from "../evidence/evidence.js";
