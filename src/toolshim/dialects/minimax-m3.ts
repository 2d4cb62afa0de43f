/**
 * MiniMax-M3 (`minimax_m3`; vLLM `--tool-call-parser minimax_m3`): every tag carries the vendor
 * prefix `]<]minimax[>[`, and arguments are nested elements named after the parameters:
 * `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="NAME">]<]minimax[>[<city>Paris]<]minimax[>[</city>…]<]minimax[>[</invoke>]<]minimax[>[</tool_call>`.
 * A parameter with child elements is an object, or a list when its schema says `array`
 * (`<item>` children); a tag repeated inside one parent becomes a list. Leaf values are untyped
 * text, typed by the tool schema (`RawCall.untyped`). Several invokes per block are several
 * calls; the block's closer may be missing at the end of the text; an invoke cut by the end of
 * the text yields no call and the block is removed from its opener on.
 */
import { resolveToolName } from "../names.js";
import type { OfferedTool } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanWrapperBlocks } from "./wrapper-block.js";
import { elementsToObject, readElement } from "./xml-elements.js";

const NS = "]<]minimax[>[";
const OPEN = `${NS}<tool_call>`;
const INVOKE = `${NS}<invoke`;

function parse(text: string, tools: readonly OfferedTool[]) {
  const out = new MatchBuilder(text);
  scanWrapperBlocks(text, { open: OPEN, close: `${NS}</tool_call>` }, out, ({ bodyStart, bodyEnd }) => {
    for (let i = text.indexOf(INVOKE, bodyStart); i >= 0 && i < bodyEnd; ) {
      const r = readElement(text, i, NS, bodyEnd);
      const name = /^\S*<invoke\s+name="([^"]*)"/.exec(text.slice(i, i + 200))?.[1];
      if (!r.ok) {
        out.unreadable(i, r.reason === "truncated" ? "the invoke is cut off before its closing tag" : "the invoke's elements do not close", name);
        return r.reason === "truncated" ? "truncated" : "complete";
      }
      const el = r.element;
      const callName = el.attrs["name"]?.trim();
      if (el.tag === "invoke" && callName) {
        const resolved = resolveToolName(callName, tools);
        const schema = resolved === undefined ? undefined : tools.find((t) => t.name === resolved)?.parameters;
        out.call({ name: callName, arguments: elementsToObject(el.children, schema), untyped: true }, i);
      }
      i = text.indexOf(INVOKE, el.end);
    }
    return "complete";
  });
  return out.result();
}

/** Dialect `minimax_m3`. */
export const minimaxM3 = defineDialect({
  family: "minimax_m3",
  markers: [OPEN, NS],
  example: `${NS}<tool_call>\n${NS}<invoke name="create_order">${NS}<user_id>1${NS}</user_id>${NS}</invoke>\n${NS}<invoke name="create_order">${NS}<user_id>2${NS}</user_id>${NS}</invoke>\n${NS}</tool_call>`,
  source: "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_minimax_m3_tool_parser.py",
  detect: (text) => text.includes(OPEN),
  parse,
});
