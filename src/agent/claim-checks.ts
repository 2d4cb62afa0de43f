/**
 * Claims a sentence makes about the lines it cites that the lines visibly do not show, beyond
 * the names it writes: the citation status classifier (`citation-status.ts`) reports one of
 * these beside a `supported` status as its concern (`claim-concern.ts`).
 *
 * - `quoted-code`: it quotes code (`` `len(items) > MAX` ``, `` `self.timeout = timeout or 10` ``)
 *   and none of its quotes occurs in the lines token by token in that order (gaps allowed, so
 *   `` `raise AuthError()` `` quotes `raise AuthError("missing")`; a sentence citing two places
 *   may quote each);
 * - `negation`: it says something is not done (`does not raise`, `never retries`, `is not
 *   cached`) and the lines write that verb or another name of the operation (`does not check`
 *   over `verify_password(…)`), a Chinese clause negates a code noun the lines write (`沒有處理例外`
 *   over `except ValueError:`), or it says an error is ignored over lines that handle it
 *   (`if err != nil`, `except`, `catch`; `code-terms.ts` `ERROR_HANDLING_RE`);
 * - `operation`: it says an operation happens that code names with the same verb (`is
 *   committed`, `splits on`, `are converted`, `exists`, Chinese `提交`, `等待`; `code-terms.ts`
 *   `operationNames`) and the lines write neither that verb nor another name code gives the operation;
 * - `property`: it says a thing has a property code declares (`is nullable`, `is unique`, `is
 *   session-scoped`, `a read-only transaction`; `code-terms.ts` `propertySpellings`) and the
 *   lines do not declare it;
 * - `definition`: it says something is defined or declared there and the lines define none of
 *   the things it names (a `def`/`class`/`func`/`fn`/`const`… of that name, an assignment or a
 *   field at the start of a line, or a C-like `Type name(` signature);
 * - `call`: it says something is called there (`is called at`, `` calls `x` ``) and none of
 *   the things it names is called in the lines (`name(` that is not its definition, nor a
 *   method listed in an `interface`/`trait`/`protocol` body);
 * - `import`: it says something is imported and the lines import nothing;
 * - `type`: it claims a type (`returns a list`, `is an integer`, `takes a numeric id`, `is
 *   async`, `回傳…字串`) and the lines write none of that type's names in any language
 *   (`code-terms.ts` `typeSpellings`); a claim about what is returned is checked against the
 *   declared return type (`-> bytes`, `): User {`) when the lines show one;
 * - `instrument`: it names the tool something is done with (`hashed with bcrypt`, `parsed
 *   using argparse`, `` with `sha256` ``, `用 `sha256``; not `with status 200`, which states a
 *   value) and that name does not occur in the lines;
 * - `only`: it says only certain values or code are there (`` only `.md` and `.txt` ``) and the
 *   lines write them in one bracketed list, or one union (`'a' | 'b' | 'c'`), with more entries;
 * - `separator`: it says text is split by a kind of separator (`split by sentences`,
 *   `comma-separated`) and the lines split on separators of other kinds only.
 * A negation is also written without a negating word: `unencrypted`, `in plain text` (neither
 * hashed nor encrypted), checked against every name code gives the operation.
 * Quoted code that is a bare name (`` `Session.send` ``, `` `--strict` ``) is a name, compared
 * by the classifier; with parentheses or operators it is code (`` `chi.NewRouter()` ``).
 */
import { COMMON_WORDS } from "./common-words.js";
import {
  BACKTICK_RE,
  chineseCodeWords,
  chineseOperationVerbs,
  CHINESE_SEPARATOR_WORDS,
  CHINESE_TYPE_WORD_LIST,
  ERROR_HANDLING_RE,
  identifierWords,
  IGNORED_RE,
  operationFamily,
  operationNames,
  PLAIN_TEXT_NEGATES,
  PLAIN_TEXT_RE,
  propertySpellings,
  QUOTED_RE,
  separatorKinds,
  separatorsIn,
  stem,
  typeSpellings,
} from "./code-terms.js";

/** The kind of claim the lines do not show (see the module comment). */
export type UnshownClaim = "quoted-code" | "negation" | "operation" | "property" | "definition" | "call" | "import" | "type" | "instrument" | "only" | "separator";

/** What the caller knows about the sentence: the names it writes, and how a plain word is matched with the lines. */
export interface SentenceSubjects {
  /** Code names (each part of a dotted name) and plain words the sentence writes. */
  names: readonly string[];
  /** True when a plain word occurs in the cited lines (the classifier's own word rule). */
  occurs: (word: string) => boolean;
}

const CODE_TOKEN_RE = /[A-Za-z_$][\w$]*|\d+(?:\.\d+)?|===|!==|==|!=|<=|>=|=>|->|::|\*\*|&&|\|\||\+\+|--|[^\s\w"'`]/g;

/** Code tokens: identifiers, numbers, operators and punctuation; quote marks are dropped so a string's words are tokens. */
function codeTokens(text: string): string[] {
  return text.match(CODE_TOKEN_RE) ?? [];
}

function isSubsequence(needle: readonly string[], hay: readonly string[]): boolean {
  let i = 0;
  for (const t of hay) if (i < needle.length && t === needle[i]) i++;
  return i === needle.length;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The HTTP method that leads a route an answer quotes (`GET /users/{id}`; RFC 9110 section 9). */
const ROUTE_METHOD_RE = /^(?:GET|HEAD|POST|PUT|DELETE|CONNECT|OPTIONS|TRACE|PATCH)\s+(?=\/)/;

const CONTROL_WORDS = /^(?:if|elif|else|for|while|return|await|new|throw|case|switch|yield|print|assert|not|and|or|in|is)$/;

/** True when `line` defines `name`: a definition keyword, an assignment or field at the start, or a C-like signature. */
function definesName(line: string, name: string): boolean {
  const n = escape(name);
  const keyword = new RegExp(
    String.raw`\b(?:def|class|function|func|fn|fun|struct|interface|type|enum|trait|const|let|var|val|module|mod|object|record|protocol|typedef|namespace|macro_rules!)\s+(?:\([^)]*\)\s*)?(?:[\w$]+\.)?${n}\b`,
    "i",
  );
  if (keyword.test(line)) return true;
  const assignment = new RegExp(String.raw`^\s*(?:export\s+)?(?:(?:pub|public|private|protected|static|final|readonly|declare)\s+)*(?:[\w$]+\.)?${n}\s*(?:\??:[^=\n]*)?(?::=|=(?!=)|:|;)`, "i");
  if (assignment.test(line)) return true;
  const signature = new RegExp(String.raw`^\s*((?:[\w$<>\[\],.?@]+\s+)+)${n}\s*\(`, "i").exec(line);
  return signature !== null && !CONTROL_WORDS.test(signature[1]!.trim().split(/\s+/)[0]!) && !/[=]/.test(signature[1]!);
}

/** True when one of `names` is called in `lines`: `name(` that is not its definition nor a method declared in an interface body. */
function callsAny(lines: readonly string[], names: readonly string[]): boolean {
  let inInterface = false;
  for (const line of lines) {
    if (/\b(?:interface|trait|protocol)\b[^{]*\{\s*$/.test(line)) {
      inInterface = true;
      continue;
    }
    if (inInterface && /^\s*\}/.test(line)) inInterface = false;
    if (inInterface) continue;
    if (names.some((n) => new RegExp(String.raw`(?<![\w$])${escape(n)}!?\s*\(`, "i").test(line) && !definesName(line, n))) return true;
  }
  return false;
}

/** The sentence without backticked code and quoted strings (each replaced by spaces), for its grammar. */
function plainText(sentence: string): string {
  return sentence.replace(BACKTICK_RE, (t) => " ".repeat(t.length)).replace(QUOTED_RE, (t) => " ".repeat(t.length));
}

const NEGATED_VERB_RES: readonly RegExp[] = [
  /\b(?:does|do|did|is|are|was|were|will|can|could|should|must|would)\s+not\s+(?:be\s+|been\s+|ever\s+|even\s+)?([a-z]{3,})/gi,
  /\b(?:doesn't|don't|didn't|isn't|aren't|wasn't|weren't|won't|can't|cannot|never|no longer)\s+(?:be\s+|been\s+|ever\s+|even\s+)?([a-z]{3,})/gi,
];
const NOT_VERBS = new Set(["any", "only", "all", "always", "actually", "need", "needed", "have", "has", "the", "this", "that", "there", "found", "shown", "seen", "clear", "sure", "possible", "part", "used"]);

function negatedVerbs(plain: string): Array<{ verb: string; at: number }> {
  const out: Array<{ verb: string; at: number }> = [];
  for (const re of NEGATED_VERB_RES) for (const m of plain.matchAll(re)) if (!NOT_VERBS.has(m[1]!.toLowerCase())) out.push({ verb: m[1]!, at: m.index + m[0].length - m[1]!.length });
  // An English verb right after a Chinese negation (`不會 panic`).
  for (const m of plain.matchAll(/(?:沒有|没有|不會|不会|並未|并未|從不|从不|從未|从未|不)\s*([A-Za-z]{3,})/g)) out.push({ verb: m[1]!, at: m.index + m[0].length - m[1]!.length });
  return out;
}

/**
 * Operations a sentence says were not done without a negating word: `unencrypted`, `unsorted`
 * (un- before the participle of an operation that is not itself a verb, as `unlock` is), and
 * `in plain text` (neither hashed nor encrypted). Each as the stems code names the operation with.
 */
function negatedOperations(plain: string): string[][] {
  const out: string[][] = [];
  for (const m of plain.matchAll(/\bun([a-z]{3,}(?:ed|en))\b/gi)) {
    const names = operationNames(stem(m[1]!));
    if (names !== undefined && operationNames(stem(`un${m[1]!}`)) === undefined) out.push([...names]);
  }
  if (PLAIN_TEXT_RE.test(plain)) for (const op of PLAIN_TEXT_NEGATES) out.push([...operationNames(stem(op))!]);
  return out;
}

const CHINESE_NEGATION = /沒有|没有|不會|不会|並未|并未|從不|从不|從未|从未/;

/** The clauses of a sentence that no Chinese negation governs (a negated operation is the negation check's). */
function chineseAffirmed(sentence: string): string {
  return sentence
    .split(/[，。；、,.;!?！？]/)
    .map((clause) => {
      const m = CHINESE_NEGATION.exec(clause) ?? /不/.exec(clause);
      return m ? clause.slice(0, m.index) : clause;
    })
    .join("，");
}

/** The code words (as English words) a Chinese clause negates: `沒有處理例外` → exception. */
function chineseNegations(sentence: string): string[] {
  const out: string[] = [];
  for (const clause of sentence.split(/[，。；、,.;!?！？]/)) {
    const m = CHINESE_NEGATION.exec(clause);
    if (m) out.push(...chineseCodeWords(clause.slice(m.index + m[0].length)));
  }
  return out;
}

const ERROR_VERBS = new Set(["rais", "throw"]);
const ERROR_OBJECT = /^\S+\s+(?:(?:an?|the|its)\s+)?(?:\S+\s+)?(?:\S*(?:error|exception|Error|Exception)\b|[`"'“「])|錯誤|错误|例外|異常|异常/i;

/** Words before which an operation verb is a passive or bare infinitive, not a noun (`is split`, `to cache`). */
const VERB_BEFORE = /^(?:is|are|was|were|be|been|being|get|gets|got|to|will|can|then|and|also)$/i;

function unshownOperation(sentence: string, plain: string, stems: ReadonlySet<string>, negated: ReadonlySet<number>): boolean {
  const words = [...plain.matchAll(/[A-Za-z][A-Za-z'-]*/g)];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]![0].toLowerCase();
    const s = stem(w);
    const names = operationNames(s);
    if (names === undefined || negated.has(words[i]!.index)) continue;
    const inflected = /(?:ed|s|ing)$/.test(w) && w !== s;
    // Chinese does not inflect: an English verb right after Chinese text is a verb (`會 panic`).
    const afterChinese = /[\u3400-\u9fff]\s*$/.test(plain.slice(0, words[i]!.index));
    if (!inflected && !afterChinese && !(i > 0 && VERB_BEFORE.test(words[i - 1]![0]))) continue;
    // "raises the limit" is no exception: raise and throw are checked when an error is what they raise.
    if (ERROR_VERBS.has(s) && !ERROR_OBJECT.test(sentence.slice(words[i]!.index))) continue;
    const before = words.slice(Math.max(0, i - 3), i).map((x) => x[0].toLowerCase());
    if (before.some((b) => b === "not" || b.endsWith("n't") || b === "never" || b === "without")) continue;
    // "The loop starts at f.py:1", "starts here": a place, not the operation.
    const after = plain.slice(words[i]!.index + words[i]![0].length);
    if (/s$/.test(w) && !/ed$/.test(w) && /^\s+(?:at|here|there)\b|^\s+(?:in|on)\s*[^\w\s]*\s*$/.test(after)) continue;
    if (!names.some((n) => stems.has(n))) return true;
  }
  return false;
}

/** A property claimed in predicate position (`is nullable`, `is session-scoped`) or before its noun (`a read-only transaction`, `a unique index`); a negated one is left to the negation check. */
const PROPERTY_CLAIM_RE = /\b(?:is|are|be|been|being|was|were)\s+(?:also\s+|always\s+)?((?:[a-z]+-)?[a-z]+)\b|\b(?:a|an|the)\s+((?:[a-z]+-)?[a-z]+)\s+(?=[a-z])/gi;

function unshownProperty(plain: string, text: string, ids: ReadonlySet<string>): boolean {
  for (const m of plain.matchAll(PROPERTY_CLAIM_RE)) {
    const spellings = propertySpellings(m[1] ?? m[2]!);
    if (spellings === undefined) continue;
    if (!spellings.some((s) => ids.has(s) || (/^\w+$/.test(s) ? new RegExp(String.raw`\b${escape(s)}\b`).test(text) : text.includes(s)))) return true;
  }
  return false;
}

const DEFINITION_CLAIM = /\b(?:is|are|was|were|gets?|being)\s+(?:\w+\s+)?(?:defined|declared)\b|\b(?:defines|declares)\b|\bdefinition of\b|定義|定义|宣告|聲明|声明/i;
const CALL_CLAIM_PASSIVE = /\b(?:is|are|was|were|gets?|being)\s+(?:\w+\s+)?(?:called|invoked)\b(?!\s*[`"'“「])/i;
const CALL_CLAIM_ACTIVE = /\b(?:calls|invokes)\s+(?:the\s+|a\s+)?(?:`|[A-Za-z_$][\w$]*(?:\(|\.|_|[a-z][A-Z]))|呼叫|調用|调用/;
const IMPORT_CLAIM = /\b(?:is|are|was|were|gets?)\s+(?:\w+\s+)?imported\b|\bimports\b|\bimport\s+[`\w]|匯入|导入|導入|引入/i;
const IMPORT_LINE = /\b(?:import|from|require|use|using|include|extern\s+crate)\b|#include|@import/;

/** A file name written as code (`app.py`, `src/index.ts`): where something is, not what is imported. */
const FILE_NAME_RE = /[/\\]|\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|json|ya?ml|toml|md)$/;

/**
 * The code names a sentence says are imported, each as its parts: those written after the import
 * verb up to the end of its clause (`` imports `Flask` and `request` from flask ``, `從 x 匯入 `A``),
 * or before a passive one (`` `Flask` is imported ``). File names are left out.
 */
function importedNames(sentence: string): string[][] {
  const out: string[][] = [];
  const add = (text: string) => {
    for (const m of text.matchAll(BACKTICK_RE)) {
      const code = m[1]!.trim();
      if (FILE_NAME_RE.test(code)) continue;
      const parts = code.match(/[A-Za-z_$][\w$]*/g) ?? [];
      if (parts.length > 0) out.push(parts);
    }
  };
  const active = /\bimports?\b|匯入|导入|導入|引入/i.exec(sentence);
  const passive = /\b(?:is|are|was|were|gets?)\s+(?:\w+\s+)?imported\b/i.exec(sentence);
  if (passive) add(sentence.slice(0, passive.index).split(/[,;，；]/).at(-1)!);
  else if (active) add(sentence.slice(active.index).split(/[,;.，；。]\s|\s(?:in|at|on|into|because|so|which|when|where|to)\s/)[0]!);
  return out;
}

const ONLY_RE = /\b(?:only|solely|exclusively)\b|只有|只|僅|仅/i;

/**
 * An "only" claim the lines show is not exclusive: after `only`, the sentence names values or
 * code (`` only `.md` and `.txt` ``, `只回傳一個 `*Config``) and the lines write all of them in one
 * bracketed list (a set, a tuple, a parameter or return list) that has more entries than that.
 */
function unshownOnly(sentence: string, text: string): boolean {
  const only = ONLY_RE.exec(sentence);
  if (!only) return false;
  const scope = sentence.slice(only.index).split(/[;；。]|,\s*(?:while|but|whereas)\b/)[0]!;
  const unquoted = scope.replace(BACKTICK_RE, (t) => " ".repeat(t.length));
  const items = [...scope.matchAll(BACKTICK_RE)].map((m) => codeTokens(m[1]!)).concat([...unquoted.matchAll(QUOTED_RE)].map((m) => codeTokens(m.slice(1).find((g) => g !== undefined)!)));
  const named = [...new Map(items.filter((t) => t.length > 0).map((t) => [t.join(" "), t])).values()];
  if (named.length === 0) return false;
  const lists: string[][][] = [];
  for (const g of text.matchAll(/\(([^()[\]{}]*)\)|\[([^()[\]{}]*)\]|\{([^()[\]{}]*)\}/g)) lists.push(g.slice(1).find((x) => x !== undefined)!.split(",").map((e) => codeTokens(e)));
  // A union or alternation after `=`/`:` (`type Status = 'active' | 'disabled' | 'pending'`) lists its members too.
  for (const u of text.matchAll(/(?:=|:)\s*([^=\n;{}()]+\|[^=\n;{}()]+)/g)) lists.push(u[1]!.split(/\|\|?/).map((e) => codeTokens(e)));
  return lists.some((list) => {
    const entries = list.filter((e) => e.length > 0);
    return entries.length > named.length && named.every((n) => entries.some((e) => isSubsequence(n, e)));
  });
}

/**
 * A separator claim (`split by paragraphs`, `comma-separated`, `按句子切分`) over lines that split on
 * a separator of another kind (`text.split("\n\n")` is a split by paragraphs, not sentences;
 * `code-terms.ts` `separatorsIn`). Lines that show no separator decide nothing.
 */
function unshownSeparator(plain: string, text: string): boolean {
  const claimed: string[] = [];
  for (const m of plain.matchAll(/\b(?:split(?:s|ting)?|separated|delimited|divided|broken|chunked)\s+(?:up\s+)?(?:by|on|at|along|into|per)\s+((?:[a-z-]+\s+){0,2}[a-z]+)/gi)) {
    for (const w of m[1]!.split(/\s+/)) claimed.push(...(separatorKinds(w) ?? []));
  }
  for (const m of plain.matchAll(/\b([a-z]+)[- ](?:separated|delimited)\b/gi)) claimed.push(...(separatorKinds(m[1]!) ?? []));
  for (const clause of plain.split(/[，。；,.;!?！？]/)) {
    if (!/切分|分割|拆分|分隔|切成|切割|斷句|断句/.test(clause)) continue;
    for (const zh of CHINESE_SEPARATOR_WORDS) if (clause.includes(zh)) claimed.push(...separatorKinds(zh)!);
  }
  if (claimed.length === 0) return false;
  const shown = separatorsIn(text);
  return shown.size > 0 && !claimed.some((k) => shown.has(k));
}

/** Words after which a type word is a claim about a type (`returns a list`, `is an integer`, `as a string`). */
const TYPE_CLAIM_RE = /\b(returns?|returning|returned|yields?|is|are|be|as|takes?|accepts?|typed as|of type)\s+(?:(?:an?|the|its|their)\s+)?(?:([a-z]+)\s+)?([a-z]+)(\s+of\b)?/gi;
const CHINESE_TYPE_CLAIM = /回傳|回传|返回|傳回|型別|類型|类型|是/;
const RETURN_WORD = /^(?:returns?|returning|returned|yields?)$|回傳|回传|返回|傳回/i;

/** A type word the sentence claims, and whether it claims it of a returned value. */
interface TypeClaim {
  word: string;
  returned: boolean;
}

function claimedTypes(sentence: string, plain: string): TypeClaim[] {
  const out: TypeClaim[] = [];
  for (const m of plain.matchAll(TYPE_CLAIM_RE)) {
    const before = /(\w+)\s*$/.exec(plain.slice(0, m.index))?.[1]?.toLowerCase();
    if (before !== undefined && /^(?:here|this|that|these|those|below|following|there)$/.test(before)) continue;
    for (const [i, w] of [m[2], m[3]].entries()) {
      if (w === undefined || typeSpellings(w) === undefined) continue;
      // "the number of retries" is a count, not a type.
      if (/^numbers?$/i.test(w) && i === 1 && m[4] !== undefined) continue;
      out.push({ word: w.toLowerCase(), returned: RETURN_WORD.test(m[1]!) });
    }
  }
  for (const clause of sentence.split(/[，。；、,.;!?！？]/)) {
    const trigger = CHINESE_TYPE_CLAIM.exec(clause);
    if (!trigger) continue;
    for (const zh of CHINESE_TYPE_WORD_LIST) if (clause.includes(zh)) out.push({ word: zh, returned: RETURN_WORD.test(trigger[0]) });
  }
  return out;
}

/** The declared return type of a signature in the lines (`-> bytes`, `): User {`), when they show one. */
function declaredReturnType(text: string): string | undefined {
  return /\)\s*(?:->|:)\s*([^{=\n]+?)\s*(?:[{:=]|=>)?\s*$/m.exec(text)?.[1];
}

/** The first claim of `sentence` that `lines` visibly do not show, or undefined (see the module comment). */
export function unshownClaim(sentence: string, subjects: SentenceSubjects, lines: readonly string[]): UnshownClaim | undefined {
  const text = lines.join("\n");
  const tokens = codeTokens(text);
  const ids = new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const stems = new Set<string>();
  for (const id of ids) {
    stems.add(stem(id));
    for (const w of identifierWords(id)) stems.add(stem(w));
  }
  const plain = plainText(sentence);

  // A route written `GET /users/{id}` is its path; frameworks write the method in their own case (`Route::get`, `@GetMapping`).
  const quotes = [...sentence.matchAll(BACKTICK_RE)]
    .map((m) => m[1]!.trim())
    .filter((q) => ROUTE_METHOD_RE.test(q) || (!/^(["']).*\1$/.test(q) && !/^[\w$@./-]+$/.test(q.replace(/::/g, "."))))
    .map((q) => q.replace(ROUTE_METHOD_RE, ""))
    .map((q) => codeTokens(q))
    .filter((q) => q.length >= 2);
  if (quotes.length > 0 && !quotes.some((q) => isSubsequence(q, tokens))) return "quoted-code";

  const negated = negatedVerbs(plain);
  // A negated operation is done when the lines name it under any of its names (`does not verify` over `validate_csrf(…)`).
  if (negated.some((n) => operationFamily(stem(n.verb)).some((name) => stems.has(name)))) return "negation";
  if (IGNORED_RE.test(plain) && /error|exception|\berr\b|錯誤|错误|例外|異常|异常/i.test(sentence) && ERROR_HANDLING_RE.test(text)) return "negation";
  if (chineseNegations(sentence).some((w) => subjects.occurs(w))) return "negation";
  if (negatedOperations(plain).some((names) => names.some((n) => stems.has(n)))) return "negation";
  if (unshownOperation(sentence, plain, stems, new Set(negated.map((n) => n.at)))) return "operation";
  if (chineseOperationVerbs(chineseAffirmed(sentence)).some((verb) => !operationNames(stem(verb))!.some((name) => stems.has(name)))) return "operation";
  if (unshownProperty(plain, text, ids)) return "property";

  const names = subjects.names.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
  if (DEFINITION_CLAIM.test(plain) && names.length > 0 && !lines.some((l) => names.some((n) => definesName(l, n)))) return "definition";
  if ((CALL_CLAIM_PASSIVE.test(sentence) || CALL_CLAIM_ACTIVE.test(sentence)) && names.length > 0 && !callsAny(lines, names)) return "call";
  if (IMPORT_CLAIM.test(sentence) && (!IMPORT_LINE.test(text) || importedNames(sentence).some((n) => !n.some((part) => ids.has(part))))) return "import";
  if (unshownOnly(sentence, text)) return "only";
  if (unshownSeparator(plain, text)) return "separator";

  const returnType = declaredReturnType(text);
  for (const claim of claimedTypes(sentence, plain)) {
    const spellings = typeSpellings(claim.word)!;
    // A claim about the returned value is checked against the declared return type when the lines show one.
    const where = claim.returned && returnType !== undefined ? returnType : text;
    const written = new Set(where.match(/[A-Za-z_$][\w$]*/g) ?? []);
    const listLike = spellings.includes("Vec") && /\[\]/.test(where);
    if (!listLike && !spellings.some((s) => written.has(s))) return "type";
  }

  // "with a regex" describes; "with bcrypt", "with `sha256`", "用 `sha256`" name what the lines must show.
  const unquoted = sentence.replace(QUOTED_RE, (t) => " ".repeat(t.length));
  const INSTRUMENT_RE =
    /(?:\b(?:with|using|via)\s+(?:(?:the|its|their|this|that|these|those)\s+)?|(?:使用|透過|通過|通过|藉由|借助|用)\s*)(?:`([^`\n]+)`|([A-Za-z][A-Za-z0-9_-]*)\b(?!\s+(?:\d|[`"“「])))/g;
  for (const m of unquoted.matchAll(INSTRUMENT_RE)) {
    if (m[1] !== undefined) {
      // Code in backticks: a bare name must occur; code with operators (`timeout=5`) is left to the quoted-code check.
      const code = m[1].trim();
      if (!/^@?[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$/.test(code)) continue;
      if (!code.match(/[A-Za-z_$][\w$]*/g)!.every((part) => ids.has(part) || /^(?:self|this|cls)$/.test(part))) return "instrument";
      continue;
    }
    const tool = m[2]!;
    if (COMMON_WORDS.has(tool.toLowerCase()) || /^(?:respect|regard)$/i.test(tool)) continue;
    if (!subjects.occurs(tool) && !ids.has(tool)) return "instrument";
  }
  return undefined;
}
