/**
 * `codecite serve`'s shim turn (`src/serve/shim-turn.ts`) gives a client the same calls and the
 * same visible content, whatever the chunking of the upstream's stream, as the non-streamed
 * recovery of the whole text with that client's tools: every case of the three tool-call corpora,
 * its raw text streamed by a fake upstream in chunkings drawn by fast-check (cuts anywhere, one
 * UTF-16 code unit per delta, cuts between the halves of surrogate pairs). And over real HTTP: a
 * fake Ollama upstream that sends one code unit per NDJSON line, the gateway, and the bytes the
 * client reads — no line carries half of a surrogate pair.
 *
 * A model whose template prefills a reasoning opener (its text holds only `</think>`) cannot be
 * recognised before the closer arrives: its first turn shows the reasoning while it streams. The
 * gateway remembers the model from that turn on (`ToolSupport.markReasoningPrefilled`), so such a
 * case is checked on the model's second turn, after a first one that taught it.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import type { ChatOptions, ChatRequest, ChatTurn, Provider, ToolCall, ToolDefinition } from "../../src/llm/types.js";
import { createGateway, type Gateway } from "../../src/serve/index.js";
import { shimTurn, ToolSupport } from "../../src/serve/shim-turn.js";
import { GatewayStats } from "../../src/serve/stats.js";
import type { ChatWriter, FinishReason, GatewayChat } from "../../src/serve/types.js";
import { schemaValidator } from "../../src/tools/schema-validator.js";
import { recoverDeterministic, type OfferedTool } from "../../src/toolshim/index.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { cutAt, surrogateCuts } from "../helpers/chunk-cuts.js";
import { thorough } from "../helpers/thoroughness.js";
import { collapse, readCases, type CorpusCase } from "../toolshim/corpus-cases.js";

const FILES = ["toolcalls.jsonl", "toolcalls-extra.jsonl", "toolcalls-new.jsonl"] as const;

/** The client's tool definitions for a case: its schemas, or an open object schema. */
function toolDefinitions(c: CorpusCase): ToolDefinition[] {
  return c.tools.map((name) => ({
    type: "function",
    function: { name, description: `${name} (corpus tool)`, parameters: (c.tool_schemas?.[name] as ToolDefinition["function"]["parameters"]) ?? { type: "object", properties: {} } },
  }));
}

/** The whitelist shim-turn builds from the client's tools (`offeredTools` there). */
function offered(defs: readonly ToolDefinition[]): OfferedTool[] {
  return defs.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
}

/** An upstream that streams `chunks` as content and ends the turn with their concatenation and no native calls. */
function upstream(chunks: readonly string[]): Provider {
  return {
    id: "fake",
    location: "memory",
    chat(_req: ChatRequest, opts?: ChatOptions): Promise<ChatTurn> {
      for (const c of chunks) opts?.onContent?.(c);
      return Promise.resolve({ content: chunks.join(""), tool_calls: [], done_reason: "stop" });
    },
  };
}

/** What the client was written. */
interface Written {
  content: string[];
  thinking: string[];
  calls: ToolCall[];
  finish?: FinishReason;
  failed?: string;
}

function recorder(): { out: ChatWriter; written: Written } {
  const written: Written = { content: [], thinking: [], calls: [] };
  const out: ChatWriter = {
    content: (d) => written.content.push(d),
    thinking: (d) => written.thinking.push(d),
    toolCalls: (calls) => written.calls.push(...calls),
    backlog: () => undefined,
    finish: (reason) => {
      written.finish = reason;
    },
    fail: (err) => {
      written.failed = err.message;
    },
  };
  return { out, written };
}

/** The refusal notes shim-turn appends to the content, one per refused call. */
const NOTE = "\n\n[codecite: a call to ";

async function turn(c: CorpusCase, chunks: readonly string[], support: ToolSupport, provider: Provider): Promise<Written> {
  const chat: GatewayChat = { model: "m", messages: [{ role: "user", content: "q" }], tools: toolDefinitions(c), stream: true };
  const { out, written } = recorder();
  await shimTurn({ provider, support, stats: new GatewayStats() }, chat, out, new AbortController().signal);
  return written;
}

/** One turn of a fresh gateway state; for a prefilled-reasoning case, the model's second turn (see the module comment). */
async function runTurn(c: CorpusCase, chunks: readonly string[]): Promise<Written> {
  const provider = upstream(chunks);
  const support = new ToolSupport(provider);
  const tools = offered(toolDefinitions(c));
  if (recoverDeterministic({ content: c.raw }, tools).prefilledReasoning === true) {
    const first = await turn(c, chunks, support, provider);
    expect(support.reasoningPrefilled("m"), c.id).toBe(true);
    // The first turn's calls are decided at its end, as always.
    expect(first.calls.map((t) => t.name), c.id).toEqual(recoverDeterministic({ content: c.raw }, tools, { validate: schemaValidator(tools) }).tool_calls.map((t) => t.name));
  }
  return turn(c, chunks, support, provider);
}

/** Asserts what a client got for `chunks` against the whole-text recovery with the same tools. */
function expectSameAsWhole(c: CorpusCase, written: Written, label: string): void {
  const tools = offered(toolDefinitions(c));
  const whole = recoverDeterministic({ content: c.raw }, tools, { validate: schemaValidator(tools) });
  expect(written.failed, label).toBeUndefined();
  const content = written.content.join("");
  const noteAt = content.indexOf(NOTE);
  expect(collapse(noteAt < 0 ? content : content.slice(0, noteAt)), `${label}: visible content`).toBe(collapse(whole.content));
  expect(content.split(NOTE).length - 1, `${label}: refusal notes`).toBe(whole.rejected.length);
  expect(
    written.calls.map((t) => ({ name: t.name, arguments: t.arguments })),
    `${label}: calls`,
  ).toEqual(whole.tool_calls.map((t) => ({ name: t.name, arguments: t.arguments })));
  expect(written.finish, label).toBe(whole.tool_calls.length > 0 ? "tool_calls" : "stop");
  expect(written.thinking.join(""), `${label}: reasoning`).toBe(whole.thinking?.trim() ? whole.thinking : "");
  for (const p of written.content) {
    if (p === "") continue;
    const last = p.charCodeAt(p.length - 1);
    expect(last >= 0xd800 && last <= 0xdbff, `${label}: a content piece ends inside a surrogate pair`).toBe(false);
  }
}

function chunkings(raw: string): fc.Arbitrary<string[]> {
  const anywhere = raw.length < 2 ? fc.constant<number[]>([]) : fc.array(fc.integer({ min: 1, max: raw.length - 1 }), { maxLength: 30 });
  return fc.tuple(anywhere, fc.subarray(surrogateCuts(raw))).map(([a, b]) => cutAt(raw, [...a, ...b]));
}

for (const file of FILES) {
  const cases = readCases(file);
  describe(`serve shim turn: streamed parity over ${file} (${cases.length} cases)`, () => {
    it("every case, one code unit per delta and fast-check chunkings", async () => {
      for (const c of cases) {
        expectSameAsWhole(c, await runTurn(c, c.raw.split("")), `${c.id}: one code unit per delta`);
        await fc.assert(
          fc.asyncProperty(chunkings(c.raw), async (chunks) => {
            expectSameAsWhole(c, await runTurn(c, chunks), `${c.id}: chunks ${JSON.stringify(chunks.slice(0, 8))}`);
          }),
          { numRuns: thorough(2, 12), seed: [...c.id].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 11) },
        );
      }
    });
  });
}

describe("serve over HTTP: an upstream that streams one code unit per line", () => {
  let up: FakeOllama | undefined;
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    await up?.close();
    gateway = up = undefined;
  });

  // Cases whose text has astral characters (surrogate pairs) or CJK, with and without calls.
  const picked = FILES.flatMap((f) => readCases(f)).filter((c) => /[\u{10000}-\u{10FFFF}]|[\u4e00-\u9fff]/u.test(c.raw));

  it(`${picked.length} corpus cases with emoji or CJK: the client reads the whole-text recovery, and no line holds half a surrogate pair`, async () => {
    expect(picked.length).toBeGreaterThan(5);
    expect(picked.some((c) => /[\u{10000}-\u{10FFFF}]/u.test(c.raw))).toBe(true);
    up = await startFakeOllama({ respond: (req) => ({ content: picked.find((c) => c.id === req.messages[0]!.content)!.raw, chunkSize: 1 }) });
    gateway = createGateway({ upstream: { api: "ollama", host: up.host }, provider: new OllamaProvider({ host: up.host }) });
    const { port } = await gateway.listen(0, "127.0.0.1");
    const ask = async (c: CorpusCase) => {
      const res = await fetch(`http://127.0.0.1:${port}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "qwen3:8b", messages: [{ role: "user", content: c.id }], tools: toolDefinitions(c), stream: true }),
      });
      expect(res.status, c.id).toBe(200);
      return res.text();
    };
    for (const c of picked) {
      const tools = offered(toolDefinitions(c));
      const whole = recoverDeterministic({ content: c.raw }, tools, { validate: schemaValidator(tools) });
      // A prefilled-reasoning case is read on the model's second turn (see the module comment).
      if (whole.prefilledReasoning === true) await ask(c);
      const body = await ask(c);
      // A lone half would be written as a `\ud8xx` escape with no `\udcxx` after it.
      expect(body, c.id).not.toMatch(/\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})/i);
      const lines = body.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as { message?: { content?: string; tool_calls?: { function: { name: string; arguments: unknown } }[] } });
      const content = lines.map((l) => l.message?.content ?? "").join("");
      const calls = lines.flatMap((l) => l.message?.tool_calls ?? []).map((t) => ({ name: t.function.name, arguments: t.function.arguments }));
      const noteAt = content.indexOf(NOTE);
      expect(collapse(noteAt < 0 ? content : content.slice(0, noteAt)), c.id).toBe(collapse(whole.content));
      expect(calls, c.id).toEqual(whole.tool_calls.map((t) => ({ name: t.name, arguments: t.arguments })));
    }
  });
});

describe("serve shim turn: the upstream's finish reason", () => {
  /** An upstream that streams `raw` one code unit per delta and ends with `done_reason`. */
  function stopsWith(raw: string, doneReason: string | undefined): Provider {
    return {
      id: "fake",
      location: "memory",
      chat(_req: ChatRequest, opts?: ChatOptions): Promise<ChatTurn> {
        for (const ch of raw) opts?.onContent?.(ch);
        return Promise.resolve({ content: raw, tool_calls: [], ...(doneReason === undefined ? {} : { done_reason: doneReason }) });
      },
    };
  }

  it("a call whose last value the token limit cut is refused, not passed on; the same text ended by 'stop' is a call", async () => {
    // The real closer-less qwen3-coder reply of the corpus (continuedev/continue#13057).
    const c = readCases("toolcalls-new.jsonl").find((k) => k.id === "qwen3coder-ollama-no-closers-at-all")!;
    const run = async (reason: string | undefined) => {
      const provider = stopsWith(c.raw, reason);
      return turn(c, [c.raw], new ToolSupport(provider), provider);
    };
    const stopped = await run("stop");
    expect(stopped.calls.map((t) => t.name)).toEqual(["create_new_file"]);
    expect(stopped.finish).toBe("tool_calls");
    const cut = await run("length");
    expect(cut.failed).toBeUndefined();
    expect(cut.calls).toEqual([]);
    expect(cut.finish).toBe("length");
    const content = cut.content.join("");
    expect(content.split(NOTE).length - 1).toBe(1);
    expect(content).toContain(`${NOTE}create_new_file was not passed on: `);
    // An upstream that names no reason (or one the shim does not know) is read as before.
    for (const reason of [undefined, "tool_calls"]) expect((await run(reason)).calls.map((t) => t.name)).toEqual(["create_new_file"]);
  });
});
