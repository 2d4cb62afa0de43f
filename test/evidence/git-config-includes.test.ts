/**
 * A repository whose git configuration makes git read files outside the root: `include.path`,
 * `includeIf.*.path` (also in an included file), `core.attributesFile`, `core.excludesFile`.
 * `read_git_diff` refuses it with `UNSUPPORTED`; includes that stay inside the work tree (a
 * project's `../.gitconfig`) are followed as before.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configReads } from "../../src/evidence/git-store.js";
import { readGitDiff } from "../../src/evidence/git-diff.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { diffArgs as d } from "../helpers/evidence-args.js";
import { commitAll, git } from "../helpers/git.js";
import { toolOutcome } from "../helpers/tool-error.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

describe("configReads", () => {
  it("finds include and includeIf paths, attributesFile and excludesFile, as git reads the values", () => {
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
    ].join("\n");
    expect(configReads(text)).toEqual(["/x/attrs", "one.cfg", 'two "q".cfg', "~/ignore"]);
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
    ["an inside include that includes an outside file", () => "[include]\n\tpath = ../nested.cfg\n"],
  ])("%s: UNSUPPORTED, without the host path", async (_name, extra) => {
    putFile(root, "nested.cfg", `[include]\n\tpath = ${path.join(w, "outside.cfg")}\n`);
    const o = await withConfig(extra());
    expect(o.code, o.text).toBe("UNSUPPORTED");
    expect(o.message).toMatch(/makes git read (a file outside the work tree|"~\/\.gitconfig", outside the work tree)/);
    expect(o.text).not.toContain(w);
  });

  it("an include inside the work tree (a project's ../.gitconfig) is followed: the diff is shown", async () => {
    const o = await withConfig("[include]\n\tpath = ../.gitconfig\n");
    expect(o.code, o.text).toBe("OK");
    expect(o.text).toContain("a.txt");
  });
});
