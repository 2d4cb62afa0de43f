/**
 * The reserved words (keywords and literal constants) of the languages codecite reads, by file
 * extension. A keyword is syntax, not a name: a sentence whose English word equals one (`if`,
 * `returns`, `new`, `with`) names nothing by it (`citation-naming.ts`). Per language, because a
 * word reserved in one language is an ordinary name in another (`except:` is an option name in
 * Ruby, `lock` a keyword only in C#, `map` one only in Go), and by position, because a keyword
 * can be used as a name (`re.match`, `store.open(path)`: `isKeywordAt`). Sources, each language's reference:
 * Python https://docs.python.org/3/reference/lexical_analysis.html#keywords; ECMAScript
 * https://tc39.es/ecma262/#sec-keywords-and-reserved-words and TypeScript's reserved words; Go
 * https://go.dev/ref/spec#Keywords and #Predeclared_identifiers; Rust
 * https://doc.rust-lang.org/reference/keywords.html; Java
 * https://docs.oracle.com/javase/specs/jls/se21/html/jls-3.html#jls-3.9; C
 * https://en.cppreference.com/w/c/keyword; C++ https://en.cppreference.com/w/cpp/keyword; C#
 * https://learn.microsoft.com/dotnet/csharp/language-reference/keywords/; Kotlin
 * https://kotlinlang.org/docs/keyword-reference.html (hard keywords); Swift
 * https://docs.swift.org/swift-book/documentation/the-swift-programming-language/lexicalstructure/#Keywords-and-Punctuation;
 * Ruby https://docs.ruby-lang.org/en/master/syntax/keywords_rdoc.html; PHP
 * https://www.php.net/manual/en/reserved.keywords.php; POSIX shell
 * https://pubs.opengroup.org/onlinepubs/9799919799/utilities/V3_chap02.html#tag_19_04. Data and
 * prose files (JSON, YAML, TOML, Markdown) reserve only their literal constants.
 */
import { extensionOf } from "./code-lexemes.js";

const words = (s: string): readonly string[] => s.split(/\s+/).filter((w) => w !== "");

const PYTHON = words(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield",
);
const JAVASCRIPT = words(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await async of undefined",
);
const TYPESCRIPT = [...JAVASCRIPT, ...words("as keyof infer is satisfies")];
const GO = words(
  "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var true false nil iota",
);
const RUST = words(
  "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while",
);
const JAVA = words(
  "abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null",
);
const C = words(
  "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while NULL true false bool",
);
const CPP = [
  ...C,
  ...words(
    "alignas alignof and asm catch class constexpr const_cast decltype delete dynamic_cast explicit export friend mutable namespace new noexcept not nullptr operator or private protected public reinterpret_cast static_assert static_cast template this thread_local throw try typeid typename using virtual wchar_t xor co_await co_return co_yield concept requires override final",
  ),
];
const CSHARP = words(
  "abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while var async await",
);
const KOTLIN = words("as break class continue do else false for fun if in interface is null object package return super this throw true try typealias typeof val var when while catch finally import where by");
const SWIFT = words(
  "associatedtype class deinit enum extension fileprivate func import init inout internal let operator private protocol public rethrows static struct subscript typealias var break case continue default defer do else fallthrough for guard if in repeat return switch where while as catch false is nil super self Self throw throws true try async await some any",
);
const RUBY = words(
  "alias and begin break case class def defined do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield",
);
const PHP = words(
  "abstract and array as break callable case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile enum eval exit extends final finally fn for foreach function global goto if implements include include_once instanceof insteadof interface isset list match namespace new or print private protected public readonly require require_once return static switch throw trait try unset use var while xor yield true false null TRUE FALSE NULL",
);

const SHELL = words("if then else elif fi case esac for while until do done in function select time true false");
/** Data and prose files: only their literal constants (YAML, JSON, TOML). */
const DATA = words("true false null True False None nil");
/** A file of an unknown language: the reserved words most languages above share. */
const CORE = words(
  "if else elif for while do return break continue class def function fn func import from export new try catch except finally throw throws raise switch case default yield await async var let const static public private protected this super true false null nil None True False undefined and or not in is as with",
);

/**
 * Soft (contextual) keywords: keywords only where the grammar puts them, ordinary names elsewhere
 * (`match x:` but `re.match(p, s)` in Python, `open class` but `store.open(path)` in Kotlin, `var x`
 * but `save(record)` in Java). Sources: Python's soft keywords
 * (https://docs.python.org/3/reference/lexical_analysis.html#soft-keywords), Kotlin's soft and
 * modifier keywords (https://kotlinlang.org/docs/keyword-reference.html), Swift's keywords reserved
 * in particular contexts, C#'s contextual keywords
 * (https://learn.microsoft.com/dotnet/csharp/language-reference/keywords/#contextual-keywords),
 * Java's contextual keywords (JLS 3.9), TypeScript's contextual declaration keywords and
 * ECMAScript's `get`/`set`.
 */
const SOFT: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
  [["py", "pyi"], words("match case type")],
  [["js", "jsx", "mjs", "cjs", "vue", "svelte"], words("get set")],
  [["ts", "tsx", "mts", "cts"], words("get set declare readonly type abstract namespace module")],
  [["java", "scala", "groovy"], words("var record yield sealed permits")],
  [
    ["kt", "kts"],
    words("actual abstract annotation companion const crossinline data enum expect external final infix inline inner internal lateinit noinline open operator out override private protected public reified sealed suspend tailrec vararg value"),
  ],
  [["swift"], words("open convenience dynamic final indirect lazy mutating nonmutating optional override required unowned weak")],
  [["cs"], words("partial required record file")],
];
/** Accessor keywords, keywords when they begin a declaration (`get() = field`, `{ get; set; }`, `init { … }`, `willSet {`). */
const ACCESSORS: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
  [["kt", "kts"], words("get set init constructor")],
  [["swift"], words("get set willSet didSet")],
  [["cs"], words("get set init add remove")],
];
/** Languages with a C preprocessor (or Swift's `#if`): the word after a line's `#` is a directive, not a name (`#define`, `#include`). */
const DIRECTIVES = new Set(["c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "m", "mm", "cs", "swift"]);

const LANGUAGES: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
  [["sh", "bash", "zsh"], SHELL],
  [["json", "jsonc", "json5", "yml", "yaml", "toml", "ini", "cfg", "conf", "md", "markdown", "txt", "rst", "adoc", "csv", "tsv"], DATA],
  [["py", "pyi"], PYTHON],
  [["js", "jsx", "mjs", "cjs", "vue", "svelte"], JAVASCRIPT],
  [["ts", "tsx", "mts", "cts"], TYPESCRIPT],
  [["go"], GO],
  [["rs"], RUST],
  [["java", "scala", "groovy"], JAVA],
  [["c", "h"], C],
  [["cc", "cpp", "cxx", "hpp", "hh", "hxx", "m", "mm"], CPP],
  [["cs"], CSHARP],
  [["kt", "kts"], KOTLIN],
  [["swift"], SWIFT],
  [["rb"], RUBY],
  [["php"], PHP],
];

const byExtension = (table: ReadonlyArray<readonly [readonly string[], readonly string[]]>): ReadonlyMap<string, ReadonlySet<string>> =>
  new Map(table.flatMap(([exts, kws]) => exts.map((e) => [e, new Set(kws)] as const)));
const BY_EXTENSION = byExtension(LANGUAGES);
const SOFT_BY_EXTENSION = byExtension(SOFT);
const ACCESSORS_BY_EXTENSION = byExtension(ACCESSORS);
const SHARED: ReadonlySet<string> = new Set(CORE);
const NONE: ReadonlySet<string> = new Set();
/** Keywords that are operators: a soft keyword before one of them is an operand (`value in range`). */
const OPERATOR_WORDS = /^(?:in|is|as|and|or|not|instanceof|if|else)\b/;

/** The reserved words of the language of `path` (case-sensitive); those most languages share when the extension is unknown. */
export function reservedWords(path: string | undefined): ReadonlySet<string> {
  return BY_EXTENSION.get(extensionOf(path)) ?? SHARED;
}

/**
 * True when the identifier `word` at `index` of `code` (the code text of cited lines, strings and
 * comments blanked, as `lexLines` gives it) is used as a keyword of the language of `path`, false
 * when it is a name there. A reserved word is a name after member access (`map.delete(k)`,
 * `super.init`, `$this->list`); a soft keyword is a keyword only where it declares or modifies
 * (followed by a name or literal: `match x:`, `open class`, `var n`), an accessor keyword only where
 * it begins a declaration; the word after a preprocessor line's `#` is a directive.
 */
export function isKeywordAt(code: string, index: number, word: string, path: string | undefined): boolean {
  const ext = extensionOf(path);
  const before = code.slice(Math.max(0, index - 3), index);
  if (/(?:(?<!\.)\.|->|::)[ \t]*$/.test(before)) return false;
  const lineStart = code.lastIndexOf("\n", index - 1) + 1;
  const prefix = code.slice(lineStart, index);
  if (DIRECTIVES.has(ext) && /^[ \t]*#[ \t]*$/.test(prefix)) return true;
  const hard = reservedWords(path);
  if (hard.has(word)) return true;
  const soft = SOFT_BY_EXTENSION.get(ext) ?? NONE;
  const after = code.slice(index + word.length, index + word.length + 40);
  if ((ACCESSORS_BY_EXTENSION.get(ext) ?? NONE).has(word)) {
    // What precedes it in its statement (from the line start or the last brace or semicolon) is only modifiers.
    const statement = prefix.slice(Math.max(prefix.lastIndexOf("{"), prefix.lastIndexOf("}"), prefix.lastIndexOf(";")) + 1);
    if (/^\s*$/.test(statement.replace(/[A-Za-z_]\w*/g, (w) => (soft.has(w) || hard.has(w) ? "" : w))) && !/^[ \t]*(?:=(?![=>])|\.)/.test(after)) return true;
  }
  if (!soft.has(word)) return false;
  const next = /^[ \t]+(.)/.exec(after);
  return next !== null && /[A-Za-z_$0-9"'`@]/.test(next[1]!) && !OPERATOR_WORDS.test(after.trimStart());
}
