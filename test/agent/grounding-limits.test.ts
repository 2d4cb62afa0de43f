import { describe, expect, it } from "vitest";
import { gradeCitations, groundingOf, MAX_GRADED_CITATIONS, MAX_GRADED_PATHS, type SeenLines } from "../../src/agent/grounding.js";
import type { LocatedFile } from "../../src/tools/index.js";

// A hostile (or runaway) model answer may cite thousands of locations. Each distinct path is
// looked up in the repository (a read of the file, up to 16 MiB, and a scan of the file list
// when it is not found), and each citation's sentence is read; without a bound, `ask` and every
// client of `codecite serve` wait while thousands of files are read.
describe("grading an answer that cites thousands of locations", () => {
  it(`looks up at most ${MAX_GRADED_PATHS} distinct paths; the other citations are unchecked, with the reason`, async () => {
    const looked: string[] = [];
    const locate = (p: string): Promise<LocatedFile> => {
      looked.push(p);
      return Promise.resolve({ ok: true, path: p, lines: 10 });
    };
    const answer = Array.from({ length: 3000 }, (_, i) => `- \`f${i}\` is read at src/m${i}/x.py:1`).join("\n");
    const got = await gradeCitations(answer, new Map(), locate);
    expect(looked).toEqual(Array.from({ length: MAX_GRADED_PATHS }, (_, i) => `src/m${i}/x.py`));
    expect(got).toHaveLength(3000);
    expect(got.slice(0, MAX_GRADED_PATHS).every((c) => c.status === "unseen")).toBe(true);
    const rest = got.slice(MAX_GRADED_PATHS);
    expect(new Set(rest.map((c) => c.status))).toEqual(new Set(["unchecked"]));
    expect(rest.every((c) => !c.verified)).toBe(true);
    expect(rest[0]).toMatchObject({ path: `src/m${MAX_GRADED_PATHS}/x.py`, line: 1 });
    expect(rest[0]!.reason).toBe(`not checked: the answer cites more than ${MAX_GRADED_PATHS} files it was not shown; only the first ${MAX_GRADED_PATHS} are checked`);
  });

  it("a path cited again after the path limit is still graded (its lookup is kept)", async () => {
    const locate = (p: string): Promise<LocatedFile> => Promise.resolve({ ok: true, path: p, lines: 10 });
    const seen: SeenLines = new Map([["src/m0/x.py", new Map([[2, "def f0(): pass"]])]]);
    const many = Array.from({ length: MAX_GRADED_PATHS + 5 }, (_, i) => `- src/m${i}/x.py:1`).join("\n");
    const got = await gradeCitations(`${many}\n- \`f0\` is defined at src/m0/x.py:2`, seen, locate);
    expect(got.at(-1)).toMatchObject({ path: "src/m0/x.py", line: 2, status: "supported" });
    expect(got.at(-2)!.status).toBe("unchecked");
  });

  it("paths shown to the model are graded past the path limit; only paths never shown count toward it", async () => {
    const looked: string[] = [];
    const locate = (p: string): Promise<LocatedFile> => {
      looked.push(p);
      return Promise.resolve({ ok: true, path: p, lines: 10 });
    };
    // An answer about a wide change may cite more than the limit of files, all of them shown.
    const shown = MAX_GRADED_PATHS + 8;
    const seen: SeenLines = new Map(Array.from({ length: shown }, (_, i) => [`src/s${i}.py`, new Map([[3, `def g${i}(): pass`]])]));
    const cites = Array.from({ length: shown }, (_, i) => `- \`g${i}\` is defined at src/s${i}.py:3`);
    const unshown = Array.from({ length: MAX_GRADED_PATHS + 2 }, (_, i) => `- src/u${i}.py:1`);
    const got = await gradeCitations([...cites, ...unshown].join("\n"), seen, locate);
    expect(got.slice(0, shown).map((c) => c.status)).toEqual(Array.from({ length: shown }, () => "supported"));
    const rest = got.slice(shown);
    expect(rest.slice(0, MAX_GRADED_PATHS).map((c) => c.status)).toEqual(Array.from({ length: MAX_GRADED_PATHS }, () => "unseen"));
    expect(rest.slice(MAX_GRADED_PATHS).map((c) => [c.path, c.status])).toEqual([
      [`src/u${MAX_GRADED_PATHS}.py`, "unchecked"],
      [`src/u${MAX_GRADED_PATHS + 1}.py`, "unchecked"],
    ]);
    expect(looked).toHaveLength(shown + MAX_GRADED_PATHS);
  });

  it(`reads the sentences of at most ${MAX_GRADED_CITATIONS} citations of shown lines; 20,000 citations end`, async () => {
    // Before, each citation's sentence was found by blanking every citation of the whole answer
    // again (1,000 citations: 4.5 s of CPU; 20,000 would take hours).
    const n = 20_000;
    const lines = new Map<number, string>();
    for (let i = 1; i <= n; i++) lines.set(i, `def f${i}(): return ${i}`);
    const seen: SeenLines = new Map([["src/a.py", lines]]);
    const locate = (p: string): Promise<LocatedFile> => Promise.resolve({ ok: true, path: p, lines: n });
    const answer = Array.from({ length: n }, (_, i) => `- \`f${i + 1}\` is defined at src/a.py:${i + 1}`).join("\n");
    const got = await gradeCitations(answer, seen, locate);
    expect(got).toHaveLength(n);
    expect(got.slice(0, MAX_GRADED_CITATIONS).every((c) => c.status === "supported")).toBe(true);
    expect(got[MAX_GRADED_CITATIONS]).toMatchObject({ line: MAX_GRADED_CITATIONS + 1, status: "unchecked", verified: false });
    expect(got[MAX_GRADED_CITATIONS]!.reason).toBe(`not checked: the answer cites more than ${MAX_GRADED_CITATIONS} locations; only the first ${MAX_GRADED_CITATIONS} are checked`);
    expect(groundingOf(answer, got)).toBe("partial");
  });

  it("a cited range of 10^15 lines without a repository lookup ends (the shown lines are walked, not the range)", async () => {
    const seen: SeenLines = new Map([["src/a.py", new Map([[3, "def load(): pass"]])]]);
    const got = await gradeCitations("`load` is at src/a.py:1-999999999999999.", seen);
    expect(got.map((c) => [c.path, c.line, c.end_line, c.status])).toEqual([["src/a.py", 1, 999999999999999, "supported"]]);
  });

  it("a sentence of half a megabyte of words, or of blanks between two names, citing shown lines is graded", async () => {
    // Before, the word before each word was found by a pattern tried from every character of the
    // sentence before it, and the blanks between two names by one that backtracked over them
    // (128 KB: 34-53 s; this half megabyte: many minutes, in `ask` or on the gateway's one thread).
    const seen: SeenLines = new Map([["src/a.py", new Map([[3, "def load(): pass"]])]]);
    for (const answer of [`${"ab ".repeat(170_000)}\`load\` is at src/a.py:3.`, `load${" ".repeat(512_000)}, other at src/a.py:3.`]) {
      const got = await gradeCitations(answer, seen);
      expect(got.map((c) => [c.path, c.line, c.status])).toEqual([["src/a.py", 3, "supported"]]);
    }
  });

  it("a sentence citing two shown locations with half a megabyte of blanks between them is graded", async () => {
    // Before, the clause boundary (`\s+and\s+`) was tried from every blank of the run between the
    // citations, each reading the rest of it (32 KB: 5 s; this half megabyte: over an hour).
    const seen: SeenLines = new Map([["src/a.py", new Map([[3, "def load(): pass"], [4, "def save(): pass"]])]]);
    const got = await gradeCitations(`\`load\` at src/a.py:3${" ".repeat(512_000)}x \`save\` at src/a.py:4.`, seen);
    expect(got.map((c) => [c.line, c.status])).toEqual([[3, "supported"], [4, "supported"]]);
    const clauses = await gradeCitations("`load` is at src/a.py:3,   and   `save` is at src/a.py:4.", seen);
    expect(clauses.map((c) => [c.line, c.status])).toEqual([[3, "supported"], [4, "supported"]]);
  });

  it("a cited path holding half a megabyte of dots is graded once its dots are read once", async () => {
    // The trailing dots of a cited path were matched from every dot of a run inside it (32 KB: 1.7 s).
    const got = await gradeCitations(`\`load\` is at src/a${".".repeat(512_000)}b.py:3.`, new Map([["src/a.py", new Map([[3, "def load(): pass"]])]]));
    expect(got.map((c) => [c.path.length, c.line, c.status])).toEqual([[512_009, 3, "invalid"]]);
  });
});
