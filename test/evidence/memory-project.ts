/** An in-memory {@link ProjectView} for resolver unit tests: paths → text. */
import type { ProjectView } from "../../src/evidence/analysis/lang/language.js";

/** A view of the given files (repository-relative paths; text `""` when only existence matters). */
export function memoryProject(files: Record<string, string> | readonly string[]): ProjectView {
  const map = new Map<string, string>(Array.isArray(files) ? files.map((f) => [f, ""]) : Object.entries(files));
  const sorted = [...map.keys()].sort();
  return {
    files: sorted,
    has: (p) => map.has(p),
    readText: async (p) => map.get(p),
  };
}
