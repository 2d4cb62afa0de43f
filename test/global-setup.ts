/**
 * Vitest global setup: the whole test run (workers and the CLI processes they spawn) keeps its
 * fact cache in one temporary folder, removed at the end, so `npm test` never writes into the
 * user's real cache (`~/.cache/codecite`). Tests that check the cache-folder rules set their own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), "codecite-test-cache-"));
  process.env.CODECITE_CACHE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
