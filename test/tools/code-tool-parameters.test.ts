/**
 * The code tools check arguments against their JSON Schemas as data without loading zod
 * (`src/tools/lazy-tool.ts`, `argument-precheck.ts`). These tests hold the two promises that
 * makes safe: the data is current (generated from the zod schemas by
 * `scripts/tool-parameters.ts`), and the quick check never accepts what zod rejects nor parses
 * to another value.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PARAMETERS_PATH, renderToolParameters } from "../../scripts/tool-parameters.js";
import { precheckArguments } from "../../src/tools/argument-precheck.js";
import * as inputs from "../../src/tools/code-tool-inputs.js";
import { CODE_TOOL_PARAMETERS } from "../../src/tools/code-tool-parameters.js";
import { createCodeToolRegistry } from "../../src/tools/code-tools.js";
import { defineLazyTool } from "../../src/tools/lazy-tool.js";
import { ToolRegistry } from "../../src/tools/registry.js";

const SCHEMAS: Record<string, z.ZodType> = {
  search_code: inputs.searchCodeInput,
  find_symbol: inputs.findSymbolInput,
  read_evidence: inputs.readEvidenceInput,
  find_importers: inputs.findImportersInput,
  find_references: inputs.findReferencesInput,
  read_git_diff: inputs.readGitDiffInput,
};

/** Values near every rule of the schemas: bounds, empty strings, enum members and near-misses, wrong types. */
const anyValue = fc.oneof(
  fc.constantFrom(0, -0, 1, 2, 3, 19, 20, 21, 50, 199, 200, 201, 100_000_000, 100_000_001, -1, 1.5, NaN, Infinity, 2 ** 53),
  fc.integer({ min: -5, max: 250 }),
  fc.double(),
  fc.constantFrom("", "a", "function", "class", "call", "value", "Function", "nope", "src/x.py", "HEAD", "é", "\u{1F600}"),
  fc.string({ maxLength: 4 }),
  fc.boolean(),
  fc.constantFrom(null, undefined, [], {}, ["a"], { a: 1 }),
);

/** A value that a property schema likely accepts (its enum members, a string, an integer in or near its bounds). */
function nearValid(prop: Record<string, unknown>): fc.Arbitrary<unknown> {
  if (Array.isArray(prop.enum)) return fc.constantFrom(...(prop.enum as unknown[]));
  if (prop.type === "string") return fc.string({ minLength: 0, maxLength: 6 });
  if (prop.type === "boolean") return fc.boolean();
  const lo = typeof prop.minimum === "number" ? prop.minimum : -10;
  const hi = typeof prop.maximum === "number" ? Math.min(prop.maximum, lo + 300) : 10;
  return fc.integer({ min: lo - 2, max: hi + 2 });
}

function argumentsFor(tool: string): fc.Arbitrary<unknown> {
  const props = (CODE_TOOL_PARAMETERS[tool]?.properties ?? {}) as Record<string, Record<string, unknown>>;
  const keys = [...Object.keys(props), "extra", "__proto__", "constructor"];
  return fc.oneof(
    fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: keys.length }),
    fc.record(Object.fromEntries(Object.entries(props).map(([k, p]) => [k, fc.oneof(nearValid(p), anyValue)])), { requiredKeys: [] }),
    fc.record(Object.fromEntries(Object.entries(props).map(([k, p]) => [k, nearValid(p)])), { requiredKeys: [] }),
    anyValue,
  );
}

describe("code tool parameters", () => {
  it("are up to date (run `node --import tsx scripts/tool-parameters.ts` after changing a code tool's schema)", () => {
    expect(readFileSync(PARAMETERS_PATH, "utf8")).toBe(renderToolParameters());
  });

  it("are what each code tool offers, and each tool's schema is the one they were generated from", async () => {
    const registry = createCodeToolRegistry();
    expect(registry.names()).toEqual(Object.keys(SCHEMAS));
    for (const name of registry.names()) {
      const tool = registry.get(name)!;
      expect(tool.parameters).toEqual(CODE_TOOL_PARAMETERS[name]);
      expect(await tool.loadInput()).toBe(SCHEMAS[name]);
      const generated = z.toJSONSchema(SCHEMAS[name]!, { io: "input" }) as Record<string, unknown>;
      delete generated.$schema;
      expect(tool.parameters).toEqual(generated);
    }
  });

  for (const [tool, schema] of Object.entries(SCHEMAS)) {
    it(`${tool}: the quick check accepts only what zod accepts, parsed to the same value`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(argumentsFor(tool), (raw) => {
          const quick = precheckArguments(CODE_TOOL_PARAMETERS[tool]!, raw);
          if (quick === undefined) return;
          accepted++;
          const parsed = schema.safeParse(raw);
          expect(parsed.success).toBe(true);
          expect(quick).toStrictEqual(parsed.data);
        }),
        { seed: 17, numRuns: 3000 },
      );
      // The check is not vacuous: good arguments do pass it.
      expect(accepted).toBeGreaterThan(50);
    });
  }

  it("the quick check passes typical calls without zod and leaves bad ones to it", () => {
    const p = CODE_TOOL_PARAMETERS;
    expect(precheckArguments(p.find_importers!, { module_name: "acme.core", extra: 1 })).toStrictEqual({ module_name: "acme.core", include_submodules: false, max_results: 50 });
    expect(precheckArguments(p.read_git_diff!, {})).toStrictEqual({ context_lines: 3 });
    expect(precheckArguments(p.find_symbol!, { name: "X", kind: "class", max_results: 200 })).toStrictEqual({ name: "X", kind: "class", max_results: 200 });
    expect(precheckArguments(p.find_symbol!, { name: "X", kind: "klass" })).toBeUndefined();
    expect(precheckArguments(p.find_symbol!, { name: "X", max_results: 201 })).toBeUndefined();
    expect(precheckArguments(p.find_symbol!, { name: "" })).toBeUndefined();
    expect(precheckArguments(p.find_symbol!, { name: "X", path: undefined })).toBeUndefined();
    expect(precheckArguments(p.find_symbol!, [])).toBeUndefined();
  });

  it("a bad call still gets zod's issues: through dispatch at once, through validate after ready()", async () => {
    const bad = { name: "find_symbol", arguments: { name: "X", max_results: 0 } };
    const expectIssue = (error: { code: string; issues?: readonly { param: string; problem: string }[] | undefined }) => {
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.issues).toEqual([expect.objectContaining({ param: "max_results", problem: "Too small: expected number to be >=1" })]);
    };
    const dispatched = await createCodeToolRegistry().run(bad);
    expect(dispatched.result.ok).toBe(false);
    expectIssue(dispatched.error!);

    // A fresh lazy tool (the code tools' schemas are loaded by the tests above).
    let loads = 0;
    const lazy = defineLazyTool({
      name: "find_symbol",
      description: "test",
      parameters: CODE_TOOL_PARAMETERS.find_symbol!,
      loadInput: async () => {
        loads++;
        return inputs.findSymbolInput;
      },
      run: () => "ran",
    });
    const registry = new ToolRegistry([lazy]);
    // Good arguments need no schema; a bad call before ready() cannot be judged synchronously.
    expect(registry.validate({ name: "find_symbol", arguments: '{"name": "X"}' })).toEqual({ ok: true, args: { name: "X", max_results: 50 } });
    expect(() => registry.validate(bad)).toThrow(/loads on demand/);
    expect(loads).toBe(0);
    await registry.ready();
    expect(loads).toBe(1);
    const checked = registry.validate(bad);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expectIssue(checked.error);
  });
});
