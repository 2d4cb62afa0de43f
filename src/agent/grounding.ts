/**
 * Grounding check: find every code location an answer cites and grade it against the lines
 * the model was shown and the repository (ARCHITECTURE.md "Data flow of one ask", the grounding check).
 *
 * Status of a citation:
 * - `supported`: the cited lines were shown to the model and the sentence (or list item) that
 *   cites them names something that occurs in them (`citation-status.ts`); when it also claims
 *   what the lines visibly do not show, `concern` says which kind of claim;
 * - `seen`: the lines were shown, but the citing sentence names nothing found there;
 * - `unseen`: the file and lines exist in the repository but were never shown to the model;
 * - `invalid`: no such file inside the root, a line past its end, or a denied/outside path;
 * - `unchecked`: not graded, because the answer cites more than {@link MAX_GRADED_PATHS} distinct
 *   paths the model was not shown (this one is not among the first so many) or more than {@link MAX_GRADED_CITATIONS}
 *   locations (this one comes after them); `reason` says which.
 * A range counts as shown when at least one of its lines was; the check then uses those lines.
 * A path that is not a repository path but the end of exactly one (`sessions.py` for
 * `src/requests/sessions.py`) resolves to it (`resolved_from` keeps what was written);
 * several candidates make it `invalid` with the candidates named.
 *
 * Grounding of an answer: `ok` (every citation supported or seen, at least one supported),
 * `partial` (anything else with at least one supported or seen citation), `failed` (claims
 * without any supported or seen citation), `none` (no citation and the answer says it could not
 * answer: nothing needed one).
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
import type { LocatedFile } from "../tools/index.js";
import { citingTexts, gradeCitation, isAbstention } from "./citation-status.js";
import type { ClaimConcern } from "./claim-concern.js";

/** How a cited location was graded (see the module comment). */
export type CitationStatus = "supported" | "seen" | "unseen" | "invalid" | "unchecked";

/**
 * Most distinct paths (as the answer writes them) that were not shown to the model looked up in
 * the repository per answer (paths shown in the session are always graded). Each
 * lookup reads the file (up to 16 MiB) and, for a path not found, scans the file list; a hostile
 * answer citing thousands of paths would keep `ask`, or a `codecite serve` turn, reading for
 * minutes. Real answers cite a handful of files.
 */
export const MAX_GRADED_PATHS = 32;

/** Most citations graded per answer (each reads its citing sentence against its lines). */
export const MAX_GRADED_CITATIONS = 200;

/** How well a whole answer is grounded (see the module comment). */
export type Grounding = "ok" | "partial" | "failed" | "none";

/** One cited location. `line` is 1-based; for a range it is the first line. */
export interface Citation {
  path: string;
  line: number;
  /** Last cited line (equal to `line` for a single line). */
  end_line: number;
  status: CitationStatus;
  /** `status` is `supported` or `seen` (the meaning `verified` keeps for existing consumers). */
  verified: boolean;
  /** The path as the answer wrote it, when it was resolved to a different repository path. */
  resolved_from?: string;
  /** Why a citation is `invalid` or `unseen`, for the user and the re-ask. */
  reason?: string;
  /** Repository paths a bare or partial file name could mean (for an ambiguous one). */
  candidates?: string[];
  /**
   * For a `supported` citation: a claim of the sentence that the cited lines visibly do not show
   * (a stated value they lack, a last-named object they lack, a negation of what they do, …;
   * `citation-status.ts`). The status stays `supported`: the sentence does name something there.
   */
  concern?: ClaimConcern;
}

/** Lines shown to the model: path → line number → text. */
export type SeenLines = ReadonlyMap<string, ReadonlyMap<number, string>>;

/** Looks a cited path up in the repository (exact path first, then a unique path ending). */
export type LocateFile = (path: string) => Promise<LocatedFile>;

/** A cited location before verification; `end_line` is set for ranges. */
export interface CitedLocation {
  path: string;
  line: number;
  end_line: number;
  /** Character offset of the match in the answer. */
  index: number;
  /** Length of the match in characters. */
  length: number;
}

const PATH_CHAR = String.raw`[A-Za-z0-9_@~+\-./\\]`;
/**
 * A whole run of path characters holding a letter, digit, `_` or `-` (no suffix below starts with
 * a path character, so a cited path is always a whole run). Greedy on purpose: the former
 * `${PATH_CHAR}*[A-Za-z0-9_\-]${PATH_CHAR}*?` backtracked over the run once per character of it,
 * so a model answer holding one long token (40,000 letters: 1.8 s; a megabyte: minutes) blocked
 * `ask`, and `codecite serve` for every client, while its citations were graded.
 */
const PATH = String.raw`(?<![A-Za-z0-9_@~+\-./\\:])\`?(?=[@~+./\\]*[A-Za-z0-9_\-])(${PATH_CHAR}+)\`?`;
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

/**
 * `\` → `/`, leading `./` dropped, trailing sentence dots dropped. The trailing dots are matched
 * from the first dot of a run only: tried from every dot of a run inside the path, each attempt
 * read the rest of the run (a cited path of 32 KB of dots: 1.7 s).
 */
function normalizeCitedPath(p: string): string {
  let out = p.replace(/\\/g, "/");
  while (out.startsWith("./")) out = out.slice(2);
  out = out.replace(/(?<!\.)\.+$/, "");
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
    out.push({ path, line: start, end_line: end, index: m.index, length: m[0].length });
  }
  return out;
}

/**
 * The shown lines of `[start, end]` in `seen` for `path`, in order. A range longer than the
 * shown lines of the file walks those instead (a cited `a.py:1-999999999999999` ends at once).
 */
function shownLines(seen: SeenLines, path: string, start: number, end: number): string[] {
  const lines = seen.get(path);
  if (!lines) return [];
  if (end - start + 1 > lines.size) {
    return [...lines].filter(([n]) => n >= start && n <= end).sort((a, b) => a[0] - b[0]).map(([, t]) => t);
  }
  const out: string[] = [];
  for (let n = start; n <= end; n++) {
    const t = lines.get(n);
    if (t !== undefined) out.push(t);
  }
  return out;
}

/**
 * Extracts the answer's citations and grades each (see the module comment); past
 * {@link MAX_GRADED_PATHS} distinct looked-up paths not shown in the session, or
 * {@link MAX_GRADED_CITATIONS} citations, the others are `unchecked`.
 * @param seen the lines shown to the model in the session.
 * @param locate looks a cited path up in the repository; without it, a path the model was
 *   not shown is `unseen` when it was shown other lines of it, else `invalid`.
 * @returns the citations in order of appearance.
 */
export async function gradeCitations(answer: string, seen: SeenLines, locate?: LocateFile): Promise<Citation[]> {
  const cited = extractCitations(answer);
  const citing = citingTexts(answer, cited);
  const lookups = new Map<string, Promise<LocatedFile>>();
  let unshownLookups = 0;
  const out: Citation[] = [];
  for (const c of cited) {
    const base = { line: c.line, end_line: c.end_line };
    let path = c.path;
    if (out.length >= MAX_GRADED_CITATIONS) {
      const reason = `not checked: the answer cites more than ${MAX_GRADED_CITATIONS} locations; only the first ${MAX_GRADED_CITATIONS} are checked`;
      out.push({ path, ...base, status: "unchecked", verified: false, reason });
      continue;
    }
    let lineCount: number | undefined;
    if (locate) {
      let p = lookups.get(c.path);
      // A path shown to the model is always graded: their number is bounded by the session's
      // evidence, not by what the answer writes.
      if (!p && !seen.has(c.path) && unshownLookups >= MAX_GRADED_PATHS) {
        const reason = `not checked: the answer cites more than ${MAX_GRADED_PATHS} files it was not shown; only the first ${MAX_GRADED_PATHS} are checked`;
        out.push({ path, ...base, status: "unchecked", verified: false, reason });
        continue;
      }
      if (!p) {
        if (!seen.has(c.path)) unshownLookups++;
        lookups.set(c.path, (p = locate(c.path)));
      }
      const found = await p;
      if (!found.ok) {
        out.push({ path, ...base, status: "invalid", verified: false, reason: found.reason, ...(found.candidates ? { candidates: found.candidates } : {}) });
        continue;
      }
      path = found.path;
      lineCount = found.lines;
    } else if (!seen.has(path)) {
      out.push({ path, ...base, status: "invalid", verified: false, reason: "not a file the tools returned" });
      continue;
    }
    const resolved = path !== c.path ? { resolved_from: c.path } : {};
    if (lineCount !== undefined && c.end_line > lineCount) {
      out.push({ path, ...base, status: "invalid", verified: false, ...resolved, reason: `${path} has ${lineCount} lines` });
      continue;
    }
    const lines = shownLines(seen, path, c.line, c.end_line);
    if (lines.length === 0) {
      const reason = seen.has(path) ? "these lines were not shown to the model" : "this file was not shown to the model";
      out.push({ path, ...base, status: "unseen", verified: false, ...resolved, reason });
      continue;
    }
    const grade = gradeCitation(citing(c.index), lines, path);
    const concern = grade.concern !== undefined ? { concern: grade.concern } : {};
    out.push({ path, ...base, status: grade.names ? "supported" : "seen", verified: true, ...resolved, ...concern });
  }
  return out;
}

/** The grounding of an answer from its graded citations (see the module comment). */
export function groundingOf(answer: string, citations: readonly Citation[]): Grounding {
  if (citations.length === 0) return answer.trim() === "" || isAbstention(answer) ? "none" : "failed";
  const good = citations.filter((c) => c.verified).length;
  if (good === 0) return "failed";
  if (good === citations.length && citations.some((c) => c.status === "supported")) return "ok";
  return "partial";
}

