/**
 * Adapts JSON Schemas (tool `parameters`, structured-output `format`) to the subset that
 * node-llama-cpp turns into a GBNF grammar, and maps generated values back.
 *
 * Rules (node-llama-cpp 3.x `GbnfJsonSchema`, `getGbnfJsonTerminalForGbnfJsonSchema`):
 * - an object's grammar emits every key in `properties`, in order; `required` is not read.
 *   So a property that is not required becomes `oneOf: [<schema>, {type: "null"}]`, and
 *   `dropNullOptionals` removes those nulls from the generated value again;
 * - an object schema with no `properties` and no `additionalProperties` would only allow
 *   `{}`; we give it `additionalProperties: true` (any JSON values), which is what JSON
 *   Schema means by an unconstrained object;
 * - a schema with no `type` would only allow `null`; we turn it into "any JSON value";
 * - `anyOf` becomes `oneOf`; `const`, `enum`, `$ref`/`$defs`, `items`, `prefixItems`,
 *   `minItems`/`maxItems`, `minLength`/`maxLength`, `minProperties`/`maxProperties` and the
 *   string formats `date-time`, `time`, `date` are kept; everything else (`minimum`,
 *   `maximum`, `default`, `pattern`, other formats, `$schema`, …) is dropped. A value that
 *   breaks a dropped rule is still caught later by the registry's zod validation.
 */
import type { JsonSchema } from "./types.js";

const KEPT_STRING_FORMATS = new Set(["date-time", "time", "date"]);
const BASIC_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/** Any JSON value, in the subset's terms. */
function anyJson(): JsonSchema {
  return {
    oneOf: [
      { type: ["string", "number", "boolean", "null"] },
      { type: "object", additionalProperties: true },
      { type: "array", items: { oneOf: [{ type: ["string", "number", "boolean", "null"] }, { type: "object", additionalProperties: true }] } },
    ],
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function withDescription(out: JsonSchema, src: JsonSchema): JsonSchema {
  if (typeof src.description === "string") out.description = src.description;
  return out;
}

/**
 * Converts one JSON Schema (draft 2020-12 or 07, as zod and MCP produce) to node-llama-cpp's
 * grammar subset, following the rules in the module comment. Pure; never throws.
 */
export function toGbnfJsonSchema(schema: unknown): JsonSchema {
  if (!isRecord(schema)) return anyJson();
  const defs = isRecord(schema.$defs)
    ? Object.fromEntries(Object.entries(schema.$defs).map(([k, v]) => [k, toGbnfJsonSchema(v)]))
    : undefined;
  const out = convert(schema);
  if (defs) out.$defs = defs;
  return out;
}

function convert(s: Record<string, unknown>): JsonSchema {
  if (typeof s.$ref === "string") return withDescription({ $ref: s.$ref }, s);
  if ("const" in s) return withDescription({ const: s.const }, s);
  if (Array.isArray(s.enum)) return withDescription({ enum: s.enum }, s);
  const alternatives = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (alternatives) return withDescription({ oneOf: alternatives.map((a) => toGbnfJsonSchema(a)) }, s);
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return toGbnfJsonSchema(s.allOf[0]);

  const type = s.type;
  if (Array.isArray(type)) {
    const basic = type.filter((t): t is string => typeof t === "string" && BASIC_TYPES.has(t));
    const complex = type.filter((t) => t === "object" || t === "array");
    if (complex.length === 0 && basic.length > 0) return withDescription({ type: basic }, s);
    return withDescription(
      { oneOf: [...(basic.length > 0 ? [{ type: basic }] : []), ...complex.map((t) => convert({ ...s, type: t }))] },
      s,
    );
  }
  switch (type) {
    case "object": {
      const props = isRecord(s.properties) ? s.properties : {};
      const required = new Set(Array.isArray(s.required) ? s.required.filter((r) => typeof r === "string") : []);
      const properties: Record<string, JsonSchema> = {};
      for (const [key, sub] of Object.entries(props)) {
        const converted = toGbnfJsonSchema(sub);
        properties[key] = required.has(key) ? converted : { oneOf: [converted, { type: "null" }] };
      }
      const out: JsonSchema = { type: "object", properties };
      if (s.additionalProperties === true || isRecord(s.additionalProperties)) {
        out.additionalProperties = s.additionalProperties === true ? true : toGbnfJsonSchema(s.additionalProperties);
      } else if (Object.keys(props).length === 0 && s.additionalProperties !== false) {
        out.additionalProperties = true;
      }
      for (const k of ["minProperties", "maxProperties"] as const) if (typeof s[k] === "number") out[k] = s[k];
      return withDescription(out, s);
    }
    case "array": {
      const out: JsonSchema = { type: "array" };
      out.items = s.items === undefined ? anyJson() : toGbnfJsonSchema(s.items);
      if (Array.isArray(s.prefixItems)) out.prefixItems = s.prefixItems.map((p) => toGbnfJsonSchema(p));
      for (const k of ["minItems", "maxItems"] as const) if (typeof s[k] === "number") out[k] = s[k];
      return withDescription(out, s);
    }
    case "string": {
      if (typeof s.format === "string" && KEPT_STRING_FORMATS.has(s.format)) return withDescription({ type: "string", format: s.format }, s);
      const out: JsonSchema = { type: "string" };
      for (const k of ["minLength", "maxLength"] as const) if (typeof s[k] === "number") out[k] = s[k];
      return withDescription(out, s);
    }
    case "number":
    case "integer":
    case "boolean":
    case "null":
      return withDescription({ type }, s);
    default:
      return withDescription(anyJson(), s);
  }
}

/**
 * Removes the `null`s that `toGbnfJsonSchema` let the model write for optional properties,
 * walking `value` alongside the original `schema` (objects and arrays, `$defs` not followed).
 * Values are copied, never mutated.
 */
export function dropNullOptionals(value: unknown, schema: unknown): unknown {
  if (!isRecord(schema)) return value;
  if (Array.isArray(value)) {
    return isRecord(schema.items) ? value.map((v) => dropNullOptionals(v, schema.items)) : value;
  }
  if (!isRecord(value)) return value;
  const props = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null && key in props && !required.has(key)) continue;
    out[key] = key in props ? dropNullOptionals(v, props[key]) : v;
  }
  return out;
}
