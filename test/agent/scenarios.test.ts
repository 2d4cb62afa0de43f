/**
 * Issue 10 "Done means": the failure modes small local models show in agents, reproduced with a
 * fake model over real HTTP (test/helpers/fake-ollama.ts) and the real code tools over a
 * generated repository; each asserts the concrete citation statuses, grounding, stop reason
 * and what the model was sent.
 */
import { rmSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runAgent, type AgentEvent, type RunAgentOptions } from "../../src/agent/index.js";
import { LENGTH_NOTE } from "../../src/agent/prompt.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { Workspace, createCodeToolRegistry } from "../../src/tools/index.js";
import { startFakeOllama, type ChatRequestBody, type FakeOllama, type FakeOllamaOptions } from "../helpers/fake-ollama.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

/** `pkg/store.py`: a class of 80 lines; `save` at line 60 lies far past the 12 lines a definition snippet shows. */
const STORE = [
  '"""A small key-value store."""',
  "",
  "MAX_ITEMS = 500",
  "",
  "class Store:",
  '    """Keeps items in memory and writes them to disk."""',
  "",
  "    def __init__(self, path):",
  "        self.path = path",
  "        self.items = {}",
  "",
  "    def get(self, key):",
  "        return self.items.get(key)",
  "",
  ...Array.from({ length: 44 }, (_, i) => `    # padding line ${i + 15}`),
  "",
  "    def save(self):",
  "        if len(self.items) > MAX_ITEMS:",
  '            raise ValueError("too many items")',
  '        with open(self.path, "w") as f:',
  "            f.write(repr(self.items))",
  ...Array.from({ length: 15 }, (_, i) => `    # tail line ${i + 66}`),
].join("\n");

const FILES: Record<string, string> = {
  "pkg/store.py": STORE,
  "pkg/app.py": "from pkg.store import Store\n\n\ndef main():\n    Store('data.txt').save()\n",
  "rag_common.py": "import json\n\n\n\ndef load_index(path):\n    return json.load(open(path))\n",
  "tools/build_index.py": '"""Builds the index."""\nimport rag_common\n\nrag_common.load_index("x")\n',
  "tools/rag_chat.py": "from rag_common import load_index\n",
};

let root: string;
let workspace: Workspace;
beforeAll(async () => {
  root = makeTempDir("codecite-scenarios-");
  for (const [rel, text] of Object.entries(FILES)) putFile(root, rel, text);
  workspace = await Workspace.open(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function session(fake: FakeOllamaOptions, options: Partial<RunAgentOptions> & { question: string }) {
  server = await startFakeOllama(fake);
  const events: AgentEvent[] = [];
  const result = await runAgent({
    provider: new OllamaProvider({ host: server.host }),
    model: "qwen3:8b",
    registry: createCodeToolRegistry(),
    workspace,
    onEvent: (e) => events.push(e),
    ...options,
  });
  const notices = events.flatMap((e) => (e.type === "notice" ? [e] : []));
  return { result, events, notices, chats: server.chatRequests() };
}

const statuses = (r: { citations: Array<{ path: string; line: number; status: string }> }) => r.citations.map((c) => `${c.path}:${c.line} ${c.status}`);
const lastUser = (req: ChatRequestBody) => req.messages.at(-1)?.role === "user";

describe("failure modes of small models (issue 10)", () => {
  it("a citation inside a long record the model was never shown is unseen, and one re-ask fixes it", async () => {
    const { result, notices, chats } = await session(
      {
        turns: [
          { tool_calls: [{ name: "find_symbol", arguments: { name: "Store" } }] },
          { content: "`Store.save` raises ValueError when there are too many items (pkg/store.py:60)." },
          { when: lastUser, content: "I was only shown the start of `class Store` (pkg/store.py:5); the lines of `save` were not shown, so I do not know." },
        ],
      },
      { question: "What does Store.save check?", prefetch: false },
    );
    // The definition record spans 5-80, but only its first 12 lines were shown.
    expect(result.evidence[0]).toMatchObject({ path: "pkg/store.py", start_line: 5, end_line: 79 });
    const reask = chats[2]!.messages.at(-1)!;
    expect(reask.content).toContain("- pkg/store.py:60: you were never shown these lines (these lines were not shown to the model)");
    expect(reask.content).toContain("Lines you have seen: pkg/store.py: 5-16.");
    expect(notices.map((n) => n.reason)).toEqual(["reask"]);
    expect(result.reasks).toBe(1);
    expect(statuses(result)).toEqual(["pkg/store.py:5 supported"]);
    expect(result.grounding).toBe("ok");
    expect(result.stop_reason).toBe("answer");
  });

  it("an answer with no tool call: prefetch gave the evidence, and a bare file name resolves", async () => {
    const { result, chats } = await session(
      { turns: [{ content: "`load_index` is defined in rag_common.py:5 and reads JSON." }] },
      { question: "Where is load_index defined?" },
    );
    expect(result.steps).toEqual([
      expect.objectContaining({ tool: "find_symbol", arguments: { name: "load_index" }, ok: true, total: 1, recovered_by: "prefetch" }),
    ]);
    // The first and only request already holds the prefetched result as an ordinary tool message.
    expect(chats).toHaveLength(1);
    expect(chats[0]!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(chats[0]!.messages[3]!.tool_name).toBe("find_symbol");
    expect(result.citations).toEqual([{ path: "rag_common.py", line: 5, end_line: 5, status: "supported", verified: true }]);
    expect(result.grounding).toBe("ok");
  });

  it("an answer with no tool call that abstains: stop_reason abstained, grounding none, no re-ask", async () => {
    const { result, chats } = await session(
      { turns: [{ content: "I could not find any billing code in this repository." }] },
      { question: "How does the billing module compute taxes?" },
    );
    expect(result.steps).toEqual([]);
    expect(chats).toHaveLength(1);
    expect(result).toMatchObject({ stop_reason: "abstained", grounding: "none", reasks: 0, citations: [] });
  });

  it("one search then a guess: the guessed line is unseen; the second answer abstains", async () => {
    const { result, chats } = await session(
      {
        turns: [
          { tool_calls: [{ name: "search_code", arguments: { query: "MAX_ITEMS" } }] },
          { content: "The limit is checked in `Store.get` at pkg/store.py:13." },
          { when: lastUser, content: "I do not know where the limit is checked; the evidence does not show it." },
        ],
      },
      { question: "Where is the item limit checked?", prefetch: false },
    );
    expect(chats).toHaveLength(3);
    expect(chats[2]!.messages.at(-1)!.content).toContain("- pkg/store.py:13: you were never shown these lines");
    expect(result).toMatchObject({ stop_reason: "abstained", grounding: "none", reasks: 1 });
  });

  it("a cited file never read is unseen; when the re-ask does not fix it, the grading stays failed", async () => {
    const answer = "`main` calls `Store.save` at pkg/app.py:5.";
    const { result } = await session(
      { turns: [{ repeat: true, content: answer }] },
      { question: "Who saves the store?", prefetch: false },
    );
    expect(statuses(result)).toEqual(["pkg/app.py:5 unseen"]);
    expect(result).toMatchObject({ grounding: "failed", stop_reason: "answer", reasks: 1 });
  });

  it("an exact, correct answer: every citation supported, no re-ask", async () => {
    const { result, chats } = await session(
      {
        turns: [
          { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
          { content: "Two files import `rag_common`: tools/build_index.py:2 (`import rag_common`) and tools/rag_chat.py:1 (`from rag_common import load_index`)." },
        ],
      },
      { question: "Which files import rag_common?", prefetch: false },
    );
    expect(chats).toHaveLength(2);
    expect(statuses(result)).toEqual(["tools/build_index.py:2 supported", "tools/rag_chat.py:1 supported"]);
    expect(result).toMatchObject({ grounding: "ok", reasks: 0, stop_reason: "answer" });
  });

  it("a Chinese question with code names: prefetch runs find_importers for rag_common", async () => {
    const { result, chats } = await session(
      { turns: [{ content: "直接 import rag_common 的檔案：\n- tools/build_index.py:2\n- tools/rag_chat.py:1" }] },
      { question: "哪些檔案直接 import rag_common？" },
    );
    // `rag_common` is a module, not a definition: find_symbol finds nothing and is not given to the model.
    expect(result.steps.map((s) => [s.tool, s.recovered_by])).toEqual([["find_importers", "prefetch"]]);
    expect(result.steps[0]).toMatchObject({ tool: "find_importers", arguments: { module_name: "rag_common" }, total: 2, recovered_by: "prefetch" });
    expect(chats[0]!.messages.some((m) => m.role === "tool" && m.content.includes("tools/build_index.py"))).toBe(true);
    expect(statuses(result)).toEqual(["tools/build_index.py:2 supported", "tools/rag_chat.py:1 supported"]);
  });

  it("--num-ctx 2048 with a large result: compact catalogue, the newest result keeps locations and first lines", async () => {
    const { result, notices, chats, events } = await session(
      {
        turns: [
          { tool_calls: [{ name: "search_code", arguments: { query: "line" } }] },
          { content: "Padding comments fill pkg/store.py:15." },
        ],
      },
      { question: "Where are the padding lines?", prefetch: false, contextTokens: 2048, reask: false },
    );
    expect(notices[0]).toMatchObject({ reason: "compact_tools" });
    // The compact catalogue: first sentences only, no parameter descriptions.
    expect(chats[0]!.tools!.every((t) => !JSON.stringify(t.function.parameters).includes("description"))).toBe(true);
    const sent = JSON.parse(chats[1]!.messages.at(-1)!.content) as { evidence: Array<{ path: string; start_line: number; snippet?: string }>; total: number; truncated: boolean };
    expect(sent.total).toBe(59);
    expect(sent.truncated).toBe(true);
    expect(sent.evidence.length).toBeGreaterThan(0);
    for (const e of sent.evidence) expect(e.snippet).toMatch(/^ {4}# (padding|tail) line \d+$/);
    const context = events.find((e) => e.type === "context");
    expect(context).toMatchObject({ newest: "first_lines", fits: true, context_tokens: 2048 });
    const budget = events.filter((e) => e.type === "budget");
    expect(budget[0]).toMatchObject({ context_tokens: 2048, reserve: 1024 });
    // Line 15 is a comment (`# padding line 15`): its prose words name no code, so the citation is seen.
    expect(statuses(result)).toEqual(["pkg/store.py:15 seen"]);
  });

  it("a prompt that cannot fit: a clear stop before the model call, naming the smallest --num-ctx that works", async () => {
    const question = `Explain this: ${"word ".repeat(900)}`;
    const { result, chats } = await session({ turns: [{ repeat: true, content: "ok" }] }, { question, prefetch: false, contextTokens: 2048 });
    expect(chats).toHaveLength(0);
    expect(result.stop_reason).toBe("context");
    const m = /the smallest --num-ctx that works is (\d+)/.exec(result.answer);
    expect(m).not.toBeNull();
    const smallest = Number(m![1]);
    expect(smallest % 1024).toBe(0);
    // That size works, and one step below it does not.
    server?.close();
    const works = await session({ turns: [{ content: "It is a list of words." }] }, { question, prefetch: false, reask: false, contextTokens: smallest });
    expect(works.result.stop_reason).toBe("answer");
    expect(works.chats[0]!.options).toMatchObject({ num_ctx: smallest });
    await server?.close();
    const below = await session({ turns: [{ content: "x" }] }, { question, prefetch: false, contextTokens: smallest - 1024 });
    expect(below.result.stop_reason).toBe("context");
  });

  it("a server that evaluates fewer prompt tokens than sent: one warning with both numbers, the session fits the observed limit", async () => {
    const { notices, chats, result, events } = await session(
      {
        prompt: { contextCap: 2200 },
        turns: [
          { tool_calls: [{ name: "search_code", arguments: { query: "line" } }] },
          { tool_calls: [{ name: "read_evidence", arguments: { path: "pkg/store.py", start_line: 1, end_line: 80 } }] },
          { tool_calls: [{ name: "find_symbol", arguments: { name: "MAX_ITEMS" } }] },
          { content: "`MAX_ITEMS` is 500 (pkg/store.py:3)." },
        ],
      },
      { question: "What is MAX_ITEMS?", prefetch: false, reask: false },
    );
    const warnings = notices.filter((n) => n.reason === "server_truncation");
    expect(warnings).toHaveLength(1);
    // Request 2 (2200 of ~3181) could be a cache hit; request 3 repeats the same count while the prompt grew: a cap.
    // "About N sent" is the third request's estimate: its system prompt, tools and history.
    const third = events.filter((e) => e.type === "budget")[2]!;
    const sent = third.type === "budget" ? third.system + third.tools + third.history : 0;
    expect(sent).toBeGreaterThan(2200 / 0.6);
    expect(warnings[0]!.message).toMatch(new RegExp(`^the server evaluated 2200 prompt tokens of about ${sent} sent: it cut the prompt`));
    expect(warnings[0]!.message).toContain("--num-ctx 2200");
    expect(result.context_tokens).toBe(2200);
    expect(chats.map((c) => c.options?.num_ctx)).toEqual([8192, 8192, 8192, 2200]);
    // The last request was fitted to the observed limit: compact catalogue, history compacted.
    expect(events.filter((e) => e.type === "budget").at(-1)).toMatchObject({ context_tokens: 2200, reserve: 1024 });
    expect(result.stop_reason).toBe("answer");
  });

  it("a normal multi-turn session under Ollama's prompt cache gives no truncation warning", async () => {
    const { notices, chats } = await session(
      {
        prompt: { cache: true },
        turns: [
          { tool_calls: [{ name: "search_code", arguments: { query: "line" } }] },
          { tool_calls: [{ name: "find_symbol", arguments: { name: "Store" } }] },
          { tool_calls: [{ name: "read_evidence", arguments: { path: "pkg/store.py", start_line: 55, end_line: 65 } }] },
          { content: "`save` checks `MAX_ITEMS` at pkg/store.py:61." },
        ],
      },
      { question: "What does save check?", prefetch: false },
    );
    expect(chats).toHaveLength(4);
    expect(notices.filter((n) => n.reason === "server_truncation")).toEqual([]);
  });

  it("an answer cut by the output limit is reported as cut (stop_reason length)", async () => {
    const { result } = await session(
      { turns: [{ content: "`MAX_ITEMS` is defined at pkg/store.py:3 and", done_reason: "length" }] },
      { question: "What is MAX_ITEMS?", reask: false },
    );
    expect(result.stop_reason).toBe("length");
    expect(result.answer.endsWith(`\n\n${LENGTH_NOTE}`)).toBe(true);
  });

  it("a turn with more calls than the per-turn cap: the rest are not run, and the answer says which", async () => {
    const { result, notices } = await session(
      {
        turns: [
          {
            tool_calls: ["a", "b", "c", "d"].map((q) => ({ name: "search_code", arguments: { query: `padding line 1${q === "a" ? "5" : q === "b" ? "6" : q === "c" ? "7" : "8"}` } })),
          },
          { content: "Padding starts at pkg/store.py:15." },
        ],
      },
      { question: "Where does padding start?", prefetch: false, reask: false, maxCallsPerTurn: 2 },
    );
    expect(result.steps).toHaveLength(2);
    const note = '[codecite] One model turn asked for more than 2 tool calls (the per-turn cap, --max-calls-per-turn); 2 were not run: search_code({"query":"padding line 17"}), search_code({"query":"padding line 18"}).';
    expect(notices.find((n) => n.reason === "calls_cut")!.message).toBe(note);
    expect(result.answer).toBe(`Padding starts at pkg/store.py:15.\n\n${note}`);
  });

  it("the session deadline stops a slow model with the evidence so far (stop_reason timeout)", async () => {
    // The deadline must leave time for the first turn and its tool call, which a loaded machine
    // may stretch to seconds (with 1.5 s they could be cut, and the answer would name 0 tool
    // calls); the second turn never answers, so only the deadline ends the session.
    const { result } = await session(
      {
        turns: [{ tool_calls: [{ name: "find_symbol", arguments: { name: "Store" } }] }, { hang: true }],
      },
      { question: "What is Store?", prefetch: false, timeoutMs: 10_000 },
    );
    expect(result.stop_reason).toBe("timeout");
    expect(result.answer).toBe("[codecite] Stopped at the session deadline (10 s, --timeout) after 1 tool call, before the model gave a final answer. The evidence gathered so far is listed below.");
    expect(result.evidence).toHaveLength(1);
  });
});
