/**
 * `codecite serve` in-process against the fake upstreams (real HTTP both ways), driven by the
 * official `ollama` and `openai` npm clients: tool calls written as text by the upstream come
 * back structured, prompt mode for a model without tools, the `codecite` virtual model, and
 * forwarding of the endpoints without assistant turns.
 */
import path from "node:path";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { OpenAIProvider } from "../../src/llm/openai.js";
import { REASK_SEPARATOR } from "../../src/agent/index.js";
import { createGateway, type Gateway } from "../../src/serve/index.js";
import { Workspace, createCodeToolRegistry } from "../../src/tools/index.js";
import { RAG_APP } from "../cli/run-cli.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { startFakeOpenAI, type FakeOpenAI } from "../helpers/fake-openai.js";

const WEATHER = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Weather of a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

let ollama: FakeOllama | undefined;
let openaiUp: FakeOpenAI | undefined;
let gateway: Gateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await ollama?.close();
  await openaiUp?.close();
  gateway = ollama = openaiUp = undefined;
});

async function gatewayOnOllama(up: FakeOllama, withAgent = false): Promise<string> {
  const provider = new OllamaProvider({ host: up.host });
  gateway = createGateway({
    upstream: { api: "ollama", host: up.host },
    provider,
    ...(withAgent
      ? { agent: { registry: createCodeToolRegistry(), workspace: await Workspace.open(RAG_APP), defaultModel: () => Promise.resolve("qwen3:8b") } }
      : {}),
  });
  const a = await gateway.listen(0, "127.0.0.1");
  return `http://127.0.0.1:${a.port}`;
}

describe("serve with the official ollama client", () => {
  it("a call written as text comes back as a structured tool call, streamed; the markup is gone", async () => {
    ollama = await startFakeOllama({
      turns: [{ thinking: "Weather needs the tool.", content: 'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>' }],
    });
    const url = await gatewayOnOllama(ollama);
    const client = new Ollama({ host: url });
    const stream = await client.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "Weather in Paris?" }], tools: [WEATHER], stream: true });
    let content = "";
    let thinking = "";
    const calls: unknown[] = [];
    let last;
    for await (const part of stream) {
      content += part.message.content;
      thinking += part.message.thinking ?? "";
      calls.push(...(part.message.tool_calls ?? []));
      last = part;
    }
    expect(content.trim()).toBe("Let me check.");
    expect(thinking).toBe("Weather needs the tool.");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ function: { name: "get_weather", arguments: { city: "Paris" } } });
    expect(last?.done).toBe(true);
    // The upstream got the client's tools natively (the model has the tools capability).
    expect(ollama.chatRequests()[0]!.tools?.map((t) => t.function.name)).toEqual(["get_weather"]);
    const stats = (await (await fetch(`${url}/codecite/stats`)).json()) as { models: Record<string, { turns: number; recovered: Record<string, number> }> };
    expect(stats.models["qwen3:8b"]).toMatchObject({ turns: 1, recovered: { "dialect:hermes_json": 1 } });
  });

  it("non-streamed: one body with tool_calls", async () => {
    ollama = await startFakeOllama({ turns: [{ content: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}]' }] });
    const client = new Ollama({ host: await gatewayOnOllama(ollama) });
    const r = await client.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "Oslo?" }], tools: [WEATHER], stream: false });
    expect(r.message.content).toBe("");
    expect(r.message.tool_calls).toEqual([{ id: expect.stringMatching(/^call_/), function: { index: 0, name: "get_weather", arguments: { city: "Oslo" } } }]);
    expect(r.done_reason).toBe("stop");
  });

  it("a model without tools is switched to prompt mode; the client still gets a native call", async () => {
    ollama = await startFakeOllama({
      models: [{ name: "gemma2:2b", capabilities: ["completion"] }],
      turns: [{ content: '{"name": "get_weather", "arguments": {"city": "Rome"}}' }],
    });
    const client = new Ollama({ host: await gatewayOnOllama(ollama) });
    const r = await client.chat({
      model: "gemma2:2b",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Rome?" },
      ],
      tools: [WEATHER],
      stream: false,
    });
    expect(r.message.tool_calls?.[0]).toMatchObject({ function: { name: "get_weather", arguments: { city: "Rome" } } });
    const sent = ollama.chatRequests()[0]!;
    expect(sent.tools).toBeUndefined();
    expect(sent.messages[0]!.role).toBe("system");
    expect(sent.messages[0]!.content).toContain("Be brief.\n\n# Tools");
    expect(sent.messages[0]!.content).toContain("get_weather - Weather of a city.");
  });

  it("a call to a tool the client did not offer is never produced", async () => {
    ollama = await startFakeOllama({ turns: [{ content: '<tool_call>{"name": "bash", "arguments": {"command": "rm -rf /"}}</tool_call>' }] });
    const client = new Ollama({ host: await gatewayOnOllama(ollama) });
    const r = await client.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "clean up" }], tools: [WEATHER], stream: false });
    expect(r.message.tool_calls).toBeUndefined();
    expect(r.message.content).toContain("[codecite: a call to bash was not passed on:");
  });

  it("endpoints without assistant turns are forwarded; /api/tags lists the virtual models", async () => {
    ollama = await startFakeOllama({ version: "0.12.9" });
    const client = new Ollama({ host: await gatewayOnOllama(ollama, true) });
    expect((await client.version()).version).toBe("0.12.9");
    const names = (await client.list()).models.map((m) => m.name);
    expect(names).toEqual(["qwen3:8b", "codecite", "codecite/qwen3:8b"]);
    const show = await client.show({ model: "qwen3:8b" });
    expect(show.capabilities).toEqual(["completion", "tools", "thinking"]);
  });

  it("the codecite model answers about the root with the agent, evidence appended in Markdown", async () => {
    ollama = await startFakeOllama({
      turns: [
        { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
        { content: "`src/rag_chat.py:10` imports rag_common." },
      ],
    });
    const client = new Ollama({ host: await gatewayOnOllama(ollama, true) });
    const stream = await client.chat({ model: "codecite", messages: [{ role: "user", content: "Who imports rag_common?" }], stream: true });
    let text = "";
    for await (const part of stream) text += part.message.content;
    expect(text).toContain("`src/rag_chat.py:10` imports rag_common.");
    expect(text).toContain("**Evidence** (");
    expect(text).toMatch(/- `src\/rag_chat\.py:10` import `rag_common`/);
    expect(text).toMatch(/\*\*Citations\*\* \(1\)\n- `src\/rag_chat\.py:10` /);
    // The agent ran on the default model with codecite's own tools.
    expect(ollama.chatRequests()[0]!.model).toBe("qwen3:8b");
    expect(ollama.chatRequests()[0]!.tools?.map((t) => t.function.name)).toContain("find_importers");
  });
});

describe("serve: the time stamps of a stream", () => {
  /** The NDJSON lines of a streamed `/api/chat` with the client's tools, read from the raw body. */
  async function ndjson(url: string): Promise<{ created_at: string; done: boolean }[]> {
    const res = await fetch(`${url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({ model: "qwen3:8b", messages: [{ role: "user", content: "Weather?" }], tools: [WEATHER], stream: true }),
    });
    return (await res.text()).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { created_at: string; done: boolean });
  }

  it("Ollama: each line is stamped when it is written, as Ollama stamps each streamed response", async () => {
    // Seven lines 20 ms apart: the first and the last line are written at least 120 ms apart.
    ollama = await startFakeOllama({ turns: [{ content: "The sky over Paris is clear today.", chunkSize: 5, partDelayMs: 20 }] });
    const lines = await ndjson(await gatewayOnOllama(ollama));
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[lines.length - 1]!.done).toBe(true);
    const stamps = lines.map((l) => Date.parse(l.created_at));
    for (const [i, l] of lines.entries()) expect(l.created_at, `line ${i}`).toBe(new Date(stamps[i]!).toISOString());
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]!, `line ${i}`).toBeGreaterThanOrEqual(stamps[i - 1]!);
    expect(new Set(lines.map((l) => l.created_at)).size).toBeGreaterThan(1);
  });
});

describe("serve: reasoning written in the content reaches the client first", () => {
  const REASONING = "Reasoning first: the user wants a long answer, so I write one sentence after another.";
  const ANSWER = "This is a long answer sentence. It goes on for a while. And it ends here.";
  /** A model whose template leaves `<think>` in the content, writing 7 characters per line. */
  const upstream = () => startFakeOllama({ turns: [{ content: `<think>${REASONING}</think>${ANSWER}`, chunkSize: 7, repeat: true }] });

  /** The request of every route: the client's tools, so the shim reads the turn. */
  const body = (stream: boolean) => JSON.stringify({ model: "qwen3:8b", messages: [{ role: "user", content: "longanswer" }], tools: [WEATHER], stream });

  it("Ollama /api/chat: thinking lines before the first content line; the same text as a whole body", async () => {
    ollama = await upstream();
    const url = await gatewayOnOllama(ollama);
    const raw = await (await fetch(`${url}/api/chat`, { method: "POST", body: body(true) })).text();
    const lines = raw.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { message: { content: string; thinking?: string } });
    const firstThinking = lines.findIndex((l) => (l.message.thinking ?? "") !== "");
    const firstContent = lines.findIndex((l) => l.message.content !== "");
    expect(firstThinking).toBeGreaterThanOrEqual(0);
    expect(firstContent).toBeGreaterThan(firstThinking);
    // Every thinking line comes before the answer, and the reasoning came in more than one line while it streamed.
    expect(lines.slice(firstContent).some((l) => (l.message.thinking ?? "") !== "")).toBe(false);
    expect(lines.filter((l) => (l.message.thinking ?? "") !== "").length).toBeGreaterThan(1);
    expect(lines.map((l) => l.message.thinking ?? "").join("")).toBe(REASONING);
    expect(lines.map((l) => l.message.content).join("")).toBe(ANSWER);
    const whole = (await (await fetch(`${url}/api/chat`, { method: "POST", body: body(false) })).json()) as { message: { content: string; thinking?: string } };
    expect(whole.message).toMatchObject({ content: ANSWER, thinking: REASONING });
  });

  it("Ollama /api/chat, gpt-oss Harmony channels in the content: the analysis message's lines before the answer", async () => {
    ollama = await startFakeOllama({
      turns: [{ content: `<|channel|>analysis<|message|>${REASONING}<|end|><|start|>assistant<|channel|>final<|message|>${ANSWER}<|return|>`, chunkSize: 7 }],
    });
    const url = await gatewayOnOllama(ollama);
    const raw = await (await fetch(`${url}/api/chat`, { method: "POST", body: body(true) })).text();
    const lines = raw.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { message: { content: string; thinking?: string } });
    const firstContent = lines.findIndex((l) => l.message.content !== "");
    const before = lines.slice(0, firstContent).map((l) => l.message.thinking ?? "");
    expect(before.filter((t) => t !== "").length).toBeGreaterThan(1);
    expect(before.join("")).toBe(REASONING);
    expect(lines.map((l) => l.message.content).join("")).toBe(ANSWER);
  });

  it("OpenAI /v1/chat/completions: reasoning_content deltas before the first content delta; the same text as a whole body", async () => {
    ollama = await upstream();
    const url = await gatewayOnOllama(ollama);
    const raw = await (await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: body(true) })).text();
    const deltas = raw
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta: { content?: string | null; reasoning_content?: string } }[] }).choices[0]?.delta ?? {});
    const firstReasoning = deltas.findIndex((d) => (d.reasoning_content ?? "") !== "");
    const firstContent = deltas.findIndex((d) => (d.content ?? "") !== "");
    expect(firstReasoning).toBeGreaterThanOrEqual(0);
    expect(firstContent).toBeGreaterThan(firstReasoning);
    expect(deltas.slice(firstContent).some((d) => (d.reasoning_content ?? "") !== "")).toBe(false);
    expect(deltas.map((d) => d.reasoning_content ?? "").join("")).toBe(REASONING);
    expect(deltas.map((d) => d.content ?? "").join("")).toBe(ANSWER);
    const whole = (await (await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: body(false) })).json()) as {
      choices: { message: { content: string; reasoning_content?: string } }[];
    };
    expect(whole.choices[0]!.message).toMatchObject({ content: ANSWER, reasoning_content: REASONING });
  });
});

describe("serve: the codecite model streams the agent's reasoning before its answer", () => {
  it("Ollama /api/chat with the codecite model: thinking lines before the first content line", async () => {
    const reasoning = "The question names no file, so I answer from what I know and cite the line I know.";
    ollama = await startFakeOllama({ turns: [{ content: `<think>${reasoning}</think>See \`src/rag_chat.py:10\`.`, chunkSize: 7, repeat: true }] });
    const url = await gatewayOnOllama(ollama, true);
    const raw = await (await fetch(`${url}/api/chat`, { method: "POST", body: JSON.stringify({ model: "codecite", messages: [{ role: "user", content: "Where?" }], stream: true }) })).text();
    const lines = raw.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { message: { content: string; thinking?: string } });
    const firstContent = lines.findIndex((l) => l.message.content !== "");
    const before = lines.slice(0, firstContent).map((l) => l.message.thinking ?? "");
    expect(before.filter((t) => t !== "").length).toBeGreaterThan(1);
    expect(before.join("")).toBe(reasoning);
  });
});

describe("serve: the codecite model asked once more after a failed citation check", () => {
  it("streamed or not, the two answers are apart, with the line ask prints between them", async () => {
    const turns = () => [
      { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
      { content: "`src/rag_chat.py:9999` imports rag_common." },
      { content: "`src/rag_chat.py:10` imports rag_common." },
    ];
    for (const stream of [true, false]) {
      ollama = await startFakeOllama({ turns: turns() });
      const client = new Ollama({ host: await gatewayOnOllama(ollama, true) });
      let text = "";
      if (stream) {
        for await (const part of await client.chat({ model: "codecite", messages: [{ role: "user", content: "Who imports rag_common?" }], stream: true })) text += part.message.content;
      } else {
        text = (await client.chat({ model: "codecite", messages: [{ role: "user", content: "Who imports rag_common?" }], stream: false })).message.content;
      }
      // Three model calls: the tool call, the first answer, the answer after the check.
      expect(ollama.chatRequests()).toHaveLength(3);
      expect(text.startsWith(
        `\`src/rag_chat.py:9999\` imports rag_common.\n\n${REASK_SEPARATOR}\n\n\`src/rag_chat.py:10\` imports rag_common.\n\n---\n**Evidence** (`,
      )).toBe(true);
      await gateway?.close();
      gateway = undefined;
      await ollama.close();
      ollama = undefined;
    }
  });
});

describe("serve with the official openai client", () => {
  it("streams delta.tool_calls (index, id, name, argument pieces) and finish_reason tool_calls", async () => {
    ollama = await startFakeOllama({
      turns: [{ thinking: "Use the tool.", content: '<tool_call>{"name": "get_weather", "arguments": {"city": "A city with a rather long name to split"}}</tool_call>' }],
    });
    const url = await gatewayOnOllama(ollama);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused" });
    const stream = await client.chat.completions.create({ model: "qwen3:8b", messages: [{ role: "user", content: "weather?" }], tools: [WEATHER], stream: true });
    const args: string[] = [];
    let name = "";
    let id = "";
    let reasoning = "";
    let finish: string | null = null;
    let argumentChunks = 0;
    for await (const chunk of stream) {
      const choice = chunk.choices[0]!;
      reasoning += (choice.delta as { reasoning_content?: string }).reasoning_content ?? "";
      for (const tc of choice.delta.tool_calls ?? []) {
        expect(tc.index).toBe(0);
        if (tc.id) id = tc.id;
        if (tc.function?.name) name = tc.function.name;
        if (tc.function?.arguments) {
          args.push(tc.function.arguments);
          argumentChunks++;
        }
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    expect(name).toBe("get_weather");
    expect(id).toMatch(/^call_/);
    expect(JSON.parse(args.join(""))).toEqual({ city: "A city with a rather long name to split" });
    expect(argumentChunks).toBeGreaterThan(1);
    expect(finish).toBe("tool_calls");
    expect(reasoning).toBe("Use the tool.");
  });

  it("stream_options.include_usage: every chunk has usage null, then a chunk with the counts and no choices; not asked, no usage", async () => {
    /** The chunks of one streamed completion, asked with or without the usage option. */
    const chunks = async (client: OpenAI, model: string, includeUsage: boolean) => {
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: "user", content: "weather?" }],
        tools: [WEATHER],
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      const out: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) out.push(chunk);
      return out;
    };
    const call = '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>';
    // Through an Ollama upstream: its prompt_eval_count and eval_count (the fake's 42 and 7).
    ollama = await startFakeOllama({ turns: [{ content: call }, { content: call }] });
    const viaOllama = new OpenAI({ baseURL: `${await gatewayOnOllama(ollama)}/v1`, apiKey: "unused" });
    const asked = await chunks(viaOllama, "qwen3:8b", true);
    const last = asked.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({ prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 });
    expect(asked.slice(0, -1).map((c) => c.usage)).toEqual(asked.slice(0, -1).map(() => null));
    expect(asked.at(-2)!.choices[0]!.finish_reason).toBe("tool_calls");
    const plain = await chunks(viaOllama, "qwen3:8b", false);
    expect(plain.every((c) => !("usage" in c) && c.choices.length === 1)).toBe(true);
    await gateway!.close();
    // Through an OpenAI-compatible upstream, which streams counts only when asked (codecite asks).
    openaiUp = await startFakeOpenAI({ models: ["coder"], turns: [{ content: call }] });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    const viaOpenAI = await chunks(new OpenAI({ baseURL: `http://127.0.0.1:${a.port}/v1`, apiKey: "unused" }), "coder", true);
    expect(viaOpenAI.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } });
    expect(openaiUp.chatRequests()[0]!.stream_options).toEqual({ include_usage: true });
  });

  it("stream_options that is not an object, or include_usage not a boolean, is a 400 in OpenAI's shape", async () => {
    ollama = await startFakeOllama({ turns: [] });
    const url = await gatewayOnOllama(ollama);
    for (const stream_options of ["yes", [true], { include_usage: "yes" }, { include_usage: 1 }]) {
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], stream: true, stream_options }),
      });
      expect(res.status, JSON.stringify(stream_options)).toBe(400);
      const body = (await res.json()) as { error: { message: string; type: string } };
      expect(body.error.type).toBe("invalid_request_error");
      expect(body.error.message).toMatch(/^stream_options(\.include_usage)? must be/);
    }
    expect(ollama.chatRequests()).toEqual([]);
  });

  it("tool_choice none: no tool reaches the upstream and a call written anyway is not produced", async () => {
    ollama = await startFakeOllama({ turns: [{ content: 'Sure.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>' }] });
    const client = new OpenAI({ baseURL: `${await gatewayOnOllama(ollama)}/v1`, apiKey: "unused" });
    const r = await client.chat.completions.create({ model: "qwen3:8b", messages: [{ role: "user", content: "weather?" }], tools: [WEATHER], tool_choice: "none" });
    const choice = r.choices[0]!;
    expect(choice.message.tool_calls ?? []).toEqual([]);
    expect(choice.finish_reason).toBe("stop");
    expect(choice.message.content).toMatch(/^Sure\.\n\n\[codecite: a call to get_weather was not passed on: /);
    expect(ollama.chatRequests()[0]!.tools ?? []).toEqual([]);
  });

  it("tool_choice naming a function: the upstream gets that tool alone and the choice; a call to another tool is not produced", async () => {
    const TIME = { type: "function" as const, function: { name: "get_time", description: "Time of a city.", parameters: { type: "object", properties: { city: { type: "string" } } } } };
    openaiUp = await startFakeOpenAI({
      models: ["coder"],
      turns: [{ content: '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>\n<tool_call>{"name": "get_time", "arguments": {"city": "Oslo"}}</tool_call>' }],
    });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${a.port}/v1`, apiKey: "unused" });
    const r = await client.chat.completions.create({
      model: "coder",
      messages: [{ role: "user", content: "time?" }],
      tools: [WEATHER, TIME],
      tool_choice: { type: "function", function: { name: "get_time" } },
    });
    const calls = (r.choices[0]!.message.tool_calls ?? []) as { function: { name: string; arguments: string } }[];
    expect(calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([["get_time", { city: "Oslo" }]]);
    expect(r.choices[0]!.message.content).toMatch(/\[codecite: a call to get_weather was not passed on: /);
    const sent = openaiUp.chatRequests()[0]!;
    expect((sent.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(["get_time"]);
    expect(sent.tool_choice).toEqual({ type: "function", function: { name: "get_time" } });
  });

  it("an assistant message's refusal in history (a refusal content part, or the refusal field) reaches the upstream as what that turn said", async () => {
    ollama = await startFakeOllama({ turns: [{ content: "ok" }] });
    const url = await gatewayOnOllama(ollama);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused" });
    await client.chat.completions.create({
      model: "qwen3:8b",
      messages: [
        { role: "user", content: "pick a lock" },
        { role: "assistant", content: [{ type: "refusal", refusal: "I can't help with that." }] },
        { role: "user", content: "pick a lock, mine" },
        { role: "assistant", content: null, refusal: "I still can't." },
        { role: "user", content: "fine" },
      ],
    });
    expect(ollama.chatRequests()[0]!.messages.filter((m) => m.role === "assistant").map((m) => m.content)).toEqual(["I can't help with that.", "I still can't."]);
  });

  it("tool_choice allowed_tools: the upstream gets those tools alone, and required when the mode is; a call to another tool is not produced", async () => {
    const TIME = { type: "function" as const, function: { name: "get_time", description: "Time of a city.", parameters: { type: "object", properties: { city: { type: "string" } } } } };
    const written = '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>\n<tool_call>{"name": "get_time", "arguments": {"city": "Oslo"}}</tool_call>';
    openaiUp = await startFakeOpenAI({ models: ["coder"], turns: [{ content: written }, { content: written }] });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${a.port}/v1`, apiKey: "unused" });
    for (const mode of ["required", "auto"] as const) {
      const r = await client.chat.completions.create({
        model: "coder",
        messages: [{ role: "user", content: "time?" }],
        tools: [WEATHER, TIME],
        tool_choice: { type: "allowed_tools", allowed_tools: { mode, tools: [{ type: "function", function: { name: "get_time" } }] } },
      });
      const calls = (r.choices[0]!.message.tool_calls ?? []) as { function: { name: string; arguments: string } }[];
      expect({ mode, calls: calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)]) }).toEqual({ mode, calls: [["get_time", { city: "Oslo" }]] });
      expect(r.choices[0]!.message.content).toMatch(/\[codecite: a call to get_weather was not passed on: /);
    }
    const sent = openaiUp.chatRequests();
    expect(sent.map((b) => (b.tools as { function: { name: string } }[]).map((t) => t.function.name))).toEqual([["get_time"], ["get_time"]]);
    expect(sent.map((b) => b.tool_choice)).toEqual(["required", undefined]);
  });

  it("tool_choice required and parallel_tool_calls false reach an OpenAI upstream; two calls written as text give the client the first", async () => {
    openaiUp = await startFakeOpenAI({
      models: ["coder"],
      turns: [{ content: '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>\n<tool_call>{"name": "get_weather", "arguments": {"city": "Bergen"}}</tool_call>' }],
    });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${a.port}/v1`, apiKey: "unused" });
    const stream = await client.chat.completions.create({
      model: "coder",
      messages: [{ role: "user", content: "weather?" }],
      tools: [WEATHER],
      tool_choice: "required",
      parallel_tool_calls: false,
      stream: true,
    });
    const args = new Map<number, string>();
    let content = "";
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? "";
      for (const tc of chunk.choices[0]?.delta.tool_calls ?? []) args.set(tc.index, (args.get(tc.index) ?? "") + (tc.function?.arguments ?? ""));
    }
    expect([...args.values()].map((s) => JSON.parse(s) as unknown)).toEqual([{ city: "Oslo" }]);
    expect(content).toMatch(/\[codecite: a call to get_weather was not passed on: the client asked for one call per turn/);
    const sent = openaiUp.chatRequests()[0]!;
    expect(sent.tool_choice).toBe("required");
    expect(sent.parallel_tool_calls).toBe(false);
  });

  it("a tool_choice, parallel_tool_calls or n the gateway cannot honour is a 400 naming the field; the upstream is not asked", async () => {
    ollama = await startFakeOllama({ turns: [] });
    const url = await gatewayOnOllama(ollama);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ tool_choice: "sometimes" }, /^tool_choice must be "none", "auto", "required" or/],
      [{ tool_choice: { type: "function", function: { name: "get_time" } } }, /^tool_choice names "get_time", which is not in tools/],
      [{ tool_choice: { type: "function" } }, /^tool_choice must be/],
      [{ tool_choice: "required", tools: [] }, /^tool_choice is required, but tools is empty/],
      [{ tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "get_time" } }] } } }, /^tool_choice\.allowed_tools\.tools\[0\] names "get_time", which is not in tools/],
      [{ tool_choice: { type: "allowed_tools", allowed_tools: { mode: "sometimes", tools: [] } } }, /^tool_choice\.allowed_tools must be \{"mode": "auto" or "required"/],
      [{ tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "custom", custom: { name: "x" } }] } } }, /^tool_choice\.allowed_tools\.tools\[0\] must be/],
      [{ tool_choice: { type: "allowed_tools", allowed_tools: { mode: "required", tools: [] } } }, /^tool_choice\.allowed_tools\.mode is required, but tool_choice\.allowed_tools\.tools is empty/],
      [{ parallel_tool_calls: "no" }, /^parallel_tool_calls must be true or false/],
      [{ n: 2 }, /^n must be 1: codecite serve answers with one choice/],
      [{ n: "1" }, /^n must be 1/],
    ];
    for (const [extra, message] of cases) {
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], tools: [WEATHER], ...extra }),
      });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message, JSON.stringify(extra)).toMatch(message);
    }
    expect(ollama.chatRequests()).toEqual([]);
  });

  it("/v1/completions (code completion) is forwarded as it is, streamed or not", async () => {
    openaiUp = await startFakeOpenAI({ models: ["coder"] });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${a.port}/v1`, apiKey: "unused" });
    const whole = await client.completions.create({ model: "coder", prompt: "def add(a, b):" });
    expect(whole.choices[0]!.text).toBe(":)b ,a(dda fed");
    const stream = await client.completions.create({ model: "coder", prompt: "return a", stream: true });
    const pieces: string[] = [];
    for await (const chunk of stream) pieces.push(chunk.choices[0]!.text);
    expect(pieces).toEqual(["a ", "nr", "ut", "er", ""]);
    expect(openaiUp.requests.filter((r) => r.path === "/v1/completions").map((r) => r.body?.prompt)).toEqual(["def add(a, b):", "return a"]);
  });

  it("non-streamed, through an OpenAI-compatible upstream", async () => {
    openaiUp = await startFakeOpenAI({ models: ["coder"], turns: [{ content: 'Calling.\n```json\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n```' }] });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${a.port}/v1`, apiKey: "unused" });
    const r = await client.chat.completions.create({ model: "coder", messages: [{ role: "user", content: "Lima?" }], tools: [WEATHER] });
    const choice = r.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    const call = choice.message.tool_calls?.[0] as { function: { name: string; arguments: string } } | undefined;
    expect(call?.function.name).toBe("get_weather");
    expect(JSON.parse(call!.function.arguments)).toEqual({ city: "Lima" });
    expect(choice.message.content).toBe("Calling.");
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["coder"]);
  });

  it("history with tool results is passed on (OpenAI ids to the Ollama upstream)", async () => {
    ollama = await startFakeOllama({ turns: [{ content: "It is sunny." }] });
    const client = new OpenAI({ baseURL: `${await gatewayOnOllama(ollama)}/v1`, apiKey: "unused" });
    const r = await client.chat.completions.create({
      model: "qwen3:8b",
      tools: [WEATHER],
      messages: [
        { role: "user", content: "weather?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
        { role: "tool", tool_call_id: "call_1", content: "sunny" },
      ],
    });
    expect(r.choices[0]!.message.content).toBe("It is sunny.");
    expect(r.choices[0]!.finish_reason).toBe("stop");
    const sent = ollama.chatRequests()[0]!.messages;
    expect(sent[1]).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_1", function: { name: "get_weather", arguments: { city: "Paris" } } }] });
    expect(sent[2]).toMatchObject({ role: "tool", content: "sunny", tool_call_id: "call_1" });
  });
});

describe("serve: the codecite model through the OpenAI API", () => {
  it("lists codecite models and answers with evidence", async () => {
    // The cited line was never shown to the model, so the agent asks once more (cite or abstain):
    // the scripted model answers the same both times.
    ollama = await startFakeOllama({ turns: [{ content: "No tools needed; see `src/rag_chat.py:10`.", repeat: true }] });
    const client = new OpenAI({ baseURL: `${await gatewayOnOllama(ollama, true)}/v1`, apiKey: "unused" });
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(["qwen3:8b", "codecite", "codecite/qwen3:8b"]);
    const r = await client.chat.completions.create({ model: "codecite/qwen3:8b", messages: [{ role: "user", content: "Where?" }] });
    const text = r.choices[0]!.message.content ?? "";
    expect(text).toContain("No tools needed");
    expect(text).toContain("**Evidence** (0)\n- none");
    expect(text).toContain("**Citations** (1)\n- `src/rag_chat.py:10` ");
    expect(path.basename(RAG_APP)).toBe("rag-app");
  });
});

describe("serve passes the client's sampling settings on", () => {
  it("Ollama client → Ollama upstream: every option, the sampling ones and the rest, as sent", async () => {
    ollama = await startFakeOllama({ turns: [{ content: "ok" }] });
    const client = new Ollama({ host: await gatewayOnOllama(ollama) });
    const options = {
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      min_p: 0.05,
      seed: 7,
      stop: ["</end>", "\n\n"],
      num_predict: 128,
      repeat_penalty: 1.1,
      presence_penalty: 0.3,
      frequency_penalty: 0.4,
      num_ctx: 8192,
      mirostat: 2,
      repeat_last_n: 64,
    };
    const r = await client.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], options, stream: false });
    expect(r.message.content).toBe("ok");
    expect(ollama.chatRequests()[0]!.options).toEqual(options);
  });

  it("OpenAI client → Ollama upstream: OpenAI fields become Ollama options (max_tokens → num_predict, a stop string → a list)", async () => {
    ollama = await startFakeOllama({ turns: [{ content: "ok" }] });
    const client = new OpenAI({ baseURL: `${await gatewayOnOllama(ollama)}/v1`, apiKey: "unused" });
    await client.chat.completions.create({
      model: "qwen3:8b",
      messages: [{ role: "user", content: "hi" }],
      temperature: 0.5,
      top_p: 0.8,
      seed: 11,
      stop: "END",
      max_tokens: 64,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
    });
    expect(ollama.chatRequests()[0]!.options).toEqual({
      temperature: 0.5,
      top_p: 0.8,
      seed: 11,
      stop: ["END"],
      num_predict: 64,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
    });
  });

  it("OpenAI client → OpenAI upstream, streamed: the fields as sent; max_completion_tokens goes out as max_tokens; llama.cpp's top_k, min_p, repeat_penalty too", async () => {
    openaiUp = await startFakeOpenAI({ models: ["coder"], turns: [{ content: "ok" }] });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${a.port}/v1`, apiKey: "unused" });
    const body = {
      model: "coder",
      messages: [{ role: "user" as const, content: "hi" }],
      temperature: 0.3,
      top_p: 0.7,
      seed: 5,
      stop: ["STOP", "HALT"],
      max_completion_tokens: 32,
      presence_penalty: 0.6,
      frequency_penalty: 0.5,
      stream: true as const,
    };
    const extensions = { top_k: 20, min_p: 0.1, repeat_penalty: 1.05 };
    const stream = await client.chat.completions.create({ ...body, ...extensions } as typeof body);
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("ok");
    const sent = openaiUp.chatRequests()[0]!;
    expect(sent).toMatchObject({ temperature: 0.3, top_p: 0.7, seed: 5, stop: ["STOP", "HALT"], max_tokens: 32, presence_penalty: 0.6, frequency_penalty: 0.5, ...extensions });
    expect(sent).not.toHaveProperty("max_completion_tokens");
  });

  it("Ollama client → OpenAI upstream: options become OpenAI fields (num_predict → max_tokens); options the upstream has no field for are not sent", async () => {
    openaiUp = await startFakeOpenAI({ models: ["coder"], turns: [{ content: "ok" }] });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    const client = new Ollama({ host: `http://127.0.0.1:${a.port}` });
    await client.chat({ model: "coder", messages: [{ role: "user", content: "hi" }], options: { temperature: 0.1, top_p: 0.95, seed: 3, stop: ["x"], num_predict: 10, mirostat: 1 }, stream: false });
    const sent = openaiUp.chatRequests()[0]!;
    expect(sent).toMatchObject({ temperature: 0.1, top_p: 0.95, seed: 3, stop: ["x"], max_tokens: 10 });
    expect(sent).not.toHaveProperty("mirostat");
    expect(sent).not.toHaveProperty("options");
  });

  it("a sampling value of the wrong type: 400 naming the field, in each API's shape", async () => {
    ollama = await startFakeOllama();
    const url = await gatewayOnOllama(ollama);
    const o = await fetch(`${url}/api/chat`, { method: "POST", body: JSON.stringify({ model: "qwen3:8b", messages: [], options: { seed: 1.5 } }) });
    expect(o.status).toBe(400);
    expect(await o.json()).toEqual({ error: "options.seed must be an integer" });
    const v = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "qwen3:8b", messages: [], stop: [1] }) });
    expect(v.status).toBe(400);
    expect(await v.json()).toMatchObject({ error: { message: "stop must be a string or an array of strings", type: "invalid_request_error" } });
    expect(ollama.chatRequests()).toHaveLength(0);
  });

  it("Ollama's keep_alive reaches an Ollama upstream, streamed or not; a keep_alive of the wrong type is a 400", async () => {
    ollama = await startFakeOllama({ turns: [{ content: "ok", repeat: true }] });
    const url = await gatewayOnOllama(ollama);
    const client = new Ollama({ host: url });
    await client.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], keep_alive: "10m", stream: false });
    const stream = await client.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], keep_alive: 0, stream: true });
    for await (const part of stream) expect(part.message.content).not.toContain("error");
    await client.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], stream: false });
    expect(ollama.chatRequests().map((r) => r.keep_alive)).toEqual(["10m", 0, undefined]);
    const bad = await fetch(`${url}/api/chat`, { method: "POST", body: JSON.stringify({ model: "qwen3:8b", messages: [], keep_alive: [5] }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'keep_alive must be a duration such as "10m" or a number of seconds' });
  });

  it("the codecite model passes the client's sampling settings and keep_alive to every model call of the agent", async () => {
    ollama = await startFakeOllama({
      turns: [
        { tool_calls: [{ name: "find_importers", arguments: { module_name: "rag_common" } }] },
        { content: "`src/rag_chat.py:10` imports rag_common." },
      ],
    });
    const url = await gatewayOnOllama(ollama, true);
    const stream = await new Ollama({ host: url }).chat({
      model: "codecite",
      messages: [{ role: "user", content: "Who imports rag_common?" }],
      options: { temperature: 0.1, top_p: 0.8, seed: 3, num_predict: 300 },
      keep_alive: "1h",
      stream: true,
    });
    let text = "";
    for await (const part of stream) text += part.message.content;
    expect(text).toContain("imports rag_common.");
    const calls = ollama.chatRequests();
    expect(calls).toHaveLength(2);
    for (const r of calls) {
      expect(r.options).toMatchObject({ temperature: 0.1, top_p: 0.8, seed: 3, num_predict: 300 });
      expect(r.keep_alive).toBe("1h");
    }
  });

  it("the codecite model through the OpenAI client: its sampling fields reach the agent's model calls", async () => {
    ollama = await startFakeOllama({ turns: [{ content: "No tools needed; see `src/rag_chat.py:10`.", repeat: true }] });
    const client = new OpenAI({ baseURL: `${await gatewayOnOllama(ollama, true)}/v1`, apiKey: "unused" });
    const r = await client.chat.completions.create({ model: "codecite", messages: [{ role: "user", content: "Where?" }], temperature: 0.3, top_p: 0.7, max_tokens: 200, stop: "END" });
    expect(r.choices[0]!.message.content).toContain("No tools needed");
    const calls = ollama.chatRequests();
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c.options).toMatchObject({ temperature: 0.3, top_p: 0.7, num_predict: 200, stop: ["END"] });
  });
});

describe("serve passes a reasoning level on", () => {
  it("Ollama think levels and OpenAI reasoning_effort reach an Ollama upstream as think (minimal as low, none as false)", async () => {
    ollama = await startFakeOllama({ turns: [{ content: "a", repeat: true }] });
    const url = await gatewayOnOllama(ollama);
    const viaOllama = new Ollama({ host: url });
    for (const think of ["high", "low", true, false] as const) {
      await viaOllama.chat({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], think, stream: false });
    }
    const viaOpenAI = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused" });
    for (const reasoning_effort of ["medium", "minimal", "none"] as const) {
      await viaOpenAI.chat.completions.create({ model: "qwen3:8b", messages: [{ role: "user", content: "hi" }], reasoning_effort });
    }
    expect(ollama.chatRequests().map((b) => b.think)).toEqual(["high", "low", true, false, "medium", "low", false]);
  });

  it("to an OpenAI-compatible upstream: a level as reasoning_effort, from either API; no level, no field", async () => {
    openaiUp = await startFakeOpenAI({ models: ["oss"], turns: [{ content: "a" }, { content: "b" }, { content: "c" }] });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    await new Ollama({ host: `http://127.0.0.1:${a.port}` }).chat({ model: "oss", messages: [{ role: "user", content: "hi" }], think: "high", stream: false });
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${a.port}/v1`, apiKey: "unused" });
    await client.chat.completions.create({ model: "oss", messages: [{ role: "user", content: "hi" }], reasoning_effort: "low" });
    await client.chat.completions.create({ model: "oss", messages: [{ role: "user", content: "hi" }] });
    expect(openaiUp.chatRequests().map((b) => b.reasoning_effort ?? "(none)")).toEqual(["high", "low", "(none)"]);
  });
});

describe("serve passes images on to a vision model", () => {
  // The first bytes of a PNG file and of a JPEG file, in base64 (enough for the media type).
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]).toString("base64");
  const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]).toString("base64");

  it("Ollama images and OpenAI image_url parts (data: URLs) reach an Ollama upstream as base64; the text stays the text", async () => {
    ollama = await startFakeOllama({ turns: [{ content: "a cat" }, { content: "a dog" }] });
    const url = await gatewayOnOllama(ollama);
    await new Ollama({ host: url }).chat({ model: "qwen3:8b", messages: [{ role: "user", content: "what is it?", images: [PNG] }], stream: false });
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "unused" });
    const r = await client.chat.completions.create({
      model: "qwen3:8b",
      messages: [{ role: "user", content: [{ type: "text", text: "and this?" }, { type: "image_url", image_url: { url: `data:image/jpeg;base64,${JPEG}` } }] }],
    });
    expect(r.choices[0]!.message.content).toBe("a dog");
    const sent = ollama.chatRequests().map((b) => b.messages.at(-1));
    expect(sent).toEqual([
      { role: "user", content: "what is it?", images: [PNG] },
      { role: "user", content: "and this?", images: [JPEG] },
    ]);
  });

  it("to an OpenAI-compatible upstream: image_url parts, base64 as a data: URL with its media type, an http URL as it came", async () => {
    openaiUp = await startFakeOpenAI({ models: ["vl"], turns: [{ content: "ok" }, { content: "ok" }] });
    gateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    const a = await gateway.listen(0, "127.0.0.1");
    await new Ollama({ host: `http://127.0.0.1:${a.port}` }).chat({ model: "vl", messages: [{ role: "user", content: "what is it?", images: [PNG] }], stream: false });
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${a.port}/v1`, apiKey: "unused" });
    await client.chat.completions.create({
      model: "vl",
      messages: [{ role: "user", content: [{ type: "text", text: "and this?" }, { type: "image_url", image_url: { url: "https://example.com/cat.png" } }] }],
    });
    const sent = openaiUp.chatRequests().map((b) => (b.messages as unknown[]).at(-1));
    expect(sent).toEqual([
      { role: "user", content: [{ type: "text", text: "what is it?" }, { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } }] },
      { role: "user", content: [{ type: "text", text: "and this?" }, { type: "image_url", image_url: { url: "https://example.com/cat.png" } }] },
    ]);
  });

  it("a tool result's images: to Ollama as they came, in prompt mode with the user message the result becomes, to an OpenAI-compatible upstream a 400 naming the message (never dropped unseen)", async () => {
    const READ = { type: "function", function: { name: "screenshot", description: "Screenshot.", parameters: { type: "object", properties: {} } } };
    const history = [
      { role: "user", content: "what is on screen?" },
      { role: "assistant", content: "", tool_calls: [{ function: { name: "screenshot", arguments: {} } }] },
      { role: "tool", content: "the screen", tool_name: "screenshot", images: [PNG] },
    ];
    ollama = await startFakeOllama({ models: [{ name: "qwen3:8b" }, { name: "gemma2:2b", capabilities: ["completion"] }], turns: [{ content: "a cat" }, { content: "a dog" }] });
    const url = await gatewayOnOllama(ollama);
    const client = new Ollama({ host: url });
    expect((await client.chat({ model: "qwen3:8b", messages: history, tools: [READ], stream: false })).message.content).toBe("a cat");
    expect((await client.chat({ model: "gemma2:2b", messages: history, tools: [READ], stream: false })).message.content).toBe("a dog");
    const [native, prompted] = ollama.chatRequests().map((b) => b.messages.at(-1));
    expect(native).toEqual({ role: "tool", content: "the screen", tool_name: "screenshot", images: [PNG] });
    expect(prompted).toMatchObject({ role: "user", images: [PNG] });
    expect(prompted!.content).toContain("the screen");

    openaiUp = await startFakeOpenAI({ models: ["vl"], turns: [] });
    const openaiGateway = createGateway({ upstream: { api: "openai", baseURL: openaiUp.baseURL }, provider: new OpenAIProvider({ baseURL: openaiUp.baseURL }) });
    try {
      const a = await openaiGateway.listen(0, "127.0.0.1");
      const r = await fetch(`http://127.0.0.1:${a.port}/api/chat`, { method: "POST", body: JSON.stringify({ model: "vl", messages: history, tools: [READ], stream: false }) });
      expect({ status: r.status, body: await r.json() }).toEqual({
        status: 400,
        body: { error: "upstream: messages[2] is a tool message with images, which an OpenAI-compatible server takes in user messages only" },
      });
      expect(openaiUp.chatRequests()).toEqual([]);
    } finally {
      await openaiGateway.close();
    }
  });

  it("what cannot be passed on is a 400 naming the field, and the upstream is not asked", async () => {
    ollama = await startFakeOllama({ turns: [] });
    const url = await gatewayOnOllama(ollama);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: res.status, text: await res.text() };
    };
    const openai = (content: unknown, role = "user") => post("/v1/chat/completions", { model: "qwen3:8b", messages: [{ role, content }] });
    const cases: [Promise<{ status: number; text: string }>, RegExp][] = [
      [openai([{ type: "image_url", image_url: { url: "https://example.com/cat.png" } }]), /an image given by URL cannot be sent to Ollama/],
      [openai([{ type: "input_audio", input_audio: { data: "AAAA", format: "wav" } }]), /messages\[0\]\.content\[0\]\.type \\"input_audio\\" is not forwarded/],
      [openai([{ type: "image_url", image_url: { url: "data:image/png,rawbytes" } }]), /a data: URL of an image must be base64/],
      [openai([{ type: "image_url", image_url: { url: "file:///etc/passwd" } }]), /must be an http\(s\) URL or a base64 data: URL/],
      [openai([{ type: "image_url", image_url: { url: "data:;base64," } }]), /messages\[0\]\.content\[0\]\.image_url\.url: the data: URL holds no image/],
      [openai([{ type: "image_url", image_url: { url: "data:image/png;base64,  " } }]), /the data: URL holds no image/],
      // Megabytes of parameters: read in one pass (a pattern's repeated group overflowed its stack: 500).
      [openai([{ type: "image_url", image_url: { url: `data:${";".repeat(5_000_000)}` } }]), /must be an http\(s\) URL or a base64 data: URL/],
      [openai([{ type: "image_url", image_url: { url: `data:${";".repeat(5_000_000)},AAAA` } }]), /a data: URL of an image must be base64/],
      [openai([{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } }], "assistant"), /only user messages may hold images/],
      [post("/api/chat", { model: "qwen3:8b", messages: [{ role: "user", content: "x", images: "AAAA" }], stream: false }), /messages\[0\]\.images must be an array of base64 strings/],
    ];
    for (const [reply, message] of cases) {
      const { status, text } = await reply;
      expect(status, text).toBe(400);
      expect(text).toMatch(message);
    }
    expect(ollama.chatRequests()).toEqual([]);
  });
});
