/**
 * The code tools' descriptions are what a model reads to choose a tool (`codecite tools`,
 * `src/tools/code-tools.ts`): a language left out of a list in find_symbol's description reads as
 * "not supported", so a model asked about a Swift or C# repository would search text instead.
 * The description may name no language (every token counts at `--num-ctx 2048`), or all of them.
 */
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../src/evidence/analysis/lang/index.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";

/** How the description names each registered language (TypeScript, TSX and JavaScript share one name). */
const NAMED_AS: Record<string, string> = {
  python: "Python",
  typescript: "TS/JS",
  tsx: "TS/JS",
  javascript: "TS/JS",
  go: "Go",
  rust: "Rust",
  java: "Java",
  c: "C",
  cpp: "C++",
  csharp: "C#",
  ruby: "Ruby",
  php: "PHP",
  kotlin: "Kotlin",
  swift: "Swift",
};

describe("find_symbol's description", () => {
  const description = createCodeToolRegistry().definitions().find((d) => d.function.name === "find_symbol")!.function.description;
  const names = [...new Set(LANGUAGES.map((l) => NAMED_AS[l.id] ?? `(no name for language ${l.id})`))];
  /** The names the description spells as words (`C` not inside `C++` or `C#`). */
  const named = names.filter((n) => new RegExp(`(?<![\\w+#/])${n.replace(/[+#/]/g, (c) => `\\${c}`)}(?![\\w+#/])`).test(description));

  it("names no language, or every language whose definitions codecite reads", () => {
    if (named.length > 0) expect(named).toEqual(names);
  });
});
