/**
 * Example: one custom tool with the codecite library — the house-price calculation of
 * Ollama's function-calling tutorials. A 30 坪 (ping) flat at 60 萬 per 坪 costs 1800 萬.
 *
 * Run against a real Ollama (a tool-capable model, e.g. `ollama pull qwen3:8b`):
 *   npx tsx examples/house-price.ts
 * Host and model come from OLLAMA_HOST and CODECITE_MODEL (default qwen3:8b).
 */
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { OllamaProvider, ToolRegistry, defineTool, runAgent, type AgentEvent, type AgentResult } from "../src/index.js";

/** `calculate_house_price(ping, price_per_ping)` → total price in 萬 (10,000 NTD). */
export const calculateHousePrice = defineTool({
  name: "calculate_house_price",
  description: "Total price of a house in 萬 (10,000 NTD): floor area in 坪 (ping) times the price per 坪 in 萬.",
  input: z.object({
    ping: z.number().positive().max(100_000).describe("Floor area in 坪 (ping)"),
    price_per_ping: z.number().positive().max(100_000).describe("Price per 坪 in 萬"),
  }),
  run: ({ ping, price_per_ping }) => ({ total_price: ping * price_per_ping, unit: "萬" }),
});

export const QUESTION = "一間 30 坪的房子，每坪 60 萬，總價是多少萬？請用工具計算。";

export interface ExampleOptions {
  host?: string;
  model?: string;
  onEvent?: (event: AgentEvent) => void;
}

/** Asks the question with the one tool offered; returns the agent's result. */
export async function runHousePrice(opts: ExampleOptions = {}): Promise<AgentResult> {
  const provider = new OllamaProvider(opts.host !== undefined ? { host: opts.host } : {});
  return runAgent({
    provider,
    model: opts.model ?? process.env.CODECITE_MODEL ?? "qwen3:8b",
    registry: new ToolRegistry([calculateHousePrice]),
    question: QUESTION,
    systemPrompt: "You are a helpful assistant. Use the tools for every calculation and answer with the tool's result.",
    toolshim: "auto",
    ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runHousePrice({
    onEvent: (e) => {
      if (e.type === "tool_call") console.error(`→ ${e.call.name}(${JSON.stringify(e.call.arguments)})`);
      if (e.type === "notice") console.error(e.message);
    },
  });
  console.log(result.answer);
}
