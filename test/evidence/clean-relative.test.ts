/**
 * `isCleanRelative` (one regex test since issue 17) gives the answers of its definition written
 * out segment by segment: non-empty, not absolute, no NUL byte, no empty, `.` or `..` segment.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCleanRelative } from "../../src/evidence/sandbox/path-policy.js";

/** The definition, segment by segment (POSIX; the Windows-only checks are not exercised here). */
function bySegments(p: string): boolean {
  if (p === "" || p.includes("\0") || p.startsWith("/")) return false;
  return p.split("/").every((seg) => seg !== "" && seg !== "." && seg !== "..");
}

const piece = fc.constantFrom("", ".", "..", "...", ".a", "a.", "a..", "..a", "src", "/", "//", "\0", "a\0b", " ", "é", "\n");

describe.skipIf(process.platform === "win32")("isCleanRelative", () => {
  it("matches the segment-by-segment definition on paths built from dots, slashes and names", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.array(fc.boolean(), { maxLength: 8 }), (pieces, slashes) => {
        const p = pieces.map((x, i) => (slashes[i] === true ? `${x}/` : x)).join("");
        expect(isCleanRelative(p)).toBe(bySegments(p));
      }),
      { numRuns: 2000, seed: 20261202 },
    );
  });

  it("answers the usual cases", () => {
    expect(["a", "a/b.py", ".env", "...", "a/.../b", "x/..y/z"].map(isCleanRelative)).toEqual([true, true, true, true, true, true]);
    expect(["", ".", "..", "/a", "a/", "a//b", "./a", "a/./b", "a/../b", "a/..", "a\0b"].map(isCleanRelative)).toEqual(Array(11).fill(false));
  });
});
