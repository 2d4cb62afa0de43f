/**
 * Paths that paste (issue 17): a location the CLI printed — relative to the current folder or
 * absolute, with `:line` or `:start-end` — is accepted by `read` and as `--path`; one outside the
 * root is the usual OUTSIDE_ROOT error; without `--root` the root is the enclosing git work tree's
 * top (found by its `.git` entry, said once on stderr), else the current folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modulePathForRoot, parseLocation, pathForRoot, pathOptionForRoot } from "../../src/cli/locations.js";
import { gitWorkTreeTop } from "../../src/paths.js";
import { runCli } from "./run-cli.js";

let base: string;
let repo: string;

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), "codecite-paste-"));
  repo = path.join(base, "repo");
  mkdirSync(path.join(repo, ".git"), { recursive: true }); // a work tree's marker; git itself is never run
  mkdirSync(path.join(repo, "pkg", "sub"), { recursive: true });
  writeFileSync(path.join(repo, "pkg", "sub", "mod.py"), Array.from({ length: 60 }, (_, i) => `line_${i + 1} = ${i + 1}\n`).join(""));
  writeFileSync(path.join(repo, "pkg", "tool.py"), "def tool():\n    return 1\n");
  writeFileSync(path.join(base, "outside.py"), "secret = 1\n");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const lines = (json: string) => {
  const r = JSON.parse(json) as { ok: boolean; evidence: { path: string; start_line: number; end_line: number }[] };
  return r.evidence.map((e) => `${e.path}:${e.start_line}-${e.end_line}`);
};

describe("locations", () => {
  it("parses file:N and file:N-M, and keeps other text as a path", () => {
    expect(parseLocation("a/b.py:40", () => false)).toEqual({ path: "a/b.py", startLine: 40 });
    expect(parseLocation("a/b.py:40-52", () => false)).toEqual({ path: "a/b.py", startLine: 40, endLine: 52 });
    expect(parseLocation("a/b.py", () => false)).toEqual({ path: "a/b.py" });
    expect(parseLocation("odd:7", () => true)).toEqual({ path: "odd:7" }); // a file really named so
  });

  it("maps current-folder-relative and absolute paths to repository-relative ones", () => {
    const cwd = path.join(repo, "pkg");
    expect(pathForRoot("sub/mod.py", repo, cwd)).toBe("pkg/sub/mod.py");
    expect(pathForRoot(path.join(repo, "pkg", "tool.py"), repo, cwd)).toBe("pkg/tool.py");
    expect(pathForRoot("pkg/tool.py", repo, base)).toBe("pkg/tool.py"); // repository-relative from elsewhere
    expect(pathForRoot("../outside.py", repo, repo)).toBe(path.join(base, "outside.py")); // left to the workspace to refuse
    // Outside the root and existing only as the current folder reads it: that file (refused), not a repository path.
    expect(pathForRoot("outside.py", repo, base)).toBe(path.join(base, "outside.py"));
    expect(pathForRoot("missing.py", repo, base)).toBe("missing.py");
  });

  it("drops a pasted location's line numbers from a --path value", () => {
    const cwd = path.join(repo, "pkg");
    expect(pathOptionForRoot("sub/mod.py:40", repo, cwd)).toBe("pkg/sub/mod.py");
    expect(pathOptionForRoot("pkg/tool.py:1-2", repo, base)).toBe("pkg/tool.py");
    expect(pathOptionForRoot(`${path.join(repo, "pkg", "tool.py")}:2`, repo, cwd)).toBe("pkg/tool.py");
    expect(pathOptionForRoot("sub", repo, cwd)).toBe("pkg/sub");
  });

  it("finds the work tree's top from a folder inside it, and nothing outside one", () => {
    expect(gitWorkTreeTop(path.join(repo, "pkg", "sub"))).toBe(repo);
    expect(gitWorkTreeTop(repo)).toBe(repo);
  });
});

describe("codecite read and --path with pasted locations", () => {
  it("read file:N from a subfolder reads around line N of the current-folder-relative file", async () => {
    const r = await runCli(["read", "sub/mod.py:40", "--json"], { cwd: path.join(repo, "pkg") });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual(["pkg/sub/mod.py:30-50"]);
  });

  it("read file:N-M with an absolute path inside the root reads exactly those lines", async () => {
    const r = await runCli(["read", `${path.join(repo, "pkg", "sub", "mod.py")}:3-5`, "--json", "--root", repo], { cwd: base });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual(["pkg/sub/mod.py:3-5"]);
  });

  it("a location with line 0 or a reversed range is INVALID_ARGUMENT naming the location as pasted", async () => {
    const cases: Array<[string, string]> = [
      ["sub/mod.py:0", "sub/mod.py:0: there is no line 0; lines are 1-based"],
      ["sub/mod.py:0-3", "sub/mod.py:0-3: there is no line 0; lines are 1-based"],
      ["sub/mod.py:9-3", "sub/mod.py:9-3: the range ends (line 3) before it starts (line 9)"],
    ];
    for (const [loc, message] of cases) {
      const r = await runCli(["read", loc, "--json"], { cwd: path.join(repo, "pkg") });
      expect({ loc, code: r.code, error: (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error }).toMatchObject({
        loc,
        code: 2,
        error: { code: "INVALID_ARGUMENT", message },
      });
    }
  });

  it("a location past the end of the file is named as pasted, with the file's length, in the CLI's words", async () => {
    const cwd = path.join(repo, "pkg"); // sub/mod.py has 60 lines
    // Line 65: the window 55-75 is clamped to 55-60; the note says line 65 does not exist (not a clamped --end-line).
    const near = await runCli(["read", "sub/mod.py:65"], { cwd });
    expect(near.code).toBe(0);
    expect(near.stdout).toContain("sub/mod.py:55  lines 55-60");
    expect(near.stderr).toContain("note: sub/mod.py:65: line 65 does not exist, the file has 60 lines; showing lines 55-60.");
    expect(near.stderr).not.toContain("end-line");
    const inside = await runCli(["read", "sub/mod.py:58"], { cwd });
    expect(inside.stderr).toContain("note: sub/mod.py:58: showing lines 48-60, the end of the file.");
    const range = await runCli(["read", "sub/mod.py:50-70"], { cwd });
    expect(range.stderr).toContain("note: sub/mod.py:50-70: line 70 does not exist, the file has 60 lines; showing lines 50-60.");
    // Far past the end: an error naming the location, not the window's start_line (99989).
    for (const loc of ["sub/mod.py:99999", "sub/mod.py:70-80"]) {
      const far = await runCli(["read", loc], { cwd });
      expect({ loc, code: far.code, stderr: far.stderr }).toMatchObject({ loc, code: 2, stderr: expect.stringContaining(`error: INVALID_ARGUMENT: ${loc}: the file has 60 lines\nhint: Give a line from 1 to 60.`) });
      expect(far.stderr).not.toContain("start_line");
    }
    // Past the last line number the tools take (100,000,000), or past 2^53: the same error, never a flag's range.
    for (const loc of ["sub/mod.py:100000000", "sub/mod.py:99999999999999999999", "sub/mod.py:100000001-100000002"]) {
      const huge = await runCli(["read", loc], { cwd });
      expect({ loc, code: huge.code, stderr: huge.stderr }).toMatchObject({ loc, code: 2, stderr: expect.stringContaining(`error: INVALID_ARGUMENT: ${loc}: the file has 60 lines\nhint: Give a line from 1 to 60.`) });
      expect(huge.stderr).not.toContain("-line");
    }
    const wide = await runCli(["read", "sub/mod.py:55-100000001"], { cwd });
    expect(wide.stderr).toContain("note: sub/mod.py:55-100000001: line 100000001 does not exist, the file has 60 lines; showing lines 55-60.");
    // A flag keeps the flag's words.
    const flag = await runCli(["read", "sub/mod.py", "--start-line", "99"], { cwd });
    expect(flag.stderr).toContain("error: INVALID_ARGUMENT: --start-line (99) is past the end of pkg/sub/mod.py (60 lines)\nhint: Pass a --start-line between 1 and 60.");
    // --json keeps the tool's envelope.
    const json = await runCli(["read", "sub/mod.py:99999", "--json"], { cwd });
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT", message: "start_line (99989) is past the end of pkg/sub/mod.py (60 lines)" } });
  });

  it("importers: a module path typed from a subfolder without its extension is re-rooted (ky's source/core/constants)", async () => {
    writeFileSync(path.join(repo, "pkg", "sub", "consts.ts"), "export const A = 1;\n");
    writeFileSync(path.join(repo, "pkg", "sub", "use.ts"), "import {A} from './consts.js';\nexport const B = A;\n");
    writeFileSync(path.join(repo, "pkg", "main.ts"), "import {B} from './sub/use.js';\nimport {A} from './sub/consts.js';\n");
    const cwd = path.join(repo, "pkg");
    expect(modulePathForRoot("sub/consts", repo, cwd)).toBe("pkg/sub/consts");
    expect(modulePathForRoot("./sub/consts", repo, cwd)).toBe("pkg/sub/consts");
    expect(modulePathForRoot("pkg/sub/consts", repo, cwd)).toBe("pkg/sub/consts"); // repository-relative already
    expect(modulePathForRoot("sub/nosuch", repo, cwd)).toBe("sub/nosuch"); // names nothing here: left to the tool
    expect(modulePathForRoot("lodash/fp", repo, cwd)).toBe("lodash/fp");
    expect(modulePathForRoot("requests.sessions", repo, cwd)).toBe("requests.sessions"); // no "/": a dotted module
    expect(modulePathForRoot("../outside", repo, repo)).toBe("../outside");
    const r = await runCli(["importers", "sub/consts", "--json"], { cwd });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual(["pkg/main.ts:2-2", "pkg/sub/use.ts:1-1"]);
  });

  it("--path accepts a current-folder-relative folder", async () => {
    const r = await runCli(["symbol", "tool", "--path", ".", "--json"], { cwd: path.join(repo, "pkg") });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual(["pkg/tool.py:1-2"]);
  });

  it("--path accepts a pasted location with its line (symbol, search)", async () => {
    const sym = await runCli(["symbol", "tool", "--path", "tool.py:1", "--json"], { cwd: path.join(repo, "pkg") });
    expect(sym.code).toBe(0);
    expect(lines(sym.stdout)).toEqual(["pkg/tool.py:1-2"]);
    const found = await runCli(["search", "line_40", "--path", "pkg/sub/mod.py:40-41", "--json", "--root", repo], { cwd: base });
    expect(found.code).toBe(0);
    expect(lines(found.stdout)).toEqual(["pkg/sub/mod.py:40-40"]);
  });

  it("a file outside the root named relative to the current folder is OUTSIDE_ROOT, not NOT_FOUND", async () => {
    const r = await runCli(["read", "outside.py", "--json", "--root", repo], { cwd: base });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe("OUTSIDE_ROOT");
    expect(r.stdout + r.stderr).not.toContain("secret");
  });

  it("a location outside the root is OUTSIDE_ROOT, and nothing of it is printed", async () => {
    for (const loc of ["../outside.py:1", path.join(base, "outside.py")]) {
      const r = await runCli(["read", loc, "--json", "--root", repo], { cwd: repo });
      expect(r.code).toBe(2);
      expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe("OUTSIDE_ROOT");
      expect(r.stdout + r.stderr).not.toContain("secret");
    }
  });
});

describe("default root", () => {
  it("is the git work tree's top when run in a subfolder, said once on stderr", async () => {
    const r = await runCli(["read", "mod.py:2-2"], { cwd: path.join(repo, "pkg", "sub") });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("line_2 = 2");
    expect(r.stderr.split("\n").filter((l) => l.includes("root is the git work tree")).length).toBe(1);
    expect(r.stderr).toContain(`root is the git work tree at ${repo}`);
  });

  it("is the current folder outside any work tree, with nothing said", async () => {
    const plain = mkdtempSync(path.join(os.tmpdir(), "codecite-plain-"));
    try {
      writeFileSync(path.join(plain, "x.py"), "def x():\n    return 0\n");
      const r = await runCli(["symbol", "x", "--json"], { cwd: plain });
      expect(r.code).toBe(0);
      expect(lines(r.stdout)).toEqual(["x.py:1-2"]);
      expect(r.stderr).not.toContain("git work tree");
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
