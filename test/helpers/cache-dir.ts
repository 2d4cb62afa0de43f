/**
 * Teardown of the tests that point the fact cache at a temporary folder (`CODECITE_CACHE_DIR`):
 * the shared fact index is closed (its SQLite store lives in that folder), the variable gets back
 * the value it had before the file ran, and the folder is removed.
 */
import { rmSync } from "node:fs";
import { FactIndex } from "../../src/fact-cache/fact-index.js";

/**
 * @param saved - `process.env.CODECITE_CACHE_DIR` as read when the test file loaded (`undefined`: unset).
 * @param tmp - the temporary folder holding the cache (and often the test's trees): removed.
 */
export function restoreCacheDir(saved: string | undefined, tmp: string): void {
  FactIndex.closeShared();
  if (saved === undefined) delete process.env.CODECITE_CACHE_DIR;
  else process.env.CODECITE_CACHE_DIR = saved;
  rmSync(tmp, { recursive: true, force: true });
}
