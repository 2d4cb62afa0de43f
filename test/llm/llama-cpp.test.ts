/**
 * The embedded llama.cpp provider, for real: the test writes a tiny GGUF model (see
 * `test/helpers/gguf.ts`), loads it with node-llama-cpp on the CPU, and checks that
 * grammar-constrained generation returns JSON valid against the interpreter schema, and that
 * function calls come back as `ToolCall`s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import {
  ChatMLChatWrapper,
  type ChatWrapperGenerateContextStateOptions,
  type ChatWrapperGeneratedContextState,
} from "node-llama-cpp";
import { LlamaCppProvider } from "../../src/llm/llama-cpp.js";
import { toChatHistory } from "../../src/llm/llama-cpp-history.js";
import { importNodeLlamaCpp } from "../../src/llm/node-llama-cpp.js";
import { ProviderError, type JsonSchema, type ToolDefinition } from "../../src/llm/types.js";
import { writeTinyLlamaGguf } from "../helpers/gguf.js";
import { createInterpreter, interpreterFormat } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

/**
 * ChatML, but generation starts inside function-calling mode, so that even a model with
 * meaningless weights must produce a (grammar-constrained) function call. Published chat
 * wrappers let the model choose; this only makes the choice deterministic for the test.
 */
class ForcedCallChatML extends ChatMLChatWrapper {
  override generateContextState(o: ChatWrapperGenerateContextStateOptions): ChatWrapperGeneratedContextState {
    const state = super.generateContextState(o);
    if (!o.availableFunctions || Object.keys(o.availableFunctions).length === 0) return state;
    return {
      contextText: state.contextText,
      stopGenerationTriggers: state.stopGenerationTriggers,
      functionCall: { initiallyEngaged: true, disengageInitiallyEngaged: [] },
    };
  }
}

const TOOLS: ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "find_importers",
      description: "List the files that import a module",
      parameters: {
        type: "object",
        properties: {
          module_name: { type: "string", minLength: 1 },
          max_results: { type: "integer", minimum: 1, maximum: 200, default: 50 },
        },
        required: ["module_name"],
      },
    },
  },
];

/** The interpreter's structured-output schema: a tool name from the offered list or `noop`, and an arguments object. */
const INTERPRETER_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    name: { type: "string", enum: ["search_code", "find_importers", "noop"] },
    arguments: { type: "object" },
  },
  required: ["name", "arguments"],
};

let dir: string;
let modelPath: string;
let plain: LlamaCppProvider;
let forced: LlamaCppProvider;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "codecite-gguf-"));
  modelPath = await writeTinyLlamaGguf(path.join(dir, "tiny.gguf"));
  // One thread: a model this small is dominated by thread synchronisation on a busy CI box.
  plain = new LlamaCppProvider({ modelPath, gpu: false, threads: 1, contextSize: 2048 });
  forced = new LlamaCppProvider({ modelPath, gpu: false, threads: 1, contextSize: 2048, chatWrapper: new ForcedCallChatML() });
});

afterAll(async () => {
  await plain?.close();
  await forced?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("LlamaCppProvider with a generated GGUF model", () => {
  it("loads the model and reads its metadata", async () => {
    expect(await plain.describeModel()).toEqual({ name: "tiny.gguf", capabilities: ["completion", "tools"], context_length: 4096 });
    expect(await plain.listModels()).toEqual([modelPath]);
    expect(await plain.version()).toMatch(/^node-llama-cpp 3\.21\.1/);
  });

  it("returns JSON valid against the interpreter schema under a grammar", async () => {
    const streamed: string[] = [];
    const turn = await plain.chat(
      {
        model: modelPath,
        messages: [
          { role: "system", content: "Rewrite the tool request as JSON." },
          { role: "user", content: 'Request: I will call find_importers with {"module_name": "rag_common"}' },
        ],
        format: INTERPRETER_SCHEMA,
        temperature: 0,
      },
      { onContent: (d) => streamed.push(d) },
    );
    expect(turn.tool_calls).toEqual([]);
    expect(turn.done_reason).toBe("stop");
    const value = JSON.parse(turn.content) as unknown;
    const parsed = z.fromJSONSchema(INTERPRETER_SCHEMA as never).safeParse(value);
    expect(parsed.success).toBe(true);
    const obj = value as { name: string; arguments: unknown };
    expect(["search_code", "find_importers", "noop"]).toContain(obj.name);
    expect(typeof obj.arguments).toBe("object");
    expect(streamed.join("")).toBe(turn.content);
  });

  it("serves as the tool shim's local interpreter backend with the interpreter schema as a grammar", async () => {
    const tools: OfferedTool[] = TOOLS.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
    const seen: string[] = [];
    const recording = {
      id: plain.id,
      location: plain.location,
      chat: async (...args: Parameters<LlamaCppProvider["chat"]>) => {
        const turn = await plain.chat(...args);
        seen.push(turn.content);
        return turn;
      },
    };
    const interpreter = createInterpreter(recording, modelPath, { timeoutMs: 60_000 });
    const calls = await interpreter.interpret("I'll look up who imports rag_common: find_importers(rag_common)", tools);
    // The raw reply satisfies the interpreter's schema (tool_calls items with an enum name and an arguments object) …
    expect(seen).toHaveLength(1);
    const reply = JSON.parse(seen[0]!) as unknown;
    expect(z.fromJSONSchema(interpreterFormat(tools) as never).safeParse(reply).success).toBe(true);
    // … and the interpreter turns it into calls on offered tools only (this model always picks the one tool).
    expect(calls.map((c) => c.name)).toEqual(["find_importers"]);
    expect(typeof calls[0]!.arguments).toBe("object");
  });

  it("drops the nulls it allowed for optional properties", async () => {
    const schema: JsonSchema = {
      type: "object",
      // Optional `limit`: the grammar allows an integer or null; this model prefers the letter `n`.
      properties: { path: { type: "string", minLength: 2 }, limit: { type: "integer" }, n: { type: "integer" } },
      required: ["path", "n"],
    };
    const turn = await plain.chat({ model: modelPath, messages: [{ role: "user", content: "go" }], format: schema });
    const value = JSON.parse(turn.content) as Record<string, unknown>;
    expect(z.fromJSONSchema(schema as never).safeParse(value).success).toBe(true);
    expect(Object.keys(value)).toEqual(["path", "n"]);
    expect((value.path as string).length).toBeGreaterThanOrEqual(2);
  });

  it("returns function calls as ToolCalls instead of running them", async () => {
    const turn = await forced.chat({ model: modelPath, messages: [{ role: "user", content: "who imports rag_common?" }], tools: TOOLS });
    expect(turn.done_reason).toBe("tool_calls");
    expect(turn.tool_calls).toHaveLength(1);
    const call = turn.tool_calls[0]!;
    expect(call.name).toBe("find_importers");
    // module_name is required (minLength 1); max_results is optional and the model left it null → dropped.
    expect(Object.keys(call.arguments)).toEqual(["module_name"]);
    expect(typeof call.arguments.module_name).toBe("string");
    expect((call.arguments.module_name as string).length).toBeGreaterThanOrEqual(1);

    // The next turn carries the call and its result in the history.
    const next = await forced.chat({
      model: modelPath,
      messages: [
        { role: "user", content: "who imports rag_common?" },
        { role: "assistant", content: "", tool_calls: turn.tool_calls },
        { role: "tool", content: '{"ok":true,"evidence":[],"total":0,"truncated":false}', tool_name: "find_importers" },
      ],
      tools: TOOLS,
    });
    expect(next.tool_calls[0]?.name).toBe("find_importers");
  });
});

describe("LlamaCppProvider errors", () => {
  it("names the missing GGUF file", async () => {
    const p = new LlamaCppProvider({ modelPath: path.join(dir, "absent.gguf"), gpu: false });
    const err = (await p.chat({ model: "", messages: [{ role: "user", content: "q" }] }).catch((e: unknown) => e)) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.code).toBe("MODEL_NOT_FOUND");
    expect(err.message).toContain(path.join(dir, "absent.gguf"));
    expect(err.hint).toContain("CODECITE_LOCAL_MODEL");
  });

  it("reports a file that is not a GGUF model", async () => {
    const bad = path.join(dir, "bad.gguf");
    await writeFile(bad, "not a model");
    const p = new LlamaCppProvider({ modelPath: bad, gpu: false, threads: 1 });
    const err = (await p.chat({ model: "", messages: [{ role: "user", content: "q" }] }).catch((e: unknown) => e)) as ProviderError;
    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toContain(bad);
    await p.close();
  });

  it("gives the install command when node-llama-cpp is not installed", async () => {
    const missing = Object.assign(new Error("Cannot find package 'node-llama-cpp' imported from /x/dist/llm/llama-cpp.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const load = () => Promise.reject(missing);
    const err = (await importNodeLlamaCpp(load).catch((e: unknown) => e)) as ProviderError;
    expect(err.code).toBe("MISSING_PACKAGE");
    expect(err.hint).toBe("npm install node-llama-cpp@3.21.1");
    const p = new LlamaCppProvider({ modelPath, importModule: load });
    await expect(p.chat({ model: "", messages: [{ role: "user", content: "q" }] })).rejects.toMatchObject({ code: "MISSING_PACKAGE" });
  });
});

describe("toChatHistory", () => {
  it("puts tool results into the calls they answer and ends with a model response", () => {
    const history = toChatHistory([
      { role: "system", content: "sys" },
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [
          { name: "search_code", arguments: { query: "x" } },
          { name: "find_importers", arguments: { module_name: "m" } },
        ],
      },
      { role: "tool", content: '{"ok":true,"total":1}', tool_name: "find_importers" },
      { role: "tool", content: "not json", tool_name: "search_code" },
      { role: "tool", content: "stray" },
    ]);
    expect(history).toEqual([
      { type: "system", text: "sys" },
      { type: "user", text: "q" },
      {
        type: "model",
        response: [
          "Looking.",
          { type: "functionCall", name: "search_code", params: { query: "x" }, result: "not json" },
          { type: "functionCall", name: "find_importers", params: { module_name: "m" }, result: { ok: true, total: 1 } },
        ],
      },
      { type: "user", text: "Tool result:\nstray" },
      { type: "model", response: [] },
    ]);
  });
});
