/**
 * Upstage Solar Open 2 (`solar_open2_tool_arg`; vLLM `solar_open2` tool parser,
 * tests/tool_parsers/test_solar_open2_tool_parser.py):
 * `<|tool_call:start|>NAME\n<|tool_arg:start|>k<|tool_arg:value|>v<|tool_arg:end|>\n…<|tool_call:end|>`,
 * prose before; the reasoning `<|think:start|>…<|think:end|>` is the pipeline's reasoning split.
 *
 * - The name is the rest of the start line (up to a newline or the next token); a call without a
 *   name is not a call.
 * - Values are untyped text (`untyped: true`), typed later by the tool schema; a repeated key
 *   keeps its first value (as a stream must).
 * - A dropped `<|tool_arg:end|>` ends the value at the next token; a dropped `<|tool_call:end|>`
 *   ends the call at the next `<|tool_call:start|>`, or at the end of the text when every value
 *   there is complete (a stop token may swallow the closer) and the token limit did not stop the
 *   model (`endIsCut`). A value or name cut by the end of the text yields no call; the markup from
 *   the opener on is removed.
 */
import type { RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { earliestFinder } from "./text-scan.js";

const CALL = "<|tool_call:start|>";
const CALL_END = "<|tool_call:end|>";
const ARG = "<|tool_arg:start|>";
const VALUE = "<|tool_arg:value|>";
const ARG_END = "<|tool_arg:end|>";

function parse(text: string, endIsCut: boolean) {
  const out = new MatchBuilder(text);
  // Each token is searched once past each point (`earliestFinder`): many openers cost one pass.
  const nextCall = earliestFinder(text, [CALL]);
  const next = earliestFinder(text, [CALL, CALL_END, ARG, VALUE, ARG_END, "\n"]);
  const nextTok = earliestFinder(text, [CALL, CALL_END, ARG, VALUE, ARG_END]);
  let pos = 0;
  for (;;) {
    const open = nextCall(pos);
    if (!open) break;
    const start = open.index;
    const nameStart = start + CALL.length;
    const nameStop = next(nameStart);
    if (!nameStop) {
      out.span(start, text.length); // the name cut by the end of the text
      break;
    }
    const name = text.slice(nameStart, nameStop.index).trim();
    let i = nameStop.token === "\n" ? nameStop.index + 1 : nameStop.index;
    const args: Record<string, string> = {};
    let end = -1;
    let cut = false;
    for (;;) {
      const t = nextTok(i);
      if (!t) {
        // No closer: the call ends at the end of the text when nothing is left open there.
        if (text.slice(i).trim() !== "" || endIsCut) cut = true;
        else end = text.length;
        break;
      }
      if (t.token === CALL_END) {
        end = t.index + CALL_END.length;
        break;
      }
      if (t.token === CALL) {
        end = t.index; // dropped call end: the next call starts here
        break;
      }
      if (t.token !== ARG) {
        i = t.index + t.token.length; // stray token between arguments
        continue;
      }
      const keyStart = t.index + ARG.length;
      const sep = nextTok(keyStart);
      if (!sep) {
        cut = true;
        break;
      }
      if (sep.token !== VALUE) {
        i = sep.index; // a key without value: no argument
        continue;
      }
      const key = text.slice(keyStart, sep.index).trim();
      const valueStart = sep.index + VALUE.length;
      const stop = nextTok(valueStart);
      if (!stop) {
        cut = true; // the value runs to the end of the text
        break;
      }
      if (key !== "" && !(key in args)) args[key] = text.slice(valueStart, stop.index);
      i = stop.token === ARG_END ? stop.index + ARG_END.length : stop.index;
    }
    if (cut) {
      out.unreadable(start, "its arguments are cut off by the end of the text", name || undefined);
      out.span(start, text.length);
      break;
    }
    if (name !== "") {
      const call: RawCall = { name, arguments: args, untyped: true };
      out.call(call, start);
    }
    out.span(start, end);
    pos = end;
  }
  return out.result();
}

/** Dialect `solar_open2_tool_arg`. */
export const solarOpen2ToolArg = defineDialect({
  family: "solar_open2_tool_arg",
  example:
    "Let me check the weather.<|tool_call:start|>get_weather\n<|tool_arg:start|>city<|tool_arg:value|>Seoul<|tool_arg:end|>\n<|tool_call:end|>",
  source: "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_solar_open2_tool_parser.py",
  markers: [CALL],
  detect: (text) => text.includes(CALL),
  parse: (text, _tools, context) => parse(text, context?.endIsCut === true),
});
