/**
 * The ignore-file scan's snapshot (`fact-cache/scan-snapshot.ts`, `Workspace.checkIgnoreFiles`):
 * a fresh workspace with the same cache folder takes unchanged folders from the snapshot instead
 * of reading them, and every promise of SECURITY.md still holds: an ignore file swapped for a
 * FIFO after the snapshot was made, in an old or a new folder, is refused before ripgrep runs; a
 * linked ignore file whose target became a FIFO (its own folder unchanged) is refused; the
 * snapshot is never kept inside the project nor read through a symbolic link.
 *
 * Folder ctimes cannot be set back, so the tree is made once and the test waits out the racy
 * window (2 s) before the snapshot it relies on is written.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kScanCounts, Workspace } from "../../src/evidence/sandbox/workspace.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let w: string;
let root: string;
let cache: string;

async function scan(dir = cache): Promise<{ ws: Workspace; error?: unknown }> {
  const ws = await Workspace.open(root, { scanCacheDir: dir });
  try {
    await ws.checkIgnoreFiles();
    return { ws };
  } catch (error) {
    return { ws, error };
  }
}

function snapshotFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".scan.json")) : [];
}

beforeAll(async () => {
  w = makeTempDir("codecite-scan-snap-");
  root = path.join(w, "proj");
  cache = path.join(w, "cache");
  putFile(root, ".gitignore", "build/\n");
  putFile(root, "src/app.py", "def main():\n    pass\n");
  putFile(root, "src/.gitignore", "*.tmp\n");
  putFile(root, "src/deep/x.py", "x = 1\n");
  putFile(root, "rules/ignore-rules", "*.log\n");
  putFile(root, "linked/a.py", "a = 1\n");
  symlinkSync("../rules/ignore-rules", path.join(root, "linked/.ignore"));
  putFile(root, "env1/pyvenv.cfg", "home = /usr/bin\n");
  putFile(root, "env1/lib/site.py", "s = 1\n");
  await new Promise((resolve) => setTimeout(resolve, 2100)); // the racy window of the folders' ctimes
}, 10_000);

afterAll(() => rmSync(w, { recursive: true, force: true }));

describe("ignore-file scan snapshot", () => {
  it("a second workspace reads no unchanged folder and sees what the first read", async () => {
    const first = await scan();
    expect(first.error).toBeUndefined();
    // root, src, src/deep, rules, linked, env1, env1/lib
    expect(first.ws[kScanCounts]).toEqual({ read: 7, reused: 0 });
    const files = snapshotFiles(cache);
    expect(files).toHaveLength(1);
    expect(lstatSync(path.join(cache, files[0] as string)).mode & 0o777).toBe(0o600);

    const second = await scan();
    expect(second.error).toBeUndefined();
    expect(second.ws[kScanCounts]).toEqual({ read: 0, reused: 7 });
    expect([...(second.ws.subfoldersSeen("", 0) ?? [])].sort()).toEqual(["env1", "linked", "rules", "src"]);
    expect(second.ws.subfoldersSeen("src", 0)).toEqual(["deep"]);
    const venv = await second.ws.virtualEnvFilter(["env1/lib/site.py", "src/app.py"]);
    expect([venv("env1/lib/site.py"), venv("src/app.py")]).toEqual([true, false]);
  });

  it("a snapshot that is not valid JSON is ignored and replaced", async () => {
    const dir = path.join(w, "cache-bad");
    await scan(dir);
    const [name] = snapshotFiles(dir);
    writeFileSync(path.join(dir, name as string), "{not json", { mode: 0o600 });
    const r = await scan(dir);
    expect(r.ws[kScanCounts]).toEqual({ read: 7, reused: 0 });
    expect((await scan(dir)).ws[kScanCounts]).toEqual({ read: 0, reused: 7 });
  });

  it("an ignore file swapped for a FIFO after the snapshot is refused; the folder is read again", async () => {
    await scan(); // the snapshot is current
    rmSync(path.join(root, "src/.gitignore"));
    execFileSync("mkfifo", [path.join(root, "src/.gitignore")]);
    try {
      const r = await scan();
      expect(r.error).toMatchObject({ code: "UNSUPPORTED" });
      expect((r.error as Error).message).toBe(
        "the ignore file src/.gitignore is a FIFO, not a regular file; it is never read, and searching would hang on it",
      );
    } finally {
      rmSync(path.join(root, "src/.gitignore"));
      putFile(root, "src/.gitignore", "*.tmp\n");
    }
    const again = await scan();
    expect(again.error).toBeUndefined();
    expect(again.ws[kScanCounts].read).toBeGreaterThanOrEqual(1);
  });

  it("a new folder holding a FIFO ignore file is read and refused", async () => {
    await scan();
    mkdirSync(path.join(root, "src/deep/new"));
    execFileSync("mkfifo", [path.join(root, "src/deep/new/.ignore")]);
    try {
      const r = await scan();
      expect((r.error as Error | undefined)?.message).toMatch(/^the ignore file src\/deep\/new\/\.ignore is a FIFO, not a regular file/);
    } finally {
      rmSync(path.join(root, "src/deep/new"), { recursive: true });
    }
    expect((await scan()).error).toBeUndefined();
  });

  it("a linked ignore file whose target became a FIFO is refused though its own folder is unchanged", async () => {
    await scan();
    const target = path.join(root, "rules/ignore-rules");
    renameSync(target, `${target}.bak`);
    execFileSync("mkfifo", [target]);
    try {
      const r = await scan();
      expect(r.error).toMatchObject({ code: "UNSUPPORTED" });
      expect((r.error as Error).message).toMatch(/^the ignore file linked\/\.ignore is a symbolic link, not a regular file/);
      expect(r.ws[kScanCounts].reused).toBeGreaterThan(0); // linked/ itself came from the snapshot
    } finally {
      rmSync(target);
      renameSync(`${target}.bak`, target);
    }
  });

  it("a changed listing is seen: a folder added after the snapshot is listed, a removed one is not", async () => {
    await scan();
    putFile(root, "src/added/y.py", "y = 1\n");
    try {
      const r = await scan();
      expect(r.ws.subfoldersSeen("src", 0)?.slice().sort()).toEqual(["added", "deep"]);
    } finally {
      rmSync(path.join(root, "src/added"), { recursive: true });
    }
    expect((await scan()).ws.subfoldersSeen("src", 0)).toEqual(["deep"]);
  });

  it("no snapshot is kept in a cache folder inside the project, and one reached through a link is not read", async () => {
    const inside = path.join(root, ".cache-inside");
    try {
      const r = await scan(inside);
      expect(r.error).toBeUndefined();
      expect(snapshotFiles(inside)).toEqual([]);
    } finally {
      rmSync(inside, { recursive: true, force: true });
    }

    const other = path.join(w, "cache-linked");
    await scan(other);
    const [name] = snapshotFiles(other);
    renameSync(path.join(other, name as string), path.join(w, "moved.json"));
    symlinkSync(path.join(w, "moved.json"), path.join(other, name as string));
    const r = await scan(other);
    expect(r.error).toBeUndefined();
    expect(r.ws[kScanCounts]).toEqual({ read: 7, reused: 0 });
  });

});
