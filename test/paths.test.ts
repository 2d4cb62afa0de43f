import { describe, expect, it } from "vitest";
import { isInside } from "../src/paths.js";

describe("isInside", () => {
  it("is true for the root itself and paths below it", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b/c", "/a/b")).toBe(true);
    expect(isInside("/a/b/..c", "/a/b")).toBe(true);
    expect(isInside("/a/b/c/../d", "/a/b/")).toBe(true);
  });
  it("decides by path segments, not string prefixes (CVE-2025-53110)", () => {
    for (const p of ["/home/u/project2", "/home/u/project_backup", "/home/u/project-old", "/home/u/projectile", "/home/u", "/", "/home/u/project/../x"]) {
      expect(isInside(p, "/home/u/project"), p).toBe(false);
    }
    expect(isInside("/a", "/a/b")).toBe(false);
  });
  it("everything is inside the file system root", () => {
    expect(isInside("/etc/passwd", "/")).toBe(true);
  });
});
