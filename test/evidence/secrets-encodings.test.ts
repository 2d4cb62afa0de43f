/**
 * A private key written in a form that the tools decode but the key detector read as raw bytes
 * (issue 13, attack round of session 30): UTF-16 with a byte-order mark (what Windows
 * PowerShell 5's `>` writes; ripgrep and `read_evidence` transcode it), line ends that are a lone
 * `\r` (classic Mac; the tools show each as a line break), and a diff that git prints from
 * converted text (a `working-tree-encoding` attribute, or a `diff` attribute that makes git print
 * a UTF-16 file byte by byte). Each fixture also holds {@link SECRET}, so any read, search hit or
 * hunk of it shows.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGitDiff } from "../../src/evidence/git-diff.js";
import { readEvidence } from "../../src/evidence/read.js";
import { searchCode } from "../../src/evidence/search.js";
import { bytesHavePrivateKeyBlock, hasPrivateKeyBlock } from "../../src/evidence/sandbox/secret-content.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { diffArgs as d, searchArgs as s } from "../helpers/evidence-args.js";
import { commitAll, git } from "../helpers/git.js";
import { noteOf } from "../helpers/note.js";
import { SECRET, noSecret } from "../helpers/secret-leak.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { toolOutcome } from "../helpers/tool-error.js";

const B64 = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
/** A key whose second data line carries {@link SECRET}. */
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${B64}\n${SECRET}${B64.slice(SECRET.length)}\n-----END RSA PRIVATE KEY-----\n`;

const utf16le = (text: string, bom = true): Buffer => Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, "utf16le")]);
const utf16be = (text: string): Buffer => {
  const le = Buffer.from(text, "utf16le");
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le.swap16()]);
};

/** Key files as the tools decode them, under names no deny pattern covers. */
const ENCODED: Record<string, Buffer> = {
  "backup/key-le.txt": utf16le(PEM),
  "backup/key-be.txt": utf16be(PEM),
  "backup/key-mac.txt": Buffer.from(PEM.replaceAll("\n", "\r"), "latin1"),
  "backup/key-escaped-cr.json": Buffer.from(JSON.stringify({ key: PEM.replaceAll("\n", "\r") }), "latin1"),
};

describe("a key block is found in every encoding the tools decode", () => {
  it("finds it in UTF-16 with a byte-order mark, with lone CR line ends, and with CR escapes", () => {
    for (const [name, bytes] of Object.entries(ENCODED)) expect(bytesHavePrivateKeyBlock(bytes), name).toBe(true);
    expect(hasPrivateKeyBlock(PEM.replaceAll("\n", "\r"))).toBe(true);
  });

  it("does not take UTF-16 text that only mentions the marker, or a certificate, for a key", () => {
    expect(bytesHavePrivateKeyBlock(utf16le('if (s.startsWith("-----BEGIN PRIVATE KEY-----")) warn();\r\n'))).toBe(false);
    expect(bytesHavePrivateKeyBlock(utf16le(PEM.replaceAll("RSA PRIVATE KEY", "CERTIFICATE")))).toBe(false);
  });
});

describe("keys in decoded encodings are never read, searched or diffed", () => {
  let w: string;
  let root: string;
  beforeAll(() => {
    w = makeTempDir("codecite-secrets-encodings-");
    root = path.join(w, "repo");
    putFile(root, "README.md", "demo\n");
    // git converts `conv/*.txt` from UTF-16LE (no byte-order mark) and prints `raw/*.txt` as text whatever its bytes.
    putFile(root, ".gitattributes", "conv/*.txt text working-tree-encoding=UTF-16LE\nraw/*.txt diff\n");
    git(root, "init", "-q");
    commitAll(root, "start");
    for (const [name, bytes] of Object.entries(ENCODED)) putFile(root, name, bytes);
    putFile(root, "src/app.py", "OWNER = 'SEKRIT'  # a control file, shown\n");
    commitAll(root, "add keys");
    putFile(root, "conv/key.txt", utf16le(PEM, false));
    putFile(root, "raw/key.txt", utf16le(PEM));
    putFile(root, "raw/key-mac.txt", PEM.replaceAll("\n", "\r"));
    git(root, "add", "conv", "raw");
  });
  afterAll(() => rmSync(w, { recursive: true, force: true }));

  it("read_evidence refuses each file with DENIED; search_code finds nothing in them", async () => {
    const ws = await Workspace.open(root);
    for (const name of Object.keys(ENCODED)) {
      const o = await toolOutcome(() => readEvidence(ws, { path: name }));
      expect(o.code, name).toBe("DENIED");
      expect(o.text).not.toContain(SECRET);
    }
    for (const query of [SECRET, "PRIVATE KEY", B64.slice(0, 24)]) {
      const res = await searchCode(ws, s({ query }));
      expect(res.evidence.map((e) => e.path), query).toEqual([]);
    }
    expect((await searchCode(ws, s({ query: "SEKRIT" }))).evidence.map((e) => e.path)).toEqual(["src/app.py"]);
  });

  it("read_git_diff shows no hunk of a key committed in such an encoding", async () => {
    const ws = await Workspace.open(root);
    const res = await readGitDiff(ws, d({ base: "HEAD~1", head: "HEAD" }));
    noSecret(res);
    expect(res.evidence.map((e) => e.path)).toEqual(["src/app.py"]);
  });

  it("read_git_diff shows no hunk of a key that git prints converted or byte by byte", async () => {
    const ws = await Workspace.open(root);
    const res = await readGitDiff(ws, d({}));
    noSecret(res);
    expect(res.evidence).toEqual([]);
    expect(noteOf(res)).toContain("3 changed file(s) holding a private key are not shown.");
  });
});
