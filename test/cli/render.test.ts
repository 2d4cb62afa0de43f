/** Human renderers of the CLI: summaries, truncation markers, tool errors for command-line users. */
import { advice, param, tool } from "../../src/evidence/advice.js";
import { ToolError } from "../../src/evidence/evidence.js";
import { describe, expect, it } from "vitest";
import pc from "picocolors";
import type { Evidence } from "../../src/evidence/evidence.js";
import { errorForCommandLine } from "../../src/cli/evidence-command.js";
import { renderCitations, renderEvidence, renderSummary } from "../../src/cli/render.js";
import type { RootView } from "../../src/cli/root-view.js";

/** The view `rootView("../flask")` gives from a sibling folder (fixed here; root-view.test.ts checks rootView). */
const sibling: RootView = { show: (rel) => `../flask/${rel}`, rootOption: " --root ../flask" };

const plain = pc.createColors(false);

describe("renderSummary", () => {
  // Cut snippets are not in the summary: the records mark them and the command's one note says how to see them whole.
  it.each([
    [0, 0, "no results"],
    [4, 4, "4 results"],
    [1, 1, "1 result"],
    [50, 120, "showing 50 of 120 results"],
    [3, 3, "3 results"],
  ])("shown %i of %i → %s", (shown, total, text) => {
    expect(renderSummary(shown, total)).toBe(text);
  });
});

describe("renderEvidence", () => {
  const definition: Evidence = {
    path: "src/agent/run-agent.ts",
    start_line: 119,
    end_line: 305,
    kind: "definition",
    name: "runAgent",
    snippet: "export async function runAgent(opts) {\n  const x = 1;",
    symbol_kind: "function",
    flags: ["truncated"],
  };

  it("a cut multi-line record names the lines not shown and the command that shows them", () => {
    expect(renderEvidence(definition, plain)).toBe(
      [
        "src/agent/run-agent.ts:119  function runAgent [truncated]",
        "   119 │ export async function runAgent(opts) {",
        "   120 │   const x = 1;",
        "       ┆ … lines 121-305 not shown: codecite read src/agent/run-agent.ts --start-line 121 --end-line 305",
      ].join("\n"),
    );
  });

  it("with --root elsewhere: the location opens from the current directory and the command carries --root", () => {
    const cut: Evidence = { ...definition, path: "src/flask/app.py", start_line: 119, end_line: 1625 };
    expect(renderEvidence(cut, plain, sibling)).toBe(
      [
        "../flask/src/flask/app.py:119  function runAgent [truncated]",
        "   119 │ export async function runAgent(opts) {",
        "   120 │   const x = 1;",
        "       ┆ … lines 121-1625 not shown: codecite read src/flask/app.py --root ../flask --start-line 121 --end-line 1625",
      ].join("\n"),
    );
  });

  it("a path that needs quoting is shell-quoted in the suggested command", () => {
    const cut: Evidence = { ...definition, path: "docs/my notes.py", start_line: 1, end_line: 30, snippet: "a" };
    expect(renderEvidence(cut, plain).split("\n").at(-1)).toBe("       ┆ … lines 2-30 not shown: codecite read 'docs/my notes.py' --start-line 2 --end-line 30");
  });

  it("a cut single line ends with …", () => {
    const match: Evidence = { path: "a.py", start_line: 7, end_line: 7, kind: "match", name: "x", snippet: "x = 'long", flags: ["truncated"] };
    expect(renderEvidence(match, plain)).toBe("a.py:7  match [truncated]\n     7 │ x = 'long …");
  });

  it("a whole record has no marker", () => {
    const source: Evidence = { path: "a.py", start_line: 9, end_line: 10, kind: "source", name: "a.py", snippet: "a\nb" };
    expect(renderEvidence(source, plain)).toBe("a.py:9  lines 9-10\n     9 │ a\n    10 │ b");
  });

  it("a reference names its caller, or says it is top-level code (the file's path as context)", () => {
    const use: Evidence = {
      path: "src/requests/sessions.py",
      start_line: 651,
      end_line: 651,
      kind: "reference",
      name: "Session.send",
      snippet: "        resp = self.send(prep, **send_kwargs)",
      context: "Session.request",
      flags: ["call"],
    };
    expect(renderEvidence(use, plain)).toBe("src/requests/sessions.py:651  reference in Session.request [call]\n   651 │         resp = self.send(prep, **send_kwargs)");
    const topLevel: Evidence = { ...use, path: "setup.py", start_line: 3, end_line: 3, snippet: "send()", context: "setup.py" };
    expect(renderEvidence(topLevel, plain).split("\n")[0]).toBe("setup.py:3  reference at top level [call]");
    // A caller's name comes from the repository: control characters are shown escaped.
    expect(renderEvidence({ ...use, context: "f\u001b[2J" }, plain).split("\n")[0]).toBe("src/requests/sessions.py:651  reference in f\\x1b[2J [call]");
    expect(renderEvidence({ ...use, context: undefined }, plain).split("\n")[0]).toBe("src/requests/sessions.py:651  reference [call]");
  });
});

describe("renderCitations", () => {
  it("shows each cited location as the view shows paths, with its status sign, then a summary", () => {
    const citations = [
      { path: "src/rag_chat.py", line: 10, end_line: 10, verified: true, status: "supported" as const },
      { path: "src/rag_chat.py", line: 12, end_line: 14, verified: true, status: "seen" as const },
      { path: "src/rag_chat.py", line: 99, end_line: 99, verified: false, status: "unseen" as const },
      { path: "src/other.py", line: 3, end_line: 3, verified: false, status: "invalid" as const, reason: "src/other.py has 2 lines", resolved_from: "other.py" },
    ];
    expect(renderCitations(citations, plain, sibling)).toBe(
      [
        "Citations: 2 of 4 verified",
        "  ✓ ../flask/src/rag_chat.py:10",
        "  ~ ../flask/src/rag_chat.py:12-14  seen: shown to the model, but the sentence names nothing in these lines",
        "  ? ../flask/src/rag_chat.py:99  unseen: never shown to the model",
        "  ✗ ../flask/src/other.py:3 (written other.py)  invalid: src/other.py has 2 lines",
        "1 supported · 1 seen · 1 unseen · 1 invalid",
        "",
      ].join("\n"),
    );
    expect(renderCitations(citations, plain)).toContain("  ✓ src/rag_chat.py:10\n");
  });

  it("names how a path was written only when that differs from the location shown", () => {
    // Asked from examples/rag-app below the git top: the model writes src/rag_chat.py, the root-relative path is
    // examples/rag-app/src/rag_chat.py, and the view shows it as src/rag_chat.py again.
    const fromSubfolder: RootView = { show: (rel) => rel.replace(/^examples\/rag-app\//, ""), rootOption: " --root ../.." };
    const citations = [
      { path: "examples/rag-app/src/rag_chat.py", line: 10, end_line: 10, verified: true, status: "supported" as const, resolved_from: "src/rag_chat.py" },
      { path: "examples/rag-app/src/rag_chat.py", line: 4, end_line: 4, verified: true, status: "supported" as const, resolved_from: "rag_chat.py" },
    ];
    expect(renderCitations(citations, plain, fromSubfolder)).toBe(
      ["Citations: 2 of 2 verified", "  ✓ src/rag_chat.py:10", "  ✓ src/rag_chat.py:4 (written rag_chat.py)", "2 supported", ""].join("\n"),
    );
  });
});

describe("errorForCommandLine", () => {
  const schemaError = new ToolError(
    "INVALID_ARGUMENT",
    "invalid arguments for find_importers: ✖ Too small: expected string to have >=1 characters\n  → at module_name\n✖ Too big: expected number to be <=200\n  → at max_results",
    'Expected parameters: {"module_name":{"type":"string"}}',
    [
      { param: "module_name", problem: "Too small: expected string to have >=1 characters" },
      { param: "max_results", problem: "Too big: expected number to be <=200" },
    ],
  );

  it("names flags and the positional argument instead of tool parameters, and points at --help", () => {
    expect(errorForCommandLine(schemaError, "importers")).toEqual({
      code: "INVALID_ARGUMENT",
      message: "invalid value: <module>: Too small: expected string to have >=1 characters; --max-results: Too big: expected number to be <=200",
      hint: "See `codecite importers --help`.",
    });
  });

  it("leaves other tool errors without tool words as they are", () => {
    const outside = new ToolError("OUTSIDE_ROOT", "path is outside the repository root", "Use a repository-relative path.");
    expect(errorForCommandLine(outside, "read")).toEqual({ code: "OUTSIDE_ROOT", message: "path is outside the repository root", hint: "Use a repository-relative path." });
  });

  it("words tool parameters and tool names of other tool errors for the command (message and hint)", () => {
    const range = new ToolError("INVALID_ARGUMENT", advice`${param("end_line")} (2) is before ${param("start_line")} (5)`, "Lines are 1-based.");
    expect(errorForCommandLine(range, "read")).toEqual({ code: "INVALID_ARGUMENT", message: "--end-line (2) is before --start-line (5)", hint: "Lines are 1-based." });
    const missing = new ToolError("NOT_FOUND", "no such file: src/x.py", advice`Check the path with ${tool("search_code")} or ${tool("find_symbol")}.`);
    expect(errorForCommandLine(missing, "read")).toEqual({
      code: "NOT_FOUND",
      message: "no such file: src/x.py",
      hint: "Check the path with codecite search or codecite symbol.",
    });
  });
});
