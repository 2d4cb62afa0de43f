/**
 * How long tests wait for work that takes real time: the processes they start, the servers they
 * talk to, timers. CI (`.ci/run`) runs on a loaded two-core machine where a process may get a small
 * share of a core for minutes (the tests' own workers and children, and whatever else runs), so
 * these bounds are far above what the work takes on an idle machine: they end a test that hangs,
 * they do not measure speed (speed is measured by `npm run bench`, never by a test).
 */

/** Vitest's per-test and per-hook timeout for both suites (`vitest.config.ts`), in ms. */
export const TEST_TIMEOUT_MS = 300_000;

/**
 * The time after which a test kills a child process it waits for (a CLI run, a pseudo-terminal
 * session), in ms: below {@link TEST_TIMEOUT_MS}, so that a child that hangs is reported with its
 * output rather than as a test timeout.
 */
export const CHILD_TIMEOUT_MS = 240_000;
