/**
 * The dialect registry: one parser per text format family (the `family` names of
 * `test/fixtures/toolcalls.jsonl`; vLLM = vllm-project/vllm `vllm/tool_parsers/`, llama.cpp =
 * ggml-org/llama.cpp `common/chat.cpp` `COMMON_CHAT_FORMAT_*`, ollama = ollama/ollama `model/parsers/`), in the order the pipeline should try them.
 *
 * Order (most specific markers first):
 * 1. Special-token formats whose markers cannot occur in prose: Harmony, Kimi K2, Kimi K3 XTML, DeepSeek V3
 *    then V3.1 (V3 bodies carry a type word and a fence; each version skips the other's bodies),
 *    DeepSeek V3.2 DSML, Step3, MiniMax-M2, Claude-style `<function_calls><invoke>` XML, Seed-OSS,
 *    Cohere, Apertus, InternLM2, LFM2, Gemma 4, FunctionGemma, Llama 3.1 `<|python_tag|>`, OLMo 3
 *    (same `<function_calls>` tag as the Claude style, Python bodies only), Nemotron; then the
 *    vendor tags LongCat `<longcat_tool_call>`, CWM `<tool: function>`, LM Studio `[TOOL_REQUEST]`, bracket-arrow
 *    `[TOOL_CALL]{tool => …}`, GigaChat
 *    `function call<|role_sep|>`; MiniMax-M3 (prefixed tags) sits next to MiniMax-M2.
 * 2. Command R/R+ `Action:` + a fenced list (its label goes with the fence), then fenced JSON (before the tag formats, because the fence may wrap a tag: ```` ```json
 *    <function_call>{…}</function_call>``` ````; gated on offered names like group 4).
 * 3. The `<tool_call>` family, specific body shapes before the generic one: Phi-4-mini
 *    (`<|tool_call|>…<|/tool_call|>`) then Granite (`<|tool_call|>`, `<tool_call>[…]`), attribute-style `<tool_call name=…>`, Qwen3-Coder XML,
 *    Functionary v3.1 (`<function=…>{json}`), GLM (`<tool_call>NAME<arg_key>`), Hermes JSON.
 * 4. Other tag/marker envelopes: MiniMax-M1 (`<tool_calls>` + one JSON object per line) before
 *    Jamba then Hunyuan (same envelope; Jamba defers to Hunyuan when
 *    Hunyuan's `<answer>` tags are present), Sarashina `<|tool_calls|>`, Mistral JSON list then
 *    Mistral v11 (`[TOOL_CALLS]` + `[`/`{` versus a name), `functools[…]`, Hermes wrapper drift
 *    (`<function name="x">{json}`) then MiniCPM (`<function name="x"><param …>`, gated on names).
 * 5. Weak or no markers, gated on plausibly offered tool names (`tool-gate.ts`): Continue
 *    ```` ```tool ```` blocks, pythonic lists, xLAM bare lists, Functionary v3.2,
 *    Llama 3 `{"name", "parameters"}` JSON. Bare `{"name", "arguments"}` JSON is the pipeline's
 *    inline JSON stage, not a dialect.
 *
 * Dialects overlap by design (the same markup can be read by several families: Granite and Hermes
 * on `<tool_call>[…]`, Mistral v3 and xLAM on `[TOOL_CALLS][…]`, fenced JSON and xLAM on fenced
 * lists, Jamba and Hunyuan), so never add up the calls of every dialect: use
 * {@link parseWithDialects}, which keeps a later match only when none of its spans overlaps a span
 * already taken (this still lets one turn mix formats, unsloth pull#5704), and which also removes
 * a Markdown fence that removed markup left empty.
 */
import type { Dialect, DialectMatch, OfferedTool } from "../types.js";
import { apertusToolsPrefix } from "./apertus-tools-prefix.js";
import { bracketArrowToolCall } from "./bracket-arrow-tool-call.js";
import { claudeXmlInvoke } from "./claude-xml-invoke.js";
import { cohereAction } from "./cohere-action.js";
import { commandRActionFence } from "./command-r-action-fence.js";
import { continueToolCodeblock } from "./continue-tool-codeblock.js";
import { cwmToolTag } from "./cwm-tool-tag.js";
import { deepseekV3 } from "./deepseek-v3.js";
import { deepseekV31 } from "./deepseek-v31.js";
import { deepseekV32Dsml } from "./deepseek-v32-dsml.js";
import { findFences } from "./fence.js";
import { fencedJson } from "./fenced-json.js";
import { functionaryV31FunctionTag } from "./functionary-v3-1-function-tag.js";
import { functionaryV32 } from "./functionary-v3-2.js";
import { functiongemma } from "./functiongemma.js";
import { functoolsList } from "./functools-list.js";
import { gemma4ToolCall } from "./gemma4-tool-call.js";
import { gigachat3 } from "./gigachat3.js";
import { glm45ArgKv } from "./glm45-arg-kv.js";
import { graniteToolCall } from "./granite-tool-call.js";
import { phi4MiniToolCall } from "./phi4-mini-tool-call.js";
import { harmonyGptoss } from "./harmony-gptoss.js";
import { hermesJson } from "./hermes-json.js";
import { hermesWrapperVariant } from "./hermes-wrapper-variant.js";
import { hunyuanToolCalls } from "./hunyuan-tool-calls.js";
import { internlm2Action } from "./internlm2-action.js";
import { jambaToolCalls } from "./jamba-tool-calls.js";
import { kimiK2 } from "./kimi-k2.js";
import { kimiK3Xtml } from "./kimi-k3-xtml.js";
import { lfm2ToolCallTokens } from "./lfm2-tool-call-tokens.js";
import { llama3BuiltinPythonTag } from "./llama3-builtin-python-tag.js";
import { llama3Json } from "./llama3-json.js";
import { lmstudioToolRequest } from "./lmstudio-tool-request.js";
import { longcatToolCall } from "./longcat-tool-call.js";
import { minicpmXml } from "./minicpm-xml.js";
import { minimaxM1ToolCalls } from "./minimax-m1-tool-calls.js";
import { minimaxM2Invoke } from "./minimax-m2-invoke.js";
import { minimaxM3 } from "./minimax-m3.js";
import { mistralV11Args } from "./mistral-v11-args.js";
import { mistralV3JsonArray } from "./mistral-v3-json-array.js";
import { nemotronToolcall } from "./nemotron-toolcall.js";
import { olmo3FunctionCalls } from "./olmo3-function-calls.js";
import { pythonDictList } from "./python-dict-list.js";
import { pythonic } from "./pythonic.js";
import { qwen3CoderXml } from "./qwen3-coder-xml.js";
import { seedOss } from "./seed-oss.js";
import { solarOpen2ToolArg } from "./solar-open2-tool-arg.js";
import { step3Steptml } from "./step3-steptml.js";
import { toolCallAttrJson } from "./tool-call-attr-json.js";
import { xlamJsonList } from "./xlam-json-list.js";

/** Every dialect, in the order to try them (see the module comment). */
export const DIALECTS: readonly Dialect[] = [
  harmonyGptoss,
  kimiK2,
  kimiK3Xtml,
  solarOpen2ToolArg,
  deepseekV3,
  deepseekV31,
  deepseekV32Dsml,
  step3Steptml,
  minimaxM2Invoke,
  minimaxM3,
  claudeXmlInvoke,
  seedOss,
  cohereAction,
  apertusToolsPrefix,
  internlm2Action,
  lfm2ToolCallTokens,
  gemma4ToolCall,
  functiongemma,
  llama3BuiltinPythonTag,
  olmo3FunctionCalls,
  nemotronToolcall,
  longcatToolCall,
  cwmToolTag,
  lmstudioToolRequest,
  bracketArrowToolCall,
  gigachat3,
  commandRActionFence,
  fencedJson,
  phi4MiniToolCall,
  graniteToolCall,
  toolCallAttrJson,
  qwen3CoderXml,
  functionaryV31FunctionTag,
  glm45ArgKv,
  hermesJson,
  minimaxM1ToolCalls,
  jambaToolCalls,
  hunyuanToolCalls,
  pythonDictList,
  mistralV3JsonArray,
  mistralV11Args,
  functoolsList,
  hermesWrapperVariant,
  minicpmXml,
  continueToolCodeblock,
  pythonic,
  xlamJsonList,
  functionaryV32,
  llama3Json,
];

/** The dialect for a corpus family name, if any. */
export function dialectFor(family: string): Dialect | undefined {
  return DIALECTS.find((d) => d.family === family);
}

/** One dialect's accepted match. */
export interface DialectHit {
  family: string;
  match: DialectMatch;
  /** The dialect's `callsInReasoning` flag, for the reasoning policy. */
  callsInReasoning: boolean;
}

function overlaps(a: DialectMatch, taken: readonly { start: number; end: number }[]): boolean {
  return a.spans.some((s) => taken.some((t) => s.start < t.end && t.start < s.end));
}

/**
 * A Markdown fence whose body is entirely removed markup goes with it (a ```` ```xml ```` fence
 * around a `<tool_call>` block must not leave two empty fence lines behind). The fence's span is
 * added to the hit that removed markup inside it.
 */
function absorbEmptiedFences(text: string, hits: DialectHit[]): void {
  if (!text.includes("```")) return;
  for (const f of findFences(text)) {
    const owner = hits.find((h) => h.match.spans.some((s) => s.start >= f.bodyStart && s.end <= f.bodyEnd));
    if (!owner) continue;
    const inside = hits.flatMap((h) => h.match.spans).filter((s) => s.start >= f.bodyStart && s.end <= f.bodyEnd);
    let rest = "";
    let at = f.bodyStart;
    for (const s of [...inside].sort((a, b) => a.start - b.start)) {
      rest += text.slice(at, Math.max(at, s.start));
      at = Math.max(at, s.end);
    }
    rest += text.slice(at, f.bodyEnd);
    if (rest.trim() !== "") continue;
    const spans = [...owner.match.spans, { start: f.start, end: f.end }].sort((a, b) => a.start - b.start);
    const merged: { start: number; end: number }[] = [];
    for (const s of spans) {
      const last = merged[merged.length - 1];
      if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
      else merged.push({ ...s });
    }
    owner.match = { ...owner.match, spans: merged };
  }
}

/**
 * Run `dialects` in order over `text` and keep every match that does not overlap an earlier
 * accepted one. Matches with no calls (markup holding no valid call: a cut body, stray markers)
 * are kept too, so their spans are removed. A fence emptied by removed markup is removed too.
 *
 * @returns accepted matches in dialect order; calls inside each are in text order. Never throws.
 */
export function parseWithDialects(
  text: string,
  tools: readonly OfferedTool[],
  dialects: readonly Dialect[] = DIALECTS,
): DialectHit[] {
  const hits: DialectHit[] = [];
  const taken: { start: number; end: number }[] = [];
  for (const d of dialects) {
    if (!d.detect(text)) continue;
    const match = d.parse(text, tools);
    if (!match || (match.calls.length === 0 && match.spans.length === 0)) continue;
    if (overlaps(match, taken)) continue;
    hits.push({ family: d.family, match, callsInReasoning: d.callsInReasoning === true });
    taken.push(...match.spans);
  }
  absorbEmptiedFences(text, hits);
  return hits;
}

/** Every opening marker of every dialect (for streaming hold-back), longest first, de-duplicated. */
export const ALL_MARKERS: readonly string[] = [...new Set(DIALECTS.flatMap((d) => d.markers))].sort((a, b) => b.length - a.length);
