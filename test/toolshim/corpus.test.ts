/**
 * The tool-call corpus (`test/fixtures/toolcalls.jsonl`, vendored as is;
 * each case cites its public source in `source`): every case must give the same calls (name and
 * arguments deep-equal, typed by `tool_schemas` where given, in order) and the same visible
 * content (`content_after`, compared trimmed with whitespace runs collapsed).
 */
import { describe, expect, it } from "vitest";
import { schemaValidator } from "../../src/tools/schema-validator.js";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import { collapse, loadCorpus, toolsOf } from "./corpus-cases.js";

const cases = loadCorpus();

describe("tool-call corpus", () => {
  it("holds the 88 vendored cases with unique ids", () => {
    expect(cases.length).toBe(88);
    expect(new Set(cases.map((c) => c.id)).size).toBe(88);
  });

  for (const c of cases) {
    it(`${c.id} (${c.family})`, () => {
      // As the agent runs it: the one argument validator judges the typed arguments.
      const tools = toolsOf(c);
      const r = recoverDeterministic({ content: c.raw }, tools, { validate: schemaValidator(tools) });
      expect(r.tool_calls.map((t) => ({ name: t.name, arguments: t.arguments }))).toEqual(c.expected);
      expect(collapse(r.content)).toBe(collapse(c.content_after));
      if (c.expected.length === 0) expect(r.recovered_by).toBe("none");
      else expect(r.recovered_by).not.toBe("none");
    });
  }
});
