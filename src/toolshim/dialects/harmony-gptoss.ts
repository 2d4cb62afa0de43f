/**
 * gpt-oss Harmony channels (`harmony_gptoss`; openai/harmony response format, ollama `harmony/harmonyparser.go`, llama.cpp `COMMON_CHAT_FORMAT_GPT_OSS`; ollama
 * `harmony/harmonyparser.go`, llama.cpp GPT_OSS):
 * `<|channel|>analysis<|message|>…<|end|><|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{args}<|call|>`.
 *
 * Every message is markup-delimited, so this dialect accounts for the whole text:
 * - a message with a recipient (`to=…` in the channel header or in the role header, on any
 *   channel, analysis included) is a call; the `functions.` namespace is stripped from the
 *   recipient, and so are the `functions:`, `tool:` and `tools.` spellings models drift to
 *   (`to=tool:project-structure`), spaces around `=` and quotes around the name
 *   (`to= "create_artifact"`); other
 *   recipients such as `browser.search` are returned as written. A header without recipient whose
 *   `<|constrain|>` word is an offered tool name instead of a format (`<|channel|>final
 *   <|constrain|>create_artifact<|message|>{…}`) is a call to that tool when its body is a JSON
 *   object; a `json` glued to the name when
 *   `<|constrain|>` was lost (`functions.shelljson`, llama.cpp pull#15158) is dropped when the name
 *   without it is plausibly offered and the glued one is not; the terminator (`<|call|>`) may be
 *   missing at the end of the text; arguments cut by the end of the text yield no call; when the
 *   server said the token limit stopped the model (`endIsCut`), a body that runs to the end of
 *   the text is a call only when it is a whole JSON object (an empty body or raw code was cut);
 * - an `analysis` message without recipient is reasoning: removed whole and returned as
 *   `reasoning`;
 * - `commentary` (a preamble) and `final` messages without recipient keep their text; only their
 *   markers are removed.
 * - When the server skipped special tokens (`analysisWe need…assistantfinalfour`,
 *   Augustas11/macprovider issue#743; `commentary to=functions.get_weather json{…}`,
 *   Rapid-MLX issue#480), the same rules apply to the channel words glued to `assistant`.
 *   A message may also open with the recipient alone, the channel word lost too, and with
 *   a few stray tokens between the name and the arguments (` to=functions.x  (json 恒一\n{…}`,
 *   timbal-ai/timbal pull#163; `to=functions.saveAnswer  天天中彩票能json\n{…}`, livekit/agents-js
 *   issue#1632): up to 24 characters on the name's line, then the JSON object.
 * - Glimmer (ollama `model/parsers/glimmer.go`) writes the same messages without channels:
 *   `<|start|>assistant to=NAME<|message|><atem:function_calls><atem:invoke name="NAME">
 *   <atem:parameter name="k">v</atem:parameter></atem:invoke></atem:function_calls><|eom|>`, ending
 *   them with `<|eom|>`/`<|eot|>`. Its first header opens the text (` to=NAME<|message|>`: the
 *   template's `<|start|>assistant` ended the prompt); `to=self` is thinking and `to=user` the
 *   answer (unless a tool has that name). A body that is an invoke block (any tag namespace,
 *   `invoke-block.ts` rules) names its calls itself, whatever recipient the header gave (the
 *   namespace, `user`, the wrapper tag, none); a message token written inside one of its values
 *   is text when the block's closer, then a message token or the end, follows.
 */
import { isPlainObject, matchBalanced, parseJsonTolerant } from "../json.js";
import { resolveToolName } from "../names.js";
import type { OfferedTool, RawCall } from "../types.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { type InvokeTags, scanInvokeBlocks } from "./invoke-block.js";
import { earliestFinder, skipWs } from "./text-scan.js";
import { plausiblyOffered } from "./tool-gate.js";

const START = "<|start|>";
const CHANNEL = "<|channel|>";
const MESSAGE = "<|message|>";
const CONSTRAIN = "<|constrain|>";
/** Message ends: gpt-oss's, and the `<|eom|>`/`<|eot|>` of its Glimmer variant (ollama `model/parsers/glimmer.go`). */
const ENDS = ["<|end|>", "<|call|>", "<|return|>", "<|eom|>", "<|eot|>"];
/**
 * A first message whose `<|start|>assistant` was the end of the prompt (the template writes it), so
 * the text opens with the rest of its header: ` to=NAME<|message|>` or `<|message|>` alone.
 */
const HEADLESS = /^\s*(?:to\s*=\s*[^\s<]+\s*)?<\|message\|>/;
/** An ATEM/Claude-style block as a message body: `<atem:function_calls><atem:invoke name=…>` (any tag namespace). */
const INVOKE_TAGS: InvokeTags = { prefix: "[A-Za-z][\\w-]*:", optionalPrefix: true };
const INVOKE_BODY = /\s*<((?:[A-Za-z][\w-]*:)?)function_calls\s*>\s*(?=<(?:[A-Za-z][\w-]*:)?invoke\b)/y;

/** The recipient in a message header: `to=NAME`, `to = NAME`, `to="NAME"`, a namespace before it. */
const RECIPIENT = /\bto\s*=\s*["']?((?:(?:functions|tools?)\s*[.:]\s*)?[^\s<"']+)/;

function recipientName(recipient: string, constrained: boolean, tools: readonly OfferedTool[]): string {
  let name = recipient.replace(/^(?:functions|tools?)\s*[.:]\s*/, "");
  if (!constrained && /json$/.test(name)) {
    const bare = name.slice(0, -4);
    if (bare !== "" && plausiblyOffered(bare, tools) && !plausiblyOffered(name, tools)) name = bare;
  }
  return name;
}

/**
 * The call in a message body, `null` when the JSON is cut, `undefined` when it is not an object.
 * gpt-oss's built-in `python` tool takes raw code as its body (`to=python code`); that becomes
 * `{code}` (as Functionary's `python`), so that the pipeline can refuse or run it by name.
 */
function bodyCall(name: string, body: string): RawCall | null | undefined {
  const t = body.trim();
  if (t === "") return { name, arguments: {} };
  if (t[0] === "{" && !matchBalanced(t, 0).ok) return null;
  const value = parseJsonTolerant(t);
  if (isPlainObject(value)) return { name, arguments: value };
  return name === "python" && t[0] !== "{" ? { name, arguments: { code: t } } : undefined;
}

function parseTokens(text: string, tools: readonly OfferedTool[], out: MatchBuilder, endIsCut: boolean): void {
  let pos = 0;
  // Each token is searched once past each point (a token absent after many messages used to be
  // searched to the end of the text once per message).
  const nextHeader = earliestFinder(text, [START, CHANNEL]);
  const nextStop = earliestFinder(text, [...ENDS, START, CHANNEL]);
  let headless = HEADLESS.test(text);
  const closerFinders = new Map<string, ReturnType<typeof earliestFinder>>();
  for (;;) {
    const h = headless ? { index: 0 } : nextHeader(pos);
    headless = false;
    if (!h) break;
    const msg = text.indexOf(MESSAGE, h.index);
    if (msg < 0) {
      out.span(h.index, text.length); // header cut by the end of the text
      break;
    }
    const header = text.slice(h.index, msg);
    const bodyStart = msg + MESSAGE.length;
    let stop = nextStop(bodyStart);
    INVOKE_BODY.lastIndex = bodyStart;
    const block = INVOKE_BODY.exec(text);
    if (block && stop) {
      // A message token inside an argument value (`<atem:parameter name="text">a <|eot|> b`) is
      // text: the block runs to its own closer when a message token (or the end) follows that.
      const closer = `</${block[1]!}function_calls>`;
      let find = closerFinders.get(closer);
      if (!find) closerFinders.set(closer, (find = earliestFinder(text, [closer])));
      const c = find(bodyStart);
      if (c && c.index > stop.index) {
        const after = skipWs(text, c.index + closer.length, text.length);
        const next = nextStop(after);
        if (after === text.length) stop = undefined;
        else if (next?.index === after) stop = next;
      }
    }
    const bodyEnd = stop ? stop.index : text.length;
    const end = stop && ENDS.includes(stop.token) ? stop.index + stop.token.length : bodyEnd;
    const body = text.slice(bodyStart, bodyEnd);
    const channel = /<\|channel\|>\s*([\w-]+)/.exec(header)?.[1] ?? "";
    // The tool a `<|constrain|>` names when the recipient was left out (never the `json` format word).
    const constrainedTo = /<\|constrain\|>\s*([\w.:-]+)/.exec(header)?.[1];
    const toConstrained =
      constrainedTo !== undefined && !/^json$/i.test(constrainedTo) && body.trimStart().startsWith("{") && resolveToolName(constrainedTo, tools) !== undefined
        ? constrainedTo
        : undefined;
    const recipient = RECIPIENT.exec(header)?.[1] ?? toConstrained;
    // Glimmer's own recipients: `self` (thinking) and `user` (the answer), unless a tool has that name.
    const own = recipient !== undefined && /^(?:self|user)$/.test(recipient) && resolveToolName(recipient, tools) === undefined ? recipient : undefined;
    if (block) {
      // An ATEM block names its tools itself, whatever the header says (a recipient that is the
      // namespace, the user, the wrapper tag, or none: the fumbles ollama's Glimmer parser accepts).
      const part = new MatchBuilder();
      scanInvokeBlocks(body, INVOKE_TAGS, part, endIsCut && !stop);
      out.absorb(part, bodyStart);
      out.markup(h.index, bodyStart);
      out.markup(bodyEnd, end);
    } else if (own === "self") {
      out.markup(h.index, end);
      out.reasoning.push(body);
    } else if (own === "user") {
      out.markup(h.index, bodyStart);
      out.markup(bodyEnd, end);
    } else if (recipient) {
      const name = recipientName(recipient, header.includes(CONSTRAIN), tools);
      // A body the token limit stopped is whole only when it is a closed JSON object.
      const cut = endIsCut && !stop && !body.trimStart().startsWith("{");
      const call = cut ? null : bodyCall(name, body);
      if (call === null) {
        out.unreadable(h.index, "its arguments are cut off by the end of the text", name);
        out.span(h.index, text.length);
        break;
      }
      if (call) out.call(call, h.index);
      out.span(h.index, end);
    } else if (channel === "analysis") {
      out.markup(h.index, end);
      out.reasoning.push(body);
    } else {
      out.markup(h.index, bodyStart);
      out.markup(bodyEnd, end);
    }
    pos = end;
  }
}

/**
 * A recipient header without special tokens, up to its JSON object: the name, then (on its line)
 * at most 24 characters of `<|constrain|>json`, `json` or stray tokens, then the object.
 */
const SOUP_RECIPIENT = /^\s*to=\s?((?:functions|tools?)[.:][\w.-]+)[^\S\n]*(?:<\|constrain\|>)?[^\n{}]{0,24}?(?:\n\s*)?(?=\{)/;
/** The soup's message heads: channel words at the start or glued to `assistant`, or a recipient opening the text. */
const SOUP_HEAD = /(^\s*|assistant)(analysis|commentary|final)|^(\s*)(?=to=\s?(?:functions|tools?)[.:])/g;

/** Harmony text whose special tokens were stripped: channel words glued to `assistant`. */
function parseSoup(text: string, tools: readonly OfferedTool[], out: MatchBuilder): void {
  const heads = [...text.matchAll(SOUP_HEAD)];
  for (let k = 0; k < heads.length; k++) {
    const m = heads[k]!;
    const start = m.index;
    const next = heads[k + 1]?.index ?? text.length;
    const headEnd = m.index + m[0].length;
    const channel = m[2] ?? "commentary";
    const to = SOUP_RECIPIENT.exec(text.slice(headEnd, next));
    if (to) {
      const at = headEnd + to[0].length;
      const bm = matchBalanced(text, at);
      if (!bm.ok) {
        out.span(start, text.length);
        return;
      }
      // A `json` glued to the name is dropped as when `<|constrain|>` was lost.
      const call = bodyCall(recipientName(to[1]!, false, tools), text.slice(at, bm.end));
      if (call) out.call(call, start);
      out.span(start, bm.end);
    } else if (channel === "analysis") {
      out.markup(start, next);
      out.reasoning.push(text.slice(headEnd, next));
    } else {
      out.markup(start, headEnd);
    }
  }
}

/** Dialect `harmony_gptoss`. */
export const harmonyGptoss = defineDialect({
  family: "harmony_gptoss",
  example: "<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>commentary<|message|>Hello, world!\nWhat's up?<|end|><|start|>assistant<|channel|>commentary to=functions.special_function <|constrain|>json<|message|>{\"arg1\": 1}",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: [CHANNEL, START],
  detect: (text) =>
    text.includes(CHANNEL) ||
    HEADLESS.test(text) ||
    /^\s*analysis[\s\S]*assistant(?:final|commentary)/.test(text) ||
    /(?:^\s*|assistant)commentary\s+to=\s?(?:functions|tools?)[.:]/.test(text) ||
    SOUP_RECIPIENT.test(text),
  parse(text, tools, context) {
    const out = new MatchBuilder(text);
    if (text.includes(CHANNEL) || text.includes(START) || HEADLESS.test(text)) parseTokens(text, tools, out, context?.endIsCut === true);
    else parseSoup(text, tools, out);
    return out.result();
  },
});
