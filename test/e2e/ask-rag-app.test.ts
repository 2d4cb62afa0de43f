/**
 * Issue 2 "Done means", end to end: the built CLI against examples/rag-app and the fake
 * Ollama server.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RAG_APP, REPO_ROOT, runCli } from "../cli/run-cli.js";
import { startFakeOllama, type ChatRequestBody, type FakeOllama } from "../helpers/fake-ollama.js";

const QUESTION = "哪些檔案直接 import rag_common？";

/** The four direct importers of src/rag_common.py. */
const IMPORTERS: Array<[string, number]> = [
  ["src/build_index.py", 4],
  ["src/chat_reranker.py", 6],
  ["src/chat_reranker_guarded.py", 6],
  ["src/rag_chat.py", 10],
];

const ANSWER = [
  "直接 import rag_common 的檔案有四個：",
  "- src/build_index.py:4",
  "- src/chat_reranker.py:6",
  "- src/chat_reranker_guarded.py:6",
  "- src/rag_chat.py:10",
].join("\n");

interface Envelope {
  ok: boolean;
  total: number;
  evidence: Array<{ path: string; start_line: number; end_line: number; kind: string; name: string; snippet: string }>;
}

function lastToolEnvelope(req: ChatRequestBody): Envelope | undefined {
  const last = req.messages.at(-1);
  return last?.role === "tool" ? (JSON.parse(last.content) as Envelope) : undefined;
}

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function scriptedServer(): Promise<FakeOllama> {
  return startFakeOllama({
    models: [
      { name: "gemma2:2b", capabilities: ["completion"] },
      { name: "qwen3:8b", capabilities: ["completion", "tools", "thinking"] },
    ],
    turns: [
      {
        when: (req) => req.messages.at(-1)?.role === "user",
        thinking: "I should list the importers.",
        tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }],
      },
      { when: (req) => lastToolEnvelope(req)?.total === 4, content: ANSWER, chunkSize: 7 },
    ],
  });
}

describe("codecite importers rag_common --root examples/rag-app --json", () => {
  it("prints exactly the four records", async () => {
    const r = await runCli(["importers", "rag_common", "--root", RAG_APP, "--json"]);
    expect(r.code).toBe(0);
    const env = JSON.parse(r.stdout) as Envelope;
    expect(env.ok).toBe(true);
    expect(env.total).toBe(4);
    expect(env.evidence.map((e) => [e.path, e.start_line])).toEqual(IMPORTERS);
    for (const e of env.evidence) {
      expect(e.kind).toBe("import");
      expect(e.snippet).toMatch(/rag_common/);
      expect(Object.keys(e).slice(0, 6)).toEqual(["path", "start_line", "end_line", "kind", "name", "snippet"]);
    }
  });
});

describe(`codecite ask "${QUESTION}" --root examples/rag-app`, () => {
  it("prints the streamed answer, the four evidence records and all citations verified", async () => {
    server = await scriptedServer();
    // Run from the repository, as the README shows: locations are relative to the current directory.
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", "examples/rag-app"], { env: { OLLAMA_HOST: server.host }, cwd: REPO_ROOT });
    expect(r.stderr).not.toContain("error");
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`${ANSWER}\n`)).toBe(true);
    expect(r.stdout).toContain("Evidence (4):");
    for (const [p, line] of IMPORTERS) {
      expect(r.stdout).toMatch(new RegExp(`^examples/rag-app/${p.replace(/\./g, "\\.")}:${line}  import `, "m"));
      expect(r.stdout).toContain(`  ✓ examples/rag-app/${p}:${line}\n`);
    }
    expect(r.stdout).toContain("Citations: 4 of 4 verified");
    expect(r.stdout).not.toContain("unverified");
    // progress and the automatic model choice go to stderr, never stdout
    expect(r.stderr).toContain("using model qwen3:8b");
    expect(r.stderr).toContain('find_importers {"module_name":"rag_common"}');
    expect(r.stdout).not.toContain("find_importers {");

    const chats = server.chatRequests();
    expect(chats).toHaveLength(2);
    expect(chats[0]!.model).toBe("qwen3:8b");
    expect(chats[0]!.stream).toBe(true);
    expect(chats[0]!.tools!.map((t) => t.function.name)).toEqual([
      "search_code",
      "find_symbol",
      "read_evidence",
      "find_importers",
      "find_references",
      "read_git_diff",
    ]);
    expect(chats[0]!.messages.at(-1)).toEqual({ role: "user", content: QUESTION });
    const toolMessage = chats[1]!.messages.at(-1)!;
    expect(toolMessage.tool_name).toBe("find_importers");
  });

  it("--json prints {answer, evidence, citations, grounding, stop_reason, steps, model, provider}", async () => {
    server = await scriptedServer();
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--json", "--model", "qwen3:8b"], {
      env: { OLLAMA_HOST: server.host },
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown> & {
      evidence: Envelope["evidence"];
      steps: Array<Record<string, unknown>>;
    };
    expect(Object.keys(out)).toEqual(["answer", "evidence", "citations", "grounding", "stop_reason", "steps", "model", "provider"]);
    expect(out).toMatchObject({ grounding: "ok", stop_reason: "answer" });
    expect(out.answer).toBe(ANSWER);
    // JSON keeps repository-relative paths, whatever the current directory.
    expect(out.evidence.map((e) => [e.path, e.start_line])).toEqual(IMPORTERS);
    // Each list item is only a location: the sentence leading the list names `rag_common`, which the lines hold.
    expect(out.citations).toEqual(IMPORTERS.map(([p, line]) => ({ path: p, line, end_line: line, status: "supported", verified: true })));
    expect(out.steps).toHaveLength(1);
    expect(Object.keys(out.steps[0]!)).toEqual(["tool", "arguments", "ok", "total", "ms", "recovered_by"]);
    expect(out.steps[0]).toMatchObject({ tool: "find_importers", arguments: { module_name: "rag_common" }, ok: true, total: 4, recovered_by: "native" });
    expect(out.model).toBe("qwen3:8b");
    expect(out.provider).toBe("ollama");
    expect(server.chatRequests()[0]!.stream).toBe(false);
  });

  it("marks an unseen citation in human output, after one re-ask that did not fix it, with a warning", async () => {
    const answer = "src/rag_chat.py:10 imports rag_common, and src/rag_chat.py:20 calls load_index.";
    server = await startFakeOllama({
      turns: [
        { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
        { content: answer },
        { when: (req) => req.messages.at(-1)?.role === "user", content: answer },
      ],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--model", "qwen3:8b"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Citations: 1 of 2 verified");
    expect(r.stdout).toContain("  ✓ examples/rag-app/src/rag_chat.py:10\n");
    expect(r.stdout).toContain("  ? examples/rag-app/src/rag_chat.py:20  unseen: never shown to the model\n");
    expect(r.stdout).toContain("\n1 supported · 1 unseen\n");
    expect(r.stderr).toContain("codecite: 1 of 2 citations of this answer were never shown to the model or do not exist");
    const reask = server.chatRequests()[2]!.messages.at(-1)!;
    expect(reask.role).toBe("user");
    expect(reask.content).toContain("- src/rag_chat.py:20: you were never shown these lines (these lines were not shown to the model)");
    expect(reask.content).toContain("Lines you have seen: src/build_index.py: 4; src/chat_reranker.py: 6; src/chat_reranker_guarded.py: 6; src/rag_chat.py: 10.");
  });

  it("run inside the root, locations stay repository-relative", async () => {
    server = await startFakeOllama({
      turns: [
        { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
        { content: "src/rag_chat.py:10 imports rag_common." },
      ],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--model", "qwen3:8b"], { env: { OLLAMA_HOST: server.host }, cwd: RAG_APP });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^src\/rag_chat\.py:10 {2}import rag_common$/m);
    expect(r.stdout).toContain("  ✓ src/rag_chat.py:10\n");
  });

  it("--max-steps ends the loop with the evidence gathered so far and a clear note", async () => {
    server = await startFakeOllama({
      turns: [{ repeat: true, tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] }],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--model", "qwen3:8b", "--max-steps", "1"], {
      env: { OLLAMA_HOST: server.host },
    });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("[codecite] Stopped after 1 tool step (the step limit)")).toBe(true);
    expect(r.stdout).toContain("\n\nEvidence (4):\n");
    expect(r.stdout).toContain("Citations: none");
    expect(server.chatRequests()).toHaveLength(2);
  });

  it("with no tool-capable model installed, runs the first installed model with the tool shim and says so once", async () => {
    server = await startFakeOllama({
      models: [
        { name: "gemma2:2b", capabilities: ["completion"] },
        { name: "phi3:mini", capabilities: ["completion"] },
      ],
      turns: [
        { when: (r) => r.messages.at(-1)?.content === QUESTION, content: '{"name": "find_importers", "arguments": {"module_name": "rag_common"}}' },
        { when: (r) => r.messages.at(-1)?.content.startsWith("Tool result (find_importers):") === true, content: "src/rag_chat.py:10" },
      ],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(0);
    const said = "codecite: using model gemma2:2b: no installed model has tool support, so it runs with the tool shim (tools described in the prompt, calls read from its text)";
    expect(r.stderr.split("\n").filter((l) => l.includes("tool shim"))).toEqual([said]);
    expect(r.stdout.startsWith("src/rag_chat.py:10\n")).toBe(true);
    expect(r.stdout).toContain("Citations: 1 of 1 verified");
    const chats = server.chatRequests();
    expect(chats.map((c) => [c.model, c.tools])).toEqual([
      ["gemma2:2b", undefined],
      ["gemma2:2b", undefined],
    ]);
  });

  it("--json: the fallback model is still named on stderr, stdout holds only the JSON", async () => {
    server = await startFakeOllama({
      models: [{ name: "gemma2:2b", capabilities: ["completion"] }],
      turns: [{ repeat: true, content: "No tools needed." }],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--json"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ answer: "No tools needed.", model: "gemma2:2b" });
    expect(r.stderr).toContain("codecite: using model gemma2:2b: no installed model has tool support");
    expect(r.stderr).not.toContain("switching");
  });

  it("--toolshim off with no tool-capable model stops and says how to fix it", async () => {
    server = await startFakeOllama({ models: [{ name: "gemma2:2b", capabilities: ["completion"] }] });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--toolshim", "off", "--json"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      ok: false,
      error: {
        code: "NO_MODEL",
        message: "none of the installed models has the tools capability (gemma2:2b), and --toolshim off needs one",
        hint: "use --toolshim auto to run gemma2:2b with the tool shim, or ollama pull qwen3:8b",
      },
    });
    expect(server.chatRequests()).toHaveLength(0);
  });

  it("a --model that is not installed: the hint says `ollama pull NAME` and lists the installed models", async () => {
    server = await startFakeOllama({ models: [{ name: "qwen3:8b" }, { name: "gemma2:2b", capabilities: ["completion"] }] });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--model", "nope"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("codecite: error: model nope is not installed on Ollama at");
    expect(r.stderr).toContain("hint: ollama pull nope — or use an installed model with --model: qwen3:8b, gemma2:2b\n");
    const j = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--model", "nope", "--json"], { env: { OLLAMA_HOST: server.host } });
    expect(JSON.parse(j.stdout)).toMatchObject({
      ok: false,
      error: { code: "MODEL_NOT_FOUND", hint: "ollama pull nope — or use an installed model with --model: qwen3:8b, gemma2:2b" },
    });
  });
});

describe("ask: an empty answer explains itself", () => {
  it("says on stderr that the model gave no answer, and still lists the evidence", async () => {
    server = await startFakeOllama({
      turns: [{ tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] }, { content: "" }],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--model", "qwen3:8b"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("codecite: the model gave an empty answer; the evidence it gathered is listed below");
    expect(r.stdout.startsWith("Evidence (4):\n")).toBe(true);
    expect(r.stdout).toContain("Citations: none");
  });
});
