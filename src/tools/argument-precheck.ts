/**
 * The quick argument check: arguments against a tool's JSON Schema (as data), for the subset of
 * JSON Schema the built-in code tools' inputs use — an object whose properties are strings
 * (`minLength`, `maxLength`, `enum`), integers (`minimum`, `maximum`), numbers or booleans, with
 * `required` and `default` (https://json-schema.org/draft/2020-12/json-schema-validation).
 *
 * It only ever says "certainly valid": it returns the arguments as the tool's zod schema would
 * parse them (keys the schema does not name dropped, defaults filled in), or `undefined` when the
 * arguments fail or use anything it does not know (a key present with the value `undefined`, a
 * non-plain object, an unknown schema keyword). On `undefined` the registry asks the zod schema,
 * whose answer and messages rule. It exists so that a CLI query with good arguments never loads
 * zod; `test/tools/argument-precheck.test.ts` checks, over generated arguments, that every
 * accepted input parses to the same value with zod.
 */
import type { JsonSchema } from "./define-tool.js";

const PROPERTY_KEYWORDS = new Set(["type", "description", "default", "minLength", "maxLength", "minimum", "maximum", "enum"]);
const OBJECT_KEYWORDS = new Set(["type", "properties", "required", "description"]);

type Property = Record<string, unknown>;

/** Whether `value` satisfies one property schema; `undefined`: a keyword this check does not know. */
function propertyHolds(schema: Property, value: unknown): boolean | undefined {
  for (const k of Object.keys(schema)) if (!PROPERTY_KEYWORDS.has(k)) return undefined;
  const { type, minLength, maxLength, minimum, maximum } = schema;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  switch (type) {
    case "string":
      if (typeof value !== "string") return false;
      // zod's string length checks count UTF-16 code units (String.length), as here.
      if (typeof minLength === "number" && value.length < minLength) return false;
      if (typeof maxLength === "number" && value.length > maxLength) return false;
      return true;
    case "integer":
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return false;
      // zod's z.int() takes safe integers only.
      if (type === "integer" && !Number.isSafeInteger(value)) return false;
      if (typeof minimum === "number" && value < minimum) return false;
      if (typeof maximum === "number" && value > maximum) return false;
      return true;
    case "boolean":
      return typeof value === "boolean";
    default:
      return undefined;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The parsed arguments when `raw` certainly satisfies `schema`, else `undefined` (see the module
 * comment: the caller then asks the authoritative validator).
 */
export function precheckArguments(schema: JsonSchema, raw: unknown): Record<string, unknown> | undefined {
  if (schema.type !== "object" || !isPlainObject(raw)) return undefined;
  for (const k of Object.keys(schema)) if (!OBJECT_KEYWORDS.has(k)) return undefined;
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(properties)) {
    if (!isPlainObject(prop)) return undefined;
    if (!Object.hasOwn(raw, name)) {
      if (required.includes(name)) return undefined;
      if ("default" in prop) {
        const d = prop.default;
        if (d !== null && typeof d === "object") return undefined;
        out[name] = d;
      }
      continue;
    }
    const value = raw[name];
    if (value === undefined || propertyHolds(prop, value) !== true) return undefined;
    out[name] = value;
  }
  return out;
}
