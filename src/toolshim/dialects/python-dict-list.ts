/**
 * SB Intuitions Sarashina (`python_dict_list`; SGLang model gateway `sarashina` tool parser):
 * `<|tool_calls|>[{'name': 'f', 'arguments': {'k': 'v'}}]` — single-quoted Python dicts, parsed as
 * Python literals. The marker is usually stripped by detokenisation; a bare list then counts only
 * when every element is call-shaped with object arguments and every name could be an offered tool,
 * and not right after another format's marker (`functools[{'name': …}]`, `[TOOL_CALLS] [{'name': …}]`
 * belong to those formats).
 */
import type { OfferedTool } from "../types.js";
import { parsePythonValueAt } from "../python-literal.js";
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";
import { framedByMarker } from "./text-scan.js";
import { plausiblyOffered } from "./tool-gate.js";

const BARE_START = /\[\s*\{\s*['"](?:name|tool_name)['"]\s*:/g;

function parse(text: string, tools: readonly OfferedTool[]) {
  const out = new MatchBuilder(text);
  const found = scanEnvelopes(
    text,
    { open: /<\|tool_calls\|>/, close: ["<|/tool_calls|>", "</tool_calls>"], syntax: "python", payloadStart: "[{", toCalls: (v) => callsFromValue(v) },
    out,
  );
  if (found > 0) return out.result();
  let consumed = 0;
  for (const m of text.matchAll(BARE_START)) {
    if (m.index < consumed || framedByMarker(text, m.index)) continue;
    if (!text.slice(m.index, m.index + 200).includes("'")) continue; // double-quoted JSON: not this dialect
    const parsed = parsePythonValueAt(text, m.index);
    if (!parsed) continue;
    const calls = callsFromValue(parsed.value, { requireArguments: true });
    if (!calls || !calls.every((c) => plausiblyOffered(c.name, tools))) continue;
    for (const c of calls) out.call(c, m.index);
    out.span(m.index, parsed.end);
    consumed = parsed.end;
  }
  return out.result();
}

/** Dialect `python_dict_list`. */
export const pythonDictList = defineDialect({
  family: "python_dict_list",
  example: "<|tool_calls|>[{'name': 'get_weather', 'arguments': {'city': 'Tokyo'}}]",
  source: "https://github.com/smg-project/smg/pull/1937",
  markers: ["<|tool_calls|>"],
  detect: (text) => text.includes("<|tool_calls|>") || /\[\s*\{\s*'(?:name|tool_name)'\s*:/.test(text),
  parse,
});
