/**
 * Sandbox hardening, round 2 (issue 9): programs shipped in the repository (kind 2), races in
 * search (kind 3), roots inside denied folders (kind 4), hard links (kind 5) and deny-list gaps
 * with private-key content detection (kind 6). Every outside or denied secret contains
 * `TOPSECRET`, which must never appear in a result or an error; nothing in the repository runs.
 */
import { noteOf } from "../helpers/note.js";
import { chmodSync, existsSync, linkSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDeniedPath } from "../../src/evidence/sandbox/deny-list.js";
import { readGitDiff } from "../../src/evidence/git-diff.js";
import { readEvidence } from "../../src/evidence/read.js";
import { searchCode } from "../../src/evidence/search.js";
import { hasPrivateKeyBlock } from "../../src/evidence/sandbox/secret-content.js";
import { findExecutable } from "../../src/evidence/sandbox/spawn.js";
import { findSymbol } from "../../src/evidence/symbols.js";
import { Workspace, kBeforeOpen } from "../../src/evidence/sandbox/workspace.js";
import { narrowToRoots } from "../../src/mcp/server.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { diffArgs as d, searchArgs as s } from "../helpers/evidence-args.js";
import { commitAll, git } from "../helpers/git.js";
import { SECRET, expectCode, noSecret } from "../helpers/secret-leak.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { toolOutcome } from "../helpers/tool-error.js";

let w: string;

beforeAll(() => {
  w = makeTempDir("codecite-sandbox2-");
  putFile(w, "outside/secret.txt", `needle ${SECRET}-outside\n`);
});

afterAll(() => {
  rmSync(w, { recursive: true, force: true });
});

/** A private key body line (base64, 70 characters) and blocks in the formats the detector knows. */
const B64 = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW";
const OPENSSH_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${B64}\n${SECRET}AAAA\n-----END OPENSSH PRIVATE KEY-----\n`;
const PGP_KEY = `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${B64}\n=${SECRET}\n-----END PGP PRIVATE KEY BLOCK-----\n`;
const RSA_KEY = `-----BEGIN RSA PRIVATE KEY-----\r\nProc-Type: 4,ENCRYPTED\r\nDEK-Info: AES-128-CBC,00\r\n\r\n${B64}\r\n${SECRET}\r\n-----END RSA PRIVATE KEY-----\r\n`;
const PUTTY_KEY = `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\nAAAA\nBBBB\nPrivate-Lines: 1\n${SECRET}\n`;

describe("kind 2: programs shipped in the repository are never run", () => {
  let root: string;
  let marker: string;
  beforeAll(() => {
    root = path.join(w, "progs");
    marker = path.join(w, "ran-marker");
    for (const name of ["git", "rg", "codecite-probe"]) {
      putFile(root, `bin/${name}`, `#!/bin/sh\necho ran > '${marker}'\n`);
      chmodSync(path.join(root, "bin", name), 0o755);
    }
    symlinkSync(root, path.join(w, "progs-link"));
    // A folder outside the root whose program is a link into the root.
    mkdirSync(path.join(w, "outbin"));
    symlinkSync(path.join(root, "bin", "codecite-probe"), path.join(w, "outbin", "codecite-probe"));
  });

  it("findExecutable skips the root as spelled, through a symlinked PATH entry, and a link into it", async () => {
    const saved = process.env.PATH;
    try {
      for (const entry of [path.join(root, "bin"), path.join(w, "progs-link", "bin"), path.join(w, "outbin")]) {
        process.env.PATH = entry;
        expect(await findExecutable("codecite-probe", { notUnder: root }), entry).toBeUndefined();
        expect(await findExecutable("codecite-probe", { notUnder: path.join(w, "progs-link") }), entry).toBeUndefined();
      }
      // Outside the root, the real path of the program is returned.
      process.env.PATH = path.join(w, "outbin");
      expect(await findExecutable("codecite-probe", { notUnder: path.join(w, "elsewhere") })).toBe(path.join(root, "bin", "codecite-probe"));
    } finally {
      process.env.PATH = saved;
    }
  });

  it("read_git_diff never runs the repository's git, also when PATH reaches it through a link", async () => {
    git(root, "init", "-q", "-b", "main");
    putFile(root, "a.txt", "one\n");
    commitAll(root, "one");
    putFile(root, "a.txt", "two\n");
    const realGit = await findExecutable("git");
    expect(realGit).toBeDefined();
    const saved = process.env.PATH;
    try {
      process.env.PATH = [path.join(w, "progs-link", "bin"), path.join(root, "bin"), path.dirname(realGit as string)].join(path.delimiter);
      const res = await readGitDiff(await Workspace.open(path.join(w, "progs-link")), d({ path: "a.txt" }));
      expect(res.evidence.map((e) => e.snippet)).toEqual(["@@ -1 +1 @@\n-one\n+two"]);
      process.env.PATH = [path.join(w, "progs-link", "bin"), path.join(root, "bin")].join(path.delimiter);
      await expectCode(async () => readGitDiff(await Workspace.open(root), d()), "UNSUPPORTED");
    } finally {
      process.env.PATH = saved;
    }
    expect(existsSync(marker)).toBe(false);
  });

  it("search works from a root reached through a link, without running the repository's rg", async () => {
    putFile(root, "src/x.py", "needle = 1\n");
    const saved = process.env.PATH;
    try {
      process.env.PATH = path.join(w, "progs-link", "bin");
      const res = await searchCode(await Workspace.open(path.join(w, "progs-link")), s({ query: "needle" }));
      expect(res.evidence.map((e) => e.path)).toEqual(["src/x.py"]);
    } finally {
      process.env.PATH = saved;
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe("kind 3: a file swapped while search_code runs", () => {
  it("content ripgrep printed that is not in the file any more is dropped (swapped for a link)", async () => {
    const r = path.join(w, "race-link");
    putFile(r, "a.txt", `needle ${SECRET}-as-read-through-a-swapped-link\n`);
    putFile(r, "b.txt", "needle plain\n");
    const ws = await Workspace.open(r);
    ws[kBeforeOpen] = (abs) => {
      if (path.basename(abs) !== "a.txt") return;
      unlinkSync(abs);
      symlinkSync(path.join(w, "outside/secret.txt"), abs);
    };
    const res = await searchCode(ws, s({ query: "needle" }));
    noSecret(res);
    expect(res.evidence.map((e) => e.path)).toEqual(["b.txt"]);
    expect(res.total).toBe(1);
    expect(noteOf(res)).toMatch(/1 file\(s\) with matches were left out/);
  });

  it("content that changed between ripgrep's read and the check is dropped (swapped back)", async () => {
    const r = path.join(w, "race-content");
    putFile(r, "a.txt", `needle ${SECRET}-old\nneedle again\n`);
    const ws = await Workspace.open(r);
    ws[kBeforeOpen] = (abs) => writeFileSync(abs, "needle harmless\nneedle again\n");
    const res = await searchCode(ws, s({ query: "needle" }));
    noSecret(res);
    expect(res.evidence).toEqual([]);
  });

  it("unchanged files keep every hit, long lines included", async () => {
    const r = path.join(w, "race-none");
    putFile(r, "a.txt", `${"x".repeat(5000)} needle ${"y".repeat(5000)}\r\nneedle\tb\n`);
    const ws = await Workspace.open(r);
    const res = await searchCode(ws, s({ query: "needle" }));
    expect(res.evidence.map((e) => e.start_line)).toEqual([1, 2]);
    expect(noteOf(res) ?? "").not.toMatch(/left out/);
  });
});

describe("kind 4: roots inside denied folders", () => {
  let proj: string;
  beforeAll(() => {
    proj = path.join(w, "proj");
    putFile(proj, "src/app.py", "print(1)\n");
    putFile(proj, ".envs/prod/settings.txt", `TOKEN=${SECRET}-envs\n`);
    putFile(proj, "credentials/db.txt", `password=${SECRET}-creds\n`);
    putFile(proj, ".ssh/notes.txt", `${SECRET}-ssh\n`);
    putFile(proj, "deploy.git/config", `[remote "o"]\n url = https://u:${SECRET}@example.com/x\n`);
    symlinkSync(path.join(proj, "credentials"), path.join(w, "creds-link"));
  });

  it("--root inside a denied folder (as given, or through a link) is DENIED", async () => {
    for (const root of [".envs", ".envs/prod", "credentials", ".ssh", "deploy.git"].map((p) => path.join(proj, p))) {
      const o = await toolOutcome(() => Workspace.open(root));
      expect(o.code, root).toBe("DENIED");
      expect(o.text).not.toContain(SECRET);
    }
    await expectCode(() => Workspace.open(path.join(w, "creds-link")), "DENIED");
    expect((await Workspace.open(proj)).root).toBe(proj);
  });

  it("a bare repository as the root is DENIED (its config can hold credential URLs)", async () => {
    const bare = path.join(w, "bare-repo");
    mkdirSync(bare);
    git(bare, "init", "-q", "--bare");
    await expectCode(() => Workspace.open(bare), "DENIED");
  });

  it("MCP client roots narrowing into a denied folder are ignored; the base keeps denying", async () => {
    const base = await Workspace.open(proj);
    const logs: string[] = [];
    for (const p of [".envs/prod", "credentials", ".ssh"]) {
      const ws = await narrowToRoots(base, [pathToFileURL(path.join(proj, p)).href], (l) => logs.push(l));
      expect(ws).toBe(base);
      await expectCode(() => readEvidence(ws, { path: `${p}/${p === ".envs/prod" ? "settings.txt" : p === "credentials" ? "db.txt" : "notes.txt"}` }), "DENIED");
    }
    expect(logs.filter((l) => /secrets deny-list/.test(l))).toHaveLength(3);
    const narrowed = await narrowToRoots(base, [pathToFileURL(path.join(proj, "src")).href], () => undefined);
    expect(narrowed.root).toBe(path.join(proj, "src"));
  });
});

describe("kind 5: hard links", () => {
  let r: string;
  beforeAll(() => {
    r = path.join(w, "hard");
    putFile(r, ".env", `KEY=${SECRET}-env\n`);
    putFile(r, "ok.py", "def ok():\n    return 1\n");
    linkSync(path.join(w, "outside/secret.txt"), path.join(r, "notes.txt"));
    linkSync(path.join(r, ".env"), path.join(r, "env_copy.py"));
  });

  it("read_evidence refuses a file with more than one link, naming the setting", async () => {
    const ws = await Workspace.open(r, { allowHardLinks: false });
    for (const p of ["notes.txt", "env_copy.py"]) {
      const o = await toolOutcome(() => readEvidence(ws, { path: p }));
      expect(o.code).toBe("DENIED");
      expect(o.message).toBe(`${p} has 2 hard links and is not read: another name of the same file may be a secret or lie outside the repository`);
      expect(o.hint).toMatch(/CODECITE_ALLOW_HARD_LINKS=1/);
      expect(o.text).not.toContain(SECRET);
    }
  });

  it("search, walks and symbols leave hard-linked files out", async () => {
    const ws = await Workspace.open(r, { allowHardLinks: false });
    for (const query of ["needle", "KEY", "-outside", "-env"]) noSecret(await searchCode(ws, s({ query })));
    expect((await ws.listFiles()).map((f) => f.path)).toEqual(["ok.py"]);
    expect(ws.skipped.hardLinked).toBe(2);
    noSecret(await findSymbol(ws, { name: "KEY", max_results: 50 }));
  });

  it("the setting allows them (allowHardLinks)", async () => {
    const ws = await Workspace.open(r, { allowHardLinks: true });
    const res = await readEvidence(ws, { path: "notes.txt" });
    expect(res.evidence[0]?.snippet).toBe(`needle ${SECRET}-outside`);
  });
});

describe("kind 6: deny-list gaps and private keys by content", () => {
  it("host keys, PuTTY and GnuPG keys and common credential files are denied by name", () => {
    for (const p of [
      "etc/ssh/ssh_host_ed25519_key",
      "ssh_host_rsa_key",
      "keys/deploy.ppk",
      "home/.gnupg/secring.gpg",
      "backup/secring.gpg",
      "gnupg/private-keys-v1.d/AB.key",
      "home/.cargo/credentials.toml",
      "home/.cargo/credentials",
      "home/.config/gh/hosts.yml",
      "gh/hosts.yml",
      "home/.config/gcloud/application_default_credentials.json",
      "application_default_credentials.json",
      "gcloud/credentials.db",
      ".vault-token",
      "kubeconfig",
      "prod.kubeconfig",
      ".kube/config",
      ".docker/config.json",
      ".pypirc",
      ".git-credentials",
      "mirror.git/config",
      "infra/terraform.tfstate",
      "infra/terraform.tfstate.backup",
      ".s3cfg",
      "config/secrets.yml",
      "deploy/secrets.yaml",
      "UserSecrets/5a1c/secrets.json",
      "config/master.key",
    ]) {
      expect(isDeniedPath(p), p).toBe(true);
    }
    for (const p of ["src/credentials_form.tsx", "docs/kubeconfig.md", "src/hosts.yml", "KEYS.asc", "config", "src/git/config.ts", "app/secrets_controller.rb", "docs/secrets.md"]) {
      expect(isDeniedPath(p), p).toBe(false);
    }
  });

  it("detects key blocks, not mentions of the marker", () => {
    for (const k of [OPENSSH_KEY, PGP_KEY, RSA_KEY, PUTTY_KEY, `cert\n${OPENSSH_KEY}`]) expect(hasPrivateKeyBlock(k)).toBe(true);
    for (const t of [
      'const MARKER = "-----BEGIN RSA PRIVATE KEY-----";\n',
      "-----BEGIN RSA PRIVATE KEY-----\n...\n",
      "-----BEGIN PUBLIC KEY-----\n" + B64 + "\n",
      "# PuTTY-User-Key-File-3: is the header of a .ppk\n",
    ]) {
      expect(hasPrivateKeyBlock(t), t).toBe(false);
    }
  });

  it("a key under any name is refused by read_evidence, never shown by search or symbols", async () => {
    const r = path.join(w, "keys");
    putFile(r, "notes.txt", OPENSSH_KEY);
    putFile(r, "KEYS.asc", `public keys\n${PGP_KEY}`);
    putFile(r, "deploy/settings.py", `X = 1\n${RSA_KEY}`);
    putFile(r, "mykey.txt", PUTTY_KEY);
    putFile(r, "src/detect.py", 'MARKER = "-----BEGIN RSA PRIVATE KEY-----"\n');
    const ws = await Workspace.open(r);
    for (const p of ["notes.txt", "KEYS.asc", "deploy/settings.py", "mykey.txt"]) {
      const o = await toolOutcome(() => readEvidence(ws, { path: p, start_line: 2, end_line: 3 }));
      expect(o.code, p).toBe("DENIED");
      expect(o.message).toBe(`${p} holds a private key and is never read`);
      expect(o.text).not.toContain(SECRET);
    }
    for (const query of ["SECRETAAAA", "AAAA", "BEGIN", B64.slice(0, 20), "Private-Lines"]) {
      const res = await searchCode(ws, s({ query }));
      noSecret(res);
      expect(res.evidence.every((e) => e.path === "src/detect.py"), query).toBe(true);
    }
    noSecret(await findSymbol(ws, { name: "X", max_results: 50 }));
    expect((await readEvidence(ws, { path: "src/detect.py" })).evidence[0]?.snippet).toContain("BEGIN RSA PRIVATE KEY");
  });

  it("through the registry (the model's and MCP's path) the refusal is a DENIED envelope", async () => {
    const r = path.join(w, "keys-registry");
    putFile(r, "id.txt", OPENSSH_KEY);
    const res = await createCodeToolRegistry().dispatch({ name: "read_evidence", arguments: { path: "id.txt" } }, { workspace: await Workspace.open(r) });
    expect(res).toMatchObject({ ok: false, error: { code: "DENIED" } });
    expect(JSON.stringify(res)).not.toContain(SECRET);
  });
});
