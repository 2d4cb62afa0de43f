/**
 * The hand-checked reference truth files read as the check script reads them, and the javac
 * oracle (`ground-truth-javac.java`) on a small tree (skipped without a JDK: Debian
 * `openjdk-17-jdk-headless`).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { javacTruth, readTruth } from "./ground-truth-hand.js";

const here = import.meta.dirname;
const hasJava = spawnSync("java", ["-version"]).status === 0;
const roots: string[] = [];

afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe("hand-checked truth files", () => {
  it("Rust (similar) and Java (jsoup): 24 targets each, their reference lines, no definition line among them", () => {
    for (const [file, lines] of [["references-rust.md", 94], ["references-java.md", 119]] as const) {
      const { targets } = readTruth(path.join(here, "ground-truth", file));
      expect(targets).toHaveLength(24);
      expect(targets.reduce((n, t) => n + t.truth.length, 0)).toBe(lines);
      for (const t of targets) {
        expect(t.truth).not.toContain(`${t.file}:${t.line}`);
        for (const k of t.truth) expect(k).toMatch(/^src\/[\w/.-]+\.(rs|java):\d+$/);
      }
    }
    const rust = readTruth(path.join(here, "ground-truth", "references-rust.md")).targets;
    expect(rust.find((t) => t.qualified === "DiffableStr.to_string_lossy")?.truth).toEqual(["src/types.rs:502", "src/merge.rs:806", "src/text/inline.rs:302", "src/text/mod.rs:1354"]);
  });
});

describe.skipIf(!hasJava)("javac oracle", () => {
  it("maps uses to the method, the field and the member type of one name separately; enum constants and Javadoc give none", () => {
    const root = mkdtempSync(path.join(tmpdir(), "codecite-javac-"));
    roots.push(root);
    const file = "src/main/java/org/demo/Doc.java";
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(
      path.join(root, file),
      [
        "package org.demo;",
        "",
        "import java.util.function.Supplier;",
        "",
        "public class Doc {",
        "    private Mode mode = Mode.plain;",
        "",
        "    public enum Mode { plain, quirks }",
        "",
        "    /** Returns {@link #mode}. */",
        "    public Mode mode() {",
        "        return mode;",
        "    }",
        "",
        "    public Doc mode(Mode mode) {",
        "        this.mode = mode;",
        "        return this;",
        "    }",
        "",
        "    Supplier<Mode> getter() {",
        "        return this::mode;",
        "    }",
        "}",
        "",
      ].join("\n"),
    );
    const got = javacTruth(root, [
      { file, qualified: "Doc.Mode", line: 8, kind: "enum" },
      { file, qualified: "Doc.mode", line: 11, kind: "method" },
      { file, qualified: "Doc.mode", line: 6, kind: "field" },
    ]);
    const sorted = (xs: string[] | undefined) => [...(xs ?? [])].sort((a, b) => Number(a.split(":")[1]) - Number(b.split(":")[1]));
    expect(got?.map(sorted)).toEqual([
      [`${file}:6`, `${file}:11`, `${file}:15`, `${file}:20`],
      [`${file}:21`],
      [`${file}:12`, `${file}:16`],
    ]);
  });
});
