/**
 * `Workspace.tryOpenFileSync` (used by search_code to re-read its hits) opens exactly the files
 * `Workspace.openFile` opens and refuses the rest, swaps between the check and the open included;
 * search_code's re-check, which decodes only the lines with hits, keeps every unchanged hit.
 */
import { execFileSync } from "node:child_process";
import { closeSync, linkSync, mkdirSync, readSync, renameSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchCode } from "../../src/evidence/search.js";
import { Workspace, kBeforeOpen } from "../../src/evidence/sandbox/workspace.js";
import { searchArgs } from "../helpers/evidence-args.js";
import { noteOf } from "../helpers/note.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let tmp: string;
let root: string;

beforeAll(() => {
  tmp = makeTempDir("codecite-open-sync-");
  root = path.join(tmp, "proj");
  putFile(root, "src/a.py", "needle = 1\n");
  putFile(root, "src/b.py", "b\n");
  putFile(root, ".env", "TOKEN=x\n");
  putFile(tmp, "outside/secret.txt", "outside\n");
  symlinkSync(path.join(tmp, "outside", "secret.txt"), path.join(root, "out-link.txt"));
  symlinkSync("a.py", path.join(root, "src", "alias.py"));
  linkSync(path.join(root, "src", "b.py"), path.join(root, "src", "b-hard.py"));
  execFileSync("mkfifo", [path.join(root, "pipe.py")]);
  mkdirSync(path.join(root, "folder.py"));
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The first bytes of an opened file, and closes it. */
function readOpened(ws: Workspace, rel: string): { rel: string; abs: string; size: number; text: string } | undefined {
  const f = ws.tryOpenFileSync(rel);
  if (f === undefined) return undefined;
  try {
    const buf = Buffer.alloc(64);
    const n = readSync(f.fd, buf, 0, buf.length, 0);
    return { rel: f.rel, abs: f.abs, size: f.size, text: buf.subarray(0, n).toString("utf8") };
  } finally {
    closeSync(f.fd);
  }
}

describe("Workspace.tryOpenFileSync", () => {
  it("opens a regular file inside the root, also through a link inside it", async () => {
    const ws = await Workspace.open(root);
    expect(readOpened(ws, "src/a.py")).toEqual({ rel: "src/a.py", abs: path.join(root, "src", "a.py"), size: 11, text: "needle = 1\n" });
    expect(readOpened(ws, "src/alias.py")).toEqual({ rel: "src/alias.py", abs: path.join(root, "src", "a.py"), size: 11, text: "needle = 1\n" });
  });

  it("gives undefined wherever openFile throws: denied, outside, missing, FIFO, folder, hard link", async () => {
    const ws = await Workspace.open(root);
    for (const rel of [".env", "out-link.txt", "src/missing.py", "pipe.py", "folder.py", "src/b-hard.py", "../outside/secret.txt"]) {
      expect(readOpened(ws, rel), rel).toBeUndefined();
      await expect(ws.openFile(rel), rel).rejects.toThrow();
    }
    expect(ws.skipped.denied).toBeGreaterThan(0);
    const allowed = await Workspace.open(root, { allowHardLinks: true });
    expect(readOpened(allowed, "src/b-hard.py")?.text).toBe("b\n");
  });

  it("never reads a file swapped for a link, or a folder swapped for a link, between check and open", async () => {
    const ws = await Workspace.open(root);
    const target = path.join(root, "src", "a.py");
    ws[kBeforeOpen] = () => {
      unlinkSync(target);
      symlinkSync(path.join(tmp, "outside", "secret.txt"), target);
    };
    expect(readOpened(ws, "src/a.py")).toBeUndefined();
    unlinkSync(target);
    putFile(root, "src/a.py", "needle = 1\n");
    ws[kBeforeOpen] = () => {
      renameSync(path.join(root, "src"), path.join(root, "src-old"));
      symlinkSync(path.join(tmp, "outside"), path.join(root, "src"));
      putFile(tmp, "outside/a.py", "outside a\n");
    };
    expect(readOpened(ws, "src/a.py")).toBeUndefined();
    unlinkSync(path.join(root, "src"));
    renameSync(path.join(root, "src-old"), path.join(root, "src"));
    ws[kBeforeOpen] = undefined;
    expect(readOpened(ws, "src/a.py")?.text).toBe("needle = 1\n");
  });
});

describe("search_code's re-check of the lines with hits", () => {
  it("keeps hits on lines with invalid UTF-8 before the line end, CRLF, a BOM and no final newline", async () => {
    const r = path.join(tmp, "lines");
    putFile(r, "bad.txt", Buffer.concat([Buffer.from("needle one \xc3"), Buffer.from([0xc3]), Buffer.from("\nplain\nneedle two "), Buffer.from([0xe2, 0x82]), Buffer.from("\r\n")]));
    putFile(r, "bom.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("needle first\nx\n\nneedle last")]));
    const res = await searchCode(await Workspace.open(r), searchArgs({ query: "needle" }));
    expect(res.evidence.map((e) => [e.path, e.start_line, e.snippet])).toEqual([
      ["bad.txt", 1, "needle one \u00c3\ufffd"],
      ["bad.txt", 3, "needle two \ufffd"],
      ["bom.txt", 1, "needle first"],
      ["bom.txt", 4, "needle last"],
    ]);
    expect(res.total).toBe(4);
    expect(noteOf(res) ?? "").not.toMatch(/left out/);
  });
});

describe("Workspace.readTextSync", () => {
  it("gives readText's text file for what readText reads, through a link inside the root too", async () => {
    putFile(root, "src/crlf.py", "\uFEFFa = 1\r\nb = 2\r\n");
    const ws = await Workspace.open(root);
    for (const rel of ["src/a.py", "src/alias.py", "src/crlf.py"]) expect(ws.readTextSync(rel), rel).toEqual(await ws.readText(rel));
    expect(ws.readTextSync("src/crlf.py")).toMatchObject({ lines: ["a = 1", "b = 2"], bom: true, crlf: true });
  });

  it("gives undefined wherever readText throws, counting nothing: readText then says why and counts once", async () => {
    putFile(root, "bin.py", "a\u0000b\n");
    putFile(root, "big.py", "x".repeat(200) + "\n");
    putFile(root, "key.py", `-----BEGIN RSA PRIVATE KEY-----\n${"MIIEowIBAAKCAQEA".repeat(3)}\n-----END RSA PRIVATE KEY-----\n`);
    const ws = await Workspace.open(root, { maxFileBytes: 150 });
    for (const rel of [".env", "out-link.txt", "src/missing.py", "pipe.py", "folder.py", "src/b-hard.py", "bin.py", "big.py", "key.py"]) {
      const before = { ...ws.skipped };
      expect(ws.readTextSync(rel), rel).toBeUndefined();
      expect(ws.skipped, rel).toEqual(before);
      await expect(ws.readText(rel), rel).rejects.toThrow();
    }
    expect(ws.skipped).toMatchObject({ binary: 1, tooLarge: 1 });
    expect(ws.skipped.denied).toBeGreaterThanOrEqual(3); // .env, the hard link, the key
  });
});
