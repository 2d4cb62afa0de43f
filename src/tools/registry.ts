/**
 * `ToolRegistry`: the frozen whitelist of tools a model may call, and dispatch with
 * argument validation. Dispatch never throws: every failure becomes a typed envelope.
 */
import type { z } from "zod";
import { joinAdvice, renderForModel, type AdviceText } from "../evidence/advice.js";
import { ToolError, toFailure, toSuccess, type EvidenceResult, type ToolFailure, type ToolSuccess } from "../evidence/evidence.js";
import { checkArguments, decodeArguments, ignoredArgumentsNote, unknownToolError, type ArgumentCheck, type ToolCallRequest } from "./argument-check.js";
import type { ToolDefinition } from "../llm/types.js";
import type { Tool, ToolContext } from "./define-tool.js";

export type { ToolDefinition };

/** Success envelope of a tool whose result is not evidence (library tools). */
export interface ValueSuccess {
  ok: true;
  result: unknown;
}

/** What dispatch returns: the evidence envelope, a value envelope, or a typed failure. */
export type DispatchResult = ToolSuccess | ValueSuccess | ToolFailure;

export type { ToolCallRequest } from "./argument-check.js";

function isEvidenceResult(v: unknown): v is EvidenceResult {
  return (
    typeof v === "object" &&
    v !== null &&
    Array.isArray((v as EvidenceResult).evidence) &&
    typeof (v as EvidenceResult).total === "number"
  );
}

export class ToolRegistry {
  readonly #tools: ReadonlyMap<string, Tool>;

  /** @throws Error on a duplicate tool name. */
  constructor(tools: readonly Tool<z.ZodType, unknown>[]) {
    const map = new Map<string, Tool>();
    for (const t of tools) {
      if (map.has(t.name)) throw new Error(`duplicate tool name ${t.name}`);
      map.set(t.name, t as Tool);
    }
    this.#tools = map;
    Object.freeze(this);
  }

  /** Tool names in registration order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Definitions in the Ollama/OpenAI `tools` shape, in registration order. */
  definitions(): ToolDefinition[] {
    return [...this.#tools.values()].map((t) => ({
      type: "function" as const,
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }

  /**
   * Validates and runs one call. Unknown names give `UNKNOWN_TOOL` naming the available
   * tools; arguments that fail the schema give `INVALID_ARGUMENT` with one
   * {@link ValidationIssue} per failing parameter (the message lists them in zod's words, the
   * hint spells the expected parameters); a `ToolError` thrown by the tool keeps its code;
   * anything else is `INTERNAL`. Arguments the tool does not take are left out and named, with
   * the parameters it takes, first in the result's `note` or last in the error's `hint`
   * (`argument-check.ts` `ignoredArgumentsNote`).
   */
  async dispatch(call: ToolCallRequest, ctx: ToolContext = {}): Promise<DispatchResult> {
    return (await this.run(call, ctx)).result;
  }

  /**
   * {@link dispatch}, with the advice as data beside the envelope: the success `note`, or the
   * `ToolError` of a failure (its `messageText`, `hintText` and `issues`), for surfaces that word
   * advice themselves (the CLI).
   */
  async run(call: ToolCallRequest, ctx: ToolContext = {}): Promise<DispatchOutcome> {
    // Arguments the quick check cannot vouch for are judged by the schema, loaded first if need be.
    const tool = this.#tools.get(call.name);
    const checked = this.#quick(call) ?? (await tool?.loadInput(), this.validate(call));
    if (!checked.ok) return failed(checked.error);
    // Arguments the tool does not take are dropped by validation; the result says which (argument-check.ts).
    const ignored = ignoredArgumentsNote(tool!, call.arguments);
    try {
      const value = await tool!.run(checked.args, ctx);
      if (!isEvidenceResult(value)) return { result: { ok: true, result: value } };
      const note = ignored === undefined ? value.note : joinAdvice(ignored, value.note);
      return note === undefined ? { result: toSuccess(value) } : { result: toSuccess({ ...value, note }), note };
    } catch (err) {
      return err instanceof ToolError ? failed(err, ignored) : { result: toFailure(err) };
    }
  }

  /**
   * Validates the arguments of a call against its tool's schema, without running it: the
   * parsed arguments (defaults applied), or the `ToolError` dispatch would answer with
   * (`UNKNOWN_TOOL`, or `INVALID_ARGUMENT` with its issues, its hint ending with the arguments
   * the tool does not take when there are some). The one argument validator of
   * codecite: the tool shim asks it too, so the same bad call gets the same error in every mode.
   * Arguments the tool's quick check vouches for ({@link Tool.precheck}) are taken as it parsed
   * them; the others are judged by the schema (of a tool whose schema loads on demand, only
   * after {@link ready}; before it, such a call throws).
   */
  validate(call: ToolCallRequest): ArgumentCheck {
    const tool = this.#tools.get(call.name);
    if (!tool) return { ok: false, error: unknownToolError(call.name, this.names()) };
    const check = this.#quick(call) ?? checkArguments(tool, call.arguments);
    const ignored = check.ok ? undefined : ignoredArgumentsNote(tool, call.arguments);
    if (check.ok || ignored === undefined) return check;
    const { code, messageText, hintText, issues } = check.error;
    return { ok: false, error: new ToolError(code, messageText, joinAdvice(hintText, ignored), issues) };
  }

  /**
   * Loads the input schema of every tool whose schema loads on demand (`lazy-tool.ts`): after
   * it, {@link validate} can judge any call. Sessions that validate calls outside dispatch (the
   * agent's tool shim) await it first; {@link run} and {@link dispatch} need no such step.
   */
  async ready(): Promise<void> {
    await Promise.all([...this.#tools.values()].map((t) => t.loadInput()));
  }

  /** The quick check's verdict ({@link Tool.precheck}) when it vouches for the arguments, else undefined. */
  #quick(call: ToolCallRequest): ArgumentCheck | undefined {
    const tool = this.#tools.get(call.name);
    if (tool?.precheck === undefined) return undefined;
    const decoded = decodeArguments(tool.name, call.arguments);
    const args = decoded.ok ? tool.precheck(decoded.value) : undefined;
    return args === undefined ? undefined : { ok: true, args };
  }
}

/** A dispatch result, with the advice data the envelope's strings were rendered from. */
export interface DispatchOutcome {
  result: DispatchResult;
  /** The success note as advice data. */
  note?: AdviceText;
  /** The typed error of a failure (code, `messageText`, `hintText`, `issues`). */
  error?: ToolError;
}

/** The failure of `error`; an ignored-arguments note goes after its hint (the arguments may be why it failed). */
function failed(error: ToolError, ignored?: AdviceText): DispatchOutcome {
  const result = toFailure(error);
  if (ignored !== undefined) result.error.hint = renderForModel(joinAdvice(error.hintText, ignored));
  return { result, error };
}
