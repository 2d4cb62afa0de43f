/**
 * Vitest global setup.
 *
 * - The CLI tests spawn the built CLI (`dist/`). So that they test the current code, `dist/` is
 *   rebuilt here (`tsc -p tsconfig.build.json`, then the CLI bundle `scripts/bundle-cli.ts`, as
 *   `npm run build` does; once per run) whenever a file under `src/` is newer than `dist/cli/main.js`.
 * - The whole test run (workers and the CLI processes they spawn) keeps its fact cache in one
 *   temporary folder, removed at the end, so `npm test` never writes into the user's real cache
 *   (`~/.cache/codecite`), nor reads the user's configuration file. Tests that check the
 *   cache-folder rules set their own.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The newest modification time (ms) of the files under `dir`. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds `dist/` when it is missing or older than `src/`. */
function buildWhenStale(): void {
  const main = path.join(ROOT, "dist/cli/main.js");
  if (existsSync(main) && statSync(main).mtimeMs >= newestUnder(path.join(ROOT, "src"))) return;
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  // Then the CLI bundle, as `npm run build` does: the CLI tests run what users run.
  execFileSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bundle-cli.ts")], { cwd: ROOT, stdio: "inherit" });
}

export default function setup(): () => void {
  buildWhenStale();
  const dir = mkdtempSync(path.join(tmpdir(), "codecite-test-cache-"));
  process.env.CODECITE_CACHE_DIR = dir;
  // Nor does it read the user's configuration file (~/.config/codecite/config.yml): an empty
  // configuration folder stands in for it. Tests of the configuration files set their own.
  const configHome = mkdtempSync(path.join(tmpdir(), "codecite-test-config-"));
  process.env.XDG_CONFIG_HOME = configHome;
  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(configHome, { recursive: true, force: true });
  };
}
