/**
 * A name-only find_importers query over several language families whose needles differ (Python's
 * import-line patterns, JS/TS hints, the plain word for the others) runs one ripgrep prefilter per
 * group of families (`importers.ts` `collectMatches`): the runs go on together, not one after the
 * other, and the answer is the one each group's own run gives.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findImporters } from "../../src/evidence/importers.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { FactIndex } from "../../src/fact-cache/fact-index.js";
import { makeTempDir, putDatedFile } from "../helpers/temp-tree.js";
import { restoreCacheDir } from "../helpers/cache-dir.js";

const runs = vi.hoisted(() => ({ inFlight: 0, most: 0, started: 0 }));

vi.mock("../../src/evidence/analysis/text-prefilter.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/evidence/analysis/text-prefilter.js")>();
  return {
    ...real,
    filesMentioning: async (...args: Parameters<typeof real.filesMentioning>) => {
      runs.started++;
      runs.most = Math.max(runs.most, ++runs.inFlight);
      try {
        return await real.filesMentioning(...args);
      } finally {
        runs.inFlight--;
      }
    },
  };
});

let tmp = "";
const savedCacheDir = process.env.CODECITE_CACHE_DIR;

beforeAll(() => {
  tmp = makeTempDir("codecite-prefilter-runs-");
  process.env.CODECITE_CACHE_DIR = `${tmp}/cache`;
  const root = `${tmp}/tree`;
  putDatedFile(root, "app/main.py", "import yaml\n\nprint(yaml.safe_load('a: 1'))\n");
  putDatedFile(root, "app/other.py", "yaml = None\n");
  putDatedFile(root, "web/main.ts", 'import yaml from "yaml";\nconsole.log(yaml);\n');
  putDatedFile(root, "web/other.ts", "export const yaml = 1;\n");
  putDatedFile(root, "svc/main.go", 'package main\n\nimport "yaml"\n\nvar _ = yaml.Unmarshal\n');
  putDatedFile(root, "svc/other.go", "package main\n\nvar yaml = 1\n");
});

afterAll(() => {
  FactIndex.closeShared();
  restoreCacheDir(savedCacheDir, tmp);
  rmSync(tmp, { recursive: true, force: true });
});

describe("prefilter runs of a name-only importers query", () => {
  it("the groups' ripgrep runs overlap; the answer lists each family's importers", async () => {
    const ws = await Workspace.open(`${tmp}/tree`);
    const r = await findImporters(ws, { module_name: "yaml", max_results: 50 });
    expect(runs.started).toBe(3);
    expect(runs.most).toBe(3);
    expect(r.evidence.map((e) => `${e.path}:${e.start_line} ${e.name}`)).toEqual(["app/main.py:1 yaml", "svc/main.go:3 yaml", "web/main.ts:1 yaml"]);
  });
});
