import { describe, expect, it } from "vitest";
import { extractCitations, gradeCitations, groundingOf, type SeenLines } from "../../src/agent/grounding.js";
import type { LocatedFile } from "../../src/tools/index.js";

const loc = (answer: string) => extractCitations(answer).map((c) => [c.path, c.line, c.end_line]);

describe("extractCitations", () => {
  it("a hostile model answer with a megabyte-long token: the citations around it are found (each run of path characters is read once)", () => {
    // Before, the path pattern backtracked over a long run once per character of it: 40,000
    // letters took 1.8 s, a megabyte minutes, with ask or serve blocked meanwhile.
    const MiB = 1024 * 1024;
    expect(loc(`${"a".repeat(MiB)} then src/a.py:3`)).toEqual([["src/a.py", 3, 3]]);
    expect(loc(`src/b.ts:2 ${"./".repeat(MiB / 2)}x ${"@.".repeat(MiB / 2)}:4`)).toEqual([["src/b.ts", 2, 2]]);
    expect(loc(`${"a/".repeat(MiB / 2)}b.py:9`)).toEqual([[`${"a/".repeat(MiB / 2)}b.py`, 9, 9]]);
  });

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

describe("gradeCitations", () => {
  /** Lines shown to the model: path → [first line, texts]. */
  const shown = (files: Record<string, [number, string[]]>): SeenLines =>
    new Map(Object.entries(files).map(([p, [start, texts]]) => [p, new Map(texts.map((t, i) => [start + i, t]))]));
  const seen = shown({
    "src/build_index.py": [4, ["import rag_common"]],
    "src/rag_chat.py": [10, ["from rag_common import load_index"]],
    "src/rag_common.py": [1, ["def load_index(path):", "    return json.load(open(path))"]],
  });
  /** A repository with these files and line counts. */
  const repo: Record<string, number> = { "src/build_index.py": 40, "src/rag_chat.py": 80, "src/rag_common.py": 120, "src/other.py": 10, "a/util.py": 5, "b/util.py": 5 };
  const locate = (p: string): Promise<LocatedFile> => {
    if (repo[p] !== undefined) return Promise.resolve({ ok: true, path: p, lines: repo[p] });
    const hits = Object.keys(repo).filter((f) => f.endsWith(`/${p}`));
    if (hits.length === 1) return Promise.resolve({ ok: true, path: hits[0]!, lines: repo[hits[0]!]! });
    if (hits.length > 1) return Promise.resolve({ ok: false, reason: `${hits.length} files are named ${p}`, candidates: hits });
    return Promise.resolve({ ok: false, reason: `NOT_FOUND: no file ${p}` });
  };
  const statuses = async (answer: string) => (await gradeCitations(answer, seen, locate)).map((c) => [c.path, c.line, c.status, c.verified]);

  it("supported: shown lines whose sentence names something in them; seen: shown, named nothing", async () => {
    expect(await statuses("`load_index` is defined at src/rag_common.py:1. It is a tidy helper (src/rag_common.py:2).")).toEqual([
      ["src/rag_common.py", 1, "supported", true],
      ["src/rag_common.py", 2, "seen", true],
    ]);
  });

  it("unseen: exists but never shown; invalid: no such file, past the end, ambiguous bare name", async () => {
    const got = await gradeCitations("See src/rag_common.py:50, src/other.py:3, src/nope.py:1, src/other.py:11 and util.py:2.", seen, locate);
    expect(got.map((c) => [c.path, c.line, c.status])).toEqual([
      ["src/rag_common.py", 50, "unseen"],
      ["src/other.py", 3, "unseen"],
      ["src/nope.py", 1, "invalid"],
      ["src/other.py", 11, "invalid"],
      ["util.py", 2, "invalid"],
    ]);
    expect(got[3]!.reason).toBe("src/other.py has 10 lines");
    expect(got[4]!.candidates).toEqual(["a/util.py", "b/util.py"]);
  });

  it("resolves a bare file name that exactly one repository file has, and says so", async () => {
    const [c] = await gradeCitations("rag_chat.py:10 imports rag_common.", seen, locate);
    expect(c).toMatchObject({ path: "src/rag_chat.py", line: 10, status: "supported", resolved_from: "rag_chat.py" });
  });

  it("grounding: ok, partial, failed, none", async () => {
    const g = async (a: string) => groundingOf(a, await gradeCitations(a, seen, locate));
    expect(await g("src/build_index.py:4 imports rag_common.")).toBe("ok");
    expect(await g("src/build_index.py:4 imports rag_common; so does src/other.py:3.")).toBe("partial");
    expect(await g("It is configured in src/other.py:3.")).toBe("failed");
    expect(await g("Three files import it.")).toBe("failed");
    expect(await g("No file imports rag_common; I could not find any importer.")).toBe("none");
    expect(await g("找不到任何導入 rag_common 的檔案。")).toBe("none");
  });
});
