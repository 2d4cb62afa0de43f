/**
 * Tool arguments from a model that look like command-line options (SECURITY.md "Programs"):
 * ripgrep and git get every path after `--` and every pattern as `--regexp=`/`--glob=` values, so
 * `-e`, `--pre=…`, `--files` and `--output=…` are text: a path names a file (here files named
 * `-e` and `--pre=cat.py` exist and are searched as such), a query is searched for literally, a
 * glob matches names, and no program named in an argument runs.
 */
import { chmodSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { commitAll, git } from "../helpers/git.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let w: string;
let root: string;
let marker: string;

beforeAll(() => {
  w = makeTempDir("codecite-option-injection-");
  root = path.join(w, "proj");
  marker = path.join(w, "ran");
  putFile(root, "-e", "dash_e_text --files\n");
  putFile(root, "--pre=cat.py", "def dash_pre():\n    return '--output=x'\n");
  putFile(root, "cat.py", `#!/bin/sh\necho ran > ${JSON.stringify(marker)}\n`);
  chmodSync(path.join(root, "cat.py"), 0o755);
  git(root, "init", "-q", "-b", "main");
  commitAll(root, "init");
  putFile(root, "-e", "dash_e_text --files\nchanged\n");
});
afterAll(() => rmSync(w, { recursive: true, force: true }));

type Res = { ok: boolean; error?: { code: string; message: string }; evidence?: { path: string; start_line: number }[] };
const call = async (name: string, args: Record<string, unknown>) =>
  (await createCodeToolRegistry().dispatch({ name, arguments: args }, { workspace: await Workspace.open(root) })) as Res;
const at = (r: Res) => (r.evidence ?? []).map((e) => `${e.path}:${e.start_line}`);

describe("arguments that look like options", () => {
  it("search_code: a path '-e' or '--pre=cat.py' is that file; a query '--files' is text; a glob '--pre=cat.py' matches that name", async () => {
    expect(at(await call("search_code", { query: "dash", path: "-e" }))).toEqual(["-e:1"]);
    expect(at(await call("search_code", { query: "dash", path: "--pre=cat.py" }))).toEqual(["--pre=cat.py:1"]);
    expect(at(await call("search_code", { query: "--files" }))).toEqual(["-e:1"]);
    expect(at(await call("search_code", { query: "--output=x" }))).toEqual(["--pre=cat.py:2"]);
    expect(at(await call("search_code", { query: "dash", glob: "--pre=cat.py" }))).toEqual(["--pre=cat.py:1"]);
    expect(existsSync(marker)).toBe(false);
  });

  it("read_evidence, find_symbol and find_references name the files, not options", async () => {
    expect(at(await call("read_evidence", { path: "-e" }))).toEqual(["-e:1"]);
    expect(at(await call("find_symbol", { name: "dash_pre", path: "--pre=cat.py" }))).toEqual(["--pre=cat.py:1"]);
    // The file `-e` has no parser: the typed answer names it as a path.
    const refs = await call("find_references", { name: "dash_pre", path: "-e" });
    expect(refs.error?.code, JSON.stringify(refs)).toBe("NOT_FOUND");
    expect(refs.error?.message).toMatch(/^No source files under -e in a language with a parser/);
    expect(existsSync(marker)).toBe(false);
  });

  it("read_git_diff: path '-e' is the changed file; a ref '--output=…' is INVALID_ARGUMENT and writes nothing", async () => {
    const diff = await call("read_git_diff", { path: "-e" });
    expect(at(diff)).toEqual(["-e:1"]);
    const out = path.join(w, "written");
    const bad = await call("read_git_diff", { base: `--output=${out}` });
    expect(bad.error?.code).toBe("INVALID_ARGUMENT");
    expect(existsSync(out)).toBe(false);
  });
});
