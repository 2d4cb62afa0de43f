/**
 * `codecite ask -` reads the question from stdin; `--strict` exits with code 3 when the
 * grounding is `failed`; session-bound flags are validated (built CLI, fake Ollama).
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, RAG_APP, runCli } from "./run-cli.js";
import { makeTempDir } from "../helpers/temp-tree.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("codecite ask (input and exit codes)", () => {
  it("ask - reads the question from stdin", async () => {
    server = await startFakeOllama({ turns: [{ content: "I could not find anything about that." }] });
    const question = "哪些檔案直接 import rag_common？";
    const r = await runCli(["ask", "-", "--root", RAG_APP, "--model", "qwen3:8b", "--json", "--no-prefetch"], {
      env: { OLLAMA_HOST: server.host },
      stdin: `${question}\n`,
    });
    expect(r.code).toBe(0);
    expect(server.chatRequests()[0]!.messages.at(-1)).toEqual({ role: "user", content: question });
    expect(JSON.parse(r.stdout)).toMatchObject({ stop_reason: "abstained", grounding: "none" });
  });

  it("ask - with empty stdin is a usage error", async () => {
    const r = await runCli(["ask", "-", "--root", RAG_APP], { stdin: "  \n" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the question read from stdin is empty");
  });

  it("ask - with more than 1 MiB on stdin is a usage error, read no further (no model is asked)", async () => {
    server = await startFakeOllama({ turns: [{ content: "never" }] });
    // Its own spawn: the CLI closes stdin before the 2 MB are written, and the write's EPIPE is expected here.
    const child = spawn(process.execPath, [CLI, "ask", "-", "--root", RAG_APP, "--model", "qwen3:8b", "--no-prefetch"], {
      env: { ...process.env, OLLAMA_HOST: server.host, NO_COLOR: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end("where is main? ".repeat(140_000));
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const r = { code, stderr };
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the question read from stdin is longer than 1048576 bytes");
    expect(server.chatRequests()).toEqual([]);
  });

  it("--strict exits with code 3 when no citation was shown to the model; the JSON still carries the grading", async () => {
    server = await startFakeOllama({ turns: [{ repeat: true, content: "It is configured in src/serve.py:3." }] });
    const r = await runCli(["ask", "Where is the port set?", "--root", RAG_APP, "--model", "qwen3:8b", "--json", "--no-prefetch", "--strict"], {
      env: { OLLAMA_HOST: server.host },
    });
    expect(r.code).toBe(3);
    const out = JSON.parse(r.stdout) as { grounding: string; stop_reason: string; citations: Array<{ status: string }> };
    expect(out).toMatchObject({ grounding: "failed", stop_reason: "answer" });
    expect(out.citations.map((c) => c.status)).toEqual(["unseen"]);
    // One re-ask: the same answer came back.
    expect(server.chatRequests()).toHaveLength(2);
  });

  it("without --strict the same answer exits 0 and human output leads with a warning on stderr", async () => {
    server = await startFakeOllama({ turns: [{ repeat: true, content: "It is configured in src/serve.py:3." }] });
    const r = await runCli(["ask", "Where is the port set?", "--root", RAG_APP, "--model", "qwen3:8b", "--no-prefetch"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("codecite: none of this answer's citations was shown to the model; do not trust it without checking");
    expect(r.stdout).toContain("  ? examples/rag-app/src/serve.py:3  unseen: never shown to the model\n");
  });

  it("--max-calls-per-turn and CODECITE_TIMEOUT are checked before anything runs", async () => {
    const bad = await runCli(["ask", "q", "--root", RAG_APP, "--max-calls-per-turn", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid --max-calls-per-turn="0"; accepted: an integer from 1 to 1000 (tool calls)');
    const env = await runCli(["ask", "q", "--root", RAG_APP], { env: { CODECITE_TIMEOUT: "10m" } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('invalid CODECITE_TIMEOUT="10m"; accepted: an integer from 1 to 86400 (seconds)');
  });

  it("the user file's max_calls_per_turn caps the calls of a turn; the flag beats it", async () => {
    const home = makeTempDir("codecite-ask-home-");
    try {
      mkdirSync(path.join(home, "codecite"));
      writeFileSync(path.join(home, "codecite", "config.yml"), "max_calls_per_turn: 1\n");
      const turns = [
        { tool_calls: [{ name: "find_symbol", arguments: { name: "load_index" } }, { name: "find_symbol", arguments: { name: "retrieve" } }] },
        { repeat: true, content: "`load_index` is defined in src/rag_common.py." },
      ];
      const args = ["ask", "Where is load_index?", "--root", RAG_APP, "--model", "qwen3:8b", "--json", "--no-prefetch"];
      server = await startFakeOllama({ turns });
      const capped = await runCli(args, { env: { OLLAMA_HOST: server.host, XDG_CONFIG_HOME: home } });
      expect(capped.code).toBe(0);
      const out = JSON.parse(capped.stdout) as { answer: string; steps: Array<{ tool: string; arguments: unknown }> };
      expect(out.steps.map((s) => s.arguments)).toEqual([{ name: "load_index" }]);
      expect(out.answer).toContain('[codecite] One model turn asked for more than 1 tool calls (the per-turn cap, --max-calls-per-turn); 1 were not run: find_symbol({"name":"retrieve"}).');
      await server.close();
      server = await startFakeOllama({ turns });
      const flagged = await runCli([...args, "--max-calls-per-turn", "2"], { env: { OLLAMA_HOST: server.host, XDG_CONFIG_HOME: home } });
      expect((JSON.parse(flagged.stdout) as { steps: unknown[] }).steps).toHaveLength(2);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("from a subfolder of a git work tree, ask, chat and config use the tree's top as the root, as the evidence commands do", async () => {
    // The definition lives outside the subfolder; the repository file sets max_steps 1 at the top.
    const top = makeTempDir("codecite-ask-root-");
    try {
      mkdirSync(path.join(top, ".git"));
      mkdirSync(path.join(top, "lib"), { recursive: true });
      mkdirSync(path.join(top, "app", "views"), { recursive: true });
      writeFileSync(path.join(top, "lib", "store.py"), "def load_index(path):\n    return path\n");
      writeFileSync(path.join(top, ".codecite.yml"), "max_steps: 1\n");
      const cwd = path.join(top, "app", "views");
      const said = `codecite: root is the git work tree at ${top} (pass --root to choose another)`;

      server = await startFakeOllama({
        turns: [
          { tool_calls: [{ name: "find_symbol", arguments: { name: "load_index" } }] },
          { tool_calls: [{ name: "search_code", arguments: { query: "load_index" } }] },
          { content: "Not found." },
        ],
      });
      const r = await runCli(["ask", "Where is load_index defined?", "--model", "qwen3:8b", "--json", "--no-prefetch"], { cwd, env: { OLLAMA_HOST: server.host } });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(said);
      const out = JSON.parse(r.stdout) as { evidence: Array<{ path: string; start_line: number }>; stop_reason: string };
      expect(out.evidence.map((e) => `${e.path}:${e.start_line}`)).toEqual(["lib/store.py:1"]);
      // max_steps 1 from the top's .codecite.yml: the step limit stops the session at the second call.
      expect(out.stop_reason).toBe("max_steps");
      await server.close();

      server = await startFakeOllama({ turns: [{ tool_calls: [{ name: "find_symbol", arguments: { name: "load_index" } }] }, { content: "Not found." }] });
      const chat = await runCli(["chat", "--model", "qwen3:8b", "--no-prefetch"], { cwd, env: { OLLAMA_HOST: server.host }, stdin: "Where is load_index defined?\n/evidence\n" });
      expect(chat.code).toBe(0);
      expect(chat.stderr).toContain(said);
      // Locations are shown relative to the current folder, as the evidence commands show them.
      expect(chat.stdout).toContain("../../lib/store.py:1  function load_index");

      const config = await runCli(["config", "--json"], { cwd });
      expect(config.code).toBe(0);
      const shown = JSON.parse(config.stdout) as { settings: { max_steps: unknown }; files: { repo: unknown } };
      expect(shown.files.repo).toEqual({ path: path.join(top, ".codecite.yml"), found: true });
      expect(shown.settings.max_steps).toEqual({ value: 1, source: "repo_file", file: path.join(top, ".codecite.yml"), line: 1 });
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });
});
