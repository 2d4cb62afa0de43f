/**
 * search_code drops hits in Python virtual environments (folders holding `pyvenv.cfg`). Right
 * after the ignore-file scan, the folders it read are answered from its listing (issue 17);
 * a marker that is a symbolic link, and every folder once the listing is older than a few
 * seconds (a long-running workspace), are looked up again.
 */
import { rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { searchCode } from "../../src/evidence/search.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { searchArgs as s } from "../helpers/evidence-args.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let w: string;
beforeAll(() => {
  w = makeTempDir("codecite-venv-scan-");
});
afterAll(() => {
  rmSync(w, { recursive: true, force: true });
});

const paths = async (ws: Workspace) => (await searchCode(ws, s({ query: "needle" }))).evidence.map((e) => e.path);

describe("virtual environments in search", () => {
  it("drops hits under a folder holding pyvenv.cfg (a file or a link to one), keeps the others", async () => {
    const r = path.join(w, "tree");
    putFile(r, "app/main.py", "needle = 1\n");
    putFile(r, "tools/env1/pyvenv.cfg", "home = /usr/bin\n");
    putFile(r, "tools/env1/lib/site.py", "needle = 2\n");
    putFile(r, "shared.cfg", "home = /usr/bin\n");
    putFile(r, "env2/lib/mod.py", "needle = 3\n");
    symlinkSync("../shared.cfg", path.join(r, "env2", "pyvenv.cfg"));
    putFile(r, "env3/lib/mod.py", "needle = 4\n");
    symlinkSync("missing.cfg", path.join(r, "env3", "pyvenv.cfg")); // a dangling link marks nothing
    expect(await paths(await Workspace.open(r))).toEqual(["app/main.py", "env3/lib/mod.py"]);
  });

  it("a workspace whose scan is older than the listing's few seconds looks for the marker again", async () => {
    const r = path.join(w, "later");
    putFile(r, "a/x.py", "needle = 1\n");
    putFile(r, "b/x.py", "needle = 2\n");
    const ws = await Workspace.open(r);
    expect(await paths(ws)).toEqual(["a/x.py", "b/x.py"]);
    putFile(r, "b/pyvenv.cfg", "home = /usr/bin\n"); // after the scan, which runs once per workspace
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(now + 60_000);
    try {
      expect(await paths(ws)).toEqual(["a/x.py"]);
    } finally {
      clock.mockRestore();
    }
  });
});
