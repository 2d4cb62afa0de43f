/**
 * Arguments of a recovered call: decode, type by the tool's JSON Schema, then ask the one
 * argument validator (the `validate` port, `types.ts` `ArgumentValidator`). A call whose
 * arguments fail becomes a `RejectedCall` with `INVALID_ARGUMENT` and the validator's own text,
 * which the agent answers with a tool error the model can correct (goose's `toolshim.rs` only
 * coerces scalars and never reports).
 */
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "../llm/json-depth.js";
import { isPlainObject, parseJsonTolerant } from "./json.js";
import { coerceToSchema, fitsSchema } from "./schema.js";
import type { ArgumentValidator, OfferedTool } from "./types.js";

/** Outcome of {@link prepareArguments}. */
export type PreparedArguments =
  | { ok: true; arguments: Record<string, unknown> }
  | { ok: false; arguments: unknown; message: string; hint?: string };

/**
 * Decode raw arguments into an object: an object is taken as is; a string is parsed tolerantly
 * (double-encoded JSON `"{\"a\": 1}"`, Windows paths with single backslashes, trailing commas,
 * single quotes, unquoted keys, Python constants — `json.ts`), twice at most; an empty string,
 * `null` or a missing value means no arguments (`{}`).
 *
 * @returns the object, or a reason when the arguments are not an object.
 */
export function decodeArguments(raw: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  let v = raw;
  for (let depth = 0; depth < 2 && typeof v === "string"; depth++) {
    const s = v.trim();
    if (s === "") return { ok: true, value: {} };
    const parsed = parseJsonTolerant(s);
    if (parsed === undefined) return { ok: false, reason: "the arguments are not valid JSON" };
    v = parsed;
  }
  if (v === undefined || v === null) return { ok: true, value: {} };
  if (isPlainObject(v) && jsonDepthExceeds(v)) return { ok: false, reason: `the arguments are nested more than ${MAX_JSON_DEPTH} levels deep` };
  if (isPlainObject(v)) return { ok: true, value: v };
  return { ok: false, reason: `the arguments must be a JSON object, got ${Array.isArray(v) ? "an array" : typeof v}` };
}

/**
 * Small models write `null` for optional parameters they do not use (`{"query": "x", "path":
 * null}`). A `null` for a property that is not required and whose schema does not allow `null`
 * means "absent" and is dropped.
 */
function dropNullOptionals(args: Record<string, unknown>, schema: Record<string, unknown>): Record<string, unknown> {
  const props = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    const p = props[k];
    if (v === null && !required.includes(k) && isPlainObject(p) && !fitsSchema(null, p)) continue;
    out[k] = v;
  }
  return out;
}

/** Options of {@link prepareArguments}. */
export interface PrepareOptions {
  /** The values are raw XML text (`RawCall.untyped`). */
  untyped?: boolean;
  /** The argument validator; without it the typed arguments are accepted as they are. */
  validate?: ArgumentValidator | undefined;
}

/**
 * Prepare the arguments of a call to `tool`: decode ({@link decodeArguments}), type by the
 * tool's schema (`schema.ts` `coerceToSchema`: `"5"` → 5 for an integer parameter, `"[1,2]"` →
 * [1, 2] for an array one; strings stay strings for string parameters and without a schema;
 * `opts.untyped` for raw XML text, `RawCall.untyped`), then ask `opts.validate`.
 *
 * @returns the arguments object, or `ok: false` with the validator's message and hint. Arguments
 *   that are not JSON or not an object go to the validator as they came, so its text is the one
 *   a native call with the same arguments gets; without a validator the message says why.
 */
export function prepareArguments(raw: unknown, tool: OfferedTool, opts: PrepareOptions = {}): PreparedArguments {
  const decoded = decodeArguments(raw);
  if (!decoded.ok) {
    // A value too deep to serialise is not passed on (the caller prints and sends `arguments`).
    const deep = typeof raw !== "string" && jsonDepthExceeds(raw);
    const shown = deep ? {} : raw;
    const verdict = deep ? undefined : opts.validate?.({ name: tool.name, arguments: raw });
    if (verdict !== undefined && !verdict.ok) return rejected(shown, verdict.error);
    return { ok: false, arguments: shown, message: `invalid arguments for ${tool.name}: ${decoded.reason}.` };
  }
  const schema = tool.parameters;
  const value = schema ? dropNullOptionals(decoded.value, schema) : decoded.value;
  const typed = schema ? (coerceToSchema(value, schema, { untyped: opts.untyped === true }) as Record<string, unknown>) : value;
  const verdict = opts.validate?.({ name: tool.name, arguments: typed });
  if (verdict !== undefined && !verdict.ok) return rejected(typed, verdict.error);
  return { ok: true, arguments: typed };
}

function rejected(args: unknown, error: { message: string; hint?: string | undefined }): PreparedArguments {
  return error.hint === undefined
    ? { ok: false, arguments: args, message: error.message }
    : { ok: false, arguments: args, message: error.message, hint: error.hint };
}
