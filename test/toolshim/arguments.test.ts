/**
 * Arguments of recovered calls: typing by JSON Schema (`schema.ts`), tolerant decoding and
 * validation (`arguments.ts`). Schemas are the shapes zod 4 emits for the code tools.
 */
import { describe, expect, it } from "vitest";
import { decodeArguments, prepareArguments } from "../../src/toolshim/arguments.js";
import { coerceToSchema, validateAgainstSchema } from "../../src/toolshim/schema.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const searchCode: OfferedTool = {
  name: "search_code",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1 },
      regex: { default: false, type: "boolean" },
      path: { type: "string" },
      max_results: { default: 50, type: "integer", minimum: 1, maximum: 200 },
    },
    required: ["query"],
  },
};
const findSymbol: OfferedTool = {
  name: "find_symbol",
  parameters: {
    type: "object",
    properties: { name: { type: "string" }, kind: { type: "string", enum: ["function", "class", "method"] } },
    required: ["name"],
    additionalProperties: false,
  },
};

describe("typing untyped values by the schema", () => {
  const table: [string, unknown, Record<string, unknown>, boolean, unknown][] = [
    ["integer", "42", { type: "integer" }, true, 42],
    ["negative integer", "-7", { type: "integer" }, true, -7],
    ["integral float text for an integer", "3.0", { type: "integer" }, true, 3],
    ["non-integral text stays for an integer", "3.5", { type: "integer" }, true, "3.5"],
    ["number", "3.25", { type: "number" }, true, 3.25],
    ["exponent number", "1e3", { type: "number" }, true, 1000],
    ["boolean true any case", "True", { type: "boolean" }, true, true],
    ["boolean false", "false", { type: "boolean" }, true, false],
    ["null", "None", { type: "null" }, true, null],
    ["array from JSON text", "[1, 2, 3]", { type: "array", items: { type: "integer" } }, true, [1, 2, 3]],
    ["array items typed", '["1", "2"]', { type: "array", items: { type: "integer" } }, true, [1, 2]],
    ["object from JSON text", '{"a": 1}', { type: "object" }, true, { a: 1 }],
    ["string stays a string", "42", { type: "string" }, true, "42"],
    ["untyped: array preferred over string (anyOf)", "[1]", { anyOf: [{ type: "array" }, { type: "string" }] }, true, [1]],
    ["untyped: string when nothing else parses", "hello", { anyOf: [{ type: "array" }, { type: "string" }] }, true, "hello"],
    ["untyped: integer preferred in a type list", "5", { type: ["string", "integer"] }, true, 5],
    ["untyped: a JSON string literal read inside its quotes", '"12"', { type: "integer" }, true, 12],
    ["untyped: quotes kept for a string parameter", '"foo"', { type: "string" }, true, '"foo"'],
    ["typed JSON: a string allowed by the schema stays", "5", { type: ["string", "integer"] }, false, "5"],
    ["typed JSON: quoted number for an integer-only parameter", "5", { type: "integer" }, false, 5],
    ["no schema keywords: unchanged", "5", {}, true, "5"],
    ["unparseable text for a number stays (validation reports it)", "five", { type: "number" }, true, "five"],
  ];
  for (const [what, value, schema, untyped, want] of table) {
    it(`${what}: ${JSON.stringify(value)} → ${JSON.stringify(want)}`, () => {
      expect(coerceToSchema(value, schema, { untyped })).toEqual(want);
    });
  }

  it("types each property of an arguments object by its own schema", () => {
    const typed = coerceToSchema({ query: "100", max_results: "20", regex: "true" }, searchCode.parameters, { untyped: true });
    expect(typed).toEqual({ query: "100", max_results: 20, regex: true });
  });
});

describe("validation", () => {
  it("accepts valid arguments", () => {
    expect(validateAgainstSchema({ query: "x", max_results: 10 }, searchCode.parameters)).toEqual([]);
  });
  it("names missing required arguments, wrong types, bounds, enums and unknown keys", () => {
    expect(validateAgainstSchema({}, searchCode.parameters)).toEqual(['missing required argument "query"']);
    expect(validateAgainstSchema({ query: "x", max_results: "many" }, searchCode.parameters)).toEqual([
      'argument "max_results" must be integer, got "many"',
    ]);
    expect(validateAgainstSchema({ query: "", max_results: 500 }, searchCode.parameters)).toEqual([
      'argument "query" must have at least 1 character(s)',
      'argument "max_results" must be <= 200',
    ]);
    expect(validateAgainstSchema({ name: "f", kind: "struct" }, findSymbol.parameters)).toEqual([
      'argument "kind" must be one of: "function", "class", "method" (got "struct")',
    ]);
    expect(validateAgainstSchema({ name: "f", depth: 2 }, findSymbol.parameters)).toEqual([
      'unknown argument "depth" (expected: name, kind)',
    ]);
  });
  it("checks nested arrays and objects with their paths", () => {
    const schema = { type: "object", properties: { files: { type: "array", items: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } } } };
    expect(validateAgainstSchema({ files: [{ path: "a" }, {}] }, schema)).toEqual(['missing required argument "files[1].path"']);
  });
});

describe("decodeArguments", () => {
  it("takes objects as they are and empty values as no arguments", () => {
    expect(decodeArguments({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    expect(decodeArguments("")).toEqual({ ok: true, value: {} });
    expect(decodeArguments(null)).toEqual({ ok: true, value: {} });
    expect(decodeArguments(undefined)).toEqual({ ok: true, value: {} });
  });
  it("parses JSON strings, double-encoded strings, Windows paths and repairable JSON", () => {
    expect(decodeArguments('{"query": "x"}')).toEqual({ ok: true, value: { query: "x" } });
    expect(decodeArguments(JSON.stringify(JSON.stringify({ query: "x" })))).toEqual({ ok: true, value: { query: "x" } });
    expect(decodeArguments('{"path": "C:\\Users\\me\\new\\tmp"}')).toEqual({ ok: true, value: { path: "C:\\Users\\me\\new\\tmp" } });
    expect(decodeArguments("{'query': 'x', regex: True,}")).toEqual({ ok: true, value: { query: "x", regex: true } });
  });
  it("refuses arrays, scalars and prose", () => {
    expect(decodeArguments([1, 2])).toEqual({ ok: false, reason: "the arguments must be a JSON object, got an array" });
    expect(decodeArguments(7)).toEqual({ ok: false, reason: "the arguments must be a JSON object, got number" });
    expect(decodeArguments("not json at all")).toEqual({ ok: false, reason: "the arguments are not valid JSON" });
  });
});

describe("prepareArguments", () => {
  it("types quoted numbers and booleans for the code tools", () => {
    expect(prepareArguments({ query: "load_index", max_results: "5", regex: "false" }, searchCode)).toEqual({
      ok: true,
      arguments: { query: "load_index", max_results: 5, regex: false },
    });
  });
  it("keeps strings as strings when the tool has no schema", () => {
    expect(prepareArguments({ a: "5", b: "10" }, { name: "add" })).toEqual({ ok: true, arguments: { a: "5", b: "10" } });
  });
  it("turns schema failures into a message naming the tool, the problem and the expected arguments", () => {
    const r = prepareArguments({ max_results: 0 }, searchCode);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toBe(
      'invalid arguments for search_code: missing required argument "query"; argument "max_results" must be >= 1. ' +
        "Expected arguments: {query: string, regex?: boolean, path?: string, max_results?: integer}.",
    );
  });
  it("rejects non-object arguments instead of dropping the call (goose toolshim.rs does not)", () => {
    const r = prepareArguments(["x"], searchCode);
    expect(r).toMatchObject({ ok: false, arguments: ["x"] });
    if (!r.ok) expect(r.message).toMatch(/^invalid arguments for search_code: the arguments must be a JSON object, got an array\./);
  });
});

describe("null for optional parameters", () => {
  it("drops a null optional parameter the schema does not allow as null, keeps a required one for the error", () => {
    expect(prepareArguments({ query: "x", path: null, max_results: null }, searchCode)).toEqual({ ok: true, arguments: { query: "x" } });
    const r = prepareArguments({ query: null }, searchCode);
    expect(r.ok).toBe(false);
  });
  it("keeps null where the schema allows it", () => {
    const tool: OfferedTool = { name: "t", parameters: { type: "object", properties: { v: { type: ["string", "null"] } } } };
    expect(prepareArguments({ v: null }, tool)).toEqual({ ok: true, arguments: { v: null } });
  });
});
