/**
 * One argument validator (ARCHITECTURE.md "Where arguments are judged"): the same bad tool call
 * gets the same error text whether the shim is `off` (a native call, judged at dispatch), `auto`
 * (a native call, or a call written as text) or `on` (a call written as text, catalogue in the
 * prompt). The agent runs against a fake Ollama server over real HTTP with the built-in code
 * tools; the bad calls fail validation, so no tool runs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runAgent, type AgentEvent } from "../../src/agent/index.js";
import { OllamaProvider } from "../../src/llm/ollama.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { startFakeOllama, type FakeOllama } from "../helpers/fake-ollama.js";
import { Workspace } from "../../src/tools/index.js";

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Mode = "off" | "auto" | "on";

/**
 * One question whose first turn makes `call` (natively or as Hermes-style text); the tool result
 * and what the model read of it on its next turn (the tool message, or its text rendering in `on`).
 */
async function resultFor(mode: Mode, call: { name: string; arguments: Record<string, unknown> }, asText: boolean, workspace?: Workspace) {
  const turn = asText ? { content: `<tool_call>${JSON.stringify(call)}</tool_call>` } : { tool_calls: [call] };
  server = await startFakeOllama({ turns: [turn, { content: "I could not search." }] });
  const events: AgentEvent[] = [];
  await runAgent({
    provider: new OllamaProvider({ host: server.host }),
    model: "qwen3:8b",
    registry: createCodeToolRegistry(),
    question: "Which files import rag_common?",
    toolshim: mode,
    reask: false,
    onEvent: (e) => events.push(e),
    ...(workspace ? { workspace, prefetch: false } : {}),
  });
  const results = events.flatMap((e) => (e.type === "tool_result" ? [e.result] : []));
  expect(results).toHaveLength(1);
  const seen = server.chatRequests()[1]!.messages.map((m) => m.content).join("\n");
  await server.close();
  server = undefined;
  return { result: results[0]!, seen };
}

/** {@link resultFor} of a call that fails validation: the tool error, checked to be what the model read. */
async function errorFor(mode: Mode, call: { name: string; arguments: Record<string, unknown> }, asText: boolean) {
  const { result: r, seen } = await resultFor(mode, call, asText);
  if (r.ok) throw new Error("the bad call ran");
  expect(seen).toContain(JSON.stringify(r.error.message).slice(1, -1));
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

describe("an argument the tool does not take", () => {
  it("is left out, the call runs, and the model reads a note naming it and the parameters, in every shim mode", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "codecite-ignored-"));
    try {
      await writeFile(path.join(dir, "a.py"), "import rag_common\n");
      const ws = await Workspace.open(dir);
      const call = { name: "search_code", arguments: { query: "rag_common", limit: 5 } };
      const note = "Ignored `limit`: search_code takes query, regex, path, glob, case_sensitive, max_results.";
      for (const [mode, asText] of [["off", false], ["auto", false], ["auto", true], ["on", true]] as const) {
        const { result, seen } = await resultFor(mode, call, asText, ws);
        expect(result).toMatchObject({ ok: true, total: 1, evidence: [{ path: "a.py", start_line: 1 }], note });
        expect(seen).toContain(note);
      }
      // A call that fails for another reason names the ignored argument after its hint.
      const bad = await errorFor("off", { name: "find_symbol", arguments: { symbol: "Session" } }, false);
      expect(bad.hint).toMatch(/^Expected parameters: \{.*\} Ignored `symbol`: find_symbol takes name, kind, path, max_results\.$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
