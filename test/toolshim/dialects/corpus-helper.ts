/**
 * Helpers for the dialect tests: the vendored corpus cases of one family checked against a
 * dialect alone (calls, argument comparison, and the visible text left after its spans and the
 * reasoning are removed, compared by the corpus README's rules).
 */
import { expect, it } from "vitest";
import type { Dialect, DialectMatch, OfferedTool, Span } from "../../../src/toolshim/types.js";
import { casesOf, collapse, toolsOf } from "../corpus-cases.js";

/**
 * `text` with `spans` removed, plainly cut (an oracle independent of the pipeline's
 * `residue.ts`, which also tidies the whitespace at each cut).
 */
export function removeSpans(text: string, spans: readonly Span[]): string {
  let out = "";
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, Math.max(at, s.start));
    at = Math.max(at, s.end);
  }
  return out + text.slice(at);
}

/**
 * Test-only stand-in for the pipeline's reasoning split, so that a dialect's residue can be
 * compared with `content_after` (which also removes reasoning): closed blocks are removed, a
 * closer without opener removes everything before it (prefilled opener), an opener without
 * closer removes everything after it.
 */
export function stripReasoning(text: string): string {
  const pairs: [string, string][] = [
    ["<think>", "</think>"],
    ["<seed:think>", "</seed:think>"],
    ["<|START_THINKING|>", "<|END_THINKING|>"],
    ["<|inner_prefix|>", "<|inner_suffix|>"],
    ["<|channel>thought", "<channel|>"],
  ];
  let t = text;
  for (const [open, close] of pairs) {
    for (;;) {
      const o = t.indexOf(open);
      const c = t.indexOf(close, o < 0 ? 0 : o);
      if (o >= 0 && c >= 0) t = t.slice(0, o) + t.slice(c + close.length);
      else if (o < 0 && c >= 0) t = t.slice(c + close.length);
      else if (o >= 0) t = t.slice(0, o);
      else break;
    }
  }
  return t;
}

/** Visible text after removing the match's spans (and, for the corpus comparison, reasoning). */
function residue(text: string, match: DialectMatch | null): string {
  return collapse(stripReasoning(removeSpans(text, match?.spans ?? [])));
}

/**
 * Compare found arguments with expected ones. Untyped calls carry strings where the corpus expects
 * schema-typed values (the pipeline types them); such a string counts as equal when it parses as
 * JSON to the expected value.
 */
function expectArguments(found: unknown, expected: Record<string, unknown>, untyped: boolean): void {
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
      const match = dialect.parse(c.raw, toolsOf(c));
      const calls = match?.calls ?? [];
      expect(calls.map((x) => x.name)).toEqual(c.expected.map((x) => x.name));
      calls.forEach((call, i) => expectArguments(call.arguments, c.expected[i]!.arguments, call.untyped === true));
      const exception = residueExceptions[c.id];
      expect(residue(c.raw, match)).toBe(collapse(exception ? exception.residue : c.content_after));
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
  return { match, calls: match?.calls ?? [], content: collapse(removeSpans(text, match?.spans ?? [])) };
}
