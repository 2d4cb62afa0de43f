import { configDefaults, defineConfig } from "vitest/config";

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
];

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...E2E_FILES],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/global-setup.ts"],
  },
});
