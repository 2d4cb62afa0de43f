/**
 * The library examples, run against the fake Ollama server: each tool must get exactly the
 * arguments the model sent, its result must reach the model, and the final answer must arrive.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runHousePrice } from "../../examples/house-price.js";
import { runMultiStepMath } from "../../examples/multi-step-math.js";
import { startFakeOllama, type ChatRequestBody, type FakeOllama } from "../helpers/fake-ollama.js";

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The parsed content of the last message when it is a tool result. */
function lastToolResult(req: ChatRequestBody): unknown {
  const last = req.messages.at(-1);
  return last?.role === "tool" ? JSON.parse(last.content) : undefined;
}

describe("examples/house-price.ts", () => {
  it("calls calculate_house_price(30, 60) and answers 1800", async () => {
    server = await startFakeOllama({
      turns: [
        { tool_calls: [{ name: "calculate_house_price", arguments: { ping: 30, price_per_ping: 60 } }] },
        {
          when: (req) => JSON.stringify(lastToolResult(req)) === JSON.stringify({ ok: true, result: { total_price: 1800, unit: "萬" } }),
          content: "30 坪 × 60 萬 = 1800 萬，總價 1800 萬。",
        },
      ],
    });
    const result = await runHousePrice({ host: server.host, model: "qwen3:8b" });
    expect(result.steps.map(({ tool, arguments: args, ok }) => ({ tool, args, ok }))).toEqual([
      { tool: "calculate_house_price", args: { ping: 30, price_per_ping: 60 }, ok: true },
    ]);
    expect(result.answer).toBe("30 坪 × 60 萬 = 1800 萬，總價 1800 萬。");
    expect(server.pending()).toBe(0);
    const first = server.chatRequests()[0]!;
    expect(first.tools!.map((t) => t.function.name)).toEqual(["calculate_house_price"]);
    expect(first.tools![0]!.function.parameters).toMatchObject({ required: ["ping", "price_per_ping"] });
  });
});

describe("examples/multi-step-math.ts", () => {
  it("adds 123 + 456, multiplies the sum by 5, and answers 2895", async () => {
    server = await startFakeOllama({
      turns: [
        { tool_calls: [{ name: "add_two", arguments: { a: 123, b: 456 } }] },
        {
          when: (req) => JSON.stringify(lastToolResult(req)) === JSON.stringify({ ok: true, result: 579 }),
          tool_calls: [{ name: "multiply_two", arguments: { a: 579, b: 5 } }],
        },
        {
          when: (req) => JSON.stringify(lastToolResult(req)) === JSON.stringify({ ok: true, result: 2895 }),
          content: "(123 + 456) × 5 = 2895",
        },
      ],
    });
    const result = await runMultiStepMath({ host: server.host, model: "qwen3:8b" });
    expect(result.steps.map(({ tool, arguments: args, ok, total }) => ({ tool, args, ok, total }))).toEqual([
      { tool: "add_two", args: { a: 123, b: 456 }, ok: true, total: 1 },
      { tool: "multiply_two", args: { a: 579, b: 5 }, ok: true, total: 1 },
    ]);
    expect(result.answer).toBe("(123 + 456) × 5 = 2895");
    expect(server.pending()).toBe(0);
    expect(server.chatRequests()).toHaveLength(3);
  });
});
