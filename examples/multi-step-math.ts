/**
 * Example: a multi-step tool loop with the codecite library — the model adds first and then
 * multiplies the sum, one tool result feeding the next call: (123 + 456) × 5 = 2895.
 *
 * Run against a real Ollama (a tool-capable model, e.g. `ollama pull qwen3:8b`):
 *   npx tsx examples/multi-step-math.ts
 * Host and model come from OLLAMA_HOST and CODECITE_MODEL (default qwen3:8b).
 */
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { OllamaProvider, ToolRegistry, defineTool, runAgent, type AgentEvent, type AgentResult } from "../src/index.js";

const operands = z.object({
  a: z.number().min(-1e12).max(1e12).describe("First number"),
  b: z.number().min(-1e12).max(1e12).describe("Second number"),
});

/** `add_two(a, b)` → a + b. */
export const addTwo = defineTool({
  name: "add_two",
  description: "Add two numbers and return the sum.",
  input: operands,
  run: ({ a, b }) => a + b,
});

/** `multiply_two(a, b)` → a × b. */
export const multiplyTwo = defineTool({
  name: "multiply_two",
  description: "Multiply two numbers and return the product.",
  input: operands,
  run: ({ a, b }) => a * b,
});

export const QUESTION = "First add 123 and 456, then multiply the sum by 5. Use the tools for each step. What is the result?";

export interface ExampleOptions {
  host?: string;
  model?: string;
  onEvent?: (event: AgentEvent) => void;
}

/** Asks the question with both tools offered; returns the agent's result. */
export async function runMultiStepMath(opts: ExampleOptions = {}): Promise<AgentResult> {
  const provider = new OllamaProvider(opts.host !== undefined ? { host: opts.host } : {});
  return runAgent({
    provider,
    model: opts.model ?? process.env.CODECITE_MODEL ?? "qwen3:8b",
    registry: new ToolRegistry([addTwo, multiplyTwo]),
    question: QUESTION,
    systemPrompt: "You are a careful calculator. Use the tools for every arithmetic step, one step at a time, and answer with the final number.",
    toolshim: "auto",
    ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runMultiStepMath({
    onEvent: (e) => {
      if (e.type === "tool_result") console.error(`→ ${e.step.tool}(${JSON.stringify(e.step.arguments)}) = ${JSON.stringify(e.result)}`);
      if (e.type === "notice") console.error(e.message);
    },
  });
  console.log(result.answer);
}
