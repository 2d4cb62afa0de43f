/**
 * Types shared by the tool-shim stages. The shim turns an assistant turn whose tool calls
 * were written as text into structured calls, deterministically where it can.
 */
import type { JsonSchema, ToolCall } from "../llm/types.js";

/**
 * Tool-shim modes (`--toolshim`, `CODECITE_TOOLSHIM`; README "Tool shim"): `off` takes native
 * calls only, `on` puts the catalogue in the prompt and reads calls from text, `auto` sends native
 * tools and also reads text calls, switching to `on` for a model without tool support.
 */
export type ToolshimMode = "auto" | "on" | "off";

/** A tool the model may call, as the shim sees it: a name and, when known, its JSON Schema. */
export interface OfferedTool {
  name: string;
  /** A display title (MCP `title`, "Search code" for `search_code`); a model may write it as the name (`names.ts`). */
  title?: string;
  description?: string;
  /** JSON Schema of the arguments; used to type untyped values (XML text) and to validate. */
  parameters?: JsonSchema;
}

/** Which stage produced the calls (`recovered_by` of `codecite toolshim --json`, README "CLI reference"). */
export type RecoveredBy = "native" | `dialect:${string}` | "inline_json" | "structural" | "interpreter" | "none";

/**
 * A call as a parser found it, before name resolution and typing. `arguments` is an object,
 * a JSON (or JSON-ish) string, or a map of untyped strings (`untyped: true`, from XML-like formats).
 */
export interface RawCall {
  name: string;
  arguments: unknown;
  /**
   * Values are untyped text (Qwen3-Coder `<parameter>`, GLM `<arg_value>` …): type them by the schema.
   * Only string values need typing; a value a parser already decoded (an array in a Continue
   * ```` ```tool ```` block) is kept as it is.
   */
  untyped?: boolean;
  /**
   * The call id exactly as the model wrote it, when the format carries one (Kimi `functions.x:0`,
   * Mistral 9-character ids, Cohere `tool_call_id`, attribute-style `id="call_…"`). Optional; for
   * history rendering in the model's own format. (Added by E2.)
   */
  id?: string;
}

/** A half-open character span `[start, end)` of the text that a parser consumed. */
export interface Span {
  start: number;
  end: number;
}

/** What one dialect parser found in a text. */
export interface DialectMatch {
  /** The calls, in order. May be empty when markup was found but held no valid call (it is still removed). */
  calls: RawCall[];
  /** Spans to remove from the visible content (call markup, including stray markers). */
  spans: Span[];
  /**
   * Reasoning text that lies inside removed spans (Harmony `analysis` messages, the
   * `analysis…assistantfinal` soup of stripped special tokens), for `thinking`. (Added by E2.)
   */
  reasoning?: string;
  /**
   * Call markup this dialect recognised but could not read (a body cut by the end of the text, broken
   * JSON, a block without a readable call), in text order. Each span is also in `spans`; the pipeline
   * decides from `name` whether it is removed and refused (an offered tool: the model is told to
   * repeat the call) or left visible (it names a tool that is not offered).
   */
  broken?: BrokenBlock[];
}

/** One unreadable call block (see {@link DialectMatch.broken}). */
export interface BrokenBlock {
  span: Span;
  /** The tool name the block shows, when one can be read. */
  name?: string;
  /** Why it could not be read, for the diagnostic and the message to the model. */
  reason: string;
}

/** What a dialect may know about where its text ends (see {@link AssistantTurn.finish_reason}). */
export interface ParseContext {
  /**
   * The text ends where the model was stopped by its token limit (finish reason `length`):
   * markup still open at the end is cut there, never closed by the end of the text.
   */
  endIsCut?: boolean;
}

/**
 * One text format family (`dialects/index.ts`). `parse` returns `null` when the text
 * holds nothing of this dialect. Parsers never throw.
 */
export interface Dialect {
  /** Corpus family name, e.g. `hermes_json`, `qwen3_coder_xml`. */
  readonly family: string;
  /** Cheap test: does the text contain this dialect's markers at all? */
  detect(text: string): boolean;
  /** Full parse. `tools` is the offered whitelist (some formats need it to tell calls from prose). */
  parse(text: string, tools: readonly OfferedTool[], context?: ParseContext): DialectMatch | null;
  /**
   * Marker prefixes that start this dialect's call markup, for streaming hold-back
   * (a suffix of the stream that could start one of these is not shown yet).
   */
  readonly markers: readonly string[];
  /**
   * Calls this family writes inside a closed reasoning block are real calls, not rehearsals
   * (Kimi-K2-Thinking interleaves its calls inside `<think>`; corpus `kimi-k2-thinking-call-inside-think`).
   * Absent/false: the pipeline's default policy applies (calls inside a closed
   * reasoning block are not executed). (Added by E2.)
   */
  readonly callsInReasoning?: boolean;
  /**
   * A real output of this family, verbatim from {@link Dialect.source}: the dialect table
   * (`docs/dialects.md`, `scripts/dialect-table.ts`) shows it, and a test checks that the dialect
   * reads a call from it.
   */
  readonly example: string;
  /** Where {@link Dialect.example} comes from: a public URL (model card, parser test, issue). */
  readonly source: string;
}

/** The assistant turn given to `recover`. */
export interface AssistantTurn {
  content: string;
  thinking?: string;
  tool_calls?: ToolCall[];
  /**
   * Why the model stopped, when the server said (OpenAI `finish_reason`, Ollama `done_reason`):
   * `length` = the token limit cut the text, so a call still open at its end is cut and not run
   * even where the model's own closer style would end it there ({@link ParseContext.endIsCut});
   * `stop` or absent = the end is judged from the text alone.
   */
  finish_reason?: "stop" | "length";
}

/** A recovery diagnostic: why something was or was not turned into a call. */
export interface ShimDiagnostic {
  stage: "reasoning" | "native" | "dialect" | "inline_json" | "structural" | "names" | "arguments" | "interpreter" | "policy";
  message: string;
}

/** A call the model clearly tried but that cannot run; the agent answers it with a tool error. */
export interface RejectedCall {
  name: string;
  arguments: unknown;
  /** Why: an unknown/forbidden tool (`UNKNOWN_TOOL`) or arguments that fail the schema (`INVALID_ARGUMENT`). */
  code: "UNKNOWN_TOOL" | "INVALID_ARGUMENT";
  message: string;
  /** What to do instead, when the validator gave a hint (the expected parameters). */
  hint?: string;
}

/**
 * The port through which the shim asks the one argument validator of codecite
 * (`ToolRegistry.validate`, or `schemaValidator` of `tools/schema-validator.ts` for tools known only
 * by their JSON Schema). It receives a call whose arguments the shim decoded and typed by the
 * schema, and judges them; its error text is the text the model gets, the same in every shim mode.
 * Without one the shim types arguments but judges nothing (the registry still does at dispatch).
 */
export type ArgumentValidator = (call: { name: string; arguments: unknown }) =>
  | { ok: true }
  | { ok: false; error: { message: string; hint?: string | undefined } };

/** Result of `recover(turn, tools)`. */
export interface RecoverResult {
  tool_calls: ToolCall[];
  /** User-visible text: markup and reasoning removed, prose around them kept. */
  content: string;
  /** Reasoning split out of the content (and the turn's own `thinking`). */
  thinking?: string;
  recovered_by: RecoveredBy;
  /** Calls that were tried but refused; each deserves a tool error message to the model. */
  rejected: RejectedCall[];
  diagnostics: ShimDiagnostic[];
  /**
   * True when the reasoning came with a prefilled opener (the chat template ended the prompt
   * with it, so the text holds only the closer, or DeepSeek call tokens are only mentioned in
   * forced-open reasoning). Streaming of later turns then treats text before a closer as
   * reasoning.
   */
  prefilledReasoning?: boolean;
}
