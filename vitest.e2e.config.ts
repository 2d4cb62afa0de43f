/**
 * The end-to-end suite (`npm run test:e2e`): the files `vitest.config.ts` lists in `E2E_FILES`, and
 * the sampled property and size tests (`FULL_RUN_FILES`) in full (`CODECITE_TEST_FULL=1`), with the common settings.
 */
import { defineConfig } from "vitest/config";
import { COMMON, E2E_FILES, FULL_RUN_FILES } from "./vitest.config.js";

export default defineConfig({
  test: { ...COMMON, include: [...E2E_FILES, ...FULL_RUN_FILES], env: { CODECITE_TEST_FULL: "1" }, globalSetup: ["test/global-setup.ts"] },
});
