/**
 * The OpenAI-compatible provider end to end, in the scenarios the Ollama provider passes:
 * a scripted `find_importers` call over examples/rag-app, then an answer — streamed (tool-call
 * argument deltas split across SSE chunks) and not; a text tool call recovered by the shim; a
 * server that refuses tools (auto → on); and the CLI with `--provider openai`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runAgent } from "../../src/agent/run-agent.js";
import { Workspace } from "../../src/evidence/sandbox/workspace.js";
import { OpenAIProvider } from "../../src/llm/openai.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { startFakeOpenAI, type FakeOpenAI } from "../helpers/fake-openai.js";
import { RAG_APP, runCli } from "../cli/run-cli.js";

const QUESTION = "Which files import rag_common directly?";
const IMPORTERS: Array<[string, number]> = [
  ["src/build_index.py", 4],
  ["src/chat_reranker.py", 6],
  ["src/chat_reranker_guarded.py", 6],
  ["src/rag_chat.py", 10],
];
const ANSWER = `Four files import it:\n${IMPORTERS.map(([p, l]) => `- ${p}:${l}`).join("\n")}`;
const TOOL_NAMES = ["search_code", "find_symbol", "read_evidence", "find_importers", "find_references", "read_git_diff"];

type WireMessage = { role: string; content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>; tool_call_id?: string };

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function ask(stream: boolean, toolshim: "auto" | "on" | "off" = "auto") {
  const provider = new OpenAIProvider({ baseURL: fake!.baseURL });
  const deltas: string[] = [];
  const result = await runAgent({
    provider,
    model: "qwen2.5-coder-7b",
    registry: createCodeToolRegistry(),
    workspace: await Workspace.open(RAG_APP),
    question: QUESTION,
    // The provider's mechanics are under test: the model's own call, not a prefetched one.
    prefetch: false,
    stream,
    toolshim,
    onEvent: (e) => {
      if (e.type === "content") deltas.push(e.delta);
    },
  });
  return { result, deltas };
}

function expectImportersAnswer(result: Awaited<ReturnType<typeof ask>>["result"]): void {
  expect(result.answer).toBe(ANSWER);
  expect(result.evidence.map((e) => [e.path, e.start_line])).toEqual(IMPORTERS);
  // Shown to the model, but "Four files import it" names nothing the lines hold (no module name): `seen`.
  expect(result.citations).toEqual(IMPORTERS.map(([p, line]) => ({ path: p, line, end_line: line, status: "seen", verified: true })));
  expect(result.provider).toBe("openai");
}

describe("OpenAI-compatible provider through runAgent over examples/rag-app", () => {
  it("streamed: assembles find_importers from split argument deltas, runs it, streams the answer", async () => {
    fake = await startFakeOpenAI({
      models: ["qwen2.5-coder-7b"],
      turns: [
        {
          reasoning: "I should list the importers.",
          tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }],
          chunkSize: 2,
          splitEvents: true,
        },
        { content: ANSWER, chunkSize: 5 },
      ],
    });
    const { result, deltas } = await ask(true);
    expectImportersAnswer(result);
    expect(result.steps).toMatchObject([{ tool: "find_importers", arguments: { module_name: "rag_common" }, ok: true, total: 4, recovered_by: "native" }]);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(ANSWER);

    const [first, second] = fake.chatRequests();
    expect(first!.stream).toBe(true);
    expect((first!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(TOOL_NAMES);
    const msgs = second!.messages as WireMessage[];
    const assistant = msgs.find((m) => m.role === "assistant")!;
    expect(assistant.tool_calls).toEqual([{ id: "call_1_0", type: "function", function: { name: "find_importers", arguments: '{"module_name":"rag_common"}' } }]);
    const tool = msgs.at(-1)!;
    expect(tool.role).toBe("tool");
    expect(tool.tool_call_id).toBe("call_1_0");
    const envelope = JSON.parse(tool.content!) as { ok: boolean; total: number };
    expect(envelope).toMatchObject({ ok: true, total: 4 });
  });

  it("non-streamed: the same scenario with one JSON body per turn", async () => {
    fake = await startFakeOpenAI({
      models: ["qwen2.5-coder-7b"],
      turns: [{ tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] }, { content: ANSWER }],
    });
    const { result } = await ask(false);
    expectImportersAnswer(result);
    expect(fake.chatRequests().map((r) => r.stream)).toEqual([undefined, undefined]);
  });

  it("recovers a bare-JSON text tool call (qwen2.5-coder style) in auto mode", async () => {
    fake = await startFakeOpenAI({
      models: ["qwen2.5-coder-7b"],
      turns: [{ content: '{"name": "find_importers", "arguments": {"module_name": "rag_common"}}', chunkSize: 4 }, { content: ANSWER }],
    });
    const { result, deltas } = await ask(true);
    expectImportersAnswer(result);
    expect(result.steps[0]).toMatchObject({ tool: "find_importers", recovered_by: "inline_json" });
    // The call's JSON never reached the user.
    expect(deltas.join("")).not.toContain('"module_name"');
  });

  it("switches to shim on mode when the server refuses tools, and still answers", async () => {
    fake = await startFakeOpenAI({
      models: ["qwen2.5-coder-7b"],
      turns: [
        { error: { status: 400, message: "registry.ollama.ai/library/gemma2:2b does not support tools" } },
        { content: '{"name": "find_importers", "arguments": {"module_name": "rag_common"}}' },
        { content: ANSWER },
      ],
    });
    const { result } = await ask(false);
    expectImportersAnswer(result);
    expect(result.toolshim).toBe("on");
    const chats = fake.chatRequests();
    expect(chats).toHaveLength(3);
    expect(chats[0]!.tools).toBeDefined();
    expect(chats[1]!.tools).toBeUndefined();
    expect((chats[1]!.messages as WireMessage[])[0]!.content).toContain("find_importers");
  });
});

describe("codecite ask --provider openai (built CLI)", () => {
  it("--json answers with provider openai and the four importers", async () => {
    fake = await startFakeOpenAI({
      models: ["qwen2.5-coder-7b"],
      turns: [{ tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] }, { content: ANSWER }],
    });
    const { code, stdout, stderr } = await runCli(
      ["ask", QUESTION, "--root", RAG_APP, "--provider", "openai", "--model", "qwen2.5-coder-7b", "--json"],
      { env: { OPENAI_BASE_URL: fake.origin } },
    );
    expect(stderr).not.toContain("error");
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { answer: string; provider: string; model: string; evidence: Array<{ path: string; start_line: number }> };
    expect(out.provider).toBe("openai");
    expect(out.model).toBe("qwen2.5-coder-7b");
    expect(out.answer).toBe(ANSWER);
    expect(out.evidence.map((e) => [e.path, e.start_line])).toEqual(IMPORTERS);
    // OPENAI_BASE_URL without a path: the provider added /v1.
    expect(fake.requests.every((r) => r.path.startsWith("/v1/"))).toBe(true);
  });
});
