/**
 * The agent's context window against the fake Ollama: `options.num_ctx` on every request, the
 * history fitted into it (older tool results compacted, the system prompt, the question and the
 * newest result kept), citations verified from the full evidence; and the streaming filter for
 * models whose template prefills the reasoning opener.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { SYSTEM_PROMPT, runAgent, type AgentEvent } from "../../src/agent/index.js";
import { estimateTokens } from "../../src/agent/context-budget.js";
import type { Evidence } from "../../src/evidence/evidence.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { defineTool } from "../../src/tools/define-tool.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { startFakeOllama, type ChatRequestBody, type FakeOllama } from "../helpers/fake-ollama.js";

/** 24 search hits under `src/<query>/`, each with a three-line snippet of ~500 characters. */
function hits(query: string): Evidence[] {
  return Array.from({ length: 24 }, (_, i) => {
    const start = i * 10 + 1;
    const line = (k: number) => `    ${query}_value_${i}_${k} = compute_${query}(${"arg, ".repeat(30)}last)`;
    return {
      path: `src/${query}/file${String(i).padStart(2, "0")}.py`,
      start_line: start,
      end_line: start + 2,
      kind: "match" as const,
      name: query,
      snippet: [line(1), line(2), line(3)].join("\n"),
    };
  });
}

function searchTool() {
  const search = defineTool({
    name: "search_code",
    description: "Search the code",
    input: z.object({ query: z.string().min(1) }),
    run: (args) => ({ evidence: hits(args.query), total: 24, truncated: false }),
  });
  return new ToolRegistry([search]);
}

function fullEnvelope(query: string) {
  return { ok: true, evidence: hits(query), total: 24, truncated: false };
}

function compactEnvelope(query: string) {
  return {
    ok: true,
    evidence: hits(query).map((e) => ({ path: e.path, start_line: e.start_line, end_line: e.end_line, name: e.name })),
    total: 24,
    truncated: false,
    note: "snippets omitted to save context; call read_evidence for the lines",
  };
}

function toolContents(req: ChatRequestBody): unknown[] {
  return req.messages.filter((m) => m.role === "tool").map((m) => JSON.parse(m.content) as unknown);
}

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const QUESTION = "Where are alpha, beta and gamma computed?";
const ANSWER = "alpha is computed at src/alpha/file03.py:31, gamma at src/gamma/file10.py:101-103.";

describe("runAgent context window", () => {
  it("sends num_ctx, compacts older results to fit 8192 tokens, keeps the prompt, question and newest result", async () => {
    // Each result is ~4,300 estimated tokens: three of them (≈13K) overflow an 8K context.
    expect(estimateTokens(JSON.stringify(fullEnvelope("alpha")))).toBeGreaterThan(4000);
    server = await startFakeOllama({
      turns: [
        { tool_calls: [{ name: "search_code", arguments: { query: "alpha" } }] },
        { tool_calls: [{ name: "search_code", arguments: { query: "beta" } }] },
        { tool_calls: [{ name: "search_code", arguments: { query: "gamma" } }] },
        { content: ANSWER },
      ],
    });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      provider: new OllamaProvider({ host: server.host }),
      model: "qwen3:8b",
      registry: searchTool(),
      question: QUESTION,
      onEvent: (e) => events.push(e),
    });

    const reqs = server.chatRequests();
    expect(reqs).toHaveLength(4);
    for (const req of reqs) {
      expect(req.options).toEqual({ num_ctx: 8192 });
      expect(req.messages[0]).toEqual({ role: "system", content: SYSTEM_PROMPT });
      expect(req.messages[1]).toEqual({ role: "user", content: QUESTION });
      expect(req.tools!.map((t) => t.function.name)).toEqual(["search_code"]);
    }
    // Request 2: one result, it fits whole.
    expect(toolContents(reqs[1]!)).toEqual([fullEnvelope("alpha")]);
    // Request 3: the oldest result is compacted, the newest is whole.
    expect(toolContents(reqs[2]!)).toEqual([compactEnvelope("alpha"), fullEnvelope("beta")]);
    // Request 4: both older results compacted, the newest whole.
    expect(toolContents(reqs[3]!)).toEqual([compactEnvelope("alpha"), compactEnvelope("beta"), fullEnvelope("gamma")]);
    // The exact compact text (field order of the envelope).
    const compactText = reqs[3]!.messages.find((m) => m.role === "tool")!.content;
    expect(compactText.startsWith('{"ok":true,"evidence":[{"path":"src/alpha/file00.py","start_line":1,"end_line":3,"name":"alpha"},')).toBe(true);
    expect(compactText.endsWith('],"total":24,"truncated":false,"note":"snippets omitted to save context; call read_evidence for the lines"}')).toBe(true);
    // Every assistant call stays in the history.
    expect(reqs[3]!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool", "assistant", "tool"]);

    // The grounding check uses the full evidence: alpha's records were compacted in the prompt.
    expect(result.answer).toBe(ANSWER);
    expect(result.evidence).toHaveLength(72);
    expect(result.citations).toMatchObject([
      { path: "src/alpha/file03.py", line: 31, verified: true },
      { path: "src/gamma/file10.py", line: 101, verified: true },
    ]);
    expect(result.context_tokens).toBe(8192);
    const context = events.filter((e) => e.type === "context");
    expect(context.map((e) => [e.compacted, e.thinking_dropped, e.counts_only, e.newest, e.fits, e.context_tokens])).toEqual([
      [1, 0, 0, "intact", true, 8192],
      [2, 0, 0, "intact", true, 8192],
    ]);
  });

  it("compacts before the shim renders the history as text (toolshim on)", async () => {
    const call = (q: string) => ({ content: `{"name": "search_code", "arguments": {"query": "${q}"}}` });
    server = await startFakeOllama({ turns: [call("alpha"), call("beta"), { content: "src/alpha/file00.py:1" }] });
    const result = await runAgent({
      provider: new OllamaProvider({ host: server.host }),
      model: "qwen3:8b",
      registry: searchTool(),
      question: QUESTION,
      toolshim: "on",
    });
    const last = server.chatRequests()[2]!;
    expect(last.tools).toBeUndefined();
    expect(last.options).toEqual({ num_ctx: 8192 });
    expect(last.messages[1]).toEqual({ role: "user", content: QUESTION });
    const results = last.messages.filter((m) => m.role === "user").slice(1);
    expect(results.map((m) => m.content)).toEqual([
      `Tool result (search_code):\n${JSON.stringify(compactEnvelope("alpha"))}`,
      `Tool result (search_code):\n${JSON.stringify(fullEnvelope("beta"))}`,
    ]);
    expect(result.citations).toMatchObject([{ path: "src/alpha/file00.py", line: 1, verified: true }]);
  });

  it("takes contextTokens, capped by the model's context length", async () => {
    server = await startFakeOllama({
      models: [
        { name: "small:1b", capabilities: ["completion", "tools"], context_length: 4096 },
        { name: "qwen3:8b", capabilities: ["completion", "tools"], context_length: 40960 },
      ],
      turns: [{ repeat: true, content: "nothing to cite" }],
    });
    const provider = new OllamaProvider({ host: server.host });
    const small = await runAgent({ provider, model: "small:1b", registry: searchTool(), question: "q", contextTokens: 16384, reask: false });
    const big = await runAgent({ provider, model: "qwen3:8b", registry: searchTool(), question: "q", contextTokens: 16384, toolshim: "off", reask: false });
    expect(server.chatRequests().map((r) => r.options)).toEqual([{ num_ctx: 4096 }, { num_ctx: 16384 }]);
    expect([small.context_tokens, big.context_tokens]).toEqual([4096, 16384]);
    await expect(runAgent({ provider, model: "qwen3:8b", registry: searchTool(), question: "q", contextTokens: 0 })).rejects.toThrow(
      "contextTokens must be a positive integer, got 0",
    );
  });
});

describe("runAgent with a prefilled reasoning opener", () => {
  it("holds the reasoning of the following turns once recover reports a prefilled opener", async () => {
    server = await startFakeOllama({
      turns: [
        {
          content: 'The user wants the importers.</think>\n{"name": "find_importers", "arguments": {"module_name": "rag_common"}}',
          chunkSize: 5,
        },
        { content: "Two files; cite both.</think>\nsrc/build_index.py:4 and src/rag_chat.py:10.", chunkSize: 5 },
      ],
    });
    const importers = defineTool({
      name: "find_importers",
      description: "List importers of a module",
      input: z.object({ module_name: z.string() }),
      run: () => ({
        evidence: [
          { path: "src/build_index.py", start_line: 4, end_line: 4, kind: "import" as const, name: "rag_common", snippet: "import rag_common" },
          { path: "src/rag_chat.py", start_line: 10, end_line: 10, kind: "import" as const, name: "rag_common", snippet: "from rag_common import load_index" },
        ],
        total: 2,
        truncated: false,
      }),
    });
    const turns: string[][] = [[]];
    const thinking: string[] = [];
    const result = await runAgent({
      provider: new OllamaProvider({ host: server.host }),
      model: "qwen3:8b",
      registry: new ToolRegistry([importers]),
      question: "Which files import rag_common?",
      stream: true,
      onEvent: (e) => {
        if (e.type === "content") turns.at(-1)!.push(e.delta);
        if (e.type === "turn_end") turns.push([]);
        if (e.type === "thinking") thinking.push(e.delta);
      },
    });
    // First turn: the opener is not known yet, so the reasoning streamed as text (the known
    // limit of StreamFilter); it is reported as reasoning afterwards.
    expect(turns[0]!.join("")).toBe("The user wants the importers.");
    // Second turn: the filter holds everything up to the closer; only the answer is shown, once.
    expect(turns[1]!.join("")).toBe("src/build_index.py:4 and src/rag_chat.py:10.");
    expect(thinking).toEqual(["The user wants the importers.", "Two files; cite both."]);
    expect(result.answer).toBe("src/build_index.py:4 and src/rag_chat.py:10.");
    expect(result.steps.map((s) => [s.tool, s.recovered_by])).toEqual([["find_importers", "inline_json"]]);
    expect(result.citations.every((c) => c.verified)).toBe(true);
  });
});
