/**
 * Every streaming prefix of every case of the extra tool-call corpus
 * (`test/fixtures/toolcalls-extra.jsonl`) through every dialect: `detect`/`parse` never throw and
 * the spans they return are well-formed (inside the prefix, non-empty, sorted, disjoint). Prefixes
 * are what a streaming caller parses; the cases hold cut bodies, drifted closers and decoys.
 * `npm test` samples about 60 prefixes per case; the full run (`test/helpers/thoroughness.ts`) takes every one.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../../src/toolshim/dialects/index.js";
import { splitPoints, thorough } from "../../helpers/thoroughness.js";

interface ExtraCase {
  id: string;
  raw: string;
  tools: string[];
}

const cases = readFileSync(new URL("../../fixtures/toolcalls-extra.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as ExtraCase);

describe("dialects on every prefix of the extra corpus", () => {
  it("never throw and keep spans well-formed", () => {
    const problems: string[] = [];
    for (const c of cases) {
      const tools = c.tools.map((name) => ({ name }));
      for (const n of splitPoints(c.raw.length, thorough(60, Infinity))) {
        const prefix = c.raw.slice(0, n);
        for (const d of DIALECTS) {
          if (!d.detect(prefix)) continue;
          const m = d.parse(prefix, tools);
          let last = -1;
          for (const s of m?.spans ?? []) {
            if (!(s.start > last && s.start < s.end && s.end <= prefix.length)) problems.push(`${c.id}[0,${n}) ${d.family} ${JSON.stringify(s)}`);
            last = s.end;
          }
          for (const call of m?.calls ?? []) if (call.name === "") problems.push(`${c.id}[0,${n}) ${d.family} empty name`);
        }
      }
    }
    expect(cases.length).toBeGreaterThan(300);
    expect(problems).toEqual([]);
  });
});
