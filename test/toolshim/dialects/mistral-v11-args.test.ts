import { describe, expect, it } from "vitest";
import { mistralV11Args } from "../../../src/toolshim/dialects/mistral-v11-args.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("mistral_v11_args", () => {
  itParsesCorpusCases(mistralV11Args, "mistral_v11_args");

  it("yields no call for cut arguments and keeps the text before the marker", () => {
    const r = run(mistralV11Args, 'Reading.[TOOL_CALLS]read_file[ARGS]{"path": "src/ma');
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Reading.");
  });

  it("repairs raw Windows paths", () => {
    const r = run(mistralV11Args, '[TOOL_CALLS]read_file[ARGS]{"path": "C:\\Users\\me\\notes.txt"}');
    expect(r.calls).toEqual([{ name: "read_file", arguments: { path: "C:\\Users\\me\\notes.txt" } }]);
  });

  it("reads a zero-argument call, a [CALL_ID], and a code string with braces", () => {
    const r = run(mistralV11Args, '[TOOL_CALLS]list_files[TOOL_CALLS]run[CALL_ID]a1b2c3d4e[ARGS]{"code": "if (x) { y(\\"}\\"); }"}');
    expect(r.calls).toEqual([
      { name: "list_files", arguments: {} },
      { name: "run", arguments: { code: 'if (x) { y("}"); }' }, id: "a1b2c3d4e" },
    ]);
    expect(r.content).toBe("");
  });

  it("removes only a stray marker before ordinary words", () => {
    const r = run(mistralV11Args, "[TOOL_CALLS] I cannot do that.");
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("I cannot do that.");
  });

  it("leaves the JSON-list form alone", () => {
    expect(run(mistralV11Args, '[TOOL_CALLS] [{"name": "f", "arguments": {}}]').match).toBeNull();
  });

  it("keeps a marker quoted in a line of prose", () => {
    expect(run(mistralV11Args, "| Mistral | [TOOL_CALLS] |").match).toBeNull();
    expect(run(mistralV11Args, "[TOOL_CALLS] not json").content).toBe("not json");
  });
});
