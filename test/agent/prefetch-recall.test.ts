/**
 * The committed subset of the prefetch recall check (issue 10; the full set of real questions
 * over click, httpx, zustand and mux runs in `npm run bench` with `CODECITE_PREFETCH_REPOS`, see
 * bench/prefetch-recall/). A repository built here holds the shapes the real questions needed:
 * a Go test importing a standard-library package path (`net/http/httptest`), a TypeScript module
 * importing a hyphenated npm package by a subpath, a package imported by many files, and a
 * change to one file next to a large generated change. The answer locations come from the same
 * oracles as the full set (regular expressions over `git ls-files`, `git diff -U0`), and the
 * check is the bench's: the tool results prefetch gives the model must hold every location.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kindOf, keysOf, type KeyedQuestion, type SpecQuestion } from "../../bench/prefetch-recall/keys.js";
import { recallOf } from "../../bench/prefetch-recall/recall.js";
import { Workspace } from "../../src/tools/index.js";
import { commitAll, git } from "../helpers/git.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let root: string;
let workspace: Workspace;

/** A generated module whose every function changes between the two commits: a diff of `n` hunks. */
function generated(n: number, value: number): string {
  return Array.from({ length: n }, (_, i) => `def f${i}():\n    # generated\n    # generated\n    # generated\n    # generated\n    return ${value}\n\n`).join("");
}

beforeAll(async () => {
  root = makeTempDir("codecite-recall-");
  git(root, "init", "-q");
  putFile(root, "go.mod", "module example.com/router\n\ngo 1.21\n");
  putFile(root, "router.go", "package router\n\nimport \"net/http\"\n\n// NewRouter returns a router.\nfunc NewRouter() *http.ServeMux {\n\treturn http.NewServeMux()\n}\n");
  putFile(root, "router_test.go", "package router\n\nimport (\n\t\"net/http\"\n\t\"net/http/httptest\"\n\t\"testing\"\n)\n\nfunc TestRouter(t *testing.T) {\n\t_ = httptest.NewRecorder()\n\t_ = http.MethodGet\n}\n");
  putFile(root, "bench_test.go", "package router\n\nimport (\n\t\"net/http/httptest\"\n\t\"testing\"\n)\n\nfunc BenchmarkRouter(b *testing.B) {\n\t_ = httptest.NewRecorder()\n}\n");
  putFile(root, "web/traditional.ts", "import useSyncExternalStoreExports from 'use-sync-external-store/shim/with-selector'\n\nexport const useStoreWithEqualityFn = useSyncExternalStoreExports\n");
  putFile(root, "web/vanilla.ts", "export const createStore = () => ({})\n");
  for (let i = 0; i < 6; i++) putFile(root, `web/mw${i}.ts`, `import { createStore } from './vanilla.ts'\n\nexport const m${i} = createStore\n`);
  putFile(root, "app/aa_generated.py", generated(300, 0));
  const padding = "# store\n".repeat(50);
  putFile(root, "app/store.py", `${padding}class Store:\n    def save(self):\n        return 1\n`);
  commitAll(root, "first");
  putFile(root, "app/aa_generated.py", generated(300, 1));
  putFile(root, "app/store.py", `${padding}class Store:\n    def save(self):\n        return 2\n`);
  commitAll(root, "second");
  workspace = await Workspace.open(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const QUESTIONS: SpecQuestion[] = [
  { repo: "t", lang: "zh", question: "哪些檔案匯入了 net/http/httptest？", oracle: { import: '"net/http/httptest"' } },
  { repo: "t", lang: "en", question: "Which files import use-sync-external-store?", oracle: { import: "from 'use-sync-external-store" } },
  { repo: "t", lang: "en", question: "Who imports web/vanilla?", oracle: { import: "from '\\./vanilla\\.ts'" } },
  { repo: "t", lang: "en", question: "What changed in app/store.py between HEAD~1 and HEAD?", oracle: { diff: "HEAD~1..HEAD", path: "app/store.py" } },
  { repo: "t", lang: "zh", question: "HEAD~1 到 HEAD 之間 app/store.py 改了什麼？", oracle: { diff: "HEAD~1..HEAD", path: "app/store.py" } },
  { repo: "t", lang: "en", question: "Show the diff of HEAD.", oracle: { diff: "HEAD" } },
];

describe("prefetch recall on the shapes of real questions", () => {
  it.each(QUESTIONS.map((q) => [q.question, q] as const))("%s", async (_, spec) => {
    const q: KeyedQuestion = { ...spec, kind: kindOf(spec.oracle), keys: keysOf(root, spec.oracle) };
    const row = await recallOf(workspace, q);
    expect(row.missing).toEqual([]);
    expect(row.hit).toBe(true);
  });

  it("derives the keys the oracles give (the answer sets are whole)", () => {
    expect(keysOf(root, { import: '"net/http/httptest"' })).toEqual([
      { path: "bench_test.go", line: 4 },
      { path: "router_test.go", line: 5 },
    ]);
    expect(keysOf(root, { import: "from '\\./vanilla\\.ts'" })).toHaveLength(6);
    expect(keysOf(root, { diff: "HEAD~1..HEAD", path: "app/store.py" })).toEqual([{ path: "app/store.py", line: 53 }]);
  });

  it("a diff question that names a file gets that file's diff, not the whole diff cut to fit", async () => {
    const q: KeyedQuestion = { ...QUESTIONS[3]!, kind: "diff", keys: [{ path: "app/store.py", line: 53 }] };
    const row = await recallOf(workspace, q);
    expect(row.lookups).toEqual(['read_git_diff({"base":"HEAD~1","head":"HEAD","path":"app/store.py"})']);
  });

  it("a module path or hyphenated package is looked up as a module of an import question", async () => {
    const row = await recallOf(workspace, { ...QUESTIONS[0]!, kind: "importers", keys: [] });
    expect(row.lookups).toEqual(['find_importers({"module_name":"net/http/httptest","include_submodules":true})']);
  });
});
