import { describe, expect, it } from "vitest";
import {
  COMPACT_NOTE,
  answerReserve,
  compactEvidence,
  estimateMessageTokens,
  estimateTokens,
  fitHistory,
} from "../../src/agent/context-budget.js";
import type { Evidence } from "../../src/evidence/evidence.js";
import type { Message } from "../../src/llm/types.js";

/** `n` records under `dir`, each with a three-line snippet of ~`width` characters per line. */
function records(dir: string, n: number, width = 100): Evidence[] {
  return Array.from({ length: n }, (_, i) => {
    const start = i * 10 + 1;
    const line = (k: number) => `    value_${dir}_${i}_${k} = compute(${"x".repeat(width - 30)})`;
    return {
      path: `src/${dir}/file${String(i).padStart(2, "0")}.py`,
      start_line: start,
      end_line: start + 2,
      kind: "match",
      name: dir,
      snippet: [line(1), line(2), line(3)].join("\n"),
    };
  });
}

function envelope(evidence: Evidence[], note?: string): string {
  return JSON.stringify({ ok: true, evidence, total: evidence.length, truncated: false, ...(note ? { note } : {}) });
}

function refs(evidence: Evidence[]) {
  return evidence.map((e) => ({ path: e.path, start_line: e.start_line, end_line: e.end_line, name: e.name }));
}

function firstLines(evidence: Evidence[]) {
  return evidence.map((e) => ({ path: e.path, start_line: e.start_line, end_line: e.end_line, name: e.name, snippet: e.snippet.split("\n")[0] }));
}

/**
 * Records of the step-4 test kept whole, and listed with their first line in the tight budget;
 * the test proves each is the largest that fits (one more would not).
 */
const KEPT = 45;
const LISTED = 13;

const QUESTION: Message = { role: "user", content: "Where is compute called?" };
const call = (query: string): Message => ({
  role: "assistant",
  content: "",
  thinking: `I should search for ${query}. `.repeat(40),
  tool_calls: [{ name: "search_code", arguments: { query } }],
});
const result = (evidence: Evidence[]): Message => ({ role: "tool", content: envelope(evidence), tool_name: "search_code" });

describe("estimateTokens", () => {
  it("counts 3.5 ASCII characters per token, rounded up, and one token per other UTF-16 unit", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcdefg")).toBe(2);
    expect(estimateTokens("abcdefgh")).toBe(3);
    expect(estimateTokens("x".repeat(3500))).toBe(1000);
    expect(estimateTokens("哪些檔案")).toBe(4);
    expect(estimateTokens("import rag_common 哪些")).toBe(6 + 2);
  });

  it("adds 4 tokens per message plus reasoning and tool calls", () => {
    expect(estimateMessageTokens({ role: "user", content: "abcdefg" })).toBe(6);
    expect(
      estimateMessageTokens({ role: "assistant", content: "", thinking: "abcdefg", tool_calls: [{ name: "abcdefg", arguments: { a: 1 } }] }),
    ).toBe(4 + 0 + 2 + 2 + 2);
  });
});

describe("answerReserve", () => {
  it("keeps 20% of the context, at least 1024 tokens, at most half", () => {
    expect(answerReserve(8192)).toBe(1638);
    expect(answerReserve(32768)).toBe(6554);
    expect(answerReserve(4096)).toBe(1024);
    expect(answerReserve(2048)).toBe(1024);
  });
});

describe("compactEvidence", () => {
  it("keeps ok, total, truncated and each record's path, lines and name, with the fixed note", () => {
    const ev = records("alpha", 2);
    expect(compactEvidence({ records: ev as unknown as Record<string, unknown>[], total: 7, truncated: true })).toEqual({
      ok: true,
      evidence: [
        { path: "src/alpha/file00.py", start_line: 1, end_line: 3, name: "alpha" },
        { path: "src/alpha/file01.py", start_line: 11, end_line: 13, name: "alpha" },
      ],
      total: 7,
      truncated: true,
      note: "snippets omitted to save context; call read_evidence for the lines",
    });
  });

  it("keeps a reference's caller (context) in both compact forms: its name is only the definition asked about", () => {
    const use = { path: "lib/sinatra/base.rb", start_line: 1533, end_line: 1533, kind: "reference", name: "Sinatra.Base.route", context: "Sinatra.Base.head", snippet: "route 'HEAD', path, opts, &block", flags: ["call"] };
    const top = { ...use, path: "app.rb", start_line: 3, end_line: 3, context: "app.rb", snippet: "route 'GET', '/'" };
    const env = { records: [use, top] as unknown as Record<string, unknown>[], total: 2, truncated: false };
    expect(compactEvidence(env).evidence).toEqual([
      { path: "lib/sinatra/base.rb", start_line: 1533, end_line: 1533, name: "Sinatra.Base.route", context: "Sinatra.Base.head" },
      { path: "app.rb", start_line: 3, end_line: 3, name: "Sinatra.Base.route", context: "app.rb" },
    ]);
    expect(compactEvidence(env, 0, 2, true).evidence[0]).toEqual({
      path: "lib/sinatra/base.rb",
      start_line: 1533,
      end_line: 1533,
      name: "Sinatra.Base.route",
      context: "Sinatra.Base.head",
      snippet: "route 'HEAD', path, opts, &block",
    });
  });
});

describe("fitHistory", () => {
  const alpha = records("alpha", 24);
  const beta = records("beta", 24);
  const gamma = records("gamma", 24);
  const history: Message[] = [QUESTION, call("alpha"), result(alpha), call("beta"), result(beta), call("gamma"), result(gamma)];

  it("returns the history unchanged when it fits", () => {
    const fit = fitHistory(history, { fixedTokens: 500, limitTokens: 100_000 });
    expect(fit.messages).toEqual(history);
    expect(fit).toMatchObject({ compacted: 0, thinkingDropped: 0, countsOnly: 0, newest: "intact", fits: true });
    const total = 500 + history.reduce((a, m) => a + estimateMessageTokens(m), 0);
    expect(fit.estimatedTokens).toBe(total);
  });

  it("step 1: compacts the oldest results first and keeps the question and the newest result", () => {
    const full = 500 + history.reduce((a, m) => a + estimateMessageTokens(m), 0);
    const alphaCompact = JSON.stringify(compactEvidence({ records: alpha as never, total: 24, truncated: false }));
    const saved = estimateTokens(envelope(alpha)) - estimateTokens(alphaCompact);
    // A limit that one compacted result satisfies.
    const fit = fitHistory(history, { fixedTokens: 500, limitTokens: full - saved + 1 });
    expect(fit).toMatchObject({ compacted: 1, thinkingDropped: 0, countsOnly: 0, newest: "intact", fits: true });
    expect(fit.messages[0]).toBe(QUESTION);
    expect(JSON.parse(fit.messages[2]!.content)).toEqual({
      ok: true,
      evidence: refs(alpha),
      total: 24,
      truncated: false,
      note: COMPACT_NOTE,
    });
    expect(fit.messages[2]!.tool_name).toBe("search_code");
    expect(fit.messages[4]).toBe(history[4]);
    expect(fit.messages[6]).toBe(history[6]);
    expect(fit.estimatedTokens).toBe(full - saved);
    // The input is not mutated.
    expect(history[2]!.content).toBe(envelope(alpha));
  });

  it("step 2 then 3: drops older reasoning, then shortens older results to counts", () => {
    const compactSize = (ev: Evidence[]) => estimateMessageTokens({ role: "tool", content: JSON.stringify(compactEvidence({ records: ev as never, total: 24, truncated: false })) });
    const afterStep1 = 500 + estimateMessageTokens(QUESTION) + 3 * estimateMessageTokens(call("x")) + compactSize(alpha) + compactSize(beta) + estimateMessageTokens(result(gamma));
    const thinking = estimateTokens(call("alpha").thinking!);

    const two = fitHistory(history, { fixedTokens: 500, limitTokens: afterStep1 - thinking - 1 });
    expect(two).toMatchObject({ compacted: 2, thinkingDropped: 2, countsOnly: 0, newest: "intact", fits: true });
    expect(two.messages.filter((m) => m.role === "assistant").map((m) => m.thinking === undefined)).toEqual([true, true, false]);
    expect(two.messages[1]!.tool_calls).toEqual([{ name: "search_code", arguments: { query: "alpha" } }]);

    const three = fitHistory(history, { fixedTokens: 500, limitTokens: afterStep1 - 3 * thinking - 1 });
    expect(three).toMatchObject({ compacted: 2, thinkingDropped: 3, countsOnly: 1, newest: "intact", fits: true });
    expect(JSON.parse(three.messages[2]!.content)).toEqual({
      ok: true,
      total: 24,
      truncated: false,
      note: "the 24 records are omitted to save context; repeat the call to see them again",
    });
    expect(JSON.parse(three.messages[4]!.content).note).toBe(COMPACT_NOTE);
    expect(three.messages[6]!.content).toBe(envelope(gamma));
  });

  it("step 4: a newest result too large alone keeps as many snippets as fit, then first lines", () => {
    const big = records("delta", 60);
    const h: Message[] = [QUESTION, call("delta"), result(big)];
    const fixed = 300;
    const others = estimateMessageTokens(QUESTION) + estimateMessageTokens({ ...call("delta"), thinking: undefined } as Message);
    const limit = 8192 - answerReserve(8192);
    const fit = fitHistory(h, { fixedTokens: fixed, limitTokens: limit });
    expect(fit).toMatchObject({ thinkingDropped: 1, newest: "partial", fits: true });
    const env = JSON.parse(fit.messages[2]!.content) as { evidence: Array<Record<string, unknown>>; total: number; truncated: boolean; note: string };
    const kept = env.evidence.findIndex((e, i) => e.snippet !== big[i]!.snippet);
    // Every record is listed; the first `kept` whole, the rest with their first line.
    expect(env.evidence).toHaveLength(60);
    expect(env.evidence.slice(0, kept)).toEqual(big.slice(0, kept));
    expect(env.evidence.slice(kept)).toEqual(firstLines(big.slice(kept)));
    expect(kept).toBe(KEPT);
    expect(env).toMatchObject({ total: 60, truncated: false, note: `snippets after their first line of the last ${60 - KEPT} of 60 records omitted to save context; call read_evidence for the lines` });
    // The most that fits: one more whole record would not.
    const room = limit - fixed - others;
    const size = (k: number) =>
      estimateMessageTokens({ role: "tool", content: JSON.stringify(compactEvidence({ records: big as never, total: 60, truncated: false }, k, 60, true)) });
    expect(size(kept)).toBeLessThanOrEqual(room);
    expect(size(kept + 1)).toBeGreaterThan(room);

    // Too small even for every first line: as many records with their first line as fit, and `truncated`.
    const tight = fitHistory(h, { fixedTokens: fixed, limitTokens: fixed + others + 800 });
    expect(tight.newest).toBe("first_lines");
    const t = JSON.parse(tight.messages[2]!.content) as { evidence: unknown[]; total: number; truncated: boolean; note: string };
    expect(t.evidence).toEqual(firstLines(big.slice(0, t.evidence.length)));
    expect(t.evidence.length).toBe(LISTED);
    const listedSize = (m: number) =>
      estimateMessageTokens({ role: "tool", content: JSON.stringify(compactEvidence({ records: big as never, total: 60, truncated: false }, 0, m, true)) });
    expect(listedSize(LISTED)).toBeLessThanOrEqual(800);
    expect(listedSize(LISTED + 1)).toBeGreaterThan(800);
    expect(t).toMatchObject({
      total: 60,
      truncated: true,
      note: `snippets after their first line and the last ${60 - LISTED} of 60 records omitted to save context; call read_evidence for the lines, or repeat the call with a narrower query`,
    });

    // Nothing fits: the counts stay, and the result says it does not fit.
    const none = fitHistory(h, { fixedTokens: fixed, limitTokens: fixed });
    expect(none).toMatchObject({ newest: "counts", fits: false });
    expect(JSON.parse(none.messages[2]!.content)).toEqual({
      ok: true,
      total: 60,
      truncated: false,
      note: "the 60 records are omitted to save context; repeat the call to see them again",
    });
    expect(none.messages[0]).toBe(QUESTION);
  });

  it("leaves tool errors and non-JSON tool messages alone", () => {
    const error: Message = { role: "tool", content: JSON.stringify({ ok: false, error: { code: "NOT_FOUND", message: "x".repeat(4000) } }), tool_name: "read_evidence" };
    const h: Message[] = [QUESTION, call("a"), error, call("b"), result(records("b", 5))];
    const fit = fitHistory(h, { fixedTokens: 0, limitTokens: 10 });
    expect(fit.messages[2]).toBe(error);
    expect(fit.compacted).toBe(0);
    expect(fit.countsOnly).toBe(0);
  });
});
