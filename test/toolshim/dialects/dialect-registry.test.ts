import { describe, expect, it } from "vitest";
import { ALL_MARKERS, DIALECTS, dialectFor, parseWithDialects } from "../../../src/toolshim/dialects/index.js";
import type { DialectMatch } from "../../../src/toolshim/types.js";
import { splitPoints, thorough } from "../../helpers/thoroughness.js";
import { collapse, loadCorpus, toolsOf } from "../corpus-cases.js";
import { removeSpans, stripReasoning } from "./corpus-helper.js";

/** Families handled by the pipeline's inline JSON stage rather than by a dialect. */
const NOT_DIALECTS = new Set(["bare_json"]);

function wellFormed(text: string, m: DialectMatch | null): void {
  if (!m) return;
  let last = -1;
  for (const s of m.spans) {
    expect(s.start).toBeGreaterThanOrEqual(0);
    expect(s.end).toBeLessThanOrEqual(text.length);
    expect(s.start).toBeLessThan(s.end);
    expect(s.start).toBeGreaterThan(last);
    last = s.end;
  }
  for (const c of m.calls) {
    expect(typeof c.name).toBe("string");
    expect(c.name.length).toBeGreaterThan(0);
  }
}

describe("dialect registry", () => {
  it("has one dialect per corpus family (except bare JSON) with unique family names", () => {
    const families = [...new Set(loadCorpus().map((c) => c.family))].filter((f) => !NOT_DIALECTS.has(f)).sort();
    for (const f of families) expect(dialectFor(f), f).toBeDefined();
    expect(new Set(DIALECTS.map((d) => d.family)).size).toBe(DIALECTS.length);
    // 35 corpus families + DeepSeek V3.2 DSML and Claude-style XML (extra corpus) + 6 of issue 12 (toolcalls-new.jsonl) + Phi-4-mini special tokens + bracket-arrow blocks + Command R+ Action fences + Kimi K3 XTML (session 30) + Solar Open 2 (session 32) + CWM tool tags (session 33).
    expect(DIALECTS.length).toBe(49);
  });

  it("lists opening markers for streaming hold-back", () => {
    for (const m of ["<tool_call>", "<|tool_calls_section_begin|>", "<｜tool▁calls▁begin｜>", "[TOOL_CALLS]", "<|channel|>", "<function="]) {
      expect(ALL_MARKERS).toContain(m);
    }
    expect(ALL_MARKERS.every((m) => m.length > 0)).toBe(true);
  });

  it("parses every corpus case through the whole registry without cross-dialect mistakes", () => {
    const failures: string[] = [];
    for (const c of loadCorpus()) {
      const hits = parseWithDialects(c.raw, toolsOf(c));
      const calls = hits.flatMap((h) => h.match.calls).map((x) => x.name);
      const spans = hits.flatMap((h) => h.match.spans);
      const residue = collapse(stripReasoning(removeSpans(c.raw, spans)));
      if (NOT_DIALECTS.has(c.family)) {
        // Bare JSON is the inline stage's: no dialect may claim it.
        if (hits.length > 0) failures.push(`${c.id}: claimed by ${hits.map((h) => h.family).join(",")}`);
        continue;
      }
      if (JSON.stringify(calls) !== JSON.stringify(c.expected.map((e) => e.name))) failures.push(`${c.id}: calls ${calls.join(",")}`);
      if (c.id !== "deepseek-r1-reasoning-mentions-token" && residue !== collapse(c.content_after)) failures.push(`${c.id}: residue ${residue}`);
    }
    expect(failures).toEqual([]);
  });

  it("never throws and keeps spans well-formed on every streaming prefix of every corpus case (60 per case sampled)", () => {
    for (const c of loadCorpus()) {
      const tools = toolsOf(c);
      for (const n of splitPoints(c.raw.length, thorough(60, Infinity))) {
        const prefix = c.raw.slice(0, n);
        for (const d of DIALECTS) {
          if (!d.detect(prefix)) continue;
          wellFormed(prefix, d.parse(prefix, tools));
        }
      }
    }
  });

  it("claims nothing in ordinary prose, code and markdown", () => {
    const tools = [{ name: "search_code" }, { name: "read_evidence" }, { name: "find_symbol" }];
    const texts = [
      "The answer is in src/app.ts:12. See [the docs](https://x.y) and {braces} too.",
      "```ts\nconst cfg = { name: 'x', arguments: [1, 2] };\nfunction f() { return [g(1), h()]; }\n```",
      '```json\n{"name": "codecite", "version": "1.0.0"}\n```',
      "Python REPL:\n>>> print(1)\n1",
      "Use JSON like [1, 2, 3] or [\"a\"].",
      "An <answer> with <json> and <response> words, and a <function> tag in prose.",
    ];
    for (const t of texts) expect(parseWithDialects(t, tools), t).toEqual([]);
  });

  it("ignores markup quoted in inline code", () => {
    const tools = [{ name: "search_code" }];
    const texts = [
      'Qwen writes `<tool_call>{"name": "search_code", "arguments": {"query": "x"}}</tool_call>` for a call.',
      "Kimi calls start with `<|tool_call_begin|>` and end with `<|tool_call_end|>`.",
      "DeepSeek opens a section with `<｜tool▁calls▁begin｜>`.",
      'Mistral uses `[TOOL_CALLS]search_code[ARGS]{"query": "x"}` for that.',
      "Harmony messages look like `<|channel|>final<|message|>hi<|end|>`.",
      "The bare form is ``[search_code(query='x')]``.",
    ];
    for (const t of texts) expect(parseWithDialects(t, tools), t).toEqual([]);
  });

  it("still reads a real call next to inline code", () => {
    const hits = parseWithDialects('Run `ls` first. <tool_call>{"name": "search_code", "arguments": {"query": "`x`"}}</tool_call>', [{ name: "search_code" }]);
    expect(hits.map((h) => h.family)).toEqual(["hermes_json"]);
    expect(hits[0]!.match.calls).toEqual([{ name: "search_code", arguments: { query: "`x`" } }]);
  });
});
