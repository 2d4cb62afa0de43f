/**
 * How thorough the property and size tests are. `npm test` runs a deterministic sample (fewer
 * split points, prefixes and generated inputs; smaller adversarial texts); `npm run test:e2e`
 * runs the same files again with every split point, prefix and run at full size, by setting
 * `CODECITE_TEST_FULL=1` (`vitest.e2e.config.ts`). CI (`.ci/run`) runs both suites.
 */

/** True in the full run (`CODECITE_TEST_FULL=1`). */
const FULL = process.env.CODECITE_TEST_FULL === "1";

/** `full` in the full run, else `sample`. */
export function thorough<T>(sample: T, full: T): T {
  return FULL ? full : sample;
}

/**
 * The positions `0..length` (inclusive) a split-point or prefix test visits: about `count` evenly
 * spaced ones (every one when `length` ≤ `count`; `Infinity` for every one), always with both ends.
 * Callers pick `count` with {@link thorough}.
 */
export function splitPoints(length: number, count: number): number[] {
  const step = Math.max(1, Math.floor(length / count));
  const points: number[] = [];
  for (let k = 0; k <= length; k += step) points.push(k);
  if (points[points.length - 1] !== length) points.push(length);
  return points;
}
