import { describe, expect, it } from "vitest";
import { commandRActionFence } from "../../../src/toolshim/dialects/command-r-action-fence.js";
import { run } from "./corpus-helper.js";

describe("command_r_action_fence", () => {
  it("reads every listed call and removes the label with the fence, keeping the plan", () => {
    const r = run(
      commandRActionFence,
      'Plan: look both up.\nAction: ```json\n[\n    {"tool_name": "a", "parameters": {"x": 1}},\n    {"tool_name": "b", "parameters": {}}\n]\n```',
    );
    expect(r.calls).toEqual([
      { name: "a", arguments: { x: 1 } },
      { name: "b", arguments: {} },
    ]);
    expect(r.content).toBe("Plan: look both up.");
  });

  it("treats directly_answer / directly-answer as no call and removes its block as markup", () => {
    for (const name of ["directly_answer", "directly-answer"]) {
      const m = commandRActionFence.parse(`Action:\n\`\`\`json JSON\n[{"tool_name": "${name}", "parameters": {}}]\n\`\`\``, [])!;
      expect(m.calls, name).toEqual([]);
      expect(m.broken ?? [], name).toEqual([]);
      expect(m.spans, name).toHaveLength(1);
    }
    const mixed = run(commandRActionFence, 'Action:\n```json\n[{"tool_name": "directly_answer", "parameters": {}}, {"tool_name": "add", "parameters": {"a": 1}}]\n```');
    expect(mixed.calls).toEqual([{ name: "add", arguments: { a: 1 } }]);
  });

  it("leaves a label without a fenced list, and a fence whose body is not calls, as text", () => {
    expect(run(commandRActionFence, "Action: none needed.\n```json\n{\"a\": 1}\n```").calls).toEqual([]);
    const r = run(commandRActionFence, "Action:\n```json\n[1, 2, 3]\n```");
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Action: ```json [1, 2, 3] ```");
  });

  it("removes a call-shaped block cut by the end of the text and reads no call from it", () => {
    const r = run(commandRActionFence, 'Plan: search.\nAction: ```json\n[{"tool_name": "search", "parameters": {"q": "ab');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Plan: search.");
  });
});
