/**
 * Wildcard patterns from a repository's configuration (`src/evidence/analysis/lang/path-glob.ts`):
 * the syntax, and patterns made to make a backtracking matcher take exponential time.
 */
import { describe, expect, it } from "vitest";
import { compilePathGlob, pathGlobMatches } from "../../src/evidence/analysis/lang/path-glob.js";
import { JsResolver } from "../../src/evidence/analysis/lang/js-resolve.js";
import { memoryProject } from "./memory-project.js";

const matches = (pattern: string, path: string) => pathGlobMatches(compilePathGlob(pattern), path);

describe("path globs (TypeScript include syntax)", () => {
  it("* and ? stay inside a folder name; **/ is any run of whole folders, none included; ** elsewhere is anything", () => {
    expect(matches("src/*.ts", "src/a.ts")).toBe(true);
    expect(matches("src/*.ts", "src/x/a.ts")).toBe(false);
    expect(matches("src/?.ts", "src/a.ts")).toBe(true);
    expect(matches("src/?.ts", "src/ab.ts")).toBe(false);
    expect(matches("src/?", "src//")).toBe(false);
    expect(matches("src/**/*.ts", "src/a.ts")).toBe(true);
    expect(matches("src/**/*.ts", "src/x/y/a.ts")).toBe(true);
    expect(matches("src/**/*.ts", "lib/a.ts")).toBe(false);
    // `**/` ends at a `/`: `src/**/a.ts` does not match `src/xa.ts`
    expect(matches("src/**/a.ts", "src/xa.ts")).toBe(false);
    expect(matches("src/**/a.ts", "src/x/a.ts")).toBe(true);
    expect(matches("src/**", "src/x/y")).toBe(true);
    expect(matches("**/*", "a/b/c.ts")).toBe(true);
    expect(matches("**/**/**/a", "a")).toBe(true);
    expect(matches("a**b", "a/x/b")).toBe(true);
    expect(matches("a***b", "a/x/b")).toBe(true);
    // regular-expression characters are plain characters
    expect(matches("src/(a|b)+.ts", "src/(a|b)+.ts")).toBe(true);
    expect(matches("src/a.ts", "src/aXts")).toBe(false);
    expect(matches("", "")).toBe(true);
    expect(matches("", "a")).toBe(false);
  });

  it("a pattern of many ** against a path that almost matches: decided in steps linear in the path times the pattern", () => {
    // As a regular expression (`^src/.*a.*a…!$`) 12 of these held a query for minutes, 40 for ever.
    const hostile = `src/${"**a".repeat(40)}!`;
    expect(matches(hostile, `src/${"a".repeat(60)}.ts`)).toBe(false);
    expect(matches(hostile, `src/${"a".repeat(60)}!`)).toBe(true);
    const stars = `${"*a".repeat(40)}!`;
    expect(matches(stars, `${"a".repeat(80)}.ts`)).toBe(false);
    // runs of wildcards collapse: a megabyte of stars is one wildcard
    expect(compilePathGlob("*".repeat(1_000_000)).tokens.length).toBe(1);
    expect(compilePathGlob("**/".repeat(100_000)).tokens.length).toBe(1);
    // a pattern longer than the path is refused before any step
    expect(matches("x".repeat(1_000_000), "x")).toBe(false);
  });

  it("a solution-style tsconfig whose referenced project has a hostile include: the resolution still ends", async () => {
    const r = new JsResolver(
      memoryProject({
        "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "./cfg" }] }),
        "cfg/tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".." }, include: [`../pkg/src/${"**a".repeat(40)}!`] }),
        "src/a.ts": "",
      }),
    );
    const file = `pkg/src/${"a".repeat(60)}.ts`;
    expect((await r.configFor(file))?.path).toBe("tsconfig.json");
    expect((await r.resolve("src/a", file)).files).toEqual([]);
  });
});
