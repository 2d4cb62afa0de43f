/**
 * Git object stores outside the root (issue 9, kind 1) and git's error messages (kind 13): a
 * hostile repository links `.git/objects`, `.git/refs`, one loose object or a submodule's git
 * directory to another repository, or names one in `objects/info/alternates`. `read_git_diff`
 * must refuse with `UNSUPPORTED` and never print the other repository's files or commit ids.
 * Every outside secret contains `TOPSECRET`; no host path may appear in an error.
 */
import { noteOf } from "../helpers/note.js";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGitDiff } from "../../src/evidence/git-diff.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { diffArgs as d } from "../helpers/evidence-args.js";
import { commitAll, git } from "../helpers/git.js";
import { SECRET } from "../helpers/secret-leak.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { toolOutcome } from "../helpers/tool-error.js";

let w: string;
/** Another repository on the machine, holding a secret; its commit ids must never be shown. */
let other: string;
let otherSha: string;

function repo(name: string, files: Record<string, string> = { "a.txt": "one\n" }): string {
  const r = path.join(w, name);
  mkdirSync(r, { recursive: true });
  git(r, "init", "-q", "-b", "main");
  for (const [rel, content] of Object.entries(files)) putFile(r, rel, content);
  commitAll(r, "one");
  return r;
}

/** Asserts that a diff of `root` is refused with `code`, mentioning `words`, and leaks nothing. */
async function expectRefused(root: string, args: Parameters<typeof readGitDiff>[1], code: string, words: RegExp): Promise<void> {
  const o = await toolOutcome(async () => readGitDiff(await Workspace.open(root), args));
  expect(o.code, o.text).toBe(code);
  expect(o.message).toMatch(words);
  expect(o.text).not.toContain(SECRET);
  expect(o.text).not.toContain(otherSha);
  expect(o.text).not.toContain(otherSha.slice(0, 7));
  expect(o.text).not.toContain(w);
}

beforeAll(() => {
  w = makeTempDir("codecite-gitstore-");
  other = repo("other", { "secret.txt": `${SECRET}-other-repo\n` });
  putFile(other, "secret.txt", `${SECRET}-other-repo-changed\n`);
  commitAll(other, "two");
  otherSha = git(other, "rev-parse", "HEAD");
});

afterAll(() => {
  rmSync(w, { recursive: true, force: true });
});

describe("object stores and refs outside the root", () => {
  it("a relative .git/objects symlink into another repository is refused", async () => {
    const r = repo("objects-link");
    rmSync(path.join(r, ".git/objects"), { recursive: true });
    symlinkSync("../../other/.git/objects", path.join(r, ".git/objects"));
    await expectRefused(r, d({ base: `${otherSha}~1`, head: otherSha }), "UNSUPPORTED", /\.git\/objects is a symbolic link/);
    await expectRefused(r, d(), "UNSUPPORTED", /symbolic link/);
  });

  it("a .git/refs symlink into another repository is refused", async () => {
    const r = repo("refs-link");
    rmSync(path.join(r, ".git/refs"), { recursive: true });
    symlinkSync(path.join(other, ".git/refs"), path.join(r, ".git/refs"));
    await expectRefused(r, d({ base: "main" }), "UNSUPPORTED", /\.git\/refs is a symbolic link/);
  });

  it("one loose object or one ref file linked outside is refused", async () => {
    const r = repo("loose-link");
    const objects = path.join(r, ".git/objects");
    const dir = readdirSync(objects).find((n) => /^[0-9a-f]{2}$/.test(n)) as string;
    const file = readdirSync(path.join(objects, dir))[0] as string;
    rmSync(path.join(objects, dir, file));
    symlinkSync(path.join(w, "nowhere", "object"), path.join(objects, dir, file));
    await expectRefused(r, d(), "UNSUPPORTED", /symbolic link to a missing path/);

    const r2 = repo("ref-file-link");
    rmSync(path.join(r2, ".git/refs/heads/main"));
    symlinkSync(path.join(other, ".git/refs/heads/main"), path.join(r2, ".git/refs/heads/main"));
    await expectRefused(r2, d(), "UNSUPPORTED", /\.git\/refs\/heads\/main is a symbolic link/);
  });

  it("objects/info/alternates naming another store (absolute, relative, through a nested alternate) is refused", async () => {
    const abs = repo("alt-abs");
    writeFileSync(path.join(abs, ".git/objects/info/alternates"), `${path.join(other, ".git/objects")}\n`);
    await expectRefused(abs, d({ base: `${otherSha}~1`, head: otherSha }), "UNSUPPORTED", /alternates names an object store outside/);

    const rel = repo("alt-rel");
    writeFileSync(path.join(rel, ".git/objects/info/alternates"), "# comment\n\n../../../other/.git/objects\n");
    await expectRefused(rel, d({ base: `${otherSha}~1`, head: otherSha }), "UNSUPPORTED", /alternates/);

    // An alternate inside the work tree whose own alternates leave it (git follows 5 levels).
    const chain = repo("alt-chain");
    mkdirSync(path.join(chain, "vendor/store/objects/info"), { recursive: true });
    writeFileSync(path.join(chain, "vendor/store/objects/info/alternates"), `${path.join(other, ".git/objects")}\n`);
    writeFileSync(path.join(chain, ".git/objects/info/alternates"), "../../vendor/store/objects\n");
    await expectRefused(chain, d({ base: `${otherSha}~1`, head: otherSha }), "UNSUPPORTED", /vendor\/store\/objects\/info\/alternates/);

    const http = repo("alt-http");
    writeFileSync(path.join(http, ".git/objects/info/http-alternates"), "https://example.com/x.git/objects\n");
    await expectRefused(http, d(), "UNSUPPORTED", /remote object store/);
  });

  it("an alternate inside the work tree is accepted (git's own layout)", async () => {
    const r = repo("alt-inside");
    const donor = repo("alt-inside/vendor/donor", { "d.txt": "donor\n" });
    writeFileSync(path.join(r, ".git/objects/info/alternates"), "../../vendor/donor/.git/objects\n");
    const sha = git(donor, "rev-parse", "HEAD");
    const res = await readGitDiff(await Workspace.open(r), d({ base: "HEAD", head: sha }));
    expect(res.evidence.map((e) => e.path)).toContain("d.txt");
  });

  it("GIT_ALTERNATE_OBJECT_DIRECTORIES and GIT_DIR in the environment are ignored", async () => {
    const r = repo("env-alt");
    const saved = { ...process.env };
    process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES = path.join(other, ".git/objects");
    process.env.GIT_OBJECT_DIRECTORY = path.join(other, ".git/objects");
    process.env.GIT_DIR = path.join(other, ".git");
    try {
      const o = await toolOutcome(async () => readGitDiff(await Workspace.open(r), d({ base: `${otherSha}~1`, head: otherSha })));
      expect(o.code).toBe("NOT_FOUND");
      expect(o.text).not.toContain(SECRET);
      const own = await readGitDiff(await Workspace.open(r), d());
      expect(own.evidence).toEqual([]);
    } finally {
      for (const k of ["GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_OBJECT_DIRECTORY", "GIT_DIR"]) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});

describe("submodules (gitlinks)", () => {
  it("a submodule whose gitlink file names an outside repository is refused", async () => {
    const r = repo("gitlink-out");
    mkdirSync(path.join(r, "sub"));
    git(r, "update-index", "--add", "--cacheinfo", `160000,${otherSha},sub`);
    git(r, "commit", "-qm", "add sub");
    writeFileSync(path.join(r, "sub/.git"), `gitdir: ${path.join(other, ".git")}\n`);
    await expectRefused(r, d(), "UNSUPPORTED", /submodule sub names a git directory outside/);
    // the same through a relative gitlink and a symlinked .git
    writeFileSync(path.join(r, "sub/.git"), "gitdir: ../../other/.git\n");
    await expectRefused(r, d(), "UNSUPPORTED", /submodule sub/);
    rmSync(path.join(r, "sub/.git"));
    symlinkSync(path.join(other, ".git"), path.join(r, "sub/.git"));
    await expectRefused(r, d(), "UNSUPPORTED", /submodule sub/);
  });

  it("a submodule whose git directory lives inside the work tree is diffed", async () => {
    const r = repo("gitlink-in");
    const sub = repo("gitlink-in/sub", { "s.txt": "s\n" });
    git(r, "update-index", "--add", "--cacheinfo", `160000,${git(sub, "rev-parse", "HEAD")},sub`);
    git(r, "commit", "-qm", "add sub");
    const res = await readGitDiff(await Workspace.open(r), d());
    expect(res.evidence).toEqual([]);
    expect(noteOf(res)).toMatch(/^No changes/);
  });
});

describe("git's own files that are not regular files", () => {
  // A FIFO (an unpacked archive can hold one) blocked the read of codecite's store check, and a
  // thread of Node's file-system pool with it, for ever: `diff` never answered.
  it("a FIFO or an oversized file where the store check reads git's bookkeeping is refused, not waited on", async () => {
    for (const name of ["alternates", "http-alternates"]) {
      const r = repo(`fifo-${name}`);
      execFileSync("mkfifo", [path.join(r, ".git/objects/info", name)]);
      await expectRefused(r, d(), "UNSUPPORTED", new RegExp(`^read_git_diff refuses this repository: \\.git/objects/info/${name} is not a regular file`));
    }
    const big = repo("big-alternates");
    writeFileSync(path.join(big, ".git/objects/info/alternates"), "# padding\n".repeat(200_000));
    await expectRefused(big, d(), "UNSUPPORTED", /\.git\/objects\/info\/alternates is larger than 1048576 bytes/);
    const r = repo("fifo-gitlink");
    mkdirSync(path.join(r, "sub"));
    git(r, "update-index", "--add", "--cacheinfo", `160000,${otherSha},sub`);
    git(r, "commit", "-qm", "add sub");
    execFileSync("mkfifo", [path.join(r, "sub/.git")]);
    await expectRefused(r, d(), "UNSUPPORTED", /sub\/\.git is not a regular file/);
  });

  it("a linked worktree whose gitdir file is a FIFO is refused", async () => {
    const main = repo("wt-main");
    git(main, "worktree", "add", "-q", path.join(w, "wt-linked"));
    const entry = path.join(main, ".git/worktrees/wt-linked/gitdir");
    rmSync(entry);
    execFileSync("mkfifo", [entry]);
    // Found by the check of the git directory's entries before git runs (git-store.ts checkBeforeGit).
    await expectRefused(path.join(w, "wt-linked"), d(), "UNSUPPORTED", /^read_git_diff refuses this repository: gitdir is not a regular file \(a FIFO/);
  });
});

describe("git error messages say what is wrong (kind 13)", () => {
  it("a broken object store is not 'no commits yet'", async () => {
    const r = repo("broken-store");
    const objects = path.join(r, ".git/objects");
    for (const n of readdirSync(objects)) if (/^[0-9a-f]{2}$/.test(n)) rmSync(path.join(objects, n), { recursive: true });
    const o = await toolOutcome(async () => readGitDiff(await Workspace.open(r), d()));
    expect(o.code).toBe("UNSUPPORTED");
    expect(o.message).toMatch(/^HEAD names [0-9a-f]{12}, but no commit with that id can be read: the repository's object store is damaged/);
    expect(o.text).not.toContain(w);
  });

  it("an empty repository still says 'no commits yet'", async () => {
    const r = path.join(w, "empty");
    mkdirSync(r);
    git(r, "init", "-q");
    const o = await toolOutcome(async () => readGitDiff(await Workspace.open(r), d()));
    expect(o.code).toBe("NOT_FOUND");
    expect(o.message).toMatch(/no commits yet/);
  });

  it("a .git file naming a missing git directory says so, without the host path", async () => {
    const r = path.join(w, "bad-gitfile");
    mkdirSync(r);
    putFile(r, "a.txt", "a\n");
    writeFileSync(path.join(r, ".git"), `gitdir: ${path.join(w, "missing", ".git")}\n`);
    const o = await toolOutcome(async () => readGitDiff(await Workspace.open(r), d()));
    expect(o.code).toBe("UNSUPPORTED");
    expect(o.message).toMatch(/^git cannot use the repository at the workspace root: /);
    expect(o.message).toContain("<path>");
    expect(o.text).not.toContain(w);
  });

  it("a git directory moved away (a dangling .git symlink) is not 'not a git repository'", async () => {
    const r = repo("dangling-dotgit");
    renameSync(path.join(r, ".git"), path.join(w, "moved-git"));
    symlinkSync(path.join(w, "gone", ".git"), path.join(r, ".git"));
    const o = await toolOutcome(async () => readGitDiff(await Workspace.open(r), d()));
    expect(o.code).toBe("UNSUPPORTED");
    expect(o.message).toMatch(/^git cannot use the repository at the workspace root/);
    expect(o.text).not.toContain(w);
  });
});

describe("through the tool registry (the model's and MCP's path)", () => {
  it("the refusal is a typed tool error envelope", async () => {
    const r = repo("registry-objects");
    rmSync(path.join(r, ".git/objects"), { recursive: true });
    symlinkSync("../../other/.git/objects", path.join(r, ".git/objects"));
    const res = await createCodeToolRegistry().dispatch(
      { name: "read_git_diff", arguments: { base: `${otherSha}~1`, head: otherSha } },
      { workspace: await Workspace.open(r) },
    );
    expect(res.ok).toBe(false);
    expect(JSON.stringify(res)).not.toContain(SECRET);
    expect(res).toMatchObject({ ok: false, error: { code: "UNSUPPORTED" } });
  });
});
