/**
 * `jsonrepair` on untrusted text is bounded (`src/json-repair.ts`): a repository's JSON files, a
 * model's tool-call arguments and the JSON a model writes in its text. Its time grows with the
 * square of text that lacks commas between values; before the bound, each case below ran for hours.
 */
import { describe, expect, it } from "vitest";
import { MAX_REPAIR_CHARS, repairJson } from "../src/json-repair.js";
import { parseJsonc } from "../src/evidence/analysis/lang/js-resolve.js";
import { parseToolArguments } from "../src/llm/tool-arguments.js";
import { parseJsonTolerant } from "../src/toolshim/json.js";

const MiB = 1024 * 1024;
/** An object of about `n` characters whose members lack the commas between them. */
const noCommas = (n: number) => `{${'"k":1 '.repeat(Math.floor(n / 6))}}`;

describe("bounded jsonrepair", () => {
  it("repairs text up to MAX_REPAIR_CHARS and refuses longer text with a RangeError", () => {
    expect(JSON.parse(repairJson("{'a': 1,}"))).toEqual({ a: 1 });
    const atLimit = `[${"1 ".repeat((MAX_REPAIR_CHARS - 2) / 2)}]`;
    expect(atLimit.length).toBe(MAX_REPAIR_CHARS);
    expect((JSON.parse(repairJson(atLimit)) as number[]).length).toBe((MAX_REPAIR_CHARS - 2) / 2);
    expect(() => repairJson(`${atLimit} `)).toThrow(RangeError);
  });

  it("a repository's tsconfig.json or package.json: small JSONC is read, a megabyte needing repairs is unreadable (undefined)", () => {
    expect(parseJsonc('{ // comment\n "compilerOptions": { "baseUrl": ".", }, }')).toEqual({ compilerOptions: { baseUrl: "." } });
    expect(parseJsonc("{}\n".repeat(MiB / 3))).toBeUndefined();
    expect(parseJsonc(noCommas(MiB))).toBeUndefined();
    // JSONC of any size is read without a repair: comments and trailing commas, a megabyte of them.
    const commented = `{ /* ${"*".repeat(MiB)} */ "compilerOptions": { ${'"a": [1, 2,], // x,]\n'.repeat(MiB / 24)}"paths": { "x/*": ["./y/*",], }, }, }`;
    expect(commented.length).toBeGreaterThan(MiB);
    expect(parseJsonc(commented)).toEqual({ compilerOptions: { a: [1, 2], paths: { "x/*": ["./y/*"] } } });
    expect(parseJsonc('{ "a": "x, ]", "b": "\\"/*", }')).toEqual({ a: "x, ]", b: '"/*' });
    // Past 32 KiB jsonrepair is not tried: 64,000 characters of `a` lines took it 5.8 s (an array of 32,000 "a").
    expect(parseJsonc("a\n".repeat(32_000))).toBeUndefined();
    // valid JSON of any size is parsed as it is
    expect(Object.keys(parseJsonc(JSON.stringify({ a: "x".repeat(MiB) })) as object)).toEqual(["a"]);
  });

  it("a model's tool-call arguments: sloppy small JSON is repaired, a megabyte needing repairs gives {}", () => {
    expect(parseToolArguments("{'query': 'needle',}")).toEqual({ query: "needle" });
    expect(parseToolArguments(noCommas(MiB))).toEqual({});
    expect(parseToolArguments(`[${"[] ".repeat(MiB / 3)}]`)).toEqual({});
  });

  it("JSON a model writes in its text (tool shim): small repairs still work, a megabyte needing repairs is not JSON", () => {
    expect(parseJsonTolerant('{"name": "search_code" "arguments": {"query": "x",}}')).toEqual({ name: "search_code", arguments: { query: "x" } });
    expect(parseJsonTolerant(noCommas(MiB))).toBeUndefined();
  });
});
