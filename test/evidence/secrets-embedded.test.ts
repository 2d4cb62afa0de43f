/**
 * Secrets that the name deny-list and the whole-line key detector both missed (issue 13, attack
 * round): a private key inside another file — a cloud service-account key file (JSON, the key's
 * line breaks written `\n`, named after the account), a YAML block scalar (indented), a quoted
 * `.env` value, a string literal, a Kubernetes `Secret` (the PEM base64-encoded) — and files of
 * secrets by folder or convention (`secrets/`, `prod.env`, `.my.cnf`, `.dev.vars`). Each fixture
 * also holds {@link SECRET} in plain text, so any read, search hit or diff hunk of it shows.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readGitDiff } from "../../src/evidence/git-diff.js";
import { readEvidence } from "../../src/evidence/read.js";
import { searchCode } from "../../src/evidence/search.js";
import { isDeniedPath } from "../../src/evidence/sandbox/deny-list.js";
import { bytesHavePrivateKeyBlock, hasPrivateKeyBlock } from "../../src/evidence/sandbox/secret-content.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { diffArgs as d, searchArgs as s } from "../helpers/evidence-args.js";
import { commitAll, git } from "../helpers/git.js";
import { noteOf } from "../helpers/note.js";
import { SECRET, noSecret } from "../helpers/secret-leak.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { toolOutcome } from "../helpers/tool-error.js";

/** Key data lines (base64, 64 characters, as PEM wraps them). */
const B64 = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
const B64b = "MzEwZWFlMjQ1NjdkNGY0YWJjMDAwMGZmZmYxMjM0NTY3ODlhYmNkZWYwMTIzNDU2";
const PEM = `-----BEGIN PRIVATE KEY-----\n${B64}\n${B64b}\n-----END PRIVATE KEY-----\n`;
const CERT = `-----BEGIN CERTIFICATE-----\n${B64}\n${B64b}\n-----END CERTIFICATE-----\n`;
const base64 = (text: string): string => Buffer.from(text, "latin1").toString("base64");

/** The shape of a Google Cloud service-account key file (`gcloud iam service-accounts keys create`). */
const SERVICE_ACCOUNT = JSON.stringify(
  {
    type: "service_account",
    project_id: "demo-4f2a1c",
    private_key_id: SECRET,
    private_key: PEM,
    client_email: "ci@demo-4f2a1c.iam.gserviceaccount.com",
  },
  null,
  2,
);

/** Files holding a key under names no deny pattern covers, each with {@link SECRET} beside it. */
const EMBEDDED: Record<string, string> = {
  "deploy/demo-4f2a1c-0123abcd.json": SERVICE_ACCOUNT,
  // PHP's json_encode writes `/` as `\/`, Windows tools `\r\n`.
  "deploy/php-export.json": `{"owner":"${SECRET}","key":${JSON.stringify(PEM.replaceAll("\n", "\r\n")).replaceAll("/", "\\/")}}`,
  "helm/values.yaml": `owner: ${SECRET}\ntls:\n  key: |\n${PEM.split("\n").map((l) => `    ${l}`).join("\n")}\n`,
  "config/ci.sh": `# ${SECRET}\nexport DEPLOY_KEY="${PEM.trimEnd()}"\n`,
  "src/fixtures.ts": `// ${SECRET}\nexport const key = ${JSON.stringify(PEM)};\n`,
  "k8s/tls-secret.yaml": `apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls # ${SECRET}\ntype: kubernetes.io/tls\ndata:\n  tls.crt: ${base64(CERT)}\n  tls.key: ${base64(PEM)}\n`,
  // A chain whose key is not at the start of the encoding (1 byte into a 3-byte group), wrapped at 64 as `openssl base64` does.
  "k8s/chain.b64": `${base64(`${CERT}x${PEM}`).replace(/.{64}/g, "$&\n")}\n# ${SECRET}\n`,
};

/** Files of secrets by folder or naming convention. */
const BY_NAME: Record<string, string> = {
  "secrets/db_password.txt": `${SECRET}-compose\n`,
  "ops/.secrets/token": `${SECRET}-token\n`,
  "config/prod.env": `DB_PASSWORD=${SECRET}-envfile\n`,
  ".my.cnf": `[client]\npassword=${SECRET}-mysql\n`,
  ".dev.vars": `API_TOKEN=${SECRET}-wrangler\n`,
};

describe("private keys inside other files are found by content", () => {
  it("finds a key escaped in JSON or a string, indented in YAML, quoted in a shell file, base64-encoded at any alignment", () => {
    for (const [name, text] of Object.entries(EMBEDDED)) {
      expect(hasPrivateKeyBlock(text), name).toBe(true);
      expect(bytesHavePrivateKeyBlock(Buffer.from(text, "latin1")), name).toBe(true);
    }
    for (const pad of ["", "x", "xy"]) expect(hasPrivateKeyBlock(`v: ${base64(`${CERT}${pad}${PEM}`)}`), `pad ${pad.length}`).toBe(true);
  });

  it("does not take a mention of the marker, a certificate or a public key for a key", () => {
    for (const text of [
      'const head = "-----BEGIN PRIVATE KEY-----\\n";\nconst body = lines.join("\\n");\n',
      '"-----BEGIN RSA PRIVATE KEY-----\\n" + body + "\\n-----END RSA PRIVATE KEY-----"',
      "  - '-----BEGIN PRIVATE KEY-----'\n  - '...'\n",
      `tls.crt: ${base64(CERT)}\n`,
      `pub: ${base64(`-----BEGIN PUBLIC KEY-----\n${B64}\n`)}\n`,
      `doc: ${base64('if (s.startsWith("-----BEGIN PRIVATE KEY-----")) warn();\n')}\n`,
      SERVICE_ACCOUNT.replace(/"private_key": ".*",/u, '"private_key": "",'),
    ]) {
      expect(hasPrivateKeyBlock(text), text).toBe(false);
    }
  });
});

describe("embedded keys and secret files are never read, searched or diffed", () => {
  let w: string;
  let root: string;
  beforeAll(() => {
    w = makeTempDir("codecite-secrets-embedded-");
    root = path.join(w, "repo");
    putFile(root, "README.md", "demo\n");
    git(root, "init", "-q");
    commitAll(root, "start");
    for (const [name, text] of Object.entries({ ...EMBEDDED, ...BY_NAME })) putFile(root, name, text);
    putFile(root, "src/app.py", "OWNER = 'TOPSECRET' if False else None  # a mention, shown\n".replace("TOPSECRET", "TOP" + "SEKRIT"));
    commitAll(root, "add secrets");
  });
  afterAll(() => rmSync(w, { recursive: true, force: true }));

  it("names the secret folders and conventions on the deny-list", () => {
    for (const name of Object.keys(BY_NAME)) expect(isDeniedPath(name), name).toBe(true);
    for (const name of ["src/secrets.ts", "app/secrets_controller.rb", "docs/env.md", "environment.yml", "my.cnf.example"]) expect(isDeniedPath(name), name).toBe(false);
  });

  it("read_evidence refuses each file with DENIED; search_code finds nothing in them", async () => {
    const ws = await Workspace.open(root);
    for (const name of Object.keys({ ...EMBEDDED, ...BY_NAME })) {
      const o = await toolOutcome(() => readEvidence(ws, { path: name }));
      expect(o.code, name).toBe("DENIED");
      expect(o.text).not.toContain(SECRET);
    }
    for (const query of [SECRET, "PRIVATE KEY", B64.slice(0, 24), base64(PEM).slice(0, 24)]) {
      // (The note repeats the query, so only the evidence is checked for the marker.)
      const res = await searchCode(ws, s({ query }));
      expect(res.evidence.map((e) => e.path), query).toEqual([]);
    }
    // The control file is still found.
    expect((await searchCode(ws, s({ query: "SEKRIT" }))).evidence.map((e) => e.path)).toEqual(["src/app.py"]);
  });

  it("read_git_diff shows no hunk of them and counts the key-holding ones", async () => {
    const ws = await Workspace.open(root);
    const res = await readGitDiff(ws, d({ base: "HEAD~1", head: "HEAD" }));
    noSecret(res);
    expect(res.evidence.map((e) => e.path)).toEqual(["src/app.py"]);
    expect(noteOf(res)).toContain(`${Object.keys(EMBEDDED).length} changed file(s) holding a private key are not shown.`);
  });
});
