/** Vitest helpers for the dialect tests (corpus cases per family, argument comparison). */
import { expect, it } from "vitest";
import type { Dialect, DialectMatch, OfferedTool } from "../../../src/toolshim/types.js";
import { casesOf, norm, removeSpans, residue, toolsOf } from "./corpus.js";

export { removeSpans, norm, residue, tools, toolsOf, casesOf } from "./corpus.js";

/**
 * Compare found arguments with expected ones. Untyped calls carry strings where the corpus expects
 * schema-typed values (the pipeline types them); such a string counts as equal when it parses as
 * JSON to the expected value.
 */
export function expectArguments(found: unknown, expected: Record<string, unknown>, untyped: boolean): void {
  if (!untyped) {
    expect(found).toEqual(expected);
    return;
  }
  const obj = found as Record<string, unknown>;
  expect(Object.keys(obj).sort()).toEqual(Object.keys(expected).sort());
  for (const [k, v] of Object.entries(expected)) {
    const got = obj[k];
    if (typeof got === "string" && typeof v !== "string") expect(JSON.parse(got)).toEqual(v);
    else expect(got).toEqual(v);
  }
}

/** Parse `text` with `dialect` and return the match (fails the test if `parse` throws). */
export function parseWith(dialect: Dialect, text: string, offered: readonly OfferedTool[]): DialectMatch | null {
  return dialect.parse(text, offered);
}

/**
 * Register one `it` per corpus case of `family`: calls (names, arguments, order) and the residue
 * against `content_after`. `residueExceptions` maps case ids to the residue this dialect alone
 * produces where `content_after` depends on the pipeline (reasoning decided outside the text).
 */
export function itParsesCorpusCases(
  dialect: Dialect,
  family: string,
  residueExceptions: Record<string, { residue: string; why: string }> = {},
): void {
  const cases = casesOf(family);
  it(`has corpus cases for ${family}`, () => {
    expect(cases.length).toBeGreaterThan(0);
  });
  for (const c of cases) {
    it(`corpus ${c.id}`, () => {
      const match = parseWith(dialect, c.raw, toolsOf(c));
      const calls = match?.calls ?? [];
      expect(calls.map((x) => x.name)).toEqual(c.expected.map((x) => x.name));
      calls.forEach((call, i) => expectArguments(call.arguments, c.expected[i]!.arguments, call.untyped === true));
      const exception = residueExceptions[c.id];
      expect(residue(c.raw, match)).toBe(norm(exception ? exception.residue : c.content_after));
    });
  }
}

/** What a test sees of one parse: the calls and the visible text (whitespace-normalised) after span removal. */
export interface ParseView {
  match: DialectMatch | null;
  calls: { name: string; arguments: unknown; untyped?: boolean; id?: string }[];
  content: string;
}

/** Parse `text` with `dialect`, offering `offered` (tool names or tools). */
export function run(dialect: Dialect, text: string, offered: readonly (string | OfferedTool)[] = []): ParseView {
  const toolList = offered.map((t) => (typeof t === "string" ? { name: t } : t));
  const match = dialect.parse(text, toolList);
  return { match, calls: match?.calls ?? [], content: norm(removeSpans(text, match?.spans ?? [])) };
}
