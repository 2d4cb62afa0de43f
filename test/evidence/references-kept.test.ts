/**
 * `find_references` in C/C++ keeps the include resolutions of a query in the fact cache for later
 * processes of the same tree (`Resolver.resolve` and `keptResolutions` in
 * `src/evidence/references.ts`): a new Workspace over an unchanged tree gives the same records
 * without resolving an include again; an edit of `compile_commands.json` (read by the resolver)
 * makes it resolve again, and a new include written in a file is resolved when it is met. A new
 * process is a new Workspace here; the tree's mtimes lie in the past so nothing is racy.
 */
import { mkdtempSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { c } from "../../src/evidence/analysis/lang/c.js";
import { cpp } from "../../src/evidence/analysis/lang/cpp.js";
import { findReferences } from "../../src/evidence/references.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import type { EvidenceResult } from "../../src/evidence/evidence.js";
import { PAST, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const LATER = new Date(Date.UTC(2022, 0, 1));
let tmp = "";
let root = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

function write(rel: string, text: string, mtime = PAST): void {
  putDatedFile(root, rel, text, mtime);
}

/** A compilation database whose one entry, `src/app.c`, searches `dir` for headers. */
const database = (dir: string) => JSON.stringify([{ directory: ".", file: "src/app.c", command: `cc -I${dir} -c src/app.c` }]);

const where = (r: EvidenceResult) => r.evidence.map((e) => `${e.path}:${e.start_line}:${(e.flags ?? []).join(",")}`);

/** `find_references` of `name` defined in `file`, as a new process asks it (a new Workspace, no in-memory layer). */
async function refs(name: string, file: string): Promise<EvidenceResult> {
  FactIndex.closeShared();
  return findReferences(await Workspace.open(root), { name, path: file, max_results: 50 });
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "codecite-refs-kept-"));
  root = path.join(tmp, "tree");
  process.env.CODECITE_CACHE_DIR = path.join(tmp, "cache");
  // `util.h` exists twice; which one `src/app.c` sees is decided by the database's -I folder.
  write("include/a/util.h", "#pragma once\nint util_a(void);\n");
  write("include/b/util.h", "#pragma once\nint util_b(void);\n");
  write("include/api.h", '#pragma once\n#include "base.h"\n');
  write("include/base.h", "#pragma once\nint base_sum(int a, int b);\n");
  write("src/a.c", '#include "a/util.h"\nint util_a(void) { return 1; }\n');
  write("src/b.c", '#include "b/util.h"\nint util_b(void) { return 2; }\n');
  write("src/base.c", '#include "base.h"\nint base_sum(int a, int b) { return a + b; }\n');
  write("src/app.c", '#include "util.h"\n#include "api.h"\nint run(void) { return util_a() + util_b() + base_sum(1, 2); }\n');
  write("src/tool.cc", '#include "api.h"\nint tool() { return base_sum(3, 4); }\n');
  write("compile_commands.json", database("include/a"));
  for (const d of ["include/a", "include/b", "include", "src", ""]) utimesSync(path.join(root, d), PAST, PAST);
});

afterEach(() => vi.restoreAllMocks());

afterAll(() => restoreCacheDir(savedCacheDir, tmp));

describe("find_references (C/C++): include resolutions kept for later processes", () => {
  it("a new workspace over the unchanged tree gives the same records without resolving an include again", async () => {
    expect(where(await refs("base_sum", "src/base.c"))).toEqual(["src/app.c:3:call", "src/tool.cc:2:call"]);
    expect(where(await refs("util_a", "src/a.c"))).toEqual(["src/app.c:3:call"]);
    const resolveC = vi.spyOn(c, "resolve");
    const resolveCpp = vi.spyOn(cpp, "resolve");
    expect(where(await refs("base_sum", "src/base.c"))).toEqual(["src/app.c:3:call", "src/tool.cc:2:call"]);
    expect(where(await refs("util_a", "src/a.c"))).toEqual(["src/app.c:3:call"]);
    expect(resolveC).not.toHaveBeenCalled();
    expect(resolveCpp).not.toHaveBeenCalled();
  });

  it("an edit of compile_commands.json (read by the resolver) makes the next workspace resolve again", async () => {
    write("compile_commands.json", database("include/b"), LATER);
    const resolveC = vi.spyOn(c, "resolve");
    expect(where(await refs("util_a", "src/a.c"))).toEqual([]);
    expect(where(await refs("util_b", "src/b.c"))).toEqual(["src/app.c:3:call"]);
    expect(resolveC).toHaveBeenCalled();
  });

  it("an include added to a file is resolved when it is met; the kept ones are not resolved again", async () => {
    expect(where(await refs("base_sum", "src/base.c"))).toEqual(["src/app.c:3:call", "src/tool.cc:2:call"]);
    write("src/tool.cc", '#include "base.h"\nint tool() { return base_sum(3, 4); }\n', LATER);
    const resolveCpp = vi.spyOn(cpp, "resolve");
    expect(where(await refs("base_sum", "src/base.c"))).toEqual(["src/app.c:3:call", "src/tool.cc:2:call"]);
    expect(resolveCpp.mock.calls.map(([ref, from]) => `${from} ${ref.specifier}`)).toEqual(["src/tool.cc base.h"]);
  });
});
