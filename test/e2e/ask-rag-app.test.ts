/**
 * Issue 2 "Done means", end to end: the built CLI against examples/rag-app and the fake
 * Ollama server.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RAG_APP, runCli } from "../cli/run-cli.js";
import { startFakeOllama, type ChatRequestBody, type FakeOllama } from "../helpers/fake-ollama.js";

const QUESTION = "哪些檔案直接 import rag_common？";

/** The four direct importers of src/rag_common.py (issue 2, item 11). */
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
    const r = await runCli(["ask", QUESTION, "--root", RAG_APP], { env: { OLLAMA_HOST: server.host } });
    expect(r.stderr).not.toContain("error");
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`${ANSWER}\n`)).toBe(true);
    expect(r.stdout).toContain("Evidence (4):");
    for (const [p, line] of IMPORTERS) expect(r.stdout).toMatch(new RegExp(`^${p.replace(/\./g, "\\.")}:${line}  import `, "m"));
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
      "read_git_diff",
    ]);
    expect(chats[0]!.messages.at(-1)).toEqual({ role: "user", content: QUESTION });
    const toolMessage = chats[1]!.messages.at(-1)!;
    expect(toolMessage.tool_name).toBe("find_importers");
  });

  it("--json prints {answer, evidence, citations, steps, model, provider}", async () => {
    server = await scriptedServer();
    const r = await runCli(["ask", QUESTION, "--root", RAG_APP, "--json", "--model", "qwen3:8b"], {
      env: { OLLAMA_HOST: server.host },
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown> & {
      evidence: Envelope["evidence"];
      steps: Array<Record<string, unknown>>;
    };
    expect(Object.keys(out)).toEqual(["answer", "evidence", "citations", "steps", "model", "provider"]);
    expect(out.answer).toBe(ANSWER);
    expect(out.evidence.map((e) => [e.path, e.start_line])).toEqual(IMPORTERS);
    expect(out.citations).toEqual(IMPORTERS.map(([p, line]) => ({ path: p, line, verified: true })));
    expect(out.steps).toHaveLength(1);
    expect(Object.keys(out.steps[0]!)).toEqual(["tool", "arguments", "ok", "total", "ms", "recovered_by"]);
    expect(out.steps[0]).toMatchObject({ tool: "find_importers", arguments: { module_name: "rag_common" }, ok: true, total: 4, recovered_by: "native" });
    expect(out.model).toBe("qwen3:8b");
    expect(out.provider).toBe("ollama");
    expect(server.chatRequests()[0]!.stream).toBe(false);
  });

  it("marks an unverified citation in human output", async () => {
    server = await startFakeOllama({
      turns: [
        { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
        { content: "src/rag_chat.py:10 and src/rag_chat.py:99" },
      ],
    });
    const r = await runCli(["ask", QUESTION, "--root", RAG_APP, "--model", "qwen3:8b"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Citations: 1 of 2 verified");
    expect(r.stdout).toMatch(/✗ src\/rag_chat\.py:99 {2}unverified/);
  });

  it("--max-steps ends the loop with the evidence gathered so far and a clear note", async () => {
    server = await startFakeOllama({
      turns: [{ repeat: true, tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] }],
    });
    const r = await runCli(["ask", QUESTION, "--root", RAG_APP, "--model", "qwen3:8b", "--max-steps", "1"], {
      env: { OLLAMA_HOST: server.host },
    });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("[codecite] Stopped after 1 tool step (the step limit)")).toBe(true);
    expect(r.stdout).toContain("\n\nEvidence (4):\n");
    expect(r.stdout).toContain("Citations: none");
    expect(server.chatRequests()).toHaveLength(2);
  });

  it("says `ollama pull qwen3:8b` when no installed model supports tools", async () => {
    server = await startFakeOllama({ models: [{ name: "gemma2:2b", capabilities: ["completion"] }] });
    const r = await runCli(["ask", QUESTION, "--root", RAG_APP], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ollama pull qwen3:8b");
  });

  it("says `ollama pull NAME` when the named model is not installed", async () => {
    server = await startFakeOllama();
    const r = await runCli(["ask", QUESTION, "--root", RAG_APP, "--model", "llama3.1:8b"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ollama pull llama3.1:8b");
  });
});

describe("ask: an empty answer explains itself", () => {
  it("says on stderr that the model gave no answer, and still lists the evidence", async () => {
    server = await startFakeOllama({
      turns: [{ tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] }, { content: "" }],
    });
    const r = await runCli(["ask", QUESTION, "--root", RAG_APP, "--model", "qwen3:8b"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("codecite: the model gave an empty answer; the evidence it gathered is listed below");
    expect(r.stdout.startsWith("Evidence (4):\n")).toBe(true);
    expect(r.stdout).toContain("Citations: none");
  });
});
