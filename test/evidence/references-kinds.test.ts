/**
 * find_references: the kinds of misses and false hits found against hand-checked truth on public
 * Rust and Java repositories (test/evidence/ground-truth/references-rust.md, references-java.md),
 * each on a small tree written here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findReferences } from "../../src/evidence/references.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";

const roots: string[] = [];

async function tree(files: Record<string, string>): Promise<Workspace> {
  const root = mkdtempSync(path.join(tmpdir(), "codecite-refkinds-"));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return Workspace.open(root);
}

const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line} ${(e.flags ?? []).join(",")}`);

afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe("Rust", () => {
  it("a name the crate root re-exports from a module that imports it back through `crate::{…}` resolves (a cycle does not poison the answer)", async () => {
    const ws = await tree({
      "Cargo.toml": '[package]\nname = "d"\nversion = "0.1.0"\n',
      "src/lib.rs": "mod common;\nmod text;\npub use self::common::*;\npub use self::text::*;\n",
      "src/common.rs": "pub fn capture(n: usize) -> usize {\n    n\n}\n",
      "src/text/mod.rs": "use crate::{\n    capture,\n};\n\npub fn run() -> usize {\n    capture(1)\n}\n",
      "src/other.rs": "use crate::capture;\n\nfn go() -> usize {\n    capture(2)\n}\n",
    });
    const r = await findReferences(ws, { name: "capture", path: "src/common.rs", max_results: 50 });
    expect(where(r)).toEqual(["src/other.rs:1 import", "src/other.rs:4 call", "src/text/mod.rs:1 import", "src/text/mod.rs:6 call"]);
  });

  it("`x.f` not called is a field, not the method `f`; `Self` alone in the impl is no use of the type", async () => {
    const ws = await tree({
      "Cargo.toml": '[package]\nname = "o"\nversion = "0.1.0"\n',
      "src/lib.rs": [
        "pub struct Options {",
        "    cleanup: bool,",
        "}",
        "",
        "impl Options {",
        "    pub fn new() -> Self {",
        "        Options { cleanup: false }",
        "    }",
        "    pub fn cleanup(&mut self, yes: bool) -> &mut Self {",
        "        self.cleanup = yes;",
        "        self",
        "    }",
        "    pub fn enabled(&self) -> bool {",
        "        self.cleanup",
        "    }",
        "}",
        "",
        "pub fn make() -> Options {",
        "    let mut o = Options::new();",
        "    o.cleanup(true);",
        "    o",
        "}",
        "",
      ].join("\n"),
    });
    expect(where(await findReferences(ws, { name: "Options.cleanup", path: "src/lib.rs", max_results: 50 }))).toEqual(["src/lib.rs:20 call"]);
    // lines 6 and 9 write `Self`: not listed; line 5 (`impl Options`), 7 (struct literal), 18 (return type), 19 (path) are
    expect(where(await findReferences(ws, { name: "Options", path: "src/lib.rs", max_results: 50 }))).toEqual(["src/lib.rs:5 type", "src/lib.rs:7 call", "src/lib.rs:18 type", "src/lib.rs:19 value"]);
  });
});

describe("Java", () => {
  const files = {
    "src/main/java/org/demo/util/Digits.java": [
      "package org.demo.util;",
      "",
      "public final class Digits {",
      "    public static boolean isDigit(char c) {",
      "        return c >= '0' && c <= '9';",
      "    }",
      "}",
      "",
    ].join("\n"),
    "src/test/java/org/demo/util/DigitsTest.java": [
      "package org.demo.util;",
      "",
      "class DigitsTest {",
      "    void digits() {",
      "        assert Digits.isDigit('1');",
      "    }",
      "}",
      "",
    ].join("\n"),
    "src/main/java/org/demo/Doc.java": [
      "package org.demo;",
      "",
      "import java.util.function.Supplier;",
      "",
      "public class Doc {",
      "    private Mode mode = Mode.plain;",
      "",
      "    public enum Mode { plain, quirks }",
      "",
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
  };

  it("a class of the same package in another source root (a test) is seen without import", async () => {
    const ws = await tree(files);
    expect(where(await findReferences(ws, { name: "Digits.isDigit", max_results: 50 }))).toEqual(["src/test/java/org/demo/util/DigitsTest.java:5 call"]);
  });

  it("a member type by its simple name inside its class; a field named like a method is not the method; `this::m` is", async () => {
    const ws = await tree(files);
    expect(where(await findReferences(ws, { name: "Doc.Mode", max_results: 50 }))).toEqual([
      "src/main/java/org/demo/Doc.java:6 type",
      "src/main/java/org/demo/Doc.java:10 type",
      "src/main/java/org/demo/Doc.java:14 type",
      "src/main/java/org/demo/Doc.java:19 type",
    ]);
    // lines 11 (`return mode;`) and 15 (`this.mode = mode;`) read the field
    expect(where(await findReferences(ws, { name: "Doc.mode", max_results: 50 }))).toEqual(["src/main/java/org/demo/Doc.java:20 value"]);
  });
});
