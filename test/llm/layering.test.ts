/**
 * DESIGN.md "Layers": `llm/` imports nothing outside itself (only its own modules, Node
 * built-ins and its client packages), so providers can be used without the rest of codecite.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const LLM = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/llm");

/** Every module specifier of a file: static imports, re-exports and `import()` with a literal. */
function specifiers(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/g)) out.push(m[1]!);
  for (const m of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push(m[1]!);
  return out;
}

describe("src/llm layering", () => {
  const files = readdirSync(LLM).filter((f) => f.endsWith(".ts"));

  it("finds the provider modules", () => {
    expect(files).toEqual(expect.arrayContaining(["ollama.ts", "openai.ts", "llama-cpp.ts", "server-address.ts", "types.ts"]));
  });

  it.each(files)("%s imports only ./ modules and packages", (file) => {
    const upward = specifiers(readFileSync(path.join(LLM, file), "utf8")).filter((s) => s.startsWith("..") || s.startsWith("/"));
    expect(upward).toEqual([]);
  });

  it("the check sees an upward import", () => {
    expect(specifiers('import { x } from "../config.js";\nexport * from "./types.js";')).toEqual(["../config.js", "./types.js"]);
  });
});
