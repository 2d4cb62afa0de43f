/** The end-to-end suite (`npm run test:e2e`): the files `vitest.config.ts` lists in `E2E_FILES`, with its settings. */
import { defineConfig } from "vitest/config";
import base, { E2E_FILES } from "./vitest.config.js";

export default defineConfig({ test: { ...base.test, include: E2E_FILES, exclude: [] } });
