/**
 * Turning a parsed JSON (or Python-literal) value into calls. Key drift is tolerated as
 * public parsers see it (ollama `tools/tools.go`, vLLM `hermes`, ollama pull #12413): the name under `name` (or Cohere's `tool_name`), the
 * arguments under `arguments`, `parameters`, `args` or `input`, as an object or as a JSON string
 * (granite4 / `bare-stringified-arguments`), and the OpenAI envelope
 * `{"type": "function", "function": {…}}`. A tool definition echoed back (a `description` and a
 * JSON Schema as `parameters`) is not a call.
 */
import { isPlainObject, parseJsonTolerant } from "../json.js";
import type { RawCall } from "../types.js";

/** Keys that may hold the tool name, in priority order. */
const NAME_KEYS = ["name", "tool_name"] as const;
/** Keys that may hold the arguments, in priority order. */
const ARGUMENT_KEYS = ["arguments", "parameters", "args", "input"] as const;

/** Options for {@link callFromObject}. */
export interface CallShapeOptions {
  /**
   * Require an arguments key whose value decodes to an object. Set it for text without explicit
   * call markers, where `{"name": "Alice"}` is data, not a call (`bare-prose-name-only-decoy`).
   * Without it, a missing arguments key means a zero-argument call `{}` and an undecodable value is
   * passed through for the pipeline to reject with a tool error.
   */
  requireArguments?: boolean;
  /** Restrict the accepted arguments keys (Llama 3 JSON: `parameters` only). Default {@link ARGUMENT_KEYS}. */
  argumentKeys?: readonly string[];
}

/**
 * Decode an arguments value: objects as they are; `null`/absent/empty string as `{}`; a string
 * holding a JSON object (tolerant parse) as that object.
 * @returns the object, or `undefined` when the value is not an object (a scalar, an array, a
 *   string that is not a JSON object).
 */
function decodeArguments(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (isPlainObject(value)) return value;
  if (typeof value === "string") {
    if (value.trim() === "") return {};
    const parsed = parseJsonTolerant(value);
    return isPlainObject(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** The id the model gave the call, if any (`id`, `tool_call_id`, `call_id`). */
function callId(obj: Record<string, unknown>): string | undefined {
  for (const key of ["id", "tool_call_id", "call_id"]) {
    const v = obj[key];
    if (typeof v === "string" && v !== "") return v;
    if (typeof v === "number") return String(v);
  }
  return undefined;
}

/**
 * Whether an object is a tool definition rather than a call: a catalogue entry a model echoes back
 * (`{"name", "description", "parameters": {"type": "object", "properties": …}}`, the OpenAI
 * `{"type": "function", "function": {…}}` form; goose issue#7235 shows small models regurgitating
 * the catalogue). It has a `description` string and its arguments are a JSON Schema object.
 */
function isToolDefinition(obj: Record<string, unknown>, args: unknown): boolean {
  return (
    typeof obj["description"] === "string" &&
    isPlainObject(args) &&
    args["type"] === "object" &&
    isPlainObject(args["properties"])
  );
}

/**
 * Read one call from an object.
 * @returns the call, or `undefined` when the object is not call-shaped (no string name, or, with
 *   `requireArguments`, no object arguments).
 */
export function callFromObject(value: unknown, opts: CallShapeOptions = {}): RawCall | undefined {
  if (!isPlainObject(value)) return undefined;
  const fn = value["function"];
  if (isPlainObject(fn) && (value["type"] === undefined || value["type"] === "function")) {
    const inner = callFromObject(fn, opts);
    if (inner && inner.id === undefined) {
      const id = callId(value);
      if (id !== undefined) inner.id = id;
    }
    return inner;
  }
  let name: string | undefined;
  for (const key of NAME_KEYS) {
    const v = value[key];
    if (typeof v === "string" && v.trim() !== "") {
      name = v.trim();
      break;
    }
  }
  if (name === undefined) return undefined;
  const keys = opts.argumentKeys ?? ARGUMENT_KEYS;
  const argKey = keys.find((k) => k in value);
  if (argKey !== undefined && isToolDefinition(value, value[argKey])) return undefined;
  let args: unknown;
  if (argKey === undefined) {
    if (opts.requireArguments) return undefined;
    args = {};
  } else {
    const decoded = decodeArguments(value[argKey]);
    if (decoded === undefined && opts.requireArguments) return undefined;
    args = decoded ?? value[argKey];
  }
  const call: RawCall = { name, arguments: args };
  const id = callId(value);
  if (id !== undefined) call.id = id;
  return call;
}

/**
 * Read calls from a parsed payload: one call-shaped object, or a non-empty array whose every
 * element is call-shaped.
 * @returns the calls, or `undefined` when the payload is not (entirely) calls; an empty array is
 *   not a call (`phi4mini-empty-list`).
 */
export function callsFromValue(value: unknown, opts: CallShapeOptions = {}): RawCall[] | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const calls: RawCall[] = [];
    for (const item of value) {
      const call = callFromObject(item, opts);
      if (!call) return undefined;
      calls.push(call);
    }
    return calls;
  }
  const call = callFromObject(value, opts);
  return call ? [call] : undefined;
}
