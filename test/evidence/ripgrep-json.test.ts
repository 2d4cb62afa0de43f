/**
 * `RgJsonReader` delivers the same events however ripgrep's output is cut into chunks: the whole
 * lines of a chunk are decoded together (one `toString` and a string split), the line a previous
 * chunk began and the unfinished last one go through the per-line path, and events over the parse
 * limit through the streaming tokenizer. One byte at a time is the reference (every line then
 * takes the per-line path).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RgJsonReader, type RgJsonEvent } from "../../src/evidence/ripgrep-json.js";

const RUNS = { numRuns: 200, seed: 20261202 };

/** A ripgrep-like event line (begin, match with text or bytes, end, summary) or junk. */
const eventLine = fc.oneof(
  fc.record({ p: fc.string({ maxLength: 12 }) }).map(({ p }) => JSON.stringify({ type: "begin", data: { path: { text: p } } })),
  fc
    .record({
      p: fc.string({ maxLength: 12 }),
      line: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 200 })),
      n: fc.integer({ min: 1, max: 10_000 }),
      start: fc.nat(50),
      bytes: fc.boolean(),
    })
    .map(({ p, line, n, start, bytes }) =>
      JSON.stringify({
        type: "match",
        data: {
          path: bytes ? { bytes: Buffer.from(p).toString("base64") } : { text: p },
          lines: { text: `${line}\n` },
          line_number: n,
          absolute_offset: n * 10,
          submatches: [{ match: { text: "x" }, start, end: start + 1 }],
        },
      }),
    ),
  fc.record({ p: fc.string({ maxLength: 12 }) }).map(({ p }) => JSON.stringify({ type: "end", data: { path: { text: p }, binary_offset: null, stats: { searches: 1 } } })),
  fc.nat(99).map((n) => JSON.stringify({ type: "summary", data: { stats: { searches: n } } })),
  fc.string({ maxLength: 20 }).map((s) => s.replace(/\n/g, " ")),
  fc.constant(""),
);

function read(text: Buffer, cuts: readonly number[], maxParsedBytes: number, stopAfter = Infinity): RgJsonEvent[] {
  const out: RgJsonEvent[] = [];
  const reader = new RgJsonReader((ev) => (out.push(ev) >= stopAfter ? "stop" : undefined), { maxParsedBytes, keptLineBytes: 64 });
  let from = 0;
  for (const to of [...cuts, text.length]) {
    if (reader.push(text.subarray(from, to)) === "stop") return out;
    from = to;
  }
  reader.end();
  return out;
}

describe("RgJsonReader chunking", () => {
  it("gives the same events for any cut of the stream into chunks, with or without a stop", () => {
    fc.assert(
      fc.property(
        fc.array(eventLine, { maxLength: 30 }),
        fc.boolean(),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
        fc.constantFrom(64, 256, 1 << 20),
        fc.integer({ min: 1, max: 12 }),
        (lines, finalNewline, fractions, maxParsedBytes, stopAfter) => {
          const text = Buffer.from(lines.join("\n") + (finalNewline ? "\n" : ""));
          const cuts = [...new Set(fractions.map((f) => Math.floor(f * text.length)))].sort((a, b) => a - b);
          const byteAtATime = [...Array(text.length).keys()].slice(1);
          expect(read(text, cuts, maxParsedBytes)).toEqual(read(text, byteAtATime, maxParsedBytes));
          expect(read(text, cuts, maxParsedBytes, stopAfter)).toEqual(read(text, byteAtATime, maxParsedBytes, stopAfter));
        },
      ),
      RUNS,
    );
  });

  it("reads the events of one chunk holding several whole lines, a line begun before it and an unfinished one", () => {
    const match = (n: number, text: string) =>
      JSON.stringify({ type: "match", data: { path: { text: "a.py" }, lines: { text }, line_number: n, absolute_offset: 0, submatches: [{ start: 2, end: 3 }] } });
    const stream = Buffer.from(
      [JSON.stringify({ type: "begin", data: { path: { text: "a.py" } } }), match(1, "é x\n"), match(2, "y x\n"), JSON.stringify({ type: "summary", data: { stats: { searches: 4 } } })].join("\n") + "\n",
    );
    const second = stream.indexOf("\n") + 10; // inside the first match line
    const events = read(stream, [second, stream.length - 5], 1 << 20);
    expect(events).toEqual([
      { type: "match", path: { text: "a.py" }, lines: { text: "é x\n" }, complete: true, line_number: 1, absolute_offset: 0, first_start: 2 },
      { type: "match", path: { text: "a.py" }, lines: { text: "y x\n" }, complete: true, line_number: 2, absolute_offset: 0, first_start: 2 },
      { type: "summary", searches: 4 },
    ]);
  });
});
