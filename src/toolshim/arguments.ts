/**
 * Arguments of a recovered call: decode, type by the tool's JSON Schema,
 * validate. A call whose arguments still fail becomes a `RejectedCall` with `INVALID_ARGUMENT`,
 * which the agent answers with a tool error the model can correct (goose's
 * `toolshim.rs` only coerces scalars and never reports).
 */
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "../llm/json-depth.js";
import { isPlainObject, parseJsonTolerant } from "./json.js";
import { coerceToSchema, validateAgainstSchema } from "./schema.js";
import type { OfferedTool } from "./types.js";

/** Outcome of {@link prepareArguments}. */
export type PreparedArguments =
  | { ok: true; arguments: Record<string, unknown> }
  | { ok: false; arguments: unknown; message: string };

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
    if (v === null && !required.includes(k) && isPlainObject(p) && validateAgainstSchema(null, p).length > 0) continue;
    out[k] = v;
  }
  return out;
}

/** ` Expected arguments: {k: type, opt?: type}.` for a tool with a schema, else `""` (appended to tool errors). */
export function schemaHint(tool: OfferedTool): string {
  const props = tool.parameters?.properties;
  if (!isPlainObject(props)) return "";
  const required = Array.isArray(tool.parameters?.required) ? (tool.parameters.required as unknown[]) : [];
  const parts = Object.entries(props).map(([k, s]) => {
    const t = isPlainObject(s) ? s.type : undefined;
    const type = Array.isArray(t) ? t.join("|") : typeof t === "string" ? t : "any";
    return `${k}${required.includes(k) ? "" : "?"}: ${type}`;
  });
  return parts.length > 0 ? ` Expected arguments: {${parts.join(", ")}}.` : "";
}

/**
 * Prepare the arguments of a call to `tool`: decode ({@link decodeArguments}), type by the
 * tool's schema (`schema.ts` `coerceToSchema`: `"5"` → 5 for an integer parameter, `"[1,2]"` →
 * [1, 2] for an array one; strings stay strings for string parameters and without a schema;
 * `opts.untyped` for raw XML text, `RawCall.untyped`),
 * then validate (`validateAgainstSchema`: required, types, enums, bounds).
 *
 * @returns the arguments object, or `ok: false` with a message naming the problem, the tool and
 *   its expected parameters (at most three problems are listed).
 */
export function prepareArguments(raw: unknown, tool: OfferedTool, opts: { untyped?: boolean } = {}): PreparedArguments {
  const decoded = decodeArguments(raw);
  if (!decoded.ok) {
    // A value too deep to serialise is not passed on (the caller prints and sends `arguments`).
    const shown = typeof raw === "string" || !jsonDepthExceeds(raw) ? raw : {};
    return { ok: false, arguments: shown, message: `invalid arguments for ${tool.name}: ${decoded.reason}.${schemaHint(tool)}` };
  }
  const schema = tool.parameters;
  const value = schema ? dropNullOptionals(decoded.value, schema) : decoded.value;
  const typed = schema ? (coerceToSchema(value, schema, opts) as Record<string, unknown>) : value;
  const problems = schema ? validateAgainstSchema(typed, schema) : [];
  if (problems.length > 0) {
    const listed = problems.slice(0, 3).join("; ") + (problems.length > 3 ? `; and ${problems.length - 3} more` : "");
    return { ok: false, arguments: typed, message: `invalid arguments for ${tool.name}: ${listed}.${schemaHint(tool)}` };
  }
  return { ok: true, arguments: typed };
}
