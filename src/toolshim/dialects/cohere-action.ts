/**
 * Cohere Command R7B / Command A (`cohere_action`; vLLM `cohere_command` tool parser, llama.cpp `COMMON_CHAT_FORMAT_COMMAND_R7B`):
 * `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": NAME, "parameters": {…}}, …]<|END_ACTION|>`;
 * visible text sits in `<|START_RESPONSE|>…<|END_RESPONSE|>` or `<|START_TEXT|>…<|END_TEXT|>`,
 * whose markers are removed (the text stays), and so are the citation tags of a grounded answer
 * around cited text, `<co>text</co: 0:[1,2],1:[3]>` (Command A; vLLM `cohere_command` parser tests
 * expect the content `foo bar` for `foo <co>bar</co: 0:[1,2],1:[3,4]>`) and Command R's
 * `<co: 0,1>text</co: 0,1>`. Reasoning (`<|START_THINKING|>…<|END_THINKING|>`,
 * often with the opener prefilled by the template) is the pipeline's reasoning split.
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

const TEXT_MARKERS = /<\|(?:START|END)_(?:RESPONSE|TEXT)\|>/g;
/** Citation tags: `<co>`, `<co: 0,1>`, `</co: 0:[1,2],1:[3,4]>`, `</co>`. */
const CITATION_TAGS = /<\/?co(?::[\d\s,:[\]]{1,200})?>/g;

/** Dialect `cohere_action`. */
export const cohereAction = defineDialect({
  family: "cohere_action",
  example: "plan<|END_THINKING|><|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}},    {\"tool_call_id\": \"1\", \"tool_name\": \"get_time\", \"parameters\": {}}\n]<|END_ACTION|>",
  source: "https://github.com/ollama/ollama/blob/HEAD/model/parsers/cohere_test.go",
  markers: ["<|START_ACTION|>", "<|START_RESPONSE|>", "<|START_TEXT|>"],
  detect: (text) => text.includes("<|START_ACTION|>") || /<\|START_(?:RESPONSE|TEXT)\|>/.test(text),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(text, { open: /<\|START_ACTION\|>/, close: ["<|END_ACTION|>"], toCalls: (v) => callsFromValue(v) }, out);
    for (const m of text.matchAll(TEXT_MARKERS)) out.markup(m.index, m.index + m[0].length);
    for (const m of text.matchAll(CITATION_TAGS)) out.markup(m.index, m.index + m[0].length);
    return out.result();
  },
});
