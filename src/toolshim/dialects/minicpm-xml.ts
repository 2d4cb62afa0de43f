/**
 * MiniCPM 5 XML (`minicpm_xml`; vLLM `--tool-call-parser minicpm5`):
 * `<function name="NAME"><param name="KEY">value</param>…</function>`, prose around, several
 * blocks per message. Tokenizer drift is tolerated as vLLM's tests show it: the byte-level space
 * `Ġ` (U+0120) instead of the space, or no space at all (`<functionname="…">`,
 * `<paramname="…">`); a `<![CDATA[…]]>` value is unwrapped. Values are untyped text, typed by the
 * tool schema.
 *
 * The tag has no wrapper, so a block counts only when its name could be an offered tool (or is a
 * side-effect name, which the pipeline refuses); otherwise it is prose and stays. A block whose
 * body is JSON is Hermes wrapper drift (`hermes-wrapper-variant.ts`), not this dialect. A block
 * cut by the end of the text, a `<param>` without a name, or a parameter written twice is
 * unreadable: no call (the pipeline's broken-block rule then refuses it).
 */
import { isSideEffectToolName } from "../policy.js";
import type { OfferedTool } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { plausiblyOffered } from "./tool-gate.js";
import { cleanXmlValue, parseAttributes } from "./text-scan.js";

const SEP = "(?:\\s|\\u0120)*";
const FUNCTION_OPEN = new RegExp(`<function${SEP}(name${SEP}=${SEP}(?:"[^"\\n]*"|'[^'\\n]*'))${SEP}>`, "g");
const PARAM_OPEN = new RegExp(`<param${SEP}([^<>]*)>`, "y");
const CLOSE = "</function>";

function attrs(raw: string): Record<string, string> {
  return parseAttributes(raw.replace(/\u0120/g, " "));
}

function parse(text: string, tools: readonly OfferedTool[]) {
  const out = new MatchBuilder(text);
  FUNCTION_OPEN.lastIndex = 0;
  for (let m = FUNCTION_OPEN.exec(text); m; m = FUNCTION_OPEN.exec(text)) {
    const name = attrs(m[1]!)["name"]?.trim() ?? "";
    const start = m.index;
    let i = m.index + m[0].length;
    while (i < text.length && /\s/.test(text[i]!)) i++;
    // A JSON body is Hermes wrapper drift; anything else that is not a parameter is not ours.
    if (!(text.startsWith(CLOSE, i) || text.startsWith("<param", i))) continue;
    if (!(plausiblyOffered(name, tools) || isSideEffectToolName(name))) continue;
    const params: Record<string, string> = {};
    let problem: string | undefined;
    let end = -1;
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (i >= text.length) break;
      if (text.startsWith(CLOSE, i)) {
        end = i + CLOSE.length;
        break;
      }
      PARAM_OPEN.lastIndex = i;
      const p = PARAM_OPEN.exec(text);
      if (!p) {
        problem = "text between the parameters is not a <param> element";
        const c = text.indexOf(CLOSE, i);
        end = c < 0 ? text.length : c + CLOSE.length;
        break;
      }
      const key = attrs(p[0].slice("<param".length, -1))["name"]?.trim();
      const valueStart = PARAM_OPEN.lastIndex;
      const close = text.indexOf("</param>", valueStart);
      if (close < 0) break;
      if (!key) problem ??= "a <param> has no name";
      else if (key in params) problem ??= `the parameter ${JSON.stringify(key)} is written twice`;
      else {
        const raw = text.slice(valueStart, close);
        const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(raw);
        params[key] = cdata ? cdata[1]! : cleanXmlValue(raw);
      }
      i = close + "</param>".length;
    }
    if (end < 0) {
      out.unreadable(start, "the function block is cut off before </function>", name);
      out.span(start, text.length);
      break;
    }
    if (problem) out.unreadable(start, problem, name);
    else out.call({ name, arguments: params, untyped: true }, start);
    out.span(start, end);
    FUNCTION_OPEN.lastIndex = end;
  }
  return out.result();
}

/** Dialect `minicpm_xml`. */
export const minicpmXml = defineDialect({
  family: "minicpm_xml",
  markers: ["<function name=", "<functionname=", "<function\u0120name="],
  example:
    'Intro before.\n<function name="get_weather"><param name="city">上海</param><param name="date">2024-06-27</param></function>\nOutro after.\n',
  source: "https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_minicpm5xml_tool_parser.py",
  detect: (text) => /<function(?:\s|\u0120)*name/.test(text) && /<param|<\/function>/.test(text),
  parse,
});
