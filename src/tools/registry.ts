/**
 * `ToolRegistry`: the frozen whitelist of tools a model may call, and dispatch with
 * argument validation. Dispatch never throws: every failure becomes a typed envelope.
 */
import { z } from "zod";
import {
  ToolError,
  toFailure,
  toSuccess,
  type EvidenceResult,
  type ToolFailure,
  type ToolSuccess,
} from "../evidence/evidence.js";
import type { JsonSchema, Tool, ToolContext } from "./define-tool.js";

/** A tool definition as the Ollama and OpenAI chat APIs take it (`tools[]`). */
export interface ToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

/** Success envelope of a tool whose result is not evidence (library tools). */
export interface ValueSuccess {
  ok: true;
  result: unknown;
}

/** What dispatch returns: the evidence envelope, a value envelope, or a typed failure. */
export type DispatchResult = ToolSuccess | ValueSuccess | ToolFailure;

/** A requested call: name plus arguments (an object, or a JSON string as some servers send). */
export interface ToolCallRequest {
  name: string;
  arguments: unknown;
}

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
   * tools; arguments that fail the schema give `INVALID_ARGUMENT` with zod's readable
   * message; a `ToolError` thrown by the tool keeps its code; anything else is `INTERNAL`.
   */
  async dispatch(call: ToolCallRequest, ctx: ToolContext = {}): Promise<DispatchResult> {
    const tool = this.#tools.get(call.name);
    if (!tool) {
      return toFailure(
        new ToolError(
          "UNKNOWN_TOOL",
          `no tool named ${JSON.stringify(call.name)}; the available tools are: ${this.names().join(", ")}`,
          "All tools are read-only. Call one of the available tools by its exact name.",
        ),
      );
    }
    let raw: unknown = call.arguments ?? {};
    if (typeof raw === "string") {
      const text = raw;
      try {
        raw = text.trim() === "" ? {} : JSON.parse(text);
      } catch {
        return toFailure(
          new ToolError("INVALID_ARGUMENT", `arguments of ${tool.name} are not valid JSON: ${text.slice(0, 200)}`),
        );
      }
    }
    const parsed = tool.input.safeParse(raw);
    if (!parsed.success) {
      return toFailure(
        new ToolError(
          "INVALID_ARGUMENT",
          `invalid arguments for ${tool.name}: ${z.prettifyError(parsed.error)}`,
          `Expected parameters: ${JSON.stringify(tool.parameters.properties ?? {})}`,
        ),
      );
    }
    try {
      const value = await tool.run(parsed.data, ctx);
      return isEvidenceResult(value) ? toSuccess(value) : { ok: true, result: value };
    } catch (err) {
      return toFailure(err);
    }
  }
}
