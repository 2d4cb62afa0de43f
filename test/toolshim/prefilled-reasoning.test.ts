/** `RecoverResult.prefilledReasoning`: the flag the agent keeps for the streaming of later turns. */
import { describe, expect, it } from "vitest";
import { recoverDeterministic } from "../../src/toolshim/index.js";

const TOOLS = [{ name: "search_code" }, { name: "find_symbol" }];

describe("prefilledReasoning", () => {
  it("is set when a closer comes without an opener (the template prefilled it)", () => {
    const r = recoverDeterministic({ content: "plan the search</think>The answer." }, TOOLS);
    expect(r.prefilledReasoning).toBe(true);
    expect(r.content).toBe("The answer.");
    expect(r.thinking).toBe("plan the search");
  });

  it("is set when DeepSeek call tokens are only mentioned in forced-open reasoning", () => {
    const r = recoverDeterministic({ content: "I could emit <｜tool▁calls▁begin｜> here, but I will not." }, TOOLS);
    expect(r.prefilledReasoning).toBe(true);
    expect(r.content).toBe("");
  });

  it("is absent for a closed reasoning block and for plain text", () => {
    expect(recoverDeterministic({ content: "<think>plan</think>The answer." }, TOOLS).prefilledReasoning).toBeUndefined();
    expect(recoverDeterministic({ content: "The answer." }, TOOLS).prefilledReasoning).toBeUndefined();
  });
});
