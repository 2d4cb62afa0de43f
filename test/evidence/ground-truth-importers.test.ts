/**
 * `find_importers` against hand-checked truth on a real repository (`ground-truth/<lang>-<repo>-importers.json`:
 * query file → `path:line` of every statement importing it). Runs when the checkout is named in
 * the environment at the truth's commit: `CODECITE_GT_RUBY_RACK=/src/rack` (rack/rack),
 * `CODECITE_GT_PHP_SLIM=/src/Slim` (slimphp/Slim).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { findImporters } from "../../src/evidence/importers.js";
import { findImportersInput } from "../../src/tools/code-tool-inputs.js";

interface Truth {
  repository: string;
  commit: string;
  importers: Record<string, string[]>;
}

const suites: { env: string; file: string }[] = [
  { env: "CODECITE_GT_RUBY_RACK", file: "ruby-rack-importers.json" },
  { env: "CODECITE_GT_PHP_SLIM", file: "php-slim-importers.json" },
];

for (const { env, file } of suites) {
  const root = process.env[env];
  describe.skipIf(root === undefined || root === "")(`find_importers vs ${file}`, () => {
    const truth = JSON.parse(readFileSync(new URL(`./ground-truth/${file}`, import.meta.url), "utf8")) as Truth;
    it(`${truth.repository}: every query's importers, exactly`, async () => {
      const ws = await Workspace.open(root as string);
      const diffs: string[] = [];
      for (const [query, expected] of Object.entries(truth.importers)) {
        const r = await findImporters(ws, findImportersInput.parse({ module_name: query, max_results: 200 }));
        const got = [...new Set(r.evidence.map((e) => `${e.path}:${e.start_line}`))].sort();
        const want = [...expected].sort();
        if (JSON.stringify(got) !== JSON.stringify(want)) diffs.push(`${query}: missing ${want.filter((w) => !got.includes(w)).join(" ")} extra ${got.filter((g) => !want.includes(g)).join(" ")}`);
      }
      expect(diffs).toEqual([]);
    }, 600_000);
  });
}
