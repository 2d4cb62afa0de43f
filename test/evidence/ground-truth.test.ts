/**
 * Ground truth from each language's own tooling agrees with our import statements and
 * resolutions: Python's `ast` + import system (python3), the TypeScript
 * compiler API (`preProcessFile` + `resolveModuleName`). Every known difference is listed.
 *
 * Other checkouts: `CODECITE_GT_REPOS=/path/a:/path/b npx vitest run test/evidence/ground-truth.test.ts`
 * (TypeScript runs on a scratch copy with workspace packages linked), or
 * `npx tsx test/evidence/ground-truth-run.ts <dir> --details 20` for the figures.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { comparePython, compareTypeScript, summarize, type Agreement } from "./ground-truth-compare.js";

const repo = path.resolve(import.meta.dirname, "../..");
const hasPython = spawnSync("python3", ["--version"]).status === 0;

function expectFullAgreement(a: Agreement): void {
  expect(a.onlyTruth).toEqual([]);
  expect(a.onlyOurs).toEqual([]);
  expect(a.resolution.oursOnly).toEqual([]);
  expect(a.resolution.truthOnly).toEqual([]);
  expect(a.resolution.differ).toEqual([]);
  expect(a.resolution.nameDiffer).toEqual([]);
  expect(a.resolution.agree).toBe(a.statements.truth);
}

describe.skipIf(!hasPython)("ground truth: Python ast + import system", () => {
  it("python-src-layout: every statement and resolution agrees (relative, namespace, TYPE_CHECKING, dynamic, nested)", async () => {
    const a = await comparePython(path.join(repo, "test/fixtures/python-src-layout"));
    expect(a.statements.truth).toBe(45);
    expect(a.resolution.agreeInTree).toBe(32);
    expectFullAgreement(a);
  });

  it("python-multi-root: flat, lib/ and several roots with the same package name", async () => {
    const a = await comparePython(path.join(repo, "test/fixtures/python-multi-root"));
    expect(a.statements.truth).toBe(19);
    expect(a.resolution.agreeInTree).toBe(14);
    expectFullAgreement(a);
  });

  it("examples/rag-app", async () => {
    const a = await comparePython(path.join(repo, "examples/rag-app"));
    expect(a.statements.truth).toBe(39);
    expectFullAgreement(a);
  });
});

describe("ground truth: TypeScript preProcessFile + resolveModuleName", () => {
  it("ts-esm-node: NodeNext, .js → .ts, .mts/.cts, # imports, jsconfig paths, require", async () => {
    const a = await compareTypeScript(path.join(repo, "test/fixtures/ts-esm-node"));
    // preProcessFile takes the first literal of `import("./plugins/" + n + ".mjs")`; we keep it as unresolved.
    expect(a.onlyTruth).toEqual(["scripts/plugins.mjs:4 ./plugins/"]);
    expect(a.onlyOurs).toEqual([]);
    expect(a.resolution).toMatchObject({ compared: 21, agree: 21, agreeInTree: 15, oursOnly: [], truthOnly: [], differ: [] });
  });

  it("ts-monorepo (workspace packages linked as after npm install): paths, baseUrl, extends, exports", async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), "codecite-gt-"));
    try {
      cpSync(path.join(repo, "test/fixtures/ts-monorepo"), scratch, { recursive: true });
      const a = await compareTypeScript(scratch, { linkWorkspaces: true });
      expect(a.onlyTruth).toEqual([]);
      expect(a.onlyOurs).toEqual([]);
      expect(a.resolution).toMatchObject({ compared: 19, agree: 17, agreeInTree: 15, truthOnly: [], differ: [] });
      // Known and intended: we map a missing build entry (dist/index.js) to its source, and resolve non-code files.
      expect(a.resolution.oursOnly).toEqual([
        { key: "apps/web/src/main.tsx:3 @acme/ui", ours: "packages/ui/src/index.ts", truth: "unresolved" },
        { key: "apps/web/src/main.tsx:6 ./styles.css", ours: "apps/web/src/styles.css", truth: "unresolved" },
      ]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

const extraRepos = (process.env.CODECITE_GT_REPOS ?? "").split(path.delimiter).filter((p) => p !== "");

describe.skipIf(extraRepos.length === 0)("ground truth: other checkouts (CODECITE_GT_REPOS)", () => {
  for (const dir of extraRepos) {
    it.skipIf(!hasPython)(`python: ${dir}`, async () => {
      const a = await comparePython(dir);
      process.stderr.write(`${summarize(dir, a)}\n`);
      if (a.statements.truth > 0) {
        expect(a.statements.both / a.statements.truth).toBeGreaterThanOrEqual(0.95);
        expect(a.resolution.agree / a.resolution.compared).toBeGreaterThanOrEqual(0.95);
      }
    }, 600_000);

    it(`typescript: ${dir}`, async () => {
      const scratch = mkdtempSync(path.join(tmpdir(), "codecite-gt-"));
      try {
        cpSync(dir, scratch, { recursive: true, filter: (src) => !src.split(path.sep).includes("node_modules") && !src.split(path.sep).includes(".git") });
        const a = await compareTypeScript(scratch, { linkWorkspaces: true });
        process.stderr.write(`${summarize(dir, a)}\n`);
        if (a.statements.truth > 0) {
          expect(a.statements.both / a.statements.truth).toBeGreaterThanOrEqual(0.95);
          expect(a.resolution.agree / a.resolution.compared).toBeGreaterThanOrEqual(0.9);
        }
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    }, 600_000);
  }
});
