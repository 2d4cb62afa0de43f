/**
 * Prefetch never overflows the context (issue 10, items 3 and 5): the prefetched evidence is
 * budgeted with an estimate that holds for tokenizers that split CJK text and symbol-dense code
 * finely. At `--num-ctx 3072` over real HTTP, the first request of a Chinese question whose
 * evidence is a Chinese docstring and symbol-dense code must fit the context as a byte-fallback
 * tokenizer counts it (one token per UTF-8 byte of a non-ASCII character — what a 32K
 * SentencePiece vocabulary such as Llama 2's or Mistral's spends on CJK it does not hold), while
 * the answer locations stay in the prefetched result. At 2048 (the documented minimum) the fixed
 * prompt leaves little room: prefetch gives nothing the context fitter would cut at once.
 */
import { rmSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { answerReserve, estimateMessageTokensPessimistic, estimateTokens, estimateTokensPessimistic } from "../../src/agent/context-budget.js";
import { runAgent, type AgentEvent } from "../../src/agent/index.js";
import { PREFETCH_SHARE } from "../../src/agent/prefetch.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { Workspace, createCodeToolRegistry } from "../../src/tools/index.js";
import { startFakeOllama, type ChatRequestBody, type FakeOllama } from "../helpers/fake-ollama.js";
import { makeTempDir, putFile } from "../helpers/temp-tree.js";

/** 600 Chinese characters, 40 to a line. */
const CHINESE = Array.from({ length: 15 }, (_, i) => `    第${i}段：這個函式把筆記整理成摘要，先依日期排序，再合併相同主題的段落，最後輸出。`).join("\n");
/** Symbol-dense code: a table of regular expressions. */
const SYMBOLS = Array.from({ length: 40 }, (_, i) => `    r"\\(${i}\\)": (r"[{}<>]", {"[": "]", "(": ")"}),`).join("\n");

let root: string;
let workspace: Workspace;
beforeAll(async () => {
  root = makeTempDir("codecite-prefetch-budget-");
  putFile(root, "notes/summary.py", `def summarize_notes(notes):\n    """\n${CHINESE}\n    """\n    return notes\n`);
  putFile(root, "notes/patterns.py", `PATTERNS = {\n${SYMBOLS}\n}\n\n\ndef match_patterns(text):\n    return [p for p in PATTERNS if p in text]\n`);
  workspace = await Workspace.open(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Tokens as a byte-fallback tokenizer spends them: 3.5 ASCII characters a token, one per UTF-8 byte of anything else. */
function byteFallbackTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if (ch.codePointAt(0)! < 0x80) ascii++;
    else other += Buffer.byteLength(ch, "utf8");
  }
  return Math.ceil(ascii / 3.5) + other;
}

function requestTokens(req: ChatRequestBody): number {
  const messages = req.messages.reduce((n, m) => n + 4 + byteFallbackTokens(m.content ?? "") + (m.tool_calls ? byteFallbackTokens(JSON.stringify(m.tool_calls)) : 0), 0);
  return messages + (req.tools ? byteFallbackTokens(JSON.stringify(req.tools)) : 0);
}

describe("prefetch budget", () => {
  it("counts CJK and symbols pessimistically", () => {
    expect(estimateTokensPessimistic("這個函式")).toBe(12);
    expect(estimateTokens("這個函式")).toBe(4);
    expect(estimateTokensPessimistic('{"[": "]"}')).toBe(10);
    expect(estimateTokensPessimistic("load_index")).toBe(4);
    expect(estimateTokensPessimistic("😀")).toBe(4);
  });

  async function firstRequest(contextTokens: number) {
    server = await startFakeOllama({ turns: [{ content: "我不知道。" }] });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      provider: new OllamaProvider({ host: server.host }),
      model: "qwen3:8b",
      registry: createCodeToolRegistry(),
      workspace,
      question: "summarize_notes 和 match_patterns 各做什麼？",
      contextTokens,
      onEvent: (e) => events.push(e),
    });
    const first = server.chatRequests()[0]!;
    const prefetched = first.messages.filter((m) => m.role === "tool").map((m) => m.content!);
    return { result, events, first, prefetched };
  }

  it("at --num-ctx 3072 a Chinese question over CJK and symbol-dense evidence fits a byte-fallback tokenizer, locations kept", async () => {
    const { result, events, first, prefetched } = await firstRequest(3072);
    expect(result.steps.map((s) => [s.tool, s.arguments, s.recovered_by])).toEqual([
      ["find_symbol", { name: "summarize_notes" }, "prefetch"],
      ["find_symbol", { name: "match_patterns" }, "prefetch"],
    ]);
    // Both results were given, and each still names its definition's location.
    const records = prefetched.map((c) => (JSON.parse(c) as { evidence: Array<{ path: string; start_line: number }> }).evidence[0]);
    expect(records).toEqual([
      expect.objectContaining({ path: "notes/summary.py", start_line: 1 }),
      expect.objectContaining({ path: "notes/patterns.py", start_line: 45 }),
    ]);
    // The Chinese docstring did not fit whole: the result came as locations with first lines.
    expect(prefetched[0]).not.toContain("第0段");
    // The prefetched results take at most a quarter of the context by the pessimistic estimate …
    const prefetchTokens = prefetched.reduce((n, c) => n + estimateMessageTokensPessimistic({ role: "tool", content: c }), 0);
    expect(prefetchTokens).toBeLessThanOrEqual(3072 * PREFETCH_SHARE);
    // … and the whole first request fits the prompt limit (the context less the reply's reserve)
    // as a byte-fallback tokenizer counts it.
    expect(requestTokens(first)).toBeLessThanOrEqual(3072 - answerReserve(3072));
    expect(events.some((e) => e.type === "context")).toBe(false);
  });

  it("at --num-ctx 2048 prefetch gives only what the first request keeps: no result cut to its counts", async () => {
    const { events, first, prefetched } = await firstRequest(2048);
    for (const c of prefetched) expect((JSON.parse(c) as { evidence?: unknown[] }).evidence?.length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === "context" && e.counts_only > 0)).toBe(false);
    expect(requestTokens(first)).toBeLessThanOrEqual(2048 - answerReserve(2048));
  });
});
