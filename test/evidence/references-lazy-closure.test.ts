/**
 * find_references reads the headers of a C/C++ include closure for their includes without parsing
 * them (`lexical-imports.ts`), and parses one only when a name lookup may find something in it:
 * a header whose text holds the name looked up (here `Widget`, the receiver of `Widget::make()`)
 * is parsed, one that holds neither that name nor the target's is never parsed; the references
 * found are the same as with every header parsed.
 */
import { mkdtempSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cpp } from "../../src/evidence/analysis/lang/cpp.js";
import { findReferences } from "../../src/evidence/references.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

let tmp = "";
let root = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line} ${(e.flags ?? []).join(",")}`);

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-lazy-"));
  root = path.join(tmp, "tree");
  process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
  putDatedFile(root, "include/widget.h", "#pragma once\nstruct Widget {\n  static int make();\n};\n");
  putDatedFile(root, "include/types.h", '#pragma once\n#include "widget.h"\n#include "other.h"\ntypedef struct Widget WidgetAlias;\n');
  putDatedFile(root, "include/other.h", "#pragma once\nint other(void);\n");
  putDatedFile(root, "src/widget.cpp", '#include "widget.h"\nint Widget::make() { return 1; }\n');
  putDatedFile(root, "src/main.cpp", '#include "types.h"\nint main() {\n  return Widget::make() + other();\n}\n');
  for (const d of ["include", "src", ""]) utimesSync(path.join(root, d), PAST, PAST);
});

afterEach(() => vi.restoreAllMocks());

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("find_references: include closure read without parsing", () => {
  it("parses a closure header only when a lookup may find something in it", async () => {
    const extract = vi.spyOn(cpp, "extract");
    const result = await findReferences(await Workspace.open(root), { name: "Widget.make", max_results: 50 });
    expect(where(result)).toEqual(["src/main.cpp:3 call"]);
    const parsed = extract.mock.calls.map(([, source]) => source);
    // types.h holds `Widget`, looked up from main.cpp through its include: parsed; other.h is read for its includes only.
    expect(parsed).toContain('#pragma once\n#include "widget.h"\n#include "other.h"\ntypedef struct Widget WidgetAlias;');
    expect(parsed).not.toContain("#pragma once\nint other(void);");
  });

  it("a later process answers the same from the kept includes", async () => {
    const extract = vi.spyOn(cpp, "extract");
    const result = await findReferences(await Workspace.open(root), { name: "Widget.make", max_results: 50 });
    expect(where(result)).toEqual(["src/main.cpp:3 call"]);
    expect(extract).not.toHaveBeenCalled();
  });
});
