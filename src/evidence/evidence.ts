/**
 * Evidence: the one output contract of every code tool (see ARCHITECTURE.md "Evidence").
 *
 * A record names a repository-relative, `/`-separated `path`, a 1-based inclusive line
 * range, a `kind`, a `name` and the exact `snippet` of those lines (joined with `\n`,
 * never `\r`). A snippet is shortened only when `flags` contains `truncated`.
 */

/** Where a record came from: a search hit, a definition, an import statement, a use of a definition, a read range, a diff hunk. */
export type EvidenceKind = "match" | "definition" | "import" | "reference" | "source" | "diff";

/** Kinds of definitions reported by `find_symbol` (`symbol_kind`). */
export type SymbolKind =
  | "function"
  | "class"
  | "method"
  | "interface"
  | "type"
  | "enum"
  | "variable"
  | "constant"
  | "struct"
  | "trait"
  | "module";

/** Flags that qualify a record. */
export type EvidenceFlag =
  | "truncated"
  | "type_checking"
  | "type_only"
  | "dynamic"
  | "unresolved"
  | "invisible_unicode"
  | "binary"
  | (string & {});

/** One piece of evidence. All six required fields are always present. */
export interface Evidence {
  /** Repository-relative path, `/`-separated, never starting with `/` or `./`. */
  path: string;
  /** First line, 1-based. */
  start_line: number;
  /** Last line, 1-based, inclusive (`end_line >= start_line`). */
  end_line: number;
  kind: EvidenceKind;
  /** Symbol (`definition`), resolved module (`import`), query (`match`), path (`source`, `diff`). */
  name: string;
  /** Exact text of the lines, joined with `\n`. */
  snippet: string;
  language?: string;
  symbol_kind?: SymbolKind;
  alias?: string;
  /**
   * `reference` records: the qualified name of the definition whose body holds the use (the
   * caller, `Class.method`), or the file's path for top-level code.
   */
  context?: string;
  flags?: EvidenceFlag[];
}

import { renderForModel, type AdviceText } from "./advice.js";

/** Error codes of the tool result envelope (ARCHITECTURE.md "Data flow of one ask"). */
export type ToolErrorCode =
  | "INVALID_ARGUMENT"
  | "OUTSIDE_ROOT"
  | "DENIED"
  | "NOT_FOUND"
  | "UNKNOWN_TOOL"
  | "TIMEOUT"
  | "UNSUPPORTED"
  | "INTERNAL";

/**
 * One argument that failed validation: the parameter (a dotted path, `""` for the arguments as a
 * whole), what is wrong with it in the validator's words, and the JSON Schema it must satisfy.
 */
export interface ValidationIssue {
  param: string;
  problem: string;
  /** The parameter's JSON Schema (`undefined` for an unknown parameter or the whole object). */
  expected?: Record<string, unknown>;
}

/**
 * A typed tool error. Thrown by evidence functions, turned into `{ok:false,error}` by dispatch.
 * `message` and `hint` may be {@link AdviceText} (tools and parameters as terms, see
 * `advice.ts`); `message`/`hint` are then the model's wording and `messageText`/`hintText`
 * the data each surface words itself. `issues` lists the arguments that failed validation.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  /** The message as advice data. */
  readonly messageText: AdviceText;
  /** The hint as advice data: a short, actionable hint for a small model (what to try instead). */
  readonly hintText: AdviceText | undefined;
  /** The hint in the model's words. */
  readonly hint: string | undefined;
  /** Arguments that failed validation (`INVALID_ARGUMENT` from the registry), else `undefined`. */
  readonly issues: readonly ValidationIssue[] | undefined;

  /**
   * An `INTERNAL` message passes {@link hideHostPaths}: it usually wraps a system error whose
   * text names absolute paths of this machine, which a model or an MCP client must not see.
   */
  constructor(
    readonly code: ToolErrorCode,
    message: string | AdviceText,
    hint?: string | AdviceText,
    issues?: readonly ValidationIssue[],
  ) {
    const text = renderForModel(message);
    super(code === "INTERNAL" ? hideHostPaths(text) : text);
    this.messageText = code === "INTERNAL" || typeof message === "string" ? [[this.message]] : message;
    this.hintText = hint === undefined ? undefined : typeof hint === "string" ? [[hint]] : hint;
    this.hint = hint === undefined ? undefined : renderForModel(hint);
    this.issues = issues;
  }

  /** The `error` object of the envelope. */
  toJSON(): { code: ToolErrorCode; message: string; hint?: string } {
    return this.hint === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, hint: this.hint };
  }
}

/**
 * The error for work stopped by an abort signal — the one mapping of an abort to `TIMEOUT`: the
 * signal's reason when it is a `ToolError` (a caller's deadline that names itself), else
 * `TIMEOUT` with `message` and `hint`.
 */
export function cancelledError(
  signal: AbortSignal | undefined,
  message = "the query was cancelled before it finished",
  hint?: string | AdviceText,
): ToolError {
  const reason: unknown = signal?.reason;
  return reason instanceof ToolError ? reason : new ToolError("TIMEOUT", message, hint);
}

/** Throws {@link cancelledError} when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError(signal);
}

/** What an evidence function returns on success (the envelope minus `ok`, the note as data). */
export interface EvidenceResult {
  evidence: Evidence[];
  /** The true number of records found, before any cap. */
  total: number;
  /** True when `evidence` holds fewer records than `total`, or snippets were cut. */
  truncated: boolean;
  /** Why a result is empty or short, or a hint to narrow the query (advice data, `advice.ts`). */
  note?: AdviceText;
}

/** Tool result envelope, success form: the tool message content the model sees. */
export interface ToolSuccess {
  ok: true;
  evidence: Evidence[];
  total: number;
  truncated: boolean;
  /** The note in the model's words. */
  note?: string;
}

/** Tool result envelope, failure form. */
export interface ToolFailure {
  ok: false;
  error: { code: ToolErrorCode; message: string; hint?: string };
}

export type ToolResult = ToolSuccess | ToolFailure;

/** Wraps an evidence result into the success envelope, fields in contract order. */
export function toSuccess(result: EvidenceResult): ToolSuccess {
  const out: ToolSuccess = {
    ok: true,
    evidence: result.evidence,
    total: result.total,
    truncated: result.truncated,
  };
  const note = result.note === undefined ? "" : renderForModel(result.note);
  if (note !== "") out.note = note;
  return out;
}

/** Turns any thrown value into the failure envelope (`INTERNAL` for non-`ToolError`s, host paths hidden). */
export function toFailure(err: unknown): ToolFailure {
  if (err instanceof ToolError) return { ok: false, error: err.toJSON() };
  const message = err instanceof Error ? err.message : String(err);
  return { ok: false, error: { code: "INTERNAL", message: hideHostPaths(message) } };
}

/**
 * `msg` with absolute host paths hidden: `root` (when given) becomes `.`, any other absolute
 * path (POSIX `/…`, Windows `C:\…`, after a space, a quote, `(`, `=` or `:`, or at the start)
 * becomes `<path>`. Error messages reach the model and MCP clients, which must not learn the
 * machine's layout (user names, folders outside the repository).
 */
export function hideHostPaths(msg: string, root?: string): string {
  let out = msg;
  if (root !== undefined && root !== "/" && root !== "") out = out.split(`${root}/`).join("./").split(root).join(".");
  return out.replace(/(^|[\s'"`(=:])(?:\/|[A-Za-z]:\\)[^\s'"`),]*/g, "$1<path>");
}

/**
 * Where a `reference` record's use sits, as the texts for people and models word it: `in
 * Session.request` (the caller, {@link Evidence.context}), or `at top level` when the context is
 * the record's own file (top-level code); `undefined` for other records and references without a
 * context. The name is returned as stored: callers make it visible (`visible-text.ts`).
 */
export function referencePlace(e: Evidence): string | undefined {
  if (e.kind !== "reference" || e.context === undefined) return undefined;
  return e.context === e.path ? "at top level" : `in ${e.context}`;
}

/** Orders records by path, then start line, then end line (ARCHITECTURE.md "Evidence": deterministic results). */
export function compareEvidence(a: Evidence, b: Evidence): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.start_line !== b.start_line) return a.start_line - b.start_line;
  return a.end_line - b.end_line;
}
