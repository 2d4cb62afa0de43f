/**
 * Hostile sources and manifests end (issue 13, attack round of session 30): the text reads that
 * resolve imports without a parse — a Java file's `package`, a PHP file's `namespace`, a Kotlin or
 * C# file's declarations, a `Package.swift`'s targets, a `Cargo.toml`'s tables — are linear in the
 * file. Before, a pattern tried at every line or every comment opener read to the end of the file
 * from each: a 100 KB Java file of blank lines made `importers a.Foo` take 11.6 s of CPU, and these
 * 1 MiB files (the largest a project read takes) ran for many minutes to hours, outside any time
 * limit (the parse limit covers tree-sitter only). Like lang-c's "hostile headers end", no timing
 * threshold: the results are checked, and the old code does not finish within the test timeout.
 */
import { describe, expect, it } from "vitest";
import { cFocus } from "../../src/evidence/analysis/lang/c-focus.js";
import { csharp } from "../../src/evidence/analysis/lang/csharp.js";
import { projectUsings } from "../../src/evidence/analysis/lang/csharp-msbuild.js";
import { java } from "../../src/evidence/analysis/lang/java.js";
import { kotlin } from "../../src/evidence/analysis/lang/kotlin.js";
import { joinKotlinConstructors } from "../../src/evidence/analysis/lang/kotlin-prepare.js";
import type { LanguageSpec } from "../../src/evidence/analysis/lang/language.js";
import { php } from "../../src/evidence/analysis/lang/php.js";
import { ruby } from "../../src/evidence/analysis/lang/ruby.js";
import { parseCargoManifest } from "../../src/evidence/analysis/lang/rust.js";
import { swift } from "../../src/evidence/analysis/lang/swift.js";
import { memoryProject } from "./memory-project.js";

/** `filler` repeated to 1 MiB, the most a project read returns. */
const MiB = (filler: string): string => filler.repeat(Math.ceil((1024 * 1024) / filler.length));

async function namesOf(lang: LanguageSpec, file: string, files: Record<string, string>): Promise<string[] | undefined> {
  return lang.moduleNames?.(file, memoryProject(files));
}

describe("text reads of the import resolvers are linear in hostile files", () => {
  it("Java: a megabyte of blank lines or annotation lines before the package, or an unclosed comment", async () => {
    expect(await namesOf(java, "src/a/b/E.java", { "src/a/b/E.java": `${MiB("\n")}package a.b;\nclass E {}\n` })).toEqual(["a.b.E", "a.b"]);
    expect(await namesOf(java, "src/a/b/E.java", { "src/a/b/E.java": `${MiB("\n@A\n")}package a.b;\nclass E {}\n` })).toEqual(["a.b.E", "a.b"]);
    // An unclosed comment runs to the end of the file, as javac reads it: no package.
    expect(await namesOf(java, "src/a/b/E.java", { "src/a/b/E.java": `${MiB("/* ")}\npackage a.b;\n` })).toEqual(["E"]);
  });

  it("Kotlin: blank lines, unclosed comments, raw strings and strings", async () => {
    const file = "src/a/E.kt";
    expect(await namesOf(kotlin, file, { [file]: `${MiB("\n")}package a.b\nclass E\n` })).toEqual(["a.b.E", "a.b"]);
    expect(await namesOf(kotlin, file, { [file]: `package a.b\nclass E\n${MiB("/* ")}` })).toEqual(["a.b.E", "a.b"]);
    expect(await namesOf(kotlin, file, { [file]: `package a.b\nclass E\nval s = ${MiB('"""')}` })).toEqual(["a.b.E", "a.b.s", "a.b"]);
    expect(await namesOf(kotlin, file, { [file]: `package a.b\nclass E\nval s = ${MiB('"a\\')}` })).toEqual(["a.b.E", "a.b.s", "a.b"]);
  });

  it("PHP: blank lines before the namespace, an unclosed comment", async () => {
    const file = "src/E.php";
    expect(await namesOf(php, file, { [file]: `<?php${MiB("\n")}namespace App\\Http;\nclass E {}\n` })).toEqual(["App\\Http\\E"]);
    expect(await namesOf(php, file, { [file]: `<?php\nnamespace App\\Http;\n${MiB("/* ")}` })).toEqual(["App\\Http\\E"]);
  });

  it("C#: unclosed comments, verbatim strings, strings and character literals", async () => {
    const file = "src/E.cs";
    for (const filler of ["/* ", '@"', '"a\\', "'a\\", "delegate ,"]) {
      expect(await namesOf(csharp, file, { [file]: `namespace App.Core;\nclass E {}\nvar s = ${MiB(filler)}` }), filler).toEqual(["App.Core", "App.Core.E"]);
    }
  });

  it("C#: namespaces nested 75,000 deep, thousands of namespaces beside thousands of types", async () => {
    const file = "src/E.cs";
    // Each nested name was built again from every enclosing brace, and every type was paired with
    // every namespace of the file (here about 37,000 × 37,000 names).
    const nested = (await namesOf(csharp, file, { [file]: `namespace A { class E {} ${MiB("namespace B { ")}` })) ?? [];
    expect(nested.slice(0, 3)).toEqual(["A", "A.E", "A.B"]);
    expect(nested.length).toBe(64 + 1);
    expect(nested.every((n) => n.length <= 512)).toBe(true);
    const wide = (await namesOf(csharp, file, { [file]: `namespace A { class E {} }\n${MiB("namespace N { } class T { } ")}` })) ?? [];
    expect(wide.slice(0, 3)).toEqual(["A", "A.E", "N"]);
    expect(wide.length).toBe(3);
  });

  it("Ruby: gemspecs of a megabyte of unclosed require_paths settings before the real one", async () => {
    // Each of these gemspecs took about 37 s before (the reading of every gemspec is one query's).
    for (const filler of [".require_paths = [", ".require_paths = %w(", ".require_paths = %w["]) {
      const gemspec = `Gem::Specification.new do |s|\n${MiB(filler)}\n  s.require_paths = "ext"\nend\n`;
      const gemspecs = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`g${i}/g.gemspec`, gemspec]));
      expect(await namesOf(ruby, "g0/ext/a/b.rb", { ...gemspecs, "g0/ext/a/b.rb": "" }), filler).toEqual(["a/b"]);
    }
    expect(await namesOf(ruby, "src/c.rb", { "x.gemspec": 's.require_paths = %w[lib src]\n', "src/c.rb": "" })).toEqual(["c"]);
    expect(await namesOf(ruby, "src/c.rb", { "x.gemspec": 's.require_paths = [\n  "lib",\n  "src",\n]\n', "src/c.rb": "" })).toEqual(["c"]);
  });

  it("Swift: a Package.swift of unclosed target calls, of nested target calls, of an unclosed comment", async () => {
    const files = (manifest: string): Record<string, string> => ({ "Package.swift": manifest, "Sources/Core/a.swift": "struct A {}\n" });
    const head = 'let package = Package(name: "p", targets: [.target(name: "Core"),\n';
    expect(await namesOf(swift, "Sources/Core/a.swift", files(`${head}${MiB(".target(")}`))).toEqual(["Core"]);
    expect(await namesOf(swift, "Sources/Core/a.swift", files(`${head}${MiB('.target(name: "X", ')}${")".repeat(1000)}])`))).toEqual(["Core"]);
    expect(await namesOf(swift, "Sources/Core/a.swift", files(`${head}])\n${MiB("/* ")}`))).toEqual(["Core"]);
  });

  it("Rust: a Cargo.toml line of a megabyte of blanks", () => {
    expect(parseCargoManifest(`[package]\nname = "demo"${MiB(" ")}x\n[lib]\npath = "src/lib.rs" # the library\n`)).toEqual({
      packageName: "demo",
      libPath: "src/lib.rs",
      targets: [],
      noAutoDiscovery: [],
    });
  });
});

/**
 * The text a language rearranges before its parse (`LanguageSpec.prepare`) runs before the parse's
 * time limit too (attack round of session 33): Kotlin's move of a modifier in front of the
 * annotations before it tried every way of splitting the blanks between two annotations, so a
 * line of annotations not followed by a modifier took twice as long for each more annotation (28
 * annotations, 84 bytes, held `codecite symbol` 5 s of CPU; 40 would take hours), and annotations
 * one a line were read again from every line (48 KB: 5 s); the modifiers after the annotations were
 * read again to the end of the line for each one of them (quadratic in a line of modifier words).
 */
describe("text rearranged before a parse is linear in hostile files", () => {
  it("Kotlin: a megabyte of annotations on one line or one a line, with and without a modifier after them", () => {
    for (const filler of ["@a ", "@a\n", "@a.b(c(d)) \n  ", "@a(\n"]) {
      const chain = MiB(filler);
      // No modifier after the chain: nothing moves; a modifier after it moves in front of it.
      const plain = `${chain}x\n@DslMarker\nannotation class K\n`;
      expect(joinKotlinConstructors(plain)).toBe(`${chain}x\nannotation @DslMarker\nclass K\n`);
      const moved = `${chain}annotation class K\n`;
      expect(joinKotlinConstructors(moved)).toBe(filler === "@a(\n" ? moved : `annotation ${chain}class K\n`);
      const behind = `${chain}public annotation class K\n`;
      expect(joinKotlinConstructors(behind)).toBe(filler === "@a(\n" ? behind : `annotation ${chain}public class K\n`);
    }
  });

  it("Kotlin: a megabyte of modifier words after an annotation", () => {
    // A declaration names each modifier once at most: a longer run is no declaration head, nothing moves.
    for (const filler of ["public ", "annotation ", "public annotation "]) {
      const text = `@A\n${MiB(filler)}class K\n`;
      expect(joinKotlinConstructors(text)).toBe(text);
    }
    expect(joinKotlinConstructors("@A\npublic inline annotation class K\n")).toBe("annotation @A\npublic inline class K\n");
  });
});


/**
 * The lexical reader that picks the parts of a C/C++ file a query parses (`lang/c-focus.ts`) reads
 * the file once (attack round of session 34): a directive's line was searched to the end of the
 * file for a comment opener (once per directive line: quadratic in a file of directives without
 * one), an item's head was read again at each of its braces, and its comments were blanked by a
 * pattern that read to the end of the text from each unclosed `/*` (in a string literal).
 */
describe("the C/C++ focus reader is linear in hostile files", () => {
  const focus = (text: string) => cFocus(text, ["foo"])?.ranges.map((r) => [r.start, r.end]);
  it("a megabyte of directive lines, and one directive continued over a megabyte of lines", () => {
    const directives = `int foo;\n${MiB("#if X\n#endif\n")}`;
    expect(focus(directives)).toEqual([[0, 8], [9, directives.length]]);
    expect(focus(`int foo;\n#define X \\\n${MiB("  a \\\n")}\nint y;\n`)).toEqual([[0, 8]]);
  });

  it("an item with a megabyte of braces, a head with a megabyte of unclosed comment openers in a string", () => {
    for (const text of [`int foo = ${MiB("{0}, ")}{0};\n`, `struct foo ${MiB("{} ")};\n`, `int foo = f("${MiB("/* ")}") {\n}\n`]) {
      expect(focus(text)).toEqual([[0, text.length - 1]]);
    }
    // Comments in a head are still blanked: `extern "C" /* … */ {` is a transparent scope.
    expect(focus('extern "C" /* /* */ // x\n{ int foo; }\n')).toEqual([[0, 26], [27, 35], [36, 37]]);
  });
});

/**
 * The C# reader of a project's MSBuild files (`lang/csharp-msbuild.ts`, session 35) is linear too:
 * its pattern read a `<Using` tag up to its `>`, so a file of `<Using ` without `>` was read to its
 * end from every opener (64 KB: 40 s; this megabyte: hours), and an attribute name was tried from
 * every character of a long word (64 KB: 3.5 s).
 */
describe("the C# MSBuild reader is linear in hostile project files", () => {
  it("a megabyte of unclosed Using tags, of one attribute word, of blanks in an ImplicitUsings value", () => {
    expect(projectUsings([`${MiB("<Using ")}\n<Using Include="A.B" />\n`])).toEqual(["A.B"]);
    expect(projectUsings([`<Using Include="A.B" ${MiB("a")} />\n<Using Include="C" />\n`])).toEqual(["A.B", "C"]);
    expect(projectUsings([`<ImplicitUsings>${MiB(" ")}enable${MiB(" ")}</ImplicitUsings>`])).toContain("System.Linq");
    expect(projectUsings([`${MiB("<ImplicitUsings>")}<Using Include="D" />`])).toEqual(["D"]);
  });

  it("an ImplicitUsings value holding `>` is read to its closing tag", () => {
    expect(projectUsings(["<ImplicitUsings>enable</ImplicitUsings><ImplicitUsings>>=</ImplicitUsings>"])).toEqual([]);
  });
});
