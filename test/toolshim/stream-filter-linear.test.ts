/**
 * The stream filter's work per streamed piece does not grow with the message (issue 13): with the
 * client's tools offered (every agent offers them), each push searched the structural pattern over
 * the whole message again, so a reply of 6,400 pieces cost nearly 16² times one of 400, not 16 times.
 * Compared by growth of this process's CPU time over a factor of 16 in the number of pieces, the
 * least of five runs after a warm-up at both sizes, bounded by ×100 (an exponent of 1.66; linear is
 * ×16, quadratic ×256), as test/toolshim/linear.test.ts does: not a wall-clock limit.
 */
import { describe, expect, it } from "vitest";
import { StreamFilter } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const tools: OfferedTool[] = [{ name: "read_file" }, { name: "search_code" }];
const WORDS = "The function parses the request body and returns a typed error when the JSON is malformed. It then checks the depth".split(" ");

/** Piece `i` of a markdown answer in paragraphs of 17 pieces. */
function piece(i: number): string {
  return (i % 17 === 16 ? "\n\n" : " ") + WORDS[i % WORDS.length]!;
}

/** CPU microseconds (user + system) of streaming `count` pieces through a filter, least of `runs`; also what it showed. */
function cpuMicros(count: number, runs: number): { micros: number; shown: string } {
  const pieces = Array.from({ length: count }, (_, i) => piece(i));
  let least = Number.POSITIVE_INFINITY;
  let shown = "";
  for (let r = 0; r < runs; r++) {
    const start = process.cpuUsage();
    const filter = new StreamFilter(tools);
    shown = "";
    for (const p of pieces) shown += filter.push(p);
    shown += filter.end();
    const used = process.cpuUsage(start);
    least = Math.min(least, used.user + used.system);
  }
  return { micros: least, shown };
}

const SMALL = 400;
const FACTOR = 16;
const BOUND = 100;

describe("stream filter work per piece with tools offered", () => {
  it(`${FACTOR}× the pieces of paragraph prose cost well under ${FACTOR ** 2}× the time`, () => {
    cpuMicros(SMALL, 1);
    cpuMicros(SMALL * FACTOR, 1);
    // A floor of 500 µs keeps a tiny small-input figure from inflating the growth.
    const small = cpuMicros(SMALL, 5);
    const large = cpuMicros(SMALL * FACTOR, 5);
    // The prose is shown whole (nothing held or lost), paragraphs kept.
    expect(large.shown).toBe(Array.from({ length: SMALL * FACTOR }, (_, i) => piece(i)).join("").trim());
    expect(large.micros / Math.max(small.micros, 500)).toBeLessThan(BOUND);
  });
});
