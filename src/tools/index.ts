/**
 * The tools layer's surface for the layers above it (`agent/`, `mcp/`): tool definition and
 * dispatch, the built-in code tools, and the evidence types their results carry. Upper layers
 * import these from here rather than reaching into `evidence/` (ARCHITECTURE.md "Layers").
 */
export {
  ToolRegistry,
  type DispatchResult,
} from "./registry.js";
export { expectedParametersHint } from "./argument-check.js";
export { createCodeToolRegistry } from "./code-tools.js";
export { locateFile, type LocatedFile } from "./locate-file.js";
export { Workspace } from "../evidence/sandbox/workspace.js";
export { visibleText } from "../evidence/visible-text.js";
export {
  repositoryCatalog,
  type RepositoryCatalog,
  type CatalogDefinition,
} from "../evidence/catalog.js";
export type {
  Evidence,
  EvidenceKind,
  ToolErrorCode,
} from "../evidence/evidence.js";
export { referencePlace } from "../evidence/evidence.js";
