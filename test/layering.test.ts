/**
 * ARCHITECTURE.md "Layers": arrows point down only. Each folder of `src/` may
 * import only the layers listed for it (plus itself, Node built-ins and npm packages).
 * Exceptions recorded here, each so that one concept has one home: `config.ts` re-exports the
 * Ollama address rules from `llm/server-address.ts` (one normaliser serves the provider and the
 * configuration), takes the shim-mode type from `toolshim/types.ts` and the agent's defaults from
 * `agent/defaults.ts` (a module with no imports: a repository file may not raise them); `tools/` takes the
 * `JsonSchema` and `ToolDefinition` types from `llm/types.ts` (the chat APIs' tool shape);
 * `config-file.ts` takes the "did you mean" ranking of `evidence/close-names.ts` (a module with no
 * imports) for a misspelt key, and `toolshim/` its edit distance for a misspelt tool name.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src");

/** Allowed targets per layer. A layer is a top-level folder or file of src/ (without `.ts`). */
const ALLOWED: Record<string, readonly string[]> = {
  evidence: ["fact-cache", "paths", "json-repair"],
  "fact-cache": ["paths"],
  paths: [],
  "json-repair": [],
  tools: ["evidence", "llm/types"],
  llm: ["json-repair"],
  toolshim: ["llm", "json-repair", "evidence/close-names"],
  agent: ["tools", "llm", "toolshim"],
  config: ["llm/server-address", "config-file", "toolshim/types", "agent/defaults"],
  "config-file": ["evidence/close-names"],
  version: [],
  mcp: ["tools", "version", "paths"],
  serve: ["agent", "toolshim", "llm", "tools"],
  eval: ["agent", "tools", "llm", "toolshim"],
  cli: ["*"],
  "index.ts": ["*"],
};

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else if (name.endsWith(".ts")) out.push(full);
  }
  return out;
}

/** Every module specifier of a file: static imports, re-exports and `import()` with a literal. */
function specifiers(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/g)) out.push(m[1]!);
  for (const m of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push(m[1]!);
  return out;
}

/** The layer of a src-relative path: `evidence/analysis/lang/go.ts` → `evidence`; `config.ts` → `config`. */
function layerOf(rel: string): string {
  if (rel === "index.ts") return "index.ts";
  const first = rel.split("/")[0]!;
  return first.replace(/\.ts$/, "");
}

/** Upward or sideways imports of one file that the table does not allow. */
function violations(file: string): string[] {
  const rel = path.relative(SRC, file).split(path.sep).join("/");
  const layer = layerOf(rel);
  const allowed = ALLOWED[layer];
  if (!allowed) return [`${rel}: layer ${layer} is not in the table`];
  if (allowed.includes("*")) return [];
  const bad: string[] = [];
  for (const spec of specifiers(readFileSync(file, "utf8"))) {
    if (!spec.startsWith(".")) continue;
    const target = path.relative(SRC, path.resolve(path.dirname(file), spec)).split(path.sep).join("/");
    const targetNoExt = target.replace(/\.(js|ts)$/, "");
    const targetLayer = layerOf(target.replace(/\.js$/, ".ts"));
    if (targetLayer === layer) continue;
    if (allowed.includes(targetLayer) || allowed.includes(targetNoExt)) continue;
    bad.push(`${rel} imports ${spec}`);
  }
  return bad;
}

describe("layering (ARCHITECTURE.md)", () => {
  const files = filesUnder(SRC);

  it("sees every layer of the table", () => {
    const layers = new Set(files.map((f) => layerOf(path.relative(SRC, f).split(path.sep).join("/"))));
    for (const l of ["evidence", "fact-cache", "tools", "llm", "toolshim", "agent", "config", "cli", "mcp", "index.ts"]) {
      expect(layers.has(l)).toBe(true);
    }
  });

  it("no module imports a layer above it or beside it", () => {
    expect(files.flatMap(violations)).toEqual([]);
  });

  it("the check sees an upward import", () => {
    expect(specifiers('import { x } from "../config.js";\nexport * from "./types.js";\nawait import("../agent/x.js");')).toEqual([
      "../config.js",
      "./types.js",
      "../agent/x.js",
    ]);
  });
});
