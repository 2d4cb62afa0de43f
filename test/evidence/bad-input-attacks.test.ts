/**
 * Attacks on the read-only evidence tools beyond `bad-input.test.ts`, as a hostile model or a
 * hostile repository (archive) would try them. Each test is the regression test of one weakness
 * that was found and fixed; every fixture secret contains `TOPSECRET`, which must never appear in
 * a result or an error.
 */
import { noteOf } from "../helpers/note.js";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldForDenyCheck, isDeniedPath } from "../../src/evidence/sandbox/deny-list.js";
import { MAX_NOTE_PATH_CHARS, readGitDiff } from "../../src/evidence/git-diff.js";
import { readEvidence } from "../../src/evidence/read.js";
import { RgJsonReader, type RgJsonEvent, safeJsonPrefix } from "../../src/evidence/ripgrep-json.js";
import { searchCode } from "../../src/evidence/search.js";
import { DEFAULT_LINE_CHARS, RESULT_TEXT_CHARS } from "../../src/evidence/budget.js";
import { runProcess } from "../../src/evidence/sandbox/spawn.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { diffArgs as d, searchArgs as s } from "../helpers/evidence-args.js";
import { commitAll, git, gitWithInput } from "../helpers/git.js";
import { SECRET, expectCode, noSecret } from "../helpers/secret-leak.js";
import { putFile, makeTempDir } from "../helpers/temp-tree.js";
import { toolOutcome } from "../helpers/tool-error.js";

let w: string;

/** A fresh git repository with one commit of `files`. */
function repo(name: string, files: Record<string, string>): string {
  const r = path.join(w, name);
  mkdirSync(r, { recursive: true });
  git(r, "init", "-q", "-b", "main");
  for (const [rel, content] of Object.entries(files)) putFile(r, rel, content);
  commitAll(r, "one");
  return r;
}

beforeAll(() => {
  w = makeTempDir("codecite-attack-");
  putFile(w, "outside/secret.txt", `${SECRET}-outside\n`);
  putFile(w, "outside/.bashrc", `export TOKEN=${SECRET}-bashrc\n`);
});

afterAll(() => {
  rmSync(w, { recursive: true, force: true });
});

describe("deny-list bypasses", () => {
  it("lookalike names that case-folding, HFS+ or NTFS map onto a secret are denied", () => {
    for (const p of [
      ".ENV",
      "ID_RSA",
      "certs/Server.PEM",
      "server.\u212Aey", // KELVIN SIGN folds to "k" on APFS/NTFS
      ".g\u200Cit/config", // HFS+ ignores U+200C (CVE-2014-9390 shape)
      "\uFF0Eenv", // fullwidth full stop
      "server.pem.", // Windows drops trailing dots
      "server.pem ", // …and spaces
      "server.pem::$DATA", // NTFS stream
      ".\u017Fsh/config", // LATIN SMALL LETTER LONG S folds to "s"
      "../outside/x", // not a clean relative path
      "/etc/passwd",
    ]) {
      expect(isDeniedPath(p), p).toBe(true);
    }
    for (const p of ["src/keyboard.ts", "docs/envelope.md", ".github/workflows/ci.yml", ".gitignore", "src/pem.ts", "a.b/c"]) {
      expect(isDeniedPath(p), p).toBe(false);
    }
    expect(foldForDenyCheck("A/\uFF0EENV. /x")).toBe("a/.env/x");
  });

  it("names that an upper-casing file system or a default-ignorable code point make a secret's are denied", () => {
    for (const p of [
      "credent\u0131als", // DOTLESS I: NTFS compares names upper-cased, and "\u0131" upper-cases to "I"
      ".git-credent\u0131als",
      "\u0131d_rsa", // …the same at a name's start
      ".\u2060env", // WORD JOINER, default-ignorable (DerivedCoreProperties.txt), invisible in a listing
      ".npmrc\u034F", // COMBINING GRAPHEME JOINER
      ".s\u180Esh/config", // MONGOLIAN VOWEL SEPARATOR
      ".ne\u00ADtrc", // SOFT HYPHEN
      "se\uFE0Fcrets.yml", // VARIATION SELECTOR-16
    ]) {
      expect(isDeniedPath(p), JSON.stringify(p)).toBe(true);
    }
    // Lookalikes that no file system maps onto a secret stay distinct names (not denied): a
    // homoglyph (LATIN SMALL LETTER ALPHA) and a combining accent.
    for (const p of ["id_rs\u0251", "src/\u00E9nv.py"]) {
      expect(isDeniedPath(p), JSON.stringify(p)).toBe(false);
    }
  });

  it("a lookalike secret file is refused by read_evidence and never searched", async () => {
    const r = path.join(w, "lookalike");
    putFile(r, "server.\u212Aey", `${SECRET}-kelvin\n`);
    putFile(r, "\uFF0Eenv", `${SECRET}-fullwidth\n`);
    putFile(r, "credent\u0131als", `${SECRET}-dotless\n`);
    putFile(r, ".\u2060env", `${SECRET}-joiner\n`);
    putFile(r, "ok.txt", "ok\n");
    const ws = await Workspace.open(r);
    await expectCode(() => readEvidence(ws, { path: "server.\u212Aey" }), "DENIED");
    await expectCode(() => readEvidence(ws, { path: "\uFF0Eenv" }), "DENIED");
    await expectCode(() => readEvidence(ws, { path: "credent\u0131als" }), "DENIED");
    await expectCode(() => readEvidence(ws, { path: ".\u2060env" }), "DENIED");
    const hits = await searchCode(ws, s({ query: SECRET }));
    expect(hits.evidence).toEqual([]);
    expect((await ws.listFiles()).map((f) => f.path)).toEqual(["ok.txt"]);
  });

  it("symlinks inside the root that point at secrets are denied in every tool", async () => {
    const r = repo("symlink-secrets", { "a.txt": "plain\n" });
    putFile(r, ".env", `KEY=${SECRET}-env\n`);
    putFile(r, ".aws/credentials", `aws_secret=${SECRET}-aws\n`);
    git(r, "config", "remote.origin.url", `https://u:${SECRET}@example.com/x.git`);
    symlinkSync(".env", path.join(r, "notes.txt"));
    symlinkSync(".git/config", path.join(r, "gitcfg.txt"));
    symlinkSync(".aws", path.join(r, "cfg"));
    const ws = await Workspace.open(r);
    for (const p of ["notes.txt", "gitcfg.txt", "cfg/credentials", "cfg"]) {
      await expectCode(() => readEvidence(ws, { path: p }), "DENIED", "INVALID_ARGUMENT");
      await expectCode(() => searchCode(ws, s({ query: SECRET, path: p })), "DENIED");
      await expectCode(() => ws.listFiles({ under: p }), "DENIED");
    }
    for (const query of ["-env", "-aws", "example.com", "KEY="]) {
      noSecret(await searchCode(ws, s({ query })));
      noSecret(await searchCode(ws, s({ query, glob: "*.txt" })));
    }
  });

  it("a glob cannot re-include denied files: **/.env, {.env,x}, .ENV*, !*.py", async () => {
    const r = path.join(w, "glob-deny");
    putFile(r, ".env", `${SECRET}-env\n`);
    putFile(r, "sub/.ENV.local", `${SECRET}-env-local\n`);
    putFile(r, "app.py", "no secrets here\n");
    const ws = await Workspace.open(r);
    for (const glob of ["**/.env", "{.env,x}", ".ENV*", "!*.py", "*", "**", ".env*", "sub/**"]) {
      // the query starts with '-': it must stay a pattern, never become an option
      const res = await searchCode(ws, s({ query: "-env", glob }));
      expect(res.evidence, glob).toEqual([]);
      noSecret(res);
    }
  });
});

describe("search_code: ignore rules, odd paths, budgets", () => {
  let ws: Workspace;
  beforeAll(async () => {
    const r = path.join(w, "ignored");
    putFile(r, ".gitignore", "local-secrets.txt\ndist/\n");
    putFile(r, "a.txt", "needle in a\n");
    putFile(r, "local-secrets.txt", `needle ${SECRET}-ignored\n`);
    putFile(r, "dist/bundle.js", `needle ${SECRET}-dist\n`);
    putFile(r, "-", "needle in a file named dash\n");
    putFile(r, "--pre=sh", "needle in a file named like an option\n");
    execFileSync("mkfifo", [path.join(r, "pipe")]);
    ws = await Workspace.open(r);
  });

  it("a glob only narrows: gitignored files stay out of the search", async () => {
    const txt = await searchCode(ws, s({ query: "needle", glob: "*.txt" }));
    expect(txt.evidence.map((e) => e.path)).toEqual(["a.txt"]);
    noSecret(txt);
    const all = await searchCode(ws, s({ query: "needle", glob: "*" }));
    expect(all.evidence.map((e) => e.path)).toEqual(["-", "--pre=sh", "a.txt"]);
    noSecret(all);
    // "*" matches the ignored folder dist itself, so ripgrep alone would walk into it
    const none = await searchCode(ws, s({ query: SECRET, glob: "*" }));
    expect(none.evidence).toEqual([]);
    expect(noteOf(none)).toContain("2 matching line(s) in ignored files were left out");
  });

  it("a file named '-' is searched as a file (ripgrep would read standard input)", async () => {
    const r = await searchCode(ws, s({ query: "needle", path: "-" }));
    expect(r.evidence.map((e) => [e.path, e.snippet])).toEqual([["-", "needle in a file named dash"]]);
    expect((await ws.listFiles({ under: "-" })).map((f) => f.path)).toEqual(["-"]);
    const opt = await searchCode(ws, s({ query: "needle", path: "--pre=sh" }));
    expect(opt.evidence.map((e) => e.path)).toEqual(["--pre=sh"]);
  });

  it("a FIFO as path is refused at once instead of blocking ripgrep", async () => {
    const o = await toolOutcome(() => searchCode(ws, s({ query: "x", path: "pipe" }), undefined, { timeoutMs: 60_000 }));
    expect(o.code).toBe("INVALID_ARGUMENT");
    expect(o.message).toBe("pipe is neither a folder nor a regular file");
    await expectCode(() => ws.listFiles({ under: "pipe" }), "INVALID_ARGUMENT");
    await expectCode(() => readEvidence(ws, { path: "pipe" }), "INVALID_ARGUMENT");
  });

  it("long paths count toward the output budget", async () => {
    const r = path.join(w, "longpaths");
    const deep = Array.from({ length: 19 }, (_, i) => `${String(i).padStart(2, "0")}${"x".repeat(198)}`).join("/");
    putFile(r, `${deep}/f.txt`, Array.from({ length: 60 }, (_, i) => `needle ${i + 1}`).join("\n") + "\n");
    const lws = await Workspace.open(r);
    const res = await searchCode(lws, s({ query: "needle", max_results: 200 }));
    expect(res.total).toBe(60);
    expect(res.truncated).toBe(true);
    expect(noteOf(res)).toContain(`output budget of ${RESULT_TEXT_CHARS} characters reached`);
    const chars = res.evidence.reduce((n, e) => n + e.snippet.length + e.path.length + e.name.length, 0);
    expect(chars).toBeLessThanOrEqual(RESULT_TEXT_CHARS);
    // each record costs 3,824 (path) + 6 (name) + 8 (snippet) characters
    expect(`${deep}/f.txt`.length).toBe(3824);
    expect(res.evidence.map((e) => e.start_line)).toEqual([1, 2, 3, 4]);
  });
});

describe("search_code: very long lines (bounded ripgrep events)", () => {
  let ws: Workspace;
  const deepLine = `${"x".repeat(15_000)}needle${"y".repeat(5000)}`;
  beforeAll(async () => {
    const r = path.join(w, "longlines");
    putFile(r, "deep.min.js", `${deepLine}\n`);
    putFile(r, "bom.js", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`first\n${"é".repeat(4000)}needle${"ü".repeat(900)}\r\n`)]));
    putFile(r, "many.txt", `${"needle ".repeat(3000)}\n`);
    putFile(r, "escapes.txt", `${'"\\\t\u0001'.repeat(400)}needle${'\\"'.repeat(400)}\n`);
    putFile(r, "short-escapes.txt", `${"\u0001".repeat(250)}needle\n`);
    putFile(r, "latin1.txt", Buffer.concat([Buffer.from("caf\xe9 ".repeat(1500), "latin1"), Buffer.from("needle\n")]));
    putFile(r, "lone-cr.txt", `${"a".repeat(6000)}\rneedle\rb\n`);
    putFile(r, "start.txt", `needle${"z".repeat(20_000)}\n`);
    ws = await Workspace.open(r);
  });

  it("events over the parse cap give exactly the records of a whole-line parse", async () => {
    const normal = await searchCode(ws, s({ query: "needle", max_results: 200 }));
    expect(normal.evidence.map((e) => e.path)).toEqual([
      "bom.js",
      "deep.min.js",
      "escapes.txt",
      "latin1.txt",
      "lone-cr.txt",
      "many.txt",
      "short-escapes.txt",
      "start.txt",
    ]);
    for (const e of normal.evidence) {
      expect(e.snippet.length, e.path).toBeLessThanOrEqual(DEFAULT_LINE_CHARS);
      expect(e.snippet, e.path).toContain("needle");
    }
    expect(normal.evidence.find((e) => e.path === "bom.js")).toMatchObject({ start_line: 2, flags: ["truncated"] });
    // Tiny limits force every event through the streaming tokenizer: once with the window read
    // back from the file (kept prefix too short), once with the window taken from the prefix.
    for (const keptLineBytes of [512, 8192]) {
      const streamed = await searchCode(ws, s({ query: "needle", max_results: 200 }), undefined, {
        eventLimits: { maxParsedBytes: 1024, keptLineBytes },
      });
      expect(streamed, `keptLineBytes ${keptLineBytes}`).toEqual(normal);
    }
  });

  it("a line with thousands of submatches is one record with a cut snippet", async () => {
    const r = await searchCode(ws, s({ query: "needle", path: "many.txt" }), undefined, {
      eventLimits: { maxParsedBytes: 4096, keptLineBytes: 1024 },
    });
    expect(r.evidence).toHaveLength(1);
    expect(r.evidence[0]).toMatchObject({ path: "many.txt", start_line: 1, flags: ["truncated"] });
    expect(r.evidence[0]?.snippet.startsWith("needle needle")).toBe(true);
  });

  it("the streaming tokenizer decodes escapes split across any chunk boundary", () => {
    const events = [
      { type: "begin", data: { path: { text: "a" } } },
      {
        type: "match",
        data: {
          path: { text: 'we"ird\\name\n.txt' },
          lines: { text: `x\u00e9\u{1F600}"\\\t\u0001 needle\n` },
          line_number: 7,
          absolute_offset: 99,
          submatches: [{ match: { text: "needle" }, start: 17, end: 23 }, { match: { text: "n" }, start: 1, end: 2 }],
        },
      },
      { type: "match", data: { path: { bytes: Buffer.from([0x61, 0xff]).toString("base64") }, lines: { bytes: "bmVlZGxlCg==" }, line_number: 1, absolute_offset: 0, submatches: [] } },
      { type: "summary", data: { stats: { searches: 3 } } },
    ];
    const text = Buffer.from(events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const read = (max: number, step: number): RgJsonEvent[] => {
      const out: RgJsonEvent[] = [];
      const reader = new RgJsonReader((ev) => void out.push(ev), { maxParsedBytes: max, keptLineBytes: 1 << 20 });
      for (let i = 0; i < text.length; i += step) reader.push(text.subarray(i, i + step));
      reader.end();
      return out;
    };
    const parsed = read(1 << 20, text.length);
    expect(parsed).toEqual([
      {
        type: "match",
        path: { text: 'we"ird\\name\n.txt' },
        lines: { text: `x\u00e9\u{1F600}"\\\t\u0001 needle\n` },
        complete: true,
        line_number: 7,
        absolute_offset: 99,
        first_start: 17,
      },
      { type: "match", path: { bytes: "Yf8=" }, lines: { bytes: "bmVlZGxlCg==" }, complete: true, line_number: 1, absolute_offset: 0, first_start: null },
      { type: "summary", searches: 3 },
    ]);
    for (const step of [1, 2, 3, 7, 64]) expect(read(16, step), `step ${step}`).toEqual(parsed);
    // a cut never ends inside an escape or a multi-byte character
    expect(safeJsonPrefix(Buffer.from("ab\\u00"))).toBe(2);
    expect(safeJsonPrefix(Buffer.from("ab\\"))).toBe(2);
    expect(safeJsonPrefix(Buffer.from("ab\\n"))).toBe(4);
    expect(safeJsonPrefix(Buffer.from("a\u00e9", "utf8").subarray(0, 2))).toBe(1);
  });
});

describe("outside and missing look the same", () => {
  it("a dangling symlink leaving the root is OUTSIDE_ROOT, exactly like one whose target exists", async () => {
    const r = path.join(w, "oracle");
    mkdirSync(r);
    putFile(r, "in.txt", "inside\n");
    symlinkSync(path.join(w, "outside/secret.txt"), path.join(r, "exists-out"));
    symlinkSync(path.join(w, "outside/nothere.txt"), path.join(r, "dangling-out"));
    symlinkSync("../outside/nothere.txt", path.join(r, "dangling-rel"));
    symlinkSync(path.join(w, "outside"), path.join(r, "dir-out"));
    symlinkSync("chain2", path.join(r, "chain1"));
    symlinkSync(path.join(w, "nowhere/x"), path.join(r, "chain2"));
    symlinkSync("nothere.txt", path.join(r, "dangling-in"));
    symlinkSync(path.join(r, "nothere.txt"), path.join(r, "dangling-in-abs"));
    const ws = await Workspace.open(r);
    const msgs: string[] = [];
    for (const p of ["exists-out", "dangling-out", "dangling-rel", "dir-out/secret.txt", "dir-out/nothere.txt", "chain1"]) {
      const o = await toolOutcome(() => readEvidence(ws, { path: p }));
      expect(o.code, p).toBe("OUTSIDE_ROOT");
      expect(o.text).not.toContain(SECRET);
      msgs.push(o.message.replace(p, "<p>"));
      await expectCode(() => searchCode(ws, s({ query: "x", path: p })), "OUTSIDE_ROOT");
    }
    expect(new Set(msgs).size).toBe(1);
    for (const p of ["dangling-in", "dangling-in-abs", "nothere.txt", "dir-in-missing/x"]) {
      await expectCode(() => readEvidence(ws, { path: p }), "NOT_FOUND");
    }
    expect(existsSync(path.join(w, "outside/nothere.txt"))).toBe(false);
  });
});

describe("the workspace root", () => {
  it("a root inside a secrets folder (.git, .ssh) is refused", async () => {
    const r = repo("root-in-git", { "a.txt": "a\n" });
    git(r, "config", "remote.origin.url", `https://u:${SECRET}@example.com/x.git`);
    await expectCode(() => Workspace.open(path.join(r, ".git")), "DENIED");
    putFile(w, "home/.ssh/config", "Host x\n");
    await expectCode(() => Workspace.open(path.join(w, "home/.ssh")), "DENIED");
    expect((await Workspace.open(r)).root).toBe(r);
  });
});

describe("read_git_diff: the repository must belong to the root", () => {
  it("core.worktree pointing outside the root is refused (it would diff files outside)", async () => {
    const r = repo("worktree-out", { ".bashrc": "placeholder\n" });
    git(r, "config", "core.worktree", path.join(w, "outside"));
    const ws = await Workspace.open(r);
    for (const args of [d(), d({ base: "HEAD" }), d({ path: ".bashrc" })]) {
      const o = await toolOutcome(() => readGitDiff(ws, args));
      expect(o.code).toBe("UNSUPPORTED");
      expect(o.message).toContain("core.worktree");
      expect(o.text).not.toContain(SECRET);
    }
  });

  it("a .git file, a .git symlink or a commondir naming another repository is refused", async () => {
    const priv = repo("private", { "p.txt": `${SECRET}-v1\n` });
    putFile(priv, "p.txt", `${SECRET}-v2\n`);
    git(priv, "commit", "-qam", "two");
    const viaFile = path.join(w, "via-gitfile");
    putFile(viaFile, ".git", `gitdir: ${path.join(priv, ".git")}\n`);
    putFile(viaFile, "p.txt", "x\n");
    const viaLink = path.join(w, "via-symlink");
    mkdirSync(viaLink);
    symlinkSync(path.join(priv, ".git"), path.join(viaLink, ".git"));
    const viaCommon = repo("via-commondir", { "x.txt": "x\n" });
    writeFileSync(path.join(viaCommon, ".git/commondir"), path.join(priv, ".git"));
    for (const r of [viaFile, viaLink, viaCommon]) {
      const ws = await Workspace.open(r);
      const o = await toolOutcome(() => readGitDiff(ws, d({ base: "HEAD~1", head: "HEAD" })));
      expect(o.code, r).toBe("UNSUPPORTED");
      expect(o.message).toMatch(/refuses this repository/);
      expect(o.hint).toBeTruthy();
      expect(o.text).not.toContain(SECRET);
    }
  });

  it("a linked worktree and a submodule checkout still work", async () => {
    const main = repo("legit-main", { "a.txt": "one\n" });
    git(main, "worktree", "add", "-q", path.join(w, "legit-wt"), "-b", "feature");
    putFile(w, "legit-wt/a.txt", "two\n");
    const lib = repo("legit-lib", { "l.txt": "l1\n" });
    git(main, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "sub");
    git(main, "commit", "-qm", "sub");
    putFile(main, "sub/l.txt", "l2\n");
    const wt = await readGitDiff(await Workspace.open(path.join(w, "legit-wt")), d());
    expect(wt.evidence.map((e) => [e.path, e.snippet])).toEqual([["a.txt", "@@ -1 +1 @@\n-one\n+two"]]);
    const sub = await readGitDiff(await Workspace.open(path.join(main, "sub")), d());
    expect(sub.evidence.map((e) => [e.path, e.snippet])).toEqual([["l.txt", "@@ -1 +1 @@\n-l1\n+l2"]]);
  });

  it("paths forged in the index and trees (../outside) are never shown", async () => {
    const r = repo("forged", { ".-/out/secret.txt": "placeholder\n", "sub/a.txt": "tracked\n" });
    // A tree with a ".." entry, committed, and an index whose entry names ../out/secret.txt.
    const hashTree = (entries: [string, string, string][]): string =>
      gitWithInput(
        r,
        Buffer.concat(entries.map(([mode, name, sha]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(sha, "hex")]))),
        "hash-object", "-t", "tree", "-w", "--literally", "--stdin",
      );
    const blob = git(r, "rev-parse", "HEAD:.-/out/secret.txt");
    const dotdot = hashTree([["40000", "out", hashTree([["100644", "secret.txt", blob]])]]);
    const root = hashTree([["40000", "..", dotdot], ["40000", "sub", git(r, "rev-parse", "HEAD:sub")]]);
    git(r, "update-ref", "refs/heads/evil", git(r, "commit-tree", root, "-m", "evil"));
    const indexFile = path.join(r, ".git/index");
    const body = readFileSync(indexFile).subarray(0, -20);
    const at = body.indexOf(".-/out/secret.txt");
    expect(at).toBeGreaterThan(0);
    body.write("../out/secret.txt", at, "latin1");
    writeFileSync(indexFile, Buffer.concat([body, createHash("sha1").update(body).digest()]));
    putFile(w, "out/secret.txt", `${SECRET}-via-index\n`);
    const forged = path.join(w, "forged"); // the root; ../out is outside it
    expect(git(forged, "diff", "evil")).toContain(`${SECRET}-via-index`); // what plain git shows
    const ws = await Workspace.open(forged);
    const res = await readGitDiff(ws, d({ base: "evil" }));
    noSecret(res);
    expect(res.evidence).toEqual([]);
    expect(noteOf(res)).toContain("1 change(s) with invalid paths");
  });
});

describe("read_git_diff: the git program", () => {
  it("a git executable shipped by the repository is never run, even with . or <repo>/bin on PATH", async () => {
    const r = repo("ships-git", { "a.txt": "one\n" });
    const marker = path.join(w, "markers", "repo-git-ran");
    const fake = `#!/bin/sh\nmkdir -p '${path.dirname(marker)}'\ntouch '${marker}'\nexit 0\n`;
    putFile(r, "git", fake);
    putFile(r, "bin/git", fake);
    chmodSync(path.join(r, "git"), 0o755);
    chmodSync(path.join(r, "bin/git"), 0o755);
    putFile(r, "a.txt", "two\n");
    const old = process.env.PATH;
    process.env.PATH = [".", "", path.join(r, "bin"), old ?? ""].join(path.delimiter);
    try {
      const res = await readGitDiff(await Workspace.open(r), d({ path: "a.txt" }));
      expect(res.evidence.map((e) => e.snippet)).toEqual(["@@ -1 +1 @@\n-one\n+two"]);
    } finally {
      process.env.PATH = old;
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe("read_git_diff: secrets and budgets", () => {
  it("a rename from .env does not show the old secret values", async () => {
    const r = repo("rename-env", { ".env": `A=1\nB=2\nC=3\nD=4\nREAL=${SECRET}\nE=5\nF=6\n` });
    git(r, "mv", ".env", "env.example");
    putFile(r, "env.example", "A=1\nB=2\nC=3\nD=4\nREAL=changeme\nE=5\nF=6\n");
    git(r, "commit", "-qam", "two");
    const ws = await Workspace.open(r);
    const res = await readGitDiff(ws, d({ base: "HEAD~1", head: "HEAD" }));
    noSecret(res);
    expect(res.evidence).toEqual([]);
    expect(noteOf(res)).toBe("No changes to show (HEAD~1 against HEAD). 1 changed file(s) on the secrets deny-list are not shown.");
    // the reverse direction (a rename to .env), and the rename seen from the working tree
    const renamed = git(r, "rev-parse", "HEAD");
    const reverse = await readGitDiff(ws, d({ base: renamed, head: "HEAD~1" }));
    noSecret(reverse);
    expect(reverse.evidence).toEqual([]);
    git(r, "reset", "-q", "--soft", "HEAD~1");
    const worktree = await readGitDiff(ws, d({ base: "HEAD" }));
    noSecret(worktree);
    expect(worktree.evidence).toEqual([]);
  });

  /** An OpenSSH private key block whose base64 lines carry the leak marker. */
  const keyBlock = (n: number) =>
    ["-----BEGIN OPENSSH PRIVATE KEY-----", ...Array.from({ length: n }, (_, i) => `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ${SECRET}${String(i).padStart(4, "0")}AAAA`), "-----END OPENSSH PRIVATE KEY-----", ""].join("\n");

  it("a private key under a harmless name is not shown by a diff: added, deleted, edited in its middle, in the working tree, or renamed", async () => {
    const r = repo("key-in-history", { "a.txt": "a\n" });
    putFile(r, "notes/deploy.txt", keyBlock(30));
    commitAll(r, "add key");
    // Edit one line in the middle of the key: the hunk holds neither armour line.
    putFile(r, "notes/deploy.txt", keyBlock(30).replace(`${SECRET}0015`, `${SECRET}9999`));
    putFile(r, "a.txt", "b\n");
    commitAll(r, "edit key");
    git(r, "rm", "-q", "notes/deploy.txt");
    commitAll(r, "remove key");
    const ws = await Workspace.open(r);
    const added = await readGitDiff(ws, d({ base: "HEAD~3", head: "HEAD~2" }));
    noSecret(added);
    expect(added.evidence).toEqual([]);
    expect(noteOf(added)).toBe("No changes to show (HEAD~3 against HEAD~2). 1 changed file(s) holding a private key are not shown.");
    const middle = await readGitDiff(ws, d({ base: "HEAD~2", head: "HEAD~1" }));
    noSecret(middle);
    // The other file's change is still shown.
    expect(middle.evidence.map((e) => e.path)).toEqual(["a.txt"]);
    expect(noteOf(middle)).toBe("HEAD~2 against HEAD~1: 1 file(s) changed: a.txt (+1 -1). 1 changed file(s) holding a private key are not shown.");
    const removed = await readGitDiff(ws, d({ base: "HEAD~1", head: "HEAD" }));
    noSecret(removed);
    expect(removed.evidence).toEqual([]);
    // Deleted in the working tree (old side only), then a new key in the working tree (new side only).
    git(r, "reset", "-q", "--hard", "HEAD~1");
    rmSync(path.join(r, "notes/deploy.txt"));
    const deletedInTree = await readGitDiff(ws, d());
    noSecret(deletedInTree);
    expect(deletedInTree.evidence).toEqual([]);
    git(r, "reset", "-q", "--hard", "HEAD~2");
    putFile(r, "a.txt", keyBlock(3));
    const inTree = await readGitDiff(ws, d({ path: "a.txt" }));
    noSecret(inTree);
    expect(inTree.evidence).toEqual([]);
    // Renamed with an edit: neither name is on the deny-list.
    git(r, "checkout", "-q", "--", "a.txt");
    putFile(r, "notes/deploy.txt", keyBlock(30));
    commitAll(r, "key again");
    git(r, "mv", "notes/deploy.txt", "notes/old.txt");
    putFile(r, "notes/old.txt", keyBlock(30).replace(`${SECRET}0029`, `${SECRET}7777`));
    commitAll(r, "rename key");
    const renamed = await readGitDiff(ws, d({ base: "HEAD~1", head: "HEAD" }));
    noSecret(renamed);
    expect(renamed.evidence).toEqual([]);
  });

  it("a source file that only mentions the key armour is still diffed", async () => {
    const r = repo("key-mention", { "check.py": 'MARK = "-----BEGIN RSA PRIVATE KEY-----"\n' });
    putFile(r, "check.py", 'MARK = "-----BEGIN RSA PRIVATE KEY-----"\nOTHER = 1\n');
    const res = await readGitDiff(await Workspace.open(r), d());
    expect(res.evidence.map((e) => e.snippet)).toEqual(['@@ -1 +1,2 @@\n MARK = "-----BEGIN RSA PRIVATE KEY-----"\n+OTHER = 1']);
  });

  it("a working-tree file hard-linked to a file outside the root is not shown by a diff", async () => {
    const r = repo("hardlink-diff", { "notes.txt": "harmless\n" });
    rmSync(path.join(r, "notes.txt"));
    // Its own outside file: a second link to the shared one would change other tests' outcomes.
    putFile(w, "outside-linked/secret.txt", `${SECRET}-linked\n`);
    linkSync(path.join(w, "outside-linked/secret.txt"), path.join(r, "notes.txt"));
    const res = await readGitDiff(await Workspace.open(r), d());
    noSecret(res);
    expect(res.evidence).toEqual([]);
    expect(noteOf(res)).toBe("No changes to show (working tree against HEAD). Untracked files are not shown. 1 changed file(s) with more than one hard link are not shown.");
  });

  it("option-like paths are plain pathspecs and ref tricks are refused", async () => {
    const r = repo("ref-tricks", { "a.txt": "a\n" });
    putFile(r, "a.txt", "b\n");
    const ws = await Workspace.open(r);
    // Each is a literal path (no option reaches git): absent from the tree and unchanged, so NOT_FOUND.
    for (const p of ["--output=pwned", "-", "-p"]) await expectCode(() => readGitDiff(ws, d({ path: p })), "NOT_FOUND");
    expect(existsSync(path.join(r, "pwned"))).toBe(false);
    for (const ref of ["HEAD@{upstream}", "refs/../x", "@", "HEAD^{tree}", "main^!", "main^@", ":/one", "HEAD\n--output=x"]) {
      await expectCode(() => readGitDiff(ws, d({ base: ref })), "INVALID_ARGUMENT");
    }
    await expectCode(() => readGitDiff(ws, d({ base: "FETCH_HEAD" })), "NOT_FOUND");
  });

  it("long paths count toward the diff budget and are cut in the note", async () => {
    const long = (i: number) => `${String(i).padStart(3, "0")}${"p".repeat(240)}/${"q".repeat(240)}/${"r".repeat(240)}.txt`;
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[long(i)] = "one\n";
    const r = repo("long-diff-paths", files);
    for (let i = 0; i < 40; i++) putFile(r, long(i), "two\n");
    const res = await readGitDiff(await Workspace.open(r), d());
    expect(res.total).toBe(40);
    expect(res.truncated).toBe(true);
    const chars = res.evidence.reduce((n, e) => n + e.snippet.length + e.path.length + e.name.length, 0);
    expect(chars).toBeLessThanOrEqual(RESULT_TEXT_CHARS);
    expect(res.evidence.length).toBeLessThan(40);
    expect(noteOf(res)).toContain("40 file(s) changed: ");
    expect(noteOf(res)).not.toContain(long(0));
    expect(noteOf(res)).toContain(`${long(0).slice(0, Math.floor((MAX_NOTE_PATH_CHARS - 1) / 2))}…`);
    expect(JSON.stringify(res).length).toBeLessThan(RESULT_TEXT_CHARS + 6000);
  });
});

describe("process hygiene and typed errors", () => {
  it("an exception in a stdout consumer rejects with a ToolError and reaps the child", async () => {
    const o = await toolOutcome(() =>
      runProcess(process.execPath, ["-e", "setInterval(() => process.stdout.write('x'.repeat(4096)), 1)"], {
        cwd: w,
        env: process.env,
        timeoutMs: 60_000,
        onStdout: () => {
          throw new Error("consumer broke");
        },
      }),
    );
    expect(o.code).toBe("INTERNAL");
    expect(o.message).toContain("consumer broke");
  });

  it("a child is killed and reaped on abort and on timeout (no zombie left)", async () => {
    const child = ["-e", "process.stdout.write(process.pid + '\\n'); setInterval(() => {}, 1000)"];
    const gone = (pid: number) => {
      try {
        process.kill(pid, 0);
        return false;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === "ESRCH";
      }
    };
    // abort once the child has started
    const ac = new AbortController();
    let pid = 0;
    const aborted = await toolOutcome(() =>
      runProcess(process.execPath, child, {
        cwd: w,
        env: process.env,
        timeoutMs: 60_000,
        signal: ac.signal,
        onStdout: (chunk) => {
          pid = Number.parseInt(chunk.toString("utf8"), 10);
          ac.abort();
        },
      }),
    );
    expect(aborted.code).toBe("TIMEOUT");
    expect(pid).toBeGreaterThan(0);
    expect(gone(pid)).toBe(true);
    // time limit: generous, so that a node child has started (and printed its pid) even on a
    // loaded machine; the child never ends by itself, so only the limit stops it.
    let pid2 = 0;
    const res = await runProcess(process.execPath, child, {
      cwd: w,
      env: process.env,
      timeoutMs: 15_000,
      onStdout: (chunk) => {
        pid2 = Number.parseInt(chunk.toString("utf8"), 10);
      },
    });
    expect(res.timedOut).toBe(true);
    expect(pid2).toBeGreaterThan(0);
    expect(gone(pid2)).toBe(true);
  });

  it("an aborted walk or read stops with TIMEOUT", async () => {
    const ws = await Workspace.open(path.join(w, "outside"));
    const ac = new AbortController();
    ac.abort();
    await expectCode(() => ws.listFiles({ signal: ac.signal }), "TIMEOUT");
    await expectCode(() => readEvidence(ws, { path: "secret.txt" }, ac.signal), "TIMEOUT");
  });

  it("every error a model can trigger is a ToolError with a hint", async () => {
    const r = repo("hints", { "a.txt": "a\n" });
    execFileSync("mkfifo", [path.join(r, "fifo")]);
    mkdirSync(path.join(r, "dir"));
    symlinkSync(path.join(w, "outside/secret.txt"), path.join(r, "out-link"));
    const ws = await Workspace.open(r);
    const plain = await Workspace.open(path.join(w, "outside"));
    const cases: [string, () => Promise<unknown>][] = [
      ["path NUL", () => readEvidence(ws, { path: "a\0b" })],
      ["path empty", () => readEvidence(ws, { path: "" })],
      ["path long", () => readEvidence(ws, { path: "a".repeat(5000) })],
      ["segment long", () => readEvidence(ws, { path: "a".repeat(300) })],
      ["path type", () => readEvidence(ws, { path: 7 as unknown as string })],
      ["outside", () => readEvidence(ws, { path: "../x" })],
      ["absolute outside", () => readEvidence(ws, { path: "/etc/passwd" })],
      ["symlink outside", () => readEvidence(ws, { path: "out-link" })],
      ["denied", () => readEvidence(ws, { path: ".env" })],
      ["missing", () => readEvidence(ws, { path: "nope.txt" })],
      ["directory", () => readEvidence(ws, { path: "dir" })],
      ["fifo", () => readEvidence(ws, { path: "fifo" })],
      ["line 0", () => readEvidence(ws, { path: "a.txt", start_line: 0 })],
      ["past end", () => readEvidence(ws, { path: "a.txt", start_line: 9 })],
      ["query empty", () => searchCode(ws, s({ query: "" }))],
      ["query NUL", () => searchCode(ws, s({ query: "a\0" }))],
      ["query long", () => searchCode(ws, s({ query: "q".repeat(2000) }))],
      ["query newline", () => searchCode(ws, s({ query: "a\nb" }))],
      ["glob NUL", () => searchCode(ws, s({ query: "a", glob: "*\0" }))],
      ["glob long", () => searchCode(ws, s({ query: "a", glob: "*".repeat(600) }))],
      ["glob ..", () => searchCode(ws, s({ query: "a", glob: "../*" }))],
      ["glob syntax", () => searchCode(ws, s({ query: "a", glob: "{a" }))],
      ["regex", () => searchCode(ws, s({ query: "(", regex: true }))],
      ["fifo path", () => searchCode(ws, s({ query: "a", path: "fifo" }))],
      ["ref dash", () => readGitDiff(ws, d({ base: "-p" }))],
      ["ref unknown", () => readGitDiff(ws, d({ base: "nope" }))],
      ["ref type", () => readGitDiff(ws, d({ base: 5 as unknown as string }))],
      ["context", () => readGitDiff(ws, d({ context_lines: 99 }))],
      ["pathspec magic", () => readGitDiff(ws, d({ path: ":(top)" }))],
      ["not a repo", () => readGitDiff(plain, d())],
    ];
    for (const [label, fn] of cases) {
      const o = await toolOutcome(fn);
      expect(o.code, label).not.toBe("OK");
      expect(o.hint, `${label}: ${o.text}`).toMatch(/\S/);
      expect(o.text).not.toContain(SECRET);
    }
  });
});
