/**
 * The six built-in, read-only code tools. Each is a thin binding of
 * a zod schema (`code-tool-inputs.ts`) to an evidence function; all logic lives in `src/evidence/`.
 * Each evidence module is imported when its tool first runs, and the zod schemas only when
 * arguments fail the quick check against their JSON Schemas (`code-tool-parameters.ts`,
 * `lazy-tool.ts`), so a process that runs one tool (a CLI query) loads only that tool's code.
 */
import { ToolError } from "../evidence/evidence.js";
import type { Workspace } from "../evidence/sandbox/workspace.js";
import type { JsonSchema, ToolContext } from "./define-tool.js";
import { defineLazyTool } from "./lazy-tool.js";
import { CODE_TOOL_PARAMETERS } from "./code-tool-parameters.js";
import { ToolRegistry } from "./registry.js";

/** The exact model-facing names, in the order they are offered. */
export const CODE_TOOL_NAMES = [
  "search_code",
  "find_symbol",
  "read_evidence",
  "find_importers",
  "find_references",
  "read_git_diff",
] as const;

export type {
  SearchCodeArgs,
  FindSymbolArgs,
  ReadEvidenceArgs,
  ReadGitDiffArgs,
} from "../evidence/args.js";

function workspaceOf(ctx: ToolContext): Workspace {
  if (!ctx.workspace) throw new ToolError("INTERNAL", "no workspace given to a code tool");
  return ctx.workspace;
}

/** The zod schemas, loaded on first need. */
const inputs = () => import("./code-tool-inputs.js");

const searchCodeTool = defineLazyTool({
  name: "search_code",
  description:
    "Search file contents with ripgrep; returns the matching lines with path and line number.",
  parameters: CODE_TOOL_PARAMETERS.search_code as JsonSchema,
  loadInput: async () => (await inputs()).searchCodeInput,
  run: async (args, ctx) => (await import("../evidence/search.js")).searchCode(workspaceOf(ctx), args, ctx.signal, {}, ctx.output),
});

const findSymbolTool = defineLazyTool({
  name: "find_symbol",
  description:
    "Find where a function, class, method, type or constant is defined; returns the whole definition.",
  parameters: CODE_TOOL_PARAMETERS.find_symbol as JsonSchema,
  loadInput: async () => (await inputs()).findSymbolInput,
  run: async (args, ctx) => (await import("../evidence/symbols.js")).findSymbol(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

const readEvidenceTool = defineLazyTool({
  name: "read_evidence",
  description: "Read exact lines of a file (1-based, inclusive), e.g. around a search hit or a definition.",
  parameters: CODE_TOOL_PARAMETERS.read_evidence as JsonSchema,
  loadInput: async () => (await inputs()).readEvidenceInput,
  run: async (args, ctx) => (await import("../evidence/read.js")).readEvidence(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

const findImportersTool = defineLazyTool({
  name: "find_importers",
  description:
    "List the files that import a module, with each import statement. By default the exact module only " +
    "(for packages of the repository and libraries alike); include_submodules adds every module under it.",
  parameters: CODE_TOOL_PARAMETERS.find_importers as JsonSchema,
  loadInput: async () => (await inputs()).findImportersInput,
  run: async (args, ctx) => (await import("../evidence/importers.js")).findImporters(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

const findReferencesTool = defineLazyTool({
  name: "find_references",
  description:
    "Who calls or uses a function, class, method, type or constant: every place that refers to that definition, " +
    "resolved through imports (not comments, strings or other things with the same name). Use it for 'who calls X', " +
    "'where is X used'. Each record names the caller in context and the use in flags (call, import, type, inherit, value).",
  parameters: CODE_TOOL_PARAMETERS.find_references as JsonSchema,
  loadInput: async () => (await inputs()).findReferencesInput,
  run: async (args, ctx) => (await import("../evidence/references.js")).findReferences(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

const readGitDiffTool = defineLazyTool({
  name: "read_git_diff",
  description: "Show git changes as hunks: working tree against HEAD by default, or between two commits.",
  parameters: CODE_TOOL_PARAMETERS.read_git_diff as JsonSchema,
  loadInput: async () => (await inputs()).readGitDiffInput,
  run: async (args, ctx) => (await import("../evidence/git-diff.js")).readGitDiff(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

/** A frozen registry holding exactly the six code tools. */
export function createCodeToolRegistry(): ToolRegistry {
  return new ToolRegistry([searchCodeTool, findSymbolTool, readEvidenceTool, findImportersTool, findReferencesTool, readGitDiffTool]);
}
