/**
 * One opener and closer as models write them for every pair of `REASONING_TAGS`
 * (`src/toolshim/reasoning.ts`), attributes and case too: the tests of the split and of the
 * streamed reasoning go over all of them (`stream-filter-reasoning.test.ts` checks that the list
 * covers every pair).
 */
export const TAG_SAMPLES: readonly (readonly [string, string])[] = [
  ["<think>", "</think>"],
  ["<THINK>", "</THINK>"],
  ['<think type="deep">', "</think>"],
  ["<thinking>", "</thinking>"],
  ["<seed:think>", "</seed:think>"],
  ["<|START_THINKING|>", "<|END_THINKING|>"],
  ["<|inner_prefix|>", "<|inner_suffix|>"],
  ["<|channel>thought", "<channel|>"],
  ["[THINK]", "[/THINK]"],
  ["◁think▷", "◁/think▷"],
  ["<|open|>think<|sep|>", "<|close|>think<|sep|>"],
  ["<|think:start|>", "<|think:end|>"],
  ["<ifm|think>", "</ifm|think>"],
  ["<ifm|think_faster>", "</ifm|think_faster>"],
];
