/**
 * GLM-4.5/4.6/4.7 (`glm45_arg_kv`; vLLM `glm45` tool parser, llama.cpp `COMMON_CHAT_FORMAT_GLM_4_5`):
 * `<tool_call>NAME\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>\n…</tool_call>`; GLM-4.7 drops
 * the line breaks.
 *
 * - Values are untyped text (`untyped: true`), typed later by the tool schema (a JSON array in an
 *   `<arg_value>` needs an array schema, `glm46-todowrite-real`).
 * - The closer is required: an unterminated block is incomplete and yields no call (vLLM and
 *   ollama reject it: `glm45-incomplete`, `glm46-undeclared-unterminated`); its markup from the
 *   opener on is removed.
 * - A `<tool_call>` whose body starts with JSON or `<function=` belongs to Hermes or Qwen3-Coder,
 *   and a first line that is not a single name (`<tool_call>nah uhg</tool_call>`) is not a call.
 * - K2 Horizon (vLLM `k2_horizon` tool parser) writes the same grammar with every tag in its
 *   `ifm|` namespace (`<ifm|tool_call>NAME<ifm|arg_key>k</ifm|arg_key><ifm|arg_value>v</ifm|arg_value>`),
 *   optionally with an `<ifm|arg_type>` between key and value: any short `x|` or `x:` tag prefix
 *   is read, the same on every tag of the call; the type tag is skipped (the schema types values).
 * - Without any `<arg_key>` (a zero-argument call `<tool_call>NAME</tool_call>`) the name must
 *   be glued to both tags as the template writes it, or be one that could be an offered tool
 *   (`tool-gate.ts`) or a side-effect tool (refused later): prose that names the tags
 *   (`between <tool_call> and </tool_call> tags`) is not a call.
 */
import { isSideEffectToolName } from "../policy.js";
import type { OfferedTool, RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { escapeRegExp } from "./text-scan.js";
import { plausiblyOffered } from "./tool-gate.js";

/** The call tag, with an optional tag namespace (`<ifm|tool_call>`): group 1. */
const OPEN_TAG = /<((?:[a-z]{1,12}[|:])?)tool_call>/g;
const NAME = /^[^\s<>{}[\]"'`]+$/u;

/**
 * An `<arg_value>`'s text. The template glues the value to its tags, so its whitespace is data and
 * is kept (a code body's indent and last line break: vLLM `poolside_v1` and `glm4_moe` parsers
 * since vllm-project/vllm pull#42026, sglang pull#20543 and pull#20662); the schema types and trims
 * a non-string value later. Only a value laid out on lines of its own (`<arg_value>\n…\n</arg_value>`:
 * a line break right after the opener and right before the closer) loses those two line breaks.
 */
function glmValue(raw: string): string {
  const lead = /^[ \t]*\r?\n/.exec(raw);
  const trail = /\r?\n[ \t]*$/.exec(raw);
  return lead && trail && lead[0].length <= trail.index ? raw.slice(lead[0].length, trail.index) : raw;
}

/** Read `<arg_key>/<arg_value>` pairs (tags in namespace `ns`); `undefined` when the body has anything else. */
function readPairs(body: string, ns: string): Record<string, string> | undefined {
  const args: Record<string, string> = {};
  const p = escapeRegExp(ns);
  const re = new RegExp(
    `\\s*<${p}arg_key>([\\s\\S]*?)</${p}arg_key>\\s*(?:<${p}arg_type>[^<>]*</${p}arg_type>\\s*)?<${p}arg_value>([\\s\\S]*?)</${p}arg_value>`,
    "y",
  );
  let i = 0;
  for (;;) {
    re.lastIndex = i;
    const m = re.exec(body);
    if (!m) break;
    args[m[1]!.trim()] = glmValue(m[2]!);
    i = re.lastIndex;
  }
  return body.slice(i).trim() === "" ? args : undefined;
}

function parse(text: string, tools: readonly OfferedTool[]) {
  const out = new MatchBuilder(text);
  let from = 0;
  // The next closer and `<arg_key>` of each namespace are searched again only once the scan has
  // passed them (many openers without a closer cost one pass, not one each).
  const memo = new Map<string, { close: number; key: number }>();
  for (;;) {
    OPEN_TAG.lastIndex = from;
    const open = OPEN_TAG.exec(text);
    if (!open) break;
    const at = open.index;
    const ns = open[1]!;
    const CLOSE = `</${ns}tool_call>`;
    const bodyStart = at + open[0].length;
    let m = memo.get(ns);
    if (!m) memo.set(ns, (m = { close: -2, key: -2 }));
    if (m.close !== -1 && m.close < bodyStart) m.close = text.indexOf(CLOSE, bodyStart);
    if (m.key !== -1 && m.key < bodyStart) m.key = text.indexOf(`<${ns}arg_key>`, bodyStart);
    const nextClose = m.close;
    const nextKey = m.key;
    const close = nextClose;
    const bodyEnd = close >= 0 ? close : text.length;
    const keyAbs = nextKey >= 0 && nextKey < bodyEnd ? nextKey : -1;
    const headEnd = keyAbs >= 0 ? keyAbs : bodyEnd;
    // A tool name is short: a longer head is not this format.
    if (headEnd - bodyStart > 400) {
      from = bodyStart;
      continue;
    }
    const body = keyAbs >= 0 ? "" : text.slice(bodyStart, bodyEnd);
    const keyAt = keyAbs >= 0 ? keyAbs - bodyStart : -1;
    const head = text.slice(bodyStart, headEnd).trim();
    const zeroArgName = keyAt < 0 && (body === head || plausiblyOffered(head, tools) || isSideEffectToolName(head));
    const glmShaped = NAME.test(head) && (keyAt >= 0 || (close >= 0 && zeroArgName)) && !head.startsWith("<");
    if (!glmShaped) {
      from = bodyStart;
      continue;
    }
    if (close < 0) {
      out.span(at, text.length); // unterminated: no call
      break;
    }
    const args = readPairs(keyAt >= 0 ? text.slice(keyAbs, bodyEnd) : "", ns);
    if (args) {
      const call: RawCall = { name: head, arguments: args, untyped: true };
      out.call(call, at);
    }
    out.span(at, close + CLOSE.length);
    from = close + CLOSE.length;
  }
  return out.result();
}

/** Dialect `glm45_arg_kv`. */
export const glm45ArgKv = defineDialect({
  family: "glm45_arg_kv",
  example: "<tool_call>TodoWrite\n<arg_key>todos</arg_key>\n<arg_value>[{\"content\": \"Set up HTML file and basic structure\", \"id\": \"1\", \"priority\": \"high\", \"status\": \"pending\"}, {\"content\": \"Create 3D scene with Three.js\", \"id\": \"2\", \"priority\": \"high\", \"status\": \"pending\"}, {\"content\": \"Implement terrain generation with blocks\", \"id\": \"3\", \"priority\": \"high\", \"status\": \"pending\"}, {\"content\": \"Add player controls (movement, camera)\", \"id\": \"4\", \"priority\": \"high\", \"status\": \"pending\"}, {\"content\": \"Implement block placement/destruction\", \"id\": \"5\", \"priority\": \"medium\", \"status\": \"pending\"}, {\"content\": \"Add lighting and textures\", \"id\": \"6\", \"priority\": \"medium\", \"status\": \"pending\"}, {\"content\": \"Test and optimize performance\", \"id\": \"7\", \"priority\": \"low\", \"status\": \"pending\"}]</arg_value>\n</tool_call>",
  source: "https://github.com/ollama/ollama/blob/HEAD/model/parsers/glm46_test.go",
  markers: ["<tool_call>", "<ifm|tool_call"],
  detect: (text) => text.includes("tool_call>"),
  parse,
});
