/**
 * Cross-checks of the C/C++ include edges against `gcc -MM` and of definitions against
 * universal-ctags (scripts: `ground-truth-c.ts`, `ground-truth-defs.ts`). Skipped when the tools
 * are missing (Debian packages `gcc`, `g++`, `universal-ctags`). Real repositories come from the
 * environment, entries separated by `;`:
 *
 *   CODECITE_GT_C_REPOS="/src/libuv|-Iinclude -Isrc -D_GNU_SOURCE;/src/leveldb|-Iinclude -I. -DLEVELDB_PLATFORM_POSIX=1"
 *   CODECITE_GT_DEFS="/src/rack|ruby|test/evidence/ground-truth/definitions-adjudicated.txt;/src/Slim|php;/src/swift-log|swift"
 */
import { describe, expect, it } from "vitest";
import { shellWords } from "../../src/evidence/analysis/lang/c-includes.js";
import { compareIncludes, summarizeIncludes } from "./ground-truth-c.js";
import { compareDefinitions, summarizeDefinitions } from "./ground-truth-defs.js";
import { fixtureDir, hasTool } from "./lang-test-kit.js";

const haveGcc = hasTool("gcc", ["--version"]) && hasTool("g++", ["--version"]);
const haveCtags = hasTool("ctags", ["--version"]);
const entries = (name: string) => (process.env[name] ?? "").split(";").filter((e) => e.trim() !== "").map((e) => e.split("|"));

describe.skipIf(!haveGcc)("c/c++ includes vs gcc -MM", () => {
  it("the fixture: every header gcc lists is found, nothing more (the file with a computed include is skipped by gcc)", async () => {
    // abs/ holds a database with made-up absolute paths that gcc cannot use.
    const a = await compareIncludes(fixtureDir("c-project"), { flags: ["-Iinclude"], exclude: /^abs\// });
    expect(a.skipped).toEqual(["src/core.c"]);
    expect(a.truth.total).toBeGreaterThan(0);
    expect(a.onlyTruth).toEqual([]);
    expect(a.onlyOurs).toEqual([]);
  });

  for (const [dir, flags] of entries("CODECITE_GT_C_REPOS")) {
    it(`${dir}: precision ≥ 0.98 (unconditional includes), recall ≥ 0.95`, async () => {
      const a = await compareIncludes(dir as string, { flags: shellWords(flags ?? "") });
      process.stdout.write(`${summarizeIncludes(a)}\n`);
      expect(a.unconditional.agree / a.unconditional.ours).toBeGreaterThanOrEqual(0.98);
      expect(a.truth.found / a.truth.total).toBeGreaterThanOrEqual(0.95);
    }, 900_000);
  }
});

describe.skipIf(entries("CODECITE_GT_DEFS").length === 0)("definitions vs universal-ctags", () => {
  for (const [dir, language, adjudicated] of entries("CODECITE_GT_DEFS")) {
    // Swift's truth is `ground-truth-swift-decls.py` (python3), not ctags.
    it.skipIf(language === "swift" ? !hasTool("python3", ["--version"]) : !haveCtags)(`${dir} [${language}]: precision ≥ 0.98, recall ≥ 0.95 after adjudication`, async () => {
      const a = await compareDefinitions(dir as string, language as string, adjudicated !== undefined ? { adjudicated } : {});
      process.stdout.write(`${summarizeDefinitions(a)}\n`);
      expect(a.oursAgree / a.ours).toBeGreaterThanOrEqual(0.98);
      expect(a.truthFound / a.truth).toBeGreaterThanOrEqual(0.95);
    }, 900_000);
  }
});
