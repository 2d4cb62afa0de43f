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
 * once (`z.fromJSONSchema`), judged by {@link checkArguments}. A tool without a schema, or with
 * one zod cannot read, accepts any arguments object (the tool's own server judges them).
 *
 * @returns a function of the same shape as `ToolRegistry.validate`.
 */
export function schemaValidator(tools: readonly SchemaTool[]): (call: ToolCallRequest) => ArgumentCheck {
  const checked = new Map<string, CheckedTool>();
  for (const t of tools) {
    if (checked.has(t.name)) continue;
    let input: z.ZodType = z.record(z.string(), z.unknown());
    if (t.parameters !== undefined) {
      try {
        input = z.fromJSONSchema(t.parameters as Parameters<typeof z.fromJSONSchema>[0]);
      } catch {
        // A schema zod cannot read: the arguments are still decoded and must be an object.
      }
    }
    checked.set(t.name, { name: t.name, input, parameters: t.parameters ?? {} });
  }
  const names = [...checked.keys()];
  return (call) => {
    const tool = checked.get(call.name);
    return tool ? checkArguments(tool, call.arguments) : { ok: false, error: unknownToolError(call.name, names) };
  };
}
