import { describe, expect, it } from "vitest";
import { summarizeResult } from "../../src/mcp/summary.js";
import { TOOL_RESULT_SCHEMA } from "../../src/mcp/result-schema.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

describe("summarizeResult", () => {
  it("lists path:line headings with the exact snippet lines, each after its line number", () => {
    const text = summarizeResult({
      ok: true,
      evidence: [
        { path: "src/a.py", start_line: 3, end_line: 3, kind: "import", name: "pkg.b", snippet: "from pkg import b" },
        { path: "src/b.py", start_line: 1, end_line: 2, kind: "definition", name: "f", snippet: "def f():\n    return 1", symbol_kind: "function", flags: ["truncated"] },
      ],
      total: 5,
      truncated: true,
      note: "narrow with path",
    });
    expect(text).toBe(
      [
        "2 of 5 results (truncated; narrow the query for the rest).",
        "src/a.py:3 import pkg.b",
        "  3 | from pkg import b",
        "src/b.py:1-2 definition function f [truncated]",
        "  1 | def f():",
        "  2 |     return 1",
        "Note: narrow with path",
      ].join("\n"),
    );
  });

  it("right-aligns the numbers of a record crossing a power of ten, and leaves diff hunks unnumbered", () => {
    const text = summarizeResult({
      ok: true,
      evidence: [
        { path: "m.py", start_line: 8, end_line: 11, kind: "source", name: "m.py", snippet: "a\nb\nc\nd" },
        { path: "m.py", start_line: 9, end_line: 10, kind: "diff", name: "m.py", snippet: "@@ -9,1 +9,2 @@\n-x\n+y" },
      ],
      total: 2,
      truncated: false,
    });
    expect(text.split("\n").slice(1)).toEqual([
      "m.py:8-11 source m.py",
      "   8 | a",
      "   9 | b",
      "  10 | c",
      "  11 | d",
      "m.py:9-10 diff m.py",
      "  @@ -9,1 +9,2 @@",
      "  -x",
      "  +y",
    ]);
  });

  it("names a reference's caller, as the CLI does, and the definition used only when several are", () => {
    const use = { path: "lib/sinatra/base.rb", start_line: 1533, end_line: 1533, kind: "reference" as const, name: "Sinatra.Base.route", context: "Sinatra.Base.head", snippet: "route 'HEAD', path, opts, &block", flags: ["call"] };
    const top = { ...use, path: "app.rb", start_line: 3, end_line: 3, context: "app.rb", snippet: "get('/') { }" };
    const one = summarizeResult({ ok: true, evidence: [use, top], total: 2, truncated: false });
    expect(one.split("\n").filter((l) => !l.startsWith("  "))).toEqual([
      "2 results.",
      "lib/sinatra/base.rb:1533 reference in Sinatra.Base.head [call]",
      "app.rb:3 reference at top level [call]",
    ]);
    const two = summarizeResult({ ok: true, evidence: [use, { ...top, name: "Sinatra.Delegator.route" }], total: 2, truncated: false });
    expect(two).toContain("lib/sinatra/base.rb:1533 reference to Sinatra.Base.route in Sinatra.Base.head [call]");
    expect(two).toContain("app.rb:3 reference to Sinatra.Delegator.route at top level [call]");
  });

  it("renders errors with their hint, and empty results", () => {
    expect(summarizeResult({ ok: false, error: { code: "OUTSIDE_ROOT", message: "../x resolves outside", hint: "stay inside" } })).toBe(
      "ERROR OUTSIDE_ROOT: ../x resolves outside\nHint: stay inside",
    );
    expect(summarizeResult({ ok: true, evidence: [], total: 0, truncated: false, note: "no match" })).toBe("0 results.\nNote: no match");
  });
});


describe("TOOL_RESULT_SCHEMA (validated as the official MCP client does, with Ajv)", () => {
  const validate = new AjvJsonSchemaValidator().getValidator(TOOL_RESULT_SCHEMA as never);
  it("accepts both envelope forms and rejects malformed ones", () => {
    const record = { path: "a.py", start_line: 1, end_line: 1, kind: "match", name: "x", snippet: "x" };
    expect(validate({ ok: true, evidence: [record], total: 1, truncated: false }).valid).toBe(true);
    expect(validate({ ok: false, error: { code: "DENIED", message: "no" } }).valid).toBe(true);
    expect(validate({ ok: true, total: 0 }).valid).toBe(false);
    expect(validate({ ok: false }).valid).toBe(false);
    expect(validate({ ok: true, evidence: [{ ...record, start_line: 0 }], total: 1, truncated: false }).valid).toBe(false);
    expect(validate({ ok: false, error: { code: "NOPE", message: "x" } }).valid).toBe(false);
  });
});
