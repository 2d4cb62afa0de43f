/**
 * Grounding check: find every code location an answer cites and verify it against the
 * evidence the tools returned (ARCHITECTURE.md "Data flow of one ask", the grounding check).
 *
 * Recognised citation forms (a path is a repository-relative file path, optionally in backticks):
 * - `path:12`, `path:12-14` (also `–`/`—`, `path:12:5` with a column, `path:L12`, a full-width `：`)
 * - `path#L12`, `path#L12-L14`, `path#L12-14` (web-style anchors, Markdown links included)
 * - `path (line 12)`, `path (lines 12-14)`, `path, line 12`, `path line 12`
 * - `path（第 12 行）`, `path (第12-14行)`, `path 第 12 行` (Chinese, full- or half-width parentheses)
 *
 * A token counts as a path when it contains `/` or ends in an extension with a letter
 * (`rag_chat.py`, `main.go`); URLs (`http://h:11434`) and version numbers (`1.2:3`) are not paths.
 * Paths are compared exactly after `\` → `/` and dropping a leading `./`.
 */
import type { Evidence } from "../tools/index.js";

/** One cited location. `line` is 1-based; for a range it is the first line. */
export interface Citation {
  path: string;
  line: number;
  /** True when the evidence holds this path and every cited line lies in an evidence record's range. */
  verified: boolean;
}

/** A cited location before verification; `end_line` is set for ranges. */
export interface CitedLocation {
  path: string;
  line: number;
  end_line: number;
  /** Character offset of the match in the answer. */
  index: number;
}

const PATH_CHAR = String.raw`[A-Za-z0-9_@~+\-./\\]`;
const PATH = String.raw`(?<![A-Za-z0-9_@~+\-./\\:])\`?(${PATH_CHAR}*[A-Za-z0-9_\-]${PATH_CHAR}*?)\`?`;
const DASH = String.raw`\s*(?:-|–|—|~|到|至|to)\s*`;
const LP = String.raw`[(（]`;
const RP = String.raw`[)）]`;

/** Suffix alternatives; each captures (start, end?) line numbers. */
const SUFFIXES = [
  String.raw`[:：]L?(\d+)(?:${DASH}L?(\d+))?(?!\d|\.\d)`,
  String.raw`#L(\d+)(?:-L?(\d+))?`,
  String.raw`\s*${LP}\s*(?:lines?|ll?\.)\s*(\d+)(?:${DASH}(\d+))?\s*${RP}`,
  String.raw`\s*${LP}\s*第\s*(\d+)(?:${DASH}(\d+))?\s*行\s*${RP}`,
  String.raw`,?\s+lines?\s+(\d+)(?:${DASH}(\d+))?`,
  String.raw`\s*第\s*(\d+)(?:${DASH}(\d+))?\s*行`,
];
const CITATION_RE = new RegExp(`${PATH}(?:${SUFFIXES.join("|")})`, "gi");

/** Does this token look like a file path (not a URL, a version or a word)? */
function looksLikePath(p: string): boolean {
  if (p.includes("//") || p.startsWith("\\\\")) return false;
  if (!/[A-Za-z]/.test(p)) return false;
  const normalized = normalizeCitedPath(p);
  if (normalized === "" || normalized.endsWith("/")) return false;
  if (normalized.includes("/")) return true;
  return /\.[A-Za-z][A-Za-z0-9_]{0,11}$/.test(normalized);
}

/** `\` → `/`, leading `./` dropped, trailing sentence dots dropped. */
export function normalizeCitedPath(p: string): string {
  let out = p.replace(/\\/g, "/");
  while (out.startsWith("./")) out = out.slice(2);
  out = out.replace(/\.+$/, "");
  return out;
}

/**
 * Extracts every cited location, in order of appearance, without duplicates
 * (same path and same range). Lines must be ≥ 1; a reversed range is swapped.
 */
export function extractCitations(answer: string): CitedLocation[] {
  const out: CitedLocation[] = [];
  const seen = new Set<string>();
  for (const m of answer.matchAll(CITATION_RE)) {
    const rawPath = m[1]!;
    if (!looksLikePath(rawPath)) continue;
    const groups = m.slice(2);
    let start: number | undefined;
    let end: number | undefined;
    for (let i = 0; i < groups.length; i += 2) {
      if (groups[i] !== undefined) {
        start = Number(groups[i]);
        end = groups[i + 1] !== undefined ? Number(groups[i + 1]) : start;
        break;
      }
    }
    if (start === undefined || end === undefined || start < 1) continue;
    if (end < start) [start, end] = [end, start];
    const path = normalizeCitedPath(rawPath);
    const key = `${path}\0${start}\0${end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, line: start, end_line: end, index: m.index });
  }
  return out;
}

/** True when every line of `[start, end]` lies inside the union of the path's evidence ranges. */
function covered(records: readonly Evidence[], start: number, end: number): boolean {
  const ranges = records.map((r) => [r.start_line, r.end_line] as const).sort((a, b) => a[0] - b[0]);
  let next = start; // first line not yet covered
  for (const [s, e] of ranges) {
    if (s > next) break;
    if (e >= next) next = e + 1;
    if (next > end) return true;
  }
  return next > end;
}

/**
 * Extracts the answer's citations and verifies each: the path must equal an evidence record's
 * `path`, and every cited line must lie within the `start_line..end_line` of that path's records.
 * @returns `[{path, line, verified}]` in order of appearance (the `ask --json` shape).
 */
export function checkCitations(answer: string, evidence: readonly Evidence[]): Citation[] {
  const byPath = new Map<string, Evidence[]>();
  for (const e of evidence) {
    const list = byPath.get(e.path);
    if (list) list.push(e);
    else byPath.set(e.path, [e]);
  }
  return extractCitations(answer).map((c) => {
    const records = byPath.get(c.path);
    return { path: c.path, line: c.line, verified: records !== undefined && covered(records, c.line, c.end_line) };
  });
}
