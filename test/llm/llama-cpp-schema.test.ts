import { describe, expect, it } from "vitest";
import { dropNullOptionals, toGbnfJsonSchema } from "../../src/llm/gbnf-schema.js";

describe("toGbnfJsonSchema", () => {
  it("makes optional properties nullable and drops unsupported keywords", () => {
    const zodLike = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: "q" },
        regex: { default: false, type: "boolean" },
        kind: { type: "string", enum: ["function", "class"] },
        max_results: { default: 50, type: "integer", minimum: 1, maximum: 200 },
      },
      required: ["query"],
    };
    expect(toGbnfJsonSchema(zodLike)).toEqual({
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: "q" },
        regex: { oneOf: [{ type: "boolean" }, { type: "null" }] },
        kind: { oneOf: [{ enum: ["function", "class"] }, { type: "null" }] },
        max_results: { oneOf: [{ type: "integer" }, { type: "null" }] },
      },
    });
  });

  it("turns an unconstrained object into one with any properties, and no type into any JSON", () => {
    const out = toGbnfJsonSchema({
      type: "object",
      properties: { name: { enum: ["a", "noop"] }, arguments: { type: "object" }, extra: {} },
      required: ["name", "arguments", "extra"],
    });
    expect(out.properties).toMatchObject({
      name: { enum: ["a", "noop"] },
      arguments: { type: "object", properties: {}, additionalProperties: true },
    });
    const extra = (out.properties as Record<string, { oneOf: unknown[] }>).extra!;
    expect(extra.oneOf).toHaveLength(3);
  });

  it("maps anyOf to oneOf, type lists, arrays, refs and kept string formats", () => {
    expect(toGbnfJsonSchema({ anyOf: [{ type: "string" }, { type: "null" }] })).toEqual({ oneOf: [{ type: "string" }, { type: "null" }] });
    expect(toGbnfJsonSchema({ type: ["string", "null"] })).toEqual({ type: ["string", "null"] });
    expect(toGbnfJsonSchema({ type: "array", items: { type: "integer", minimum: 0 }, maxItems: 3 })).toEqual({
      type: "array",
      items: { type: "integer" },
      maxItems: 3,
    });
    expect(toGbnfJsonSchema({ $defs: { p: { type: "string", pattern: "x" } }, $ref: "#/$defs/p" })).toEqual({
      $ref: "#/$defs/p",
      $defs: { p: { type: "string" } },
    });
    expect(toGbnfJsonSchema({ type: "string", format: "date" })).toEqual({ type: "string", format: "date" });
    expect(toGbnfJsonSchema({ type: "string", format: "uri" })).toEqual({ type: "string" });
  });
});

describe("dropNullOptionals", () => {
  const schema = {
    type: "object",
    properties: {
      a: { type: "string" },
      b: { type: "integer" },
      nested: { type: "object", properties: { c: { type: "string" } } },
      list: { type: "array", items: { type: "object", properties: { d: { type: "string" } } } },
    },
    required: ["a"],
  };

  it("removes nulls of optional properties only, at every level", () => {
    expect(dropNullOptionals({ a: null, b: null, nested: { c: null }, list: [{ d: null }, { d: "x" }], other: null }, schema)).toEqual({
      a: null,
      nested: {},
      list: [{}, { d: "x" }],
      other: null,
    });
  });

  it("leaves values alone without a schema", () => {
    expect(dropNullOptionals({ a: null }, undefined)).toEqual({ a: null });
  });
});
