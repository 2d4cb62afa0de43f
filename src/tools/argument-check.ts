/**
 * The one argument validator of codecite. Every call's arguments are judged here, by zod, in
 * every tool-shim mode: the registry validates at dispatch, and the tool shim asks the same
 * judge through its `validate` port (`toolshim/types.ts` `ArgumentValidator`), so the same bad
 * call gets the same error text whether it came natively or as text. Tools known only by their
 * JSON Schema (the gateway's client tools, `codecite toolshim --tools tools.json`, doctor's
 * probe tool) are judged by the zod schema that `z.fromJSONSchema` builds from it
 * (`schema-validator.ts`). This module loads no zod itself: a CLI query whose arguments pass the
 * quick check never needs it (`lazy-tool.ts`).
 */
import type { z } from "zod";
import { ToolError, type ValidationIssue } from "../evidence/evidence.js";
import { advice, shortList, tool as toolTerm, type AdviceText } from "../evidence/advice.js";
import type { JsonSchema } from "./define-tool.js";

/** A requested call: name plus arguments (an object, or a JSON string as some servers send). */
export interface ToolCallRequest {
  name: string;
  arguments: unknown;
}

/** The verdict on a call's arguments: the parsed arguments (defaults applied), or the error to answer with. */
export type ArgumentCheck = { ok: true; args: unknown } | { ok: false; error: ToolError };

/** What the validator needs of a tool: its name, its zod input and the JSON Schema shown to the model. */
export interface CheckedTool {
  name: string;
  input: z.ZodType;
  parameters: JsonSchema;
}

/** The hint of an `INVALID_ARGUMENT` error: the tool's parameters as its JSON Schema `properties`. */
export function expectedParametersHint(parameters: JsonSchema | undefined): string {
  return `Expected parameters: ${JSON.stringify(parameters?.properties ?? {})}`;
}

/** The `UNKNOWN_TOOL` error for a name that is not offered, naming the tools that are. */
export function unknownToolError(name: string, available: readonly string[]): ToolError {
  return new ToolError(
    "UNKNOWN_TOOL",
    `no tool named ${JSON.stringify(name)}; the available tools are: ${available.join(", ")}`,
    "All tools are read-only. Call one of the available tools by its exact name.",
  );
}

/**
 * A call's arguments as a value: a JSON string parsed (an empty one means `{}`), `null` or
 * `undefined` as `{}`, anything else as it is; `INVALID_ARGUMENT` for a string that is not JSON.
 */
export function decodeArguments(toolName: string, raw: unknown): { ok: true; value: unknown } | { ok: false; error: ToolError } {
  if (typeof raw !== "string") return { ok: true, value: raw ?? {} };
  try {
    return { ok: true, value: raw.trim() === "" ? {} : JSON.parse(raw) };
  } catch {
    return { ok: false, error: new ToolError("INVALID_ARGUMENT", `arguments of ${toolName} are not valid JSON: ${raw.slice(0, 200)}`) };
  }
}

/**
 * Judges the arguments of one call to `tool`: a JSON string is parsed first (an empty one
 * means `{}`), then the zod input decides.
 *
 * @returns the parsed arguments, or `INVALID_ARGUMENT` with one {@link ValidationIssue} per
 *   failing parameter; the message lists them as zod's `prettifyError` does (`✖ problem` and
 *   `→ at param`), the hint is {@link expectedParametersHint}.
 */
export function checkArguments(tool: CheckedTool, raw: unknown): ArgumentCheck {
  const decoded = decodeArguments(tool.name, raw);
  if (!decoded.ok) return decoded;
  const parsed = tool.input.safeParse(decoded.value);
  if (parsed.success) return { ok: true, args: parsed.data };
  const properties = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const issues: ValidationIssue[] = [...parsed.error.issues]
    .sort((a, b) => a.path.length - b.path.length)
    .map((i) => {
      const param = dotPath(i.path);
      const expected = i.path.length > 0 ? properties[String(i.path[0])] : undefined;
      return expected === undefined ? { param, problem: i.message } : { param, problem: i.message, expected };
    });
  const listed = issues.map((i) => (i.param === "" ? `✖ ${i.problem}` : `✖ ${i.problem}\n  → at ${i.param}`)).join("\n");
  return {
    ok: false,
    error: new ToolError("INVALID_ARGUMENT", `invalid arguments for ${tool.name}: ${listed}`, expectedParametersHint(tool.parameters), issues),
  };
}

/** Characters of an ignored argument's name shown in the note (a model may write anything as a key). */
const SHOWN_KEY_CHARS = 40;

/**
 * The note for arguments a call gives that its tool does not take: the call still runs with the
 * ones it knows (zod's `z.object` and the quick check drop the others), and the model learns
 * which were ignored and what the tool takes instead (`Ignored \`stat\`: read_git_diff takes
 * base, head, path, context_lines.`). `undefined` when every key is a parameter, when the
 * arguments are not an object, or when the tool's schema admits other keys
 * (`additionalProperties`).
 */
export function ignoredArgumentsNote(tool: { name: string; parameters: JsonSchema }, raw: unknown): AdviceText | undefined {
  const decoded = decodeArguments(tool.name, raw);
  const value = decoded.ok ? decoded.value : undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const extra = tool.parameters.additionalProperties;
  if (extra !== undefined && extra !== false) return undefined;
  const known = Object.keys((tool.parameters.properties ?? {}) as Record<string, unknown>);
  const ignored = Object.keys(value).filter((k) => !known.includes(k));
  if (ignored.length === 0) return undefined;
  const shown = ignored.map((k) => `\`${k.length > SHOWN_KEY_CHARS ? `${k.slice(0, SHOWN_KEY_CHARS)}…` : k}\``);
  const takes = known.length > 0 ? `takes ${known.join(", ")}` : "takes no arguments";
  return advice`Ignored ${shortList(shown)}: ${toolTerm(tool.name)} ${takes}.`;
}

/** A validation issue's path as zod's `prettifyError` writes it (`a.b`, `a[0]`, `["odd key"]`). */
function dotPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (typeof seg === "symbol" || /[^\w$]/.test(seg)) out += `[${JSON.stringify(String(seg))}]`;
    else out += out === "" ? seg : `.${seg}`;
  }
  return out;
}
