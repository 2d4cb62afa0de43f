/**
 * Bad tool arguments from a model reach the evidence functions through the registry and come
 * back as tool error envelopes (`{ok:false,error:{code,message,hint?}}`), never as exceptions
 * (a rejected input is a typed tool error, no file content, and the process stays alive).
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let w: string;
let ws: Workspace;

beforeAll(async () => {
  w = makeTempDir("codecite-envelope-");
  putFile(w, "outside/secret.txt", "TOPSECRET\n");
  putFile(w, "proj/src/a.ts", "export const a = 1;\n");
  ws = await Workspace.open(path.join(w, "proj"));
});

afterAll(() => {
  rmSync(w, { recursive: true, force: true });
});

describe("bad input through the registry", () => {
  it.each([
    ["read_evidence", { path: "../outside/secret.txt" }, "OUTSIDE_ROOT"],
    ["read_evidence", { path: "/etc/passwd" }, "OUTSIDE_ROOT"],
    ["read_evidence", { path: "src/a.ts\u0000.png" }, "INVALID_ARGUMENT"],
    ["read_evidence", { path: "src/a.ts", start_line: 0 }, "INVALID_ARGUMENT"],
    ["read_evidence", { path: "src/a.ts", start_line: 5, end_line: 2 }, "INVALID_ARGUMENT"],
    ["read_evidence", { path: ".env" }, "DENIED"],
    ["read_evidence", { path: "~/.bashrc" }, "NOT_FOUND"],
    ["search_code", { query: "TOPSECRET", path: "../outside" }, "OUTSIDE_ROOT"],
    ["search_code", { query: "x", glob: "../**" }, "INVALID_ARGUMENT"],
    ["search_code", { query: "foo(?!bar)", regex: true }, "INVALID_ARGUMENT"],
    ["search_code", { query: "x", max_results: 10_000 }, "INVALID_ARGUMENT"],
    ["read_git_diff", { base: "--output=/tmp/pwn" }, "INVALID_ARGUMENT"],
    ["read_git_diff", { path: ":(top)" }, "INVALID_ARGUMENT"],
    ["read_git_diff", {}, "UNSUPPORTED"],
    ["no_such_tool", {}, "UNKNOWN_TOOL"],
  ])("%s %j → %s", async (name, args, code) => {
    const res = await createCodeToolRegistry().dispatch({ name, arguments: args }, { workspace: ws });
    expect(res.ok).toBe(false);
    expect(res).toMatchObject({ ok: false, error: { code } });
    expect(JSON.stringify(res)).not.toContain("TOPSECRET");
  });

  it("a valid call still works after the bad ones", async () => {
    const res = await createCodeToolRegistry().dispatch(
      { name: "read_evidence", arguments: '{"path":"src/a.ts"}' },
      { workspace: ws },
    );
    expect(res).toEqual({
      ok: true,
      evidence: [{ path: "src/a.ts", start_line: 1, end_line: 1, kind: "source", name: "src/a.ts", snippet: "export const a = 1;" }],
      total: 1,
      truncated: false,
    });
  });
});
