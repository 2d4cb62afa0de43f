/**
 * The end-of-turn fast path of `StreamFilter.end` (`isPlainMessage` in src/toolshim/stream-filter.ts):
 * a message of plain prose skips `recoverDeterministic` and gets its known result. Differential
 * check: for every corpus case of test/fixtures/toolcalls*.jsonl, texts made from it (the raw
 * output, its visible text, each line, the raw output with its markup characters removed or
 * blanked — call syntax, tool names and header words without the markup), with its tools and
 * with none, whole and in random chunks, and for generated prose built from the words that make
 * calls without markup (tool names, `name(`, `call:`, `python`, `analysis`, `Action:` …), the
 * filter's result equals `recoverDeterministic` of the whole text exactly (calls, refusals,
 * reasoning, content, diagnostics). The fast path must also be taken often (the checks would
 * otherwise prove nothing) and never for a text whose recovery finds a call, a refusal or reasoning.
 */
import { readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPlainMessage } from "../../src/toolshim/stream-filter.js";
import { recoverDeterministic, StreamFilter } from "../../src/toolshim/index.js";
import type { OfferedTool, RecoverResult } from "../../src/toolshim/types.js";
import { schemaValidator } from "../../src/tools/schema-validator.js";
import { thorough } from "../helpers/thoroughness.js";
import { readCases, toolsOf } from "./corpus-cases.js";

const FILES = readdirSync(new URL("../fixtures/", import.meta.url)).filter((f) => /^toolcalls.*\.jsonl$/.test(f)).sort();

/** The filter's result for `text` pushed in the pieces that `cuts` (sorted positions) make. */
function filtered(text: string, tools: readonly OfferedTool[], cuts: readonly number[]): RecoverResult {
  const filter = new StreamFilter(tools, { validate: schemaValidator(tools) });
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    if (cut <= at) continue;
    filter.push(text.slice(at, cut));
    at = cut;
  }
  filter.end();
  return filter.result!;
}

/** The recovery the filter must equal. */
function recovered(text: string, tools: readonly OfferedTool[]): RecoverResult {
  return recoverDeterministic({ content: text }, tools, { validate: schemaValidator(tools) });
}

/** Found nothing but text: no call, no refusal, no reasoning. */
function textOnly(r: RecoverResult): boolean {
  return r.tool_calls.length === 0 && r.rejected.length === 0 && r.thinking === undefined && r.prefilledReasoning !== true;
}

const MARKUP = /[<>[\]{}~|｜◁▷]/g;

/** Texts made from one corpus output (see the module comment). */
function variants(raw: string, contentAfter: string): string[] {
  return [...new Set([raw, contentAfter, ...raw.split("\n"), raw.replace(MARKUP, ""), raw.replace(MARKUP, " ")])].filter((t) => t.trim() !== "");
}

/** Sorted cut positions for a random chunking of a text of `length` characters. */
const cutsOf = (length: number) => fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, length) }), { maxLength: 12 }).map((xs) => xs.sort((a, b) => a - b));

/** Checks one text with `tools` (whole, and in `runs` random chunkings); returns whether the fast path applies. */
function check(text: string, tools: readonly OfferedTool[], runs: number, what: string): boolean {
  const want = recovered(text, tools);
  const plain = isPlainMessage(text, tools);
  if (plain) expect(textOnly(want), `${what}: fast path taken for a text with a call, refusal or reasoning`).toBe(true);
  expect(filtered(text, tools, []), what).toStrictEqual(want);
  // Chunks change nothing in the end's choice (it reads the whole text); in the sample run only texts
  // that take the fast path are chunked (the others' result is the recovery's, as before).
  if (!plain && !thorough(false, true)) return plain;
  fc.assert(
    fc.property(cutsOf(text.length), (cuts) => {
      expect(filtered(text, tools, cuts), `${what} in chunks at ${cuts.join(",")}`).toStrictEqual(want);
    }),
    { seed: 13, numRuns: runs },
  );
  return plain;
}

describe("StreamFilter end-of-turn fast path equals recoverDeterministic", () => {
  for (const file of FILES) {
    it(`every case of ${file}, its variants, with its tools and none, whole and in random chunks`, () => {
      let plain = 0;
      let checked = 0;
      for (const c of readCases(file)) {
        for (const text of variants(c.raw, c.content_after ?? "")) {
          for (const tools of [toolsOf(c), []]) {
            checked++;
            if (check(text, tools, thorough(3, 20), `${c.id} (${tools.length} tools) ${JSON.stringify(text.slice(0, 80))}`)) plain++;
          }
        }
      }
      // The fast path is exercised on the corpus's own prose (lines, visible texts, markup-free variants).
      expect(checked).toBeGreaterThan(100);
      expect(plain / checked).toBeGreaterThan(0.2);
    });
  }

  /** Words that write calls, reasoning or headers without markup characters, and ordinary prose. */
  const TOOL_NAMES = ["search_code", "read_file", "get_weather", "all", "python", "run"];
  const WORDS = [
    ...TOOL_NAMES, "search_code(", "read_file(path=", "get_weather(city=\"Paris\")", "(", ")", "=", ":", ",", ";", "\"", "'", "`", "``",
    "\n", "\n\n", " ", "  ", "\t", "python\n", "all\n", "analysis", "assistantfinal", "assistantcommentary", "assistant", "final", "commentary", "to=functions.search_code", "to=",
    "functions.read_file:0", "call:", "call:search_code", "json", "Thought:", "Action", "Action Input:", "Final Answer:", "Observation", "Tool",
    "result", "Function", "name", "arguments", "\"name\":", "tool_call", "TOOL_CALLS", "think", "/think", "The", "file", "is", "in", "src/main.ts",
    "line", "42", "the", "function", "returns", "a", "value", ".", "Chunk", "t1733150000000.5", "done.", "é", "日本", "🙂",
  ];
  const prose = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 60 }).map((ws) => ws.join(" ").replace(/ ?\n ?/g, (m) => (m.includes("\n") ? "\n" : m)));
  const toolSets = fc.subarray(TOOL_NAMES).map((names) => names.map((name) => ({ name })));

  it("generated prose with call words but no markup: whole and in random chunks", () => {
    let plain = 0;
    let all = 0;
    fc.assert(
      fc.property(prose, toolSets, fc.boolean(), (text, tools, joined) => {
        // Words joined without spaces too (`search_code(` right after a line break, `analysisThe…`).
        const t = joined ? text.replace(/ /g, "") : text;
        all++;
        if (check(t, tools, 3, `${JSON.stringify(t)} with ${tools.map((x) => x.name).join(",") || "no tools"}`)) plain++;
      }),
      { seed: 7, numRuns: thorough(300, 3000) },
    );
    expect(plain / all).toBeGreaterThan(0.2);
  });

  it("a plain answer takes the fast path; one with a call, a tool-name line or a header lead does not", () => {
    const tools = [{ name: "search_code" }, { name: "read_file" }];
    expect(isPlainMessage("The function parse in src/a.ts returns a value.\nSee line 42.", tools)).toBe(true);
    expect(isPlainMessage('Use {"name": "search_code", "arguments": {}}', tools)).toBe(false);
    expect(isPlainMessage('search_code(query="x")', tools)).toBe(false);
    expect(isPlainMessage("read_file\npath: a.ts", tools)).toBe(false);
    expect(isPlainMessage("analysis The user wants a file.", tools)).toBe(false);
    expect(isPlainMessage('commentary to=functions.search_code json"query":"x"', tools)).toBe(false);
    expect(isPlainMessage("Action: search_code", tools)).toBe(false);
    expect(isPlainMessage("<think>hidden</think> shown", tools)).toBe(false);
  });
});
