/**
 * `codecite chat` (the built CLI) against the fake Ollama: in line mode (stdin a pipe) and on a
 * pseudo-terminal driven by `test/helpers/pty-driver.py` (Python's standard `pty` module; the
 * test skips when python3 is missing): a follow-up reuses the first answer's evidence, Ctrl-C
 * cancels an answer and keeps the session, the history file records the questions, Ctrl-D leaves.
 */
import { execFile, spawnSync } from "node:child_process";
import { readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { makeTempDir } from "../helpers/temp-tree.js";
import { CLI, RAG_APP, REPO_ROOT } from "./run-cli.js";
import { CHILD_TIMEOUT_MS } from "../helpers/patience.js";

const HAS_PYTHON = spawnSync("python3", ["--version"]).status === 0;
const DRIVER = path.join(REPO_ROOT, "test/helpers/pty-driver.py");

let ollama: FakeOllama | undefined;
let state: string | undefined;
afterEach(async () => {
  await ollama?.close();
  if (state) rmSync(state, { recursive: true, force: true });
  ollama = state = undefined;
});

/** Turns for: a first question that reads evidence, a follow-up answered from it (no tool call). */
function followUpTurns() {
  return [
    { when: (r: { messages: Array<{ content: string }> }) => r.messages.some((m) => m.content.includes("Who imports rag_common")), tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
    { when: (r: { messages: Array<{ role: string }> }) => r.messages.some((m) => m.role === "tool"), content: "src/rag_chat.py:10 imports rag_common." },
    {
      // The follow-up carries the conversation and the evidence gathered so far.
      when: (r: { messages: Array<{ content: string }> }) =>
        r.messages.some((m) => m.content.includes("Evidence gathered earlier in this session") && m.content.includes("- src/rag_chat.py:10 import rag_common")),
      content: "As found before, src/rag_chat.py:10 is the import.",
    },
  ];
}

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", CODECITE_MODEL: "qwen3:8b", CODECITE_TOOLSHIM_BACKEND: "local", ...extra };
  delete e.CODECITE_PROVIDER;
  delete e.OPENAI_BASE_URL;
  return e;
}

describe("codecite chat", () => {
  it("line mode: one question per line, the follow-up graded against the session's evidence", async () => {
    ollama = await startFakeOllama({ turns: followUpTurns() });
    const input = "Who imports rag_common?\n/evidence\nAnd which line was it?\n/citations\n";
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [CLI, "chat", "--root", RAG_APP, "--no-prefetch"], { env: env({ OLLAMA_HOST: ollama!.host }) }, (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
      child.stdin!.end(input);
    });
    expect(r.stderr).not.toContain("error:");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("src/rag_chat.py:10 imports rag_common.");
    expect(r.stdout).toContain("Evidence: 4 new, 4 in this session");
    expect(r.stdout).toMatch(/Evidence \(4\):\n/);
    expect(r.stdout).toContain("As found before, src/rag_chat.py:10 is the import.");
    // The follow-up made no tool call, yet its citation is verified against the earlier evidence.
    expect(r.stdout).toContain("Evidence: 0 new, 4 in this session");
    expect(r.stdout.match(/Citations: 1 of 1 verified/g)?.length).toBe(3);
    expect(ollama.pending()).toBe(0);
  });

  it("line mode: a follow-up that gathers the same records again counts them as in the session, not new", async () => {
    const asked = (q: string) => (r: { messages: Array<{ role: string; content: string }> }) => r.messages.some((m) => m.role === "user" && m.content.includes(q));
    const answered = (q: string) => (r: { messages: Array<{ role: string; content: string }> }) => asked(q)(r) && r.messages.some((m) => m.role === "tool");
    ollama = await startFakeOllama({
      turns: [
        { when: answered("Who imports rag_common"), content: "src/rag_chat.py:10 imports rag_common." },
        { when: asked("Who imports rag_common"), tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
        { when: answered("Check it again"), content: "Still src/rag_chat.py:10." },
        { when: asked("Check it again"), tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
      ],
    });
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [CLI, "chat", "--root", RAG_APP, "--no-prefetch"], { env: env({ OLLAMA_HOST: ollama!.host }) }, (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
      child.stdin!.end("Who imports rag_common?\nCheck it again, who imports rag_common?\n");
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Still src/rag_chat.py:10.");
    expect(r.stdout.split("\n").filter((l) => l.startsWith("Evidence:"))).toEqual([
      "Evidence: 4 new, 4 in this session (/evidence lists them)",
      "Evidence: 0 new, 4 in this session (/evidence lists them)",
    ]);
  });

  it("line mode: a line over 1 MiB ends the session with a usage error; the questions before it are answered, the long line never reaches the model", async () => {
    ollama = await startFakeOllama({ turns: [{ repeat: true, content: "It is in src/serve.py." }] });
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [CLI, "chat", "--root", RAG_APP, "--no-prefetch"], { env: env({ OLLAMA_HOST: ollama!.host }), maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
      );
      // The CLI stops reading before all is written: the write's EPIPE is expected.
      child.stdin!.on("error", () => undefined);
      child.stdin!.end(`Where is the port set?\n${"port ".repeat(300_000)}\nAnd the host?\n`);
    });
    expect(r.stderr).toContain("a line read from stdin is longer than 1048576 bytes");
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("It is in src/serve.py.");
    const sent = ollama.chatRequests().flatMap((q) => q.messages.map((m) => m.content));
    expect(sent).toContain("Where is the port set?");
    expect(sent.filter((c) => c.includes("port port") || c.includes("And the host?"))).toEqual([]);
  });

  it("line mode: /model with a model the server does not have is refused as --model is and the session keeps its model; an installed one is taken", async () => {
    const models = [{ name: "qwen3:8b" }, { name: "gemma3:4b" }];
    ollama = await startFakeOllama({ models, turns: [{ repeat: true, content: "It is in src/serve.py." }] });
    const run = (args: string[], input: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(process.execPath, [CLI, ...args, "--root", RAG_APP, "--no-prefetch"], { env: env({ OLLAMA_HOST: ollama!.host }) }, (error, stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
        child.stdin!.end(input);
      });
    const refused = [
      `codecite: error: model qwen3:8 is not installed on Ollama at ${ollama.host} (model 'qwen3:8' not found)`,
      "hint: ollama pull qwen3:8 — or use an installed model with --model: qwen3:8b, gemma3:4b",
    ];
    const ask = await run(["ask", "--model", "qwen3:8", "Where is the port set?"], "");
    expect(ask.code).toBe(1);
    expect(ask.stderr.split("\n").filter((l) => /^(codecite: error|hint):/.test(l))).toEqual(refused);

    const r = await run(["chat"], "/model qwen3:8\nWhere is the port set?\n/model\n/model gemma3:4b\nAnd the host?\n");
    expect(r.code).toBe(0);
    expect(r.stderr.split("\n").filter((l) => /^(codecite: error|hint):/.test(l))).toEqual(refused);
    expect(r.stdout.split("\n").filter((l) => l.startsWith("model:"))).toEqual(["model: qwen3:8b (unchanged)", "model: qwen3:8b", "model: gemma3:4b"]);
    // Each answer may take more than one request (a re-ask); none goes to the refused name.
    expect([...new Set(ollama.chatRequests().map((b) => b.model))]).toEqual(["qwen3:8b", "gemma3:4b"]);
  });

  it.skipIf(!HAS_PYTHON)("on a terminal: follow-up, Ctrl-C mid-answer keeps the session, history file, Ctrl-D leaves", async () => {
    ollama = await startFakeOllama({
      turns: [
        ...followUpTurns(),
        { when: (r) => r.messages.some((m) => m.content.includes("Think forever")), hang: true },
        { when: (r) => r.messages.some((m) => m.content.includes("Still there?")), content: "Yes, still here." },
      ],
      models: [{ name: "qwen3:8b" }, { name: "other:1b" }],
    });
    state = makeTempDir("codecite-chat-state-");
    const steps = [
      { expect: "codecite> " },
      { send: "Who imports rag_common?\r" },
      { expect: "Citations:" },
      { expect: "codecite> " },
      { send: "And which line was it?\r" },
      { expect: "As found before" },
      { expect: "codecite> " },
      { send: "Think forever\r" },
      { send: "\u0003" },
      { expect: "answer cancelled; the session goes on" },
      { send: "Still there?\r" },
      { expect: "Yes, still here." },
      { expect: "codecite> " },
      { send: "/model other:1b\r" },
      { expect: "model: other:1b" },
      { send: "\u0004" },
    ];
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(
        "python3",
        [DRIVER, JSON.stringify(steps), "--", process.execPath, CLI, "chat", "--root", RAG_APP, "--no-prefetch"],
        { env: env({ OLLAMA_HOST: ollama!.host, XDG_STATE_HOME: state! }), timeout: CHILD_TIMEOUT_MS },
        (error, stdout) => resolve({ code: error ? (error.code as number) : 0, stdout }),
      );
    });
    expect(out.stdout).not.toContain("MISSING");
    expect(out.stdout).not.toContain("error:");
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("EXIT 0");
    expect(out.stdout).toContain("Citations: 1 of 1 verified");
    const history = readFileSync(path.join(state, "codecite", "chat_history"), "utf8").split("\n");
    // The questions are the user's alone (src/cli/chat-history.ts).
    expect((statSync(path.join(state, "codecite", "chat_history")).mode & 0o777).toString(8)).toBe("600");
    expect(history.slice(0, 5)).toEqual(["Who imports rag_common?", "And which line was it?", "Think forever", "Still there?", "/model other:1b"]);
  });
});
