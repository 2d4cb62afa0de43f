/**
 * Vitest global setup: the whole test run (workers and the CLI processes they spawn) keeps its
 * fact cache in one temporary folder, removed at the end, so `npm test` never writes into the
 * user's real cache (`~/.cache/codecite`), nor reads the user's configuration file. Tests that check the cache-folder rules set their own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export default function setup(): () => void {
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
