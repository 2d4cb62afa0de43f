import { describe, expect, it } from "vitest";
import { cwmToolTag } from "../../../src/toolshim/dialects/cwm-tool-tag.js";
import { run } from "./corpus-helper.js";

describe("cwm_tool_tag", () => {
  it("gives the text argument to the offered tool's one parameter, `command` otherwise", () => {
    const tools = [{ name: "grep", parameters: { type: "object", properties: { pattern: { type: "string" }, path: { type: "string" } }, required: ["pattern"] } }];
    const r = run(cwmToolTag, "<tool: function>\ngrep def bulk_create\n</tool>", tools);
    expect(r.calls).toEqual([{ name: "grep", arguments: { pattern: "def bulk_create" } }]);
    const bare = run(cwmToolTag, "<tool: function>\nterminal ls -la\n</tool>");
    expect(bare.calls).toEqual([{ name: "terminal", arguments: { command: "ls -la" } }]);
    const none = run(cwmToolTag, "<tool: function>\nlist_files\n</tool> done");
    expect(none.calls).toEqual([{ name: "list_files", arguments: {} }]);
    expect(none.content).toBe("done");
  });

  it("yields no call for a block without its closer, and leaves text without the tag alone", () => {
    const cut = run(cwmToolTag, "ok <tool: function>\nterminal echo hi");
    expect(cut.calls).toEqual([]);
    expect(cut.content).toBe("ok");
    expect(run(cwmToolTag, "Use the tool: terminal to run it.").match).toBeNull();
  });
});
