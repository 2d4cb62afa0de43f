/**
 * `adviceForCommand`: the evidence layer's notes and hints, kept as advice data, in the model's
 * words and in the CLI's, never advising an option the command lacks. The inputs are the texts
 * the tools write (src/evidence/{budget,read,search,symbols,git-diff,workspace}.ts, lang/java.ts).
 */
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";
import { EVIDENCE_COMMANDS, adviceForCommand, type EvidenceCommandName } from "../../src/cli/advice.js";
import { CUT_MARK, advice, joinAdvice, location, oneClause, param, plain, renderForModel, shortList, shortListAdvice, tool, type AdviceText } from "../../src/evidence/advice.js";
import * as search from "../../src/cli/commands/search.js";
import * as symbol from "../../src/cli/commands/symbol.js";
import * as importers from "../../src/cli/commands/importers.js";
import * as read from "../../src/cli/commands/read.js";
import * as diff from "../../src/cli/commands/diff.js";
import * as refs from "../../src/cli/commands/refs.js";

const readEvidence = tool("read_evidence");
const searchCode = tool("search_code");
const findSymbol = tool("find_symbol");
const gitDiff = tool("read_git_diff");
const narrowList = { kind: "param_list", params: ["path", "kind"] } as const;

/** [command, advice data, the model's words, the command's words]. */
const cases: Array<[EvidenceCommandName, AdviceText, string, string]> = [
  // tools → commands
  [
    "search",
    advice`Snippets longer than 12 lines were cut (flag truncated); ${readEvidence} shows whole ranges.`,
    "Snippets longer than 12 lines were cut (flag truncated); read_evidence shows whole ranges.",
    "Snippets longer than 12 lines were cut (flag truncated); codecite read shows whole ranges.",
  ],
  // a clause about a cut → left out (the command's own note says how to see everything), with the clause it is joined to
  [
    "symbol",
    joinAdvice(plain("Showing 2 of 4 records."), oneClause(advice`Snippets longer than 12 lines were cut ${CUT_MARK}; ${readEvidence} shows whole ranges.`)),
    "Showing 2 of 4 records. Snippets longer than 12 lines were cut (flag truncated); read_evidence shows whole ranges.",
    "Showing 2 of 4 records.",
  ],
  [
    "search",
    advice`showing 50 of 900 matching lines; long lines cut to 300 characters ${CUT_MARK}. Narrow the search with ${param("path")}.`,
    "showing 50 of 900 matching lines; long lines cut to 300 characters (flag truncated). Narrow the search with path.",
    "showing 50 of 900 matching lines. Narrow the search with --path.",
  ],
  [
    "symbol",
    advice`No definition named nosuch (searched 8 source files; definitions come from tree-sitter for python). Try ${searchCode} for the text.`,
    "No definition named nosuch (searched 8 source files; definitions come from tree-sitter for python). Try search_code for the text.",
    "No definition named nosuch (searched 8 source files; definitions come from tree-sitter for python). Try codecite search for the text.",
  ],
  ["read", advice`Check the path with ${searchCode} or ${findSymbol}.`, "Check the path with search_code or find_symbol.", "Check the path with codecite search or codecite symbol."],
  [
    "diff",
    advice`${gitDiff} needs a git repository; use ${searchCode} or ${readEvidence} instead.`,
    "read_git_diff needs a git repository; use search_code or read_evidence instead.",
    "codecite diff needs a git repository; use codecite search or codecite read instead.",
  ],
  // assignments → --param-name value
  [
    "read",
    advice`Showing lines 1-200 of 1625; read on with ${param("start_line", 201)}.`,
    "Showing lines 1-200 of 1625; read on with start_line=201.",
    "Showing lines 1-200 of 1625; read on with --start-line 201.",
  ],
  ["diff", advice`Pass ${param("context_lines", 3)}, or leave it out.`, "Pass context_lines=3, or leave it out.", "Pass --context-lines 3, or leave it out."],
  [
    "diff",
    joinAdvice(plain("No changes (working tree against HEAD)."), advice`${param("base")} defaults to HEAD; to see what one commit changed, pass ${param("base", "<commit>~1")} and ${param("head", "<commit>")}.`),
    "No changes (working tree against HEAD). base defaults to HEAD; to see what one commit changed, pass base=<commit>~1 and head=<commit>.",
    "No changes (working tree against HEAD). --base defaults to HEAD; to see what one commit changed, pass --base <commit>~1 and --head <commit>.",
  ],
  // parameters → flags, or the positional argument
  ["read", advice`${param("end_line")} (2) is before ${param("start_line")} (5)`, "end_line (2) is before start_line (5)", "--end-line (2) is before --start-line (5)"],
  ["importers", advice`${param("module_name")} read as 'rag_common'.`, "module_name read as 'rag_common'.", "<module> read as 'rag_common'."],
  [
    "symbol",
    advice`No class named load_index, but 1 definition of other kinds: load_index (function, src/rag_common.py:60). Drop ${param("kind")} to see them.`,
    "No class named load_index, but 1 definition of other kinds: load_index (function, src/rag_common.py:60). Drop kind to see them.",
    "No class named load_index, but 1 definition of other kinds: load_index (function, src/rag_common.py:60). Drop --kind to see them.",
  ],
  [
    "search",
    advice`Check the regular expression (Rust regex syntax), or ${{ kind: "set_flag", param: "regex", value: false }} for a literal search.`,
    "Check the regular expression (Rust regex syntax), or set regex to false for a literal search.",
    "Check the regular expression (Rust regex syntax), or drop --regex for a literal search.",
  ],
  [
    "search",
    advice`No match for "a.b(". The query was matched literally; ${{ kind: "set_flag", param: "regex", value: true }} for a pattern.`,
    'No match for "a.b(". The query was matched literally; set regex to true for a pattern.',
    'No match for "a.b(". The query was matched literally; add --regex for a pattern.',
  ],
  [
    "search",
    advice`Narrow the search with ${param("path")} or ${param("glob")}, or a more specific query.`,
    "Narrow the search with path or glob, or a more specific query.",
    "Narrow the search with --path or --glob, or a more specific query.",
  ],
  [
    "read",
    advice`Pass a file path, or ${{ kind: "search_folder" }}.`,
    "Pass a file path, or search_code with path set to the folder.",
    "Pass a file path, or codecite search --path <folder>.",
  ],
  [
    "search",
    advice`Use ${{ kind: "read_range" }}, or ${searchCode}.`,
    "Use read_evidence with a line range, or search_code.",
    "Use codecite read with --start-line and --end-line, or codecite search.",
  ],
  // options the command lacks are never advised
  [
    "importers",
    advice`Showing 2 of 4 records; narrow the query ${narrowList} or raise ${param("max_results")} to see more.`,
    "Showing 2 of 4 records; narrow the query (path, kind) or raise max_results to see more.",
    "Showing 2 of 4 records; narrow the query or raise --max-results to see more.",
  ],
  [
    "search",
    advice`Showing 2 of 4 records; narrow the query ${narrowList} or raise ${param("max_results")} to see more.`,
    "Showing 2 of 4 records; narrow the query (path, kind) or raise max_results to see more.",
    "Showing 2 of 4 records; narrow the query (--path) or raise --max-results to see more.",
  ],
  [
    "symbol",
    advice`Showing 2 of 4 records; narrow the query ${narrowList} or raise ${param("max_results")} to see more.`,
    "Showing 2 of 4 records; narrow the query (path, kind) or raise max_results to see more.",
    "Showing 2 of 4 records; narrow the query (--path, --kind) or raise --max-results to see more.",
  ],
  [
    "importers",
    advice`Output was too large: 300 records in 120 files; showing the first record of 50 files with first lines only. Records per file: a.py (3), b.py (2). Narrow the query with ${param("path")} to see the rest.`,
    "Output was too large: 300 records in 120 files; showing the first record of 50 files with first lines only. Records per file: a.py (3), b.py (2). Narrow the query with path to see the rest.",
    "Output was too large: 300 records in 120 files; showing the first record of 50 files with first lines only. Records per file: a.py (3), b.py (2).",
  ],
  [
    "read",
    advice`Install git to use ${gitDiff}; pass ${param("context_lines")} to limit it; then ${readEvidence}.`,
    "Install git to use read_git_diff; pass context_lines to limit it; then read_evidence.",
    "Install git to use codecite diff. Then codecite read.",
  ],
  // a parameter after a tool in the same clause belongs to that tool's command
  [
    "importers",
    advice`Run ${searchCode} with ${param("glob")} to see more.`,
    "Run search_code with glob to see more.",
    "Run codecite search with --glob to see more.",
  ],
  // text that merely looks like a flag or a parameter is not advice
  [
    "search",
    advice`No match for "--verbose" (3 files searched). The query was matched literally; ${{ kind: "set_flag", param: "regex", value: true }} for a pattern.`,
    'No match for "--verbose" (3 files searched). The query was matched literally; set regex to true for a pattern.',
    'No match for "--verbose" (3 files searched). The query was matched literally; add --regex for a pattern.',
  ],
  ["read", plain("No file imports src/max_results.py. Pass a path such as start_line.py."), "No file imports src/max_results.py. Pass a path such as start_line.py.", "No file imports src/max_results.py. Pass a path such as start_line.py."],
];

describe("adviceForCommand", () => {
  it.each(cases.map(([command, text, model, cli]) => [command, model, cli, text] as const))("%s: %s", (command, model, cli, text) => {
    expect(renderForModel(text)).toBe(model);
    expect(adviceForCommand(text, command)).toBe(cli);
  });

  it("keeps the spacing of the text exactly in the model's words", () => {
    expect(renderForModel(advice`No match for "a.  b". Use ${searchCode}.`)).toBe('No match for "a.  b". Use search_code.');
  });
});

describe("EVIDENCE_COMMANDS", () => {
  it("lists exactly the options each evidence command registers", () => {
    const program = createProgram();
    for (const m of [search, symbol, importers, read, diff, refs]) m.register(program);
    for (const [name, spec] of Object.entries(EVIDENCE_COMMANDS)) {
      const command = program.commands.find((c) => c.name() === name)!;
      expect(command.options.map((o) => o.long).sort(), name).toEqual([...spec.options].sort());
      const args = command.registeredArguments.map((a) => `<${a.name()}>`);
      expect(args, name).toEqual(spec.positional ? [spec.positional[1]] : []);
    }
  });
});

describe("shortList, shortListAdvice: the lists of notes", () => {
  const files = Array.from({ length: 43 }, (_, i) => `Source/F${i + 1}.swift`);
  it("name at most five, then how many more", () => {
    expect(shortList(files)).toBe("Source/F1.swift, Source/F2.swift, Source/F3.swift, Source/F4.swift, Source/F5.swift and 38 more");
    expect(shortList(files.slice(0, 5))).toBe("Source/F1.swift, Source/F2.swift, Source/F3.swift, Source/F4.swift, Source/F5.swift");
    expect(shortList(files, 2)).toBe("Source/F1.swift, Source/F2.swift and 41 more");
  });
  it("keep terms, worded by each surface", () => {
    const defs = files.slice(0, 7).map((f, i) => [`T${i} (class, `, location(f, 3), ")"]);
    expect(renderForModel(advice`Defined as: ${shortListAdvice(defs)}.`)).toBe(
      "Defined as: T0 (class, Source/F1.swift:3), T1 (class, Source/F2.swift:3), T2 (class, Source/F3.swift:3), T3 (class, Source/F4.swift:3), T4 (class, Source/F5.swift:3) and 2 more.",
    );
    expect(adviceForCommand(advice`Defined as: ${shortListAdvice(defs, 1)}.`, "symbol")).toBe("Defined as: T0 (class, Source/F1.swift:3) and 6 more.");
  });
});
