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

/** Keywords whose value is one schema (JSON Schema 2020-12 "Core" §10, "Validation" §6). */
const SUBSCHEMA = ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "additionalItems"];
/** Keywords whose value is a list of schemas. */
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords whose value maps names to schemas (the names are data, never keywords). */
const SUBSCHEMA_MAPS = ["properties", "$defs", "definitions", "dependentSchemas"];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Keywords that name another schema (JSON Schema 2020-12 "Core" §8.2.3; `$recursiveRef` of 2019-09). */
const REFERENCES = ["$ref", "$dynamicRef", "$recursiveRef"];

/**
 * A copy of a tool's JSON Schema without the keywords that hold regular expressions: `pattern`
 * and `patternProperties` (with the `additionalProperties` of the same object, whose keys those
 * patterns would tell apart). Whoever wrote the tool wrote them (under `codecite serve`, any
 * client), and they would run here on the model's text: one with nested quantifiers (`^(a+)+$`)
 * backtracks exponentially on a few dozen characters and held the gateway, for every client,
 * 66 s on 33. The tool's own server checks them; the shim does not read them either
 * (`toolshim/schema.ts`). A property *named* `pattern` is kept. Iterative, so depth costs no stack.
 *
 * References (`$ref` and its kin) are left out too, so a schema that names another one accepts
 * any value there, as the shim reads it: a reference makes the schema a graph, which the
 * validator walks as a tree. `{"$ref": "#"}` at the top overflowed the stack (answered as a 502
 * blaming the upstream), and 20 definitions each an `anyOf` of two references to the next made
 * 2^20 checks of one argument (11 s of the gateway's one thread; 30 would take hours).
 */
function withoutPatternsOrReferences(schema: JsonSchema): JsonSchema {
  const root: Record<string, unknown> = { ...schema };
  const todo: Record<string, unknown>[] = [root];
  const copyInto = (holder: Record<string, unknown> | unknown[], key: string | number, value: unknown): void => {
    if (!isObject(value)) return;
    const copy = { ...value };
    (holder as Record<string | number, unknown>)[key] = copy;
    todo.push(copy);
  };
  for (let s = todo.pop(); s !== undefined; s = todo.pop()) {
    if (typeof s.pattern === "string") delete s.pattern;
    for (const k of REFERENCES) delete s[k];
    if ("patternProperties" in s) {
      delete s.patternProperties;
      delete s.additionalProperties;
    }
    for (const k of SUBSCHEMA) copyInto(s, k, s[k]);
    for (const k of SUBSCHEMA_LISTS) {
      const list = s[k];
      if (!Array.isArray(list)) continue;
      const copy = [...list];
      s[k] = copy;
      copy.forEach((v, i) => copyInto(copy, i, v));
    }
    for (const k of SUBSCHEMA_MAPS) {
      const map = s[k];
      if (!isObject(map)) continue;
      const copy: Record<string, unknown> = { ...map };
      s[k] = copy;
      for (const name of Object.keys(copy)) copyInto(copy, name, copy[name]);
    }
  }
  return root as JsonSchema;
}

/** A tool's zod schema from its JSON Schema (any arguments object when it has none or zod cannot read it); `pattern`s and references are not checked ({@link withoutPatternsOrReferences}). */
function checkedTool(name: string, parameters: JsonSchema | undefined): CheckedTool {
  let input: z.ZodType = z.record(z.string(), z.unknown());
  if (parameters !== undefined) {
    try {
      input = z.fromJSONSchema(withoutPatternsOrReferences(parameters) as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      // A schema zod cannot read: the arguments are still decoded and must be an object.
    }
  }
  return { name, input, parameters: parameters ?? {} };
}
