/**
 * Streaming parity: every corpus case split into stream chunks at every
 * position (and character by character, and in pseudo-random chunks) shows the same visible text
 * as the non-streamed pipeline, never shows recovered markup, and the recovery of the
 * concatenated chunks is identical.
 */
import { existsSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { recoverDeterministic, StreamFilter } from "../../src/toolshim/index.js";
import type { OfferedTool } from "../../src/toolshim/types.js";
import { splitPoints, thorough } from "../helpers/thoroughness.js";
import { collapse, loadCorpus, readCases, toolsOf, type CorpusCase } from "./corpus-cases.js";

const cases = loadCorpus();

function run(chunks: readonly string[], tools: readonly OfferedTool[], prefilled: boolean): { shown: string; filter: StreamFilter } {
  const filter = new StreamFilter(tools, { prefilledReasoning: prefilled });
  let shown = "";
  for (const c of chunks) shown += filter.push(c);
  shown += filter.end();
  return { shown, filter };
}

/**
 * Asserts that `text` streamed in two pieces at every split point (a sample of `sampled` of them in
 * the quick run) and one code unit at a time shows the non-streamed visible text; returns it.
 */
function expectEverySplit(text: string, tools: readonly OfferedTool[], sampled: number, label = ""): string {
  const want = collapse(recoverDeterministic({ content: text }, tools).content);
  for (const k of splitPoints(text.length, thorough(sampled, Infinity))) {
    expect(collapse(run([text.slice(0, k), text.slice(k)], tools, false).shown), `${label}split at ${k}`).toBe(want);
  }
  expect(collapse(run([...text], tools, false).shown), `${label}character by character`).toBe(want);
  return want;
}

/** A small deterministic PRNG (mulberry32) for reproducible random chunkings. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("stream filter parity over the corpus", () => {
  for (const c of cases) {
    it(`${c.id}: split points, every character, random chunks`, () => {
      const tools = toolsOf(c);
      const whole = recoverDeterministic({ content: c.raw }, tools);
      // Templates that prefill a reasoning opener are announced to the filter (see StreamFilter docs).
      const prefilled = whole.prefilledReasoning === true;
      const want = collapse(whole.content);
      const chars = [...c.raw];
      // Every split point of short cases; long ones at about 120 evenly spaced points (30 in the sampled run).
      for (const k of splitPoints(chars.length, thorough(30, 120))) {
        const chunks = [chars.slice(0, k).join(""), chars.slice(k).join("")];
        const { shown, filter } = run(chunks, tools, prefilled);
        expect(collapse(shown), `split at ${k}`).toBe(want);
        // The recovery of the concatenated chunks is the non-streamed recovery.
        expect(filter.text).toBe(c.raw);
        expect(filter.result).toEqual(whole);
      }
      expect(collapse(run(chars, tools, prefilled).shown), "character by character").toBe(want);
      const rand = prng(c.raw.length);
      for (let round = 0; round < 3; round++) {
        const chunks: string[] = [];
        for (let i = 0; i < chars.length; ) {
          const n = 1 + Math.floor(rand() * 12);
          chunks.push(chars.slice(i, i + n).join(""));
          i += n;
        }
        expect(collapse(run(chunks, tools, prefilled).shown), `random chunks round ${round}`).toBe(want);
      }
    });
  }
});

const EXTRA = new URL("../fixtures/toolcalls-extra.jsonl", import.meta.url);

describe.skipIf(!existsSync(EXTRA))("stream filter parity over the extra corpus (character by character, 40 split points; 8 sampled)", () => {
  const extra = existsSync(EXTRA)
    ? readFileSync(EXTRA, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as CorpusCase)
    : [];
  it("shows the non-streamed content for every case", () => {
    for (const c of extra) {
      const tools = toolsOf(c);
      const whole = recoverDeterministic({ content: c.raw }, tools);
      const prefilled = whole.prefilledReasoning === true;
      const want = collapse(whole.content);
      const chars = [...c.raw];
      expect(collapse(run(chars, tools, prefilled).shown), `${c.id} character by character`).toBe(want);
      for (const k of splitPoints(chars.length, thorough(8, 40))) {
        const chunks = [chars.slice(0, k).join(""), chars.slice(k).join("")];
        expect(collapse(run(chunks, tools, prefilled).shown), `${c.id} split at ${k}`).toBe(want);
      }
    }
  });
});

describe("stream filter parity over the issue 12 formats (every split point, character by character)", () => {
  const fresh = readCases("toolcalls-new.jsonl");
  for (const c of fresh) {
    it(c.id, () => {
      const tools = toolsOf(c);
      const whole = recoverDeterministic({ content: c.raw }, tools);
      // Templates that prefill a reasoning opener are announced to the filter (see StreamFilter docs).
      const prefilled = whole.prefilledReasoning === true;
      const want = collapse(whole.content);
      const chars = [...c.raw];
      // Long cases are sampled at 60 split points to keep the suite fast (20 in the sampled run).
      for (const k of splitPoints(chars.length, thorough(20, 60))) {
        const { shown, filter } = run([chars.slice(0, k).join(""), chars.slice(k).join("")], tools, prefilled);
        expect(collapse(shown), `split at ${k}`).toBe(want);
        expect(filter.result).toEqual(whole);
      }
      expect(collapse(run(chars, tools, prefilled).shown), "character by character").toBe(want);
    });
  }
});

describe("stream filter parity for the structural stage (every split point)", () => {
  const tools: OfferedTool[] = [
    { name: "search_code", parameters: { type: "object", properties: { query: { type: "string" }, max_results: { type: "integer" } }, required: ["query"] } },
    { name: "read_evidence", parameters: { type: "object", properties: { path: { type: "string" }, start_line: { type: "integer" } }, required: ["path"] } },
  ];
  const texts = [
    "Let me look.\n<search_code>\n<query>load_index</query>\n<max_results>5</max_results>\n</search_code>",
    'Reading it.\n<call name="read_evidence"><arg name="path">src/a.py</arg><arg name="start_line">3</arg></call>\nDone.',
    '[search_code]{"query": "def main"}[END_TOOL_REQUEST]',
    'First:\nread_evidence(path="src/a.py", start_line=10)\nthen I answer.',
    'search_code: {"query": "TODO"}',
    'call:search_code{query:<|"|>parse_args<|"|>}',
    "You could call search_code(query=...) later, for example.",
    "search_code is the tool that finds text.",
    // Wrapper markers no dialect lists (the structural stage's framed-name and name-keyed shapes).
    'Looking.<|call_start|>search_code<|call_args|>{"query": "def main"}<|call_end|>',
    '<｜calls｜><｜call｜>function<｜sep｜>read_evidence\n```json\n{"path": "a.py", "start_line": 4}\n```<｜call_end｜>',
    '[CALL]search_code[PARAMS]{"query": "x"}[CALL]read_evidence[PARAMS]{"path": "b.py"}[/CALL]',
    'Now:\n<fn_call>functions.search_code:0 {"query": "TODO", "max_results": 3}</fn_call>\nDone.',
    "<run>\n<tool=read_evidence>\n<arg=path>\nsrc/x.ts\n</arg>\n</tool>\n</run>",
    "<start_of_call>search_code<key>query</key><val>a && b</val><end_of_call> then prose.",
    '<|calls|>[{"search_code": {"query": "x"}}]<|/calls|>',
    'Checking.<|call_start|>search_code<|call_args|>{"query": "unfinis',
    "I will use search_code<|im_end|>",
  ];
  for (const text of texts) {
    it(`every split of ${JSON.stringify(text.slice(0, 40))}…`, () => {
      expectEverySplit(text, tools, 60);
    });
  }
});

describe("stream filter parity for shapes outside the corpus", () => {
  const tools: OfferedTool[] = [{ name: "search_code" }, { name: "find_symbol" }, { name: "read_evidence" }];
  const texts = [
    'Thought: I need it.\nAction: find_symbol\nAction Input: {"name": "Foo"}\nObservation: found',
    'Let me search. search_code({"query": "a"}) then wait.',
    'Here: <tool_call name="read_evidence">{"path": "c.py"}</tool_call> ok',
    'emoji_functions.search_code:0 <|tool_call_argument_begin|> {"query": "load_config"}',
    "<answer>\nChecking the definition first.\n</answer>",
    'Using tool: search_code\n```json\n{"name": "search_code", "arguments": {"query": "a"}}\n```\nDone.',
    'Some **markdown** with `code {x}` and a list:\n- [x] done\n- [ ] todo\n\nFunction: parse() handles it. {"a": [1,2]} <b>bold</b> a<b c>d',
    'Tool calls look like this, for example:\n```json\n{"name": "search_code", "arguments": {"query": "foo"}}\n```\nThat is the format.',
    "The function `load_index` in src/rag_common.py:12 reads the index; `load_index` is called from src/rag_chat.py:10.\n\n" +
      '```python\ndef load_index(path: str) -> dict:\n    return json.load(open(path))  # {"a": 1}\n```\n\nOptions are {debug, verbose}; see [the docs](https://x.y).',
  ];
  for (const text of texts) {
    it(`every split of ${JSON.stringify(text.slice(0, 40))}…`, () => {
      expectEverySplit(text, tools, 60);
    });
  }
});

describe("stream filter parity for a vendor-namespaced wrapper opener that wraps no call", () => {
  // The recovery removes such an opener as stray, or keeps it, by what follows it up to the end
  // (`residue.ts` strayOpenerAt); the filter once showed the text after an empty reasoning block
  // as if the opener were gone, then the whole message again at the end (fuzz: `><b|tool_call><think></think>\n=`).
  const texts = [
    "><b|tool_call><think></think>\n=",
    "x<b|tool_call><think>\n</think>\nmore text",
    "Done.<ns:tool_calls>\n<think>hm</think>\nThe answer is 4.",
    "Before <k2|tool_call> after, then <think></think>\nend",
    "<a|tool_call>\n\nplain prose after it\n",
  ];
  const offers: OfferedTool[][] = [[], [{ name: "search_code" }]];
  it.each(texts.flatMap((text) => offers.map((tools) => ({ text, tools }))))("every split of $text with $tools.length tools", ({ text, tools }) => {
    expectEverySplit(text, tools, 60);
  });
});

describe("stream filter parity for long messages (the scan reads the message's end once past its first kilobyte)", () => {
  // Prose long enough that the filter scans only the end of its buffer, then markup that must
  // still be held and recovered as in the non-streamed pipeline: with no tools offered (the
  // windowed scan) and with tools (the whole buffer).
  const prose = Array.from({ length: 60 }, (_, i) => `Line ${i}: the loader reads src/mod_${i}.py and returns the parsed value.\n`).join("");
  const endings = [
    '<tool_call>\n{"name": "search_code", "arguments": {"query": "load"}}\n</tool_call>',
    '```json\n{"name": "search_code", "arguments": {"query": "load"}}\n```\nDone.',
    "<think>\nWhich file holds it?\n</think>\nThe answer is in src/mod_3.py.",
    'Action: search_code\nAction Input: {"query": "load"}',
    'functions.search_code:0 <|tool_call_argument_begin|> {"query": "load"}',
    '[TOOL_CALLS]search_code[ARGS]{"query": "load"}',
    "Plain prose to the end, with `code` and a (parenthesis)",
  ];
  for (const ending of endings) {
    for (const tools of [[], [{ name: "search_code" }]] as OfferedTool[][]) {
      it(`${JSON.stringify(ending.slice(0, 30))}… after ${prose.length} characters of prose, ${tools.length} tools`, () => {
        const text = `${prose}${ending}`;
        const want = collapse(recoverDeterministic({ content: text }, tools).content);
        const random = prng(7);
        for (let round = 0; round < thorough(4, 12); round++) {
          const chunks: string[] = [];
          for (let at = 0; at < text.length; ) {
            const next = Math.min(text.length, at + 1 + Math.floor(random() * (round % 2 === 0 ? 8 : 40)));
            chunks.push(text.slice(at, next));
            at = next;
          }
          const { shown, filter } = run(chunks, tools, false);
          expect(collapse(shown), `chunking ${round}`).toBe(want);
          expect(filter.text).toBe(text);
        }
      });
    }
  }
});

describe("stream filter parity for text shown a paragraph at a time (markup in prose recovered from its paragraph)", () => {
  // The filter recovers a paragraph on its own when the whole message before it holds no code
  // region that reaches into it; these texts hold a line that the recovery removes as prose and
  // keeps as code (`</s>` alone on its line), after a paragraph break that a code region spans in
  // the whole text only.
  const texts = [
    // A blank line inside a fenced block: read from there, the closing fence opens one, and the
    // fence after `</s>` closes it.
    "Here is the change, see [the docs](https://x.y):\n\n```ts\nconst a = 1;\n\nconst b = [a](b);\n```\n</s>\n```\nmore code\n```\n\nSee [the docs](https://x.y) and a[i].",
    // A fence line inside reasoning: the answer's code regions are those of the text without it.
    "```ts\ncode\n<think>\n```\n</think>\n\nmore [x](y) and a[i]\n```\n</s>\n```\nc\n```\nafter [x](y)",
  ];
  for (const text of texts) {
    it(`every split of ${JSON.stringify(text.slice(0, 40))}…`, () => {
      expect(expectEverySplit(text, [], 60)).not.toContain("</s>");
    });
  }
});

describe("stream filter parity for call markers inside constructs the scan decides as a whole", () => {
  // A call fence (``` with no info, json, ~~~ …), a tag that opens a line with its closing tag, a
  // fence's info string: the scan decides each as a whole once it closes, but the recovery may
  // read from a call marker inside it on past its end (it removes the text after the fence as
  // the marker's call block), so such a construct is held like the marker itself.
  // Reasoning openers too: the recovery reads one inside a fence as reasoning that runs to the end.
  const markers = ["functools[", "<|tool_call_begin|>", "<minimax:tool_call>", "<|python_tag|>", "<tool_call>\n[", "<seed:tool_call>", "<steptml:invoke", "<|channel|>", "<thinking>", "<think>"];
  const wraps: ((m: string) => string)[] = [
    (m) => `Here it is:\n\`\`\`\n${m}\n\`\`\`\n`,
    (m) => `Here it is:\n\`\`\`json\n${m}\n\`\`\`\n`,
    (m) => `Here it is:\n~~~\n${m}\n~~~\n`,
    (m) => `Here it is:\n\`\`\`\`\n\`\`\`\n${m}\n\`\`\`\n\`\`\`\`\n`,
    (m) => `Here it is:\n\`\`\`${m}\`\nx\n`,
    (m) => `<answer>${m}</answer>\n`,
  ];
  const after = "\nMore text: see [the docs](https://x.y), a[i] and `code`.\n\nThe end.";
  const tools: OfferedTool[] = [{ name: "read_file" }];
  for (const [w, wrap] of wraps.entries()) {
    it(`wrapper ${w}: every split and character by character, for ${markers.length} markers`, () => {
      for (const m of markers) {
        const text = wrap(m) + after;
        for (const offered of [[], tools]) {
          expectEverySplit(text, offered, 20, `${JSON.stringify(text)}: `);
        }
      }
    });
  }
});

describe("stream filter parity for text glued to markup the recovery removes", () => {
  // Text right after a removed span, with no whitespace between, gets a space in the span's place
  // (`residue.ts` removeSpans); the recovery of the text up to the span's end cannot show it.
  const tools: OfferedTool[] = [{ name: "read_file" }];
  const texts = [
    "Done. <think>check it</think>Next part here.",
    "Done.\n<think>check it</think>Next part here.",
    'Reading{"name": "read_file", "arguments": {"path": "a.py"}}Sure, next.',
    "Plan\n<|channel>thought<channel|>go on with it.",
    // A value kept as text right before the removed call, ending as the call does.
    'Set {"b": {"path": "a.py"}}{"name": "read_file", "arguments": {"path": "a.py"}}Sure, next.',
  ];
  for (const text of texts) {
    it(`every split of ${JSON.stringify(text.slice(0, 40))}…`, () => {
      for (const offered of [[], tools]) {
        expectEverySplit(text, offered, 60, `${JSON.stringify(text)}: `);
      }
    });
  }
});

describe("stream filter parity for the structural stage inside one long line", () => {
  // Past a line's first five runs, the structural search restarts two runs before its last check
  // (or at an open tag), not at the line's start; the parts that start inside a line must still be
  // found, and a tool's name inside the line must not be read as a line start.
  const tools: OfferedTool[] = [{ name: "read_file" }, { name: "search_code" }];
  const lead = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
  const texts = [
    `${lead} <tool name="read_file" path="a.py" and more words here> done`,
    `${lead} then:   search_code[ARGS]{"query": "q"}`,
    `${lead} the read_file (see docs) function and ${lead}\nread_file (path)`,
  ];
  for (const text of texts) {
    it(`every split of …${JSON.stringify(text.slice(lead.length, lead.length + 40))}`, () => {
      const want = expectEverySplit(text, tools, 40);
      expect(collapse(run(text.split(/(?= )/), tools, false).shown), "word by word").toBe(want);
    });
  }

  it("shows a tool's name inside a long line as it streams (it is not a line start)", () => {
    const text = `${lead} the read_file (see docs) function reads it, and ${lead} ends here`;
    const f = new StreamFilter(tools);
    let shown = "";
    for (const piece of text.split(/(?= )/)) shown += f.push(piece);
    expect(shown).toBe(text.slice(0, text.lastIndexOf(" ")));
  });
});

describe("stream filter parity for a last word that ends with the start of a marker", () => {
  // `read_f` may become `functools[` (and `…T`, `…A`, `…O` the word markers): the marker's hold
  // inside the last word must not show the word's start, which may become a call's name.
  const tools: OfferedTool[] = [{ name: "read_file" }, { name: "list_files" }];
  const lead = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
  const texts = [
    'so let me run: read_file{"path": "a.py"}',
    `${lead} so let me run: read_file{"path": "a.py"}`,
    'Let me look.\nread_file(path="a.py")',
    'Then: list_files{"dir": "src"}',
  ];
  for (const text of texts) {
    it(`character by character and every split: ${JSON.stringify(text.slice(-40))}`, () => {
      expectEverySplit(text, tools, 40);
    });
  }
});

describe("stream filter parity for namespaced call wrappers the recovery removes as stray markup", () => {
  // `residue.ts` removes a wrapper whose tag carries a vendor namespace with a bar (`<ifm|tool_call>`,
  // `</m|tool_calls>`) where it stands as markup, and an opener with only blanks before such a
  // closer (an empty wrapper): the scan must read the bar as part of the tag's name, or it shows
  // the tag, or its start, before the recovery removes it.
  const wrappers = ["<m|tool_call>", "<ab|tool_calls>", "<ifm|tool_call>", "<k2|tool_call>", "<v1.5|tool_calls>"];
  const contexts: ((o: string, c: string) => string)[] = [
    (o, c) => `ping ${o}   ${c}`,
    (o, c) => `ping ${o}   ${c} more text`,
    (o, c) => `ping\n${o}\n${c}\nmore`,
    (_, c) => `ping\n${c}\nmore`,
    (o, c) => `a ${o}\n\n${c}\n\nb`,
    (_, c) => `Done.\n${c}`,
    (o) => `x\n${o}\n`,
    // Around a call the recovery removes the wrapper with it (`residue.ts`: a tag right before a removed span).
    (o, c) => `${o}{"name": "read_file", "arguments": {"path": "a"}}${c}`,
    (o, c) => `Reading. ${o}[{"name": "read_file", "arguments": {"path": "a"}}]${c} done`,
  ];
  for (const o of wrappers) {
    it(`every split and character by character around ${o}`, () => {
      for (const context of contexts) {
        const text = context(o, o.replace("<", "</"));
        for (const offered of [[], [{ name: "read_file" }]]) expectEverySplit(text, offered, 40, `${JSON.stringify(text)}: `);
      }
    });
  }
});

describe("stream filter parity for text after a call found in the decided text", () => {
  // What follows a call can change how the whole recovery reads it: a later call marker makes the
  // dialect stage find calls (the inline-JSON stage is then off, so the `{"name": …}` hidden as a
  // call is text), a later backtick puts an earlier call inside an inline code span, a call cut
  // off takes the text after it. So after a call the filter shows nothing more before the end.
  const tools: OfferedTool[] = [{ name: "read_file" }, { name: "search_code" }, { name: "get_time" }];
  const texts = [
    'Text {"name": "read_file", "arguments": {"path": "a"}} then\n<tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>',
    '{"name": "search_code", "arguments": {"query": "T"}}\n\n- item\nword <|tool_call:start|>get_time\n<|tool_call:end|>\nword ',
    '{"name":"read_file","arguments":{"":""}}=[read_file(h=\'\')]',
    "Use .`[read_file(h='')]`` and then ` ok",
    "Try `x [read_file(path='a')] and `` then ` here.",
    "[OL]search_code{--",
  ];
  for (const text of texts) {
    it(`every split and character by character: ${JSON.stringify(text.slice(0, 50))}`, () => {
      expectEverySplit(text, tools, 60);
    });
  }

  it("shows the text before the call at once and the text after it at the end", () => {
    const f = new StreamFilter(tools);
    let shown = "";
    for (const piece of ['Reading it. {"name": "read_file", ', '"arguments": {"path": "a.py"}}', " Then I will", " summarise it."]) shown += f.push(piece);
    expect(shown).toBe("Reading it.");
    expect(shown + f.end()).toBe("Reading it. Then I will summarise it.");
    expect(f.result?.tool_calls).toEqual([{ name: "read_file", arguments: { path: "a.py" } }]);
  });
});

describe("stream filter parity for a call's JSON in a fence labelled with a program's language", () => {
  // Real replies put calls only in fences labelled json, xml, tool… or not at all
  // (test/fixtures/toolcalls*.jsonl); JSON in a ```ts or ```d fence is quoted code, closed or not,
  // for the recovery's fenced-JSON and xLAM readers as for the inline-JSON stage, and the scan
  // steps over such a fence's opener.
  const tools: OfferedTool[] = [{ name: "read_file" }];
  const call = '{"name": "read_file", "arguments": {"path": "a.py"}}';
  for (const lang of ["ts", "d", "yaml", "md"]) {
    for (const value of [call, `[${call}]`]) {
      for (const close of ["\n```\nThat is the shape.", "\nthe rest of the answer", ""]) {
        const text = `Here is the shape:\n\`\`\`${lang}\n${value}${close}`;
        it(`${JSON.stringify(text)}: no call, every split and character by character`, () => {
          const whole = recoverDeterministic({ content: text }, tools);
          expect(whole.tool_calls).toEqual([]);
          expect(collapse(whole.content)).toBe(collapse(text));
          expectEverySplit(text, tools, 30);
        });
      }
    }
  }
});

describe("stream filter parity for markup held inside a fenced block", () => {
  // A hold inside a fence (a tool's name opening a line in a ``` fence, a marker in a ```d fence's
  // first line) showed the fence's opener; the recovery removes the fence with the call it holds
  // (the fence's body read as a whole, or a block emptied of markup).
  const tools: OfferedTool[] = [{ name: "find_symbol" }, { name: "get_weather" }, { name: "search_web" }];
  const texts = [
    "```\n[find_symbol(e='',d='')]\n```\n",
    '```\nget_weather(o="")\nsearch_web(y="")\n```\n',
    '```tool_code\nfind_symbol(e="")\n```\n',
    "```d\n<minimax:tool_call>",
    "```d\n<tool_call>{",
    "```d\nfunctools[",
    "~~~d\n  <tool_call>{",
    // The dialects' fence reader (`findFences`) closes the ```tool block at the second line's ```
    // and reads the third line as the opener of a fence holding a call; Markdown's reading closes
    // the block at the third line (the scan stepped over it and showed it).
    '```tool\n```m\n```\n{"name": "find_symbol", "arguments": {"name": "f"}}',
    '```\n```~\n```\n[{"name": "find_symbol", "arguments": {"name": "f"}}]',
    // A run that closes a fence and opens a Markdown one (```s) is decided once its line has ended.
    "```\n```a\n```\n```s\n[TOOL_CALLS]a",
    // A wrapper's closer right before the fence's opener: the recovery removes a closer that ends
    // the text, so it is held with the opener (the hold moved back to the opener showed it decided).
    'x\n\na<ab|tool_call>{"name":"s","arguments":{}}</ab|tool_call>\n```d\n[{"name": "f", "arguments": {}}]\nd',
  ];
  for (const text of texts) {
    it(`every split and character by character: ${JSON.stringify(text)}`, () => {
      for (const offered of [[], tools]) expectEverySplit(text, offered, 60, `${offered.length} tools: `);
    });
  }

  it("still shows a code block's lines as they stream", () => {
    const f = new StreamFilter(tools);
    let shown = "";
    for (const piece of ["Here:\n", "```ts\n", "const x = 1;\n", "const y = f(x);\n"]) shown += f.push(piece);
    expect(shown).toBe("Here:\n```ts\nconst x = 1;\nconst y = f(x);");
  });

  it("shows the prose after a call fence closed inside a line as it streams", () => {
    // The dialects close a fence at the first run of as many backticks (`dialects/fence.ts`
    // `findFences`), which may end a line of JSON; the scan waited for a line of backticks alone.
    for (const offered of [[], tools]) {
      const f = new StreamFilter(offered);
      let shown = "";
      for (const piece of ["Shape:\n", "```json\n", '{"a": 1}```\n', "So a is", " one and b", " is two.\n"]) shown += f.push(piece);
      expect(shown).toBe('Shape:\n```json\n{"a": 1}```\nSo a is one and b is two.');
      expect(shown + f.end()).toBe('Shape:\n```json\n{"a": 1}```\nSo a is one and b is two.');
    }
  });

  it("shows the prose after a closed code block as it streams (its closing line opens no fence)", () => {
    // The closing line of a ```ts block was read as the opener of a ``` fence, which may hold
    // calls: everything after it was held until the next fence line or the end of the message.
    for (const offered of [[], tools]) {
      const f = new StreamFilter(offered);
      let shown = "";
      for (const piece of ["Here:\n", "```ts\n", "const x = 1;\n", "```\n", "\nSo x is one", " and y", " is two.\n"]) shown += f.push(piece);
      expect(shown).toBe("Here:\n```ts\nconst x = 1;\n```\n\nSo x is one and y is two.");
      expect(shown + f.end()).toBe("Here:\n```ts\nconst x = 1;\n```\n\nSo x is one and y is two.");
    }
  });
});

describe("stream filter and HyperCLOVAX-SEED-Think's call header", () => {
  // The role header ` -> tool/function_call` before the list of calls (vLLM
  // tests/tool_parsers/test_hyperclovax_seed_think_14b_tool_parser.py) went with the calls in
  // neither the recovery nor the stream; prose with arrows must still stream.
  const tools: OfferedTool[] = [{ name: "get_weather" }];
  const call = '[{"name": "get_weather", "arguments": {"city": "Seoul"}}]';

  it("never shows the header, every split and character by character", () => {
    for (const text of [` -> tool/function_call\n${call}<|im_end|>`, `Checking the weather. -> tool/function_call\n${call}`]) {
      const want = expectEverySplit(text, tools, 60);
      expect(want).not.toContain("tool/function_call");
    }
  });

  it("streams prose with arrows (held only while the arrow may still become the header)", () => {
    const f = new StreamFilter(tools);
    const shown = [f.push("It maps a ->"), f.push(" b, then b -> c"), f.push(" and stops.\n")];
    expect(shown).toEqual(["It maps a", " -> b, then b ->", " c and stops."]);
    expect(f.end()).toBe("");
  });

  it("holds the header from its arrow and shows nothing of the calls", () => {
    const f = new StreamFilter(tools);
    let shown = "";
    for (const piece of ["Checking.", " -> tool/", "function_call\n", call, "<|im_end|>"]) shown += f.push(piece);
    expect(shown + f.end()).toBe("Checking.");
    expect(f.result?.tool_calls).toEqual([{ name: "get_weather", arguments: { city: "Seoul" } }]);
  });
});

describe("stream filter parity for an answer tag's orphan closer after a call block", () => {
  const tools: OfferedTool[] = [{ name: "get_weather" }];
  const pangu = '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Beijing"}}]<|tool_call_end|>';
  for (const text of [`Let me check.${pangu}</answer>`, `Let me check.${pangu}\n</response>\n`]) {
    it(`never shows the closer: ${JSON.stringify(text)}`, () => {
      expect(expectEverySplit(text, tools, 60)).toBe("Let me check.");
    });
  }
});

describe("stream filter parity for a backtick run the next piece may lengthen", () => {
  // An inline code span closes at the next run of exactly as many backticks (CommonMark pairs
  // them left to right, https://spec.commonmark.org/0.31.2/#code-spans): text ending with a run
  // of backticks, where the hold point could be, did not yet say whether the run closes a span
  // around a call; the next piece's backtick made the run longer, the span unclosed and the call
  // markup, after the text in the span had been shown.
  const tools: OfferedTool[] = [{ name: "read_file" }, { name: "search_code" }];
  const texts = [
    'See `{"name": "read_file", "arguments": {"path": "a"}}`` here',
    "Try `[read_file(path='a')]`` now",
    'Run `{"name": "search_code", "arguments": {"query": "x"}}``',
    'A ``{"name": "read_file", "arguments": {"path": "a"}}``` and more',
  ];
  for (const text of texts) {
    it(`every split and character by character: ${JSON.stringify(text)}`, () => {
      expect(recoverDeterministic({ content: text }, tools).tool_calls).toHaveLength(1);
      expectEverySplit(text, tools, 60);
    });
  }
});

describe("stream filter behaviour", () => {
  const tools: OfferedTool[] = [{ name: "search_code" }, { name: "read_evidence" }];

  it("shows prose at once except a last word that could become a call", () => {
    const f = new StreamFilter(tools);
    expect(f.push("The importer is in ")).toBe("The importer is in");
    expect(f.push("src/rag_chat.py at line 10.\n")).toBe(" src/rag_chat.py at line 10.");
    expect(f.push("Done")).toBe("");
    expect(f.end()).toBe("\nDone");
  });

  it("holds back a suffix that could start a marker, then releases it when it does not", () => {
    const f = new StreamFilter(tools);
    expect(f.push("Let me check. <tool_ca")).toBe("Let me check.");
    expect(f.push("ll>")).toBe("");
    expect(f.push('{"name": "search_code", "arguments": {"query": "x"}}</tool_call>')).toBe("");
    expect(f.end()).toBe("");
    const g = new StreamFilter(tools);
    expect(g.push("x = a <")).toBe("x = a");
    expect(g.push(" b holds")).toBe(" < b");
  });

  it("never shows a bare JSON call at the start of a message", () => {
    const f = new StreamFilter(tools);
    const pieces = ['{"name": "sea', 'rch_code", "argu', 'ments": {"query": "load_index"}}'];
    expect(pieces.map((p) => f.push(p)).join("")).toBe("");
    expect(f.end()).toBe("");
  });

  it("releases braces in prose once they are known not to be a call", () => {
    const f = new StreamFilter(tools);
    expect(f.push("In Go you write for { fmt.Println(x) } and")).toBe("In Go you write for { fmt.Println(x) }");
    expect(f.push(" then a struct {")).toBe(" and then a struct");
    expect(f.push(' "name": "Alice" } literal.')).toBe(' { "name": "Alice" } literal.');
  });

  it("hides reasoning and releases the answer after the closer", () => {
    const f = new StreamFilter(tools);
    expect(f.push("<think>I should search")).toBe("");
    expect(f.push(" first.</think>The answer is")).toBe("The answer");
    expect(f.end()).toBe(" is");
  });

  it("with prefilledReasoning holds everything until the closer", () => {
    const f = new StreamFilter(tools, { prefilledReasoning: true });
    expect(f.push("I am thinking about it")).toBe("");
    expect(f.push("</think>Here it is.")).toBe("Here it is.");
    expect(f.end()).toBe("");
  });

  it("without the prefilled hint shows the answer again after reasoning it already showed", () => {
    const f = new StreamFilter(tools);
    const shown = f.push("I am thinking about it. ") + f.push("</think>Answer.") + f.end();
    expect(shown).toBe("I am thinking about it.\n\nAnswer.");
    expect(f.result?.content).toBe("Answer.");
  });

  it("holds a lone header token with the marker that follows it", () => {
    const f = new StreamFilter(tools);
    const text = 'emoji_functions.search_code:0 <|tool_call_argument_begin|> {"query": "x"}';
    expect(f.push("emoji_functions.search_code:0 ")).toBe("");
    expect(f.push('<|tool_call_argument_begin|> {"query": "x"}')).toBe("");
    expect(f.end()).toBe(recoverDeterministic({ content: text }, tools).content);
  });

  it("never shows a tool result the model invents after its call", () => {
    const text = 'Searching.\n{"name": "search_code", "arguments": {"query": "x"}}\nTool result (search_code): 3 matches\nSo it is used.';
    for (let k = 0; k <= text.length; k++) {
      const f = new StreamFilter(tools);
      const shown = f.push(text.slice(0, k)) + f.push(text.slice(k)) + f.end();
      expect(shown, `split at ${k}`).toBe("Searching.");
    }
  });

  it("keeps the whole recovery for the agent after end()", () => {
    const f = new StreamFilter(tools);
    f.push('Reading it. {"name": "read_evidence", "arguments": {"path": "a.py"}}');
    expect(f.end()).toBe("");
    expect(f.result?.tool_calls).toEqual([{ name: "read_evidence", arguments: { path: "a.py" } }]);
    expect(f.result?.content).toBe("Reading it.");
    expect(() => f.push("more")).toThrow(/after end/);
  });

  it("takes the upstream's finish reason at end(): a length stop cuts a closer-less last value", () => {
    // The real closer-less qwen3-coder reply of the corpus (continuedev/continue#13057).
    const raw = readCases("toolcalls-new.jsonl").find((c) => c.id === "qwen3coder-ollama-no-closers-at-all")!.raw;
    const offered = [{ name: "create_new_file" }];
    const results = (["stop", "length", undefined] as const).map((reason) => {
      const f = new StreamFilter(offered);
      let shown = "";
      for (const ch of raw) shown += f.push(ch);
      shown += f.end(reason);
      expect(collapse(shown), String(reason)).toBe(collapse(f.result!.content));
      return f.result!;
    });
    expect(results[0]!.tool_calls.map((c) => c.name)).toEqual(["create_new_file"]);
    expect(results[1]!.tool_calls).toEqual([]);
    expect(results[1]!.rejected.map((r) => r.name)).toEqual(["create_new_file"]);
    expect(results[2]).toEqual(results[0]);
    expect(results[1]).toEqual(recoverDeterministic({ content: raw, finish_reason: "length" }, offered));
  });
});

describe("stream filter memory", () => {
  it("keeps about what it was given per delta, not a copy of its scan window per delta", () => {
    // The serve load's messages: deltas of about 40 characters of prose, 60 per message, past the
    // window's first kilobyte. A piece cut from the scan window and kept in the shown text used to
    // keep that push's flattened window alive (512–1024 characters): ~820 bytes per delta, where
    // the text itself, with the filter's joins, is ~240.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const deltas = Array.from({ length: 60 }, (_, i) => JSON.parse(JSON.stringify(`Chunk ${i} t${1764669000000 + i * 50.123456} done.\n`)) as string);
    const kept: StreamFilter[] = [];
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let k = 0; k < 300; k++) {
      const f = new StreamFilter([]);
      let shown = "";
      for (const d of deltas) shown += f.push(d);
      expect(shown).toBe(deltas.join("").trimEnd());
      kept.push(f);
    }
    gc();
    gc();
    const perDelta = (process.memoryUsage().heapUsed - before) / (300 * deltas.length);
    expect(kept).toHaveLength(300);
    expect(perDelta).toBeLessThan(500);
  });
});
