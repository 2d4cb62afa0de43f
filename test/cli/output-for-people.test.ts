/**
 * Output sized for people (issue 17): `--all` lifts the model's budget (every record, whole
 * snippets, `--max-lines` to cut them), the budgeted output says how to see everything, and
 * `diff --stat` lists changed files with added/removed counts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

let root: string;
const N = 260; // more than the largest max_results (200)

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "codecite-all-"));
  // N one-line matches spread over 13 files, and one 40-line function
  for (let f = 0; f < 13; f++) {
    writeFileSync(path.join(root, `m${String(f).padStart(2, "0")}.py`), Array.from({ length: N / 13 }, (_, i) => `needle_${f}_${i} = "needle"\n`).join(""));
  }
  const body = Array.from({ length: 40 }, (_, i) => `    v${i} = ${i}`);
  writeFileSync(path.join(root, "long.py"), ["def long_function():", ...body, "    return 0", ""].join("\n"));
  writeFileSync(path.join(root, "wide.txt"), `${"x".repeat(400)} haystack_word ${"y".repeat(400)}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("--all", () => {
  it("search without --all is budgeted and says how to see everything; with --all every match is shown", async () => {
    const locations = (out: string) => out.split("\n").filter((l) => /^m\d\d\.py:\d+ {2}match$/.test(l));
    const cut = await runCli(["search", "needle", "--max-results", "200"], { cwd: root });
    expect(cut.code).toBe(0);
    expect(locations(cut.stdout).length).toBeLessThan(N);
    expect(cut.stderr).toContain("add --all to see every record");

    const all = await runCli(["search", "needle", "--all"], { cwd: root });
    expect(all.code).toBe(0);
    const shown = locations(all.stdout);
    expect(shown.length).toBe(N);
    expect(shown[0]).toBe("m00.py:1  match");
    expect(shown[N - 1]).toBe(`m12.py:${N / 13}  match`);
    expect(all.stderr).toContain(`${N} results`);
    expect(all.stderr).not.toContain("add --all");
  });

  it("--all --json is complete: every record, total equal to the records, not truncated", async () => {
    const r = await runCli(["search", "needle", "--all", "--json", "--root", root]);
    const env = JSON.parse(r.stdout) as { ok: boolean; evidence: { path: string }[]; total: number; truncated: boolean };
    expect(env.ok).toBe(true);
    expect(env.evidence.length).toBe(N);
    expect(env.total).toBe(N);
    expect(env.truncated).toBe(false);
  });

  it("symbol --all shows the whole definition; --max-lines cuts it", async () => {
    const whole = await runCli(["symbol", "long_function", "--all", "--json", "--root", root]);
    const rec = (JSON.parse(whole.stdout) as { evidence: { snippet: string; flags?: string[]; end_line: number }[] }).evidence[0]!;
    expect(rec.end_line).toBe(42);
    expect(rec.snippet.split("\n")).toHaveLength(42);
    expect(rec.flags ?? []).not.toContain("truncated");

    const budgeted = await runCli(["symbol", "long_function", "--json", "--root", root]);
    const cut = (JSON.parse(budgeted.stdout) as { evidence: { snippet: string; flags?: string[] }[] }).evidence[0]!;
    expect(cut.snippet.split("\n").length).toBeLessThan(42);
    expect(cut.flags).toContain("truncated");

    const five = await runCli(["symbol", "long_function", "--all", "--max-lines", "5", "--json", "--root", root]);
    const r5 = (JSON.parse(five.stdout) as { evidence: { snippet: string; flags?: string[] }[] }).evidence[0]!;
    expect(r5.snippet.split("\n")).toEqual(["def long_function():", "    v0 = 0", "    v1 = 1", "    v2 = 2", "    v3 = 3"]);
    expect(r5.flags).toContain("truncated");
  });

  it("--max-lines without --all is a usage error", async () => {
    const r = await runCli(["symbol", "long_function", "--max-lines", "5", "--root", root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--max-lines applies only with --all");
  });

  it("the cut is said once, in one note that says how to see everything; the model's note is unchanged", async () => {
    // Budgeted: the summary and the tool's note no longer repeat that snippets were cut.
    const budgeted = await runCli(["symbol", "long_function", "--root", root]);
    expect(budgeted.stderr).toBe("1 result\nnote: output is cut to fit a model's budget; add --all to see every record with whole snippets, or --all --max-lines N for N lines of each.\n");
    const model = JSON.parse((await runCli(["symbol", "long_function", "--json", "--root", root])).stdout) as { note: string };
    expect(model.note).toBe("Snippets longer than 12 lines were cut (flag truncated); read_evidence shows whole ranges.");
    // --all --max-lines: the note names the flag that cut them.
    const five = await runCli(["symbol", "long_function", "--all", "--max-lines", "5", "--root", root]);
    expect(five.stderr).toBe("1 result\nnote: snippets are cut to 5 lines (--max-lines 5); leave out --max-lines to see them whole.\n");
    // A long line that search keeps a window of even with --all: said once, with what shows it whole; no advice to narrow the search.
    const wide = await runCli(["search", "haystack_word", "--all", "--root", root]);
    expect(wide.stderr).toBe("1 result\nnote: long lines are cut (ending in …); codecite read --all shows whole lines.\n");
    const wideJson = JSON.parse((await runCli(["search", "haystack_word", "--json", "--root", root])).stdout) as { note: string };
    expect(wideJson.note).toBe("long lines cut to 300 characters (flag truncated).");
    // Records left out and snippets whole: the summary counts them, one note each for the tool's advice and the budget.
    const many = await runCli(["search", "needle", "--root", root]);
    expect(many.stderr).toBe(
      `showing 50 of ${N} results\nnote: showing 50 of ${N} matching lines. Narrow the search with --path or --glob, or a more specific query. Or raise --max-results to see more.\n` +
        "note: output is cut to fit a model's budget; add --all to see every record with whole snippets, or --all --max-lines N for N lines of each.\n",
    );
  });

  it("read --all --max-lines N reads N lines and says how to read on", async () => {
    const r = await runCli(["read", "long.py", "--all", "--max-lines", "3", "--json", "--root", root]);
    const env = JSON.parse(r.stdout) as { evidence: { start_line: number; end_line: number }[]; note: string; truncated: boolean };
    expect([env.evidence[0]!.start_line, env.evidence[0]!.end_line]).toEqual([1, 3]);
    expect(env.note).toBe("Showing lines 1-3 of 42 (stopped at the 3-line limit); read on with start_line=4.");
    expect(env.truncated).toBe(true);
  });

  it("read --all reads the whole file", async () => {
    const r = await runCli(["read", "long.py", "--all", "--json", "--root", root]);
    const rec = (JSON.parse(r.stdout) as { evidence: { start_line: number; end_line: number }[] }).evidence[0]!;
    expect([rec.start_line, rec.end_line]).toEqual([1, 42]);
  });
});

const hasGit = (() => {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasGit)("diff --stat", () => {
  it("lists the changed files with added and removed counts (human and JSON)", async () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), "codecite-stat-"));
    try {
      const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args], { cwd: repo, stdio: "ignore" });
      git("init", "-q");
      writeFileSync(path.join(repo, "a.py"), "x = 1\ny = 2\nz = 3\n");
      writeFileSync(path.join(repo, "b.py"), "keep = 1\n");
      git("add", ".");
      git("commit", "-qm", "init");
      writeFileSync(path.join(repo, "a.py"), "x = 1\ny = 20\nz = 3\nw = 4\n");
      writeFileSync(path.join(repo, "b.py"), "");
      // --all --max-lines cuts hunks to that many lines, and the note says that number (not the model's cap of 120).
      const cut = JSON.parse((await runCli(["diff", "--all", "--max-lines", "2", "--json", "--root", repo])).stdout) as { note: string; evidence: { snippet: string }[] };
      expect(cut.evidence.map((e) => e.snippet.split("\n").length)).toEqual([2, 2]);
      expect(cut.note).toContain(" Long hunks were cut to 2 lines (flag truncated).");
      const cutHuman = await runCli(["diff", "--all", "--max-lines", "2"], { cwd: repo });
      expect(cutHuman.stderr).toMatch(/\nnote: snippets are cut to 2 lines \(--max-lines 2\); leave out --max-lines to see them whole\.\n$/);
      expect(cutHuman.stderr).not.toContain("Long hunks");
      const human = await runCli(["diff", "--stat"], { cwd: repo });
      expect(human.code).toBe(0);
      expect(human.stdout).toBe("a.py | +2 -1\nb.py | +0 -1\n2 files changed, 2 insertions(+), 2 deletions(-)\n");
      const json = await runCli(["diff", "--stat", "--json", "--root", repo]);
      expect(JSON.parse(json.stdout)).toEqual({
        ok: true,
        files: [
          { path: "a.py", added: 2, removed: 1 },
          { path: "b.py", added: 0, removed: 1 },
        ],
      });
      // Nothing changed: stdout stays empty, and stderr says what was compared instead of nothing at all.
      git("add", ".");
      git("commit", "-qm", "second");
      writeFileSync(path.join(repo, "new.py"), "untracked = 1\n");
      const clean = await runCli(["diff", "--stat"], { cwd: repo });
      expect(clean).toMatchObject({ code: 0, stdout: "" });
      expect(clean.stderr).toBe("note: No changes (working tree against HEAD). Untracked files are not shown.\n");
      expect(JSON.parse((await runCli(["diff", "--stat", "--json", "--root", repo])).stdout)).toEqual({ ok: true, files: [] });
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
