/**
 * Llama 3.1 / 3.3 built-in tools (`llama3_builtin_python_tag`; llama.cpp `COMMON_CHAT_FORMAT_LLAMA_3_X_WITH_BUILTIN_TOOLS`):
 * `<|python_tag|>` followed by
 * - `tool.call(arg="…")` (brave_search, wolfram_alpha, code_interpreter …) → call `tool`;
 * - a Python call `f(a=1)` or call list `[f(a=1)]`;
 * - JSON `{"name", "parameters"}` objects, several joined by `;` (vLLM `llama3_json` strips the
 *   tag first);
 * - otherwise raw code → `python` with `{code}` (llama.cpp LLAMA_3_X_WITH_BUILTIN_TOOLS).
 * The body ends at `<|eom_id|>`, `<|eot_id|>` or the end of the text; the end token is removed.
 * Raw code that runs to the end of the text is cut (no call) when the server said the token limit
 * stopped the model (`endIsCut`).
 * Cut JSON yields no call.
 */
import { matchBalanced, parseJsonTolerant } from "../json.js";
import { parsePythonCallAt, parsePythonCallListAt } from "../python-literal.js";
import type { OfferedTool, ParseContext, RawCall } from "../types.js";
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { earliestFinder, skipWs } from "./text-scan.js";

const TAG = "<|python_tag|>";
const END_TOKENS = ["<|eom_id|>", "<|eot_id|>", TAG];

function fromPython(name: string, kwargs: Record<string, unknown>): RawCall {
  return { name: name.replace(/\.call$/, ""), arguments: kwargs };
}

/** Calls in a body, `[]` when it is cut/invalid JSON, `undefined` for raw code. */
function bodyCalls(body: string): RawCall[] | undefined {
  const t = body.trim();
  if (t.startsWith("{")) {
    const calls: RawCall[] = [];
    let i = body.indexOf("{");
    for (;;) {
      const m = matchBalanced(body, i);
      if (!m.ok) return [];
      const cs = callsFromValue(parseJsonTolerant(body.slice(i, m.end)));
      if (!cs) return [];
      calls.push(...cs);
      i = skipWs(body, m.end);
      if (body[i] === ";") i = skipWs(body, i + 1);
      if (i >= body.length) return calls;
      if (body[i] !== "{") return [];
    }
  }
  if (t.startsWith("[")) {
    const list = parsePythonCallListAt(body, 0);
    if (list && body.slice(list.end).trim() === "") return list.calls.map((c) => fromPython(c.name, c.kwargs));
  }
  const one = parsePythonCallAt(body, 0);
  if (one && one.call.positional.length === 0 && body.slice(one.end).trim() === "") return [fromPython(one.call.name, one.call.kwargs)];
  return undefined;
}

function parse(text: string, _tools: readonly OfferedTool[], context?: ParseContext) {
  const out = new MatchBuilder(text);
  let from = 0;
  const nextEnd = earliestFinder(text, END_TOKENS);
  for (;;) {
    const at = text.indexOf(TAG, from);
    if (at < 0) break;
    const bodyStart = at + TAG.length;
    const endTok = nextEnd(bodyStart);
    const bodyEnd = endTok ? endTok.index : text.length;
    const end = endTok && endTok.token !== TAG ? endTok.index + endTok.token.length : bodyEnd;
    const body = text.slice(bodyStart, bodyEnd);
    const calls = bodyCalls(body);
    if (calls === undefined) {
      // Raw code that the token limit stopped: cut, not run.
      if (!endTok && context?.endIsCut === true) {
        out.span(at, text.length);
        break;
      }
      if (body.trim() !== "") out.call({ name: "python", arguments: { code: body.trim() } }, at);
    } else {
      for (const c of calls) out.call(c, at);
    }
    out.span(at, end);
    from = end;
  }
  return out.result();
}

/** Dialect `llama3_builtin_python_tag`. */
export const llama3BuiltinPythonTag = defineDialect({
  family: "llama3_builtin_python_tag",
  example: "<|python_tag|>python.call(code=\"print('hey')\")",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: [TAG],
  detect: (text) => text.includes(TAG),
  parse,
});
