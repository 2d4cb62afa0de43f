/**
 * Arguments of recovered calls: typing by JSON Schema (`schema.ts`), tolerant decoding and
 * validation (`arguments.ts`). Schemas are the shapes zod 4 emits for the code tools.
 */
import { describe, expect, it } from "vitest";
import { decodeArguments, prepareArguments } from "../../src/toolshim/arguments.js";
import { coerceToSchema, fitsSchema } from "../../src/toolshim/schema.js";
import { schemaValidator } from "../../src/tools/schema-validator.js";
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

describe("fitting a schema (the typing stage's test, not a verdict)", () => {
  it("fits valid arguments", () => {
    expect(fitsSchema({ query: "x", max_results: 10 }, searchCode.parameters)).toBe(true);
  });
  it("does not fit missing required arguments, wrong types, bounds, enums and unknown keys", () => {
    expect(fitsSchema({}, searchCode.parameters)).toBe(false);
    expect(fitsSchema({ query: "x", max_results: "many" }, searchCode.parameters)).toBe(false);
    expect(fitsSchema({ query: "", max_results: 5 }, searchCode.parameters)).toBe(false);
    expect(fitsSchema({ query: "x", max_results: 500 }, searchCode.parameters)).toBe(false);
    expect(fitsSchema({ name: "f", kind: "struct" }, findSymbol.parameters)).toBe(false);
    expect(fitsSchema({ name: "f", depth: 2 }, findSymbol.parameters)).toBe(false);
  });
  it("checks nested arrays and objects", () => {
    const schema = { type: "object", properties: { files: { type: "array", items: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } } } };
    expect(fitsSchema({ files: [{ path: "a" }, {}] }, schema)).toBe(false);
    expect(fitsSchema({ files: [{ path: "a" }, { path: "b" }] }, schema)).toBe(true);
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
  it("asks the validator and passes on its message and hint (the registry's zod text)", () => {
    const validate = schemaValidator([searchCode]);
    const r = prepareArguments({ max_results: 0 }, searchCode, { validate });
    expect(r).toEqual({
      ok: false,
      arguments: { max_results: 0 },
      message:
        "invalid arguments for search_code: ✖ Invalid input: expected string, received undefined\n  → at query\n" +
        "✖ Too small: expected number to be >=1\n  → at max_results",
      hint: `Expected parameters: ${JSON.stringify(searchCode.parameters!.properties)}`,
    });
  });
  it("judges nothing without a validator (the registry still does at dispatch)", () => {
    expect(prepareArguments({ max_results: 0 }, searchCode)).toEqual({ ok: true, arguments: { max_results: 0 } });
  });
  it("rejects non-object arguments instead of dropping the call (goose toolshim.rs does not)", () => {
    const r = prepareArguments(["x"], searchCode);
    expect(r).toEqual({ ok: false, arguments: ["x"], message: "invalid arguments for search_code: the arguments must be a JSON object, got an array." });
    const judged = prepareArguments(["x"], searchCode, { validate: schemaValidator([searchCode]) });
    expect(judged).toMatchObject({ ok: false, arguments: ["x"], message: "invalid arguments for search_code: ✖ Invalid input: expected object, received array" });
  });
});

describe("null for optional parameters", () => {
  it("drops a null optional parameter the schema does not allow as null, keeps a required one for the error", () => {
    expect(prepareArguments({ query: "x", path: null, max_results: null }, searchCode)).toEqual({ ok: true, arguments: { query: "x" } });
    const r = prepareArguments({ query: null }, searchCode, { validate: schemaValidator([searchCode]) });
    expect(r.ok).toBe(false);
  });
  it("keeps null where the schema allows it", () => {
    const tool: OfferedTool = { name: "t", parameters: { type: "object", properties: { v: { type: ["string", "null"] } } } };
    expect(prepareArguments({ v: null }, tool)).toEqual({ ok: true, arguments: { v: null } });
  });
});
