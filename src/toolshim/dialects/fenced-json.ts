/**
 * Markdown-fenced JSON and wrappers (`fenced_json`; llama.cpp `tests/test-chat.cpp` (HERMES_2_PRO fence fixtures), vLLM `xlam` tool parser): ```` ```json ````,
 * plain ```` ``` ````, ```` ```xml ```` around `<response>`, ```` ```json ```` around
 * `<function_call>` (llama.cpp HERMES_2_PRO tolerates all of them; ollama issue#13519).
 *
 * The fence is a weak marker (answers are full of JSON fences), so the body must be one call or a
 * list of calls with object arguments, optionally inside one wrapper tag, and every name must be
 * plausibly an offered tool (`tool-gate.ts`); an empty ```` ```json {}``` ```` stays
 * (`fence-empty-json-decoy`). The whole fence is removed. Unterminated fences count when the
 * JSON is complete. A fence labelled with another language (```` ```ts ````, ```` ```d ````) quotes
 * code: its JSON is not read (`fence.ts` `CALL_FENCE_LANGS`, as the inline-JSON stage does).
 */
import { parseJsonTolerant } from "../json.js";
import type { OfferedTool } from "../types.js";
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { CALL_FENCE_LANGS, findFences } from "./fence.js";
import { plausiblyOffered } from "./tool-gate.js";

const WRAPPED = /^<([\w:-]+)(?:\s[^>]*)?>([\s\S]*?)<\/\1>$/;
/** Fence languages that belong to other dialects. */
const OTHER_LANGS = new Set(["tool", "tool_code", "python", "py"]);

function parse(text: string, tools: readonly OfferedTool[]) {
  const out = new MatchBuilder(text);
  for (const f of findFences(text)) {
    // A fence labelled with a program's language quotes code (`CALL_FENCE_LANGS`).
    if (OTHER_LANGS.has(f.lang) || !CALL_FENCE_LANGS.has(f.lang)) continue;
    let body = text.slice(f.bodyStart, f.bodyEnd).trim();
    const wrapped = WRAPPED.exec(body);
    if (wrapped) body = wrapped[2]!.trim();
    if (body[0] !== "{" && body[0] !== "[") continue;
    const calls = callsFromValue(parseJsonTolerant(body), { requireArguments: true });
    if (!calls || !calls.every((c) => plausiblyOffered(c.name, tools))) continue;
    for (const c of calls) out.call(c, f.start);
    out.span(f.start, f.end);
  }
  return out.result();
}

/** Dialect `fenced_json`. */
export const fencedJson = defineDialect({
  family: "fenced_json",
  example: "```json\n\n                    <function_call> {\"name\": \"special_function\", \"arguments\": {\"arg1\": 1}} \n                    </function_call> \n``` ",
  source: "https://github.com/ggml-org/llama.cpp/blob/HEAD/tests/test-chat.cpp",
  markers: ["```"],
  detect: (text) => text.includes("```"),
  parse,
});
