/**
 * `defineTool`: one typed tool — a name, a description, a zod input schema and a `run`
 * function. The same definition serves the agent loop, the CLI and the MCP server.
 */
import { z } from "zod";
import type { OutputScope } from "../evidence/budget.js";
import type { Workspace } from "../evidence/sandbox/workspace.js";

/** What a tool's `run` receives besides its validated arguments. */
export interface ToolContext {
  /** The sandbox every file access goes through; required by the built-in code tools. */
  workspace?: Workspace;
  /** Aborts long work (ripgrep, git, parsing) when the caller gives up. */
  signal?: AbortSignal;
  /** How much of the result to return (default: the model's budget; `{all: true}` for `codecite … --all`). */
  output?: OutputScope;
}

import type { JsonSchema } from "../llm/types.js";

export type { JsonSchema };

export interface ToolSpec<S extends z.ZodType, R> {
  /** Model-facing name: `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`. */
  name: string;
  /** One or two sentences for the model: what it returns and when to use it. */
  description: string;
  /** Input schema. Integers must carry real bounds (they are shown to the model). */
  input: S;
  /**
   * Does the work. Returns a JSON-serialisable value; the built-in code tools return an
   * `EvidenceResult`. Throws `ToolError` for typed failures.
   */
  run(args: z.output<S>, ctx: ToolContext): Promise<R> | R;
}

export interface Tool<S extends z.ZodType = z.ZodType, R = unknown> extends ToolSpec<S, R> {
  /** JSON Schema of the input, from `z.toJSONSchema(input, {io: "input"})` without `$schema`. */
  readonly parameters: JsonSchema;
  /**
   * The input schema, loaded if need be. (`input` of a tool from `defineLazyTool`, `lazy-tool.ts`,
   * is readable only once this has resolved.)
   */
  loadInput(): Promise<S>;
  /**
   * The quick argument check of a tool whose `parameters` show every rule of its schema
   * (`argument-precheck.ts`): the parsed arguments when certainly valid, else `undefined` and the
   * schema decides. Absent: the schema always decides.
   */
  precheck?(raw: unknown): Record<string, unknown> | undefined;
}

const NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;

/**
 * Defines a tool. Its JSON Schema (zod 4 `toJSONSchema`, input side so that defaulted fields
 * are optional) is computed once, when `parameters` is first read (a CLI query that only
 * validates and runs one tool never needs it); the result is frozen.
 * @throws Error when the name is not a valid tool name or the schema is not an object schema.
 */
export function defineTool<S extends z.ZodType, R>(spec: ToolSpec<S, R>): Tool<S, R> {
  if (!NAME.test(spec.name)) throw new Error(`invalid tool name ${JSON.stringify(spec.name)}`);
  if (!(spec.input instanceof z.ZodObject)) throw new Error(`tool ${spec.name}: input must be a z.object schema`);
  let schema: JsonSchema | undefined;
  const tool = { ...spec, loadInput: () => Promise.resolve(spec.input) as Promise<S> } as unknown as Tool<S, R>;
  Object.defineProperty(tool, "parameters", {
    enumerable: true,
    get(): JsonSchema {
      if (schema === undefined) {
        const s = z.toJSONSchema(spec.input, { io: "input" }) as JsonSchema;
        delete s.$schema;
        schema = Object.freeze(s);
      }
      return schema;
    },
  });
  return Object.freeze(tool);
}
