/**
 * Issue 3 "Done means", end to end: the built CLI with the tool shim against the fake server.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RAG_APP, runCli } from "../cli/run-cli.js";
import { startFakeOllama, type ChatRequestBody, type FakeOllama } from "../helpers/fake-ollama.js";

const QUESTION = "哪些檔案直接 import rag_common？";
const ANSWER = "src/build_index.py:4, src/chat_reranker.py:6, src/chat_reranker_guarded.py:6, src/rag_chat.py:10";
const TEXT_CALL = '{"name": "find_importers", "arguments": {"module_name": "rag_common"}}';

/** True once the importers' result is in the request: as a tool message (native) or as text (shim `on`). */
function hasImportersResult(req: ChatRequestBody): boolean {
  const last = req.messages.at(-1);
  if (!last) return false;
  if (last.role === "tool") return (JSON.parse(last.content) as { total?: number }).total === 4;
  return last.role === "user" && last.content.startsWith("Tool result (find_importers):") && last.content.includes('"total":4');
}

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("ask with the tool shim", () => {
  it("auto: a qwen2.5-coder-style bare JSON reply runs the tool and the answer arrives", async () => {
    server = await startFakeOllama({
      models: [{ name: "qwen2.5-coder:7b", capabilities: ["completion", "tools", "insert"] }],
      turns: [
        { when: (r) => r.messages.at(-1)?.role === "user", content: TEXT_CALL, chunkSize: 5 },
        { when: hasImportersResult, content: ANSWER },
      ],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--model", "qwen2.5-coder:7b", "--json"], {
      env: { OLLAMA_HOST: server.host, CODECITE_TOOLSHIM: "auto" },
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      answer: string;
      evidence: unknown[];
      citations: Array<{ verified: boolean }>;
      steps: Array<{ tool: string; arguments: unknown; ok: boolean; total: number; recovered_by: string }>;
    };
    expect(out.answer).toBe(ANSWER);
    expect(out.steps).toMatchObject([
      { tool: "find_importers", arguments: { module_name: "rag_common" }, ok: true, total: 4, recovered_by: "inline_json" },
    ]);
    expect(out.evidence).toHaveLength(4);
    expect(out.citations).toHaveLength(4);
    expect(out.citations.every((c) => c.verified)).toBe(true);
    expect(server.chatRequests()[0]!.tools).toHaveLength(6);
  });

  it("auto, human mode: the streamed answer never shows the JSON call", async () => {
    server = await startFakeOllama({
      models: [{ name: "qwen2.5-coder:7b", capabilities: ["completion", "tools"] }],
      turns: [
        { when: (r) => r.messages.at(-1)?.role === "user", content: TEXT_CALL, chunkSize: 3 },
        { when: hasImportersResult, content: ANSWER, chunkSize: 3 },
      ],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--model", "qwen2.5-coder:7b"], {
      env: { OLLAMA_HOST: server.host },
    });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`${ANSWER}\n`)).toBe(true);
    expect(r.stdout).not.toContain('"arguments"');
    expect(r.stdout).toContain("Citations: 4 of 4 verified");
  });

  it('HTTP 400 "does not support tools" → on mode: catalogue in the system prompt, no tools field, the text call runs', async () => {
    server = await startFakeOllama({
      models: [{ name: "gemma2", capabilities: ["completion", "tools"] }],
      turns: [
        {
          when: (r) => r.tools !== undefined,
          repeat: true,
          error: { status: 400, message: "registry.ollama.ai/library/gemma2 does not support tools" },
        },
        { when: (r) => r.messages.at(-1)?.role === "user" && !r.messages.at(-1)!.content.startsWith("Tool result"), content: TEXT_CALL },
        { when: hasImportersResult, content: ANSWER },
      ],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--model", "gemma2"], { env: { OLLAMA_HOST: server.host } });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`${ANSWER}\n`)).toBe(true);
    expect(r.stdout).toContain("Citations: 4 of 4 verified");
    expect(r.stderr.match(/switching to --toolshim on/g)).toHaveLength(1);
    expect(r.stderr).toContain("does not support tools");

    const chats = server.chatRequests();
    expect(chats.map((c) => c.tools !== undefined)).toEqual([true, false, false]);
    for (const req of chats.slice(1)) {
      expect(req).not.toHaveProperty("tools");
      expect(req.messages[0]!.role).toBe("system");
      for (const name of ["search_code", "find_symbol", "read_evidence", "find_importers", "read_git_diff"]) {
        expect(req.messages[0]!.content).toContain(name);
      }
      expect(req.messages.some((m) => m.role === "tool")).toBe(false);
    }
    const history = chats[2]!.messages.slice(2);
    expect(history[0]).toMatchObject({ role: "assistant", content: '{"name":"find_importers","arguments":{"module_name":"rag_common"}}' });
    expect(history[1]!.role).toBe("user");
    expect(history[1]!.content.startsWith("Tool result (find_importers):")).toBe(true);
  });

  it("a model without the tools capability goes straight to on mode", async () => {
    server = await startFakeOllama({
      models: [{ name: "gemma2:2b", capabilities: ["completion"] }],
      turns: [
        { when: (r) => r.messages.at(-1)?.role === "user" && !r.messages.at(-1)!.content.startsWith("Tool result"), content: TEXT_CALL },
        { when: hasImportersResult, content: ANSWER },
      ],
    });
    const r = await runCli(["ask", QUESTION, "--no-prefetch", "--root", RAG_APP, "--model", "gemma2:2b", "--json"], {
      env: { OLLAMA_HOST: server.host },
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { answer: string }).answer).toBe(ANSWER);
    expect(r.stderr).toContain("gemma2:2b lacks the tools capability");
    expect(server.chatRequests().every((c) => c.tools === undefined)).toBe(true);
  });
});
