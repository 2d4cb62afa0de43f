import { mkdirSync, rmSync, unlinkSync } from "node:fs";
import { noteOf } from "../helpers/note.js";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "../../src/evidence/evidence.js";
import { readGitDiff, unquoteGitPath, validateRef } from "../../src/evidence/git-diff.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import type { ReadGitDiffArgs } from "../../src/tools/code-tools.js";
import { diffArgs } from "../helpers/evidence-args.js";
import { commitAll, git } from "../helpers/git.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { toolErrorOf } from "../helpers/tool-error.js";


let tmp: string;

const lines = (n: number, f = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";

const fail = (ws: Workspace, a: Partial<ReadGitDiffArgs>): Promise<ToolError> => toolErrorOf(readGitDiff(ws, diffArgs(a)));

let repo: string;
let first: string;
let second: string;

beforeAll(() => {
  tmp = makeTempDir("codecite-diff-");
  repo = path.join(tmp, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q", "-b", "main");
  putFile(repo, "src/app.py", lines(20));
  putFile(repo, "src/old.py", "gone = 1\n");
  putFile(repo, "docs/a.md", lines(10));
  putFile(repo, ".env", "TOKEN=one\n");
  putFile(repo, "win.txt", "a\r\nb\r\n");
  commitAll(repo, "first");
  first = git(repo, "rev-parse", "HEAD");
  putFile(repo, "src/app.py", lines(20, (i) => (i === 5 ? "line five" : `line ${i}`)));
  git(repo, "commit", "-qam", "second");
  second = git(repo, "rev-parse", "HEAD");
  git(repo, "tag", "v2");
  // working-tree changes against HEAD
  putFile(repo, "docs/a.md", lines(10).replace("line 3\nline 4\n", ""));
  unlinkSync(path.join(repo, "src/old.py"));
  putFile(repo, ".env", "TOKEN=two\n");
  putFile(repo, "win.txt", "a\r\nB\r\n");
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("readGitDiff", () => {
  it("compares the working tree with HEAD by default, one record per hunk", async () => {
    const ws = await Workspace.open(repo);
    const r = await readGitDiff(ws, { context_lines: 1 });
    expect(r.evidence).toEqual([
      {
        path: "docs/a.md",
        start_line: 2,
        end_line: 3,
        kind: "diff",
        name: "docs/a.md",
        snippet: "@@ -2,4 +2,2 @@ line 1\n line 2\n-line 3\n-line 4\n line 5",
      },
      {
        path: "src/old.py",
        start_line: 1,
        end_line: 1,
        kind: "diff",
        name: "src/old.py",
        snippet: "@@ -1 +0,0 @@\n-gone = 1",
        flags: ["old_lines"],
      },
      {
        path: "win.txt",
        start_line: 1,
        end_line: 2,
        kind: "diff",
        name: "win.txt",
        snippet: "@@ -1,2 +1,2 @@\n a\n-b\n+B",
      },
    ]);
    expect(r.total).toBe(3);
    expect(r.truncated).toBe(false);
    expect(noteOf(r)).toBe(
      "working tree against HEAD: 3 file(s) changed: docs/a.md (+0 -2), src/old.py (+0 -1), win.txt (+1 -1). " +
        "1 changed file(s) on the secrets deny-list are not shown.",
    );
    expect(JSON.stringify(r)).not.toContain("TOKEN");
  });

  it("diffs two commits given by sha, tag or HEAD~N", async () => {
    const ws = await Workspace.open(repo);
    for (const [base, head] of [
      [first, second],
      ["HEAD~1", "v2"],
      [first.slice(0, 10), "main"],
    ] as const) {
      const r = await readGitDiff(ws, { base, head, context_lines: 0 });
      expect(r.evidence).toEqual([
        {
          path: "src/app.py",
          start_line: 5,
          end_line: 5,
          kind: "diff",
          name: "src/app.py",
          snippet: "@@ -5 +5 @@ line 4\n-line 5\n+line five",
        },
      ]);
      expect(noteOf(r)).toContain(`${base} against ${head}: 1 file(s) changed: src/app.py (+1 -1)`);
    }
  });

  it("limits to a path and explains empty results", async () => {
    const ws = await Workspace.open(repo);
    const r = await readGitDiff(ws, { path: "docs", context_lines: 0 });
    expect(r.evidence.map((e) => [e.path, e.start_line, e.end_line, e.flags])).toEqual([["docs/a.md", 3, 4, ["old_lines"]]]);
    const none = await readGitDiff(ws, { head: "v2", context_lines: 3 });
    expect(none.evidence).toEqual([]);
    expect(noteOf(none)).toContain("No changes (HEAD against v2)");
    expect(noteOf(none)).toContain("pass base=<commit>~1 and head=<commit>");
  });

  it("reports unknown refs and bad refs as typed errors", async () => {
    const ws = await Workspace.open(repo);
    expect((await fail(ws, { base: "nope" })).code).toBe("NOT_FOUND");
    expect((await fail(ws, { base: "HEAD~50" })).code).toBe("NOT_FOUND");
    expect((await fail(ws, { base: "a..b" })).code).toBe("INVALID_ARGUMENT");
    expect((await fail(ws, { head: "-p" })).code).toBe("INVALID_ARGUMENT");
    expect(() => validateRef("feature/x-1.2^2~3")).not.toThrow();
  });

  it("a mistyped ref names the close branches and tags, keeping its ~N suffix", async () => {
    const ws = await Workspace.open(repo);
    const typo = await fail(ws, { base: "mian~1" });
    expect(typo.code).toBe("NOT_FOUND");
    expect(typo.message).toBe('unknown revision "mian~1"');
    expect(typo.hint).toBe("Did you mean 'main~1'? Use an existing branch, tag or commit id, or HEAD~N.");
    expect((await fail(ws, { head: "v3" })).hint).toBe("Did you mean 'v2'? Use an existing branch, tag or commit id, or HEAD~N.");
    expect((await fail(ws, { base: "zzzzzz" })).hint).toBe("Use an existing branch, tag or commit id, or HEAD~N.");
  });

  it("a path that is not in the working tree and shows no change is NOT_FOUND, with close names", async () => {
    const ws = await Workspace.open(repo);
    const missing = await fail(ws, { path: "src/ap.py" });
    expect(missing.code).toBe("NOT_FOUND");
    expect(missing.message).toBe("no such file: src/ap.py");
    expect(missing.hint).toContain("Did you mean 'src/app.py'?");
    expect((await fail(ws, { path: "nowhere/at/all" })).code).toBe("NOT_FOUND");
    // A file deleted from the working tree still shows its deletion; an unchanged existing path is "No changes".
    const deleted = await readGitDiff(ws, diffArgs({ path: "src/old.py" }));
    expect(deleted.evidence.map((e) => e.path)).toEqual(["src/old.py"]);
    const unchanged = await readGitDiff(ws, diffArgs({ path: "src/app.py" }));
    expect(noteOf(unchanged)).toContain("No changes");
  });

  it("uses --relative when the root is a tracked folder of a bigger repository", async () => {
    const ws = await Workspace.open(path.join(repo, "src"));
    const r = await readGitDiff(ws, { base: first, head: second, context_lines: 0 });
    expect(r.evidence.map((e) => [e.path, e.start_line])).toEqual([["app.py", 5]]);
    const wt = await readGitDiff(ws, { context_lines: 0 });
    expect(wt.evidence.map((e) => e.path)).toEqual(["old.py"]);
  });

  it("refuses a root that is not a repository", async () => {
    const plain = path.join(tmp, "plain");
    mkdirSync(plain);
    const e = await fail(await Workspace.open(plain), {});
    expect(e.code).toBe("UNSUPPORTED");
    expect(e.message).toContain("not a git repository");
  });

  it("caps large diffs with counts in the note", async () => {
    const big = path.join(tmp, "big");
    mkdirSync(big);
    git(big, "init", "-q");
    for (let i = 0; i < 90; i++) putFile(big, `f${String(i).padStart(3, "0")}.txt`, lines(5));
    commitAll(big, "base");
    for (let i = 0; i < 90; i++) putFile(big, `f${String(i).padStart(3, "0")}.txt`, lines(5, (n) => `changed ${n}`));
    const ws = await Workspace.open(big);
    const r = await readGitDiff(ws, { context_lines: 3 });
    expect(r.total).toBe(90);
    expect(r.truncated).toBe(true);
    expect(r.evidence.length).toBeLessThan(90);
    expect(r.evidence[0]?.path).toBe("f000.txt");
    expect(noteOf(r)).toContain("90 file(s) changed: f000.txt (+5 -5)");
    expect(noteOf(r)).toContain("and 70 more");
    expect(noteOf(r)).toContain(`Showing ${r.evidence.length} of 90 hunks`);
  });

  it("unquotes C-quoted paths", () => {
    expect(unquoteGitPath('"a\\tb\\303\\251.txt"')).toBe("a\tbé.txt");
    expect(unquoteGitPath("plain.txt")).toBe("plain.txt");
  });
});
