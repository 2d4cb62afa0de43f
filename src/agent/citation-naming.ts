/**
 * The citation status rule of issue 10: a citing sentence (or list item) is `supported` when it
 * names something that occurs in the cited lines — an identifier, a quoted string, a number
 * written in the code — compared as code tokens, not substrings of words; else `seen`. The rule
 * is lexical: what the sentence writes against what the lines write, never what either means.
 *
 * What the sentence names (the citation itself is removed first, and so are line references
 * such as `line 3` or `第 3 行`: a line number is not a number of the code):
 * - code: a backticked name, or a word shaped like code (`load_index`, `HTTPAdapter`, a dotted
 *   `Session.send`), counts when it is written in the lines, ignoring letter case and a leading
 *   sigil (`HttpClient` for `HTTPClient`, `$DATABASE_URL` for `"DATABASE_URL"`) — as an identifier of the
 *   code, in a comment, in a string or as a whole string literal (`"config"` for
 *   `` `config/settings.yaml` ``); a dotted name when one of its parts is; a single letter only in
 *   backticks (`` `i` ``). A command-line flag (`--dry-run`, `-v`) counts as a quoted string, with
 *   or without its dashes. A keyword or literal
 *   constant is syntax, not a name, in backticks too (`` `guard let` ``, `` `true` ``, `` `None` ``
 *   in Python — but `None` is a name in Rust); a keyword the code uses as a name is one
 *   (`re.match`, `map.delete(k)`, Kotlin's `store.open(path)` but not `open class`; the word after
 *   a preprocessor `#` is a directive: `code-keywords.ts`);
 * - words: a plain English word counts when, ignoring letter case, it equals an identifier of the
 *   code (not of a comment or string: prose words there name no code) up to a leading or trailing
 *   `_` or a sigil (`lock` for `self._lock`, `closed` for `closed_`, `user` for `$user`) and an
 *   English inflection (plural or third person `-s`/`-es`/`-ies`, `-ed`, `-ing`, an irregular
 *   past: `prices` for `price`, `sorted` for `sort`, `sent` for `send`). A word that is only one part of a longer identifier does not
 *   name it (`log` is not `login`, `list` is not `TodoList`, `connection` is not
 *   `get_connection_with_tls_context`), nor does the long form of an abbreviation (`environment`
 *   is not `env`). Consecutive words that spell all the parts of an identifier name it (`idle
 *   timeout` for `IdleTimeout`, `max retries` for `max_retries`), and so do words the code writes
 *   as one (`log in` for `login`, `filename` for `file_name`). English function words
 *   (articles, pronouns, short prepositions, auxiliaries, negations, number words) name nothing;
 *   a quantifier or restriction word names an identifier the code writes (`only` for Ruby's
 *   `only: :destroy`, `any` for Kotlin's `items.any { … }`, `once` for Go's `once.Do`). No word
 *   names a word the code uses as a keyword (`if`, `returns` for `return`, `new`;
 *   `code-keywords.ts`). Words of other languages are not translated (`重試` is not
 *   `retry`);
 * - quoted strings (`"cache miss"`, `'utf-8'`, `「…」`, a backticked string literal) count when
 *   they occur inside a string literal of the lines, ignoring case and bounded by non-word
 *   characters (`"/user"` is not in `"/users/:id"`); one that is a single identifier also counts
 *   as code, and a quoted path by its parts the lines write whole (`"config"`, `"settings.yaml"`);
 * - numbers written in the sentence count when the code writes that number: as the same value
 *   (`30` for `30.0`, `1000000` for `1_000_000`), with the same digits after a radix prefix
 *   (`644` for `0o644`, `0xff` for `0xFF`), as a factor of an expression (`5` in
 *   `5 * 1024 * 1024`), inside a string (`"100kb"`) or as a whole part of an identifier
 *   (`HTTP_404_NOT_FOUND`). A value the code only computes (5242880, `0o644` read as 420), the
 *   same value written another way (`1000` for `1e3`, `255` for `0xFF`; an exponent is compared as
 *   written, `1e3` for `1.0E+3`) or the same quantity in another unit (30 seconds as 30000 ms) is
 *   not written in the code, nor is a number written in words (`one`).
 */
import { isKeywordAt, reservedWords } from "./code-keywords.js";
import { lexLines } from "./code-lexemes.js";
import { BACKTICK_RE, identifierWords, QUOTED_RE } from "./code-terms.js";

/** An identifier; none starts inside a number (`0xFF`, `10u32`, `1e3` write no `xFF`, `u32`, `e3`). */
const IDENT_RE = /(?<![A-Za-z0-9_$])[A-Za-z_$][A-Za-z0-9_$]*/g;
/** A command-line flag written in a sentence (`--dry-run`, `-v`). */
const FLAG_RE = /(?<![\w-])--?[A-Za-z][\w-]*/g;
const NAME_RE = /[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|->)[A-Za-z_$][A-Za-z0-9_$]*)*/g;
const LIST_MARKER_RE = /^\s*(?:[-*+•]|\d+[.)])\s+/;
/** A line reference of an answer: `line 3`, `lines 2-4`, `ll. 2–4`, `L12`, `第 3 行`. */
const LINE_REF_RE = /\b(?:lines?|ll?\.)\s*\d+(?:\s*(?:-|–|—|to|and|,)\s*\d+)*|\bL\d+(?:-L?\d+)?\b|第\s*\d+(?:\s*[-–~到至]\s*\d+)?\s*行/gi;
/** A number written in a sentence: decimal (with `,` thousands or `_` separators; a unit may follow without a space, `10MB`), or hexadecimal. */
const SENTENCE_NUMBER_RE =
  /(?<![A-Za-z0-9_.$])(?:0[xX][0-9a-fA-F]+(?![A-Za-z0-9_])|0[oObB]([0-7_]+)(?![A-Za-z0-9_])|(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![0-9_]|\.\d)(?=[A-Za-z]*(?![A-Za-z0-9_])))/g;
/** A numeric literal of code: hexadecimal, octal, binary or decimal, with `_` separators and a type suffix (`1L`, `2.0f`, `10u32`). */
const CODE_NUMBER_RE = /(?<![A-Za-z0-9_$.])(0[xX]([0-9a-fA-F_]+)|0[oO]([0-7_]+)|0[bB]([01_]+)|(\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?))[A-Za-z0-9_]*/g;
/** A run of digits inside a string literal (`"100kb"`, `"3"`). */
const STRING_NUMBER_RE = /(?<![0-9.])\d+(?:\.\d+)?(?![0-9])/g;

/**
 * English words that name nothing whatever the lines write: articles, pronouns, short
 * prepositions, conjunctions, auxiliaries, negations, and numbers written in words (`it` is not
 * Kotlin's `it`, `to` not Kotlin's infix `to`, `one` not `1`).
 */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but nor so if then else when where which who whom whose what why how whether while unless " +
    "is are was were be been being am do does did done has have had having can could will would shall should may might must " +
    "i you he she it we they me him her us them my your his its our their mine yours this that these those there here itself themselves " +
    "none nothing something anything everything someone anyone everyone nobody " +
    "of in on at by for with from to into onto over under via per upon " +
    "as than too very also just such not no yes " +
    "zero one two three four five six seven eight nine ten eleven twelve hundred thousand million half " +
    "e g eg ie etc"
  ).split(/\s+/),
);

/**
 * The normal form of a number as written, for the status: {@link numberKey}, except that a decimal
 * with an exponent keeps it (`1e3` → `1e3`, `1.0E+3` → `1e3`): the code writes `1e3`, not `1000`.
 */
function writtenKey(written: string): string {
  const exp = /^([\d_.]+)[eE]([+-]?\d+)$/.exec(written);
  return exp ? `${numberKey(exp[1]!)}e${Number(exp[2])}` : numberKey(written);
}

/** A sentence's names, split by kind (see the module comment). */
interface NamedInSentence {
  /** Code names, each as its parts (`Session.send` → Session, send). */
  code: string[][];
  /** Runs of plain words written one after another (lower-case), for single words and compounds. */
  wordRuns: string[][];
  quoted: string[];
  /** Each number's normal form ({@link numberKey}). */
  numbers: string[];
}

/** Shaped like code: `_`, `$` or digits, inner capitals (`loadIndex`, `HTTPAdapter`); an acronym (`JSON`, plural `CPUs`) is a word. */
function isCodeShaped(word: string): boolean {
  return /[_$0-9]/.test(word) || /[a-z][A-Z]/.test(word) || (/^[A-Z]+[A-Z][a-z]/.test(word) && !/^[A-Z]{2,}s$/.test(word));
}

/** The normal form of a written number: its value for a decimal (`30.0` → `30`), `0x` and lower-case digits for a hexadecimal. */
export function numberKey(written: string): string {
  const n = written.replace(/[_,]/g, "");
  if (/^0[xX]/.test(n)) return `0x${n.slice(2).toLowerCase().replace(/^0+(?=.)/, "")}`;
  return String(Number(n));
}

/** The key of a number matched by {@link SENTENCE_NUMBER_RE}: an octal or binary literal by the digits after its prefix, as {@link literalNumbers} reads code. */
function sentenceNumberKey(m: RegExpMatchArray): string {
  return m[1] !== undefined ? numberKey(m[1]) : writtenKey(m[0]);
}

/** A flag as written and without its dashes: a parser may declare `--dry-run` as `"dry-run"` (Go's `flag`) or `"v"`. */
function flagForms(flag: string): string[] {
  const m = /^\s*(--?[A-Za-z][\w-]*)\s*$/.exec(flag);
  return m ? [m[1]!, m[1]!.replace(/^-+/, "")] : [];
}

function namedInSentence(sentence: string): NamedInSentence {
  const out: NamedInSentence = { code: [], wordRuns: [], quoted: [], numbers: [] };
  let text = sentence.replace(LIST_MARKER_RE, (t) => " ".repeat(t.length)).replace(LINE_REF_RE, (t) => " ".repeat(t.length));
  for (const m of text.matchAll(BACKTICK_RE)) {
    const inner = m[1]!.trim();
    const literal = /^(["'])(.+)\1$/.exec(inner);
    if (literal) out.quoted.push(literal[2]!);
    if (FLAG_RE.test(inner)) out.quoted.push(...flagForms(inner));
    FLAG_RE.lastIndex = 0;
    const ids = literal ? [] : (inner.match(IDENT_RE) ?? []);
    if (ids.length > 0) out.code.push(ids);
    for (const m2 of literal ? [] : inner.matchAll(SENTENCE_NUMBER_RE)) out.numbers.push(sentenceNumberKey(m2));
  }
  text = text.replace(BACKTICK_RE, (t) => " ".repeat(t.length));
  for (const m of text.matchAll(QUOTED_RE)) out.quoted.push(m.slice(1).find((g) => g !== undefined)!);
  text = text.replace(QUOTED_RE, (t) => " ".repeat(t.length));
  for (const m of text.matchAll(FLAG_RE)) out.quoted.push(...flagForms(m[0]));
  text = text.replace(FLAG_RE, (t) => " ".repeat(t.length));
  let run: string[] = [];
  let runEnd = -1;
  for (const m of text.matchAll(NAME_RE)) {
    const parts = m[0].split(/\.|::|->/);
    const joined = runEnd >= 0 && /^[ \t]*(?:-[ \t]*)?$/.test(text.slice(runEnd, m.index));
    if (!joined && run.length > 0) {
      out.wordRuns.push(run);
      run = [];
    }
    if (parts.length > 1 || isCodeShaped(m[0])) {
      out.code.push(parts.filter((p) => p.length >= 2));
      runEnd = -1;
      continue;
    }
    run.push(m[0].toLowerCase());
    runEnd = m.index + m[0].length;
  }
  if (run.length > 0) out.wordRuns.push(run);
  for (const m of text.matchAll(SENTENCE_NUMBER_RE)) out.numbers.push(sentenceNumberKey(m));
  return out;
}

/**
 * The numeric literals `code` writes, each as written, where, and in the normal form of
 * {@link numberKey}: a decimal by its value (`30.0`, `1_000_000`), a hexadecimal by its digits, an
 * octal or binary literal by the digits after its prefix (`0o644` → 644: how it is written and
 * read, not its value 420).
 */
export function literalNumbers(code: string): Array<{ written: string; index: number; key: string }> {
  const out: Array<{ written: string; index: number; key: string }> = [];
  for (const m of code.matchAll(CODE_NUMBER_RE)) {
    const [, written, hex, oct, bin, dec] = m;
    const key = hex !== undefined ? numberKey(`0x${hex}`) : oct !== undefined || bin !== undefined ? numberKey((oct ?? bin)!) : numberKey(dec!);
    out.push({ written: written!, index: m.index, key });
  }
  return out;
}

/**
 * Irregular past forms of verbs that name operations in code (`sent` for `send`, `built` for
 * `build`), by the English irregular verbs (https://en.wiktionary.org/wiki/Appendix:English_irregular_verbs),
 * and irregular plurals of nouns code names things by (`indices` for `index`, `children` for `child`).
 */
const IRREGULAR: ReadonlyMap<string, readonly string[]> = new Map(
  (
    "sent:send built:build ran:run written:write wrote:write found:find kept:keep made:make thrown:throw threw:throw caught:catch " +
    "got:get gotten:get bound:bind began:begin begun:begin chosen:choose chose:choose given:give gave:give hidden:hide hid:hide " +
    "known:know knew:know led:lead lost:lose paid:pay said:say seen:see saw:see sold:sell shown:show spent:spend spun:spin " +
    "taken:take took:take told:tell won:win overridden:override overrode:override forgotten:forget forgot:forget frozen:freeze " +
    "froze:freeze drawn:draw drew:draw dealt:deal broken:break broke:break held:hold fed:feed fell:fall fallen:fall went:go gone:go " +
    "left:leave meant:mean struck:strike stuck:stick swept:sweep undone:undo undid:undo rebuilt:rebuild rewritten:rewrite " +
    "rewrote:rewrite withdrawn:withdraw understood:understand brought:bring bought:buy sought:seek shot:shoot slept:sleep " +
    "woken:wake woke:wake wound:wind ridden:ride rode:ride risen:rise rose:rise torn:tear tore:tear worn:wear wore:wear " +
    "indices:index vertices:vertex matrices:matrix children:child people:person analyses:analysis criteria:criterion leaves:leaf"
  )
    .split(" ")
    .map((pair) => pair.split(":") as [string, string])
    .reduce((m, [form, base]) => m.set(form, [...(m.get(form) ?? []), base]), new Map<string, string[]>()),
);

/** The forms of a word or identifier word without an English inflection, lower-case (a base keeps at least 3 letters and a vowel; an acronym's plural `IDs` gives `id`). */
function baseForms(word: string): string[] {
  const l = word.toLowerCase();
  const out = new Set([l]);
  const add = (b: string) => {
    if (b.length >= 3 && /[aeiouy]/.test(b)) out.add(b);
  };
  if (/[^aeiou]ie[sd]$/.test(l)) add(`${l.slice(0, -3)}y`);
  if (/(?:s|x|z|ch|sh)es$/.test(l)) add(l.slice(0, -2));
  if (l.endsWith("s") && !l.endsWith("ss")) add(l.slice(0, -1));
  if (/^[A-Z]{2,}s$/.test(word)) out.add(l.slice(0, -1));
  for (const b of IRREGULAR.get(l) ?? []) out.add(b);
  if (l.endsWith("ed")) {
    add(l.slice(0, -2));
    add(l.slice(0, -1));
    if (/([^aeiou])\1ed$/.test(l)) add(l.slice(0, -3));
  }
  if (l.endsWith("ing")) {
    add(l.slice(0, -3));
    add(`${l.slice(0, -3)}e`);
    if (/([^aeiou])\1ing$/.test(l)) add(l.slice(0, -4));
  }
  return [...out];
}

/** What the cited lines write, indexed for {@link namesCodeIn}. */
interface WrittenInLines {
  /** Every identifier written anywhere in the lines, as written (and without a leading `$`). */
  anywhere: Set<string>;
  /** The base forms ({@link baseForms}) of the code's identifiers that are not reserved words, without leading/trailing `_` and sigils. */
  wordBases: Set<string>;
  /** The words of each identifier of the code and the comments that has at least two (`IdleTimeout` → idle, timeout). */
  compounds: string[][];
  strings: string[];
  numbers: Set<string>;
}

function writtenInLines(lines: readonly string[], path: string | undefined): WrittenInLines {
  const lex = lexLines(lines, path);
  const reserved = reservedWords(path);
  // The code's names: its identifiers, less the words it uses as keywords there (`true`, `guard`, `open class`, `#define`).
  const codeIds = [...lex.code.matchAll(IDENT_RE)].filter((m) => !isKeywordAt(lex.code, m.index, m[0], path)).map((m) => m[0]);
  const prose = (text: string) => (text.match(IDENT_RE) ?? []).filter((id) => !reserved.has(id));
  const commentIds = prose(lex.comments);
  const anywhere = new Set([...codeIds, ...commentIds, ...lex.strings.flatMap(prose), ...lex.strings.map((s) => s.trim())]);
  for (const id of [...anywhere]) if (id.startsWith("$")) anywhere.add(id.slice(1));
  const wordBases = new Set<string>();
  for (const id of codeIds) {
    const bare = id.replace(/^[$_]+|_+$/g, "");
    if (bare.length >= 2) for (const b of baseForms(bare.replace(/_/g, ""))) wordBases.add(b);
  }
  const compounds = [...new Set([...codeIds, ...commentIds.filter(isCodeShaped)])].map(identifierWords).filter((w) => w.length >= 2);
  const numbers = new Set(literalNumbers(lex.code).map((n) => (/^\d[\d_.]*[eE]/.test(n.written) ? writtenKey(n.written) : n.key)));
  for (const s of lex.strings) for (const n of s.match(STRING_NUMBER_RE) ?? []) numbers.add(numberKey(n));
  for (const id of codeIds) for (const w of identifierWords(id)) if (/^\d+$/.test(w)) numbers.add(numberKey(w));
  return { anywhere, wordBases, compounds, strings: lex.strings, numbers };
}

/** True when `needle` occurs in `hay` with no word character right before or after it (where `needle` itself starts or ends with one). */
function occursBounded(hay: string, needle: string): boolean {
  if (needle === "") return false;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    const before = hay[i - 1];
    const after = hay[i + needle.length];
    const okBefore = !/^\w/.test(needle) || before === undefined || !/\w/.test(before);
    const okAfter = !/\w$/.test(needle) || after === undefined || !/\w/.test(after);
    if (okBefore && okAfter) return true;
  }
  return false;
}

/** True when the run of sentence words spells all the words of `parts` one after another (the last may be inflected). */
function spells(run: readonly string[], parts: readonly string[]): boolean {
  for (let i = 0; i + parts.length <= run.length; i++) {
    const last = parts.length - 1;
    if (parts.every((p, k) => (k < last ? run[i + k] === p : baseForms(run[i + k]!).some((b) => baseForms(p).includes(b))))) return true;
  }
  return false;
}

/**
 * True when the sentence names an identifier, quoted string or number that the cited lines
 * write (see the module comment). `path` is the cited file's path: its extension gives the
 * comment syntax and the reserved words of its language.
 */
export function namesCodeIn(sentence: string, lines: readonly string[], path?: string): boolean {
  const names = namedInSentence(sentence);
  const lines_ = writtenInLines(lines, path);
  // Code is compared ignoring letter case (`HttpClient` for `HTTPClient`) and a leading sigil (`$DATABASE_URL` for `"DATABASE_URL"`).
  const anywhereLower = new Set([...lines_.anywhere].map((a) => a.toLowerCase()));
  const codeOccurs = (p: string) => [p, p.replace(/^[$@]+/, "")].some((f) => f.length >= 1 && anywhereLower.has(f.toLowerCase()));
  if (names.code.some((parts) => parts.some(codeOccurs))) return true;
  const words = names.wordRuns.flat().filter((w) => w.length >= 2 && !FUNCTION_WORDS.has(w));
  if (words.some((w) => baseForms(w).some((b) => lines_.wordBases.has(b)))) return true;
  if (names.wordRuns.some((run) => run.length >= 2 && lines_.compounds.some((parts) => spells(run, parts)))) return true;
  // Words written apart that the code writes as one (`log in` for `login`, `file name` for `filename`).
  const joinedOccurs = (run: readonly string[]) => run.some((_, i) => [2, 3].some((n) => i + n <= run.length && baseForms(run.slice(i, i + n).join("")).some((b) => lines_.wordBases.has(b))));
  if (names.wordRuns.some(joinedOccurs)) return true;
  const lowerStrings = lines_.strings.map((s) => s.toLowerCase());
  // A quoted path counts by its parts when the lines build it from them (`"config/settings.yaml"` over `join("config", "settings.yaml")`).
  const pieces = (q: string) => (/\s/.test(q) ? [q] : [q, ...q.split("/").filter((p) => p !== "" && p !== q)]);
  const quotedOccurs = (q: string) => lowerStrings.some((s) => occursBounded(s, q.toLowerCase())) || (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(q) && lines_.anywhere.has(q));
  if (names.quoted.some((q) => pieces(q).some((p) => (p === q ? quotedOccurs(p) : lines_.anywhere.has(p))))) return true;
  return names.numbers.some((n) => lines_.numbers.has(n));
}
