/**
 * Continue's system-message tool blocks (`continue_tool_codeblock`; continuedev/continue `core/tools/systemMessageTools`;
 * Continue `core/tools/systemMessageTools`):
 * ```` ```tool\nTOOL_NAME: name\nBEGIN_ARG: key\nvalue\nEND_ARG\n``` ````.
 *
 * Only a ```` ```tool ```` fence counts (a quoted `TOOL_NAME:` in prose is not a call:
 * continuedev/continue issue#11070). Argument values are trimmed; a value that is a JSON array,
 * object or string is decoded (Continue JSON-parses values), other values stay text and the call
 * is `untyped` so the pipeline types them by the schema. An argument cut by the end of the text
 * (no `END_ARG`) yields no call, and so does a block without its closing fence when the server
 * said the token limit stopped the model (`endIsCut`: more arguments may have followed).
 */
import { parseJsonTolerant } from "../json.js";
import type { RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { findFences } from "./fence.js";

function decodeValue(raw: string): unknown {
  const t = raw.trim();
  if (/^[[{"]/.test(t)) {
    const v = parseJsonTolerant(t);
    if (v !== undefined) return v;
  }
  return t;
}

/** The call in a block body, `null` when cut, `undefined` when the body is not a tool block. */
function readBlock(body: string): RawCall | null | undefined {
  const head = /^\s*TOOL_NAME:[ \t]*(\S+)[ \t]*$/m.exec(body);
  if (!head || body.slice(0, head.index).trim() !== "") return undefined;
  const args: Record<string, unknown> = {};
  const re = /^[ \t]*BEGIN_ARG:[ \t]*(\S+)[ \t]*\r?\n([\s\S]*?)^[ \t]*END_ARG[ \t]*$/gm;
  let last = head.index + head[0].length;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body)) !== null) {
    if (body.slice(last, m.index).trim() !== "") return undefined;
    args[m[1]!] = decodeValue(m[2]!);
    last = m.index + m[0].length;
  }
  const rest = body.slice(last).trim();
  if (rest.startsWith("BEGIN_ARG:")) return null;
  if (rest !== "") return undefined;
  return { name: head[1]!, arguments: args, untyped: true };
}

/** Dialect `continue_tool_codeblock`. */
export const continueToolCodeblock = defineDialect({
  family: "continue_tool_codeblock",
  example: "```tool\nTOOL_NAME: test_tool\nBEGIN_ARG: json_array\n[\"first item\", \"second \\\"quoted\\\" item\", \"third\\nitem\"]\nEND_ARG\n```",
  source: "https://github.com/continuedev/continue/blob/HEAD/core/tools/systemMessageTools/complexToolCall.vitest.ts",
  markers: ["```tool"],
  detect: (text) => /```tool[ \t]*\r?\n/.test(text),
  parse(text, _tools, context) {
    const out = new MatchBuilder(text);
    for (const f of findFences(text)) {
      if (f.lang !== "tool") continue;
      const call = readBlock(text.slice(f.bodyStart, f.bodyEnd));
      if (call === undefined) continue;
      if (call === null || (!f.closed && context?.endIsCut === true)) {
        out.span(f.start, text.length);
        break;
      }
      out.call(call, f.start);
      out.span(f.start, f.end);
    }
    return out.result();
  },
});
