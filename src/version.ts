/**
 * codecite's version, read from `package.json` one level above this module (`src/version.ts`
 * under tsx, `dist/version.js` when built). Imports nothing but Node, so the CLI (`--version`)
 * and the MCP server (`serverInfo.version`) share it.
 */
import { readFileSync } from "node:fs";

let cached: string | undefined;

/** The `version` field of codecite's `package.json`, e.g. `0.1.0`; `0.0.0` when it cannot be read. */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: unknown };
    cached = typeof pkg.version === "string" ? pkg.version : "0.0.0";
  } catch {
    cached = "0.0.0";
  }
  return cached;
}
