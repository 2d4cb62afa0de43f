/**
 * JSON helpers for the tool shim: a string- and escape-aware balanced scanner that finds JSON
 * objects and arrays inside arbitrary model text, and a tolerant parser for the JSON-ish text
 * local models write (raw Windows paths, trailing commas, single quotes, Python constants).
 *
 * Rules and their sources:
 * - Balanced scanning that keeps going after a non-matching or unbalanced value: goose's
 *   `toolshim.rs` stops at the first unbalanced `{`; this scanner does not.
 * - Invalid-backslash repair: the idea of aaif-goose/goose `crates/goose/src/providers/toolshim.rs`, extended with a
 *   Windows-path heuristic so `"C:\new\tmp"` keeps its backslashes when the string
 *   also holds an escape that is invalid in JSON.
 * - Everything else is delegated to `jsonrepair`, guarded so that a repair never invents
 *   structure from prose and never completes a truncated value (a call
 *   whose body is cut is not a call).
 */
import { repairJson } from "../json-repair.js";

/** Whether `v` is a JSON object: non-null, not an array (a parsed `{…}`, as opposed to a scalar or a list). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One JSON value found by {@link scanJsonValues}. Offsets are UTF-16 code-unit indices into the scanned text. */
export interface ScannedJson {
  /** Index of the opening `{` or `[`. */
  start: number;
  /** Index just after the closing bracket (half-open span); `text.length` for a truncated value. */
  end: number;
  /** The parsed object or array; `undefined` when `truncated`. */
  value: unknown;
  /** The value looks like JSON but the text ends before it closes (a cut call body). */
  truncated?: true;
  /**
   * The value lies inside a truncated JSON-looking value that starts earlier (for example the
   * inner `{"name": …}` of `{"type": "function", "function": {"name": …}` with the outer brace
   * missing). Consumers that recognise calls should ignore enclosed values.
   */
  enclosed?: true;
}

/** Outcome of {@link matchBalanced}. */
export type BalancedMatch =
  | { ok: true; end: number }
  | {
      ok: false;
      reason: "eof" | "mismatch" | "not-open";
      depth: number;
      /** For `eof` outside a string (from {@link matchBalanced}): the closing brackets the text lacks, innermost first. */
      missing?: string;
    };

const OPENERS: Record<string, string> = { "{": "}", "[": "]" };

/**
 * Whether position `i` is a structural position where a single-quoted (Python-style) string may
 * start: the previous non-space character is one of `{ [ , :`. Elsewhere an apostrophe is
 * ordinary text (prose inside braces such as `{ it's }`).
 */
function singleQuoteStartsString(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && /\s/.test(text[j]!)) j--;
  return j >= 0 && "{[,:(".includes(text[j]!);
}

/**
 * Find the end of the bracketed value that starts at `start` (`{` or `[`), tracking nesting of
 * both bracket kinds outside strings. Double-quoted strings (with backslash escapes) are always
 * strings; single-quoted strings are recognised at structural positions (Python dicts).
 *
 * @returns `{ok: true, end}` with `end` just after the matching closer; otherwise why it failed:
 *   `eof` (the text ends first; `depth` = open brackets left), `mismatch` (a closer of the wrong
 *   kind), or `not-open` (no opener at `start`). Never throws.
 */
export function matchBalanced(text: string, start: number): BalancedMatch {
  return balance(text, start) as BalancedMatch;
}

/**
 * {@link matchBalanced} for many openers of one text: each opener's outcome is found once (the
 * memo of {@link scanJsonValues}), so asking about every line of a text full of unclosed
 * brackets costs about one pass, not one pass per opener.
 */
export function balancedMatcher(text: string): (start: number) => BalancedMatch {
  const memo = new Map<number, BalancedMatch>();
  return (start) => {
    const r = balance(text, start, memo);
    return r.ok || r.reason !== "budget" ? r : { ok: false, reason: "eof", depth: 0 };
  };
}

/**
 * {@link matchBalanced} that reads no further than `end`: a value still open there is `eof`. A
 * caller that bounds each scan by the next candidate's start keeps a scan over many candidates
 * linear.
 */
export function matchBalancedBefore(text: string, start: number, end: number): BalancedMatch {
  const r = balance(text, start, undefined, undefined, Math.max(0, end - start));
  return r.ok || r.reason !== "budget" ? r : { ok: false, reason: "eof", depth: 0 };
}

/** {@link balance} stopped after its `limit` of characters: the outcome is unknown. */
interface OverBudget {
  ok: false;
  reason: "budget";
  /** Characters examined. */
  steps: number;
}

/**
 * {@link matchBalanced}, optionally recording the outcome for every opener met on the way into
 * `memo` (an opener outside strings sees exactly the same characters from its own position on, so
 * its outcome is known after one scan). This keeps {@link scanJsonValues} linear on texts full of
 * unclosed brackets.
 */
function balance(
  text: string,
  start: number,
  memo?: Map<number, BalancedMatch>,
  meter?: ScanMeter,
  limit = Number.POSITIVE_INFINITY,
): BalancedMatch | OverBudget {
  const known = memo?.get(start);
  if (known) return known;
  const from = start;
  const stop = Math.min(text.length, start + limit);
  const first = text[start];
  if (first === undefined || !(first in OPENERS)) return { ok: false, reason: "not-open", depth: 0 };
  const stack: { close: string; at: number }[] = [];
  let quote: string | undefined;
  const settleOpen = (reason: "eof" | "mismatch"): void => {
    if (!memo) return;
    stack.forEach((o, i) => memo.set(o.at, { ok: false, reason, depth: stack.length - i }));
  };
  let i = start;
  const count = (): void => {
    if (meter) meter.steps += i - from + 1;
  };
  for (; i < stop; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"') quote = c;
    else if (c === "'" && singleQuoteStartsString(text, i)) quote = c;
    else if (c === "{" || c === "[") stack.push({ close: OPENERS[c]!, at: i });
    else if (c === "}" || c === "]") {
      const top = stack.pop();
      if (!top || top.close !== c) {
        if (top) stack.push(top);
        settleOpen("mismatch");
        count();
        return { ok: false, reason: "mismatch", depth: stack.length };
      }
      memo?.set(top.at, { ok: true, end: i + 1 });
      if (stack.length === 0) {
        count();
        return { ok: true, end: i + 1 };
      }
    }
  }
  i = stop - 1;
  count();
  if (stop < text.length) return { ok: false, reason: "budget", steps: stop - start };
  settleOpen("eof");
  const missing = quote === undefined && !memo ? stack.map((o) => o.close).reverse().join("") : undefined;
  return missing === undefined ? { ok: false, reason: "eof", depth: stack.length } : { ok: false, reason: "eof", depth: stack.length, missing };
}

/**
 * Whether an opener at `start` begins something that is clearly meant as JSON (so that running
 * out of text inside it means "truncated value", not "a stray brace in prose"): `{` followed by
 * a quoted key, a bare `key:`, or `}`; `[` followed by an object, array, string, number, literal
 * or `]`.
 */
function looksLikeJsonStart(text: string, start: number): boolean {
  const rest = text.slice(start, start + 64);
  if (rest.startsWith("{")) return /^\{\s*(?:["'}]|[A-Za-z_$][\w$]*\s*:)/.test(rest) || /^\{\s*$/.test(rest);
  if (rest.startsWith("[")) return /^\[\s*(?:[{["'\]\d-]|true\b|false\b|null\b)/.test(rest) || /^\[\s*$/.test(rest);
  return false;
}

/**
 * A work counter for {@link scanJsonValues}: `steps` grows by one for every character the bracket
 * matcher examines and for every character handed to the tolerant parser. Tests read it to check
 * that the scan stays linear in the input length on adversarial text.
 */
export interface ScanMeter {
  steps: number;
}

/**
 * How many unparseable bracketed candidates may enclose a position before values inside them are
 * no longer tried. Calls inside prose or code braces (`{ see {"name": …} }`) sit one or two levels
 * deep; deeper nesting of failed candidates is adversarial or generated text.
 */
export const MAX_FAILED_NESTING = 4;

/**
 * Parse work allowed for candidates nested inside unparseable ones, as a multiple of the text
 * length. Candidates outside every failed candidate are disjoint, so parsing them costs at most
 * the text length; together with this allowance a scan parses at most `(1 + PARSE_BUDGET_FACTOR)`
 * times the text length, whatever the nesting.
 */
export const PARSE_BUDGET_FACTOR = 4;

/**
 * Bracket matching allowed per scan, as a multiple of the text length. Each opener's outcome is
 * computed once per quoting context, so ordinary text needs about one pass; text whose quotes never
 * close again (`"\"{[\"{[…`) would need a pass per opener. Once the allowance is spent, openers
 * whose outcome is not known yet are skipped.
 */
export const BALANCE_BUDGET_FACTOR = 4;

/**
 * Scan `text` for JSON objects and arrays, left to right.
 *
 * - A balanced candidate that parses (via {@link parseJsonTolerant}) is returned and scanning
 *   continues after it (values nested inside it are not returned separately; descend into
 *   `value` if you need them).
 * - A balanced candidate that does not parse (code such as `for { … }`, prose in braces) is
 *   skipped one character at a time, so values nested inside it are still found — up to
 *   {@link MAX_FAILED_NESTING} unparseable candidates deep, and while the parse allowance
 *   ({@link PARSE_BUDGET_FACTOR} × the text length) for such nested candidates lasts. Candidates
 *   outside every unparseable one are always tried.
 * - A mismatched candidate (`{"a": [1}`) is skipped the same way.
 * - A JSON-looking candidate that runs to the end of the text is returned once with
 *   `truncated: true`; every value found after its start is flagged `enclosed`.
 *
 * @param text any model output.
 * @param opts.from index to start at (default 0).
 * @param opts.meter work counter (see {@link ScanMeter}); optional.
 * @returns values in text order; empty when none. Never throws. Cost is linear in the text length:
 *   each bracket outcome is computed once per quoting context and parse work is capped as above.
 */
export function scanJsonValues(text: string, opts: { from?: number; meter?: ScanMeter } = {}): ScannedJson[] {
  const out: ScannedJson[] = [];
  const meter = opts.meter;
  let enclosedFrom = Number.POSITIVE_INFINITY;
  const memo = new Map<number, BalancedMatch>();
  /** Ends of the unparseable balanced candidates that enclose the current position, innermost last. */
  const failedEnds: number[] = [];
  let nestedBudget = PARSE_BUDGET_FACTOR * text.length;
  const balanceBudget = BALANCE_BUDGET_FACTOR * text.length;
  const matching: ScanMeter = { steps: 0 };
  let parsing = 0;
  const nextOpener = openerFinder(text);
  let i = opts.from ?? 0;
  for (;;) {
    const p = nextOpener(i);
    if (p < 0) break;
    while (failedEnds.length > 0 && failedEnds[failedEnds.length - 1]! <= p) failedEnds.pop();
    if (failedEnds.length >= MAX_FAILED_NESTING) {
      // Too deep inside unparseable text: nothing in the innermost candidate is tried.
      i = failedEnds[failedEnds.length - 1]!;
      continue;
    }
    // Once the allowance is spent, only openers with a known outcome are tried (limit 0).
    const m = balance(text, p, memo, matching, Math.max(0, balanceBudget - matching.steps));
    if (!m.ok && m.reason === "budget") {
      i = p + 1;
      continue;
    }
    if (m.ok) {
      const length = m.end - p;
      const nested = failedEnds.length > 0;
      if (!nested || length <= nestedBudget) {
        if (nested) nestedBudget -= length;
        parsing += length;
        const value = parseJsonTolerant(text.slice(p, m.end));
        if (value !== undefined && typeof value === "object" && value !== null) {
          const found: ScannedJson = { start: p, end: m.end, value };
          if (p > enclosedFrom) found.enclosed = true;
          out.push(found);
          i = m.end;
          continue;
        }
      }
      failedEnds.push(m.end);
    } else if (m.reason === "eof" && looksLikeJsonStart(text, p)) {
      if (!(p > enclosedFrom)) {
        out.push({ start: p, end: text.length, value: undefined, truncated: true });
        enclosedFrom = p;
      }
    }
    i = p + 1;
  }
  if (meter) meter.steps += matching.steps + parsing;
  return out;
}

/**
 * The next `{` or `[` at or after a position, for positions that only grow: each bracket kind's
 * next index is searched again only once the scan has passed it, so the whole walk reads the text
 * once per kind (a fresh `indexOf` per call would re-read to the end whenever one kind is absent).
 */
function openerFinder(text: string): (from: number) => number {
  let brace = -2;
  let bracket = -2;
  return (from) => {
    if (brace !== -1 && brace < from) brace = text.indexOf("{", from);
    if (bracket !== -1 && bracket < from) bracket = text.indexOf("[", from);
    if (brace < 0) return bracket;
    if (bracket < 0) return brace;
    return Math.min(brace, bracket);
  };
}

const VALID_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const WINDOWS_PATH = /(?:^|[^A-Za-z0-9])(?:[A-Za-z]:\\(?![\\"])|\\\\[A-Za-z0-9])/;
/**
 * A raw (unescaped) drive path in a string body: `C:\` followed by a path character. Written
 * escaped, the drive backslash would be doubled (`C:\\`), so a single one means the model wrote
 * the path raw, and its `\t`, `\n`, `\b` … are path separators, not escapes
 * (`C:\new` and `C:\tmp` stay paths).
 */
const RAW_DRIVE_PATH = /(?:^|[^A-Za-z0-9\\])[A-Za-z]:\\(?![\\"'/\s])/;

/**
 * Whether a string body (as written, before escape processing) holds a raw Windows drive path
 * (`C:\temp\new`): its backslashes are path separators, not escapes. Shared with the Python
 * literal reader (`'C:\new\file.py'`).
 */
export function holdsRawDrivePath(body: string): boolean {
  return RAW_DRIVE_PATH.test(body);
}

/**
 * Repair double-quoted JSON strings: control characters are escaped, and backslashes that start
 * an escape JSON does not have (`\U`, `\m`, `\x`, a `\u` without four hex digits, a trailing `\`)
 * become literal backslashes. When a string looks like a Windows path (`C:\…`, `\\server`) and
 * holds at least one invalid escape, or starts a drive path with a single raw backslash
 * (`C:\temp\new`, whose escapes all happen to be valid JSON), every backslash in it is taken
 * literally, so `C:\Users\new` keeps `\n` as two characters. Text outside strings is unchanged.
 *
 * @returns the repaired text (the input itself when nothing needed repair).
 */
export function repairJsonStrings(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c !== '"') {
      out += c;
      i++;
      continue;
    }
    // Find the string's end with JSON's own rule (backslash skips one character).
    let j = i + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
    const body = text.slice(i + 1, Math.min(j, text.length));
    out += '"' + repairStringBody(body) + (j < text.length ? '"' : "");
    i = j + 1;
  }
  return out;
}

function hasInvalidEscape(body: string): boolean {
  for (let k = 0; k < body.length; k++) {
    if (body[k] !== "\\") continue;
    const n = body[k + 1];
    if (n === undefined) return true;
    if (n === "u" ? !/^[0-9a-fA-F]{4}$/.test(body.slice(k + 2, k + 6)) : !VALID_ESCAPES.has(n)) return true;
    k++;
  }
  return false;
}

function repairStringBody(body: string): string {
  const literalAll = RAW_DRIVE_PATH.test(body) || (WINDOWS_PATH.test(body) && hasInvalidEscape(body));
  let out = "";
  for (let k = 0; k < body.length; k++) {
    const c = body[k]!;
    if (c === "\\") {
      const n = body[k + 1];
      if (n === undefined) {
        out += "\\\\";
        continue;
      }
      const valid = n === "u" ? /^[0-9a-fA-F]{4}$/.test(body.slice(k + 2, k + 6)) : VALID_ESCAPES.has(n);
      if (valid && !(literalAll && n !== '"' && n !== "\\")) {
        out += c + n;
        k++;
      } else {
        out += "\\\\";
      }
      continue;
    }
    const code = c.charCodeAt(0);
    if (code < 0x20) {
      out += c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : "\\u" + code.toString(16).padStart(4, "0");
    } else {
      out += c;
    }
  }
  return out;
}

const REPAIRABLE_WORDS = new Set(["true", "false", "null", "True", "False", "None"]);

/**
 * Guard before `jsonrepair`: outside strings, every bare word must be a literal (`true`, `None` …),
 * an object key (followed by `:`), or glued to a quote (an unescaped quote inside a string value).
 * Anything else is prose or code (`{invalid json}`, `[see the docs]`, `{ fmt.Println("x") }`) that
 * `jsonrepair` would happily turn into invented keys or strings.
 */
function safeToRepair(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' || (c === "'" && singleQuoteStartsString(text, i))) {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (c === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      const end = text[i + 1] === "/" ? text.indexOf("\n", i) : text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + (text[i + 1] === "/" ? 1 : 2);
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i;
      while (j < text.length && /[\w$]/.test(text[j]!)) j++;
      const word = text.slice(i, j);
      let k = j;
      while (k < text.length && /[ \t]/.test(text[k]!)) k++;
      const glued = text[i - 1] === '"' || text[i - 1] === "'" || text[j] === '"' || text[j] === "'";
      if (!REPAIRABLE_WORDS.has(word) && text[k] !== ":" && !glued) return false;
      i = j;
      continue;
    }
    i++;
  }
  return true;
}

/**
 * {@link parseJsonTolerant} of a value that its block's end marker ended (the model wrote the
 * marker, so the value is whole, not cut): one that lacks only its last closing brackets
 * (`[{"name": …}` before `<|tool_call_end|>`, `{"name": …, "arguments": {…}` before `</tool_call>`)
 * gets them. Only when it ends with a closed object or list: a value that stops after a key or a
 * comma is not whole.
 */
export function parseJsonEndedByMarker(text: string): unknown {
  const value = parseJsonTolerant(text);
  if (value !== undefined) return value;
  const t = text.trim();
  if ((t[0] !== "{" && t[0] !== "[") || !/[}\]]$/.test(t)) return undefined;
  const m = matchBalanced(t, 0);
  return !m.ok && m.reason === "eof" && m.missing ? parseJsonTolerant(t + m.missing) : undefined;
}

/**
 * Parse JSON the way local models write it.
 *
 * Order: (1) strict `JSON.parse` of the trimmed text (any JSON value); then, only when the text
 * is one complete bracketed value (`{…}` or `[…]`, balanced per {@link matchBalanced}):
 * (2) {@link repairJsonStrings} (Windows paths, invalid escapes, raw control characters) and a
 * strict parse; (3) `jsonrepair` for trailing commas, single quotes, unquoted keys, missing
 * commas, comments and Python `True`/`False`/`None`, accepted only when the text passes a guard
 * that rejects bare prose words (a repair must not invent structure) and the result is an object
 * or array.
 *
 * @returns the parsed value, or `undefined` when nothing sensible parses (prose, truncated or
 *   unbalanced text, code). Never throws.
 */
export function parseJsonTolerant(text: string): unknown {
  const t = text.trim();
  if (t === "") return undefined;
  if (RAW_DRIVE_PATH.test(t)) {
    // A raw drive path may parse strictly with its `\t`/`\n` read as escapes: repair first.
    const fixed = repairJsonStrings(t);
    if (fixed !== t) {
      try {
        return JSON.parse(fixed) as unknown;
      } catch {
        // fall through
      }
    }
  }
  try {
    return JSON.parse(t) as unknown;
  } catch {
    // fall through to repairs
  }
  if (t[0] !== "{" && t[0] !== "[") return undefined;
  const m = matchBalanced(t, 0);
  if (!m.ok || m.end !== t.length) return undefined;
  const fixed = repairJsonStrings(t);
  if (fixed !== t) {
    try {
      return JSON.parse(fixed) as unknown;
    } catch {
      // fall through to jsonrepair
    }
  }
  if (!safeToRepair(fixed)) return undefined;
  try {
    const value = JSON.parse(repairJson(fixed)) as unknown;
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
