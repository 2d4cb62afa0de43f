/**
 * Corpus access for the dialect tests: the tool-call corpus (vendored copy
 * `test/fixtures/toolcalls.jsonl`, or the shared original when the copy is not there yet), span
 * removal, and the comparison rules of `corpus/README.md`. No test-runner imports here.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DialectMatch, OfferedTool, Span } from "../../../src/toolshim/types.js";

/** One corpus line. */
export interface CorpusCase {
  id: string;
  family: string;
  raw: string;
  tools: string[];
  tool_schemas?: Record<string, Record<string, unknown>>;
  expected: { name: string; arguments: Record<string, unknown> }[];
  content_after: string;
  notes?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const CANDIDATES = [join(here, "../../fixtures/toolcalls.jsonl"), "/work/shared/corpus/toolcalls.jsonl"];

let cached: CorpusCase[] | undefined;

/** All corpus cases. */
export function loadCorpus(): CorpusCase[] {
  if (cached) return cached;
  const path = CANDIDATES.find((p) => existsSync(p));
  if (!path) throw new Error(`tool-call corpus not found (looked in ${CANDIDATES.join(", ")})`);
  cached = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as CorpusCase);
  return cached;
}

/** The cases of one family. */
export function casesOf(family: string): CorpusCase[] {
  return loadCorpus().filter((c) => c.family === family);
}

/** Offered tools of a case (names plus schemas where the case has them). */
export function toolsOf(c: CorpusCase): OfferedTool[] {
  return c.tools.map((name) => {
    const parameters = c.tool_schemas?.[name];
    return parameters ? { name, parameters } : { name };
  });
}

/** Shorthand for offered tools without schemas. */
export function tools(...names: string[]): OfferedTool[] {
  return names.map((name) => ({ name }));
}

/** `text` with `spans` removed. */
export function removeSpans(text: string, spans: readonly Span[]): string {
  let out = "";
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, Math.max(at, s.start));
    at = Math.max(at, s.end);
  }
  return out + text.slice(at);
}

/** Trim and collapse whitespace runs (the corpus comparison rule). */
export function norm(s: string): string {
  return s.trim().replace(/\s+/g, " ");
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
export function residue(text: string, match: DialectMatch | null): string {
  return norm(stripReasoning(removeSpans(text, match?.spans ?? [])));
}
