/**
 * `defineLazyTool`: a tool whose JSON Schema is given as data and whose zod schema is loaded only
 * when needed — when arguments fail the quick check (`argument-precheck.ts`) and zod must say why,
 * or when a caller asks for the schema. The built-in code tools are defined this way
 * (`code-tools.ts`), so a CLI query with good arguments never loads zod.
 *
 * The data must be exactly the zod schema's JSON Schema, and the schema must have no rule its
 * JSON Schema does not show (no refinements): for the code tools, both are checked by
 * `test/tools/code-tool-parameters.test.ts`.
 */
import type { z } from "zod";
import { precheckArguments } from "./argument-precheck.js";
import type { JsonSchema, Tool, ToolContext } from "./define-tool.js";

export interface LazyToolSpec<S extends z.ZodType, R> {
  /** Model-facing name: `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`. */
  name: string;
  description: string;
  /** The JSON Schema of `loadInput()`'s schema, input side, as data. */
  parameters: JsonSchema;
  /** Loads the zod input schema (e.g. a dynamic import); called at most once. */
  loadInput(): Promise<S>;
  run(args: z.output<S>, ctx: ToolContext): Promise<R> | R;
}

/** Defines a lazily validated tool (see the module comment). The result is frozen. */
export function defineLazyTool<S extends z.ZodType, R>(spec: LazyToolSpec<S, R>): Tool<S, R> {
  let loaded: S | undefined;
  let loading: Promise<S> | undefined;
  const parameters = Object.freeze(spec.parameters);
  const tool = {
    name: spec.name,
    description: spec.description,
    parameters,
    run: spec.run,
    precheck: (raw: unknown) => precheckArguments(parameters, raw),
    loadInput: () =>
      (loading ??= spec.loadInput().then((s) => {
        loaded = s;
        return s;
      })),
  };
  Object.defineProperty(tool, "input", {
    enumerable: true,
    get(): S {
      if (loaded === undefined) throw new Error(`tool ${spec.name}: its input schema loads on demand; await loadInput() first`);
      return loaded;
    },
  });
  return Object.freeze(tool) as unknown as Tool<S, R>;
}
