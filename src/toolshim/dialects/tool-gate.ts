/**
 * A loose plausibility gate on tool names, for dialects WITHOUT explicit call markers (bare JSON
 * lists, bare pythonic lists, Functionary v3.2 headers, fenced JSON). Such text only counts as a
 * call when it names something that could be an offered tool; otherwise it is prose and stays
 * visible (ollama `tools/tools.go` emits only offered tools; the ollama pull #17742 design for bare
 * `<function=…>`). Dialects with explicit markers return whatever name the model wrote and leave
 * the decision to the pipeline's `resolveToolName`.
 *
 * The gate is deliberately looser than name resolution (which runs afterwards and is the only
 * authority): case-insensitive; ignores `functions.`/`functions:`/`default_api.` prefixes and
 * `:N` indices; treats `.`, `-` and runs of `_` alike; accepts a match on a `_`-separated suffix
 * in either direction (`developer__shell` ~ `shell`).
 */
import type { OfferedTool } from "../types.js";

function normalise(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^(?:functions?|tools?|default_api)[.:]+/, "")
    .replace(/:\d+$/, "")
    .replace(/[.\-\s_]+/g, "_");
}

/** Whether `name` could refer to one of `tools` (see the module comment for the exact rule). */
export function plausiblyOffered(name: string, tools: readonly OfferedTool[]): boolean {
  const n = normalise(name);
  if (n === "" || n === "_") return false;
  return tools.some((t) => {
    const tn = normalise(t.name);
    return tn === n || tn.endsWith("_" + n) || n.endsWith("_" + tn);
  });
}
