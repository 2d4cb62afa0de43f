/** SentencePiece word markers (`▁`, U+2581) read as spaces between tokens (`src/toolshim/word-markers.ts`). */
import { describe, expect, it } from "vitest";
import { recoverDeterministic } from "../../src/toolshim/index.js";
import { decodeWordMarkers } from "../../src/toolshim/word-markers.js";
import type { OfferedTool } from "../../src/toolshim/types.js";

const TOOLS: OfferedTool[] = [{ name: "search_code" }, { name: "find_symbol" }];

describe("decodeWordMarkers", () => {
  const table: [string, string, string | undefined][] = [
    ["between tokens, with real spaces elsewhere", '{▁▁"name": "x",▁"q": "a▁b"}', '{  "name": "x", "q": "a▁b"}'],
    ["every space a marker: strings too", '{"name":▁"x",▁"q":▁"a▁b"}', '{"name": "x", "q": "a b"}'],
    ["only inside a string: meant, nothing decoded", '{"q":"▁hello"}', undefined],
    ["a marker before a marker token", "▁[TOOL_CALLS]▁[{}]", " [TOOL_CALLS] [{}]"],
    ["special tokens keep theirs", "<｜tool▁sep｜>▁{}", "<｜tool▁sep｜> {}"],
    ["single-quoted Python strings", "{'q':▁'a▁b', 'r': 1}", "{'q': 'a▁b', 'r': 1}"],
    ["an apostrophe in prose opens no string", "it's▁here: {'q': 1}", "it's here: {'q': 1}"],
    ["a quote left open ends at the line end", 'note: "open\n{▁"q": 1}', 'note: "open\n{ "q": 1}'],
    ["an escaped quote stays inside the string", '{"q": "a\\"▁b",▁"r": 1}', '{"q": "a\\"▁b", "r": 1}'],
    ["no marker", '{"q": 1}', undefined],
  ];
  for (const [rule, text, want] of table) {
    it(`${rule}: ${JSON.stringify(text)}`, () => {
      const got = decodeWordMarkers(text);
      expect(got).toBe(want);
      if (got !== undefined) expect(got.length).toBe(text.length);
    });
  }
});

describe("recovery of calls written in pieces", () => {
  it("▁[TOOL_CALLS] after prose with real spaces: the call is read, the prose keeps its text", () => {
    const r = recoverDeterministic({ content: 'Checking now.\n▁[TOOL_CALLS]▁[{"name":▁"find_symbol",▁"arguments":▁{"name":▁"Embedder"}}]' }, TOOLS);
    expect(r.tool_calls).toEqual([{ name: "find_symbol", arguments: { name: "Embedder" } }]);
    expect(r.recovered_by).toBe("dialect:mistral_v3_json_array");
    // The marker before the call markup is outside the markup: it stays, as a stream showed it.
    expect(r.content).toBe("Checking now.\n▁");
  });

  it("a call to a tool not offered stays refused when written in pieces", () => {
    const r = recoverDeterministic({ content: '<tool_call>▁{"name":▁"shell",▁"arguments":▁{"command":▁"id"}}▁</tool_call>' }, TOOLS);
    expect(r.tool_calls).toEqual([]);
    expect(r.rejected.map((c) => c.name)).toEqual(["shell"]);
  });

  it("prose with markers and no call markup is left as written", () => {
    const text = "The▁tokenizer▁writes▁▁for▁a▁space:▁{not▁json}";
    const r = recoverDeterministic({ content: text }, TOOLS);
    expect(r.tool_calls).toEqual([]);
    expect(r.content).toBe(text);
  });
});
