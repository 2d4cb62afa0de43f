/**
 * Kotlin text the tree-sitter-kotlin grammar (@tree-sitter-grammars/tree-sitter-kotlin 1.1) misreads,
 * rearranged before parsing (`LanguageSpec.prepare`): the length and the number of lines stay the
 * file's, and so does the line every declaration starts on.
 * - A nested class whose primary constructor starts on the next line (Kotlin grammar,
 *   https://kotlinlang.org/docs/classes.html#constructors: `class Builder` ⏎ `internal constructor(…)`):
 *   inside a class body the grammar ends the class at the line break and loses the rest of the
 *   enclosing class. The line break moves from before the constructor's modifiers to after its
 *   `(` (one indentation space fewer on the next line keeps the length).
 * - A visibility modifier of a primary constructor (`open class KoinApplication protected constructor()`):
 *   after two annotation lines the grammar reads the whole class as an expression and loses it
 *   (koin's `KoinApplication`); so is `actual` after a visibility modifier (`internal actual constructor(`,
 *   Kotlin Multiplatform, https://kotlinlang.org/docs/multiplatform/multiplatform-expect-actual.html), or alone
 *   on the line after the class's name (square/okio's ByteString.kt, which lost every member). The modifiers
 *   are blanked: they change no definition and no use.
 * - A modifier keyword right after the annotations of a declaration (`@DslMarker` ⏎
 *   `annotation class KoinDslMarker`, `@KoinInternalApi` ⏎ `expect object Tools { … }`, also
 *   `enum`, `actual`, `data`, `value`, `operator`, `inner`; modifier keywords:
 *   https://kotlinlang.org/docs/keyword-reference.html#modifier-keywords), also after other
 *   modifiers (`@Target(…)` ⏎ `@RequiresOptIn` ⏎ `public annotation class SagaImplementation`, arrow's
 *   Saga.kt and AutoCloseScope.kt, which lost every declaration of the file): the grammar reads the
 *   annotation and the words after it as an expression at file level (not in class bodies) and loses the declaration (koin's
 *   `Markers.kt`, `KoinPlatformCoroutinesTools.kt`). The first such modifier moves in front of the
 *   annotations (`annotation @DslMarker` ⏎ `class KoinDslMarker`, `annotation @RequiresOptIn` ⏎
 *   `public class SagaImplementation`), a form the grammar reads; Kotlin allows annotations and
 *   modifiers in any order. Lines and length stay the file's.
 * - A guard on a `when` branch (Kotlin 2.1, https://kotlinlang.org/docs/control-flow.html#guard-conditions-in-when-expressions:
 *   `is String if value.isEmpty() -> …`): the grammar does not know the form and loses the whole
 *   file (JetBrains/Exposed's ColumnType.kt). The guard's `if` becomes `,` (a branch with two
 *   conditions, `is String, value.isEmpty() -> …`, which the grammar reads), so the guard's
 *   expression stays for references. Only a line that starts with a type or range test (`is`,
 *   `!is`, `in`, `!in`) followed by ` if ` or ` if(` is changed; the guard may go on over lines.
 * - An annotated accessor of a property without a type (`val identifier` ⏎ `@OptIn(X::class)` ⏎
 *   `get() = …`, Exposed's Schema.kt and VendorDialect.kt): inside a class body the grammar reads the
 *   annotation as the start of the next declaration and loses the rest of the class. The accessor's
 *   annotations move in front of `val`/`var` on the property's line (where Kotlin applies them to
 *   the property, https://kotlinlang.org/docs/annotations.html#annotation-use-site-targets); the
 *   accessor's line gives up one indentation space for the blank that joins them.
 * - `where` starting a statement (`where?.let { … }`, `where = predicate`: a property named `where`,
 *   a soft keyword, https://kotlinlang.org/docs/keyword-reference.html#soft-keywords): after
 *   another statement the grammar reads it as a type-constraint clause and loses the file
 *   (Exposed's Query.kt, FunctionProvider.kt). It is put in parentheses, `(where)?.let`, taking two
 *   indentation spaces; `where T : A` (a name after it) and `where` ending a line are constraints
 *   and left alone.
 * - A modifier keyword used as a name starting a statement (`inline = true`, `open?.let { … }`,
 *   `private.x = 2`: a property of a builder named like a modifier, a soft keyword): the grammar reads it
 *   as the modifier of a declaration and loses the rest of the class (ajalt/clikt's MordantHelpFormatter.kt,
 *   `definitionList { inline = true }`). The name is quoted (`` `inline` ``, the same name), taking two
 *   indentation spaces; an assignment after a line ending in `(` or `,` (a named argument) is left alone.
 * - An infix call of a function named `get` (`val id = t.insert { } get t.id`, `} get (T.id)`):
 *   in a property's initializer the grammar reads `get` as the property's getter and loses the
 *   file. ` get ` becomes `` `get` `` (the same call, the name quoted) where an operand ends just
 *   before it on its line (a name that is no modifier, `)`, `]`, `}`) and a name or `(` follows
 *   after a blank (a getter is written `get(` or `get` ending the line).
 * - A multi-dollar string (Kotlin 2.2, https://kotlinlang.org/docs/strings.html#multi-dollar-string-interpolation:
 *   `$$"${spring.x:false}"`, `$$"""…$$name…"""`): the grammar does not know the prefix and loses the
 *   whole file (Exposed's JsonColumnTests.kt, ExposedAutoConfiguration.kt). The prefix's dollars become
 *   blanks and the string is rewritten as a plain one: an interpolation (as many dollars as the prefix,
 *   or more, before a name or `{`) keeps one `$`, every other dollar becomes a blank. Only a prefix
 *   outside a one-line string (an even count of `"` before it on its line) after no name is read.
 * - Context parameters (Kotlin 2.2, https://kotlinlang.org/docs/context-parameters.html, also the
 *   older context receivers): `context(_: Scope)` before a declaration (on its line or the one
 *   before) and `context(Scope)` starting a function type after `:` or `=` (`block: context(S) T.() -> Unit`,
 *   `typealias H = context(S) T.() -> Unit`), also after `suspend` (`block: suspend context(S) () -> A`,
 *   arrow's resource/context/Resource.kt and respondOrRaise.kt).
 *   The grammar reads neither and loses the rest of the class (Exposed's MavenProjectGeneration.kt);
 *   the clause is blanked, which changes no definition (the context's types are no longer seen as uses).
 *   A call `context(x) { … }` is left alone.
 * - The standard library's `suspend { … }` (a call of `kotlin.suspend` with a lambda): the grammar
 *   reads `suspend` as a modifier and loses the file (Exposed's TransactionCoroutineContextTests.kt).
 *   A blank, `suspend`, blanks and `{` become `` `suspend` `` (the same call, the name quoted), blanks and `{`.
 * - A trailing comma in a type parameter or type argument list (`fun <` ⏎ `T : A,` ⏎ `> R.server(`,
 *   `Map<A, B,>`; allowed since Kotlin 1.4, https://kotlinlang.org/docs/coding-conventions.html#trailing-commas):
 *   from the second such list on, the grammar loses the file (arrow's suspendapp-ktor KtorServer.kt). A
 *   comma whose next character after blanks and line breaks is `>` becomes a blank (no other comma is
 *   followed by `>` outside strings and comments, where a blank changes nothing).
 * - The `all` annotation use-site target (Kotlin 2.2, https://kotlinlang.org/docs/annotations.html#all-meta-target:
 *   `@all:JsonSetter(…) val value: T` in a primary constructor): the grammar does not know it and
 *   loses the rest of the file (arrow's arrow-core-jackson DataHelpers.kt). `@all:` becomes four blanks
 *   and `@`, the plain annotation, which has the same name.
 * - A call of a local named `get` or `set` starting a statement and followed by more of the expression
 *   (`val set = { … }` ⏎ `set() shouldBe update()`, arrow's AtomicIntTest.kt): the grammar reads
 *   `set(` after a property as its setter and loses the rest of the class. An accessor's parameter
 *   list is followed by `:`, `=`, `{`, a comment or the line's end (Kotlin grammar, getter and setter:
 *   https://kotlinlang.org/docs/reference/grammar.html#getter); after anything else (`shouldBe`, `.`,
 *   `?:`) the name is quoted (`` `set`() ``, the same call), taking two indentation spaces.
 */

/** `class|object|interface Name[<…>]` ending a line, then an indented `[modifiers|@Annotation] constructor(`. */
const SPLIT_CONSTRUCTOR = /(\b(?:class|object|interface)\s+[A-Za-z_]\w*(?:<[^\n{}()]*>)?)[ \t]*\n([ \t]+)((?:(?:@[\w.]+(?:\([^()\n]*\))?|public|private|internal|protected|actual)[ \t]+)*constructor[ \t]*\()/g;

/**
 * `class|object Name[<…>] [@Annotation…]` then visibility and `actual` modifiers and `constructor(`, on the same line or
 * the next (`actual open class ByteString` ⏎ `internal actual constructor(`).
 */
const CONSTRUCTOR_MODIFIERS = /(\b(?:class|object)\s+[A-Za-z_]\w*(?:<[^\n{}()]*>)?(?:[ \t]+|[ \t]*\n[ \t]*)(?:@[\w.]+(?:\([^()\n]*\))?[ \t]+)*)((?:(?:public|private|internal|protected|actual)[ \t]+)+)(?=constructor[ \t]*\()/g;

/** Kotlin's modifier keywords (https://kotlinlang.org/docs/keyword-reference.html#modifier-keywords). */
const MODIFIER_WORDS = [
  "abstract", "actual", "annotation", "companion", "const", "data", "enum", "expect", "external", "final", "infix", "inline", "inner",
  "internal", "lateinit", "open", "operator", "override", "private", "protected", "public", "sealed", "suspend", "tailrec", "value",
];
const MODIFIER = `(?:${MODIFIER_WORDS.join("|")})`;
const MODIFIER_COUNT = MODIFIER_WORDS.length;

/**
 * The modifiers the grammar misreads right after a file-level annotation (tried one by one: the
 * others, `open`, `private`, `sealed`, `suspend`, `inline`, …, are read).
 */
const MISREAD_MODIFIER = "(?:actual|annotation|data|enum|expect|inner|operator|value)";

/**
 * At the start of a line, not indented (a file-level declaration; in a class body the grammar reads
 * these, and an indented `@A` ⏎ `companion object {` would be misread once moved): a chain of
 * annotations (`@A`, `@a.B(args)`, arguments with one level of nested parentheses, possibly over
 * lines), each followed by blanks and at most one line break (and the next line's indentation).
 * The blanks before a line break and those after it are two quantifiers that cannot trade
 * characters (a line break stands between them): written as one run each side of an optional line
 * break (`[ \t]*\n?[ \t]*`), every split of a run of blanks between them was tried again for each
 * annotation before, twice the time for each more annotation on a line no modifier ended.
 */
const ANNOTATION_CHAIN = /^(?:@[\w.:]+(?:\([^()]*(?:\([^()]*\)[^()]*)*\))?[ \t]*(?:\n[ \t]*)?)+/gm;

/**
 * Right after an {@link ANNOTATION_CHAIN}: modifiers (group 1), then one the grammar misreads there
 * (group 2), before the rest of a declaration head (more modifiers, then `class`, `interface`,
 * `object`, `fun`, `val`, `var` or `typealias`). A declaration names each modifier at most once
 * (a repeated one is a compile error), so a head has at most {@link MODIFIER_COUNT} of them: the
 * bound keeps a line of thousands of modifier words from being read again for each of them.
 */
const MISREAD_AFTER_ANNOTATIONS = new RegExp(
  String.raw`((?:${MODIFIER}[ \t]+){0,${MODIFIER_COUNT}}?)(${MISREAD_MODIFIER}[ \t]+)(?=(?:${MODIFIER}[ \t]+){0,${MODIFIER_COUNT}}(?:class|interface|object|fun|val|var|typealias)\b)`,
  "y",
);

/**
 * The text with the first misread modifier after each chain of annotations (and the modifiers
 * before it) moved in front of the chain (module comment): `@A public annotation class` becomes
 * `annotation @A public class`. Each chain is matched once, whole (a chain ends where no annotation follows,
 * so a shorter one is never followed by a modifier), and the modifier looked for where it ends: a
 * line inside a chain is not the start of another attempt that reads the rest of the chain again.
 */
function moveMisreadModifiers(source: string): string {
  let out = "";
  let from = 0;
  for (const m of source.matchAll(ANNOTATION_CHAIN)) {
    const end = m.index + m[0].length;
    MISREAD_AFTER_ANNOTATIONS.lastIndex = end;
    const head = MISREAD_AFTER_ANNOTATIONS.exec(source);
    if (head === null) continue;
    const [all, before = "", modifier = ""] = head;
    out += source.slice(from, m.index) + modifier + m[0] + before;
    from = end + all.length;
  }
  return from === 0 ? source : out + source.slice(from);
}

/**
 * A `when` branch line with a guard: indentation, a type or range test (no `->` nor `if` in it),
 * then the guard's `if` followed by a blank or `(`. The guard may go on over lines
 * (`is A if (` ⏎ `x &&` ⏎ `y` ⏎ `) -> {`).
 */
const WHEN_GUARD = /^([ \t]*!?(?:is|in)[ \t](?:(?!->|\bif\b)[^\n])*?[ \t])if(?=[ \t(])/gm;

/**
 * A `val`/`var` line holding only modifiers (lower-case words) and the name (no type, no initializer), then a line of
 * annotations on one line (`@A`, `@a.B(args)`) before an accessor (`get`/`set`, possibly after a
 * visibility modifier, on that line or the next).
 */
const ANNOTATED_ACCESSOR = new RegExp(
  String.raw`^([ \t]*)((?:[a-z]+[ \t]+)*va[lr][ \t]+[A-Za-z_]\w*)([ \t]*\n[ \t])([ \t]*)((?:@[\w.:]+(?:\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))?[ \t]*)+)(?=(?:\n[ \t]*)?(?:(?:private|protected|internal|public)[ \t]+)?[gs]et\b)`,
  "gm",
);

/**
 * `where` starting a line (two indentation spaces or more) as the receiver of `.`, `?.`, `!!` or
 * `[…]`, or assigned (`where = x`; group 2) — the latter only after a line that does not end with
 * `(` or `,` (there it would be a named argument; checked by {@link unwhere}).
 */
const STATEMENT_WHERE = /^([ \t]*)[ \t]{2}where(?=[ \t]*(?:\??\.|!!|\[|(=)[^=]))/gm;

/**
 * The modifier keywords the grammar misreads as a name starting a statement (tried one by one:
 * `annotation`, `data`, `enum`, `value`, … are read), at the start of a line (two indentation spaces or
 * more) as the receiver of `.`, `?.` or `[…]`, or assigned (`= x`; group 3).
 */
const STATEMENT_MODIFIER = /^([ \t]*)[ \t]{2}(abstract|crossinline|external|final|infix|inline|internal|lateinit|noinline|open|override|private|protected|public|sealed|suspend|tailrec|vararg)(?=[ \t]*(?:\??\.|\[|(=)[^=]))/gm;

/**
 * ` get ` before a name or `(` after a blank (a getter is `get(`); {@link quoteInfixGet} checks
 * that an operand ends just before it on its line (a name that is no modifier, `)`, `]`, `}`).
 */
const INFIX_GET = /[ \t]get[ \t]+(?=[A-Za-z_(])/g;

/** A modifier keyword ending the text before an infix-looking ` get ` (`private get`: a getter). */
const ENDS_WITH_MODIFIER = new RegExp(String.raw`\b${MODIFIER}$`);

/** `(where)` for a {@link STATEMENT_WHERE} match; an assignment after `(` or `,` ending the line before is left alone. */
function unwhere(source: string, m: string, indent: string, assigned: string | undefined, offset: number): string {
  return namedArgument(source, assigned, offset) ? m : `${indent}(where)`;
}

/** Whether an assignment at `offset` (`assigned` set) follows a line ending in `(` or `,`: a named argument. */
function namedArgument(source: string, assigned: string | undefined, offset: number): boolean {
  return assigned !== undefined && /[\s(,]$/.test(source.slice(Math.max(0, offset - 200), offset).replace(/[ \t]*\n?$/, ""));
}

/** `` `get` `` (blank-padded) for an {@link INFIX_GET} match that follows an operand. */
function quoteInfixGet(source: string, m: string, offset: number): string {
  const before = source.slice(Math.max(0, offset - 16), offset);
  if (!/[\w)}\]]$/.test(before) || ENDS_WITH_MODIFIER.test(before)) return m;
  return `\`get\`${" ".repeat(m.length - 5)}`;
}

/** A context clause (no nested parentheses) on a declaration's line or the line before it. */
const DECLARATION_CONTEXT = new RegExp(
  String.raw`^([ \t]*)context\([^()\n]*\)(?=[ \t]*(?:\n[ \t]*)?(?:@|(?:${MODIFIER}[ \t]+)*(?:fun|val|var|class|interface|object)\b))`,
  "gm",
);

/** A context clause starting a function type after `:` or `=`, possibly after `suspend` (`block: suspend context(S) T.() -> Unit`). */
const TYPE_CONTEXT = /([:=][ \t]*(?:suspend[ \t]+)?)context\([^()\n]*\)[ \t]+(?=[A-Za-z_(])/g;

/** A comma followed, after blanks and line breaks, by `>`: a trailing comma of a type parameter or argument list. */
const TRAILING_TYPE_COMMA = /,(?=\s*>)/g;

/** The `all` use-site target of an annotation (`@all:A`). */
const ALL_TARGET = /@all:(?=[A-Za-z_])/g;

/**
 * `get`/`set` starting a statement (two indentation spaces or more), then a parameter list on its
 * line (no nested parentheses) followed by something no accessor has there: not `:`, `=`, `{` or
 * the line's end (nor a comment).
 */
const STATEMENT_ACCESSOR_CALL = /^([ \t]*)[ \t]{2}([gs]et)(?=\([^()\n]*\)[ \t]*[^\s:={/])/gm;

/**
 * `get(` with arguments ending its line (then at most a comment) at a statement's start: a getter takes no parameters
 * (https://kotlinlang.org/docs/properties.html#getters-and-setters), so `get(copy)` after `val copy = ByteArray(n)` is
 * a call (square/okio's ByteBuffer.toByteString), which the grammar read as the getter of `copy`, losing the file.
 */
const STATEMENT_GET_CALL = /^([ \t]*)[ \t]{2}(get)(?=\([ \t]*[^()\s][^()\n]*\)[ \t]*(?:\/\/[^\n]*)?$)/gm;

/** The standard library's `suspend { … }` after a blank: at least one blank before `{`. */
const SUSPEND_LAMBDA = /[ \t]suspend([ \t]+)\{/g;

/** Blanks for a match (its group 1, kept, before). */
function blankAfter(m: string, kept: string): string {
  return kept + " ".repeat(m.length - kept.length);
}

/**
 * The text with each multi-dollar string (module comment) rewritten as a plain one of the same
 * length; one pass, each string read once.
 */
function plainDollarStrings(source: string): string {
  let out = "";
  let from = 0;
  for (let at = source.indexOf('$$"'); at >= 0; at = source.indexOf('$$"', Math.max(at + 1, from))) {
    if (at < from) continue;
    let start = at;
    while (start > 0 && source[start - 1] === "$") start--;
    const lineStart = source.lastIndexOf("\n", start) + 1;
    const before = source.slice(lineStart, start);
    if (/[\w"\\]$/.test(before) || (before.replace(/\\./g, "").split('"').length - 1) % 2 === 1) continue;
    const k = at + 2 - start;
    const open = source.startsWith('"""', at + 2) ? '"""' : '"';
    const end = stringEnd(source, at + 2 + open.length, open);
    out += source.slice(from, start) + " ".repeat(k) + open + plainDollars(source.slice(at + 2 + open.length, end), k);
    from = end;
  }
  return from === 0 ? source : out + source.slice(from);
}

/** Where a string opened by `open` ends (its closing delimiter's offset; a one-line string ends at the line's end at the latest). */
function stringEnd(source: string, i: number, open: string): number {
  if (open === '"""') {
    const end = source.indexOf('"""', i);
    return end < 0 ? source.length : end;
  }
  for (let depth = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
    else if ((c === '"' && depth === 0) || c === "\n") return i;
  }
  return source.length;
}

/** A multi-dollar string's content (prefix of `k` dollars) as a plain string's: an interpolation keeps one `$`, other dollars become blanks. */
function plainDollars(content: string, k: number): string {
  return content.replace(/\$+/g, (run: string, offset: number) => {
    const interpolates = run.length >= k && /[A-Za-z_{`]/.test(content[offset + run.length] ?? "");
    return interpolates ? `${" ".repeat(run.length - 1)}$` : " ".repeat(run.length);
  });
}

/** The source with the forms of the module comment rearranged; the same length and line count. */
export function joinKotlinConstructors(source: string): string {
  let text = source.includes('$$"') ? plainDollarStrings(source) : source;
  if (text.includes("context(")) {
    text = text.replace(DECLARATION_CONTEXT, blankAfter).replace(TYPE_CONTEXT, blankAfter);
  }
  if (text.includes("suspend")) text = text.replace(SUSPEND_LAMBDA, (_m: string, blanks: string) => `\`suspend\`${blanks.slice(1)}{`);
  if (text.includes(",")) text = text.replace(TRAILING_TYPE_COMMA, " ");
  if (text.includes("@all:")) text = text.replace(ALL_TARGET, "    @");
  text = text.includes("@") ? moveMisreadModifiers(text) : text;
  text = text.replace(WHEN_GUARD, (_m: string, test: string) => `${test}, `);
  if (text.includes("@")) {
    text = text.replace(ANNOTATED_ACCESSOR, (_m: string, indent: string, head: string, gap: string, rest: string, annotations: string) => {
      const moved = annotations.trimEnd();
      // indent + annotations + " " + head, then the accessor's line without the annotations and one blank.
      return `${indent}${moved} ${head}${gap.slice(0, -1)}${rest}${" ".repeat(annotations.length - moved.length)}`;
    });
  }
  if (text.includes("where")) {
    const from = text;
    text = text.replace(STATEMENT_WHERE, (m: string, indent: string, assigned: string | undefined, offset: number) => unwhere(from, m, indent, assigned, offset));
  }
  {
    const from = text;
    text = text.replace(STATEMENT_MODIFIER, (m: string, indent: string, word: string, assigned: string | undefined, offset: number) =>
      namedArgument(from, assigned, offset) ? m : `${indent}\`${word}\``,
    );
  }
  if (text.includes("et(")) text = text.replace(STATEMENT_ACCESSOR_CALL, (_m: string, indent: string, word: string) => `${indent}\`${word}\``);
  if (text.includes("get(")) text = text.replace(STATEMENT_GET_CALL, (_m: string, indent: string, word: string) => `${indent}\`${word}\``);
  if (text.includes("get")) {
    const from = text;
    text = text.replace(INFIX_GET, (m: string, offset: number) => quoteInfixGet(from, m, offset));
  }
  return joinConstructors(text);
}

function joinConstructors(source: string): string {
  if (!source.includes("constructor")) return source;
  const joined = source.replace(SPLIT_CONSTRUCTOR, (m: string, head: string, indent: string, ctor: string) => {
    // head + spaces + "\n" + indent + ctor  →  head + " " + ctor + "\n" + indent minus one, padded.
    const line = `${head} ${ctor}\n${indent.slice(1)}`;
    return line.padEnd(m.length, " ");
  });
  return joined.replace(CONSTRUCTOR_MODIFIERS, (_m: string, head: string, modifiers: string) => head + " ".repeat(modifiers.length));
}
