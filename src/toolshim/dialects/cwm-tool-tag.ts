/**
 * Meta CWM's tool tags (`cwm_tool_tag`; vLLM `cwm` tool parser and its tests):
 * `<tool: function>\nterminal find . -name "*.py"\n</tool>`. The tag's label is informational; the
 * body's first word is the tool and the rest of the body its one argument. The shorthand without the
 * label's `>` (`<tool: python import os; print("hi") </tool>`) names the tool in the label and the
 * rest is the argument.
 *
 * - The argument is a JSON object when the rest is one (then it is the arguments); otherwise it is
 *   text, given to the tool's one parameter: `command` as vLLM names it, or, when the offered tool's
 *   schema has no `command`, its only property (or its only required one). The schema judges it.
 * - The closer is required: a block the end of the text cuts yields no call (a cut shell command is
 *   not the command the model meant), and its markup from the opener on is removed.
 * - Several blocks may follow one another; prose around them stays.
 */
import { isPlainObject, parseJsonTolerant } from "../json.js";
import { resolveToolName } from "../names.js";
import type { OfferedTool, RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { skipWs } from "./text-scan.js";

const OPEN = /<tool:[ \t]*([^>\s]+)/g;
const CLOSE = "</tool>";

/** The parameter that takes a text argument of `name` (module rules). */
function textParameter(name: string, tools: readonly OfferedTool[]): string {
  const tool = tools.find((t) => t.name === resolveToolName(name, tools));
  const schema = tool?.parameters;
  const props = isPlainObject(schema) && isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
  if (props.length === 0 || props.includes("command")) return "command";
  if (props.length === 1) return props[0]!;
  const required = isPlainObject(schema) && Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
  return required.length === 1 ? required[0]! : "command";
}

/** The call of a tool `name` whose argument text is `rest`. */
function callOf(name: string, rest: string, tools: readonly OfferedTool[]): RawCall {
  const t = rest.trim();
  if (t.startsWith("{")) {
    const v = parseJsonTolerant(t);
    if (isPlainObject(v)) return { name, arguments: v };
  }
  return { name, arguments: t === "" ? {} : { [textParameter(name, tools)]: t } };
}

function parse(text: string, tools: readonly OfferedTool[]) {
  const out = new MatchBuilder(text);
  OPEN.lastIndex = 0;
  for (let m = OPEN.exec(text); m !== null; m = OPEN.exec(text)) {
    const at = m.index;
    const close = text.indexOf(CLOSE, at + m[0].length);
    const label = m[1]!;
    // Canonical form: `<tool: label>` then the body; shorthand: the label is the tool.
    const canonical = text[skipWs(text, at + m[0].length, close < 0 ? text.length : close)] === ">";
    if (close < 0) {
      const head = canonical ? /^\s*>\s*(\S+)/.exec(text.slice(at + m[0].length))?.[1] : label;
      out.unreadable(at, "its block is not closed", head);
      out.span(at, text.length);
      break;
    }
    if (canonical) {
      const body = text.slice(text.indexOf(">", at + m[0].length) + 1, close).trim();
      const name = /^\S+/.exec(body)?.[0];
      if (name !== undefined) out.call(callOf(name, body.slice(name.length), tools), at);
    } else {
      out.call(callOf(label, text.slice(at + m[0].length, close), tools), at);
    }
    out.span(at, close + CLOSE.length);
    OPEN.lastIndex = close + CLOSE.length;
  }
  return out.result();
}

/** Dialect `cwm_tool_tag`. */
export const cwmToolTag = defineDialect({
  family: "cwm_tool_tag",
  markers: ["<tool:"],
  example: 'preamble\n<tool: function>\nterminal echo hi\n</tool>\n<tool: function>\nterminal echo bye\n</tool>\n',
  source: "https://github.com/vllm-project/vllm/blob/35cef65a8fd1de9729c27f2bcc5ab4877ef4b9c4/tests/tool_parsers/test_cwm_tool_parser.py",
  detect: (text) => text.includes("<tool:"),
  parse,
});
