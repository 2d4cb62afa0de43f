/**
 * The stream filter's work per streamed piece does not grow with the message (issue 13), for the
 * shapes of real answers:
 * - paragraph prose with the client's tools offered (every agent offers them): each push searched
 *   the structural pattern over the whole message again, and copied the whole message (its scan
 *   window was off with tools, and with markup near the end); and so one line without a line
 *   break, from the line's start;
 * - markdown links, JSON snippets with inline code, and code fences, in paragraphs: each piece that
 *   added markup ran the whole recovery over the message before the hold point;
 * - a line of prose per piece: a read of the whole message's string copied it on every push;
 * - lines with a `>` and no blank line between them: each piece that added one recovered the whole message.
 * A reply of 12,800 pieces cost nearly 16² times one of 800, not 16 times. Compared by growth of this
 * process's CPU time over a factor of 16 in the number of pieces, the least of five runs after a
 * warm-up at both sizes, bounded by ×100 (an exponent of 1.66; linear is ×16, quadratic ×256), as
 * test/toolshim/linear.test.ts does: not a wall-clock limit. The text shown must be the whole
 * message's recovery (whitespace runs compared as equal, as the streamed-vs-whole suites do).
 */
import { describe, expect, it } from "vitest";
import { recoverDeterministic, StreamFilter } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const tools: OfferedTool[] = [{ name: "read_file" }, { name: "search_code" }];
const WORDS = "The function parses the request body and returns a typed error when the JSON is malformed. It then checks the depth".split(" ");

/**
 * The pieces of an answer: words in paragraphs of 17 (`oneLine`: no line break at all), each
 * `every`th word preceded by `markup`'s pieces; `lineBreak` ends each run of 17 words.
 */
function answer(count: number, markup: readonly string[] = [], every = 1, oneLine = false, lineBreak = "\n\n"): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const sep = i % 17 === 16 && !oneLine ? lineBreak : " ";
    if (markup.length > 0 && i % every === 0) out.push(...markup);
    out.push(sep + WORDS[i % WORDS.length]!);
  }
  return out.slice(0, count);
}

interface Shape {
  name: string;
  tools: readonly OfferedTool[];
  pieces: (count: number) => string[];
}

const SHAPES: Shape[] = [
  { name: "paragraph prose with 2 tools offered", tools, pieces: (n) => answer(n) },
  // A link as a model's tokenizer cuts it.
  { name: "markdown links in paragraphs", tools: [], pieces: (n) => answer(n, [" [", "link", "](", "http", "://", "x.y", "/z", ")"], 4) },
  { name: "JSON snippets and inline code in paragraphs", tools: [], pieces: (n) => answer(n, [' {"', "a", '":', " 1", ",", ' "b', '":', " [", "1", ",", " 2", "]}", " `", "f", "()", "`"], 3) },
  { name: "code fences between paragraphs", tools: [], pieces: (n) => answer(n, ["\n\n```", "ts", "\n", "const", " x", " =", " f", "(1", ");", "\n", "```", "\n\n"], 5) },
  // With tools offered the scan read the whole message on every push (its window was off), and so
  // it was with a `[`, `<`, `>`, `}` or `]` in the window: every push copied the whole message.
  { name: "markdown links and a[i] in paragraphs with 2 tools offered", tools, pieces: (n) => answer(n, [" [", "link", "](", "http", "://", "x.y", "/z", ")", " a", "[i", "]"], 4) },
  // One line with no line break and tools offered: the structural pattern was searched again from
  // the line's start on every push (its parts that start a line may read past the last check).
  { name: "one line of prose with no line break, 2 tools offered", tools, pieces: (n) => answer(n, [], 1, true) },
  // Lines without a blank line between them, each with a `>` (a list of mappings `a -> b`): every
  // piece that added the `>` ran the whole recovery over the message before the hold point (a
  // stretch was recovered on its own only from a paragraph break).
  { name: "lines with an arrow and no blank line, no tools", tools: [], pieces: (n) => answer(n, [" ->"], 1, false, "\n") },
  // A line per piece (an upstream that sends whole lines, as serve-backpressure.test.ts's does): a
  // read of the whole message's string, built by appending, flattened it on every push (a copy of
  // the whole message: the hold point's backtick check read `#buffer` instead of the scanned window).
  { name: "a line of prose per piece, no tools", tools: [], pieces: (n) => Array.from({ length: n }, (_, i) => `line ${i} ${WORDS.slice(0, 20).join(" ")}\n`) },
];

/** CPU microseconds (user + system) of streaming `pieces` through a filter, least of `runs`; also what it showed. */
function cpuMicros(shape: Shape, pieces: readonly string[], runs: number): { micros: number; shown: string } {
  let least = Number.POSITIVE_INFINITY;
  let shown = "";
  for (let r = 0; r < runs; r++) {
    const start = process.cpuUsage();
    const filter = new StreamFilter(shape.tools);
    shown = "";
    for (const p of pieces) shown += filter.push(p);
    shown += filter.end();
    const used = process.cpuUsage(start);
    least = Math.min(least, used.user + used.system);
  }
  return { micros: least, shown };
}

const SMALL = 800;
const FACTOR = 16;
const BOUND = 100;
const squeeze = (s: string) => s.replace(/\s+/g, " ").trim();

describe("stream filter work per piece", () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: ${FACTOR}× the pieces cost well under ${FACTOR ** 2}× the time`, () => {
      const small = shape.pieces(SMALL);
      const large = shape.pieces(SMALL * FACTOR);
      cpuMicros(shape, small, 1);
      cpuMicros(shape, large, 1);
      // A floor of 500 µs keeps a tiny small-input figure from inflating the growth.
      const a = cpuMicros(shape, small, 5);
      const b = cpuMicros(shape, large, 5);
      // Nothing held or lost: the shown text is the whole message's recovery, which keeps the markdown.
      const whole = recoverDeterministic({ content: large.join("") }, shape.tools).content;
      expect(squeeze(b.shown)).toBe(squeeze(whole));
      expect(squeeze(whole)).toBe(squeeze(large.join("")));
      expect(b.micros / Math.max(a.micros, 500)).toBeLessThan(BOUND);
    });
  }
});
