import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { TEST_TIMEOUT_MS } from "./test/helpers/patience.js";

/**
 * The slowest end-to-end files (each spawns the built CLI many times or builds very large trees):
 * they run in their own suite, `npm run test:e2e` (`vitest.e2e.config.ts`), which `.ci/run` runs
 * after `npm test`.
 */
export const E2E_FILES = [
  "test/e2e/**/*.test.ts",
  "test/integrations/doctor.test.ts",
  "test/integrations/ask-openai.test.ts",
  "test/integrations/ask-llama-cpp.test.ts",
  "test/eval/eval-cli.test.ts",
  "test/evidence/bad-input-resources.test.ts",
  "test/serve/third-party-agent.test.ts",
  "test/cli/human-output.test.ts",
  "test/fact-cache/incremental-queries.test.ts",
];

/**
 * Property and size tests that `npm test` runs on a deterministic sample (`test/helpers/thoroughness.ts`):
 * the end-to-end suite runs them again in full (every split point and prefix, 1 MB inputs).
 */
export const FULL_RUN_FILES = [
  "test/toolshim/stream-filter.test.ts",
  "test/toolshim/adversarial-work.test.ts",
  "test/toolshim/linear.test.ts",
  "test/toolshim/dialects/dialect-registry.test.ts",
  "test/toolshim/dialects/extra-prefixes.test.ts",
];

/**
 * Files of pure functions (the tool shim's parsers, the tool schemas, the layering check): no fact
 * cache, no process-wide state, no child process. They share one module graph per worker
 * (`isolate: false`), which saves a fresh worker and module load per file (about two thirds of a
 * second of CPU each). Every other file runs isolated. (A test that spawns the CLI belongs in `test/cli/`.)
 */
const SHARED_FILES = ["test/toolshim/**/*.test.ts", "test/tools/**/*.test.ts", "test/layering.test.ts", "test/paths.test.ts"];

/** Settings common to both suites (the timeouts: `test/helpers/patience.ts`). */
export const COMMON = {
  testTimeout: TEST_TIMEOUT_MS,
  hookTimeout: TEST_TIMEOUT_MS,
  pool: "forks",
  // Vitest's default is one worker less than the cores (one worker on a two-core machine); the
  // tests spend much of their time waiting for the processes and servers they start, so every core gets one.
  maxWorkers: availableParallelism(),
} as const;

export default defineConfig({
  test: {
    ...COMMON,
    projects: [
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...E2E_FILES, ...SHARED_FILES],
          globalSetup: ["test/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: { name: "shared", include: SHARED_FILES, isolate: false },
      },
    ],
  },
});
