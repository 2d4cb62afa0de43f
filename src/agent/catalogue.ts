/**
 * The tool catalogue as a small context can hold it. When the full definitions would take more
 * than a quarter of the context ({@link CATALOGUE_SHARE}), they are sent in a compact form: each
 * tool's description cut to its first sentence, parameter descriptions, examples, defaults and
 * bounds dropped (names, types, enums and `required` stay; the tools still validate every
 * argument and answer a bad one with a typed error and a hint).
 */
import type { ToolDefinition } from "../llm/types.js";
import { estimateTokens } from "./context-budget.js";

/** Most of the context the tool catalogue may take before it is compacted. */
const CATALOGUE_SHARE = 0.25;

/** Estimated tokens of a catalogue as sent (its JSON). */
export function catalogueTokens(defs: readonly ToolDefinition[]): number {
  return estimateTokens(JSON.stringify(defs));
}

function firstSentence(text: string): string {
  const m = /^[\s\S]*?(?<!\b(?:e\.g|i\.e|etc|vs))[.!?](?=\s+[A-Z(`]|\s*$)/.exec(text);
  return (m ? m[0] : text).trim();
}

/** Schema keys the compact form leaves out: prose and limits the tools check themselves. */
const DROPPED_KEYS: ReadonlySet<string> = new Set(["description", "examples", "example", "$schema", "additionalProperties", "default", "minLength", "minimum", "maximum"]);

function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (DROPPED_KEYS.has(k)) continue;
    out[k] = k === "properties" && typeof v === "object" && v !== null
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([name, p]) => [name, compactSchema(p)]))
      : compactSchema(v);
  }
  return out;
}

/** The compact form of the definitions (see the module comment). */
function compactCatalogue(defs: readonly ToolDefinition[]): ToolDefinition[] {
  return defs.map((d) => ({
    type: "function",
    function: {
      name: d.function.name,
      description: firstSentence(d.function.description),
      parameters: compactSchema(d.function.parameters) as ToolDefinition["function"]["parameters"],
    },
  }));
}

/**
 * `defs` itself when it fits {@link CATALOGUE_SHARE} of `contextTokens`, else its compact form.
 */
export function fitCatalogue(defs: ToolDefinition[], contextTokens: number): ToolDefinition[] {
  return catalogueTokens(defs) <= contextTokens * CATALOGUE_SHARE ? defs : compactCatalogue(defs);
}
