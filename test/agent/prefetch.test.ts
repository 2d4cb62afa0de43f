/**
 * Evidence first (issue 10 item 3): the question's code names, in English and Chinese, looked
 * up against a generated repository with git history; the prefetched evidence must hold each
 * question's answer location (the small committed set of the prefetch recall check; the full
 * set runs in `npm run bench` over real checkouts).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prefetchEvidence, questionNames } from "../../src/agent/prefetch.js";
import { prepare } from "../../src/agent/session.js";
import type { Provider } from "../../src/llm/types.js";
import { Workspace, createCodeToolRegistry } from "../../src/tools/index.js";
import { commitAll, git } from "../helpers/git.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

let root: string;
let workspace: Workspace;
beforeAll(async () => {
  root = makeTempDir("codecite-prefetch-");
  git(root, "init", "-q");
  putFile(root, "app/store.py", "class Store:\n    def save(self):\n        return 1\n");
  putFile(root, "app/cli.py", "from app.store import Store\n\n\ndef main():\n    Store().save()\n");
  putFile(root, "rag_common.py", "def load_index(path):\n    return path\n");
  putFile(root, "tools/build_index.py", "import rag_common\n");
  putFile(root, "web/server.ts", "export function startServer(port: number) {\n  return port;\n}\n");
  commitAll(root, "first");
  putFile(root, "app/store.py", "class Store:\n    def save(self):\n        return 2\n");
  commitAll(root, "second");
  workspace = await Workspace.open(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A provider that is never called: prefetch runs before the first model call. */
const idle: Provider = { id: "idle", location: "-", chat: () => Promise.reject(new Error("not called")) };

async function prefetched(question: string) {
  const s = await prepare({ provider: idle, model: "m", registry: createCodeToolRegistry(), workspace, question });
  try {
    await prefetchEvidence(s);
    return { steps: s.steps, evidence: s.log.evidence() };
  } finally {
    s.dispose();
  }
}

/** Questions and the location each answer lies at (path, line). */
const CASES: Array<[string, string, number]> = [
  ["Where is Store defined?", "app/store.py", 1],
  ["Store 類別定義在哪裡？", "app/store.py", 1],
  ["Which files import rag_common?", "tools/build_index.py", 1],
  ["哪些檔案直接 import rag_common？", "tools/build_index.py", 1],
  ["Where is `load_index`?", "rag_common.py", 1],
  ["What does startServer return?", "web/server.ts", 1],
  ["Who calls save?", "app/cli.py", 5],
  ["What changed in HEAD~1..HEAD? Show the diff of HEAD", "app/store.py", 3],
  ["What is in app/cli.py?", "app/cli.py", 1],
];

describe("prefetch", () => {
  it("reads code names from questions in any language, skipping common words", () => {
    expect(questionNames("哪些檔案直接 import rag_common？").map((n) => n.text)).toEqual(["rag_common"]);
    // Paths and refs first, then code-shaped names.
    expect(questionNames("Where is `Session.send` defined in requests/sessions.py?").map((n) => [n.text, n.kind])).toEqual([
      ["requests/sessions.py", "path"],
      ["Session.send", "name"],
    ]);
    expect(questionNames("What changed since v1.2.0 and HEAD~2?").map((n) => [n.text, n.kind])).toEqual([
      ["v1.2.0", "ref"],
      ["HEAD~2", "ref"],
    ]);
  });

  it.each(CASES)("%s → the prefetched evidence holds %s:%i", async (question, path, line) => {
    const { steps, evidence } = await prefetched(question);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((s) => s.recovered_by === "prefetch" && s.ok)).toBe(true);
    expect(evidence.some((e) => e.path === path && e.start_line <= line && line <= e.end_line)).toBe(true);
  });

  it("names the repository does not know give nothing", async () => {
    const { steps } = await prefetched("How does the billing module compute taxes?");
    expect(steps).toEqual([]);
  });
});

describe("question names of hostile questions", () => {
  // The question of the `codecite` model comes from any client of `codecite serve`. Trailing
  // punctuation was matched from every mark of a run inside a word, each attempt reading the rest
  // of the run: 32 KB of dots took 1.8 s of the gateway's one thread, this half megabyte minutes.
  it("a word holding half a megabyte of dots costs one read of them", () => {
    expect(questionNames(`where is \`load\` called, and a${".".repeat(512_000)}b?`)).toEqual([{ text: "load", kind: "name", codeShaped: true }]);
    expect(questionNames("where is `load_index`... called?!")).toEqual([{ text: "load_index", kind: "name", codeShaped: true }]);
  });

  it("half a megabyte of dashes costs one read of them; words after marks are still found", () => {
    // A word was tried from every dash of a run without letters, each attempt reading the rest of
    // the run (32 KB: 1.7 s).
    expect(questionNames(`where is loadIndex called ${"-".repeat(512_000)} x`)).toEqual([{ text: "loadIndex", kind: "name", codeShaped: true }]);
    expect(questionNames("what does Foo::bar.baz_qux do to @scope/pkg?").map((n) => n.text)).toEqual(["@scope/pkg", "Foo::bar"]);
  });
});
