/**
 * Agent overhead: what codecite adds per step of `codecite ask`, with a fake Ollama server
 * that answers instantly (real HTTP, the real wire protocol; `test/helpers/fake-ollama.ts`).
 *
 * Method (independent of the agent's internals): run `ask --json` with the model scripted to
 * make N tool calls before answering, for N = 0 and N = `steps` (alternately, medians of each);
 * the slope (T(steps) - T(0) - tool time) / (extra model requests), with the tool time the
 * answer reports (`steps[].ms`) and the requests counted at the fake server, is the per-step
 * overhead (HTTP round trip, parsing, message building, validation, dispatch, grounding).
 * Also reports the fixed prompt (tool definitions + system prompt) the first request carries,
 * in characters and in tokens estimated as characters / 4 (no tokenizer of an Ollama model is
 * available offline; the estimate is labelled as such).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { median, timeSpawn } from "./stats.js";

export interface AgentOverhead {
  perStepMs: number;
  samples: { zero: number[]; many: number[] };
  /** Model requests per `ask` run. */
  chatsPerRun: { zero: number; many: number };
  steps: number;
  toolMsPerStep: number;
  promptChars: number;
  toolDefinitionChars: number;
  systemPromptChars: number;
  /** characters / 4, an estimate. */
  promptTokensEstimate: number;
}

interface AskJson {
  steps?: { tool: string; ms: number }[];
  answer?: string;
}

/**
 * Runs the measurement. Throws when the CLI or the fake server is not usable (the caller marks
 * the row unavailable).
 */
export async function measureAgentOverhead(cliMain: string, runs: number, steps = 24): Promise<AgentOverhead> {
  const { startFakeOllama } = await import("../test/helpers/fake-ollama.js");
  const root = mkdtempSync(path.join(tmpdir(), "codecite-bench-agent-"));
  writeFileSync(path.join(root, "app.py"), 'def main():\n    return "ok"\n');
  const countToolMessages = (req: { messages: { role: string }[] }) => req.messages.filter((m) => m.role === "tool").length;
  const wanted = (req: { messages: { role: string; content: string }[] }) => {
    const user = req.messages.find((m) => m.role === "user")?.content ?? "";
    return Number(/STEPS=(\d+)/.exec(user)?.[1] ?? 0);
  };
  const server = await startFakeOllama({
    models: [{ name: "bench:latest", capabilities: ["completion", "tools"] }],
    turns: [
      {
        when: (req) => countToolMessages(req) < wanted(req),
        repeat: true,
        chunkSize: 1 << 20,
        tool_calls: [{ name: "read_evidence", arguments: { path: "app.py", start_line: 1, end_line: 2 } }],
      },
      { repeat: true, chunkSize: 1 << 20, content: "`app.py:1` defines main." },
    ],
  });
  const env = { ...process.env, NO_COLOR: "1", CODECITE_CACHE_DIR: `${root}-cache` };
  const ask = async (n: number) => {
    const before = server.chatRequests().length;
    const r = await timeSpawn(
      process.execPath,
      [cliMain, "ask", `What does main return? STEPS=${n}`, "--json", "--root", root, "--host", server.host, "--model", "bench:latest", "--max-steps", String(steps + 2)],
      { env, timeoutMs: 60_000 },
    );
    if (r.status !== 0) throw new Error(`codecite ask exited ${r.status}: ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" | ")}`);
    const out = JSON.parse(r.stdout) as AskJson;
    if ((out.steps?.length ?? 0) !== n) throw new Error(`expected ${n} steps, the answer has ${out.steps?.length ?? 0}`);
    return { ms: r.ms, toolMs: (out.steps ?? []).reduce((a, s) => a + s.ms, 0), chats: server.chatRequests().length - before };
  };
  try {
    await ask(0); // warm-up (disk cache of node_modules)
    const zero: number[] = [];
    const many: number[] = [];
    const toolMs: number[] = [];
    let chatsZero = 0;
    let chatsMany = 0;
    for (let i = 0; i < runs; i++) {
      const z = await ask(0);
      zero.push(z.ms);
      chatsZero = z.chats;
      const m = await ask(steps);
      many.push(m.ms);
      chatsMany = m.chats;
      toolMs.push(m.toolMs);
    }
    const first = server.chatRequests()[0];
    const toolDefinitionChars = JSON.stringify(first?.tools ?? []).length;
    const systemPromptChars = (first?.messages ?? []).filter((m) => m.role === "system").reduce((a, m) => a + m.content.length, 0);
    const promptChars = toolDefinitionChars + systemPromptChars;
    const extraChats = Math.max(1, chatsMany - chatsZero);
    return {
      perStepMs: (median(many) - median(zero) - median(toolMs)) / extraChats,
      samples: { zero, many },
      chatsPerRun: { zero: chatsZero, many: chatsMany },
      steps,
      toolMsPerStep: median(toolMs) / steps,
      promptChars,
      toolDefinitionChars,
      systemPromptChars,
      promptTokensEstimate: Math.round(promptChars / 4),
    };
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(env.CODECITE_CACHE_DIR, { recursive: true, force: true });
  }
}
