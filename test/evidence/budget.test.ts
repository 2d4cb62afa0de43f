/** The output budget ladder (src/evidence/budget.ts) on synthetic evidence. */
import { noteOf } from "../helpers/note.js";
import { describe, expect, it } from "vitest";
import { applyBudget, cutSnippet, definitionHeadLines, recordsShown } from "../../src/evidence/budget.js";
import { toSuccess, type Evidence, type EvidenceResult } from "../../src/evidence/evidence.js";

const rec = (path: string, line: number, lines: number, width = 20): Evidence => ({
  path,
  start_line: line,
  end_line: line + lines - 1,
  kind: "definition",
  name: `f${line}`,
  snippet: Array.from({ length: lines }, (_, i) => `${String(line + i).padStart(4, "0")} ${"x".repeat(width)}`).join("\n"),
});
const bytes = (r: EvidenceResult) => Buffer.byteLength(JSON.stringify(toSuccess(r)), "utf8");

describe("applyBudget", () => {
  it("keeps small results whole", () => {
    const ev = [rec("a.py", 1, 3), rec("b.py", 5, 2)];
    const r = applyBudget(ev);
    expect(r).toEqual({ evidence: ev, total: 2, truncated: false, form: "full" });
  });

  it("caps records at maxResults with the true total and a note", () => {
    const ev = Array.from({ length: 7 }, (_, i) => rec("a.py", i * 10 + 1, 1));
    const r = applyBudget(ev, { maxResults: 3 });
    expect(r.evidence.map((e) => e.start_line)).toEqual([1, 11, 21]);
    expect(r.total).toBe(7);
    expect(r.truncated).toBe(true);
    expect(noteOf(r)).toContain("Showing 3 of 7 records");
  });

  it("cuts snippets to the first lines, flags them truncated and keeps the full range", () => {
    const r = applyBudget([rec("a.py", 1, 20)], { maxSnippetLines: 5 });
    const e = r.evidence[0] as Evidence;
    expect(e.snippet.split("\n")).toEqual(["0001 xxxxxxxxxxxxxxxxxxxx", "0002 xxxxxxxxxxxxxxxxxxxx", "0003 xxxxxxxxxxxxxxxxxxxx", "0004 xxxxxxxxxxxxxxxxxxxx", "0005 xxxxxxxxxxxxxxxxxxxx"]);
    expect(e.end_line).toBe(20);
    expect(e.flags).toEqual(["truncated"]);
    expect(r.form).toBe("full");
  });

  it("falls back to first lines only when the output is too large", () => {
    const ev = Array.from({ length: 20 }, (_, i) => rec(`f${i}.py`, 1, 10, 60));
    const r = applyBudget(ev, { maxBytes: 6000 });
    expect(r.form).toBe("first_lines");
    expect(r.evidence).toHaveLength(20);
    expect(r.evidence.every((e) => !e.snippet.includes("\n") && e.flags?.includes("truncated"))).toBe(true);
    expect(noteOf(r)).toContain("only its first line");
    expect(bytes(r)).toBeLessThanOrEqual(6000);
  });

  it("falls back to one record per file with counts per file, and always fits", () => {
    const ev = Array.from({ length: 60 }, (_, i) => rec(`dir/file${i % 6}.py`, i + 1, 2, 200));
    ev.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.start_line - b.start_line));
    const r = applyBudget(ev, { maxBytes: 2500 });
    expect(r.form).toBe("per_file");
    expect(r.total).toBe(60);
    expect(r.truncated).toBe(true);
    expect(new Set(r.evidence.map((e) => e.path)).size).toBe(r.evidence.length);
    expect(noteOf(r)).toContain("60 records in 6 files");
    expect(noteOf(r)).toContain("dir/file0.py (10)");
    expect(bytes(r)).toBeLessThanOrEqual(2500);
  });

  it("advises only the caller's parameters: narrowWith and max_results below its limit", () => {
    const ev = Array.from({ length: 7 }, (_, i) => rec("a.py", i * 10 + 1, 1));
    expect(noteOf(applyBudget(ev, { maxResults: 3 }))).toBe("Showing 3 of 7 records; raise max_results to see more.");
    expect(noteOf(applyBudget(ev, { maxResults: 3, narrowWith: ["path", "kind"] }))).toBe("Showing 3 of 7 records; narrow the query (path, kind) or raise max_results to see more.");
    const many = Array.from({ length: 205 }, (_, i) => rec("a.py", i + 1, 1, 1));
    expect(noteOf(applyBudget(many, { maxResults: 200, maxBytes: 1_000_000 }))).toBe("Showing 200 of 205 records (max_results is at its limit, 200).");
    expect(noteOf(applyBudget(many, { maxResults: 200, maxBytes: 1_000_000, narrowWith: ["path"] }))).toBe("Showing 200 of 205 records; narrow the query (path) to see more.");
  });

  it("per-file rung: the first record of every file, then the next records in order while they fit; counts only for files not shown whole", () => {
    // 8 files × 5 one-line records of about 140 bytes: whole they need about 5.6 KB
    const ev = Array.from({ length: 40 }, (_, i) => rec(`dir/file${Math.floor(i / 5)}.py`, (i % 5) + 1, 1, 60));
    const r = applyBudget(ev, { maxBytes: 3000 });
    expect(r.form).toBe("per_file");
    const shown = r.evidence.map((e) => `${e.path.slice(4, 9)}:${e.start_line}`);
    // files 0–7 each keep line 1; the rest is filled in order from file0
    const firsts = Array.from({ length: 8 }, (_, f) => `file${f}:1`);
    expect(shown.filter((s) => s.endsWith(":1"))).toEqual(firsts);
    expect(shown.filter((s) => !s.endsWith(":1"))).toEqual(["file0:2", "file0:3", "file0:4", "file0:5", "file1:2", "file1:3", "file1:4", "file1:5"]);
    expect(noteOf(r)).toBe(
      "Output was too large: 40 records in 8 files; showing the first record of 8 files, then 8 more in order, with first lines only. " +
        "Records per file where some are not shown: dir/file2.py (5), dir/file3.py (5), dir/file4.py (5), dir/file5.py (5), dir/file6.py (5), dir/file7.py (5). " +
        "read_evidence shows the rest of those files.",
    );
    expect(noteOf(applyBudget(ev, { maxBytes: 3000, narrowWith: ["path", "kind"] }))).toMatch(/Narrow the query \(path, kind\) to see the rest\.$/);
    expect(bytes(r)).toBeLessThanOrEqual(3000);
  });

  it("cuts over-long lines without splitting a surrogate pair", () => {
    const e: Evidence = { path: "a.js", start_line: 1, end_line: 1, kind: "match", name: "q", snippet: `${"a".repeat(29)}😀tail` };
    const cut = cutSnippet(e, 12, 30);
    expect(cut.snippet).toBe("a".repeat(29));
    expect(cut.flags).toEqual(["truncated"]);
  });
});

describe("recordsShown", () => {
  it("names the first max_results records and the first record of each of the first max_results files", () => {
    expect([...recordsShown(["a", "a", "a", "b", "c", "c", "d"], 2)].sort((x, y) => x - y)).toEqual([0, 1, 3]);
    expect([...recordsShown(["a", "b", "c"], 5)].sort((x, y) => x - y)).toEqual([0, 1, 2]);
  });

  it("the records it leaves out never reach the output, on every rung of the ladder", () => {
    const cases: { ev: Evidence[]; max: number }[] = [
      { ev: Array.from({ length: 9 }, (_, i) => rec(`f${i % 3}.py`, i + 1, 2)), max: 4 }, // full
      { ev: Array.from({ length: 60 }, (_, i) => rec(`f${Math.floor(i / 4)}.py`, i + 1, 12, 120)), max: 20 }, // first lines / per file
      { ev: Array.from({ length: 400 }, (_, i) => rec(`dir/file${String(Math.floor(i / 7)).padStart(3, "0")}.py`, i + 1, 30, 280)), max: 200 }, // per file
    ];
    const forms = new Set<string>();
    for (const { ev, max } of cases) {
      const sorted = [...ev].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.start_line - b.start_line));
      const shown = recordsShown(sorted.map((e) => e.path), max);
      const blanked = sorted.map((e, i) => (shown.has(i) ? e : { ...e, snippet: "" }));
      const full = applyBudget(sorted, { maxResults: max });
      forms.add(full.form);
      expect(applyBudget(blanked, { maxResults: max })).toEqual(full);
    }
    expect([...forms].sort()).toEqual(["first_lines", "full", "per_file"]);
  });
});

describe("decorated definitions keep the line that names them", () => {
  const decorated = (snippet: string[], kind: Evidence["kind"] = "definition"): Evidence => ({
    path: "app.py",
    start_line: 10,
    end_line: 10 + snippet.length - 1,
    kind,
    name: "view",
    snippet: snippet.join("\n"),
  });

  it("Python decorators (one spread over lines, a comment between), TS decorators, Java annotations, Rust attributes", () => {
    const py = ["@app.route(", '    "/items",', '    methods=["GET"],', ")", "# cached", "@cache", "def view():", "    return 1", "    # more"];
    expect(definitionHeadLines(py)).toBe(7);
    expect(cutSnippet(decorated(py), 1, 300).snippet.split("\n")).toEqual(py.slice(0, 7));
    expect(cutSnippet(decorated(py), 1, 300).flags).toEqual(["truncated"]);
    expect(definitionHeadLines(["@Component({", "  selector: 'x',", "})", "export class X {}"])).toBe(4);
    expect(definitionHeadLines(["@Override", "@SuppressWarnings(\"unchecked\")", "public void run() {", "}"])).toBe(3);
    expect(definitionHeadLines(["#[derive(Debug, Clone)]", "#[serde(rename_all = \"camelCase\")]", "pub struct S {", "}"])).toBe(3);
    expect(definitionHeadLines(["def plain():", "    pass"])).toBe(1);
  });

  it("the ladder's first-lines rung shows the def line of a decorated definition; other kinds are cut as before", () => {
    const many = Array.from({ length: 40 }, (_, i) => decorated(["@register", `def view${i}():`, ...Array.from({ length: 30 }, () => `    x = "${"y".repeat(60)}"`)]));
    const r = applyBudget(many, { maxResults: 40 });
    expect(r.form).not.toBe("full");
    expect(r.evidence.length).toBeGreaterThan(0);
    for (const e of r.evidence) {
      const shown = e.snippet.split("\n");
      expect(shown).toHaveLength(2);
      expect(shown[0]).toBe("@register");
      expect(shown[1]).toMatch(/^def view\d+\(\):$/);
    }
    // A diff hunk starts with "@@": not a decorator.
    const hunk = decorated(["@@ -1,2 +1,2 @@", "-a", "+b"], "diff");
    expect(cutSnippet(hunk, 1, 300).snippet).toBe("@@ -1,2 +1,2 @@");
  });
});
