/**
 * A small JSON Schema reader for tool arguments: typing of untyped values. It judges no call:
 * the verdict and its error text come from the one argument validator (`tools/argument-check.ts`)
 * through the shim's `validate` port.
 *
 * Supports the subset that zod 4's `z.toJSONSchema` emits for tool inputs and that tool
 * definitions from other servers commonly use (JSON Schema 2020-12 keywords): `type` (a name or
 * an array of names), `enum`, `const`, `properties`, `required`, `additionalProperties`,
 * `items`, `prefixItems`, `anyOf`/`oneOf`/`allOf`, `minimum`/`maximum`/`exclusiveMinimum`/
 * `exclusiveMaximum`/`multipleOf`, `minLength`/`maxLength`, `minItems`/`maxItems`.
 * Unknown keywords (`format`, `$ref`, `default`, `description` …) are ignored, which errs on the
 * side of reading a value as the schema's type. So are `pattern` and `patternProperties` (a key
 * they may govern is not judged): they are regular expressions written by whoever wrote the tool
 * (under `codecite serve`, any client), run here on the model's text, and one with nested
 * quantifiers (`^(a+)+$`) backtracks exponentially on a few dozen characters, holding the process
 * for every client. The tool's own server checks them (`tools/schema-validator.ts` likewise).
 *
 * The toolshim layer may import only `llm/` types (ARCHITECTURE.md "Layers"), so it types by the
 * JSON Schema the tool definitions carry.
 */
import { isPlainObject, parseJsonTolerant } from "./json.js";
import type { JsonSchema } from "../llm/types.js";

type Kind = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

function schemaTypes(schema: JsonSchema): Kind[] {
  const t = schema.type;
  if (typeof t === "string") return [t as Kind];
  if (Array.isArray(t)) return t.filter((x): x is Kind => typeof x === "string");
  return [];
}

function branches(schema: JsonSchema): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list)) for (const b of list) if (isPlainObject(b)) out.push(b);
  }
  return out;
}

function kindOf(v: unknown): Kind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (typeof v === "string" || typeof v === "boolean" || typeof v === "object") return typeof v as Kind;
  return "string";
}

function hasKind(v: unknown, kind: Kind): boolean {
  const k = kindOf(v);
  if (kind === "number") return k === "number" || k === "integer";
  if (kind === "integer") return k === "integer";
  return k === kind;
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Convert a string to `kind` when it unambiguously spells a value of that kind. */
function fromString(s: string, kind: Kind): { ok: true; value: unknown } | { ok: false } {
  const t = s.trim();
  switch (kind) {
    case "integer": {
      if (INTEGER.test(t)) return { ok: true, value: Number(t) };
      if (NUMBER.test(t) && Number.isInteger(Number(t))) return { ok: true, value: Number(t) };
      return { ok: false };
    }
    case "number":
      return NUMBER.test(t) ? { ok: true, value: Number(t) } : { ok: false };
    case "boolean": {
      const l = t.toLowerCase();
      if (l === "true") return { ok: true, value: true };
      if (l === "false") return { ok: true, value: false };
      return { ok: false };
    }
    case "null": {
      const l = t.toLowerCase();
      return l === "null" || l === "none" ? { ok: true, value: null } : { ok: false };
    }
    case "array":
    case "object": {
      if (!(t.startsWith("[") || t.startsWith("{"))) return { ok: false };
      const v = parseJsonTolerant(t);
      return v !== undefined && hasKind(v, kind) ? { ok: true, value: v } : { ok: false };
    }
    default:
      return { ok: false };
  }
}

/** Options of {@link coerceToSchema}. */
export interface CoerceOptions {
  /**
   * The values of the arguments object are raw text from an XML-like format (`RawCall.untyped`):
   * a string may be read as any non-string type the schema allows, even when a string is also
   * allowed (`anyOf: [array, string]` → the array), with a string as the last resort.
   */
  untyped?: boolean;
}

/** The content of a JSON string literal (`"12"` → `12`), or `undefined` when `s` is not one. */
function unquoted(s: string): string | undefined {
  const t = s.trim();
  if (t.length < 2 || t[0] !== '"' || t[t.length - 1] !== '"') return undefined;
  try {
    const v = JSON.parse(t) as unknown;
    return typeof v === "string" ? v : undefined;
  } catch {
    return undefined;
  }
}

const NON_STRING_ORDER: readonly Kind[] = ["object", "array", "integer", "number", "boolean", "null"];

/**
 * Type `value` by `schema`: a string becomes an integer, number, boolean, null, array or object
 * when the schema asks for that type and the text spells such a value (`"42"` → 42, `"true"` →
 * true, `"[1, 2]"` → [1, 2]). For JSON values this happens only when the schema does not also
 * allow a string; for untyped text (`opts.untyped`) the non-string types are tried first.
 * Arrays and objects are typed element by element (`items`, `properties`,
 * `additionalProperties`). A value that does not convert is returned unchanged (validation then
 * reports it). Without a schema nothing changes: untyped text stays a string (the ollama
 * behaviour).
 *
 * @returns a new value; the input is not mutated.
 */
export function coerceToSchema(value: unknown, schema: JsonSchema | undefined, opts: CoerceOptions = {}): unknown {
  if (!schema || !isPlainObject(schema)) return value;
  const untypedText = opts.untyped === true && typeof value === "string";
  const alts = branches(schema);
  if (alts.length > 0) {
    if (untypedText) {
      const ordered = [...alts].sort((a, b) => Number(schemaTypes(a).includes("string")) - Number(schemaTypes(b).includes("string")));
      for (const b of ordered) {
        const c = coerceToSchema(value, b, opts);
        if (fitsSchema(c, b)) return c;
      }
      return value;
    }
    if (alts.some((b) => fitsSchema(value, b))) return value;
    for (const b of alts) {
      const c = coerceToSchema(value, b);
      if (fitsSchema(c, b)) return c;
    }
    return value;
  }
  const types = schemaTypes(schema);
  if (typeof value === "string" && types.length > 0 && (untypedText || !types.includes("string"))) {
    const kinds = untypedText ? NON_STRING_ORDER.filter((k) => types.includes(k)) : types;
    // Untyped text written as a JSON string literal (`<arg_value>"12"</arg_value>`) is read inside its quotes.
    const inner = untypedText ? unquoted(value) : undefined;
    for (const kind of kinds) {
      if (kind === "string") continue;
      const r = fromString(value, kind);
      if (r.ok) return coerceToSchema(r.value, schema);
      const q = inner === undefined ? undefined : fromString(inner, kind);
      if (q?.ok) return coerceToSchema(q.value, schema);
    }
    return value;
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    return value.map((v, i) => {
      const s = prefix[i] ?? items;
      return isPlainObject(s) ? coerceToSchema(v, s) : v;
    });
  }
  if (isPlainObject(value)) {
    const props = isPlainObject(schema.properties) ? schema.properties : {};
    const extra = isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const s = props[k];
      out[k] = isPlainObject(s) ? coerceToSchema(v, s, opts) : extra ? coerceToSchema(v, extra, opts) : v;
    }
    return out;
  }
  return value;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/**
 * Whether `value` has the shape `schema` describes (types, `enum`/`const`, bounds, lengths,
 * `pattern`, item counts, required and extra properties). Used only to choose how to type a
 * value (which `anyOf` branch, whether `null` stands for an absent parameter): the verdict on a
 * call and its error text come from the argument validator (`tools/argument-check.ts`), asked
 * through the shim's `validate` port.
 */
export function fitsSchema(value: unknown, schema: JsonSchema | undefined): boolean {
  if (!schema || !isPlainObject(schema)) return true;
  const alts = branches(schema);
  if (alts.length > 0 && !alts.some((b) => fitsSchema(value, b))) return false;
  if (Array.isArray(schema.allOf) && !schema.allOf.every((b) => !isPlainObject(b) || fitsSchema(value, b))) return false;
  if ("const" in schema && !deepEqual(value, schema.const)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value))) return false;
  const types = schemaTypes(schema);
  if (types.length > 0 && !types.some((t) => hasKind(value, t))) return false;
  if (typeof value === "number") {
    const n = value;
    if (typeof schema.minimum === "number" && n < schema.minimum) return false;
    if (typeof schema.maximum === "number" && n > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === "number" && n <= schema.exclusiveMinimum) return false;
    if (typeof schema.exclusiveMaximum === "number" && n >= schema.exclusiveMaximum) return false;
    if (typeof schema.multipleOf === "number" && schema.multipleOf > 0 && !Number.isInteger(n / schema.multipleOf)) return false;
  }
  if (typeof value === "string") {
    const len = [...value].length;
    if (typeof schema.minLength === "number" && len < schema.minLength) return false;
    if (typeof schema.maxLength === "number" && len > schema.maxLength) return false;
    // `pattern` is not read: see the module comment.
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) return false;
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) return false;
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    if (!value.every((v, i) => { const s = prefix[i] ?? schema.items; return !isPlainObject(s) || fitsSchema(v, s); })) return false;
  }
  if (isPlainObject(value)) {
    const props = isPlainObject(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required) && schema.required.some((r) => typeof r === "string" && !(r in value))) return false;
    for (const [k, v] of Object.entries(value)) {
      const s = props[k];
      if (isPlainObject(s)) {
        if (!fitsSchema(v, s)) return false;
      } else if (isPlainObject(schema.patternProperties)) {
        // A key `patternProperties` may govern: not judged (its patterns are not run).
      } else if (schema.additionalProperties === false) {
        return false;
      } else if (isPlainObject(schema.additionalProperties) && !fitsSchema(v, schema.additionalProperties)) {
        return false;
      }
    }
  }
  return true;
}
