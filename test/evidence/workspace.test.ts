import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDeniedPath } from "../../src/evidence/sandbox/deny-list.js";
import { splitLines } from "../../src/evidence/sandbox/text-file.js";
import { SkippedFileError, Workspace, describeSkipped, kBeforeOpen } from "../../src/evidence/sandbox/workspace.js";
import { git } from "../helpers/git.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { type Settleable, toolOutcome } from "../helpers/tool-error.js";

let tmp: string;
let root: string;

const put = (rel: string, content: string | Buffer): void => putFile(root, rel, content);

const codeOf = async (run: Settleable): Promise<string> => (await toolOutcome(run)).code;

beforeAll(() => {
  tmp = makeTempDir("codecite-ws-");
  root = path.join(tmp, "proj");
  mkdirSync(root);
  put("src/a.ts", "export const a = 1;\n");
  put("src/b.py", "import os\n");
  put("src/nested/.gitignore", "gen.ts\n");
  put("src/nested/gen.ts", "generated\n");
  put("src/nested/kept.ts", "kept\n");
  put(".gitignore", "build/\n*.log\n");
  put(".ignore", "scratch.txt\n");
  put("scratch.txt", "scratch\n");
  put("build/out.js", "out\n");
  put("debug.log", "log\n");
  put("node_modules/pkg/index.js", "module.exports = 1;\n");
  put("pkg/node_modules/dep/x.js", "dep\n");
  put("__pycache__/b.cpython-312.pyc", "pyc\n");
  put(".venv/lib/site.py", "venv\n");
  put("env/pyvenv.cfg", "home = /usr/bin\n");
  put("env/lib/python3.12/site-packages/m.py", "venv\n");
  put(".env", "SECRET=1\n");
  put("config/server.pem", "-----BEGIN-----\n");
  put(".github/workflows/ci.yml", "on: push\n");
  put("docs/readme.md", "\uFEFFtitle\r\nbody\r\n");
  put("bin/data.bin", Buffer.from([1, 2, 0, 3]));
  mkdirSync(path.join(tmp, "outside"));
  writeFileSync(path.join(tmp, "outside", "secret.txt"), "outside\n");
  symlinkSync(path.join(tmp, "outside"), path.join(root, "linked-out"));
  symlinkSync(".", path.join(root, "src", "loop"));
  symlinkSync("a.ts", path.join(root, "src", "alias.ts"));
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("Workspace.open", () => {
  it("resolves the root with realpath", async () => {
    symlinkSync(root, path.join(tmp, "root-link"));
    const ws = await Workspace.open(path.join(tmp, "root-link"));
    expect(ws.root).toBe(root);
    // an absolute path spelled through the given (symlinked) root is inside too
    expect(ws.normalize(path.join(tmp, "root-link", "src", "a.ts"))).toBe("src/a.ts");
  });

  it("rejects a missing root and a file root", async () => {
    expect(await codeOf(Workspace.open(path.join(tmp, "nope")))).toBe("NOT_FOUND");
    expect(await codeOf(Workspace.open(path.join(root, "src", "a.ts")))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(Workspace.open("bad\0root"))).toBe("INVALID_ARGUMENT");
  });
});

describe("Workspace.normalize", () => {
  it("normalises redundant forms to a relative path", async () => {
    const ws = await Workspace.open(root);
    expect(ws.normalize("src/a.ts")).toBe("src/a.ts");
    expect(ws.normalize("./src/./a.ts")).toBe("src/a.ts");
    expect(ws.normalize("src//a.ts")).toBe("src/a.ts");
    expect(ws.normalize("src/nested/../a.ts")).toBe("src/a.ts");
    expect(ws.normalize(path.join(root, "src/a.ts"))).toBe("src/a.ts");
    expect(ws.normalize(".")).toBe("");
    expect(ws.normalize(root)).toBe("");
    expect(ws.normalize("~/x")).toBe("~/x");
    expect(ws.normalize("$HOME/x")).toBe("$HOME/x");
  });

  it("rejects escapes, prefix siblings, NUL, empty and over-long paths", async () => {
    const ws = await Workspace.open(root);
    expect(await codeOf(() => ws.normalize("../outside/secret.txt"))).toBe("OUTSIDE_ROOT");
    expect(await codeOf(() => ws.normalize("src/../../outside"))).toBe("OUTSIDE_ROOT");
    expect(await codeOf(() => ws.normalize(`${root}-evil/x`))).toBe("OUTSIDE_ROOT");
    expect(await codeOf(() => ws.normalize(`${root}/../proj-evil/x`))).toBe("OUTSIDE_ROOT");
    expect(await codeOf(() => ws.normalize("/etc/passwd"))).toBe("OUTSIDE_ROOT");
    expect(await codeOf(() => ws.normalize("src/a.ts\0.png"))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(() => ws.normalize(""))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(() => ws.normalize("a".repeat(5000)))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(() => ws.normalize(`src/${"x".repeat(300)}`))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(() => ws.normalize(".env"))).toBe("DENIED");
    expect(await codeOf(() => ws.normalize("src/../.git/config"))).toBe("DENIED");
  });
});

describe("deny-list", () => {
  it.each([
    [".env", true],
    ["app/.env.production", true],
    [".ENV", true],
    ["certs/server.pem", true],
    ["tls/site.key", true],
    ["home/.ssh/id_rsa", true],
    ["id_ed25519.pub", true],
    [".npmrc", true],
    [".netrc", true],
    [".pypirc", true],
    [".aws/credentials", true],
    [".aws", true],
    [".git/config", true],
    ["sub/.git/HEAD", true],
    ["src/env.ts", false],
    ["src/keys.ts", false],
    ["docs/ssh.md", false],
    ["", false],
  ])("%s → %s", (rel, denied) => {
    expect(isDeniedPath(rel)).toBe(denied);
  });
});

describe("Workspace.resolve", () => {
  it("follows symlinks that stay inside and rejects those that leave", async () => {
    const ws = await Workspace.open(root);
    expect(await ws.resolve("src/alias.ts")).toEqual({
      rel: "src/alias.ts",
      abs: path.join(root, "src/a.ts"),
      isDirectory: false,
      isFile: true,
    });
    expect(await ws.resolve("src")).toEqual({ rel: "src", abs: path.join(root, "src"), isDirectory: true, isFile: false });
    expect(await codeOf(ws.resolve("linked-out/secret.txt"))).toBe("OUTSIDE_ROOT");
    expect(await codeOf(ws.resolve("src/missing.ts"))).toBe("NOT_FOUND");
  });
});

describe("Workspace.listFiles", () => {
  it("walks with ignore rules outside git, never .git/node_modules/venvs, drops denied and symlinks", async () => {
    const ws = await Workspace.open(root);
    const files = (await ws.listFiles()).map((f) => f.path);
    expect(files).toEqual([
      ".github/workflows/ci.yml",
      ".gitignore",
      ".ignore",
      "bin/data.bin",
      "docs/readme.md",
      "src/a.ts",
      "src/b.py",
      "src/nested/.gitignore",
      "src/nested/kept.ts",
    ]);
  });

  it("filters by folder and extension and reports sizes", async () => {
    const ws = await Workspace.open(root);
    const files = await ws.listFiles({ under: "src", extensions: [".ts"] });
    expect(files.map((f) => [f.path, f.size])).toEqual([
      ["src/a.ts", 20],
      ["src/nested/kept.ts", 5],
    ]);
    expect((await ws.listFiles({ under: "./src/nested/kept.ts" })).map((f) => f.path)).toEqual(["src/nested/kept.ts"]);
    expect((await ws.listFiles({ under: "node_modules/pkg" })).map((f) => f.path)).toEqual(["node_modules/pkg/index.js"]);
    expect(await codeOf(ws.listFiles({ under: "linked-out" }))).toBe("OUTSIDE_ROOT");
  });

  it("applies .gitignore inside a git repository too", async () => {
    const repo = path.join(tmp, "gitrepo");
    mkdirSync(repo);
    git(repo, "init", "-q");
    writeFileSync(path.join(repo, ".gitignore"), "ignored.txt\n");
    writeFileSync(path.join(repo, "ignored.txt"), "x\n");
    writeFileSync(path.join(repo, "kept.txt"), "x\n");
    const ws = await Workspace.open(repo);
    expect((await ws.listFiles()).map((f) => f.path)).toEqual([".gitignore", "kept.txt"]);
  });
});

describe("Workspace.readText", () => {
  it("drops the BOM and splits CRLF lines", async () => {
    const ws = await Workspace.open(root);
    const t = await ws.readText("docs/readme.md");
    expect(t.lines).toEqual(["title", "body"]);
    expect(t.bom).toBe(true);
    expect(t.crlf).toBe(true);
    expect(t.text).toBe("title\r\nbody\r\n");
    expect(t.path).toBe("docs/readme.md");
  });

  it("refuses binary and too-large files and counts them", async () => {
    const ws = await Workspace.open(root, { maxFileBytes: 10 });
    const bin = await ws.readText("bin/data.bin").catch((e: unknown) => e);
    expect(bin).toBeInstanceOf(SkippedFileError);
    expect((bin as SkippedFileError).reason).toBe("binary");
    expect((bin as SkippedFileError).code).toBe("UNSUPPORTED");
    const big = await ws.readText("src/a.ts").catch((e: unknown) => e);
    expect((big as SkippedFileError).reason).toBe("too_large");
    expect(ws.skipped).toMatchObject({ binary: 1, tooLarge: 1 });
    expect(describeSkipped(ws.skipped, ws.maxFileBytes)).toBe("skipped 1 binary file, 1 file over 10 bytes");
  });

  it("refuses directories, denied files and FIFOs without blocking", async () => {
    const ws = await Workspace.open(root);
    expect(await codeOf(ws.readText("src"))).toBe("INVALID_ARGUMENT");
    expect(await codeOf(ws.readText("config/server.pem"))).toBe("DENIED");
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    expect(await codeOf(ws.readText("pipe"))).toBe("INVALID_ARGUMENT");
  });

  it("refuses sockets and devices with a typed error, before opening them", async () => {
    // A socket cannot be opened (ENXIO: it was an INTERNAL error); opening a device can act on it.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, "sock.py"), resolve));
    const special = ["sock.py"];
    if (process.getuid?.() === 0) {
      execFileSync("mknod", [path.join(root, "zero.py"), "c", "1", "5"]);
      special.push("zero.py");
    }
    try {
      const ws = await Workspace.open(root);
      const opened: string[] = [];
      ws[kBeforeOpen] = (abs) => void opened.push(abs);
      for (const name of special) {
        const o = await toolOutcome(() => ws.readText(name));
        expect([o.code, o.message]).toEqual(["INVALID_ARGUMENT", `${name} is not a regular file`]);
      }
      expect(opened).toEqual([]);
      // Through a link inside the root, the same.
      symlinkSync("sock.py", path.join(root, "sock-link.py"));
      expect((await toolOutcome(() => ws.readText("sock-link.py"))).message).toBe("sock-link.py is not a regular file");
      expect(opened).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(path.join(root, "zero.py"), { force: true });
      rmSync(path.join(root, "sock-link.py"), { force: true });
    }
  });
});

describe("line rule", () => {
  it("splits at \\n, drops a \\r before it, keeps lone \\r inside a line", () => {
    expect(splitLines("")).toEqual([]);
    expect(splitLines("a\n")).toEqual(["a"]);
    expect(splitLines("a\r\nb")).toEqual(["a", "b"]);
    expect(splitLines("a\n\nb\n")).toEqual(["a", "", "b"]);
    expect(splitLines("a\rb\rc\r")).toEqual(["a\rb\rc"]);
  });
});
