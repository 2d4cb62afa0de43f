/**
 * The MCP `outputSchema` of every codecite tool: the tool result envelope of ARCHITECTURE.md
 * ("Evidence"), as a JSON Schema that MCP clients validate `structuredContent`
 * against (the official SDK client uses Ajv, so only draft-07 keywords are used and no
 * `$schema` is set). MCP requires an object schema at the root, so the success and failure
 * forms are one object with `ok` plus an `anyOf` over the fields each form requires.
 */
import type { ToolErrorCode, EvidenceKind } from "../tools/index.js";

const EVIDENCE_KINDS: readonly EvidenceKind[] = ["match", "definition", "import", "reference", "source", "diff"];
const ERROR_CODES: readonly ToolErrorCode[] = [
  "INVALID_ARGUMENT",
  "OUTSIDE_ROOT",
  "DENIED",
  "NOT_FOUND",
  "UNKNOWN_TOOL",
  "TIMEOUT",
  "UNSUPPORTED",
  "INTERNAL",
];

/** JSON Schema of one `Evidence` record (all six required fields; optional ones typed). */
const EVIDENCE_SCHEMA = {
  type: "object",
  properties: {
    path: { type: "string", description: "Repository-relative path, '/'-separated" },
    start_line: { type: "integer", minimum: 1, description: "First line, 1-based" },
    end_line: { type: "integer", minimum: 1, description: "Last line, 1-based, inclusive" },
    kind: { type: "string", enum: EVIDENCE_KINDS },
    name: { type: "string" },
    snippet: { type: "string", description: "Exact text of the lines, joined with \\n" },
    language: { type: "string" },
    symbol_kind: { type: "string" },
    alias: { type: "string" },
    context: { type: "string" },
    flags: { type: "array", items: { type: "string" } },
  },
  required: ["path", "start_line", "end_line", "kind", "name", "snippet"],
} as const;

/** JSON Schema of the tool result envelope (`{ok: true, evidence, total, truncated, note?}` or `{ok: false, error}`). */
export const TOOL_RESULT_SCHEMA = {
  type: "object",
  properties: {
    ok: { type: "boolean" },
    evidence: { type: "array", items: EVIDENCE_SCHEMA },
    total: { type: "integer", minimum: 0, description: "Records found before any cap" },
    truncated: { type: "boolean" },
    note: { type: "string" },
    error: {
      type: "object",
      properties: {
        code: { type: "string", enum: ERROR_CODES },
        message: { type: "string" },
        hint: { type: "string" },
      },
      required: ["code", "message"],
    },
    result: { description: "Value of a tool whose result is not evidence" },
  },
  required: ["ok"],
  anyOf: [
    { properties: { ok: { const: true } }, required: ["evidence", "total", "truncated"] },
    { properties: { ok: { const: true } }, required: ["result"] },
    { properties: { ok: { const: false } }, required: ["error"] },
  ],
} as const;
