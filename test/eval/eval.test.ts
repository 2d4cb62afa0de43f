/**
 * `codecite eval`: exams generated from the repository's facts (keys reproduced by the tools),
 * runs over scripted fake models on real HTTP (figures and ranking exactly as scripted, a failing
 * model does not stop the run), the result cache (resume, invalidation by repository change).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { Workspace, createCodeToolRegistry, repositoryCatalog } from "../../src/tools/index.js";
import {
  ResultCache,
  generateQuestions,
  parseQuestionsFile,
  checkQuestionKeys,
  rank,
  recommend,
  runEval,
  summarize,
  type EvalQuestion,
} from "../../src/eval/index.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { makeTempDir } from "../helpers/temp-tree.js";
import { ragRepo } from "./rag-repo.js";
import { SCRIPTED_MODELS, scriptedModels } from "./scripted-models.js";

async function keyOf(ws: Workspace, q: EvalQuestion): Promise<unknown> {
  const r = await createCodeToolRegistry().dispatch(q.key_call!, { workspace: ws });
  return r.ok && "evidence" in r ? r.evidence.map((e) => ({ path: e.path, start_line: e.start_line, end_line: e.end_line })) : r;
}

describe("question generator", () => {
  let root: string;
  let ws: Workspace;
  beforeAll(async () => {
    root = ragRepo();
    ws = await Workspace.open(root);
  });

  it("writes every kind the repository supports, each key reproduced by its tool", async () => {
    const registry = createCodeToolRegistry();
    const qs = await generateQuestions(ws, registry, await repositoryCatalog(ws), { count: 24, seed: 5 });
    const kinds = new Set(qs.map((q) => q.kind));
    expect([...kinds].sort()).toEqual(["definition", "definition_ambiguous", "diff", "importers", "references", "unanswerable"]);
    for (const q of qs.filter((x) => x.kind === "references")) expect(q.key_call?.name).toBe("find_references");
    for (const q of qs) {
      if (q.answerable) expect(await keyOf(ws, q)).toEqual(q.key);
      else {
        expect(q.key).toEqual([]);
        expect(await keyOf(ws, q)).toEqual([]);
      }
    }
    // A known key: the four importers of rag_common (README of the example).
    const imp = qs.find((q) => q.id === "importers:src/rag_common.py");
    expect(imp?.key.map((k) => `${k.path}:${k.start_line}`)).toEqual([
      "src/build_index.py:4",
      "src/chat_reranker.py:6",
      "src/chat_reranker_guarded.py:6",
      "src/rag_chat.py:10",
    ]);
    const diff = qs.find((q) => q.id === "diff:src/serve.py");
    expect(diff?.question).toMatch(/`src\/serve\.py`/);
    expect(diff?.key.length).toBe(1);
  });

  it("is deterministic for a seed and varies with it", async () => {
    const registry = createCodeToolRegistry();
    const cat = await repositoryCatalog(ws);
    const a = await generateQuestions(ws, registry, cat, { count: 10, seed: 11 });
    const b = await generateQuestions(ws, registry, cat, { count: 10, seed: 11 });
    const c = await generateQuestions(ws, registry, cat, { count: 10, seed: 12 });
    expect(b).toEqual(a);
    expect(a).toHaveLength(10);
    expect(c.map((q) => q.id)).not.toEqual(a.map((q) => q.id));
  });

  it("writes Chinese questions on request", async () => {
    const qs = await generateQuestions(ws, createCodeToolRegistry(), await repositoryCatalog(ws), { count: 6, seed: 2, language: "zh" });
    expect(qs.every((q) => q.language === "zh" && /[\u4e00-\u9fff]/.test(q.question))).toBe(true);
  });

  it("never emits a question whose key the tools cannot reproduce (property)", async () => {
    const registry = createCodeToolRegistry();
    const cat = await repositoryCatalog(ws);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 8 }), async (seed, count) => {
        const qs = await generateQuestions(ws, registry, cat, { count, seed });
        expect(qs.length).toBe(count);
        for (const q of qs) expect(await keyOf(ws, q)).toEqual(q.key);
      }),
      { numRuns: 4 },
    );
  });

  it.skipIf(!process.env.CODECITE_EVAL_REPO)("keys hold on a real checkout (CODECITE_EVAL_REPO)", async () => {
    const real = await Workspace.open(process.env.CODECITE_EVAL_REPO!);
    const qs = await generateQuestions(real, createCodeToolRegistry(), await repositoryCatalog(real), { count: 30, seed: 1 });
    expect(qs.length).toBeGreaterThan(10);
    for (const q of qs) expect(await keyOf(real, q)).toEqual(q.key);
  });

  it("reads a questions file and checks its keys", async () => {
    const qs = parseQuestionsFile(
      [
        '{"question": "Where is chunk_text defined?", "answer_locations": [["src/rag_common.py", 1]], "answerable": true}',
        "# a comment",
        '{"question": "Where is warp_drive defined?", "answer_locations": [], "answerable": false}',
        '{"question": "Past the end?", "answer_locations": [["src/serve.py", 100000]]}',
      ].join("\n"),
    );
    expect(qs.map((q) => [q.kind, q.answerable])).toEqual([
      ["custom", true],
      ["unanswerable", false],
      ["custom", true],
    ]);
    const checked = await checkQuestionKeys(ws, createCodeToolRegistry(), qs);
    expect(checked.usable.map((q) => q.question)).toEqual(["Where is chunk_text defined?", "Where is warp_drive defined?"]);
    expect(checked.problems).toHaveLength(1);
    expect(checked.problems[0]).toContain("src/serve.py:100000");
    expect(() => parseQuestionsFile('{"question": 3}')).toThrow(/line 1/);
    expect(() => parseQuestionsFile('{"question": "x", "answer_locations": [["a", 0]]}')).toThrow(/1-based/);
  });
});

describe("runEval over scripted models", () => {
  let root: string;
  let ws: Workspace;
  let exam: EvalQuestion[];
  let server: FakeOllama;
  beforeAll(async () => {
    root = ragRepo();
    ws = await Workspace.open(root);
    exam = await generateQuestions(ws, createCodeToolRegistry(), await repositoryCatalog(ws), { count: 10, seed: 4 });
    server = await startFakeOllama({ models: SCRIPTED_MODELS, respond: scriptedModels(exam, { okTurns: 4, slowMs: 250 }) });
  });
  afterAll(() => server.close());

  it("gives each model the figures of its script and ranks them", async () => {
    expect(exam.filter((q) => !q.answerable)).toHaveLength(1);
    const models = ["liar:7b", "flaky:7b", "texter:7b", "slow:7b", "ace:7b"];
    const outDir = makeTempDir("codecite-eval-out-");
    const cache = new ResultCache(path.join(outDir, "results.jsonl"));
    const rows = await runEval({
      provider: new OllamaProvider({ host: server.host }),
      models,
      settings: [{ num_ctx: 8192, toolshim: "auto" }],
      questions: exam,
      registry: createCodeToolRegistry(),
      workspace: ws,
      cache,
    });
    expect(rows).toHaveLength(50);
    const byModel = Object.fromEntries(summarize(rows).map((s) => [s.model, s]));
    expect(byModel["ace:7b"]).toMatchObject({ questions: 10, correct: 10, accuracy: 1, errors: 0, right_tool: 1 });
    expect(byModel["ace:7b"]!.calls).toEqual({ native: 10, dialect: 0, inline_json: 0, structural: 0, interpreter: 0, none: 0 });
    expect(byModel["slow:7b"]).toMatchObject({ correct: 10, accuracy: 1, errors: 0 });
    // The text writer: every call recovered from a Hermes block; the unanswerable question answered with an invented location.
    expect(byModel["texter:7b"]).toMatchObject({ correct: 9, errors: 0 });
    expect(byModel["texter:7b"]!.calls.dialect).toBe(10);
    expect(byModel["texter:7b"]!.calls.native).toBe(0);
    // The liar cites a line past the end of the file it read: every citation invalid, nothing correct.
    expect(byModel["liar:7b"]).toMatchObject({ correct: 0, errors: 0 });
    expect(byModel["liar:7b"]!.citations.invalid).toBe(10);
    expect(byModel["liar:7b"]!.citations.supported + byModel["liar:7b"]!.citations.seen).toBe(0);
    // Flaky answers its first two questions (two turns each), then every request fails: rows with errors, the run goes on.
    expect(byModel["flaky:7b"]).toMatchObject({ correct: 2, errors: 8 });
    expect(rows.filter((r) => r.model === "flaky:7b" && r.outcome === "error")[0]!.error).toContain("llama runner process has terminated");
    expect(rank(summarize(rows)).map((s) => s.model)).toEqual(["ace:7b", "slow:7b", "texter:7b", "flaky:7b", "liar:7b"]);
    expect(recommend(summarize(rows))).toMatchObject({ model: "ace:7b", accuracy: 1, settings: { num_ctx: 8192, toolshim: "auto" } });
    expect(byModel["ace:7b"]!.prompt_tokens).toBeGreaterThan(0);
    expect(byModel["ace:7b"]!.median_ttft_ms).toBeDefined();

    // Resume: every row comes from the cache, no chat request is made.
    const before = server.chatRequests().length;
    const again = await runEval({
      provider: new OllamaProvider({ host: server.host }),
      models: ["ace:7b", "texter:7b"],
      settings: [{ num_ctx: 8192, toolshim: "auto" }],
      questions: exam,
      registry: createCodeToolRegistry(),
      workspace: ws,
      cache: new ResultCache(path.join(outDir, "results.jsonl")),
    });
    expect(server.chatRequests().length).toBe(before);
    const key = (r: { model: string; question_id: string }) => `${r.model} ${r.question_id}`;
    expect(again.map((r) => [key(r), r.correct]).sort()).toEqual(rows.filter((r) => r.model === "ace:7b" || r.model === "texter:7b").map((r) => [key(r), r.correct]).sort());
  });

  it("reruns only the questions a repository change touches", async () => {
    const outDir = makeTempDir("codecite-eval-out-");
    const file = path.join(outDir, "results.jsonl");
    const opts = {
      provider: new OllamaProvider({ host: server.host }),
      models: ["ace:7b"],
      settings: [{ num_ctx: 8192, toolshim: "auto" as const }],
      registry: createCodeToolRegistry(),
    };
    const root2 = ragRepo();
    const ws2 = await Workspace.open(root2);
    const exam2 = await generateQuestions(ws2, opts.registry, await repositoryCatalog(ws2), { count: 10, seed: 4 });
    const local = await startFakeOllama({ models: SCRIPTED_MODELS, respond: scriptedModels(exam2) });
    try {
      await runEval({ ...opts, provider: new OllamaProvider({ host: local.host }), questions: exam2, workspace: ws2, cache: new ResultCache(file) });
      const first = local.chatRequests().length;
      // Insert two lines at the top of rag_common.py: every key inside it moves.
      const p = path.join(root2, "src/rag_common.py");
      writeFileSync(p, `# moved\n# down\n${readFileSync(p, "utf8")}`);
      const ws3 = await Workspace.open(root2);
      const exam3 = await generateQuestions(ws3, opts.registry, await repositoryCatalog(ws3), { count: 10, seed: 4 });
      const changed = exam3.filter((q) => !exam2.some((o) => o.id === q.id && o.fingerprint === q.fingerprint));
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.length).toBeLessThan(exam3.length);
      const local2 = await startFakeOllama({ models: SCRIPTED_MODELS, respond: scriptedModels(exam3) });
      try {
        await runEval({ ...opts, provider: new OllamaProvider({ host: local2.host }), questions: exam3, workspace: ws3, cache: new ResultCache(file) });
        // Only the changed questions ran again (two model turns each).
        expect(local2.chatRequests().length).toBe(changed.length * 2);
      } finally {
        await local2.close();
      }
      expect(first).toBe(exam2.length * 2);
    } finally {
      await local.close();
    }
  });
});
