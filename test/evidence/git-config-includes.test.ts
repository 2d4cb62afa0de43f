/**
 * A repository whose git configuration makes git read files outside the root: `include.path`,
 * `includeIf.*.path` (also in an included file), `core.attributesFile`, `core.excludesFile`.
 * `read_git_diff` refuses it with `UNSUPPORTED`; includes that stay inside the work tree (a
 * project's `../.gitconfig`) are followed as before.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configReads } from "../../src/evidence/git-store.js";
import { readGitDiff } from "../../src/evidence/git-diff.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { diffArgs as d } from "../helpers/evidence-args.js";
import { commitAll, git } from "../helpers/git.js";
import { toolOutcome } from "../helpers/tool-error.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

describe("configReads (git's own parser)", () => {
  it("finds include and includeIf paths, attributesFile and excludesFile, as git reads the values", async () => {
    const text = [
      "[core]",
      "\tbare = false",
      '\tattributesFile = "/x/attrs" ; a comment',
      "[include] path = one.cfg",
      '[includeIf "gitdir:/w/"]',
      "  PATH = \"two \\\"q\\\".cfg\" # c",
      "[Core]",
      "excludesfile=~/ignore",
      '[remote "origin"]',
      "\tpath = not-an-include",
      "[include]",
      "\tpath = ../\\",
      "../../three.cfg",
    ].join("\n");
    expect(await configReads(text, "config", process.cwd())).toEqual([
      { key: "core.attributesfile", value: "/x/attrs" },
      { key: "include.path", value: "one.cfg" },
      { key: "includeif.gitdir:/w/.path", value: 'two "q".cfg' },
      { key: "core.excludesfile", value: "~/ignore" },
      { key: "include.path", value: "../../../three.cfg" },
    ]);
  });

  it("text git cannot parse: UNSUPPORTED naming the file", async () => {
    const o = await toolOutcome(configReads("[include\npath = x\n", ".git/config", process.cwd()));
    expect(o.code).toBe("UNSUPPORTED");
    expect(o.message).toContain("git cannot read its configuration (.git/config): bad config line 1");
  });
});

describe("read_git_diff on a repository whose configuration reads files outside the root", () => {
  let w: string;
  let root: string;
  beforeAll(() => {
    w = makeTempDir("codecite-git-include-");
    putFile(w, "outside.cfg", "[diff]\n\tnoprefix = true\n");
    root = path.join(w, "proj");
    putFile(root, "a.txt", "a\n");
    putFile(root, ".gitconfig", "[diff]\n\tcontext = 2\n");
    git(root, "init", "-q", "-b", "main");
    commitAll(root, "init");
    writeFileSync(path.join(root, "a.txt"), "a\nb\n");
  });
  afterAll(() => rmSync(w, { recursive: true, force: true }));

  const withConfig = async (extra: string) => {
    const file = path.join(root, ".git", "config");
    const original = readFileSync(file, "utf8");
    writeFileSync(file, `${original}${extra}`);
    try {
      return await toolOutcome(readGitDiff(await Workspace.open(root), d({})));
    } finally {
      writeFileSync(file, original);
    }
  };

  it.each([
    ["include.path absolute", () => `[include]\n\tpath = ${path.join(w, "outside.cfg")}\n`],
    ["include.path relative, leaving the root", () => "[include]\n\tpath = ../../outside.cfg\n"],
    ["includeIf path", () => `[includeIf "gitdir:/"]\n\tpath = ${path.join(w, "outside.cfg")}\n`],
    ["include in the home folder", () => "[include]\n\tpath = ~/.gitconfig\n"],
    ["core.attributesFile outside", () => `[core]\n\tattributesFile = ${path.join(w, "outside.cfg")}\n`],
    ["core.excludesFile outside", () => "[core]\n\texcludesFile = ../../outside.cfg\n"],
    // git opens a relative attributes file from the work tree, not from .git/
    ["core.attributesFile one folder above the work tree", () => "[core]\n\tattributesFile = ../outside.cfg\n"],
    ["include of git's installation prefix", () => "[include]\n\tpath = %(prefix)/etc/gitconfig\n"],
    ["an inside include that includes an outside file", () => "[include]\n\tpath = ../nested.cfg\n"],
  ])("%s: UNSUPPORTED, without the host path", async (_name, extra) => {
    putFile(root, "nested.cfg", `[include]\n\tpath = ${path.join(w, "outside.cfg")}\n`);
    const o = await withConfig(extra());
    expect(o.code, o.text).toBe("UNSUPPORTED");
    expect(o.message).toMatch(/makes git read (a file outside the work tree|"~\/\.gitconfig", outside the work tree|"%\(prefix\)\/etc\/gitconfig", outside)/);
    expect(o.text).not.toContain(w);
  });

  it("an include inside the work tree (a project's ../.gitconfig) is followed: the diff is shown", async () => {
    const o = await withConfig("[include]\n\tpath = ../.gitconfig\n");
    expect(o.code, o.text).toBe("OK");
    expect(o.text).toContain("a.txt");
  });
});

/**
 * The configuration as git itself reads it, and before git runs at all: git's discovery of the
 * repository (`rev-parse`) reads `config` with its includes, and git opens `HEAD`, `index`,
 * `packed-refs`, `info/exclude` as it starts. A FIFO in any of those places held git until its
 * 30 s limit (`TIMEOUT`); a value continued on the next line (`\` at the end, git-config(1)
 * "Syntax") named a file the line-by-line reading never saw.
 */
describe("read_git_diff checks the git directory before git reads it", () => {
  let w: string;
  let root: string;
  beforeAll(() => {
    w = makeTempDir("codecite-git-discovery-");
    putFile(w, "outside.cfg", "[diff]\n\tnoprefix = true\n");
    execFileSync("mkfifo", [path.join(w, "outside.fifo")]);
    root = path.join(w, "proj");
    putFile(root, "a.txt", "a\n");
    git(root, "init", "-q", "-b", "main");
    commitAll(root, "init");
    writeFileSync(path.join(root, "a.txt"), "a\nb\n");
  });
  afterAll(() => rmSync(w, { recursive: true, force: true }));

  const diffWith = async (change: () => void, undo: () => void) => {
    change();
    try {
      return await toolOutcome(readGitDiff(await Workspace.open(root), d({})));
    } finally {
      undo();
    }
  };
  const withConfig = (extra: string) => {
    const file = path.join(root, ".git", "config");
    const original = readFileSync(file, "utf8");
    return diffWith(
      () => writeFileSync(file, `${original}${extra}`),
      () => writeFileSync(file, original),
    );
  };
  /** Replaces `.git/<name>` by a FIFO for one diff. */
  const withFifo = (name: string) => {
    const file = path.join(root, ".git", name);
    const saved = existsSync(file) ? readFileSync(file) : undefined;
    return diffWith(
      () => {
        rmSync(file, { force: true });
        execFileSync("mkfifo", [file]);
      },
      () => {
        rmSync(file, { force: true });
        if (saved !== undefined) writeFileSync(file, saved);
      },
    );
  };

  it("a value continued on the next line that leads outside: UNSUPPORTED", async () => {
    const o = await withConfig("[include]\n\tpath = ../\\\n../../outside.cfg\n");
    expect(o.code, o.text).toBe("UNSUPPORTED");
    expect(o.message).toMatch(/makes git read a file outside the work tree/);
    expect(o.text).not.toContain(w);
  });

  it("an include of a FIFO outside the root: UNSUPPORTED, git never opens it (it would wait for a writer)", async () => {
    const o = await withConfig(`[include]\n\tpath = ${path.join(w, "outside.fifo")}\n`);
    expect(o.code, o.text).toBe("UNSUPPORTED");
    expect(o.text).not.toContain(w);
  });

  it("an include of a FIFO inside the work tree: UNSUPPORTED naming it", async () => {
    const fifo = path.join(root, "inside.fifo");
    execFileSync("mkfifo", [fifo]);
    try {
      const o = await withConfig("[include]\n\tpath = ../inside.fifo\n");
      expect(o.code, o.text).toBe("UNSUPPORTED");
      expect(o.message).toContain("inside.fifo is not a regular file");
    } finally {
      rmSync(fifo);
    }
  });

  it.each(["HEAD", "index", "packed-refs", "info/exclude", "config"])("a FIFO as .git/%s: UNSUPPORTED naming it", async (name) => {
    const o = await withFifo(name);
    expect(o.code, o.text).toBe("UNSUPPORTED");
    expect(o.message).toContain(`.git/${name}`);
    expect(o.text).not.toContain(w);
  });

  it.each([".gitattributes", "sub/.gitattributes", ".gitmodules"])(
    "a FIFO as the work tree's %s (git reads them for the changed files and submodules): UNSUPPORTED naming it",
    async (name) => {
      const file = path.join(root, name);
      const o = await diffWith(
        () => {
          mkdirSync(path.join(root, "sub"), { recursive: true });
          if (name.startsWith("sub/")) {
            writeFileSync(path.join(root, "sub/b.txt"), "b\n");
            git(root, "add", "sub/b.txt");
            git(root, "commit", "-qm", "sub");
            writeFileSync(path.join(root, "sub/b.txt"), "b\nc\n");
          }
          execFileSync("mkfifo", [file]);
        },
        () => rmSync(file, { force: true }),
      );
      expect(o.code, o.text).toBe("UNSUPPORTED");
      expect(o.message).toContain(`${name} is not a regular file`);
      expect(o.text).not.toContain(w);
    },
  );

  it("after all of these, the same repository still diffs", async () => {
    const o = await toolOutcome(readGitDiff(await Workspace.open(root), d({})));
    expect(o.code, o.text).toBe("OK");
    expect(o.text).toContain("a.txt");
  });

  it("a root inside an enclosing repository whose configuration includes an outside FIFO: UNSUPPORTED", async () => {
    const outer = path.join(w, "outer");
    putFile(outer, "sub/b.txt", "b\n");
    git(outer, "init", "-q", "-b", "main");
    commitAll(outer, "init");
    writeFileSync(path.join(outer, "sub", "b.txt"), "b\nc\n");
    const cfg = path.join(outer, ".git", "config");
    writeFileSync(cfg, `${readFileSync(cfg, "utf8")}[include]\n\tpath = ${path.join(w, "outside.fifo")}\n`);
    const o = await toolOutcome(readGitDiff(await Workspace.open(path.join(outer, "sub")), d({})));
    expect(o.code, o.text).toBe("UNSUPPORTED");
  });
});
