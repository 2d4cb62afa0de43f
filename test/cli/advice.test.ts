/**
 * `humanizeAdvice`: the evidence layer's notes and hints (written for the model) in the CLI's
 * words, never advising an option the command lacks. The inputs are the texts the tools write
 * (src/evidence/{budget,read,search,symbols,git-diff,workspace}.ts, lang/java.ts).
 */
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";
import { EVIDENCE_COMMANDS, humanizeAdvice, type EvidenceCommandName } from "../../src/cli/advice.js";
import * as search from "../../src/cli/commands/search.js";
import * as symbol from "../../src/cli/commands/symbol.js";
import * as importers from "../../src/cli/commands/importers.js";
import * as read from "../../src/cli/commands/read.js";
import * as diff from "../../src/cli/commands/diff.js";

const cases: Array<[EvidenceCommandName, string, string]> = [
  // tool names → commands
  [
    "search",
    "Snippets longer than 12 lines were cut (flag truncated); read_evidence shows whole ranges.",
    "Snippets longer than 12 lines were cut (flag truncated); codecite read shows whole ranges.",
  ],
  [
    "symbol",
    "No definition named nosuch (searched 8 source files; definitions come from tree-sitter for python). Try search_code for the text.",
    "No definition named nosuch (searched 8 source files; definitions come from tree-sitter for python). Try codecite search for the text.",
  ],
  ["read", "Check the path with search_code or find_symbol.", "Check the path with codecite search or codecite symbol."],
  [
    "diff",
    "read_git_diff needs a git repository; use search_code or read_evidence instead.",
    "codecite diff needs a git repository; use codecite search or codecite read instead.",
  ],
  [
    "importers",
    "Java: classes in the same package (and fully qualified names used in code) need no import, so those uses are not listed; search_code for the class name finds them.",
    "Java: classes in the same package (and fully qualified names used in code) need no import, so those uses are not listed; codecite search for the class name finds them.",
  ],
  // param=value → --param-name value
  ["read", "Showing lines 1-200 of 1625; read on with start_line=201.", "Showing lines 1-200 of 1625; read on with --start-line 201."],
  ["diff", "Pass context_lines=3, or leave it out.", "Pass --context-lines 3, or leave it out."],
  [
    "diff",
    "No changes (working tree against HEAD). base defaults to HEAD; to see what one commit changed, pass base=<commit>~1 and head=<commit>.",
    "No changes (working tree against HEAD). --base defaults to HEAD; to see what one commit changed, pass --base <commit>~1 and --head <commit>.",
  ],
  // parameter names → flags (or the positional argument)
  ["read", "end_line (2) is before start_line (5)", "--end-line (2) is before --start-line (5)"],
  ["read", "Lines are 1-based and inclusive: pass start_line ≤ end_line.", "Lines are 1-based and inclusive: pass --start-line ≤ --end-line."],
  ["importers", "module_name read as 'rag_common'.", "<module> read as 'rag_common'."],
  // one-word parameters only in the tools' advice phrases
  [
    "symbol",
    "No class named load_index, but 1 definition of other kinds: load_index (function, src/rag_common.py:60). Drop kind to see them.",
    "No class named load_index, but 1 definition of other kinds: load_index (function, src/rag_common.py:60). Drop --kind to see them.",
  ],
  [
    "search",
    "Check the regular expression (Rust regex syntax), or set regex to false for a literal search.",
    "Check the regular expression (Rust regex syntax), or drop --regex for a literal search.",
  ],
  [
    "search",
    'No match for "a.b(". The query was matched literally; set regex to true for a pattern.',
    'No match for "a.b(". The query was matched literally; add --regex for a pattern.',
  ],
  ["search", "Narrow the search with path or glob, or a more specific query.", "Narrow the search with --path or --glob, or a more specific query."],
  ["diff", "Showing 30 of 45 hunks; pass path to see one file's hunks.", "Showing 30 of 45 hunks; pass --path to see one file's hunks."],
  ["diff", "ranges ('..') are not accepted; pass base and head separately", "ranges ('..') are not accepted; pass --base and --head separately"],
  ["read", "Pass a file path, or search_code with path set to the folder.", "Pass a file path, or codecite search --path <folder>."],
  // a flag after `codecite <command>` belongs to that command
  ["search", "Use read_evidence with a line range, or search_code.", "Use codecite read with --start-line and --end-line, or codecite search."],
  // options the command lacks are never advised
  [
    "importers",
    "Showing 2 of 4 records; narrow the query (path, kind) or raise max_results to see more.",
    "Showing 2 of 4 records; narrow the query or raise --max-results to see more.",
  ],
  [
    "search",
    "Showing 2 of 4 records; narrow the query (path, kind) or raise max_results to see more.",
    "Showing 2 of 4 records; narrow the query (--path) or raise --max-results to see more.",
  ],
  [
    "symbol",
    "Showing 2 of 4 records; narrow the query (path, kind) or raise max_results to see more.",
    "Showing 2 of 4 records; narrow the query (--path, --kind) or raise --max-results to see more.",
  ],
  [
    "importers",
    "Output was too large: 300 records in 120 files; showing the first record of 50 files with first lines only. Records per file: a.py (3), b.py (2). Narrow the query with path to see the rest.",
    "Output was too large: 300 records in 120 files; showing the first record of 50 files with first lines only. Records per file: a.py (3), b.py (2).",
  ],
  [
    "symbol",
    "Output was too large: 300 records in 120 files; showing the first record of 50 files with first lines only. Records per file: a.py (3). Narrow the query with path to see the rest.",
    "Output was too large: 300 records in 120 files; showing the first record of 50 files with first lines only. Records per file: a.py (3). Narrow the query with --path to see the rest.",
  ],
  ["read", "Install git to use read_git_diff; pass path to limit it; then read_evidence.", "Install git to use codecite diff. Then codecite read."],
  // a quoted query that looks like a flag is not advice
  [
    "search",
    'No match for "--verbose" (3 files searched). The query was matched literally; set regex to true for a pattern.',
    'No match for "--verbose" (3 files searched). The query was matched literally; add --regex for a pattern.',
  ],
];

describe("humanizeAdvice", () => {
  it.each(cases)("%s: %s", (command, text, expected) => {
    expect(humanizeAdvice(text, command)).toBe(expected);
  });

  it("leaves text without tool words unchanged (plain words such as path and kind stay words)", () => {
    for (const text of [
      'Pass a repository-relative path such as "src/main.py".',
      "No file imports src/rag_common.py. Close names in this repository: rag_common_extra.",
      "workspace root does not exist: /nope",
      "Pass a name such as load_index or Class.method.",
    ]) {
      expect(humanizeAdvice(text, "read")).toBe(text);
    }
  });
});

describe("EVIDENCE_COMMANDS", () => {
  it("lists exactly the options each evidence command registers", () => {
    const program = createProgram();
    for (const m of [search, symbol, importers, read, diff]) m.register(program);
    for (const [name, spec] of Object.entries(EVIDENCE_COMMANDS)) {
      const command = program.commands.find((c) => c.name() === name)!;
      expect(command.options.map((o) => o.long).sort(), name).toEqual([...spec.options].sort());
      const args = command.registeredArguments.map((a) => `<${a.name()}>`);
      expect(args, name).toEqual(spec.positional ? [spec.positional[1]] : []);
    }
  });
});
