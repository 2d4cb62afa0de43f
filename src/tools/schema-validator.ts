/**
 * The argument validator for tools known only by their JSON Schema (the gateway's client tools,
 * `codecite toolshim --tools tools.json`, doctor's probe tool): each schema becomes a zod schema
 * (`z.fromJSONSchema`) judged by the one validator, `argument-check.ts` {@link checkArguments}.
 */
import { z } from "zod";
import { checkArguments, unknownToolError, type ArgumentCheck, type CheckedTool, type ToolCallRequest } from "./argument-check.js";
import type { JsonSchema } from "./define-tool.js";

/** A tool as a JSON Schema alone (an OpenAI/Ollama tool definition's `function`). */
export interface SchemaTool {
  name: string;
  parameters?: JsonSchema;
}

/**
 * The validator for tools known only by their JSON Schema: each schema becomes a zod schema
 * (`z.fromJSONSchema`) when a call first names its tool, and is judged by {@link checkArguments}.
 * A tool without a schema, or with one zod cannot read, accepts any arguments object (the tool's
 * own server judges them). Schemas are converted on demand because most turns call no tool or
 * one, and converting costs about 0.2 ms per schema (the gateway makes a validator per request
 * with the client's whole tool list).
 *
 * @returns a function of the same shape as `ToolRegistry.validate`.
 */
export function schemaValidator(tools: readonly SchemaTool[]): (call: ToolCallRequest) => ArgumentCheck {
  const schemas = new Map<string, JsonSchema | undefined>();
  for (const t of tools) if (!schemas.has(t.name)) schemas.set(t.name, t.parameters);
  const checked = new Map<string, CheckedTool>();
  const names = [...schemas.keys()];
  return (call) => {
    if (!schemas.has(call.name)) return { ok: false, error: unknownToolError(call.name, names) };
    let tool = checked.get(call.name);
    if (tool === undefined) {
      tool = checkedTool(call.name, schemas.get(call.name));
      checked.set(call.name, tool);
    }
    return checkArguments(tool, call.arguments);
  };
}

/** A tool's zod schema from its JSON Schema (any arguments object when it has none or zod cannot read it). */
function checkedTool(name: string, parameters: JsonSchema | undefined): CheckedTool {
  let input: z.ZodType = z.record(z.string(), z.unknown());
  if (parameters !== undefined) {
    try {
      input = z.fromJSONSchema(parameters as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      // A schema zod cannot read: the arguments are still decoded and must be an object.
    }
  }
  return { name, input, parameters: parameters ?? {} };
}
