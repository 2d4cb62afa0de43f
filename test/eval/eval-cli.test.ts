/**
 * `codecite eval` as a user runs it (the built CLI as a subprocess) against scripted fake models:
 * the JSON object, the files in `--out`, `--resume`, the summary table, and bad flags.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace, createCodeToolRegistry, repositoryCatalog } from "../../src/tools/index.js";
import { generateQuestions, type EvalQuestion } from "../../src/eval/index.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { makeTempDir } from "../helpers/temp-tree.js";
import { CLI, runCli } from "../cli/run-cli.js";
import { ragRepo } from "./rag-repo.js";
import { SCRIPTED_MODELS, scriptedModels } from "./scripted-models.js";

describe("codecite eval (CLI)", () => {
  let root: string;
  let exam: EvalQuestion[];
  let server: FakeOllama;
  beforeAll(async () => {
    root = ragRepo();
    const ws = await Workspace.open(root);
    // The CLI writes the same exam for the same seed and count: the fake models look questions up in it.
    exam = await generateQuestions(ws, createCodeToolRegistry(), await repositoryCatalog(ws), { count: 6, seed: 4 });
    server = await startFakeOllama({ models: SCRIPTED_MODELS, respond: scriptedModels(exam) });
  });
  afterAll(() => server.close());

  it("prints the figures, writes the report, and resumes from its results", async () => {
    const out = makeTempDir("codecite-eval-cli-");
    const args = ["eval", "--root", root, "--models", "liar:7b,ace:7b", "--count", "6", "--seed", "4", "--out", out, "--host", server.host];
    const r = await runCli([...args, "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as {
      models: Array<{ model: string; questions: number; correct: number; accuracy: number; calls: Record<string, number>; citations: Record<string, number>; settings: unknown }>;
      recommendation: { model: string; accuracy: number; settings: unknown };
      results: Array<{ model: string; question_id: string; correct: boolean }>;
      questions: number;
      out: string;
    };
    expect(j.questions).toBe(6);
    expect(j.results).toHaveLength(12);
    expect(j.models.map((m) => [m.model, m.correct, m.questions])).toEqual([
      ["ace:7b", 6, 6],
      ["liar:7b", 0, 6],
    ]);
    expect(j.models[0]!.calls).toEqual({ native: 6, dialect: 0, inline_json: 0, structural: 0, interpreter: 0, none: 0 });
    expect(j.recommendation).toEqual({ model: "ace:7b", settings: { num_ctx: 8192, toolshim: "auto" }, accuracy: 1, median_ms: expect.any(Number) });
    expect(new Set(j.results.map((x) => x.question_id))).toEqual(new Set(exam.map((q) => q.id)));
    for (const f of ["report.html", "results.jsonl", "summary.json", "questions.jsonl"]) expect(existsSync(path.join(out, f))).toBe(true);
    expect(readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n")).toHaveLength(12);
    expect(readFileSync(path.join(out, "report.html"), "utf8")).toContain('id="score-bars"');
    expect(r.stderr).toContain(`report ${path.join(out, "report.html")}`);

    // Resume: nothing runs again; the human summary names the recommendation.
    const before = server.chatRequests().length;
    const again = await runCli([...args, "--resume"]);
    expect(again.code).toBe(0);
    expect(server.chatRequests().length).toBe(before);
    expect(again.stdout).toMatch(/^model\s+setting\s+correct\s+accuracy/);
    expect(again.stdout).toMatch(/\nace:7b\s+8192\/auto\s+6\/6\s+100%/);
    expect(again.stdout).toContain("Recommended: ace:7b (num_ctx 8192, tool shim auto) — 100% correct");
  });

  // The exam's questions, the models' answers and the report quote the repository: under the
  // cache folder (no --out) they are the user's alone, like the fact cache beside them.
  it.skipIf(process.platform === "win32")("without --out, writes into a folder only the user can enter, creating the cache folder so", async () => {
    const cache = path.join(makeTempDir("codecite-eval-cache-"), "fresh", "codecite");
    const r = await runCli(["eval", "--root", root, "--models", "ace:7b", "--count", "6", "--seed", "4", "--host", server.host, "--json"], { env: { CODECITE_CACHE_DIR: cache } });
    expect(r.code).toBe(0);
    const out = (JSON.parse(r.stdout) as { out: string }).out;
    expect(out.startsWith(`${cache}${path.sep}`)).toBe(true);
    expect(existsSync(path.join(out, "report.html"))).toBe(true);
    const folders = [cache, ...path.relative(cache, out).split(path.sep).map((_, i, parts) => path.join(cache, ...parts.slice(0, i + 1)))];
    expect(folders.map((d) => [path.relative(cache, d), (statSync(d).mode & 0o777).toString(8)])).toEqual(folders.map((d) => [path.relative(cache, d), "700"]));
  });

  it("stops on bad flags and unknown models with the usual exit codes", async () => {
    const base = ["eval", "--root", root, "--host", server.host];
    const count = await runCli([...base, "--models", "ace:7b", "--count", "0"]);
    expect(count.code).toBe(2);
    expect(count.stderr).toContain("--count must be between 1 and 500, got 0");
    const shim = await runCli([...base, "--models", "ace:7b", "--toolshim", "auto,maybe"]);
    expect(shim.code).toBe(2);
    expect(shim.stderr).toContain("maybe");
    const prefetch = await runCli([...base, "--models", "ace:7b", "--prefetch", "sometimes"]);
    expect(prefetch.code).toBe(2);
    expect(prefetch.stderr).toContain('--prefetch takes on, off or on,off, got "sometimes"');
    const both = await runCli([...base, "--models", "ace:7b", "--all-installed"]);
    expect(both.code).toBe(2);
    const missing = await runCli([...base, "--models", "ace:7b,nope:1b", "--json"]);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, error: { code: "MODEL_NOT_FOUND", message: "not installed: nope:1b" } });
  });

  it("keeps the finished rows on Ctrl-C and finishes the rest with --resume", async () => {
    const out = makeTempDir("codecite-eval-int-");
    const results = path.join(out, "results.jsonl");
    const args = ["eval", "--root", root, "--models", "slow:7b", "--count", "6", "--seed", "4", "--out", out, "--host", server.host];
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
    delete env.OLLAMA_HOST;
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    // Interrupt as soon as the first row is on disk.
    while (!(existsSync(results) && readFileSync(results, "utf8").trim() !== "")) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const kept = readFileSync(results, "utf8").trim().split("\n");
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThan(6);
    expect(stderr).toContain("interrupted;");
    expect(stderr).toContain("--resume");
    expect(existsSync(path.join(out, "report.html"))).toBe(true);
    const before = server.chatRequests().length;
    const resumed = await runCli([...args, "--resume", "--json"]);
    expect(resumed.code).toBe(0);
    const j = JSON.parse(resumed.stdout) as { results: unknown[]; models: Array<{ correct: number }> };
    expect(j.results).toHaveLength(6);
    expect(j.models[0]!.correct).toBe(6);
    // Only the unfinished questions ran (two model turns each).
    expect(server.chatRequests().length - before).toBe((6 - kept.length) * 2);
  });
});
