/**
 * The six built-in, read-only code tools. Each is a thin binding of
 * a zod schema to an evidence function; all logic lives in `src/evidence/`. Each evidence
 * module is imported when its tool first runs, so a process that runs one tool (a CLI query)
 * loads only that tool's code.
 */
import { z } from "zod";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT } from "../evidence/budget.js";
import { ToolError } from "../evidence/evidence.js";
import type { Workspace } from "../evidence/sandbox/workspace.js";
import { USE_KINDS } from "../evidence/analysis/lang/language.js";
import { defineTool, type ToolContext } from "./define-tool.js";
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

const SYMBOL_KINDS = [
  "function",
  "class",
  "method",
  "interface",
  "type",
  "enum",
  "variable",
  "constant",
  "struct",
  "trait",
  "module",
] as const;

const maxResults = (dflt: number) =>
  z.int().min(1).max(MAX_RESULTS_LIMIT).default(dflt).describe("Maximum records returned");

const searchCodeInput = z.object({
  query: z.string().min(1).describe("Text to find (literal unless regex is true)"),
  regex: z.boolean().default(false).describe("Query is a regex (Rust syntax, no lookaround)"),
  path: z.string().optional().describe("Limit to this repository-relative file or folder"),
  glob: z.string().optional().describe("Limit to files matching this glob, e.g. '*.py' or 'src/**/*.ts'"),
  case_sensitive: z.boolean().optional().describe("Match case exactly (default: smart case)"),
  max_results: maxResults(DEFAULT_MAX_RESULTS),
});

export const findSymbolInput = z.object({
  name: z.string().min(1).describe("Symbol name; 'Class.method' allowed"),
  kind: z.enum(SYMBOL_KINDS).optional().describe("Only definitions of this kind"),
  path: z.string().optional().describe("Limit to this repository-relative file or folder"),
  max_results: maxResults(DEFAULT_MAX_RESULTS),
});

const readEvidenceInput = z.object({
  path: z.string().min(1).describe("Repository-relative file path"),
  start_line: z.int().min(1).max(100_000_000).optional().describe("First line, 1-based (default 1)"),
  end_line: z.int().min(1).max(100_000_000).optional().describe("Last line, inclusive (default: a capped window)"),
});

export const findImportersInput = z.object({
  module_name: z
    .string()
    .min(1)
    .describe("Dotted module (or its last part), JS/TS specifier, Rust path (a::b), Go import path, or file/folder path"),
  include_submodules: z
    .boolean()
    .default(false)
    .describe("Also the modules under it (pkg.sub, pkg/sub, a::b::c); default: the exact module only"),
  max_results: maxResults(DEFAULT_MAX_RESULTS),
});

const findReferencesInput = z.object({
  name: z.string().min(1).describe("The definition: 'func', 'Class.method', 'module.func', 'Type::method' or Go 'pkg.Func'"),
  path: z.string().optional().describe("The repository-relative file or folder holding the definition (to pick one of several)"),
  kind: z.enum(USE_KINDS).optional().describe("Only uses of this kind: call, import, type, inherit, value"),
  max_results: maxResults(DEFAULT_MAX_RESULTS),
});

const readGitDiffInput = z.object({
  base: z.string().optional().describe("Base commit or ref (default: HEAD)"),
  head: z.string().optional().describe("Head commit or ref (default: the working tree)"),
  path: z.string().optional().describe("Limit to this repository-relative file or folder"),
  context_lines: z.int().min(0).max(20).default(3).describe("Context lines around each change (0-20)"),
});

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

const searchCodeTool = defineTool({
  name: "search_code",
  description:
    "Search file contents with ripgrep; returns the matching lines with path and line number.",
  input: searchCodeInput,
  run: async (args, ctx) => (await import("../evidence/search.js")).searchCode(workspaceOf(ctx), args, ctx.signal, {}, ctx.output),
});

const findSymbolTool = defineTool({
  name: "find_symbol",
  description:
    "Find where a function, class, method, type or constant is defined (Python, TS/JS, Go, Rust, Java); returns the whole definition.",
  input: findSymbolInput,
  run: async (args, ctx) => (await import("../evidence/symbols.js")).findSymbol(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

const readEvidenceTool = defineTool({
  name: "read_evidence",
  description: "Read exact lines of a file (1-based, inclusive), e.g. around a search hit or a definition.",
  input: readEvidenceInput,
  run: async (args, ctx) => (await import("../evidence/read.js")).readEvidence(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

const findImportersTool = defineTool({
  name: "find_importers",
  description:
    "List the files that import a module, with each import statement. By default the exact module only " +
    "(for packages of the repository and libraries alike); include_submodules adds every module under it.",
  input: findImportersInput,
  run: async (args, ctx) => (await import("../evidence/importers.js")).findImporters(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

const findReferencesTool = defineTool({
  name: "find_references",
  description:
    "Who calls or uses a function, class, method, type or constant: every place that refers to that definition, " +
    "resolved through imports (not comments, strings or other things with the same name). Use it for 'who calls X', " +
    "'where is X used'. Each record names the caller in context and the use in flags (call, import, type, inherit, value).",
  input: findReferencesInput,
  run: async (args, ctx) => (await import("../evidence/references.js")).findReferences(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

const readGitDiffTool = defineTool({
  name: "read_git_diff",
  description: "Show git changes as hunks: working tree against HEAD by default, or between two commits.",
  input: readGitDiffInput,
  run: async (args, ctx) => (await import("../evidence/git-diff.js")).readGitDiff(workspaceOf(ctx), args, ctx.signal, ctx.output),
});

/** A frozen registry holding exactly the six code tools. */
export function createCodeToolRegistry(): ToolRegistry {
  return new ToolRegistry([searchCodeTool, findSymbolTool, readEvidenceTool, findImportersTool, findReferencesTool, readGitDiffTool]);
}
