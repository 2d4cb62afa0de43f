import { describe, expect, it } from "vitest";
import { checkCitations, extractCitations } from "../../src/agent/grounding.js";
import type { Evidence } from "../../src/evidence/evidence.js";

const ev = (path: string, start_line: number, end_line = start_line): Evidence => ({
  path,
  start_line,
  end_line,
  kind: "source",
  name: path,
  snippet: "x",
});

const loc = (answer: string) => extractCitations(answer).map((c) => [c.path, c.line, c.end_line]);

describe("extractCitations", () => {
  it.each<[string, Array<[string, number, number]>]>([
    ["See src/rag_chat.py:10 for the import.", [["src/rag_chat.py", 10, 10]]],
    ["Defined at src/a.py:10-12.", [["src/a.py", 10, 12]]],
    ["Defined at src/a.py:10–12 and src/b.ts:3:7.", [["src/a.py", 10, 12], ["src/b.ts", 3, 3]]],
    ["Ends the sentence: src/build_index.py:4.", [["src/build_index.py", 4, 4]]],
    ["src/build_index.py (line 4) imports it", [["src/build_index.py", 4, 4]]],
    ["src/a.py (lines 4-6)", [["src/a.py", 4, 6]]],
    ["src/a.py (Line 7)", [["src/a.py", 7, 7]]],
    ["src/rag_chat.py（第 10 行）直接匯入", [["src/rag_chat.py", 10, 10]]],
    ["src/rag_chat.py (第10-12行)", [["src/rag_chat.py", 10, 12]]],
    ["在 src/rag_chat.py 第 10 行", [["src/rag_chat.py", 10, 10]]],
    ["src/rag_chat.py#L10", [["src/rag_chat.py", 10, 10]]],
    ["[link](src/rag_chat.py#L10-L12)", [["src/rag_chat.py", 10, 12]]],
    ["src/rag_chat.py#L10-12", [["src/rag_chat.py", 10, 12]]],
    ["in src/a.py, line 4", [["src/a.py", 4, 4]]],
    ["in src/a.py line 4", [["src/a.py", 4, 4]]],
    ["`src/chat_reranker.py`:6", [["src/chat_reranker.py", 6, 6]]],
    ["`src/chat_reranker.py:6`", [["src/chat_reranker.py", 6, 6]]],
    ["`src/chat_reranker.py` (line 6)", [["src/chat_reranker.py", 6, 6]]],
    ["./src/a.py:3 and src\\win\\b.py:4", [["src/a.py", 3, 3], ["src/win/b.py", 4, 4]]],
    ["rag_common.py:1 only a file name", [["rag_common.py", 1, 1]]],
    ["- src/build_index.py:4\n- src/chat_reranker.py:6\n- src/chat_reranker_guarded.py:6\n- src/rag_chat.py:10", [
      ["src/build_index.py", 4, 4],
      ["src/chat_reranker.py", 6, 6],
      ["src/chat_reranker_guarded.py", 6, 6],
      ["src/rag_chat.py", 10, 10],
    ]],
    ["src/a.py:12-10 reversed", [["src/a.py", 10, 12]]],
    ["src/a.py:4 twice: src/a.py:4", [["src/a.py", 4, 4]]],
    ["src/rag_chat.py：10（全形冒號）", [["src/rag_chat.py", 10, 10]]],
  ])("%j", (answer, expected) => {
    expect(loc(answer)).toEqual(expected);
  });

  it.each([
    "Ollama listens on http://127.0.0.1:11434 by default",
    "Python 3.12:5 is not a path",
    "the ratio is 16:9",
    "at 10:30 we met",
    "a line 4 without a path",
    "src/a.py:0 has no line zero",
    "localhost:8080",
  ])("finds no citation in %j", (answer) => {
    expect(extractCitations(answer)).toEqual([]);
  });
});

describe("checkCitations", () => {
  const evidence = [
    ev("src/build_index.py", 4),
    ev("src/chat_reranker.py", 6),
    ev("src/rag_chat.py", 10),
    ev("src/rag_common.py", 1, 20),
    ev("src/rag_common.py", 21, 30),
  ];

  it("verifies paths equal to an evidence path with lines inside a record's range", () => {
    expect(
      checkCitations(
        "src/build_index.py:4, src/chat_reranker.py (line 6), src/rag_chat.py#L10, src/rag_common.py:15-25, src/rag_common.py（第 30 行）",
        evidence,
      ),
    ).toEqual([
      { path: "src/build_index.py", line: 4, verified: true },
      { path: "src/chat_reranker.py", line: 6, verified: true },
      { path: "src/rag_chat.py", line: 10, verified: true },
      { path: "src/rag_common.py", line: 15, verified: true },
      { path: "src/rag_common.py", line: 30, verified: true },
    ]);
  });

  it("marks wrong lines, unknown paths and bare file names as unverified", () => {
    expect(
      checkCitations("src/build_index.py:5, src/other.py:4, rag_chat.py:10, src/rag_common.py:25-31", evidence),
    ).toEqual([
      { path: "src/build_index.py", line: 5, verified: false },
      { path: "src/other.py", line: 4, verified: false },
      { path: "rag_chat.py", line: 10, verified: false },
      { path: "src/rag_common.py", line: 25, verified: false },
    ]);
  });

  it("returns nothing for an answer without citations", () => {
    expect(checkCitations("No file imports it.", evidence)).toEqual([]);
  });
});
