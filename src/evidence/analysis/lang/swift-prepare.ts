/**
 * Swift text the tree-sitter-swift grammar (tree-sitter-wasms 0.1.13) misreads, rearranged before
 * parsing (`LanguageSpec.prepare`): the length, the lines and every declaration's start stay the file's.
 * - `nonisolated(unsafe)` (Swift 5.10, SE-0412,
 *   https://github.com/swiftlang/swift-evolution/blob/main/proposals/0412-strict-concurrency-for-global-variables.md):
 *   the grammar knows `nonisolated` but not its `(unsafe)` argument, and loses the declaration, in
 *   a type body the whole type (Alamofire 7595cbc Source/Core/Protected.swift lost `Protected`, its
 *   `init` and `value`, and gave its methods no container). `(unsafe)` is blanked; `nonisolated`
 *   stays, so the declaration keeps its modifiers' meaning for isolation and its names.
 */

/** `nonisolated(unsafe)` with blanks allowed inside the parentheses. */
const NONISOLATED_UNSAFE = /\bnonisolated[ \t]*\([ \t]*unsafe[ \t]*\)/g;

/** The source with the forms of the module comment rearranged; the same length and line count. */
export function prepareSwift(source: string): string {
  if (!source.includes("nonisolated")) return source;
  return source.replace(NONISOLATED_UNSAFE, (m: string) => `nonisolated${" ".repeat(m.length - "nonisolated".length)}`);
}
