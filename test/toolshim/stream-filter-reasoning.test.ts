/**
 * `ReasoningStream` (`src/toolshim/reasoning-stream.ts`), the reasoning half of the streamed
 * content: reasoning written in the content is passed on while it arrives, before the closer and
 * the answer after it, for every tag pair `reasoning.ts` knows; what is passed on is always a
 * prefix of the whole recovery's `thinking`, and with `end` it equals it, for every chunking:
 * every case of the three tool-call corpora, as it is and put inside or after reasoning.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recoverDeterministic, type OfferedTool } from "../../src/toolshim/index.js";
import { REASONING_TAGS } from "../../src/toolshim/reasoning.js";
import { ReasoningStream } from "../../src/toolshim/reasoning-stream.js";
import { cutAt, surrogateCuts } from "../helpers/chunk-cuts.js";
import { thorough } from "../helpers/thoroughness.js";
import { readCases, toolsOf } from "./corpus-cases.js";
import { TAG_SAMPLES } from "./reasoning-tags.js";

const WEATHER: OfferedTool[] = [{ name: "get_weather", description: "Weather of a city.", parameters: { type: "object", properties: { city: { type: "string" } } } }];

/** Streams `chunks`; returns every piece passed on (the last one from `end`) and the whole recovery's reasoning. */
function stream(chunks: readonly string[], tools: readonly OfferedTool[]): { pieces: string[]; whole: string } {
  const whole = recoverDeterministic({ content: chunks.join("") }, tools).thinking ?? "";
  const rs = new ReasoningStream(tools);
  const pieces = chunks.map((c) => rs.push(c));
  pieces.push(rs.end(whole));
  return { pieces, whole };
}

/** Asserts that every prefix of the pieces is a prefix of the whole reasoning, and all of them are it. */
function expectParity(pieces: readonly string[], whole: string, label: string): void {
  let shown = "";
  for (const p of pieces.slice(0, -1)) {
    shown += p;
    expect(whole.startsWith(shown), `${label}: ${JSON.stringify(shown.slice(-80))} is not a prefix of the reasoning`).toBe(true);
  }
  expect(pieces.join(""), label).toBe(whole);
}


const THOUGHT = "The user asks about the weather in Paris. I know it from the forecast, so I answer in one sentence.";
const ANSWER = "It is sunny in Paris.";

describe("reasoning is passed on while it arrives", () => {
  it("the tag list covers every reasoning tag pair", () => {
    for (const pair of REASONING_TAGS) expect(TAG_SAMPLES.some(([o, c]) => pair.open.test(o) && pair.close.test(c)), pair.open.source).toBe(true);
  });

  for (const [open, close] of TAG_SAMPLES) {
    it(`${open}…${close}: the reasoning before its closer, all of it before the answer`, () => {
      const text = `${open}${THOUGHT}${close}${ANSWER}`;
      const { pieces, whole } = stream(text.split(""), WEATHER);
      expect(whole).toBe(THOUGHT);
      expectParity(pieces, whole, open);
      const closerAt = text.indexOf(close, open.length);
      const beforeCloser = pieces.slice(0, closerAt).join("");
      // All but the last five runs of words are out before the closer starts.
      expect(beforeCloser).toBe("The user asks about the weather in Paris. I know it from the forecast, so");
      expect(pieces.slice(0, closerAt + close.length).join(""), "all of it once the closer is whole").toBe(THOUGHT);
    });
  }

  it("an opener the template wrote (the text holds only the closer): all of it at the closer, before the answer", () => {
    const text = `${THOUGHT}</think>${ANSWER}`;
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe(THOUGHT);
    expectParity(pieces, whole, "prefilled");
    const closerEnd = text.indexOf("</think>") + "</think>".length;
    expect(pieces.slice(0, closerEnd - 1).join("")).toBe("");
    expect(pieces.slice(0, closerEnd).join("")).toBe(THOUGHT);
  });

  it("an opener that never closes: passed on while it arrives, the rest at the end", () => {
    const text = `<think>\n${THOUGHT}`;
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe(THOUGHT);
    expectParity(pieces, whole, "unclosed");
    expect(pieces.slice(0, -1).join("")).toBe("The user asks about the weather in Paris. I know it from the forecast, so");
  });

  it("two blocks: a blank line between them, the second after the first's closer", () => {
    const text = `<think>First thought, written out in words here.</think>Text.<think>Second thought, also written out in words.</think>Answer.`;
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe("First thought, written out in words here.\n\nSecond thought, also written out in words.");
    expectParity(pieces, whole, "two blocks");
    expect(pieces.slice(0, text.indexOf("Answer.")).join("")).toBe(whole);
  });

  it("whitespace as the whole recovery tidies it: line ends, blank lines, the block's ends", () => {
    const text = `<think>\n\n  First line.   \nSecond line with words in it.\n\n\n\nThird paragraph of the reasoning, long enough to pass.  \n</think>Answer`;
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe("First line.\nSecond line with words in it.\n\nThird paragraph of the reasoning, long enough to pass.");
    expectParity(pieces, whole, "whitespace");
    expect(pieces.slice(0, text.indexOf("</think>")).join("")).toBe("First line.\nSecond line with words in it.\n\nThird paragraph of the");
  });
});

describe("Harmony's analysis channel (gpt-oss) is passed on while it arrives", () => {
  const FINAL = `<|start|>assistant<|channel|>final<|message|>${ANSWER}<|return|>`;

  it("an analysis message: its body before the token that ends it, all of it before the final message", () => {
    const text = `<|channel|>analysis<|message|>${THOUGHT}<|end|>${FINAL}`;
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe(THOUGHT);
    expectParity(pieces, whole, "analysis");
    expect(pieces.slice(0, text.indexOf("<|end|>")).join("")).toBe("The user asks about the weather in Paris. I know it from the forecast, so");
    expect(pieces.slice(0, text.indexOf("<|end|>") + "<|end|>".length).join("")).toBe(THOUGHT);
  });

  it("two analysis messages around a call: the first while it arrives, the second after the first (a blank line between)", () => {
    const call = `<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>`;
    const text = `<|start|>assistant<|channel|>analysis<|message|>${THOUGHT}<|end|>${call}<|start|>assistant<|channel|>analysis<|message|>Now the second thought.<|end|>${FINAL}`;
    const r = recoverDeterministic({ content: text }, WEATHER);
    expect(r.tool_calls.map((c) => c.name)).toEqual(["get_weather"]);
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe(`${THOUGHT}\n\nNow the second thought.`);
    expectParity(pieces, whole, "two analysis messages");
    expect(pieces.slice(0, text.indexOf(call)).join("")).toBe(THOUGHT);
  });

  it("an analysis message with a recipient is a call, not reasoning: nothing is passed on as reasoning", () => {
    const text = `<|channel|>analysis to=functions.get_weather<|message|>{"city": "Paris"}<|call|>`;
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe("");
    expectParity(pieces, whole, "recipient");
  });
});

describe("calls written inside reasoning follow the recovery's rule", () => {
  const CALL = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>';

  it("after an opener that never closes, a call ends the reasoning: the text before it is reasoning, the call runs", () => {
    const text = `<think>I need the weather first, so I will ask the tool for it.\n${CALL}`;
    const r = recoverDeterministic({ content: text }, WEATHER);
    expect(r.tool_calls.map((c) => c.name)).toEqual(["get_weather"]);
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe("I need the weather first, so I will ask the tool for it.");
    expectParity(pieces, whole, "unclosed with a call");
    // Nothing of the call's markup, nor the two runs before it (a call's header may use them), before the end.
    expect(pieces.slice(0, -1).join("")).toBe("I need the weather first, so I will ask the tool");
  });

  it("in a closed block, a call followed by more reasoning is a rehearsal: it stays reasoning, passed on at the closer", () => {
    const text = `<think>I could write ${CALL} but I know the answer already.</think>${ANSWER}`;
    const r = recoverDeterministic({ content: text }, WEATHER);
    expect(r.tool_calls).toEqual([]);
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe(`I could write ${CALL} but I know the answer already.`);
    expectParity(pieces, whole, "rehearsal");
    expect(pieces.slice(0, text.indexOf(ANSWER)).join("")).toBe(whole);
  });

  it("a call that ends the last block with nothing after the closer runs: the block waits for the end", () => {
    const text = `<think>I will ask the tool for the weather in Paris now.\n${CALL}</think>`;
    const r = recoverDeterministic({ content: text }, WEATHER);
    expect(r.tool_calls.map((c) => c.name)).toEqual(["get_weather"]);
    const { pieces, whole } = stream(text.split(""), WEATHER);
    expect(whole).toBe("I will ask the tool for the weather in Paris now.");
    expectParity(pieces, whole, "trailing call");
  });
});

const FILES = ["toolcalls.jsonl", "toolcalls-extra.jsonl", "toolcalls-new.jsonl"] as const;

/** A corpus text as it is, inside an opener that never closes, inside a closed block, after one, and after a prefilled opener's closer. */
function variants(raw: string): string[] {
  return [
    raw,
    `<think>\n${raw}`,
    `<think>Plan first, then act on it now.\n${raw}</think>\nDone.`,
    `<think>The user asks about it. I will check the code.</think>\n${raw}`,
    `Reasoning here about many things at once.</think>${raw}`,
  ];
}

function chunkings(raw: string): fc.Arbitrary<string[]> {
  const anywhere = raw.length < 2 ? fc.constant<number[]>([]) : fc.array(fc.integer({ min: 1, max: raw.length - 1 }), { maxLength: 30 });
  return fc.tuple(anywhere, fc.subarray(surrogateCuts(raw))).map(([a, b]) => cutAt(raw, [...a, ...b]));
}

for (const file of FILES) {
  const cases = readCases(file);
  describe(`streamed reasoning equals the whole recovery's over ${file} (${cases.length} cases, 5 forms each)`, () => {
    it("one code unit per delta, 7-character deltas and fast-check chunkings", () => {
      let early = 0;
      for (const c of cases) {
        const tools = toolsOf(c);
        for (const [k, text] of variants(c.raw).entries()) {
          const label = `${c.id} form ${k}`;
          const one = stream(text.split(""), tools);
          expectParity(one.pieces, one.whole, `${label}: one code unit per delta`);
          if (one.pieces.slice(0, -1).join("") !== "") early++;
          const seven = stream(cutAt(text, Array.from({ length: Math.floor(text.length / 7) }, (_, i) => (i + 1) * 7)), tools);
          expectParity(seven.pieces, seven.whole, `${label}: 7-character deltas`);
          fc.assert(
            fc.property(chunkings(text), (chunks) => {
              const r = stream(chunks, tools);
              expectParity(r.pieces, r.whole, `${label}: chunks ${JSON.stringify(chunks.slice(0, 6))}`);
            }),
            { numRuns: thorough(1, 6), seed: [...label].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) | 0, 7) },
          );
        }
      }
      // Most texts with reasoning pass some of it on before the end (the rest hold call markup early on).
      expect(early).toBeGreaterThan(cases.length * 2);
    });
  });
}
