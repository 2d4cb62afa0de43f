/**
 * One argument validator (ARCHITECTURE.md "Where arguments are judged"): the same bad tool call
 * gets the same error text whether the shim is `off` (a native call, judged at dispatch), `auto`
 * (a native call, or a call written as text) or `on` (a call written as text, catalogue in the
 * prompt). The agent runs against a fake Ollama server over real HTTP with the built-in code
 * tools; the bad calls fail validation, so no tool runs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runAgent, type AgentEvent } from "../../src/agent/index.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Mode = "off" | "auto" | "on";

/** One question whose first turn makes `call` (natively or as Hermes-style text); the tool error the model got. */
async function errorFor(mode: Mode, call: { name: string; arguments: Record<string, unknown> }, asText: boolean) {
  const turn = asText ? { content: `<tool_call>${JSON.stringify(call)}</tool_call>` } : { tool_calls: [call] };
  server = await startFakeOllama({ turns: [turn, { content: "I could not search." }] });
  const events: AgentEvent[] = [];
  const result = await runAgent({
    provider: new OllamaProvider({ host: server.host }),
    model: "qwen3:8b",
    registry: createCodeToolRegistry(),
    question: "Which files import rag_common?",
    toolshim: mode,
    reask: false,
    onEvent: (e) => events.push(e),
  });
  expect(result.steps.map((s) => [s.tool, s.ok])).toEqual([[call.name, false]]);
  const results = events.flatMap((e) => (e.type === "tool_result" ? [e.result] : []));
  expect(results).toHaveLength(1);
  const r = results[0]!;
  if (r.ok) throw new Error("the bad call ran");
  // What the model read on its next turn: the tool message (native history) or its text rendering (`on`).
  const next = server.chatRequests()[1]!;
  const seen = next.messages.map((m) => m.content).join("\n");
  expect(seen).toContain(JSON.stringify(r.error.message).slice(1, -1));
  await server.close();
  server = undefined;
  return r.error;
}

const BAD_CALLS = [
  { name: "find_importers", arguments: { module_name: "", max_results: 500 } },
  { name: "read_evidence", arguments: { start_line: "ten" } },
  { name: "search_code", arguments: { query: "x", regex: "maybe", unknown_flag: true } },
];

describe("the same bad tool call gets the same error text in every shim mode", () => {
  for (const call of BAD_CALLS) {
    it(`${call.name}(${JSON.stringify(call.arguments)})`, async () => {
      const off = await errorFor("off", call, false);
      expect(off.code).toBe("INVALID_ARGUMENT");
      expect(off.message).toMatch(new RegExp(`^invalid arguments for ${call.name}: ✖ `));
      expect(off.hint).toMatch(/^Expected parameters: \{"/);
      expect(await errorFor("auto", call, false)).toEqual(off);
      expect(await errorFor("auto", call, true)).toEqual(off);
      expect(await errorFor("on", call, true)).toEqual(off);
    });
  }

  it("the text names each failing parameter in zod's words", async () => {
    const off = await errorFor("off", BAD_CALLS[0]!, false);
    expect(off.message).toBe(
      "invalid arguments for find_importers: ✖ Too small: expected string to have >=1 characters\n  → at module_name\n" +
        "✖ Too big: expected number to be <=200\n  → at max_results",
    );
  });
});
