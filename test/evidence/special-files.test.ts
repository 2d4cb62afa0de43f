/**
 * Special files in the tree (SECURITY.md "Paths and traversal"): FIFOs, a Unix socket, a device
 * node, a sparse 100 GB file, symbolic-link loops and a link to the folder itself. Every evidence
 * tool, through the tool registry the model and MCP use (the fact cache included), answers with
 * the real files' evidence or a typed error, and never waits on a FIFO or reads the sparse file's
 * 100 GB. ripgrep applies `--max-filesize` only to files it finds by walking, not to a file named
 * as its path (`rg --max-filesize=16M x ./big.txt` searches all of big.txt), so `search_code` with
 * `path` naming a file over 16 MiB is refused before ripgrep runs.
 */
import { execFileSync } from "node:child_process";
import { closeSync, ftruncateSync, mkdirSync, openSync, rmSync, symlinkSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let w: string;
let root: string;
let server: net.Server;
let device = false;

beforeAll(async () => {
  w = makeTempDir("codecite-special-");
  root = path.join(w, "proj");
  putFile(root, "src/main.py", "from util import helper\n\ndef main():\n    return helper()\n");
  putFile(root, "src/util.py", "def helper():\n    return 1\n");
  execFileSync("mkfifo", [path.join(root, "src/fifo.py")]);
  execFileSync("mkfifo", [path.join(root, "src/pipe.txt")]);
  // 100 GB of holes: a reader that does not stop reads zeros for minutes.
  const fd = openSync(path.join(root, "src/sparse.py"), "w");
  ftruncateSync(fd, 100 * 1024 ** 3);
  closeSync(fd);
  symlinkSync("loop2", path.join(root, "src/loop1"));
  symlinkSync("loop1", path.join(root, "src/loop2"));
  symlinkSync(".", path.join(root, "src/self"));
  mkdirSync(path.join(root, "deep"));
  symlinkSync("../deep", path.join(root, "deep/again"));
  server = net.createServer();
  await new Promise<void>((resolve) => server.listen(path.join(root, "src/sock.py"), resolve));
  try {
    execFileSync("mknod", [path.join(root, "src/zero.py"), "c", "1", "5"], { stdio: "ignore" });
    device = true;
  } catch {
    device = false; // not root: no device node
  }
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(w, { recursive: true, force: true });
});

const call = async (name: string, args: Record<string, unknown>) => {
  const res = await createCodeToolRegistry().dispatch({ name, arguments: args }, { workspace: await Workspace.open(root) });
  return res as { ok: boolean; error?: { code: string; message: string }; evidence?: { path: string; start_line: number }[] };
};

describe("special files in the tree", () => {
  it("search, symbols, references and importers over the whole tree find the real files only", async () => {
    const search = await call("search_code", { query: "helper" });
    expect(search.ok, JSON.stringify(search)).toBe(true);
    expect([...new Set(search.evidence!.map((e) => e.path))].sort()).toEqual(["src/main.py", "src/util.py"]);
    const sym = await call("find_symbol", { name: "helper" });
    expect(sym.evidence!.map((e) => `${e.path}:${e.start_line}`)).toEqual(["src/util.py:1"]);
    const refs = await call("find_references", { name: "helper" });
    expect(refs.ok, JSON.stringify(refs)).toBe(true);
    expect(refs.evidence!.map((e) => `${e.path}:${e.start_line}`)).toEqual(["src/main.py:1", "src/main.py:4"]);
    const imp = await call("find_importers", { module_name: "src/util.py" });
    expect(imp.evidence!.map((e) => `${e.path}:${e.start_line}`)).toEqual(["src/main.py:1"]);
  });

  it.each([
    ["src/fifo.py", "INVALID_ARGUMENT", /is not a regular file/],
    ["src/sock.py", "INVALID_ARGUMENT", /is not a regular file/],
    ["src/sparse.py", "UNSUPPORTED", /binary file/],
    ["src/loop1", "NOT_FOUND", /too many symbolic links/],
  ])("read_evidence %s: %s", async (p, code, message) => {
    const res = await call("read_evidence", { path: p });
    expect(res.error?.code, JSON.stringify(res)).toBe(code);
    expect(res.error?.message).toMatch(message);
  });

  it("a device node is never opened: read_evidence and search_code refuse it", async () => {
    if (!device) return; // mknod needs root
    expect((await call("read_evidence", { path: "src/zero.py" })).error?.code).toBe("INVALID_ARGUMENT");
    expect((await call("search_code", { query: "x", path: "src/zero.py" })).error?.code).toBe("INVALID_ARGUMENT");
  });

  it("search_code and find_symbol with path naming a FIFO or socket: INVALID_ARGUMENT, no wait", async () => {
    for (const p of ["src/fifo.py", "src/pipe.txt", "src/sock.py"]) {
      expect((await call("search_code", { query: "x", path: p })).error?.code).toBe("INVALID_ARGUMENT");
    }
    const sym = await call("find_symbol", { name: "helper", path: "src/fifo.py" });
    expect(sym.ok === false ? sym.error?.code : "no error").toBe("INVALID_ARGUMENT");
  });

  it("search_code with path naming the sparse 100 GB file: UNSUPPORTED over 16 MiB, before ripgrep reads it", async () => {
    const res = await call("search_code", { query: "helper", path: "src/sparse.py" });
    expect(res.error?.code, JSON.stringify(res)).toBe("UNSUPPORTED");
    expect(res.error?.message).toMatch(/src\/sparse\.py is over 16 MiB \(107374182400 bytes\) and is not searched/);
  });

  it("a link to its own folder is read once by its own name, and walks do not loop", async () => {
    const res = await call("read_evidence", { path: "src/self/self/self/util.py" });
    expect(res.ok, JSON.stringify(res)).toBe(true);
    const search = await call("search_code", { query: "helper", path: "deep" });
    expect(search.ok).toBe(true);
    expect(search.evidence).toEqual([]);
  });
});
