/**
 * The status classifier of a citation whose lines were shown to the model: does the sentence
 * (or list item) that cites them name something that occurs in those lines?
 *
 * "Names something" is decided on code tokens, never on substrings of words:
 * - identifiers of the sentence (`load_index`, `Session.send`, `HTTPAdapter`) against the
 *   identifiers of the lines; a dotted or `::` name counts when any of its parts does; a plain
 *   English word counts only when it is not a common word (`common-words.ts`) and it equals an
 *   identifier of the lines, ignoring case and a plural `s` when it has at least 4 letters
 *   (words inside identifiers do not count: `timeout` is not `DEFAULT_TIMEOUT`, which would
 *   take a sentence about another value for support);
 * - `backticked` code is always taken as code (even `return`);
 * - quoted strings (`"application/json"`, `'utf-8'`, `「…」`) against the text of the lines;
 * - numbers written in the sentence (`30`, `0.5`) against the numbers written in the lines.
 * The citation itself (path and line numbers) is removed from the sentence first.
 *
 * Also here: the unit of text that cites a location (a list item or a sentence; one made of
 * citations only belongs to the nearest one before it that has words) and the recognition of an
 * answer that says it could not find an answer (an abstention).
 */
import { COMMON_WORDS } from "./common-words.js";

const IDENT_RE = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const NUMBER_RE = /(?<![A-Za-z0-9_.])\d+(?:\.\d+)?(?![A-Za-z0-9_])/g;
const QUOTED_RE = /"([^"\n]{2,200})"|'([^'\n]{2,200})'|“([^”\n]{2,200})”|「([^」\n]{2,200})」|『([^』\n]{2,200})』/g;
const BACKTICK_RE = /`([^`\n]+)`/g;

/** What a sentence names, split by kind. */
export interface SentenceNames {
  /** Identifiers taken as code (backticked, or shaped like code: `_`, digits, inner capitals, dots). */
  code: string[];
  /** Plain words that are not common words. */
  words: string[];
  quoted: string[];
  numbers: string[];
}

function isCodeShaped(word: string): boolean {
  return /[_$0-9]/.test(word) || /[a-z][A-Z]/.test(word) || /^[A-Z][A-Za-z0-9]*[A-Z]/.test(word);
}

/** The identifiers, words, quoted strings and numbers a sentence names (see the module comment). */
export function sentenceNames(sentence: string): SentenceNames {
  const out: SentenceNames = { code: [], words: [], quoted: [], numbers: [] };
  let rest = sentence;
  for (const m of sentence.matchAll(BACKTICK_RE)) {
    for (const id of m[1]!.match(IDENT_RE) ?? []) if (id.length >= 2) out.code.push(id);
    const inner = m[1]!.trim();
    if (/["']/.test(inner) || /\s/.test(inner)) out.quoted.push(inner);
    for (const n of m[1]!.match(NUMBER_RE) ?? []) out.numbers.push(n);
  }
  rest = rest.replace(BACKTICK_RE, " ");
  for (const m of rest.matchAll(QUOTED_RE)) {
    const q = m.slice(1).find((g) => g !== undefined)!;
    out.quoted.push(q);
  }
  rest = rest.replace(QUOTED_RE, " ");
  for (const m of rest.matchAll(/[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|->)[A-Za-z_$][A-Za-z0-9_$]*)*/g)) {
    const whole = m[0];
    const parts = whole.split(/\.|::|->/);
    const dotted = parts.length > 1;
    for (const p of parts) {
      if (p.length < 2) continue;
      if (dotted || isCodeShaped(p)) out.code.push(p);
      else if (!COMMON_WORDS.has(p.toLowerCase())) out.words.push(p);
    }
  }
  for (const n of rest.match(NUMBER_RE) ?? []) out.numbers.push(n);
  return out;
}

/** True when the sentence names something that occurs in `lines` (see the module comment). */
export function namesSomethingIn(sentence: string, lines: readonly string[]): boolean {
  const names = sentenceNames(sentence);
  const text = lines.join("\n");
  const ids = new Set(text.match(IDENT_RE) ?? []);
  const lower = new Set([...ids].map((i) => i.toLowerCase()));
  if (names.code.some((c) => ids.has(c))) return true;
  const wordMatches = (w: string) => {
    if (ids.has(w)) return true;
    if (w.length < 4) return false;
    const l = w.toLowerCase();
    return lower.has(l) || (l.endsWith("s") && lower.has(l.slice(0, -1)));
  };
  if (names.words.some(wordMatches)) return true;
  if (names.quoted.some((q) => text.includes(q))) return true;
  const numbers = new Set(text.match(NUMBER_RE) ?? []);
  return names.numbers.some((n) => numbers.has(n));
}

/** A unit of an answer: a list item or a sentence, with its character range. */
interface Unit {
  start: number;
  end: number;
}

/**
 * Splits an answer into units: each line is a unit when it is a list item, a heading or a table
 * row; other lines are split into sentences at `.`/`!`/`?` followed by white space, and at
 * `。！？；`. A unit whose text is only citations and punctuation is merged into the one before.
 */
function units(answer: string): Unit[] {
  const out: Unit[] = [];
  let lineStart = 0;
  for (const line of answer.split("\n")) {
    const lineEnd = lineStart + line.length;
    if (/^\s*(?:[-*+•]|\d+[.)]|#|\|)/.test(line)) {
      out.push({ start: lineStart, end: lineEnd });
    } else {
      let s = lineStart;
      const re = /[.!?](?=\s+)|[。！？；]/g;
      for (const m of line.matchAll(re)) {
        const cut = lineStart + m.index + 1;
        if (cut > s) out.push({ start: s, end: cut });
        s = cut;
      }
      if (lineEnd > s) out.push({ start: s, end: lineEnd });
    }
    lineStart = lineEnd + 1;
  }
  return out;
}

/**
 * The text of the unit that cites the location at `index` (a list item or a sentence), with
 * every citation span in `spans` blanked out. A unit that names nothing once its citations are
 * blanked (`See a.py:3.`, a list item that is only a location) is read together with the units
 * before it, up to the first one that has words (the sentence that leads the list).
 */
export function citingText(answer: string, index: number, spans: ReadonlyArray<{ index: number; length: number }>): string {
  let blank = answer;
  for (const s of spans) blank = blank.slice(0, s.index) + " ".repeat(s.length) + blank.slice(s.index + s.length);
  const all = units(answer);
  const i = all.findIndex((u) => index >= u.start && index < u.end);
  if (i < 0) return "";
  const textOf = (u: Unit) => blank.slice(u.start, u.end);
  let text = textOf(all[i]!);
  const empty = (t: string) => !/[A-Za-z0-9_\u3400-\u9fff]/.test(t.replace(/\b(?:see|at|in|line|lines|and|also)\b/gi, ""));
  for (let j = i - 1; j >= 0 && empty(text); j--) text = `${textOf(all[j]!)} ${text}`;
  return text;
}

const ABSTAIN_PATTERNS: readonly RegExp[] = [
  /\b(?:could ?n[o']t|can ?n[o']t|cannot|did ?n[o']t|do ?n[o']t|does ?n[o']t|unable to|was unable to|were unable to|not able to)\s+(?:find|locate|determine|answer|see|identify|tell)\b/i,
  /\bnot (?:found|present|defined anywhere|in the (?:evidence|repository|code))\b/i,
  /\bno (?:\w+ ){0,3}(?:was|were|is|are) found\b/i,
  /\b(?:i|we) (?:do not|don't) know\b/i,
  /\bno (?:evidence|information|results?|matches|definitions?|importers?|references?|callers?|files?|usages?)\b/i,
  /\bnothing (?:imports|calls|references|defines|uses|matches)\b/i,
  /\b(?:the )?evidence (?:does not|doesn't) (?:show|answer|contain|say)\b/i,
  /(?:找不到|沒有找到|没有找到|未找到|無法|无法|不知道|沒有證據|没有证据|查無|查无|沒有任何|没有任何)/,
];

/** True when the answer says it could not answer or found nothing (English or Chinese phrasing). */
export function isAbstention(answer: string): boolean {
  const text = answer.trim();
  if (text === "") return false;
  return ABSTAIN_PATTERNS.some((re) => re.test(text));
}
