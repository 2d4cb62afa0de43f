/**
 * Microsoft Phi-4-mini special tokens (`phi4_mini_tool_call`): `<|tool_call|>[{"name", "arguments"}, …]<|/tool_call|>`,
 * the form its chat template renders an assistant's calls in (ollama library `phi4-mini` template;
 * llguidance `docs/toolcalls.md` "Phi-4-Mini"), which the model writes back as text when the
 * server does not parse it. What the model really writes (BFCL's Phi-4-mini handler,
 * ShishirPatil/gorilla `berkeley-function-call-leaderboard/bfcl_eval/model_handler/local_inference/phi_fc.py`,
 * quoting Phi-4-mini-instruct outputs):
 * - the list between the two tokens (`phi4mini-bfcl-tool-call-tokens`);
 * - the closing `<|/tool_call|>` left out ("often the model will miss" it): a complete payload at
 *   the end of the text is read (`phi4mini-bfcl-missing-closer`);
 * - parallel calls as objects joined by `, ` with no list brackets (`phi4mini-bfcl-parallel-not-a-list`):
 *   every object is a call.
 * The closer is also accepted as `</|tool_call|>` (the spelling ggml-org/llama.cpp pull#12288's
 * first Phi-4 parser used). Granite 3.0 shares the opener but writes no closer and always a list
 * (`granite-tool-call.ts`): this dialect claims a text only when a Phi closer is present or the
 * opener is followed by an object, so Granite's unclosed lists stay Granite's.
 */
import { callsFromValue } from "./call-shape.js";
import { defineDialect, MatchBuilder } from "./define-dialect.js";
import { scanEnvelopes } from "./json-envelope.js";

const CLOSERS = ["<|/tool_call|>", "</|tool_call|>"] as const;

/** Dialect `phi4_mini_tool_call`. */
export const phi4MiniToolCall = defineDialect({
  family: "phi4_mini_tool_call",
  example: '<|tool_call|>[{"name": "calculate_final_velocity", "arguments": {"height": 150, "initial_velocity": 0}}]<|/tool_call|>',
  source: "https://github.com/ShishirPatil/gorilla/blob/main/berkeley-function-call-leaderboard/bfcl_eval/model_handler/local_inference/phi_fc.py",
  markers: ["<|tool_call|>"],
  detect: (text) => text.includes("<|tool_call|>") && (CLOSERS.some((c) => text.includes(c)) || /<\|tool_call\|>\s*\{/.test(text)),
  parse(text) {
    const out = new MatchBuilder(text);
    scanEnvelopes(text, { open: /<\|tool_call\|>/, close: CLOSERS, multiple: true, toCalls: (v) => callsFromValue(v) }, out);
    return out.result();
  },
});
