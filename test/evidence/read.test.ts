import { rmSync } from "node:fs";
import { noteOf } from "../helpers/note.js";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError } from "../../src/evidence/evidence.js";
import { MAX_READ_CHARS, MAX_READ_LINE_CHARS, MAX_READ_LINES, readEvidence } from "../../src/evidence/read.js";
import { searchCode } from "../../src/evidence/search.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import type { ReadEvidenceArgs } from "../../src/tools/code-tools.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";
import { toolErrorOf } from "../helpers/tool-error.js";

let tmp: string;
let root: string;
let ws: Workspace;

const put = (rel: string, content: string | Buffer): void => putFile(root, rel, content);

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

const err = (a: ReadEvidenceArgs): Promise<ToolError> => toolErrorOf(readEvidence(ws, a));

beforeAll(async () => {
  tmp = makeTempDir("codecite-read-");
  root = path.join(tmp, "proj");
  put("src/main.py", "import os\n\n\ndef main():\n    print('hi')\n");
  put("big.txt", numbered(250));
  put("huge.txt", numbered(1200));
  put("wide.txt", Array.from({ length: 40 }, () => "w".repeat(900)).join("\n") + "\n");
  put("empty.txt", "");
  put("nonl.txt", "a\nb");
  put("crlf.txt", "\uFEFFfirst\r\nsecond needle\r\nthird\r\n");
  put("cr-only.txt", "alpha\rbeta needle\rgamma\r");
  put("utf16.txt", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("first\nsecond needle\n", "utf16le")]));
  put("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  put("min.js", `${"m".repeat(3000)}\n`);
  put("hidden.md", "normal\nsee \u{E0041}\u{E0042} tags\n");
  put("logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
  ws = await Workspace.open(root);
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("readEvidence", () => {
  it("returns the exact lines as one source record", async () => {
    const r = await readEvidence(ws, { path: "src/main.py", start_line: 4, end_line: 5 });
    expect(r).toEqual({
      evidence: [
        {
          path: "src/main.py",
          start_line: 4,
          end_line: 5,
          kind: "source",
          name: "src/main.py",
          snippet: "def main():\n    print('hi')",
        },
      ],
      total: 1,
      truncated: false,
    });
  });

  it("reads a whole small file by default", async () => {
    const r = await readEvidence(ws, { path: "./src//main.py" });
    expect(r.evidence[0]).toMatchObject({ path: "src/main.py", start_line: 1, end_line: 5 });
    expect(r.evidence[0]?.snippet).toBe("import os\n\n\ndef main():\n    print('hi')");
    expect(r.truncated).toBe(false);
    expect(noteOf(r)).toBeUndefined();
  });

  it("uses a default window of 200 lines and says how to read on", async () => {
    const r = await readEvidence(ws, { path: "big.txt" });
    expect(r.evidence[0]).toMatchObject({ start_line: 1, end_line: 200 });
    expect(r.evidence[0]?.snippet.split("\n")).toHaveLength(200);
    expect(r.evidence[0]?.snippet.split("\n")[199]).toBe("line 200");
    expect(r.truncated).toBe(true);
    expect(noteOf(r)).toBe("Showing lines 1-200 of 250; read on with start_line=201.");
    const next = await readEvidence(ws, { path: "big.txt", start_line: 201 });
    expect(next.evidence[0]).toMatchObject({ start_line: 201, end_line: 250 });
    expect(next.truncated).toBe(false);
  });

  it("clamps end_line to the file length and enforces the span cap", async () => {
    const clamped = await readEvidence(ws, { path: "big.txt", start_line: 248, end_line: 1e12 });
    expect(clamped.evidence[0]).toMatchObject({ start_line: 248, end_line: 250, snippet: "line 248\nline 249\nline 250" });
    expect(noteOf(clamped)).toBe("end_line 1000000000000 clamped to the last line 250.");
    expect(clamped.truncated).toBe(false);
    const span = await readEvidence(ws, { path: "huge.txt", start_line: 1, end_line: 1200 });
    expect(span.evidence[0]).toMatchObject({ start_line: 1, end_line: MAX_READ_LINES });
    expect(span.truncated).toBe(true);
    expect(noteOf(span)).toContain(`read on with start_line=${MAX_READ_LINES + 1}`);
  });

  it("stops at the character budget on whole lines", async () => {
    const r = await readEvidence(ws, { path: "wide.txt", start_line: 1, end_line: 40 });
    const e = r.evidence[0];
    const lines = Math.floor((MAX_READ_CHARS + 1) / 901);
    expect(e).toMatchObject({ start_line: 1, end_line: lines });
    expect(e?.snippet.length).toBeLessThanOrEqual(MAX_READ_CHARS);
    expect(r.truncated).toBe(true);
    expect(noteOf(r)).toContain(`read on with start_line=${lines + 1}`);
  });

  it("cuts over-long lines and flags them", async () => {
    const r = await readEvidence(ws, { path: "min.js" });
    expect(r.evidence[0]?.snippet).toBe("m".repeat(MAX_READ_LINE_CHARS));
    expect(r.evidence[0]?.flags).toEqual(["truncated"]);
    expect(r.truncated).toBe(true);
  });

  it("validates the range", async () => {
    expect((await err({ path: "big.txt", start_line: 0 })).message).toBe(
      "start_line must be at least 1 (got 0); lines are 1-based",
    );
    expect((await err({ path: "big.txt", start_line: -5 })).code).toBe("INVALID_ARGUMENT");
    expect((await err({ path: "big.txt", start_line: 10, end_line: 5 })).message).toBe(
      "end_line (5) is before start_line (10)",
    );
    expect((await err({ path: "big.txt", start_line: 2.5 })).code).toBe("INVALID_ARGUMENT");
    expect((await err({ path: "big.txt", end_line: Number.NaN })).code).toBe("INVALID_ARGUMENT");
    const past = await err({ path: "big.txt", start_line: 300 });
    expect(past.code).toBe("INVALID_ARGUMENT");
    expect(past.message).toBe("start_line (300) is past the end of big.txt (250 lines)");
  });

  it("handles empty files and a last line without a newline", async () => {
    expect(await readEvidence(ws, { path: "empty.txt" })).toEqual({
      evidence: [],
      total: 0,
      truncated: false,
      note: [[{ kind: "location", path: "empty.txt" }, " is empty (0 lines)."]],
    });
    expect((await readEvidence(ws, { path: "nonl.txt" })).evidence[0]).toMatchObject({ end_line: 2, snippet: "a\nb" });
  });

  it("gives the same line numbers as search_code for CRLF, CR-only, BOM and UTF-16 files", async () => {
    const hits = await searchCode(ws, { query: "needle", regex: false, max_results: 50 });
    expect(hits.evidence.map((e) => [e.path, e.start_line, e.snippet])).toEqual([
      ["cr-only.txt", 1, "alpha\nbeta needle\ngamma"],
      ["crlf.txt", 2, "second needle"],
      ["utf16.txt", 2, "second needle"],
    ]);
    for (const h of hits.evidence) {
      const r = await readEvidence(ws, { path: h.path, start_line: h.start_line, end_line: h.start_line });
      expect(r.evidence[0]?.snippet).toBe(h.snippet);
    }
    const first = await readEvidence(ws, { path: "crlf.txt", start_line: 1, end_line: 1 });
    expect(first.evidence[0]?.snippet).toBe("first");
    const cr = await readEvidence(ws, { path: "cr-only.txt" });
    expect(cr.evidence[0]).toMatchObject({ start_line: 1, end_line: 1, flags: ["bare_cr"] });
  });

  it("decodes invalid UTF-8 with U+FFFD and flags invisible characters", async () => {
    expect((await readEvidence(ws, { path: "latin1.txt" })).evidence[0]?.snippet).toBe("caf\uFFFD");
    const h = await readEvidence(ws, { path: "hidden.md" });
    expect(h.evidence[0]?.flags).toEqual(["invisible_unicode"]);
    expect(h.evidence[0]?.snippet).toBe("normal\nsee \u{E0041}\u{E0042} tags");
  });

  it("refuses binary files and directories", async () => {
    const bin = await err({ path: "logo.png" });
    expect(bin.code).toBe("UNSUPPORTED");
    expect(bin.message).toContain("binary");
    expect((await err({ path: "src" })).code).toBe("INVALID_ARGUMENT");
    expect((await err({ path: "missing.py" })).code).toBe("NOT_FOUND");
  });

  it("a mistyped path names the close paths that exist (never a denied one)", async () => {
    put("src/.env", "TOKEN=x\n");
    put("src/.enc", "x\n");
    const file = await err({ path: "src/mian.py" });
    expect(file.code).toBe("NOT_FOUND");
    expect(file.message).toBe("no such file: src/mian.py");
    expect(file.hint).toBe("Did you mean 'src/main.py'? Check the path with search_code or find_symbol.");
    // A mistyped folder: the rest of the path is kept.
    expect((await err({ path: "scr/main.py" })).hint).toBe("Did you mean 'src/main.py'? Check the path with search_code or find_symbol.");
    // `.env` is denied: `.enc` (as close) is offered, `.env` never.
    expect((await err({ path: "src/.enx" })).hint).toBe("Did you mean 'src/.enc'? Check the path with search_code or find_symbol.");
    // Nothing close: the plain hint.
    expect((await err({ path: "src/zzzzzzzz.py" })).hint).toBe("Check the path with search_code or find_symbol.");
  });
});
