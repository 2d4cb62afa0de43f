/**
 * The lexical `#include` reader (`src/evidence/analysis/lang/c-directives.ts`): one test per rule,
 * and a differential check against an independent reading, the `preproc_include` nodes of the
 * tree-sitter C/C++ grammars, on every C/C++ file of the fixture repositories (and of the
 * checkouts in `CODECITE_INCLUDE_REPOS`, `:`-separated, e.g. google/leveldb, redis/redis, the
 * bench's C/C++ tree): same includes, lines, `system`/`unresolved` flags and `conditional` flag.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Node as SyntaxNode } from "web-tree-sitter";
import { cIncludes } from "../../src/evidence/analysis/lang/c-directives.js";
import { languageFor } from "../../src/evidence/analysis/lang/index.js";
import type { ImportRef } from "../../src/evidence/analysis/lang/language.js";
import { parseSource } from "../../src/evidence/analysis/tree-sitter.js";
import { splitLines } from "../../src/evidence/sandbox/text-file.js";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures");
const extraRepos = (process.env.CODECITE_INCLUDE_REPOS ?? "").split(path.delimiter).filter((p) => p !== "");

/** `specifier@line-end flags` of each include, for short failure messages. */
function brief(refs: readonly ImportRef[]): string[] {
  return refs.map((r) => `${r.specifier}@${r.start_line}-${r.end_line}${r.flags ? ` ${r.flags.join(",")}` : ""}`);
}

describe("c-directives: rules", () => {
  it("quoted, angle (`system`) and computed (`unresolved`) includes; #include_next and #import; an include without text is left out", () => {
    expect(brief(cIncludes('#include "a.h"\n#include <b/c.h>\n#include CONFIG_H\n#include_next <d.h>\n#import "e.h"\n#include\n'))).toEqual([
      "a.h@1-1",
      "b/c.h@2-2 system",
      "CONFIG_H@3-3 unresolved",
      "d.h@4-4 system",
      "e.h@5-5",
    ]);
  });

  it("spacing: `#  include`, `# include`, a tab, no space before the header name, a comment between `#` and the name", () => {
    expect(brief(cIncludes('#  include "a.h"\n  #\tinclude<b.h>\n#include"c.h"\n#/* x */include "d.h"\n'))).toEqual(["a.h@1-1", "b.h@2-2 system", "c.h@3-3", "d.h@4-4"]);
  });

  it("comments: block and line comments hide includes; a block comment before `#` leaves it first on the line; a comment after an include does not end it early", () => {
    const src = '/* #include "no1.h"\n#include "no2.h" */\n// #include "no3.h"\n/* c */ #include "yes1.h" /* spans\nlines */\n#include "yes2.h" // #include "no4.h"\n';
    expect(brief(cIncludes(src))).toEqual(["yes1.h@4-5", "yes2.h@6-6"]);
  });

  it("line splices: a `//` comment ending in `\\` swallows the next line; a directive split with `\\` spans its lines (LF and CRLF)", () => {
    expect(brief(cIncludes('// note \\\n#include "hidden.h"\n#include \\\n  "split.h"\n#inc\\\nlude "joined.h"\n#include \\\r\n "crlf.h"\n'))).toEqual([
      "split.h@3-4",
      "joined.h@5-6",
      "crlf.h@7-8",
    ]);
  });

  it("string and character literals: `#`, `/*` and `//` inside them are text; an unterminated one ends at the line's end", () => {
    const src = 'const char *s = "/*";\n#include "a.h"\nchar c = \'"\';\n#include "b.h"\nconst char *t = "unterminated\n#include "c.h"\n#define Q "*/ /*"\n#include "d.h"\n';
    expect(brief(cIncludes(src))).toEqual(["a.h@2-2", "b.h@4-4", "c.h@6-6", "d.h@8-8"]);
  });

  it("C++ raw strings (with prefixes and delimiters) hide the lines they span; prefixed ordinary literals are literals", () => {
    const src = 'auto a = R"(\n#include "no1.h"\n)";\nauto b = u8R"x(\n)"\n#include "no2.h"\n)x";\nauto c = LR"(x)"; auto d = L"/*";\n#include "yes.h"\n';
    expect(brief(cIncludes(src))).toEqual(["yes.h@9-9"]);
  });

  it("digit separators: `1'000'000` opens no character literal", () => {
    expect(brief(cIncludes('int n = 1\'000; /* a\n#include "no.h"\n*/\n#include "yes.h"\nint m = 0x1\'F;\n#include "yes2.h"\n'))).toEqual(["yes.h@4-4", "yes2.h@6-6"]);
  });

  it("code between directives: identifiers (with `$`, digits, non-ASCII letters) before a quote open a prefixed or raw literal, after other characters they do not; `%`, `.` and `#` after code start nothing", () => {
    const src = [
      'int \u00e9t\u00e9 = a$1 % 2; auto s = LR"d(',
      '#include "no1.h"',
      ')d"; auto t = x.y + .5 + 1.e+3; auto u = u8"/*"; char v = u8\'"\';',
      '#include "yes1.h"',
      'auto w = fooR "(" ; /* c',
      '#include "no2.h"',
      '*/ q = a1\'2\'; # include "no3.h"',
      '  %:include "yes2.h"',
      'b = c %: d; e = f*/g; h = "\\"/*"; k = \\ R"(x)";',
      '#include "yes3.h"',
    ].join("\n");
    expect(brief(cIncludes(`${src}\n`))).toEqual(["yes1.h@4-4", "yes2.h@8-8", "yes3.h@10-10"]);
  });

  it("the digraph `%:` is `#`; `#` not first on its line starts no directive", () => {
    expect(brief(cIncludes('%:include "a.h"\nint x; #include "no.h"\n'))).toEqual(["a.h@1-1"]);
  });

  it("conditional: inside #if/#ifdef/#ifndef (also after #else/#elif), not inside the include guard; a stray #endif is ignored", () => {
    const src = '#ifndef G\n#define G\n#include "a.h"\n#if X\n#include "b.h"\n#elif Y\n#include "c.h"\n#else\n#include "d.h"\n#endif\n#include "e.h"\n#endif\n';
    expect(brief(cIncludes(src))).toEqual(["a.h@3-3", "b.h@5-5 conditional", "c.h@7-7 conditional", "d.h@9-9 conditional", "e.h@11-11"]);
    // `#if !defined(G)` is a guard too; a guard not closing the file is not one.
    expect(brief(cIncludes('#if !defined(G)\n#define G\n#include "a.h"\n#endif\n'))).toEqual(["a.h@3-3"]);
    expect(brief(cIncludes('#ifndef G\n#define G\n#include "a.h"\n#endif\n#include "b.h"\n'))).toEqual(["a.h@3-3 conditional", "b.h@5-5"]);
    expect(brief(cIncludes('#endif\n#include "a.h"\n'))).toEqual(["a.h@2-2"]);
  });
});

/** C/C++ files under `dir` (folders walked without symbolic links). */
function cFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...cFiles(p));
    else if (e.isFile() && ["c", "cpp"].includes(languageFor(e.name)?.id ?? "")) out.push(p);
  }
  return out.sort();
}

const CONDITIONALS = new Set(["preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"]);

/**
 * The includes tree-sitter finds (`preproc_include` nodes, anywhere in the tree): the header of
 * its `path` field, `system` for `<…>`, `unresolved` for anything else, `conditional` when a
 * conditional node (`#if` …) other than the file's include guard lies around it. The guard is
 * the first directive when it is an `#ifndef`/`#if !defined`, the next directive is its
 * `#define`, and the file has no directive after its `#endif`.
 */
function treeIncludes(root: SyntaxNode): ImportRef[] {
  const top = root.namedChildren.filter((n): n is SyntaxNode => n !== null && n.type !== "comment");
  let guard: SyntaxNode | undefined;
  const first = top[0];
  if (top.length === 1 && first !== undefined && (first.type === "preproc_ifdef" || first.type === "preproc_if")) {
    const head = first.text.split("\n")[0] ?? "";
    const macro = /^#\s*(?:ifndef\s+(\w+)|if\s*!\s*defined\s*\(?\s*(\w+))/.exec(head);
    const define = first.namedChildren.find((n) => n !== null && n.type !== "identifier" && n.type !== "comment" && n.type !== "preproc_defined" && n.type !== "unary_expression");
    const name = macro?.[1] ?? macro?.[2];
    if (name !== undefined && define?.type === "preproc_def" && define.childForFieldName("name")?.text === name) guard = first;
  }
  const out: ImportRef[] = [];
  const walk = (n: SyntaxNode, depth: number): void => {
    if (n.type === "preproc_include") {
      const p = n.childForFieldName("path");
      const text = p?.text ?? "";
      const flags: string[] = [];
      let specifier: string;
      if (p?.type === "string_literal") specifier = text.slice(1, -1);
      else if (p?.type === "system_lib_string") {
        specifier = text.slice(1, -1);
        flags.push("system");
      } else {
        specifier = text.split(/\s+/)[0] ?? "";
        flags.push("unresolved");
      }
      if (depth > 0) flags.push("conditional");
      // A directive's node ends after its newline: its last line is the row before, unless the file ends first.
      const end = n.endPosition.column === 0 && n.endPosition.row > n.startPosition.row ? n.endPosition.row : n.endPosition.row + 1;
      const ref: ImportRef = { specifier: specifier.trim(), start_line: n.startPosition.row + 1, end_line: end };
      if (flags.length > 0) ref.flags = flags;
      out.push(ref);
      return;
    }
    const inside = CONDITIONALS.has(n.type) && n !== guard && (n.type === "preproc_if" || n.type === "preproc_ifdef") ? 1 : 0;
    for (const c of n.namedChildren) if (c !== null) walk(c, depth + inside);
  };
  walk(root, 0);
  return out;
}

describe("c-directives: the same includes as tree-sitter's preproc_include nodes", () => {
  const roots = [path.join(FIXTURES, "c-project"), path.join(FIXTURES, "references"), ...extraRepos];
  it.each(roots)("%s", async (root) => {
    const files = cFiles(root);
    expect(files.length).toBeGreaterThan(0);
    const differences: string[] = [];
    let includes = 0;
    for (const file of files) {
      const source = splitLines(readFileSync(file, "utf8").replace(/^\uFEFF/, "")).join("\n");
      const lexical = brief(cIncludes(source));
      includes += lexical.length;
      const tree = await parseSource(languageFor(file) as NonNullable<ReturnType<typeof languageFor>>, source);
      let parsed: string[];
      let recovered: boolean;
      try {
        parsed = brief(treeIncludes(tree.rootNode));
        recovered = tree.rootNode.hasError;
      } finally {
        tree.delete();
      }
      // Where tree-sitter recovered from errors, its tree may lose includes or lift them out of
      // their `#if` (redis deps/fast_float/fast_float.h, deps/jemalloc/…/C99/stdint.h: every
      // `#if` there is closed, the lexical count is right): there, only the includes found by both
      // are compared, without `conditional`.
      const plain = (list: string[]) => list.map((s) => s.replace(/,?conditional$/, "").trimEnd());
      const same = recovered ? plain(parsed).every((s) => plain(lexical).includes(s)) : JSON.stringify(parsed) === JSON.stringify(lexical);
      if (!same) differences.push(`${path.relative(root, file)}: lexical ${lexical.join(" ")} | tree-sitter ${parsed.join(" ")}`);
    }
    expect(differences).toEqual([]);
    expect(includes).toBeGreaterThan(0);
  }, 600_000);
});
