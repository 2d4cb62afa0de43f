/**
 * `joinPath` (`lang/project-files.ts`): repository-relative joining with POSIX normalisation, and
 * its fast path for parts that join to a path already normal (no `posix.normalize` call).
 */
import { posix } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { joinPath } from "../../src/evidence/analysis/lang/project-files.js";

/** The rule as written before the fast path: normalise, then map the root and paths above it. */
function normalisedJoin(...parts: string[]): string | undefined {
  const joined = posix.normalize(parts.filter((p) => p !== "").join("/") || ".");
  if (joined === "." || joined === "./") return "";
  if (joined === ".." || joined.startsWith("../") || joined.startsWith("/")) return undefined;
  return joined.endsWith("/") ? joined.slice(0, -1) : joined;
}

const PIECES = ["", ".", "..", "a", "b.h", "...", ".hidden", "..x", "x..", "a/", "/a", "a//b", "./a", "a/.", "a/..", "../a", "a/./b", "a/../b", "src/core", "include", "/"];

afterEach(() => {
  vi.restoreAllMocks();
});

describe("joinPath", () => {
  it("gives what normalising the joined parts gives, for every pair and triple of tricky parts", () => {
    let checked = 0;
    for (const a of PIECES) {
      for (const b of PIECES) {
        expect(joinPath(a, b), JSON.stringify([a, b])).toBe(normalisedJoin(a, b));
        for (const c of ["", "..", "x.h", "./y.h", "z/"]) {
          expect(joinPath(a, b, c), JSON.stringify([a, b, c])).toBe(normalisedJoin(a, b, c));
          checked++;
        }
      }
    }
    expect(checked).toBe(PIECES.length * PIECES.length * 5);
    expect(joinPath()).toBe("");
    expect(joinPath("src/a", "../../..")).toBeUndefined();
    expect(joinPath("src/a", "../b.h")).toBe("src/b.h");
  });

  it("joins parts that are already normal without normalising them (an include folder and a header)", () => {
    const normalize = vi.spyOn(posix, "normalize");
    expect(joinPath("include", "acme/core/arena.h")).toBe("include/acme/core/arena.h");
    expect(joinPath("", "src/core/arena.c")).toBe("src/core/arena.c");
    expect(joinPath("third_party", "...", ".hidden/x..h")).toBe("third_party/.../.hidden/x..h");
    expect(normalize).not.toHaveBeenCalled();
    expect(joinPath("src/core", "../util/x.h")).toBe("src/util/x.h");
    expect(normalize).toHaveBeenCalledTimes(1);
  });
});
