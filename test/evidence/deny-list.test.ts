/**
 * `isDeniedPath` answers most paths from a quick check (no pattern's literal part in the path)
 * before matching the gitignore patterns: the answers must be exactly those of the full check,
 * computed here independently with the `ignore` package over the same patterns (ripgrep's
 * `--iglob=!…` list) and the folded form, on paths built from pieces of the patterns with
 * case changes, stream suffixes, trailing dots and spaces and lookalike characters.
 */
import fc from "fast-check";
import ignore from "ignore";
import { describe, expect, it } from "vitest";
import { denyGlobArgs, foldForDenyCheck, isDeniedPath } from "../../src/evidence/sandbox/deny-list.js";
import { isCleanRelative } from "../../src/evidence/sandbox/path-policy.js";

const PATTERNS = denyGlobArgs().map((a) => a.replace(/^--iglob=!/, ""));
const full = ignore({ ignorecase: true }).add(PATTERNS);

/** The deny rule written out without any shortcut (the module comment of deny-list.ts). */
function fullCheck(rel: string): boolean {
  if (rel === "" || rel === ".") return false;
  if (!isCleanRelative(rel)) return true;
  const matches = (p: string): boolean => full.ignores(p) || full.ignores(`${p}/`);
  if (matches(rel)) return true;
  const folded = foldForDenyCheck(rel);
  return folded !== rel && folded !== "" && matches(folded);
}

/** Pieces of the patterns (cut at wildcards and slashes) plus ordinary names. */
const PIECES = [
  ...new Set(PATTERNS.flatMap((p) => p.split(/[*/]+/)).filter((p) => p !== "")),
  "src",
  "app",
  "config",
  "main.py",
  "x",
  ".",
  "-",
  "_",
];
const segment = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PIECES),
      fc.constantFrom(...PIECES).map((p) => p.toUpperCase()),
      fc.constantFrom(":$DATA", ".", " ", "..", "\u200C", "\uFF0E", "\u212A", "\u0130"),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join(""));
const pathArb = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segs) => segs.join("/"));

describe("isDeniedPath", () => {
  it("gives the full check's answer on paths made of pattern pieces (quick check included)", () => {
    let denied = 0;
    fc.assert(
      fc.property(pathArb, (rel) => {
        const want = fullCheck(rel);
        if (want) denied++;
        expect(isDeniedPath(rel)).toBe(want);
      }),
      { numRuns: 4000, seed: 20261202 },
    );
    // The generator reaches both answers often, so the comparison covers both.
    expect(denied).toBeGreaterThan(400);
    expect(denied).toBeLessThan(3600);
  });

  it("denies by pieces the quick check must not skip", () => {
    for (const rel of [
      "a/.ENV",
      "deploy/server.PEM.",
      "x/.env::$DATA",
      "home/gh/hosts.yml",
      "gh:x/hosts.yml",
      ".config/gcloud/creds",
      "proj.GIT/config",
      "keys/ID_RSA.pub",
      "a/.g\u200Cit/config",
      "a/\uFF0Eenv",
      "server.\u212Aey",
    ]) {
      expect(isDeniedPath(rel), rel).toBe(true);
      expect(fullCheck(rel), rel).toBe(true);
    }
    for (const rel of ["src/app.py", "docs/environment.md", "src/github/hosts.py", "a/.github/workflows/ci.yml", "keys.txt"]) {
      expect(isDeniedPath(rel), rel).toBe(fullCheck(rel));
    }
  });
});
