import { describe, expect, it } from "vitest";
import { continueToolCodeblock } from "../../../src/toolshim/dialects/continue-tool-codeblock.js";
import { itParsesCorpusCases, run } from "./corpus-helper.js";

describe("continue_tool_codeblock", () => {
  itParsesCorpusCases(continueToolCodeblock, "continue_tool_codeblock");

  it("reads several arguments, keeping plain values as untyped text", () => {
    const r = run(continueToolCodeblock, "I'll read it.\n```tool\nTOOL_NAME: read_evidence\nBEGIN_ARG: path\nsrc/a.ts\nEND_ARG\nBEGIN_ARG: line\n12\nEND_ARG\n```");
    expect(r.calls).toEqual([{ name: "read_evidence", arguments: { path: "src/a.ts", line: "12" }, untyped: true }]);
    expect(r.content).toBe("I'll read it.");
  });

  it("does not take a quoted TOOL_NAME outside a ```tool fence", () => {
    expect(run(continueToolCodeblock, "Write `TOOL_NAME: x` on its own line.").match).toBeNull();
  });

  it("yields no call when an argument is cut", () => {
    const r = run(continueToolCodeblock, "Ok\n```tool\nTOOL_NAME: f\nBEGIN_ARG: a\nhalf");
    expect(r.calls).toEqual([]);
    expect(r.content).toBe("Ok");
  });
});
