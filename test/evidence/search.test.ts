import fs, { rmSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { noteOf } from "../helpers/note.js";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "../../src/evidence/evidence.js";
import { searchCode } from "../../src/evidence/search.js";
import { DEFAULT_LINE_CHARS } from "../../src/evidence/budget.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import type { SearchCodeArgs } from "../../src/tools/code-tools.js";
import { searchArgs as args } from "../helpers/evidence-args.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let tmp: string;
let root: string;
let ws: Workspace;

const put = (rel: string, content: string | Buffer): void => putFile(root, rel, content);


beforeAll(async () => {
  tmp = makeTempDir("codecite-search-");
  root = path.join(tmp, "proj");
  put("src/app.py", "import os\n\ndef load_index(path):\n    return open(path)\n\nLoad_Index = 2\n");
  put("src/util.ts", "export function loadIndex() {}\nconst re = /a_b/;\n");
  put("lib/z.ts", "load_index()\n");
  put("lib/a.ts", "load_index()\nload_index()\n");
  put("docs/notes.md", "use a.b here\n");
  put("crlf.txt", "one\r\ntwo load_index\r\n");
  put("min.js", `${"x".repeat(5000)}load_index${"y".repeat(5000)}\n`);
  put("bidi.ts", "const ok = 1; // \u202Eevil\u202C load_index\n");
  put(".env", "load_index=secret\n");
  put("bin.dat", Buffer.concat([Buffer.from("load_index\n"), Buffer.from([0, 1, 2])]));
  ws = await Workspace.open(root);
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("searchCode", () => {
  it("returns one match record per line, sorted by path then line", async () => {
    const r = await searchCode(ws, args({ query: "load_index", case_sensitive: true }));
    expect(r.evidence.map((e) => [e.path, e.start_line])).toEqual([
      ["bidi.ts", 1],
      ["crlf.txt", 2],
      ["lib/a.ts", 1],
      ["lib/a.ts", 2],
      ["lib/z.ts", 1],
      ["min.js", 1],
      ["src/app.py", 3],
    ]);
    expect(r.total).toBe(7);
    const app = r.evidence.find((e) => e.path === "src/app.py");
    expect(app).toEqual({
      path: "src/app.py",
      start_line: 3,
      end_line: 3,
      kind: "match",
      name: "load_index",
      snippet: "def load_index(path):",
    });
    // CRLF: no \r in the snippet
    expect(r.evidence.find((e) => e.path === "crlf.txt")?.snippet).toBe("two load_index");
  });

  it("is literal by default and regex on request", async () => {
    const lit = await searchCode(ws, args({ query: "a.b" }));
    expect(lit.evidence.map((e) => e.path)).toEqual(["docs/notes.md"]);
    const re = await searchCode(ws, args({ query: "a.b", regex: true }));
    expect(re.evidence.map((e) => e.path)).toEqual(["docs/notes.md", "src/util.ts"]);
    const def = await searchCode(ws, args({ query: "^def \\w+\\(", regex: true }));
    expect(def.evidence.map((e) => `${e.path}:${e.start_line}`)).toEqual(["src/app.py:3"]);
  });

  it("uses smart case unless case_sensitive is given", async () => {
    const smart = await searchCode(ws, args({ query: "load_index", path: "src" }));
    expect(smart.evidence.map((e) => e.start_line)).toEqual([3, 6]);
    const upper = await searchCode(ws, args({ query: "Load_Index", path: "src" }));
    expect(upper.evidence.map((e) => e.start_line)).toEqual([6]);
    const ci = await searchCode(ws, args({ query: "LOAD_INDEX", path: "src", case_sensitive: false }));
    expect(ci.evidence.map((e) => e.start_line)).toEqual([3, 6]);
  });

  it("limits by path and glob", async () => {
    const byPath = await searchCode(ws, args({ query: "load_index", path: "lib/z.ts" }));
    expect(byPath.evidence.map((e) => e.path)).toEqual(["lib/z.ts"]);
    const byGlob = await searchCode(ws, args({ query: "load_index", glob: "*.ts", case_sensitive: true }));
    expect(byGlob.evidence.map((e) => e.path)).toEqual(["bidi.ts", "lib/a.ts", "lib/a.ts", "lib/z.ts"]);
    const deep = await searchCode(ws, args({ query: "load", glob: "src/**/*.py" }));
    expect(deep.evidence.map((e) => e.path)).toEqual(["src/app.py", "src/app.py"]);
  });

  it("caps the records, keeps the true total and says how to narrow", async () => {
    const r = await searchCode(ws, args({ query: "load_index", max_results: 2, case_sensitive: true }));
    expect(r.evidence.map((e) => [e.path, e.start_line])).toEqual([
      ["bidi.ts", 1],
      ["crlf.txt", 2],
    ]);
    expect(r.total).toBe(7);
    expect(r.truncated).toBe(true);
    expect(noteOf(r)).toContain("showing 2 of 7 matching lines");
    expect(noteOf(r)).toContain("Narrow the search with path or glob, or a more specific query. Or raise max_results to see more.");
  });

  it("stops ripgrep at the collection cap and still returns the first records in path order", async () => {
    for (let run = 0; run < 2; run++) {
      const r = await searchCode(ws, args({ query: "load_index", max_results: 3, case_sensitive: true }), undefined, {
        collectCap: 2,
      });
      expect(r.evidence.map((e) => [e.path, e.start_line])).toEqual([
        ["bidi.ts", 1],
        ["crlf.txt", 2],
        ["lib/a.ts", 1],
      ]);
      expect(r.truncated).toBe(true);
      expect(noteOf(r)).toContain("more than 2 matching lines");
    }
  });

  it("cuts long lines around the match and flags them", async () => {
    const r = await searchCode(ws, args({ query: "load_index", path: "min.js" }));
    const e = r.evidence[0];
    expect(e?.start_line).toBe(1);
    expect(e?.flags).toEqual(["truncated"]);
    expect(e?.snippet.length).toBe(DEFAULT_LINE_CHARS);
    expect(e?.snippet).toContain("load_index");
    expect(r.truncated).toBe(true);
  });

  it("flags invisible and bidi characters", async () => {
    const r = await searchCode(ws, args({ query: "evil" }));
    expect(r.evidence).toHaveLength(1);
    expect(r.evidence[0]?.flags).toEqual(["invisible_unicode"]);
    expect(r.evidence[0]?.snippet).toBe("const ok = 1; // \u202Eevil\u202C load_index");
  });

  it("never returns denied or binary files", async () => {
    const r = await searchCode(ws, args({ query: "load_index" }));
    expect(r.evidence.map((e) => e.path)).not.toContain(".env");
    expect(r.evidence.map((e) => e.path)).not.toContain("bin.dat");
    expect(await searchCode(ws, args({ query: "secret" }))).toMatchObject({ evidence: [], total: 0 });
  });

  it("says why a result is empty", async () => {
    const r = await searchCode(ws, args({ query: "no_such_text(" }));
    expect(r).toMatchObject({ evidence: [], total: 0, truncated: false });
    expect(noteOf(r)).toMatch(/^No match for "no_such_text\(" \(\d+ files searched;/);
    expect(noteOf(r)).toContain("set regex to true");
  });

  it("a regex with no match: the note shows the query as typed and says what its text matches as plain text", async () => {
    // `(path)` is a group in a regex: it matches `load_indexpath`, which no file has; the parentheses are in src/app.py:3.
    const grouped = await searchCode(ws, args({ query: "def load_index(path)", regex: true }));
    expect(grouped).toMatchObject({ evidence: [], total: 0 });
    expect(noteOf(grouped)).toMatch(
      /^No match for "def load_index\(path\)" \(\d+ files searched; [^)]*\)\. As plain text, "def load_index\(path\)" matches 1 line: set regex to false and search for that \(in a regex, \( \) group, and \. \* \+ \? \[ \] \{ \} \| \^ \$ \\ are operators\)\.$/,
    );
    // Backslashes appear once, as typed (JSON quoting showed `\\(`); the text `return open(*path)` is nowhere either.
    const escaped = await searchCode(ws, args({ query: "return open\\(\\*path\\)", regex: true }));
    expect(noteOf(escaped)).toMatch(/^No match for "return open\\\(\\\*path\\\)" \(/);
    expect(noteOf(escaped)).toMatch(/ In a regex, \( \) group, and \. \* \+ \? \[ \] \{ \} \| \^ \$ \\ are operators: put \\ before one to match it as text, or set regex to false to match the query as plain text\.$/);
    // A regex without operators gets neither.
    expect(noteOf(await searchCode(ws, args({ query: "no_such_text", regex: true })))).not.toContain("plain text");
  });

  it("turns regex errors into INVALID_ARGUMENT with a hint", async () => {
    const err = await searchCode(ws, args({ query: "foo(?!bar)", regex: true })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).code).toBe("INVALID_ARGUMENT");
    expect((err as ToolError).message).toContain("look-around");
    expect((err as ToolError).hint).toContain("Look-around is not supported");
    const unclosed = await searchCode(ws, args({ query: "(abc", regex: true })).catch((e: unknown) => e);
    expect((unclosed as ToolError).code).toBe("INVALID_ARGUMENT");
  });

  it("validates path, glob and query", async () => {
    const code = async (a: SearchCodeArgs) => ((await searchCode(ws, a).catch((e: unknown) => e)) as ToolError).code;
    expect(await code(args({ query: "x", path: "../x" }))).toBe("OUTSIDE_ROOT");
    expect(await code(args({ query: "x", path: "nope" }))).toBe("NOT_FOUND");
    expect(await code(args({ query: "x", path: ".env" }))).toBe("DENIED");
    expect(await code(args({ query: "x", glob: "../**" }))).toBe("INVALID_ARGUMENT");
    const badGlob = (await searchCode(ws, args({ query: "x", glob: "[" })).catch((e: unknown) => e)) as ToolError;
    expect(badGlob.code).toBe("INVALID_ARGUMENT");
    expect(badGlob.message).toContain("error parsing glob");
    expect(badGlob.hint).toContain("glob syntax");
    expect(await code(args({ query: "a\nb" }))).toBe("INVALID_ARGUMENT");
    expect(await code(args({ query: "" }))).toBe("INVALID_ARGUMENT");
  });

  it("honours an abort signal", async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await searchCode(ws, args({ query: "x" }), ac.signal).catch((e: unknown) => e);
    expect((err as ToolError).code).toBe("TIMEOUT");
  });
});

describe("searchCode opens each file with hits once", () => {
  it("the binary check and the verification of a file's hits share one open (perf, issue 17)", async () => {
    // Counts opens of the tree's files by path (search.ts and the Workspace import openSync from node:fs;
    // syncBuiltinESMExports makes the ES module bindings follow the patched function).
    const opened = new Map<string, number>();
    const real = fs.openSync;
    fs.openSync = ((p: fs.PathLike, ...rest: unknown[]) => {
      const rel = path.relative(root, String(p));
      if (!rel.startsWith("..")) opened.set(rel, (opened.get(rel) ?? 0) + 1);
      return (real as (...a: unknown[]) => number)(p, ...rest);
    }) as typeof fs.openSync;
    syncBuiltinESMExports();
    let res;
    try {
      res = await searchCode(ws, args({ query: "load_index" }));
    } finally {
      fs.openSync = real;
      syncBuiltinESMExports();
    }
    expect(res.evidence.map((e) => e.path)).toEqual(["bidi.ts", "crlf.txt", "lib/a.ts", "lib/a.ts", "lib/z.ts", "min.js", "src/app.py", "src/app.py"]);
    // bin.dat is skipped by ripgrep itself (a NUL in its first buffer): never opened here.
    expect(Object.fromEntries([...opened].sort())).toEqual({ "bidi.ts": 1, "crlf.txt": 1, "lib/a.ts": 1, "lib/z.ts": 1, "min.js": 1, "src/app.py": 1 });
  });
});
