/**
 * `rootView` and `shellQuote`: locations and suggested commands that work from the current
 * directory when `--root` points elsewhere.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rootView, shellQuote } from "../../src/cli/root-view.js";

describe("shellQuote", () => {
  it.each([
    ["src/flask/app.py", "src/flask/app.py"],
    ["../flask", "../flask"],
    ["my repo", "'my repo'"],
    ["it's", "'it'\\''s'"],
    ["$HOME", "'$HOME'"],
    ["~/x", "'~/x'"],
    ["=cmd", "'=cmd'"],
    ["", "''"],
  ])("%j → %s", (arg, quoted) => {
    expect(shellQuote(arg)).toBe(quoted);
  });
});

/** 20 levels: climbing out with ../ is longer than the absolute path. */
const DEEP = "abcdefghijklmnopqrst".split("");

describe("rootView", () => {
  let base: string;
  beforeAll(() => {
    base = mkdtempSync(path.join(os.tmpdir(), "codecite-view-"));
    mkdirSync(path.join(base, "work", "flask"), { recursive: true });
    mkdirSync(path.join(base, "work", "my repo"), { recursive: true });
    mkdirSync(path.join(base, "deep", ...DEEP), { recursive: true });
    symlinkSync(path.join(base, "work", "flask"), path.join(base, "link"));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("the current directory as root (any spelling, also through a symbolic link) changes nothing", () => {
    const cwd = path.join(base, "work", "flask");
    for (const root of [".", cwd, "../flask", path.join(base, "link")]) {
      const view = rootView(root, cwd);
      expect(view.show("src/flask/app.py")).toBe("src/flask/app.py");
      expect(view.rootOption).toBe("");
    }
  });

  it("a root below the current directory: paths relative to it, --root relative", () => {
    const view = rootView("flask", path.join(base, "work"));
    expect(view.show("src/flask/app.py")).toBe("flask/src/flask/app.py");
    expect(view.rootOption).toBe(" --root flask");
  });

  it("a sibling root: ../ paths; a root with a space is quoted", () => {
    const view = rootView("../my repo", path.join(base, "work", "flask"));
    expect(view.show("a.py")).toBe("../my repo/a.py");
    expect(view.rootOption).toBe(" --root '../my repo'");
  });

  it("absolute when that is shorter than relative", () => {
    const cwd = path.join(base, "deep", ...DEEP);
    const root = path.join(base, "work", "flask");
    const view = rootView(root, cwd);
    expect(view.show("src/app.py")).toBe(path.join(root, "src/app.py"));
    expect(view.rootOption).toBe(` --root ${root}`);
  });

  it("the current directory inside the root: paths climb out with ../", () => {
    const root = path.join(base, "deep", "a");
    const view = rootView(root, path.join(root, "b"));
    expect(view.show("b/c/x.py")).toBe("c/x.py");
    expect(view.show("top.py")).toBe("../top.py");
    expect(view.rootOption).toBe(" --root ..");
  });
});
