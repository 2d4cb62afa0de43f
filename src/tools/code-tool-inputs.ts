/**
 * The zod input schemas of the six code tools: the rules their arguments follow (the registry
 * validates with them). This module is loaded on demand (`code-tools.ts`): a CLI query whose
 * arguments pass the quick check never loads zod. Their JSON Schemas, as data, are
 * `code-tool-parameters.ts`, generated from these by `scripts/tool-parameters.ts`.
 */
import { z } from "zod";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT } from "../evidence/budget.js";
import { MAX_LINE_NUMBER } from "../evidence/read.js";
import { USE_KINDS } from "../evidence/analysis/lang/language.js";

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

export const searchCodeInput = z.object({
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

export const readEvidenceInput = z.object({
  path: z.string().min(1).describe("Repository-relative file path"),
  start_line: z.int().min(1).max(MAX_LINE_NUMBER).optional().describe("First line, 1-based (default 1)"),
  end_line: z.int().min(1).max(MAX_LINE_NUMBER).optional().describe("Last line, inclusive (default: a capped window)"),
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

export const findReferencesInput = z.object({
  name: z.string().min(1).describe("The definition: 'func', 'Class.method', 'module.func', 'Type::method' or Go 'pkg.Func'"),
  path: z.string().optional().describe("The repository-relative file or folder holding the definition (to pick one of several)"),
  kind: z.enum(USE_KINDS).optional().describe("Only uses of this kind: call, import, type, inherit, value"),
  max_results: maxResults(DEFAULT_MAX_RESULTS),
});

export const readGitDiffInput = z.object({
  base: z.string().optional().describe("Base commit or ref (default: HEAD)"),
  head: z.string().optional().describe("Head commit or ref (default: the working tree)"),
  path: z.string().optional().describe("Limit to this repository-relative file or folder"),
  context_lines: z.int().min(0).max(20).default(3).describe("Context lines around each change (0-20)"),
});
