/**
 * Quadratic work in the tool shim (issue 9, kind 10): adversarial model text of about 1 MB —
 * unbalanced or deeply nested brackets, long runs of spaces or backticks — costs work linear in
 * its length. The JSON scanner is checked by its work counter (steps ≤ c·n, no clock); the other
 * stages by finishing 1 MB inputs whose quadratic cost would be hours, and by their results.
 * `npm test` runs every shape at a quarter of its size (the bound and the results are the same
 * at any size); the full run (`npm run test:e2e`, `test/helpers/thoroughness.ts`) at full size.
 */
import { describe, expect, it } from "vitest";
import { BALANCE_BUDGET_FACTOR, MAX_FAILED_NESTING, PARSE_BUDGET_FACTOR, scanJsonValues, type ScanMeter } from "../../src/toolshim/json.js";
import { findCodeRegions, tidy } from "../../src/toolshim/residue.js";
import { inlineCodeRanges } from "../../src/toolshim/dialects/text-scan.js";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";
import { thorough } from "../helpers/thoroughness.js";

/** The size of the large inputs, in characters: 1 MiB in the full run, 256 KiB in the sampled one; every size below scales with it. */
const SIZE = thorough(1 << 18, 1 << 20);
const fill = (unit: string, size = SIZE): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const CALL = '{"name": "search_code", "arguments": {"query": "needle"}}';
const tools: OfferedTool[] = [{ name: "search_code" }, { name: "read_evidence" }];

/** Shapes that made the scanner superlinear: unclosed openers, nested unparseable candidates, quoting tricks. */
const QUARTER = SIZE / 4;
const SHAPES: Record<string, string> = {
  "[ repeated (full size)": fill("["),
  '{"a":[ repeated (full size)': fill('{"a":['),
  "{a nested deep (a quarter of the size), then closed": "{a".repeat(QUARTER / 4) + "}".repeat(QUARTER / 4),
  "JSON nested deep failing at the innermost value": '{"a":'.repeat(QUARTER / 6) + "x" + "}".repeat(QUARTER / 6),
  "{ repeated": fill("{", QUARTER),
  "{a repeated (unclosed prose braces)": fill("{a", QUARTER),
  "{a} repeated (many small unparseable values)": fill("{a}", QUARTER),
  "[ then } (mismatch at the end)": "[".repeat(QUARTER / 2) + "}".repeat(QUARTER / 2),
  'alternating quote contexts "{': fill('"{', QUARTER),
  "single-quote contexts ['": fill("['", QUARTER),
  "mixed quotes and openers": fill("{'[\"", QUARTER),
  "only ] and } (no opener)": fill("]}", QUARTER),
  "escaped quotes inside a string": '{"a": "' + fill('\\"{[', QUARTER - 8),
};

function measure(text: string): { steps: number } {
  const meter: ScanMeter = { steps: 0 };
  scanJsonValues(text, { meter });
  return { steps: meter.steps };
}

describe("scanJsonValues: work is linear in the text length (counted, not timed)", () => {
  // Bracket matching is capped at BALANCE_BUDGET_FACTOR·n, parsing at (1 + PARSE_BUDGET_FACTOR)·n:
  // the bound below leaves no room for n·depth or n² behaviour.
  const perChar = BALANCE_BUDGET_FACTOR + 1 + PARSE_BUDGET_FACTOR;
  for (const [name, text] of Object.entries(SHAPES)) {
    it(`${name}: steps ≤ ${perChar}·n`, () => {
      const { steps } = measure(text);
      expect(steps).toBeLessThanOrEqual(perChar * text.length);
    });
  }

  it("a real call after a nesting bomb is still found", () => {
    const bomb = "{a".repeat(Math.round(SIZE / 20)) + "}".repeat(Math.round(SIZE / 20));
    const found = scanJsonValues(`${bomb}\n${CALL}`);
    expect(found.map((v) => v.value)).toContainEqual({ name: "search_code", arguments: { query: "needle" } });
  });

  it("calls inside a few levels of prose or code braces are still found", () => {
    const text = `{ see { the call { ${CALL} } here } }`;
    expect(scanJsonValues(text).map((v) => v.value)).toEqual([{ name: "search_code", arguments: { query: "needle" } }]);
    const deep = "{ x ".repeat(MAX_FAILED_NESTING + 3) + CALL + " }".repeat(MAX_FAILED_NESTING + 3);
    // Too deep inside unparseable text: not tried (a bound, stated by MAX_FAILED_NESTING).
    expect(scanJsonValues(deep)).toEqual([]);
  });
});

describe("other shim stages on large adversarial text finish and stay correct", () => {
  it("tidy trims line ends without rescanning runs of spaces (<a followed by a full size of spaces)", () => {
    const text = `<a${" ".repeat(SIZE)}<a${" ".repeat(SIZE)}b\nkeep  \t\n\n\n\nend   `;
    expect(tidy(text)).toBe(`<a${" ".repeat(SIZE)}<a${" ".repeat(SIZE)}b\nkeep\n\nend`);
    expect(tidy(`x${" ".repeat(SIZE)}\ny`)).toBe("x\ny");
  });

  it("inline code spans follow CommonMark (equal backtick runs) on a full size of backticks", () => {
    expect(findCodeRegions("a `x` b ``y`z`` c ```no` d").filter((r) => !r.fenced).map((r) => [r.start, r.end])).toEqual([
      [2, 5],
      [8, 15],
    ]);
    for (const text of [fill("`"), fill("` ", QUARTER), fill("``x`", QUARTER), fill("`a\n\n", QUARTER)]) {
      const regions = findCodeRegions(text);
      for (const r of regions) expect(r.end).toBeGreaterThan(r.start);
    }
    expect(inlineCodeRanges("a `x` b ``y`z`` c")).toEqual([
      { start: 3, end: 4 },
      { start: 10, end: 13 },
    ]);
    expect(inlineCodeRanges(fill("` ", QUARTER))).toHaveLength(QUARTER / 4);
    expect(inlineCodeRanges(fill("`` ` ", QUARTER)).length).toBeGreaterThan(0);
    expect(inlineCodeRanges(fill("`"))).toEqual([]);
  });

  const PIPELINE: Record<string, string> = {
    "<a followed by a fifth of the size in spaces, twice": `<a${" ".repeat(Math.round(SIZE / 5))}<a${" ".repeat(Math.round(SIZE / 5))}`,
    "<tool_call> repeated": "<tool_call>".repeat(SIZE / 64),
    "``` repeated": fill("```", QUARTER),
    "` and spaces repeated": fill("` ", QUARTER),
    "{a nested deep": "{a".repeat(QUARTER / 4) + "}".repeat(QUARTER / 4),
  };
  for (const [name, bomb] of Object.entries(PIPELINE)) {
    it(`recoverDeterministic: ${name}, then a real call`, () => {
      const r = recoverDeterministic({ content: `${bomb}\n${CALL}` }, tools);
      expect(r.tool_calls.map((c) => c.name)).toContain("search_code");
    });
  }
});
