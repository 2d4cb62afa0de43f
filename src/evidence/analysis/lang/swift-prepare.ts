/**
 * Swift text the tree-sitter-swift grammar (tree-sitter-wasms 0.1.13) misreads, rearranged before
 * parsing (`LanguageSpec.prepare`): the length, the lines and every declaration's start stay the file's.
 * - `nonisolated(unsafe)` (Swift 5.10, SE-0412,
 *   https://github.com/swiftlang/swift-evolution/blob/main/proposals/0412-strict-concurrency-for-global-variables.md):
 *   the grammar knows `nonisolated` but not its `(unsafe)` argument, and loses the declaration, in
 *   a type body the whole type (Alamofire 7595cbc Source/Core/Protected.swift lost `Protected`, its
 *   `init` and `value`, and gave its methods no container). `(unsafe)` is blanked; `nonisolated`
 *   stays, so the declaration keeps its modifiers' meaning for isolation and its names. Likewise
 *   `nonisolated(nonsending)` (Swift 6.2, SE-0461,
 *   https://github.com/swiftlang/swift-evolution/blob/main/proposals/0461-async-function-isolation.md):
 *   the declaration lost the attributes before it from its range (apple/swift-log 7af2de1
 *   Sources/Logging/Logger+With.swift: `withLogger` began after its `@available`/`@inlinable`), and in
 *   a type body, after an attribute, the type ended there and its later members went to file level.
 * - A suppressed conformance `~Copyable` / `~Escapable` (Swift 5.9/6, SE-0390, SE-0427, SE-0446,
 *   https://github.com/swiftlang/swift-evolution/blob/main/proposals/0427-noncopyable-generics.md)
 *   in an inheritance clause or constraint (`struct S<E: ~Copyable>: ~Copyable`, `extension S where
 *   E: ~Copyable`, `Hashable & ~Copyable`): the grammar does not know `~` there and loses the whole
 *   declaration with its members (apple/swift-collections f425dff: every member of `RigidSet`,
 *   `RigidDictionary`, `UniqueDeque`). The `~` after `:`, `&`, `,` or `<` is blanked; an
 *   expression `f(a, ~b)` reads the same names without it.
 * - Typed throws after `async` (Swift 6, SE-0413,
 *   https://github.com/swiftlang/swift-evolution/blob/main/proposals/0413-typed-throws.md): the grammar
 *   reads `throws(E)` alone but loses a declaration written `async throws(E)` (apple/swift-log
 *   7af2de1 Sources/Logging/Logger+With.swift lost its six `withLogger` functions). `async` before
 *   `throws(` is blanked; the thrown type stays, a type use as before.
 * - `try await f()` as the value of a condition (`if let r = try await f() {`, `if case .a(let r) =
 *   try? await f() {`): the grammar takes the `{` of the `if` for a trailing closure of the call and
 *   loses the function around it, with every declaration after it up to the end of the enclosing
 *   type (Quick/Nimble 035b88a Sources/Nimble/Utils/AsyncAwait.swift lost `pollBlock`). `await` after
 *   `try`, `try?` or `try!` is blanked (`await f()` and `try f()` alone parse right); `for try await`
 *   stays.
 * - The access modifier `package` (Swift 5.9, SE-0386,
 *   https://github.com/swiftlang/swift-evolution/blob/main/proposals/0386-package-access-modifier.md):
 *   the grammar ends the type body at `package init()` / `package var …` and files the members
 *   that follow at top level (apple/swift-collections f425dff). `package` before a declaration
 *   keyword, another modifier or an attribute is blanked (the declaration reads as internal);
 *   `let package = Package(…)` is no modifier and stays.
 * - Ownership modifiers the grammar does not know on a parameter's type: `__shared` / `__owned` (the
 *   underscored spellings of `borrowing` / `consuming`, which it knows, SE-0377,
 *   https://github.com/swiftlang/swift-evolution/blob/main/proposals/0377-parameter-ownership-modifiers.md)
 *   and `sending` (SE-0430, https://github.com/swiftlang/swift-evolution/blob/main/proposals/0430-transferring-parameters-and-results.md):
 *   it read the modifier as the type and lost the real one (apple/swift-collections f425dff
 *   Rope+_UnmanagedLeaf.swift: `init(_ leaf: __shared _Leaf)` gave no use of `_Leaf`). After `:` they
 *   are blanked.
 * - The `borrow` accessor and the `yielding borrow` / `yielding mutate` accessors (SE-0474,
 *   https://github.com/swiftlang/swift-evolution/blob/main/proposals/0474-yielding-accessors.md):
 *   the grammar loses the whole type around a `borrow { … }` (swift-collections f425dff
 *   RigidSet+Index.swift: the subscript's `_memberPtr(at:)` call was not read). They are written as
 *   `_read` / `_modify`, the accessors of the same meaning the grammar reads, padded with blanks.
 */

/** `nonisolated(unsafe)` / `nonisolated(nonsending)` with blanks allowed inside the parentheses. */
const NONISOLATED_UNSAFE = /\bnonisolated[ \t]*\([ \t]*(?:unsafe|nonsending)[ \t]*\)/g;

/** `~` of a suppressed conformance: after `:`, `&`, `,` or `<` (blanks allowed), before a name. */
const SUPPRESSED = /([:&,<][ \t]*)~(?=[ \t]*[A-Za-z_])/g;

/** `async` before a typed `throws(`. */
const ASYNC_TYPED_THROWS = /\basync(?=[ \t]+throws[ \t]*\()/g;

/** `await` right after `try`, `try?` or `try!`, except in `for try await`. */
const TRY_AWAIT = /(?<!\bfor[ \t]+)(\btry[?!]?[ \t]+)await\b/g;

/** The modifier `package`: followed by a declaration keyword, another modifier or an attribute. */
const PACKAGE_MODIFIER =
  /\bpackage(?=[ \t]+(?:func|var|let|init|deinit|typealias|struct|class|enum|protocol|extension|actor|subscript|macro|static|final|mutating|nonmutating|override|convenience|required|lazy|weak|unowned|indirect|dynamic|nonisolated|consuming|borrowing|@\w)\b)/g;

/** An ownership modifier the grammar does not know, after the `:` of a parameter. */
const OWNERSHIP = /(:[ \t]*)(?:__shared|__owned|sending)(?=[ \t]+[A-Za-z_([@])/g;

/** A `borrow` accessor (alone on its line before `{`), or a `yielding borrow` / `yielding mutate` one. */
const BORROW_ACCESSOR = /^([ \t]*)(?:yielding[ \t]+)?borrow(?=[ \t]*\{)/gm;
const YIELDING_MUTATE = /^([ \t]*)yielding[ \t]+mutate(?=[ \t]*\{)/gm;

/** The source with the forms of the module comment rearranged; the same length and line count. */
export function prepareSwift(source: string): string {
  let out = source;
  if (out.includes("nonisolated")) out = out.replace(NONISOLATED_UNSAFE, (m: string) => `nonisolated${" ".repeat(m.length - "nonisolated".length)}`);
  if (out.includes("~")) out = out.replace(SUPPRESSED, "$1 ");
  if (out.includes("await")) out = out.replace(TRY_AWAIT, "$1     ");
  if (out.includes("throws")) out = out.replace(ASYNC_TYPED_THROWS, "     ");
  if (out.includes("package")) out = out.replace(PACKAGE_MODIFIER, "       ");
  if (/__shared|__owned|sending/.test(out)) out = out.replace(OWNERSHIP, (m: string, lead: string) => `${lead}${" ".repeat(m.length - lead.length)}`);
  if (out.includes("borrow")) out = out.replace(BORROW_ACCESSOR, (m: string, lead: string) => `${lead}_read${" ".repeat(m.length - lead.length - 5)}`);
  if (out.includes("yielding")) out = out.replace(YIELDING_MUTATE, (m: string, lead: string) => `${lead}_modify${" ".repeat(m.length - lead.length - 7)}`);
  return out;
}
