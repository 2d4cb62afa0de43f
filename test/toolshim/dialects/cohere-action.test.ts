import { describe, expect, it } from "vitest";
import { cohereAction } from "../../../src/toolshim/dialects/cohere-action.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("cohere_action", () => {
  itParsesCorpusCases(cohereAction, "cohere_action");

  it("reads an action with ids and removes the response markers", () => {
    const r = run(
      cohereAction,
      '<|START_RESPONSE|>Checking.<|END_RESPONSE|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {"a": 1}}]<|END_ACTION|>',
    );
    expect(r.calls).toEqual([{ name: "f", arguments: { a: 1 }, id: "0" }]);
    expect(r.content).toBe("Checking.");
  });

  it("removes the citation tags of a grounded answer and keeps the cited text", () => {
    const r = run(cohereAction, "<|START_RESPONSE|>Emperor <co>penguins</co: 0:[1,2],1:[3]> and <co: 2>seals</co: 2> live there.<|END_RESPONSE|>");
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Emperor penguins and seals live there.");
  });

  it("leaves <co> alone in text that is not Cohere markup", () => {
    expect(cohereAction.detect("The tag <co>x</co> is HTML-ish.")).toBe(false);
  });
});
