/**
 * Quadratic work in the tool shim (issue 9, kind 10): adversarial model text of about 1 MB —
 * unbalanced or deeply nested brackets, long runs of spaces or backticks — costs work linear in
 * its length. The JSON scanner is checked by its work counter (steps ≤ c·n, no clock); the other
 * stages by finishing 1 MB inputs whose quadratic cost would be hours, and by their results.
 */
import { describe, expect, it } from "vitest";
import { BALANCE_BUDGET_FACTOR, MAX_FAILED_NESTING, PARSE_BUDGET_FACTOR, scanJsonValues, type ScanMeter } from "../../src/toolshim/json.js";
import { findCodeRegions, tidy } from "../../src/toolshim/residue.js";
import { inlineCodeRanges } from "../../src/toolshim/dialects/text-scan.js";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const MB = 1 << 20;
const fill = (unit: string, size = MB): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const CALL = '{"name": "search_code", "arguments": {"query": "needle"}}';
const tools: OfferedTool[] = [{ name: "search_code" }, { name: "read_evidence" }];

/** Shapes that made the scanner superlinear: unclosed openers, nested unparseable candidates, quoting tricks. */
const KB256 = 256 * 1024;
const SHAPES: Record<string, string> = {
  "[ repeated (1 MB)": fill("["),
  '{"a":[ repeated (1 MB)': fill('{"a":['),
  "{a nested 64k deep, then closed": "{a".repeat(KB256 / 4) + "}".repeat(KB256 / 4),
  "JSON nested 40k deep failing at the innermost value": '{"a":'.repeat(KB256 / 6) + "x" + "}".repeat(KB256 / 6),
  "{ repeated": fill("{", KB256),
  "{a repeated (unclosed prose braces)": fill("{a", KB256),
  "{a} repeated (many small unparseable values)": fill("{a}", KB256),
  "[ then } (mismatch at the end)": "[".repeat(KB256 / 2) + "}".repeat(KB256 / 2),
  'alternating quote contexts "{': fill('"{', KB256),
  "single-quote contexts ['": fill("['", KB256),
  "mixed quotes and openers": fill("{'[\"", KB256),
  "only ] and } (no opener)": fill("]}", KB256),
  "escaped quotes inside a string": '{"a": "' + fill('\\"{[', KB256 - 8),
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
    it(`${name}: steps ≤ ${perChar}·n`, { timeout: 120_000 }, () => {
      const { steps } = measure(text);
      expect(steps).toBeLessThanOrEqual(perChar * text.length);
    });
  }

  it("a real call after a nesting bomb is still found", () => {
    const bomb = "{a".repeat(50_000) + "}".repeat(50_000);
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

describe("other shim stages on 1 MB adversarial text finish and stay correct", () => {
  it("tidy trims line ends without rescanning runs of spaces (<a followed by 1M spaces)", { timeout: 120_000 }, () => {
    const text = `<a${" ".repeat(MB)}<a${" ".repeat(MB)}b\nkeep  \t\n\n\n\nend   `;
    expect(tidy(text)).toBe(`<a${" ".repeat(MB)}<a${" ".repeat(MB)}b\nkeep\n\nend`);
    expect(tidy(`x${" ".repeat(MB)}\ny`)).toBe("x\ny");
  });

  it("inline code spans follow CommonMark (equal backtick runs) on 1 MB of backticks", { timeout: 120_000 }, () => {
    expect(findCodeRegions("a `x` b ``y`z`` c ```no` d").filter((r) => !r.fenced).map((r) => [r.start, r.end])).toEqual([
      [2, 5],
      [8, 15],
    ]);
    for (const text of [fill("`"), fill("` ", KB256), fill("``x`", KB256), fill("`a\n\n", KB256)]) {
      const regions = findCodeRegions(text);
      for (const r of regions) expect(r.end).toBeGreaterThan(r.start);
    }
    expect(inlineCodeRanges("a `x` b ``y`z`` c")).toEqual([
      { start: 3, end: 4 },
      { start: 10, end: 13 },
    ]);
    expect(inlineCodeRanges(fill("` ", KB256))).toHaveLength(KB256 / 4);
    expect(inlineCodeRanges(fill("`` ` ", KB256)).length).toBeGreaterThan(0);
    expect(inlineCodeRanges(fill("`"))).toEqual([]);
  });

  const PIPELINE: Record<string, string> = {
    "<a followed by 200k spaces, twice": `<a${" ".repeat(200_000)}<a${" ".repeat(200_000)}`,
    "<tool_call> repeated 16,000 times": "<tool_call>".repeat(16_000),
    "``` repeated": fill("```", 256 * 1024),
    "` and spaces repeated": fill("` ", 256 * 1024),
    "{a nested 64k deep": "{a".repeat(64 * 1024) + "}".repeat(64 * 1024),
  };
  for (const [name, bomb] of Object.entries(PIPELINE)) {
    it(`recoverDeterministic: ${name}, then a real call`, { timeout: 180_000 }, () => {
      const r = recoverDeterministic({ content: `${bomb}\n${CALL}` }, tools);
      expect(r.tool_calls.map((c) => c.name)).toContain("search_code");
    });
  }
});
