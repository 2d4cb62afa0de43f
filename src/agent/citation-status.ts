/**
 * The status classifier of a citation whose lines were shown to the model, and the checks beside it.
 *
 * The status ({@link gradeCitation} `names`: `supported` or `seen`) is the naming rule of issue 10
 * in `citation-naming.ts`: the sentence (or list item) that cites the lines names an identifier, a
 * quoted string or a number that they write, compared as code tokens (a word is an identifier up
 * to letter case, a leading/trailing `_`, a sigil and an inflection; never a part of a longer one).
 *
 * Beside it, a looser reading of whether the sentence refers to something in the lines, which a
 * person judging "do these lines support the sentence" accepts but the lexical rule does not; it
 * decides {@link namesSomethingIn} and, with the status, when claims are checked:
 * - identifiers of the sentence (`load_index`, `Session.send`, `HTTPAdapter`) against the
 *   identifiers of the lines; a dotted or `::` name counts when any of its parts does;
 * - a plain English word counts only when it is not a common word (`common-words.ts`) and, with
 *   at least 4 letters, ignoring case and a plural `s`/`es`, it equals an identifier of the lines,
 *   the head (last word) of a compound identifier (`list` for `TodoList`, `cache` for
 *   `_index_cache`: a TodoList is a list), or a package name with its ecosystem affix (`Redux` for
 *   `reduxjs`, `YAML` for `pyyaml`, `Jinja` for `jinja2`). Other words inside identifiers do not
 *   count (`chunks` is not `chunk_size`, `users` is not `UserService`); nor does a word the lines
 *   abbreviate (`conn` for `connection`) or the object inside a verb-led identifier (`connection`
 *   in `get_connection_with_tls_context`) unless the noun it modifies occurs;
 * - a word qualified by a word the lines do not show names something else (`blog blueprint`
 *   over `register_blueprint(auth.bp)`, `missing keys` over `log.Printf("lookup %s", key)`): it
 *   counts only when the word written right before it is a common word or occurs in the lines
 *   (a word ending in a single `s` is not taken as a qualifier: English noun modifiers are
 *   singular, so `reads JSON` is a verb and its object);
 * - Chinese words for code nouns (`逾時` for `timeout`, `code-terms.ts`) count as those words;
 * - `backticked` code is always taken as code (even `return`);
 * - quoted strings (`"application/json"`, `'utf-8'`, `「…」`) against the text of the lines;
 * - numbers written in the sentence (`30`, `0.5`) against the numbers written in the lines (a
 *   literal as the status rule reads it: `30` for `30.0`, `644` for `0o644`), also in another unit (`10 minutes` for 600); an HTTP status number also against its reason phrase
 *   (`404` for `StatusNotFound`).
 * The citation itself (path and line numbers) is removed from the sentence first.
 *
 * A sentence that names something (by the status rule) may still claim what the lines visibly
 * do not show; that is reported beside the status as a concern (`claim-concern.ts`), never by
 * changing the status:
 * - `value`: it states numbers or quoted strings and none of them occurs in the lines (`defaults
 *   to 60` over `TIMEOUT = 30`, `"text/html"` over `'application/json'`) — the value is the
 *   claim, and the lines do not show it. A number the lines write only inside a power or a shift
 *   (`2 ** attempt`, `1 << n`) is part of a computed value, not one they state; a duration is
 *   compared in seconds when the lines write durations with their unit (`10 minutes` is not
 *   `10 * time.Second`); a count written as a word (`three times`) is a stated value too;
 * - `object`: it names code that occurs in the lines, but the last code name it writes does not
 *   (`` `create` persists the state to `localStorage` ``, `` `A` implements `B` `` over
 *   `class A extends C`). In a sentence about code the subject usually comes first and may be the
 *   context the lines sit in (`` `HTTPAdapter.send` builds… ``); the object comes last and is
 *   what the lines must show. A backticked last name that follows words of the sentence
 *   (`` read from the `OPENAI_KEY` variable ``) is an object even when no code name occurs;
 * - the claim kinds of `claim-checks.ts` (negation, operation, type, call, …).
 * A consequence clause (`…, so the last iteration raises `IndexError``) is inferred from what the
 * lines show, not written in them: when the premise before it refers to something, the premise is graded.
 * {@link namesSomethingIn} is the reading of support (refers to something by the looser reading
 * above, and no concern): it is what hand labels of "do the lines support the sentence" are
 * compared with.
 *
 * Also here: the unit of text that cites a location (a list item or a sentence; one made of
 * citations only belongs to the nearest one before it that has words) and the recognition of an
 * answer that says it could not find an answer (an abstention).
 */
import { COMMON_WORDS } from "./common-words.js";
import { literalNumbers, namesCodeIn, numberKey } from "./citation-naming.js";
import { unshownClaim } from "./claim-checks.js";
import type { ClaimConcern } from "./claim-concern.js";
import {
  BACKTICK_RE,
  chineseCodeWords,
  codeDurations,
  ENUM_VALUES,
  HTTP_STATUS_WORDS,
  identifierWords,
  NUMBER_WORDS,
  QUOTED_RE,
  statedDuration,
  stem,
  unitForms,
} from "./code-terms.js";

const IDENT_RE = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const NUMBER_RE = /(?<![A-Za-z0-9_.])\d+(?:\.\d+)?(?![A-Za-z0-9_])/g;
const LIST_MARKER_RE = /^\s*(?:[-*+•]|\d+[.)])\s+/;
const NAME_RE = /[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|->)[A-Za-z_$][A-Za-z0-9_$]*)*/g;

/** What a sentence names, split by kind. */
export interface SentenceNames {
  /** Identifiers taken as code (backticked, or shaped like code: `_`, digits, inner capitals, dots). */
  code: string[];
  /** Plain words that are not common words (and the English words of Chinese code nouns). */
  words: string[];
  /** For each of `words`, the word written right before it when that is not a common word (`blog` for `blog blueprint`). */
  qualifiers: Array<string | undefined>;
  /** For each of `words`, the word written right after it when that is not a common word (`pool` for `connection pool`): the noun it may modify. */
  modified: Array<string | undefined>;
  quoted: string[];
  numbers: string[];
  /** For each of `numbers`, the numbers code may write it as (a duration also in seconds, milliseconds, minutes; a size in bytes). */
  numberForms: string[][];
  /** For each of `numbers`, the duration in seconds when a time unit follows it (`5 minutes` → 300). */
  durations: Array<number | undefined>;
  /** Counts written as English words (`three times`, `twice`): their forms and duration, as for `numbers`. */
  countWords: Array<{ forms: string[]; duration: number | undefined }>;
  /** Values of a closed set written in capitals (`INFO`, `POST`; `code-terms.ts` `ENUM_VALUES`): stated values. */
  enums: string[];
  /** Quoted strings written as such (`"…"`, `'…'`, a backticked string literal): stated values. */
  values: string[];
  /** The code names in the order the sentence writes them, each as its parts (`Session.send` → `["Session", "send"]`). */
  codeNames: string[][];
  /** True when the last code name is in backticks and comes after a word of the sentence other than an article (`` comes from the `KEY` ``), so it is not the subject. */
  lastCodeFollowsWords: boolean;
}

/** Shaped like code: `_`, `$` or digits, inner capitals (`loadIndex`, `HTTPAdapter`); an acronym (`JSON`, `URL`, plural `CPUs`) is a word. */
function isCodeShaped(word: string): boolean {
  return /[_$0-9]/.test(word) || /[a-z][A-Z]/.test(word) || (/^[A-Z]+[A-Z][a-z]/.test(word) && !/^[A-Z]{2,}s$/.test(word));
}

/**
 * The word that ends, followed by blanks (spaces or tabs), where `text[at]` begins: the longest
 * run of letters and digits before the blanks, from its first letter (`x9ab  ` → `x9ab`,
 * `12ab ` → `ab`); `undefined` without blanks or letters. Read backwards from `at`, so a sentence
 * of n words costs n short reads: a pattern anchored at the end of `text.slice(0, at)` was tried
 * from every character before it, once per word (a sentence of 128 KB: 34 s).
 */
function wordBefore(text: string, at: number): string | undefined {
  let end = at;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  if (end === at) return undefined;
  let start = end;
  while (start > 0 && /[A-Za-z0-9]/.test(text[start - 1]!)) start--;
  while (start < end && /[0-9]/.test(text[start]!)) start++;
  return start < end ? text.slice(start, end) : undefined;
}

/** The identifiers, words, quoted strings and numbers a sentence names (see the module comment). */
export function sentenceNames(text: string): SentenceNames {
  let sentence = text;
  const out: SentenceNames = { code: [], words: [], qualifiers: [], modified: [], quoted: [], numbers: [], numberForms: [], durations: [], countWords: [], values: [], enums: [], codeNames: [], lastCodeFollowsWords: false };
  const positioned: Array<{ at: number; parts: string[]; backticked?: true }> = [];
  sentence = sentence.replace(LIST_MARKER_RE, (t) => " ".repeat(t.length));
  for (const m of sentence.matchAll(BACKTICK_RE)) {
    const ids = (m[1]!.match(IDENT_RE) ?? []).filter((id) => id.length >= 2);
    out.code.push(...ids);
    if (ids.length > 0) positioned.push({ at: m.index, parts: ids, backticked: true });
    const inner = m[1]!.trim();
    if (/["']/.test(inner) || /\s/.test(inner)) out.quoted.push(inner);
    const literal = /^(["'])(.+)\1$/.exec(inner);
    if (literal) out.values.push(literal[2]!);
    for (const n of m[1]!.match(NUMBER_RE) ?? []) {
      out.numbers.push(n);
      out.numberForms.push([n]);
      out.durations.push(undefined);
    }
  }
  let rest = sentence.replace(BACKTICK_RE, (t) => " ".repeat(t.length));
  for (const m of rest.matchAll(QUOTED_RE)) {
    const q = m.slice(1).find((g) => g !== undefined)!;
    out.quoted.push(q);
    out.values.push(q);
  }
  rest = rest.replace(QUOTED_RE, (t) => " ".repeat(t.length));
  for (const m of rest.matchAll(NAME_RE)) {
    const parts = m[0].split(/\.|::|->/);
    const dotted = parts.length > 1;
    const code: string[] = [];
    for (const p of parts) {
      if (p.length < 2) continue;
      if (dotted || isCodeShaped(p)) code.push(p);
      else if (!COMMON_WORDS.has(p.toLowerCase())) {
        out.words.push(p);
        const before = dotted ? undefined : wordBefore(rest, m.index);
        out.qualifiers.push(before !== undefined && !COMMON_WORDS.has(before.toLowerCase()) && !/[^s]s$/.test(before) ? before : undefined);
        const after = dotted ? undefined : /^[ \t]+([A-Za-z][A-Za-z0-9]*)/.exec(rest.slice(m.index + m[0].length))?.[1];
        out.modified.push(after !== undefined && !COMMON_WORDS.has(after.toLowerCase()) ? after : undefined);
        if (ENUM_VALUES.has(p)) out.enums.push(p);
      }
    }
    out.code.push(...code);
    if (code.length > 0) positioned.push({ at: m.index, parts: code });
  }
  for (const w of chineseCodeWords(rest)) {
    out.words.push(w);
    out.qualifiers.push(undefined);
    out.modified.push(undefined);
  }
  for (const m of rest.matchAll(NUMBER_RE)) {
    const after = rest.slice(m.index + m[0].length);
    out.numbers.push(m[0]);
    out.numberForms.push(unitForms(m[0], after));
    out.durations.push(statedDuration(m[0], after));
  }
  // A number word counts when it counts something (`three times`, `two workers`, not `two functions`), or is `twice`.
  for (const m of rest.matchAll(/\b([A-Za-z]+)\b(?:[ \t]+([A-Za-z]+))?/g)) {
    const value = NUMBER_WORDS.get(m[1]!.toLowerCase());
    if (value === undefined || (m[1]!.toLowerCase() !== "twice" && (m[2] === undefined || COMMON_WORDS.has(m[2].toLowerCase())))) continue;
    const after = rest.slice(m.index + m[1]!.length);
    out.countWords.push({ forms: unitForms(value, after), duration: statedDuration(value, after) });
  }
  positioned.sort((a, b) => a.at - b.at);
  out.codeNames = positioned.map((p) => p.parts);
  const last = positioned.at(-1);
  if (last?.backticked) {
    const before = sentence.slice(0, last.at).replace(BACKTICK_RE, " ");
    out.lastCodeFollowsWords = (before.match(/[A-Za-z]+|[\u3400-\u9fff]/g) ?? []).some((w) => !/^(?:the|a|an|this|that|its|their|and|or)$/i.test(w));
  }
  return out;
}

/** What the cited lines write, indexed for the comparisons of {@link namesSomethingIn}. */
interface LineTokens {
  text: string;
  ids: Set<string>;
  lower: Set<string>;
  /** The last word of each compound identifier, also in the singular (`list` for `TodoList`, `retry` for `max_retries`). */
  heads: Set<string>;
  /** The noun a compound identifier's leading verb acts on, before its first preposition (`connection` for `get_connection_with_tls_context`). */
  objects: Set<string>;
  /** Every number the lines write (digit separators dropped: `30_000` is 30000). */
  numbers: Set<string>;
  /** Durations the lines write with their unit, in seconds (`5 * time.Second`, `TIMEOUT_MS = 30_000`). */
  durations: number[];
  /** The numbers the lines write as values: not only inside a power or a shift (`2 ** attempt`). */
  values: Set<string>;
  /** The lines' identifier words and other words in order, lower-case, space-separated and padded. */
  wordText: string;
}

/** Identifier words that start a prepositional tail (`…_with_tls_context`, `…_if_stale`, `…ForUser`). */
const PREPOSITION_PARTS = new Set(["with", "for", "from", "to", "by", "of", "in", "on", "at", "if", "or", "and", "as", "into"]);

function singular(word: string): string {
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

function lineTokens(lines: readonly string[]): LineTokens {
  const text = lines.join("\n");
  const ids = new Set(text.match(IDENT_RE) ?? []);
  const heads = new Set<string>();
  const objects = new Set<string>();
  for (const id of ids) {
    const words = identifierWords(id);
    if (words.length >= 2) heads.add(words.at(-1)!).add(singular(words.at(-1)!));
    const prep = words.findIndex((w, i) => i >= 2 && PREPOSITION_PARTS.has(w));
    // A participle before the preposition (`config_validated_at`) is no object.
    if (prep > 0 && !/(?:ed|ing)$/.test(words[prep - 1]!)) objects.add(words[prep - 1]!).add(singular(words[prep - 1]!));
  }
  const wordText = ` ${(text.match(IDENT_RE) ?? []).flatMap(identifierWords).join(" ")} `;
  // A leading or trailing underscore marks a private or reserved name: `_lock` is a lock.
  const lower = new Set([...ids].flatMap((i) => [i.toLowerCase(), i.toLowerCase().replace(/^[_$]+|_+$/g, "")]).filter((i) => i !== ""));
  const numbers = new Set([...(text.match(NUMBER_RE) ?? []), ...literalNumbers(text).map((n) => n.key)]);
  return { text, ids, lower, heads, objects, numbers, values: writtenValues(text), durations: codeDurations(text), wordText };
}

/** A number in a power or shift (`2 ** attempt`, `1 << n`, `pow(2, n)`, `base ** 2`): part of a computed value, not one the code states. */
const COMPUTED_BEFORE_RE = /(?:\*\*|<<|\bpow[if]?\(|\bMath\.pow\()\s*$/;
const COMPUTED_AFTER_RE = /^\s*(?:\*\*|<<|\.pow[if]?\()/;

/**
 * The numbers the lines write as values (not only inside a power or a shift), as written and in
 * the normal form of the status rule (`30` for `30.0`, `644` for `0o644`, `1000000` for `1_000_000`).
 */
function writtenValues(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of literalNumbers(text)) {
    const computed = COMPUTED_BEFORE_RE.test(text.slice(Math.max(0, m.index - 12), m.index)) || COMPUTED_AFTER_RE.test(text.slice(m.index + m.written.length));
    if (!computed) out.add(m.written).add(m.key);
  }
  return out;
}

/** The forms of a word to compare: itself and without a plural `s`/`es`/`ies` (lower-case). */
function wordForms(word: string): string[] {
  const l = word.toLowerCase();
  const out = [l];
  if (/[^aeiou]ies$/.test(l)) out.push(`${l.slice(0, -3)}y`);
  if (l.endsWith("es") && l.length > 4) out.push(l.slice(0, -2));
  if (l.endsWith("s") && !l.endsWith("ss")) out.push(l.slice(0, -1));
  return out;
}

function wordOccurs(word: string, t: LineTokens): boolean {
  if (t.ids.has(word)) return true;
  if (word.length < 4) return false;
  const packageBase = (f: string) => (f.startsWith("py") && f.length >= 5 ? [f.slice(2)] : []);
  return wordForms(word).some(
    (f) =>
      t.lower.has(f) ||
      t.heads.has(f) ||
      t.lower.has(`${f}js`) ||
      t.lower.has(`py${f}`) ||
      packageBase(f).some((b) => t.lower.has(b)) ||
      [...t.lower].some((id) => id.startsWith(f) && /^\d+$/.test(id.slice(f.length))),
  );
}

/**
 * A word the lines abbreviate to an identifier of at least 3 letters that is its start (`conn`
 * for `connection`, `req` for `request`); an inflection is no abbreviation (`logged` is not `log`).
 */
function abbreviated(word: string, t: LineTokens): boolean {
  const base = stem(word);
  return [...t.lower].some((id) => id.length >= 3 && base.length >= id.length + 2 && base.startsWith(id) && !COMMON_WORDS.has(id));
}

/** A word that is the object inside a longer identifier (`connection` in `get_connection_with_tls_context`). */
function objectOccurs(word: string, t: LineTokens): boolean {
  return word.length >= 4 && wordForms(word).some((f) => t.objects.has(f));
}

/** True when a word, or one of its forms, is among the lines' identifier words. */
function inWordText(word: string, t: LineTokens): boolean {
  return wordForms(word).some((f) => t.wordText.includes(` ${f} `));
}

/** True when one of a number's forms occurs in the lines (`asValue`: as a value they state, not inside a power or shift). */
function numberOccurs(forms: readonly string[], t: LineTokens, asValue = false): boolean {
  const written = asValue ? t.values : t.numbers;
  if (forms.some((f) => written.has(f) || written.has(numberKey(f)))) return true;
  const phrase = HTTP_STATUS_WORDS.get(forms[0]!);
  if (phrase === undefined) return false;
  return t.wordText.includes(` ${phrase.join(" ")} `) || t.text.toLowerCase().includes(phrase.join(" "));
}

const codeNameOccurs = (t: LineTokens) => (parts: readonly string[]) => parts.some((p) => t.ids.has(p));

/** True when a plain word, quoted string or number of the sentence occurs in the lines. */
function otherNamesOccur(names: SentenceNames, t: LineTokens): boolean {
  // A qualifier counts when the lines write it, or abbreviate it to its first letter (`read lock` for `RLock`).
  const qualifierOccurs = (q: string | undefined, w: string) =>
    q === undefined || wordOccurs(q, t) || inWordText(q, t) || wordForms(w).some((f) => t.wordText.includes(` ${q[0]!.toLowerCase()} ${f} `));
  const modifiedOccurs = (m: string | undefined) => m === undefined || wordOccurs(m, t) || inWordText(m, t);
  const wordMatches = (w: string, i: number) => wordOccurs(w, t) || ((objectOccurs(w, t) || abbreviated(w, t)) && modifiedOccurs(names.modified[i]));
  if (names.words.some((w, i) => wordMatches(w, i) && qualifierOccurs(names.qualifiers[i], w))) return true;
  if (names.quoted.some((q) => t.text.includes(q))) return true;
  return names.numberForms.some((forms) => numberOccurs(forms, t));
}

/**
 * The grade of one citing sentence against the lines it cites: `names` is the citation status
 * rule of issue 10 (`supported` when the sentence names an identifier, quoted string or number
 * that occurs in the lines, compared as code tokens; else `seen`); `concern`, only when it names
 * something, is the first claim the lines visibly do not show (see the module comment).
 */
export interface CitationGrade {
  names: boolean;
  concern?: ClaimConcern;
}

/** Where a clause that states a consequence begins (`, so …`, `, which means …`, `，所以…`). */
const CONSEQUENCE_RE = /,\s*(?:so|therefore|thus|hence|which means|meaning)\s+(?!that\b|far\b|on\b)|[，,]?\s*(?:所以|因此)/i;

/** Grades a citing sentence against its cited lines (see {@link CitationGrade}); `path` is the cited file's. */
export function gradeCitation(sentence: string, lines: readonly string[], path?: string): CitationGrade {
  if (!namesCodeIn(sentence, lines, path)) return { names: false };
  const { concern } = readGrade(sentence, lines, true);
  return concern !== undefined ? { names: true, concern } : { names: true };
}

/**
 * The reading of support: whether the sentence refers to something in the lines (see the module
 * comment) and, when it does or `named` says the status rule found a name, the first claim the
 * lines visibly do not show. With `countWords`, a count written as a word (`three times`) also
 * refers to its number (people read it so; the status rule names numbers written as digits only);
 * a count word is a stated value in both.
 */
function readGrade(sentence: string, lines: readonly string[], named = false, countWords = false): { refers: boolean; concern?: ClaimConcern } {
  // "…, so the last iteration raises `IndexError`": a consequence is inferred from what the lines
  // show, not written in them; the claim is the premise, when the premise refers to something.
  const consequence = CONSEQUENCE_RE.exec(sentence);
  if (consequence !== null && consequence.index > 0) {
    const premise = readGrade(sentence.slice(0, consequence.index), lines, false, countWords);
    if (premise.refers) return premise;
  }
  const names = sentenceNames(sentence);
  const t = lineTokens(lines);
  const occurs = codeNameOccurs(t);
  const someCode = names.codeNames.some(occurs);
  const refers = someCode || otherNamesOccur(names, t) || (countWords && names.countWords.some((c) => numberOccurs(c.forms, t)));
  if (!refers && !named) return { refers };
  const stated = [...names.numbers.map((_, i) => ({ forms: names.numberForms[i]!, duration: names.durations[i] })), ...names.countWords];
  // A duration is compared in seconds when the lines write durations with their unit (`5 * time.Second` is not 5 minutes).
  const statedOccurs = (s: { forms: readonly string[]; duration: number | undefined }) =>
    s.duration !== undefined && t.durations.length > 0 ? t.durations.some((d) => Math.abs(d - s.duration!) <= 1e-9 * Math.max(1, d)) : numberOccurs(s.forms, t, true);
  const statedValues = [...stated, ...names.values, ...names.enums];
  if (
    statedValues.length > 0 &&
    !stated.some(statedOccurs) &&
    !names.values.some((v) => t.text.includes(v)) &&
    !names.enums.some((e) => t.wordText.includes(` ${e.toLowerCase()} `))
  ) {
    return { refers, concern: "value" };
  }
  // The last code name is the object; when no code name occurs, it still is unless it leads the sentence (its subject).
  if ((someCode || names.lastCodeFollowsWords) && names.codeNames.length > 0 && !occurs(names.codeNames.at(-1)!)) return { refers, concern: "object" };
  const unshown = unshownClaim(sentence, { names: [...names.code, ...names.words], occurs: (w) => wordOccurs(w, t) || inWordText(w, t) || abbreviated(w, t) }, lines);
  return unshown === undefined ? { refers } : { refers, concern: unshown };
}

/** True when the sentence names something that occurs in `lines` and claims nothing they visibly do not show (see the module comment). */
export function namesSomethingIn(sentence: string, lines: readonly string[]): boolean {
  const grade = readGrade(sentence, lines, false, true);
  return grade.refers && grade.concern === undefined;
}

/** A unit of an answer: a list item or a sentence, with its character range. */
interface Unit {
  start: number;
  end: number;
}

/**
 * Splits an answer into units: each line is a unit when it is a list item, a heading or a table
 * row; other lines are split into sentences (and clauses) at `.`/`!`/`?`/`;` followed by white
 * space, and at `。！？；`. A unit whose text is only citations and punctuation is merged into the one before.
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
      const re = /[.!?;](?=\s+)|[。！？；]/g;
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
 * Where one clause of a sentence ends and the next begins: a comma or semicolon (with
 * `and`/`but`/`while`/`whereas`), or those words alone; 、，；以及 並且 而且 in Chinese. The blanks
 * before a word are matched from their first one only (`(?<!\s)`): a match that starts inside a
 * run of blanks would end where the one from its start ends, and trying each read the rest of the
 * run (blanks between two citations of one sentence: 32 KB took 5 s).
 */
const CLAUSE_BOUNDARY_RE = /[,;]\s*(?:(?:and|but|while|whereas)\s+)?|(?<!\s)\s+(?:and|but|while|whereas)\s+|[，、；]|以及|並且|并且|而且/g;

/** Most units that name nothing read between a bare citation and the sentence that leads it. */
const MAX_EMPTY_UNITS = 64;

/** Index of the first span in `sorted` (by `index`) whose index is at least `at`. */
function firstSpanFrom(sorted: ReadonlyArray<{ index: number; length: number }>, at: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.index < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * When a unit cites several locations (`a.py:10 imports x, and a.py:20 calls y`), the clause of the
 * one at `index`: from the last clause boundary between the previous citation and this one to the
 * last boundary between this one and the next (no boundary → that side stays the unit's edge).
 * `undefined` when the unit cites one location only. `sorted` is every span, by `index`.
 */
function ownClause(answer: string, unit: Unit, index: number, sorted: ReadonlyArray<{ index: number; length: number }>): Unit | undefined {
  const from = firstSpanFrom(sorted, unit.start);
  const to = firstSpanFrom(sorted, unit.end);
  if (to - from < 2) return undefined;
  const at = firstSpanFrom(sorted, index + 1) - 1;
  if (at < from || at >= to || index >= sorted[at]!.index + sorted[at]!.length) return undefined;
  const lastBoundary = (start: number, end: number): { start: number; end: number } | undefined => {
    let found: { start: number; end: number } | undefined;
    for (const m of answer.slice(start, end).matchAll(CLAUSE_BOUNDARY_RE)) found = { start: start + m.index, end: start + m.index + m[0].length };
    return found;
  };
  const prev = at > from ? sorted[at - 1]! : undefined;
  const next = at < to - 1 ? sorted[at + 1]! : undefined;
  const before = prev ? lastBoundary(prev.index + prev.length, sorted[at]!.index) : undefined;
  const after = next ? lastBoundary(sorted[at]!.index + sorted[at]!.length, next.index) : undefined;
  return { start: before?.end ?? unit.start, end: after?.start ?? unit.end };
}

/**
 * The text of the unit that cites the location at `index` (a list item or a sentence), with
 * every citation span in `spans` blanked out. A unit that names nothing once its citations are
 * blanked (`See a.py:3.`, a list item that is only a location) is read together with the units
 * before it, up to the first one that has words (the sentence that leads the list). A unit that cites
 * several locations gives each its own clause when that clause names something ({@link ownClause}).
 */
export function citingText(answer: string, index: number, spans: ReadonlyArray<{ index: number; length: number }>): string {
  return citingTexts(answer, spans)(index);
}

/**
 * {@link citingText} for many citations of one answer: the answer is blanked and split into
 * units once (time linear in its length), then each call finds its unit and clause by binary
 * search. Before, each citation blanked every span again: an answer with n citations cost n²
 * slices of the whole answer (1,000 citations in 25 KB: 4.5 s of CPU).
 */
export function citingTexts(answer: string, spans: ReadonlyArray<{ index: number; length: number }>): (index: number) => string {
  const sorted = [...spans].sort((a, b) => a.index - b.index);
  const parts: string[] = [];
  let pos = 0;
  for (const s of sorted) {
    const start = Math.max(pos, s.index);
    const end = Math.max(start, s.index + s.length);
    parts.push(answer.slice(pos, start), " ".repeat(end - start));
    pos = end;
  }
  parts.push(answer.slice(pos));
  const blank = parts.join("");
  const all = units(answer);
  const textOf = (u: Unit) => blank.slice(u.start, u.end);
  const empty = (t: string) => !/[A-Za-z0-9_\u3400-\u9fff]/.test(t.replace(/\b(?:see|at|in|line|lines|and|also)\b/gi, ""));
  // For each unit, the nearest unit at or before it that has words (-1: none). Units are joined
  // with spaces, so a joined text names nothing exactly when each of its units names nothing.
  const lead: number[] = [];
  for (let i = 0; i < all.length; i++) lead.push(empty(textOf(all[i]!)) ? (i > 0 ? lead[i - 1]! : -1) : i);
  return (index) => {
    // The last unit starting at or before `index`, when it holds it.
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (all[mid]!.start <= index) lo = mid + 1;
      else hi = mid;
    }
    const i = lo - 1;
    if (i < 0 || index >= all[i]!.end) return "";
    const clause = ownClause(answer, all[i]!, index, sorted);
    if (clause !== undefined) {
      const own = blank.slice(clause.start, clause.end);
      const names = sentenceNames(own);
      if (names.code.length > 0 || names.words.length > 0) return own;
    }
    // From the nearest unit with words (or the first unit) to this one; of the units between,
    // which name nothing, only the last MAX_EMPTY_UNITS are kept, so a list of thousands of bare
    // locations does not make every one of them read the whole list.
    const first = Math.max(0, lead[i]!);
    const between = Math.max(first + 1, i - MAX_EMPTY_UNITS);
    const read = first < i ? [first, ...Array.from({ length: i - between }, (_, k) => between + k), i] : [i];
    return read.map((j) => textOf(all[j]!)).join(" ");
  };
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
