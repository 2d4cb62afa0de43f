/**
 * The dialect table (`docs/dialects.md`) is generated from the dialect modules
 * (`scripts/dialect-table.ts`): it must be current, and every module's example must be a real
 * call of that dialect.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderDialectTable, TABLE_PATH } from "../../scripts/dialect-table.js";
import { DIALECTS } from "../../src/toolshim/dialects/index.js";

describe("dialect table", () => {
  it("is up to date (run `node --import tsx scripts/dialect-table.ts` after changing a dialect)", () => {
    expect(readFileSync(TABLE_PATH, "utf8")).toBe(renderDialectTable());
  });

  for (const d of DIALECTS) {
    it(`${d.family}: has a source URL and an example the dialect reads a call from`, () => {
      expect(d.source).toMatch(/^https:\/\/\S+$/);
      // Any word of the example may be the tool (dialects without markers gate on offered names).
      const words = [...new Set(d.example.match(/[A-Za-z_][\w.-]*/g) ?? [])].map((name) => ({ name }));
      expect(d.detect(d.example)).toBe(true);
      expect(d.parse(d.example, words)?.calls.length ?? 0).toBeGreaterThan(0);
    });
  }
});
