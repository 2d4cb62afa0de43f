/**
 * Tool-call `arguments` as servers send them, turned into the object our `ToolCall` carries.
 * Ollama sends an object (some proxies a JSON string); OpenAI-compatible servers send a JSON
 * string, sometimes sloppy (trailing commas, single quotes) or encoded twice.
 */
import { repairJson } from "../json-repair.js";
import { jsonDepthExceeds } from "./json-depth.js";

/**
 * Normalises tool-call arguments to an object:
 * - an object passes unchanged;
 * - a string is parsed as JSON, else repaired with `jsonrepair` (at most `MAX_REPAIR_CHARS`,
 *   `json-repair.ts`) and parsed; a string that
 *   decodes to another JSON string (double encoding, `"{\"a\":1}"`) is decoded once more;
 * - anything else, empty text, or a value that is not an object (an array, a number) gives
 *   `{}`, so that the registry's validation names the missing fields to the model;
 * - so does a value nested deeper than `MAX_JSON_DEPTH` (64) levels (`json-depth.ts`): it could
 *   not even be serialised back into the conversation.
 */
export function parseToolArguments(raw: unknown): Record<string, unknown> {
  const v = decode(raw);
  return jsonDepthExceeds(v) ? {} : v;
}

function decode(raw: unknown): Record<string, unknown> {
  if (isObject(raw)) return raw;
  if (typeof raw !== "string") return {};
  const text = raw.trim();
  if (text === "") return {};
  for (const parse of [() => JSON.parse(text) as unknown, () => JSON.parse(repairJson(text)) as unknown]) {
    try {
      const value = parse();
      const decoded = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
      return isObject(decoded) ? decoded : {};
    } catch {
      // try the next way
    }
  }
  return {};
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
